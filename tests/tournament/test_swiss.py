"""Swiss hanchan: tables formed from the current standings, repeat meetings avoided."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from scoring import services as sheets
from tournament import services
from tournament.core.refusal import Refusal
from tournament.models import Player, Round, Seat, Tournament

POINTS = [45000, 32000, 25000, 18000]  # East wins, South second, ... at every table


def tables_of(round_: Round) -> list[list[int]]:
    seats = (
        Seat.objects.filter(round=round_)
        .order_by("table__number", "wind")
        .values_list("table__number", "player_id")
    )
    tables: dict[int, list[int]] = {}
    for number, player in seats:
        tables.setdefault(number, []).append(player)
    return [tables[n] for n in sorted(tables)]


@pytest.mark.django_db(transaction=True)
def test_swiss_hanchan_seats_the_leaders_together_without_repeats(
    tournament: Tournament, sixteen_players: list[Player], organiser: Any, referee: Any
) -> None:
    services.request_seating(tournament, organiser, seed=4)
    first = Round.objects.get(tournament=tournament, number=1)
    first.status = Round.Status.STARTED
    first.save()
    for table in first.tables.all():
        names = [seat.player.name for seat in table.seats.select_related("player").order_by("wind")]
        entry = {
            "form": "final",
            "final_points": dict(zip(names, POINTS, strict=True)),
            "riichi_sticks_left": 0,
        }
        sheets.sign_sheet(sheets.save_sheet(table, entry, referee, submit=True), referee)
    winners = {table[0] for table in tables_of(first)}

    with pytest.raises(PermissionDenied):
        services.seat_swiss_round(tournament, 2, referee)
    second = services.seat_swiss_round(tournament, 2, organiser)

    assert second.mode == Round.Mode.SWISS
    swiss = tables_of(second)
    assert set(swiss[0]) == winners  # the four table winners share table 1
    met_before = {frozenset(pair) for table in tables_of(first) for pair in combinations(table, 2)}
    assert not any(frozenset(pair) in met_before for table in swiss for pair in combinations(table, 2))
    assert sorted(p for table in swiss for p in table) == sorted(p.pk for p in sixteen_players)


@pytest.mark.django_db
def test_a_started_hanchan_is_not_reseated(
    tournament: Tournament, sixteen_players: list[Player], organiser: Any
) -> None:
    Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    with pytest.raises(Refusal, match="has started"):
        services.seat_swiss_round(tournament, 1, organiser)
