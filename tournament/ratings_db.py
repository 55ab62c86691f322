"""The skill ratings (``tournament.ratings.skill``) of a tournament's players from its signed sheets'
places, limited to what the reader may see as ``statistics_db`` limits the sheets: ``up_to`` (no hanchan
still hidden) and ``rounds`` (published hanchan only); None for either: no limit (the staff). One query.

The order of play: the hanchan by number, then the tables by number (docs/ratings.md); each table's
places are the tournament's own (``SeatResult.rank``: players equal on points share a place)."""

from __future__ import annotations

from collections.abc import Collection

from scoring.models import ScoreSheet, SeatResult
from tournament.models import Tournament
from tournament.ratings.skill import Game, Ratings, rate


def skill_of(tournament: Tournament, *, up_to: int | None, rounds: Collection[int] | None) -> Ratings:
    results = SeatResult.objects.filter(
        sheet__table__round__tournament=tournament, sheet__status=ScoreSheet.Status.SIGNED
    )
    if up_to is not None:
        results = results.filter(sheet__table__round__number__lte=up_to)
    if rounds is not None:
        results = results.filter(sheet__table__round__number__in=list(rounds))
    tables: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for hanchan, table, player, rank in results.order_by(
        "sheet__table__round__number", "sheet__table__number", "seat__wind"
    ).values_list("sheet__table__round__number", "sheet__table__number", "player", "rank"):
        tables.setdefault((hanchan, table), []).append((player, rank))
    games = [
        Game(key, tuple(player for player, _rank in seats), tuple(rank for _player, rank in seats))
        for key, seats in tables.items()
        if len(seats) == 4
    ]
    return rate(games)
