"""The thin query layer of the standings: the database in, ``tournament.standings`` out, cached.

Pages and the API read ``cached_standings``; signing or correcting a sheet and giving or revoking a
penalty refresh the cache once the transaction commits, so no page view recomputes the standings.

No cached copy outlives a change: each change adds one to ``Tournament.standings_version`` in its own
transaction (``schedule_standings_refresh``), and every cached key of the standings names that
version, read with the tournament the request loads anyway. A refresh that never happened (the cache
was unreachable, the process died after the commit) costs one recomputation by the next reader, never
a stale answer: right again as soon as the database is, whatever the cache holds.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import F

from penalties.models import Penalty
from scoring.models import ScoreSheet, SeatResult
from scoring.rules.scores import format_score
from tournament import participation
from tournament.models import Player, Tournament
from tournament.participation_db import tournament_facts
from tournament.standings import Entrant, HanchanResult, PenaltyEntry, Standings, compute_standings

CACHE_SECONDS = 24 * 3600


def cache_key(tournament_id: int, standings_version: int) -> str:
    return f"standings:v3:{tournament_id}:{standings_version}"


def load_standings(tournament_id: int) -> Standings:
    """Compute the standings from signed sheets and active penalties: six queries, no per-row work."""
    return _load(tournament_id)[1]


def _load(tournament_id: int) -> tuple[int, Standings]:
    """The standings version, then the standings: at least as new as that version (read first)."""
    tournament = Tournament.objects.only("tie_break", "standings_version", "withdrawn_ranking").get(
        pk=tournament_id
    )
    facts = tournament_facts(tournament_id)
    rule = tournament.withdrawn_ranking
    entrants = [
        Entrant(
            pk,
            name,
            ranked=participation.is_ranked(facts[pk], rule),
            note=participation.unranked_reason(facts[pk], rule),
        )
        for pk, name in Player.objects.filter(tournament_id=tournament_id)
        .values_list("pk", "name")
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
    standings = compute_standings(entrants, results, penalties, tie_break=tournament.tie_break)  # type: ignore[arg-type]
    return tournament.standings_version, standings


def serialize(standings: Standings) -> dict[str, Any]:
    """Standings as JSON-ready data (decimals as exact strings): what the cache, pages and API share."""

    return {
        "rounds": standings.rounds,
        "rows": [
            {
                "player": row.player,
                "name": row.name,
                "ranked": row.ranked,
                "note": row.note,
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


SUMMARY_FIELDS = ("player", "name", "ranked", "note", "rank", "total", "penalties", "played")


def summary_key(tournament_id: int, standings_version: int) -> str:
    return f"standings-summary:v3:{tournament_id}:{standings_version}"


# What the live pages poll (the summary plus the tables still playing), computed once per change and
# shared by every web process. An entry names the standings version it was computed for and a second
# counter in the cache that the changes of the tables playing bump (``forget_live``); the first request
# to see newer numbers recomputes, while the others keep answering with the previous copy until it is
# there (no stampede of recomputations when hundreds of phones poll). An entry lives LIVE_SECONDS at
# most: that bounds how long a change that bumps nothing (a hanchan starting or ending), or a bump the
# cache missed, takes to show.
LIVE_SECONDS = 10
LIVE_PARTS = ("page", "api", "html")


def live_key(tournament_id: int, part: str) -> str:
    return f"standings-live:v3:{part}:{tournament_id}"


def live_version_key(tournament_id: int) -> str:
    return f"standings-live-version:v2:{tournament_id}"


def remember_live(tournament: Tournament, part: str, compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``compute()`` for the current versions of the tournament's live data, under ``part``."""
    key, version_key = live_key(tournament.pk, part), live_version_key(tournament.pk)
    found = cache.get_many([key, version_key])
    version = (tournament.standings_version, found.get(version_key, 0))
    entry = found.get(key)
    if entry is not None:
        stored_version, payload = entry
        if tuple(stored_version) == version:
            return payload  # type: ignore[no-any-return]
        if not cache.add(f"{key}:computing:{version[0]}:{version[1]}", 1, LIVE_SECONDS):
            return payload  # type: ignore[no-any-return]  # another process is computing the new one
    payload = compute()
    cache.set(key, (version, payload), LIVE_SECONDS)
    return payload


def forget_live(tournament_id: int) -> None:
    """Something the live pages show has changed: the next request computes it anew (within
    LIVE_SECONDS if the cache cannot be reached now)."""
    version_key = live_version_key(tournament_id)
    cache.add(version_key, 0, None)
    # The cache lost the key or cannot be reached: the entries expire on their own.
    with suppress(ValueError):
        cache.incr(version_key)


def refresh_standings(tournament_id: int) -> dict[str, Any]:
    """Recompute and cache the standings, in full and as the one-line-per-player summary that the live
    pages poll (a fraction of the size: no hanchan by hanchan details)."""
    return _refresh(tournament_id)[0]


def _refresh(tournament_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    standings_version, standings = _load(tournament_id)
    data = serialize(standings)
    summary = {
        "rounds": data["rounds"],
        "rows": [{name: row[name] for name in SUMMARY_FIELDS} for row in data["rows"]],
    }
    cache.set_many(
        {
            cache_key(tournament_id, standings_version): data,
            summary_key(tournament_id, standings_version): summary,
        },
        CACHE_SECONDS,
    )
    forget_live(tournament_id)
    return data, summary


def cached_standings(tournament: Tournament) -> dict[str, Any]:
    """The standings of the tournament as loaded by the request (its standings version)."""
    data = cache.get(cache_key(tournament.pk, tournament.standings_version))
    return data if data is not None else _refresh(tournament.pk)[0]


def cached_summary(tournament: Tournament) -> dict[str, Any]:
    """The standings summary: rank, name, total, penalties and hanchan played of every player."""
    summary = cache.get(summary_key(tournament.pk, tournament.standings_version))
    return summary if summary is not None else _refresh(tournament.pk)[1]


def schedule_standings_refresh(tournament_id: int) -> None:
    """The standings change in the current transaction: a new standings version, in the same
    transaction, and a refresh of the cached standings once it commits (a refresh that fails is logged,
    never undoes or refuses the change: the next reader recomputes)."""
    Tournament.objects.filter(pk=tournament_id).update(standings_version=F("standings_version") + 1)
    transaction.on_commit(lambda: refresh_standings(tournament_id), robust=True)
