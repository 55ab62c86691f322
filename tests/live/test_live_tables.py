"""Live tables over the live stream, on two real uvicorn processes with the test database and Redis: a
draft saved hand by hand through one process reaches a public stream open on the other as a ``tables``
event carrying the public payload (computed once, where the draft was saved); the staff's stream gets
the notice alone; a hidden hanchan's tables never travel on a public stream."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.asgi_server import Server, open_stream
from tests.conftest import seat_table
from tests.scoring.hanchan import OUTCOMES
from tournament.models import Player, Round, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ana", "Ben", "Cho", "Dai"]


@pytest.fixture
def table(tournament: Tournament) -> Any:
    """Hanchan 1 of 2, started, one table: Ana, Ben, Cho and Dai."""
    Tournament.objects.filter(pk=tournament.pk).update(hanchan_count=2)
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    return seat_table(round_, 1, [Player.objects.create(tournament=tournament, name=n) for n in NAMES])


def save_draft(server: Server, table: Any, token: str, count: int) -> None:
    entry = {"form": "hands", "hands": [dict(hand) for hand in OUTCOMES[:count]]}
    status, body = server.post(f"/api/tables/{table.pk}/sheet/", {"entry": entry, "submit": False}, token)
    assert status == 201, body


def test_a_draft_saved_through_one_process_reaches_a_stream_of_another(
    table: Any, referee: Any, organiser: Any, server: Server, other_server: Server
) -> None:
    tournament = table.round.tournament
    public_stream = open_stream(server, f"/t/{tournament.slug}/live")
    staff = Client()
    staff.force_login(organiser)
    cookie = {"Cookie": f"sessionid={staff.cookies['sessionid'].value}"}
    staff_stream = open_stream(server, f"/t/{tournament.slug}/live", cookie)
    assert public_stream.next().kind == staff_stream.next().kind == "hello"

    save_draft(other_server, table, Token.objects.create(user=referee).key, 3)

    event = public_stream.until(lambda e: e.kind == "tables")[-1]
    assert event.data is not None
    payload = event.data["payload"]
    assert payload["round"] == 1 and payload["shown"] is True
    (first,) = payload["tables"]
    # After hand 3 of tests/scoring/hanchan.py: East 4, 1 honba, Dai's riichi stick on the table.
    assert [seat["points"] for seat in first["seats"]] == [31200, 30000, 27600, 30200]
    assert (first["hand"], first["honba"], first["riichi_sticks"], first["hands_played"]) == (3, 1, 1, 3)
    staff_event = staff_stream.until(lambda e: e.kind == "tables")[-1]
    assert staff_event.data is not None and "payload" not in staff_event.data  # the staff fetch their own
    assert staff_event.id == event.id
    public_stream.close()
    staff_stream.close()


def test_the_public_stream_never_carries_a_hidden_hanchans_tables(
    table: Any, referee: Any, server: Server, other_server: Server
) -> None:
    tournament = table.round.tournament
    # The table plays hanchan 2 of 2, the last one, hidden until the organisers reveal it.
    Round.objects.filter(pk=table.round_id).update(number=2)
    Round.objects.create(tournament=tournament, number=1, status=Round.Status.FINISHED)
    Tournament.objects.filter(pk=tournament.pk).update(hidden_hanchan=1)
    stream = open_stream(server, f"/t/{tournament.slug}/live")
    assert stream.next().kind == "hello"

    save_draft(other_server, table, Token.objects.create(user=referee).key, 3)

    events = [e for e in stream.drain(2.0) if e.kind == "tables"]
    assert events, "no tables event"
    for event in events:
        assert event.data is not None
        assert event.data["payload"] == {**event.data["payload"], "round": None, "shown": False, "tables": []}
        text = json.dumps(event.data)
        assert "31200" not in text and "Ana" not in text
    status, _, body = server.get(f"/t/{tournament.slug}/tables.json")
    assert status == 200 and json.loads(body)["tables"] == []
    stream.close()
