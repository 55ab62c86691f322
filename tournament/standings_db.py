"""The thin query layer of the standings: the database in, ``tournament.standings`` out, cached.

Pages and the API read ``cached_standings``; signing or correcting a sheet and giving or revoking a
penalty refresh the cache once the transaction commits, so no page view recomputes the standings.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db import transaction

from scoring.rules.scores import format_score
from tournament.standings import Entrant, HanchanResult, PenaltyEntry, Standings, compute_standings

CACHE_SECONDS = 24 * 3600


def cache_key(tournament_id: int) -> str:
    return f"standings:v1:{tournament_id}"


def load_standings(tournament_id: int) -> Standings:
    """Compute the standings from signed sheets and active penalties: four queries, no per-row work."""
    from penalties.models import Penalty
    from scoring.models import ScoreSheet, SeatResult
    from tournament.models import Player, Tournament

    tournament = Tournament.objects.only("tie_break").get(pk=tournament_id)
    entrants = [
        Entrant(pk, name, ranked=not (is_substitute or disqualified))
        for pk, name, is_substitute, disqualified in Player.objects.filter(tournament_id=tournament_id)
        .values_list("pk", "name", "is_substitute", "disqualified")
        .iterator(chunk_size=2000)
    ]
    results = [
        HanchanResult(player, round_number, points, rank, score, table, wind)
        for player, round_number, points, rank, score, table, wind in SeatResult.objects.filter(
            sheet__table__round__tournament_id=tournament_id, sheet__status=ScoreSheet.Status.SIGNED
        )
        .values_list(
            "player_id",
            "sheet__table__round__number",
            "points",
            "rank",
            "score",
            "sheet__table__number",
            "seat__wind",
        )
        .iterator(chunk_size=5000)
    ]
    penalties = [
        PenaltyEntry(player, Decimal(points), round_number)
        for player, points, round_number in Penalty.objects.filter(
            tournament_id=tournament_id, revoked_at=None
        )
        .values_list("player_id", "points", "round__number")
        .iterator(chunk_size=2000)
    ]
    # The rank history runs to the last hanchan with a signed sheet.
    return compute_standings(entrants, results, penalties, tie_break=tournament.tie_break)  # type: ignore[arg-type]


def serialize(standings: Standings) -> dict[str, Any]:
    """Standings as JSON-ready data (decimals as exact strings): what the cache, pages and API share."""

    return {
        "rounds": standings.rounds,
        "rows": [
            {
                "player": row.player,
                "name": row.name,
                "ranked": row.ranked,
                "rank": row.rank,
                "total": format_score(row.total),
                "hanchan_total": format_score(row.hanchan_total),
                "penalties": format_score(row.penalty_total),
                "played": row.played,
                "firsts": row.firsts,
                "by_round": {
                    str(n): {
                        "table": r.table,
                        "seat": r.seat,
                        "points": r.points,
                        "rank": r.rank,
                        "score": format_score(r.score),
                    }
                    for n, r in sorted(row.by_round.items())
                },
                "rank_history": row.rank_history,
            }
            for row in standings.rows
        ],
    }


def refresh_standings(tournament_id: int) -> dict[str, Any]:
    data = serialize(load_standings(tournament_id))
    cache.set(cache_key(tournament_id), data, CACHE_SECONDS)
    return data


def cached_standings(tournament_id: int) -> dict[str, Any]:
    data = cache.get(cache_key(tournament_id))
    return data if data is not None else refresh_standings(tournament_id)


def schedule_standings_refresh(tournament_id: int) -> None:
    """Refresh the cached standings once the current transaction commits."""
    transaction.on_commit(lambda: refresh_standings(tournament_id))
