"""The thin query layer of the standings: the database in, ``tournament.core.standings`` out, cached.

Pages and the API read ``cached_standings``; signing or correcting a sheet and giving or revoking a
penalty refresh the cache once the transaction commits, so no page view recomputes the standings.

No cached copy outlives a change: each change adds one to ``Tournament.standings_version`` in its own
transaction (``schedule_standings_refresh``), and every cached key of the standings names that
version, read with the tournament the request loads anyway. A refresh that never happened (the cache
was unreachable, the process died after the commit) costs one recomputation by the next reader, never
a stale answer: right again as soon as the database is, whatever the cache holds.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from contextlib import suppress
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, F, Q, QuerySet
from django.dispatch import Signal

from penalties.models import Penalty
from scoring.models import ScoreSheet, SeatResult
from scoring.rules.scores import format_score
from tournament.core import club, participation
from tournament.core.phases import PhasedStandings, phased_standings
from tournament.core.standings import Entrant, HanchanResult, PenaltyEntry, Standings, compute_standings
from tournament.models import Player, Round, StaffRole, Tournament
from tournament.queries import access, live, phases_db
from tournament.queries.participation_db import tournament_facts

logger = logging.getLogger("tournament.live")

CACHE_SECONDS = 24 * 3600


def cache_key(tournament_id: int, standings_version: int) -> str:
    return f"standings:v4:{tournament_id}:{standings_version}"


def load_standings(tournament_id: int, up_to: int | None = None) -> Standings:
    """Compute the standings from signed sheets and active penalties: six queries, no per-row work.
    With ``up_to``, as they stood after hanchan ``up_to`` (the results and penalties of later hanchan
    left out; a penalty given for no hanchan always counts)."""
    return _load(tournament_id, up_to)[1]


def _load(tournament_id: int, up_to: int | None = None) -> tuple[int, Standings]:
    """The standings version, then the standings: at least as new as that version (read first). In a
    tournament in phases, the final ranking (``tournament.core.phases``)."""
    version, standings, phased = _load_phased(tournament_id, up_to)
    return version, phased.overall if phased is not None else standings


def load_phases(tournament_id: int, up_to: int | None = None) -> PhasedStandings | None:
    """The standings of each phase and the final ranking; None for a tournament in one phase."""
    return _load_phased(tournament_id, up_to)[2]


def _load_phased(tournament_id: int, up_to: int | None) -> tuple[int, Standings, PhasedStandings | None]:
    tournament = Tournament.objects.only("tie_breaks", "standings_version", "withdrawn_ranking", "kind").get(
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
        for player, round_number, points, rank, score, table, wind in signed_results(tournament_id, up_to)
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
    if tournament.is_club_session:  # ranked once a hanchan is finished (tournament.club)
        entrants = club.session_entrants(entrants, results)
    penalties = [
        PenaltyEntry(player, Decimal(points), round_number)
        for player, points, round_number in active_penalties(tournament_id, up_to)
        .values_list("player_id", "points", "round__number")
        .iterator(chunk_size=2000)
    ]
    plans = phases_db.plans_of(tournament_id)
    if len(plans) > 1:
        members = phases_db.members_of(tournament_id)
        phased = phased_standings(
            entrants, results, penalties, plans, members, tie_breaks=tournament.tie_breaks, up_to=up_to
        )
        return tournament.standings_version, phased.overall, phased
    # The rank history runs to the last hanchan with a signed sheet.
    standings = compute_standings(
        entrants,
        results,
        penalties,
        tie_breaks=tournament.tie_breaks,
        rounds=up_to if up_to is not None else None,
    )
    return tournament.standings_version, standings, None


def signed_results(tournament_id: int, up_to: int | None) -> QuerySet[SeatResult]:
    results = SeatResult.objects.filter(
        sheet__table__round__tournament_id=tournament_id, sheet__status=ScoreSheet.Status.SIGNED
    )
    return results if up_to is None else results.filter(sheet__table__round__number__lte=up_to)


def active_penalties(tournament_id: int, up_to: int | None) -> QuerySet[Penalty]:
    return visible_penalties(Penalty.objects.filter(tournament_id=tournament_id, revoked_at=None), up_to)


def last_complete_hanchan(tournament_id: int) -> int:
    """The number of hanchan complete from the first on (every table of each has a signed sheet)."""
    rounds = (
        Round.objects.filter(tournament_id=tournament_id)
        .annotate(
            table_count=Count("tables", distinct=True),
            signed=Count("tables", distinct=True, filter=Q(tables__sheet__status=ScoreSheet.Status.SIGNED)),
        )
        .order_by("number")
        .values_list("number", "table_count", "signed")
    )
    complete = 0
    for number, tables, signed in rounds:
        if number != complete + 1 or not tables or signed < tables:
            break
        complete = number
    return complete


def public_cutoff(tournament: Tournament) -> int | None:
    """After which hanchan the public sees the standings: None for all of them (live), else the last
    completed hanchan (``standings_publication`` completed), and never one of the last
    ``hidden_hanchan`` until the organiser reveals them. Staff always see the standings whole."""
    cutoff: int | None = None
    if tournament.standings_publication == Tournament.StandingsPublication.COMPLETED:
        cutoff = last_complete_hanchan(tournament.pk)
    if tournament.hidden_hanchan and not tournament.standings_revealed:
        shown = tournament.hanchan_count - tournament.hidden_hanchan
        cutoff = shown if cutoff is None else min(cutoff, shown)
    return cutoff


def reader_cutoff(user: Any, tournament: Tournament) -> int | None:
    """After which hanchan this reader sees results, everywhere results are shown (the standings, sheets
    and their hands, penalties, statistics, a player's page, teams, phases, streams): None, every
    hanchan, for the tournament's staff; ``public_cutoff`` for everyone else, a player signed in
    included (their own table's sheet aside: they entered and agreed it)."""
    if access.has_role(user, tournament, StaffRole.Role.REFEREE):
        return None
    return public_cutoff(tournament)


def shows_hanchan(cutoff: int | None, number: int) -> bool:
    """Whether a reader with ``cutoff`` (``reader_cutoff``) sees the results of hanchan ``number``."""
    return cutoff is None or number <= cutoff


def visible_penalties(penalties: QuerySet[Penalty], cutoff: int | None) -> QuerySet[Penalty]:
    """The penalties a reader with ``cutoff`` sees: those of the hanchan they see, and those given for
    no hanchan (which always count, as in the standings)."""
    if cutoff is None:
        return penalties
    return penalties.filter(Q(round=None) | Q(round__number__lte=cutoff))


def serialize(standings: Standings) -> dict[str, Any]:
    """Standings as JSON-ready data (decimals as exact strings): what the cache, pages and API share."""

    return {
        "rounds": standings.rounds,
        "penalty_round": standings.penalty_round,
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
                "phase": row.phase,
                "carried": format_score(row.carried),
            }
            for row in standings.rows
        ],
    }


SUMMARY_FIELDS = ("player", "name", "ranked", "note", "rank", "total", "penalties", "played", "phase")


def summary_key(tournament_id: int, standings_version: int) -> str:
    return f"standings-summary:v4:{tournament_id}:{standings_version}"


# What the live pages poll (the summary plus the tables still playing), computed once per change and
# shared by every web process. An entry names the standings version it was computed for and a second
# counter in the cache that the changes of the tables playing bump (``forget_live``); the first request
# to see newer numbers recomputes, while the others keep answering with the previous copy until it is
# there (no stampede of recomputations when hundreds of phones poll). An entry lives LIVE_SECONDS at
# most: that bounds how long a change that bumps nothing (a hanchan starting or ending), or a bump the
# cache missed, takes to show.
LIVE_SECONDS = 10
LIVE_PARTS = ("page", "api", "html")
# How long a live stream waits for another process's copy of a change (``remember_live``'s ``fresh``),
# polling the cache; the copy takes a few milliseconds to compute.
FRESH_WAIT_SECONDS = 2.0
FRESH_POLL_SECONDS = 0.005
#: Sent once a change of what the live pages show has committed, before its notice
#: (``announce_standings``): ``tournament_id``.
live_changed = Signal()


def live_key(tournament_id: int, part: str) -> str:
    return f"standings-live:v4:{part}:{tournament_id}"


def live_version_key(tournament_id: int) -> str:
    return f"standings-live-version:v2:{tournament_id}"


def remember_live(
    tournament: Tournament, part: str, compute: Callable[[], dict[str, Any]], *, fresh: bool = False
) -> dict[str, Any]:
    """``compute()`` for the current versions of the tournament's live data, under ``part``. While
    another process computes the current versions, the previous copy is the answer, unless ``fresh``
    (what a live stream sends as the change's, or what a change computes at its source): then the other
    process's copy, once it is there (``FRESH_WAIT_SECONDS`` at most, then computed here)."""
    key, version_key = live_key(tournament.pk, part), live_version_key(tournament.pk)
    found = cache.get_many([key, version_key])
    version = (tournament.standings_version, found.get(version_key, 0))
    entry = found.get(key)
    if entry is not None:
        stored_version, payload = entry
        if tuple(stored_version) == version:
            return payload  # type: ignore[no-any-return]
        flag = f"{key}:computing:{version[0]}:{version[1]}"
        if not cache.add(flag, 1, LIVE_SECONDS):
            if not fresh:
                return payload  # type: ignore[no-any-return]  # another process is computing the new one
            waited = _computed_elsewhere(key, flag, lambda entry: tuple(entry[0]) >= version)
            if waited is not None:
                return waited[1]  # type: ignore[no-any-return]
    payload = compute()
    cache.set(key, (version, payload), LIVE_SECONDS)
    return payload


def store_live(tournament: Tournament, part: str, payload: dict[str, Any]) -> None:
    """``payload`` as the copy of the current versions under ``part`` (computed where a change was made,
    ``tournament.queries.live_standings``)."""
    key, version_key = live_key(tournament.pk, part), live_version_key(tournament.pk)
    cache.set(key, ((tournament.standings_version, cache.get(version_key, 0)), payload), LIVE_SECONDS)


def _computed_elsewhere(key: str, flag: str, fits: Callable[[Any], bool]) -> Any:
    """What another process, holding ``flag``, is computing under ``key``, once it is in the cache and
    ``fits``; None when it is not there within ``FRESH_WAIT_SECONDS``, or when nobody holds the flag
    (it expired, or the cache cannot be reached: its ``add`` failed as a miss, and nothing is coming)."""
    deadline = time.monotonic() + FRESH_WAIT_SECONDS
    while time.monotonic() < deadline and cache.has_key(flag):
        time.sleep(FRESH_POLL_SECONDS)
        found = cache.get(key)
        if found is not None and fits(found):
            return found
    return None


def announce_standings(tournament_id: int) -> None:
    """After a change of what the live pages show has committed: its public standings computed here,
    once for the site (``live_changed``'s receivers, ``tournament.queries.live_standings``), then the notice.
    A receiver that fails is logged; the notice goes out all the same (the streams compute it then)."""
    for receiver_, result in live_changed.send_robust(sender=None, tournament_id=tournament_id):
        if isinstance(result, Exception):
            logger.error(
                "live standings of tournament %s not computed by %r",
                tournament_id,
                receiver_,
                exc_info=result,
            )
    live.announce(tournament_id, "standings")


def forget_live(tournament_id: int) -> None:
    """Something the live pages show has changed: the next request computes it anew (within
    LIVE_SECONDS if the cache cannot be reached now), and the live streams hear of it."""
    _bump_live(tournament_id)
    announce_standings(tournament_id)


def _bump_live(tournament_id: int) -> None:
    version_key = live_version_key(tournament_id)
    cache.add(version_key, 0, None)
    # The cache lost the key or cannot be reached: the entries expire on their own.
    with suppress(ValueError):
        cache.incr(version_key)


def refresh_standings(tournament_id: int) -> dict[str, Any]:
    """Recompute and cache the standings, in full and as the one-line-per-player summary that the live
    pages poll (a fraction of the size: no hanchan by hanchan details). Readers of this version wait
    for it rather than compute it too (``_refreshed_elsewhere``)."""
    version = Tournament.objects.filter(pk=tournament_id).values_list("standings_version", flat=True).first()
    if version is not None:
        cache.add(_refreshing_key(tournament_id, version), 1, LIVE_SECONDS)
    return _refresh(tournament_id)[0]


def _refresh(tournament_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    standings_version, standings = _load(tournament_id)
    data = serialize(standings)
    summary = {
        "rounds": data["rounds"],
        "penalty_round": data.get("penalty_round", 0),
        "rows": [{name: row[name] for name in SUMMARY_FIELDS} for row in data["rows"]],
    }
    cache.set_many(
        {
            cache_key(tournament_id, standings_version): data,
            summary_key(tournament_id, standings_version): summary,
        },
        CACHE_SECONDS,
    )
    _bump_live(tournament_id)  # a reader's recomputation announces nothing: the change did
    return data, summary


def cached_standings(tournament: Tournament, up_to: int | None = None) -> dict[str, Any]:
    """The standings of the tournament as loaded by the request (its standings version); with
    ``up_to``, as they stood after that hanchan."""
    if up_to is not None:
        return _cached_up_to(tournament, up_to)[0]
    key = cache_key(tournament.pk, tournament.standings_version)
    data = cache.get(key) or _refreshed_elsewhere(tournament, key)
    return data if data is not None else _refresh(tournament.pk)[0]


def _refreshing_key(tournament_id: int, standings_version: int) -> str:
    return f"standings-refreshing:v1:{tournament_id}:{standings_version}"


def _refreshed_elsewhere(tournament: Tournament, key: str) -> Any:
    """A version of the standings is computed once for the site: when another process (the change's
    own, on its commit, or another reader's) is computing it, its result once in the cache
    (``FRESH_WAIT_SECONDS`` at most); None when this process is to compute it."""
    flag = _refreshing_key(tournament.pk, tournament.standings_version)
    if cache.add(flag, 1, LIVE_SECONDS):
        return None
    return _computed_elsewhere(key, flag, lambda found: True)


def cached_summary(tournament: Tournament, up_to: int | None = None) -> dict[str, Any]:
    """The standings summary: rank, name, total, penalties and hanchan played of every player."""
    if up_to is not None:
        return _cached_up_to(tournament, up_to)[1]
    key = summary_key(tournament.pk, tournament.standings_version)
    summary = cache.get(key) or _refreshed_elsewhere(tournament, key)
    return summary if summary is not None else _refresh(tournament.pk)[1]


def _cached_up_to(tournament: Tournament, up_to: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The standings after hanchan ``up_to``, under the tournament's standings version (so that no
    change is missed), computed once per version."""
    key = f"standings-up-to:v2:{tournament.pk}:{tournament.standings_version}:{up_to}"
    found = cache.get(key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    data = serialize(load_standings(tournament.pk, up_to))
    summary = {
        "rounds": data["rounds"],
        "penalty_round": data.get("penalty_round", 0),
        "rows": [{n: row[n] for n in SUMMARY_FIELDS} for row in data["rows"]],
    }
    cache.set(key, (data, summary), CACHE_SECONDS)
    return data, summary


# Sent once a change of a tournament's standings has committed: what is computed from them elsewhere
# (the rating lists: ``tournament.services.ratings``) is computed again.
results_changed = Signal()


def schedule_standings_refresh(tournament_id: int) -> None:
    """The standings change in the current transaction: a new standings version, in the same
    transaction, and a refresh of the cached standings once it commits, then ``results_changed`` (a
    refresh that fails is logged, never undoes or refuses the change: the next reader recomputes)."""
    Tournament.objects.filter(pk=tournament_id).update(standings_version=F("standings_version") + 1)
    transaction.on_commit(lambda: refresh_standings(tournament_id), robust=True)
    transaction.on_commit(lambda: announce_standings(tournament_id), robust=True)
    transaction.on_commit(lambda: results_changed.send(sender=None, tournament_id=tournament_id), robust=True)


def cached_phases(tournament: Tournament, up_to: int | None = None) -> dict[str, Any]:
    """The phases of the tournament, each with its players after the cut and its own standings (a
    tournament in one phase: no phases), under the tournament's standings version."""
    key = f"phases:v1:{tournament.pk}:{tournament.standings_version}:{up_to}"
    found = cache.get(key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    data = {"phases": _phases_data(tournament, up_to), "as_of": up_to}
    cache.set(key, data, CACHE_SECONDS)
    return data


def _phases_data(tournament: Tournament, up_to: int | None) -> list[dict[str, Any]]:
    phases = list(
        tournament.phases.order_by("number").prefetch_related("entries__player", "entries__replaces")
    )
    if len(phases) < 2:
        return []  # a tournament in one phase: its standings are the phase's
    phased = load_phases(tournament.pk, up_to)
    computed = {phase.number: phase for phase in phased.phases} if phased is not None else {}
    first = 1
    data = []
    for phase in phases:
        standing = computed.get(phase.number)
        entries = sorted(phase.entries.all(), key=lambda e: (e.seed, e.left_at is not None))
        data.append(
            {
                "number": phase.number,
                "name": phase.name,
                "first_hanchan": first,
                "last_hanchan": first + phase.hanchan - 1,
                "seating": phase.seating,
                "carry_over": phase.carry_over if phase.number > 1 else None,
                "advance": phase.advance,
                "cut_at": phase.cut_at.isoformat() if phase.cut_at else None,
                "reached": bool(standing and standing.reached),
                "entries": [
                    {
                        "player": entry.player_id,
                        "name": entry.player.name,
                        "seed": entry.seed,
                        "replaces": entry.replaces.name if entry.replaces else None,
                        "left": entry.left_at is not None,
                    }
                    for entry in entries
                ],
                "standings": serialize(standing.standings)["rows"] if standing and standing.reached else [],
            }
        )
        first += phase.hanchan
    return data
