"""The thin query layer of the team standings: the individual standings and the players' teams in,
``tournament.core.teams`` out, cached.

The team standings read the same inputs as the individual ones (``standings_db.load_standings``), with
the same cutoff: a caller gives ``up_to`` from ``standings_db.public_cutoff`` for the public, so that a
hanchan hidden from the individual standings never counts for a team either. A cached copy is keyed by
the tournament's standings version, its team rule, the cutoff and the players' teams, so a change to any
of them is never answered from an older copy.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache import cache

from scoring.rules.scores import format_score
from tournament.core.teams import Membership, TeamStandings, compute_team_standings
from tournament.models import Player, Tournament
from tournament.queries.standings_db import CACHE_SECONDS, load_standings


def memberships(tournament_id: int) -> list[Membership]:
    """Every player's team (empty: in no team) and whether a substitute."""
    return [
        Membership(pk, team, is_substitute)
        for pk, team, is_substitute in Player.objects.filter(tournament_id=tournament_id)
        .order_by("pk")
        .values_list("pk", "team", "is_substitute")
        .iterator(chunk_size=2000)
    ]


def load_team_standings(tournament: Tournament, up_to: int | None = None) -> TeamStandings:
    """The team standings from the database, as they stood after hanchan ``up_to`` (None: all)."""
    return compute_team_standings(
        load_standings(tournament.pk, up_to), memberships(tournament.pk), tournament.team_rule()
    )


def serialize(standings: TeamStandings) -> dict[str, Any]:
    """Team standings as JSON-ready data (decimals as exact strings)."""
    rule = standings.rule
    return {
        "rule": rule.ranking,
        "best_n": rule.best_n,
        "substitutes_count": rule.substitutes_count,
        "rounds": standings.rounds,
        "rows": [
            {
                "rank": row.rank,
                "name": row.name,
                "total": format_score(row.total),
                "penalties": format_score(row.penalty_total),
                "counted": row.counted,
                "played": row.played,
                "best_member_rank": row.best_member_rank,
                "members": [
                    {
                        "player": member.player,
                        "name": member.name,
                        "rank": member.rank,
                        "total": format_score(member.total),
                        "contribution": format_score(member.contribution),
                        "counted": member.counted,
                        "counted_hanchan": member.counted_hanchan,
                    }
                    for member in row.members
                ],
            }
            for row in standings.rows
        ],
    }


def cached_team_standings(tournament: Tournament, up_to: int | None = None) -> dict[str, Any]:
    """The team standings of the tournament as loaded by the request; with ``up_to``, as they stood
    after that hanchan. No rule: no rows, and nothing read."""
    rule = tournament.team_rule()
    if rule.ranking == "none":
        return {
            "rule": "none",
            "best_n": None,
            "substitutes_count": rule.substitutes_count,
            "rounds": 0,
            "rows": [],
        }
    teams = memberships(tournament.pk)
    digest = hashlib.sha256(repr([(m.player, m.team, m.is_substitute) for m in teams]).encode()).hexdigest()
    key = (
        f"team-standings:v1:{tournament.pk}:{tournament.standings_version}:{up_to}:"
        f"{rule.ranking}:{rule.best_n}:{rule.substitutes_count}:{digest[:32]}"
    )
    data = cache.get(key)
    if data is None:
        data = serialize(compute_team_standings(load_standings(tournament.pk, up_to), teams, rule))
        cache.set(key, data, CACHE_SECONDS)
    return data  # type: ignore[no-any-return]
