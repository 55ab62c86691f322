"""The signed score sheets of a tournament as ``tournament.core.statistics.SheetRecord``: what the statistics
of a player and of the tournament read. Two queries (the sheets with their rounds and tables, their seat
results with the seats).

What a viewer may see is the caller's to say and this module's to apply: ``up_to`` (the standings'
``public_cutoff``: no sheet of a later hanchan) and ``rounds`` (``access.public_rounds``: only those
hanchan); None for either means no limit (the tournament's staff).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from decimal import Decimal

from django.utils.formats import number_format

from scoring.models import ScoreSheet, SeatResult
from tournament.core.statistics import (
    PlayerStatistics,
    SheetRecord,
    TournamentStatistics,
    player_statistics,
    tournament_statistics,
)
from tournament.models import Player, Tournament


def signed_sheets(
    tournament: Tournament,
    *,
    up_to: int | None = None,
    rounds: Collection[int] | None = None,
    player: Player | None = None,
) -> list[SheetRecord]:
    """The signed sheets of ``tournament`` in hanchan and table order, limited as the module says; with
    ``player``, only the sheets of his tables."""
    sheets = ScoreSheet.objects.filter(table__round__tournament=tournament, status=ScoreSheet.Status.SIGNED)
    if up_to is not None:
        sheets = sheets.filter(table__round__number__lte=up_to)
    if rounds is not None:
        sheets = sheets.filter(table__round__number__in=list(rounds))
    if player is not None:
        sheets = sheets.filter(results__player=player)
    rows = list(
        sheets.order_by("table__round__number", "table__number").values_list(
            "pk", "table__round__number", "table__number", "replay"
        )
    )
    results: dict[int, list[tuple[int, int, str, int, int, Decimal]]] = defaultdict(list)
    for sheet, wind, player_id, name, rank, points, score in SeatResult.objects.filter(
        sheet__in=[row[0] for row in rows]
    ).values_list("sheet", "seat__wind", "player", "player__name", "rank", "points", "score"):
        results[sheet].append((wind, player_id, name, rank, points, score))
    records = []
    for pk, hanchan, table, replay in rows:
        seats = sorted(results[pk])
        if len(seats) != 4 or not isinstance(replay, dict):
            continue
        written = replay.get("players")
        names = (
            tuple(str(name) for name in written)
            if isinstance(written, list) and len(written) == 4
            else tuple(seat[2] for seat in seats)
        )
        records.append(
            SheetRecord(
                hanchan=hanchan,
                table=table,
                players=names,
                player_ids=tuple(seat[1] for seat in seats),
                ranks={names[i]: seat[3] for i, seat in enumerate(seats)},
                points={names[i]: seat[4] for i, seat in enumerate(seats)},
                scores={names[i]: seat[5] for i, seat in enumerate(seats)},
                replay=replay,
            )
        )
    return records


def statistics_of(tournament: Tournament) -> TournamentStatistics:
    """The organisers' figures of the whole tournament: every signed sheet, nothing hidden; the values in
    the labels grouped as the reader's language writes them."""
    return tournament_statistics(signed_sheets(tournament), tournament.ruleset(), grouped=_grouped)


def player_statistics_of(
    tournament: Tournament, player: Player, *, up_to: int | None, rounds: Collection[int] | None
) -> PlayerStatistics:
    """A player's figures over the signed sheets of his tables, limited as the module says (what the
    player page and the API show the viewer)."""
    sheets = signed_sheets(tournament, up_to=up_to, rounds=rounds, player=player)
    return player_statistics(player.pk, sheets, tournament.ruleset())


def _grouped(value: int) -> str:
    return number_format(value, force_grouping=True)
