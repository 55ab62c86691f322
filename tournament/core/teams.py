"""The team standings calculator, in plain Python (no Django): the individual standings in, teams out.

A team is every player who gives the same (non-empty) team name; players without a team are in no team.
Substitutes are members of their team only when the tournament counts them (``substitutes_count``);
otherwise they stay out of it. Disqualified and withdrawn players stay members: what they scored counts
for the team as it does in their own row (a tournament may disqualify a whole team by hand).

The rule is the tournament's (``TeamRanking``):

- ``sum``: the team total is the sum of every member's overall total.
- ``best_overall``: the sum of the overall totals of the best ``best_n`` members (ties among members by
  name, which changes nothing in the total).
- ``best_per_hanchan``: in each hanchan, the best ``best_n`` hanchan scores of the members who played it
  count. A member's point penalties are subtracted from the team total whatever the selection (WRCR 2015
  §7.1: a penalty comes off the overall score, never the table score, so it never decides whose hanchan
  counts); a penalty still counts when its member has no counted hanchan.

Penalties count as they do in the individual standings: in a member's total (``sum``, ``best_overall``),
beside the selection (``best_per_hanchan``).

A member's ``contribution`` is what the member adds to the team total: their total when counted
(``sum``, ``best_overall``), their counted hanchan scores less their penalties (``best_per_hanchan``);
the contributions add up to the team total. ``counted`` is whether any of the member's scores count.
``played`` is the number of hanchan in which at least one member played.

Ranking: descending team total; equal totals are ordered by the team's best member's rank in the
individual standings (a team whose members are all unranked comes after), then by name; teams equal in
total and best member's rank share the rank (1, 2, 2, 4), listed by name.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from tournament.core.collation import name_key
from tournament.core.standings import StandingRow, Standings

TeamRanking = Literal["none", "sum", "best_per_hanchan", "best_overall"]
BEST_RULES = ("best_per_hanchan", "best_overall")
MAX_BEST_N = 20
ZERO = Decimal(0)
UNRANKED = 10**9  # the sort value of a team none of whose members is ranked


@dataclass(frozen=True, slots=True)
class TeamRule:
    ranking: TeamRanking = "none"
    best_n: int | None = None  # 1..MAX_BEST_N, for the best-N rules
    substitutes_count: bool = False

    def __post_init__(self) -> None:
        if self.ranking in BEST_RULES and not (self.best_n and 1 <= self.best_n <= MAX_BEST_N):
            raise ValueError(f"the rule {self.ranking} counts the best N members: N from 1 to {MAX_BEST_N}")


@dataclass(frozen=True, slots=True)
class Membership:
    """A player's team, as registered."""

    player: Hashable
    team: str  # empty: in no team
    is_substitute: bool = False


@dataclass(slots=True)
class TeamMember:
    player: Hashable
    name: str
    rank: int | None  # the individual rank, None when unranked
    total: Decimal  # the individual overall total (penalties in)
    penalty_total: Decimal
    contribution: Decimal = ZERO
    counted: bool = False
    counted_hanchan: list[int] = field(default_factory=list)  # best_per_hanchan: the hanchan that count


@dataclass(slots=True)
class TeamRow:
    name: str
    members: list[TeamMember]
    rank: int | None = None
    total: Decimal = ZERO
    penalty_total: Decimal = ZERO  # the members' penalties (already in the total)
    counted: int = 0  # members of whom something counts
    played: int = 0  # hanchan in which at least one member played
    best_member_rank: int | None = None


@dataclass(frozen=True, slots=True)
class TeamStandings:
    rule: TeamRule
    rows: list[TeamRow]
    rounds: int

    def row_of(self, team: str) -> TeamRow:
        for row in self.rows:
            if row.name == team:
                return row
        raise KeyError(team)


def compute_team_standings(
    standings: Standings, memberships: Iterable[Membership], rule: TeamRule
) -> TeamStandings:
    """The teams of ``standings`` (individual, as the viewer may see them) under ``rule``."""
    if rule.ranking == "none":
        return TeamStandings(rule=rule, rows=[], rounds=standings.rounds)
    teams = _teams(standings, memberships, rule)
    # Each name's collation key once (computing it is the dear part of every sort below).
    keys = {row.player: name_key(row.name) for members in teams.values() for row in members}
    rows = [_team_row(name, members, rule, keys) for name, members in teams.items()]

    def key(row: TeamRow) -> tuple[Decimal, int]:
        best = row.best_member_rank
        return (-row.total, UNRANKED if best is None else best)

    rows.sort(key=lambda row: (key(row), name_key(row.name)))
    for index, row in enumerate(rows):
        same = index and key(row) == key(rows[index - 1])
        row.rank = rows[index - 1].rank if same else index + 1
    return TeamStandings(rule=rule, rows=rows, rounds=standings.rounds)


def _teams(
    standings: Standings, memberships: Iterable[Membership], rule: TeamRule
) -> dict[str, list[StandingRow]]:
    team_of: Mapping[Hashable, str] = {
        m.player: m.team.strip()
        for m in memberships
        if m.team.strip() and (rule.substitutes_count or not m.is_substitute)
    }
    teams: dict[str, list[StandingRow]] = {}
    for row in standings.rows:
        team = team_of.get(row.player)
        if team:
            teams.setdefault(team, []).append(row)
    return teams


def _team_row(name: str, rows: list[StandingRow], rule: TeamRule, keys: Mapping[Hashable, Any]) -> TeamRow:
    members = {
        row.player: TeamMember(row.player, row.name, row.rank, row.total, row.penalty_total)
        for row in sorted(rows, key=lambda r: keys[r.player])
    }
    if rule.ranking == "sum":
        for member in members.values():
            member.contribution, member.counted = member.total, True
    elif rule.ranking == "best_overall":
        best = sorted(members.values(), key=lambda m: (-m.total, keys[m.player]))[: rule.best_n]
        for member in best:
            member.contribution, member.counted = member.total, True
    else:
        _best_per_hanchan(rows, members, rule.best_n or 0, keys)
    ranks = [m.rank for m in members.values() if m.rank is not None]
    played = {number for row in rows for number in row.by_round}
    ordered = sorted(members.values(), key=lambda m: (-m.contribution, keys[m.player]))
    return TeamRow(
        name=name,
        members=ordered,
        total=sum((m.contribution for m in ordered), ZERO),
        penalty_total=sum((m.penalty_total for m in ordered), ZERO),
        counted=sum(1 for m in ordered if m.counted),
        played=len(played),
        best_member_rank=min(ranks) if ranks else None,
    )


def _best_per_hanchan(
    rows: list[StandingRow], members: dict[Hashable, TeamMember], best_n: int, keys: Mapping[Hashable, Any]
) -> None:
    """Each hanchan's best ``best_n`` scores count; every member's penalties come off (WRCR 2015 §7.1)."""
    by_round: dict[int, list[tuple[Decimal, Hashable]]] = {}
    for row in rows:
        for number, result in row.by_round.items():
            by_round.setdefault(number, []).append((result.score, row.player))
    for number in sorted(by_round):
        scores = sorted(by_round[number], key=lambda s: (-s[0], keys[s[1]]))
        for score, player in scores[:best_n]:
            member = members[player]
            member.contribution += score
            member.counted = True
            member.counted_hanchan.append(number)
    for member in members.values():
        member.contribution -= member.penalty_total
