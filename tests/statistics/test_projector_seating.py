"""The projector's next hanchan: its seating only once published (publication rules), whoever is logged in."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.conftest import make_players, seat_table
from tournament import services
from tournament.models import Round, Tournament


@pytest.fixture
def by_hanchan(tournament: Tournament) -> Tournament:
    tournament.seating_publication = Tournament.SeatingPublication.BY_HANCHAN
    tournament.save()
    players = make_players(tournament, 8, prefix="Seated")
    for number in (1, 2):
        round_ = Round.objects.create(tournament=tournament, number=number, status="seated")
        seat_table(round_, 1, players[:4])
        seat_table(round_, 2, players[4:])
    return tournament


@pytest.mark.django_db
def test_the_next_hanchan_shows_once_published(by_hanchan: Tournament, organiser: Any) -> None:
    staff = Client()
    staff.force_login(organiser)  # the room's screen shows what the public sees, whoever is logged in
    url = f"/t/{by_hanchan.slug}/projector/seating.json"
    assert staff.get(url).json() == {"round": None, "tables": []}
    assert "<h3>Table 1</h3>" not in staff.get(f"/t/{by_hanchan.slug}/projector/").content.decode()
    services.publish_seating(by_hanchan.rounds.get(number=1), organiser)
    data = staff.get(url).json()
    assert data["round"] == 1
    assert [t["table"] for t in data["tables"]] == [1, 2]
    assert data["tables"][0]["seats"] == [
        {"wind": "East", "name": "Seated 001"},
        {"wind": "South", "name": "Seated 002"},
        {"wind": "West", "name": "Seated 003"},
        {"wind": "North", "name": "Seated 004"},
    ]
    assert "Seating of hanchan 1" in staff.get(f"/t/{by_hanchan.slug}/projector/").content.decode()
    # Once hanchan 1 starts, the next is hanchan 2: not shown until it is published too.
    services.operate_clock(by_hanchan.rounds.get(number=1), organiser, "start")
    assert staff.get(url).json()["round"] is None
    services.publish_seating(by_hanchan.rounds.get(number=2), organiser)
    assert staff.get(url).json()["round"] == 2
