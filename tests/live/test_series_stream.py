"""A series' live stream (``/series/<slug>/live``) on a real uvicorn process, the test database and Redis:
a sheet signed in one of its tournaments reaches the series' stream as the series' standings, worked out
by hand; a tournament's stream never carries a series' notice, nor a series' stream a tournament's."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring import services as sheets
from tests.asgi_server import Server, open_stream
from tests.conftest import make_players, seat_table
from tournament.models import Round, Series, Tournament
from tournament.queries import live


def test_a_series_notice_is_its_own_subject() -> None:
    assert live.parse_notice(b"s3:5:series") == ("s3", 5, "series")
    assert live.parse_notice(b"3:5:standings") == (3, 5, "standings")
    for wrong in (b"s3:5:standings", b"3:5:series", b"sx:5:series", b"s:5:series", b"s3:x:series"):
        assert live.parse_notice(wrong) is None, wrong
    assert live.missed_kinds(1, 3, [b"2:series", b"3:series"], live.kinds_of("s3")) == ["series"]
    assert live.missed_kinds(0, 9, [b"8:series"], live.kinds_of("s3")) == ["series"]  # the log is short
    with pytest.raises(ValueError, match="series"):
        live.announce(3, "series")


@pytest.mark.django_db(transaction=True)
def test_a_sheet_signed_in_a_tournament_pushes_the_series_standings(
    tournament: Tournament, referee: Any, server: Server
) -> None:
    round_ = Round.objects.create(tournament=tournament, number=1, status="started")
    table = seat_table(round_, 1, make_players(tournament, 4, prefix="P"))
    series = Series.objects.create(name="Season", slug="season")
    series.tournaments.set([tournament])
    series_stream = open_stream(server, "/series/season/live")
    tournament_stream = open_stream(server, f"/t/{tournament.slug}/live")
    assert series_stream.status == 200 and series_stream.headers["content-type"] == "text/event-stream"
    assert series_stream.next().kind == tournament_stream.next().kind == "hello"

    names = [seat.player.name for seat in table.seats.order_by("wind")]
    points = dict(zip(names, [40000, 30000, 30000, 20000], strict=True))
    entry = {"form": "final", "riichi_sticks_left": 0, "final_points": points}
    sheets.sign_sheet(sheets.save_sheet(table, entry, referee, submit=True), referee)

    # WRCR 2015, 30,000 returned, uma 15/5: P 001 +10 + 15 = 25; P 002 and P 003 tie for 2nd and share
    # the uma of 2nd and 3rd (5 - 5) / 2 = 0; P 004 -10 - 15 = -25. The series' sum of its one event, once
    # signed (the submitted sheet's notice came first, every score still 0).
    def signed(event: Any) -> bool:
        return event.kind == "series" and '"25"' in json.dumps(event.data)

    event = series_stream.until(signed)[-1]
    assert event.data is not None and event.data["version"] == int(event.id or 0)
    rows = [(r["rank"], r["name"], r["score"], r["events"]) for r in event.data["payload"]["rows"]]
    assert rows == [(1, "P 001", "25", 1), (2, "P 002", "0", 1), (2, "P 003", "0", 1), (4, "P 004", "-25", 1)]
    assert {e.kind for e in series_stream.drain(0.5)} <= {"series"}
    assert "series" not in {e.kind for e in tournament_stream.drain(0.5)}
    assert open_stream(server, "/series/no-such-series/live").status == 404
    series_stream.close()
    tournament_stream.close()
