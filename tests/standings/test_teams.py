"""The pure team standings calculator on a team event worked out by hand.

Eight players over two hanchan (WRC 2015 uma 15, 5, -5, -15; score = (points - 30,000) / 1,000 + uma):
team Kyoto is Aki, Ayu and Ami; team Osaka is Ben and Bo; team Nagoya is Chi and Cai, Cai a
substitute; Tom is in no team.

    hanchan 1, table 1: Aki 45,000 -> +30   Ben 32,000 -> +7    Chi 25,000 -> -10   Tom 18,000 -> -27
    hanchan 1, table 2: Ayu 38,000 -> +23   Cai 30,000 -> +5    Bo  28,000 -> -7    Ami 24,000 -> -21
    hanchan 2, table 1: Ben 40,000 -> +25   Ayu 33,000 -> +8    Tom 27,000 -> -8    Cai 20,000 -> -25
    hanchan 2, table 2: Chi 42,000 -> +27   Ami 31,000 -> +6    Aki 26,000 -> -9    Bo  21,000 -> -24

Ami gets a 20-point chombo penalty in hanchan 2 (WRCR 2015 §7.1). Totals: Aki 21, Ayu 31, Ami -35,
Ben 32, Bo -31, Chi 17, Cai -20 (substitute: not ranked), Tom -35. Individual ranks: Ben 1, Ayu 2,
Aki 3, Chi 4, Bo 5, Ami and Tom 6.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.core.standings import Entrant, HanchanResult, PenaltyEntry, Standings, compute_standings
from tournament.core.teams import Membership, TeamRule, TeamStandings, compute_team_standings

D = Decimal

TEAMS = {
    "Aki": ("Kyoto", False),
    "Ayu": ("Kyoto", False),
    "Ami": ("Kyoto", False),
    "Ben": ("Osaka", False),
    "Bo": ("Osaka", False),
    "Chi": ("Nagoya", False),
    "Cai": ("Nagoya", True),
    "Tom": ("", False),
}
SCORES = {  # (hanchan, player): score
    (1, "Aki"): 30,
    (1, "Ben"): 7,
    (1, "Chi"): -10,
    (1, "Tom"): -27,
    (1, "Ayu"): 23,
    (1, "Cai"): 5,
    (1, "Bo"): -7,
    (1, "Ami"): -21,
    (2, "Ben"): 25,
    (2, "Ayu"): 8,
    (2, "Tom"): -8,
    (2, "Cai"): -25,
    (2, "Chi"): 27,
    (2, "Ami"): 6,
    (2, "Aki"): -9,
    (2, "Bo"): -24,
}


def individual(up_to: int = 2) -> Standings:
    entrants = [Entrant(name, name, ranked=not substitute) for name, (_, substitute) in TEAMS.items()]
    results = [
        HanchanResult(name, number, 30000 + score * 1000, 1, D(score))
        for (number, name), score in SCORES.items()
        if number <= up_to
    ]
    penalties = [PenaltyEntry("Ami", D(20), 2)] if up_to >= 2 else []
    return compute_standings(entrants, results, penalties)


MEMBERSHIPS = [Membership(name, team, substitute) for name, (team, substitute) in TEAMS.items()]


def teams(rule: TeamRule, up_to: int = 2) -> TeamStandings:
    return compute_team_standings(individual(up_to), MEMBERSHIPS, rule)


def table(standings: TeamStandings) -> list[tuple[int | None, str, Decimal, int, int]]:
    return [(row.rank, row.name, row.total, row.counted, row.played) for row in standings.rows]


def contributions(standings: TeamStandings, team: str) -> dict[str, tuple[Decimal, bool]]:
    return {m.name: (m.contribution, m.counted) for m in standings.row_of(team).members}


def test_the_individual_standings_are_as_worked_out() -> None:
    rows = {row.name: (row.rank, row.total) for row in individual().rows}
    assert rows == {
        "Ben": (1, D(32)),
        "Ayu": (2, D(31)),
        "Aki": (3, D(21)),
        "Chi": (4, D(17)),
        "Bo": (5, D(-31)),
        "Ami": (6, D(-35)),
        "Tom": (6, D(-35)),
        "Cai": (None, D(-20)),
    }


def test_no_rule_no_teams() -> None:
    assert teams(TeamRule("none")).rows == []


def test_sum_of_every_member_ties_broken_by_the_best_members_rank() -> None:
    # Kyoto 21 + 31 - 35 = 17; Osaka 32 - 31 = 1; Nagoya (Cai not counted) 17. Kyoto and Nagoya tie on
    # 17: Kyoto's best member (Ayu) is 2nd, Nagoya's (Chi) 4th, so Kyoto is first. Tom is in no team.
    standings = teams(TeamRule("sum"))
    assert table(standings) == [
        (1, "Kyoto", D(17), 3, 2),
        (2, "Nagoya", D(17), 1, 2),
        (3, "Osaka", D(1), 2, 2),
    ]
    assert contributions(standings, "Kyoto") == {
        "Ayu": (D(31), True),
        "Aki": (D(21), True),
        "Ami": (D(-35), True),
    }
    assert standings.row_of("Kyoto").best_member_rank == 2
    assert standings.row_of("Kyoto").penalty_total == D(20)


def test_sum_with_substitutes_counted() -> None:
    # Nagoya: Chi 17 + Cai -20 = -3.
    assert table(teams(TeamRule("sum", substitutes_count=True))) == [
        (1, "Kyoto", D(17), 3, 2),
        (2, "Osaka", D(1), 2, 2),
        (3, "Nagoya", D(-3), 2, 2),
    ]


def test_best_two_overall() -> None:
    # Kyoto: Ayu 31 + Aki 21 = 52 (Ami, -35 with the penalty, left out); Osaka: 32 - 31 = 1;
    # Nagoya without the substitute: Chi 17 alone; with him: 17 - 20 = -3.
    standings = teams(TeamRule("best_overall", best_n=2))
    assert table(standings) == [
        (1, "Kyoto", D(52), 2, 2),
        (2, "Nagoya", D(17), 1, 2),
        (3, "Osaka", D(1), 2, 2),
    ]
    assert contributions(standings, "Kyoto")["Ami"] == (D(0), False)
    with_substitutes = teams(TeamRule("best_overall", best_n=2, substitutes_count=True))
    assert with_substitutes.row_of("Nagoya").total == D(-3)


def test_best_two_per_hanchan_penalty_comes_off_the_team_whatever_the_selection() -> None:
    # Kyoto, hanchan 1: Aki 30 + Ayu 23 (Ami's -21 left out) = 53; hanchan 2: Ayu 8 + Ami 6 (Aki's -9
    # left out) = 14; Ami's penalty 20 comes off: 53 + 14 - 20 = 47. Contributions: Aki 30, Ayu 23 + 8 =
    # 31, Ami 6 - 20 = -14. Osaka: (7 - 7) + (25 - 24) = 1. Nagoya with Cai: (5 - 10) + (27 - 25) = -3.
    standings = teams(TeamRule("best_per_hanchan", best_n=2, substitutes_count=True))
    assert table(standings) == [
        (1, "Kyoto", D(47), 3, 2),
        (2, "Osaka", D(1), 2, 2),
        (3, "Nagoya", D(-3), 2, 2),
    ]
    assert contributions(standings, "Kyoto") == {
        "Ayu": (D(31), True),
        "Aki": (D(30), True),
        "Ami": (D(-14), True),
    }
    kyoto = {m.name: m.counted_hanchan for m in standings.row_of("Kyoto").members}
    assert kyoto == {"Aki": [1], "Ayu": [1, 2], "Ami": [2]}


def test_best_one_per_hanchan_a_penalty_of_a_member_who_never_counts_still_counts() -> None:
    # Kyoto: Aki's 30 in hanchan 1, Ayu's 8 in hanchan 2; Ami counts in no hanchan, yet her penalty
    # comes off: 30 + 8 - 20 = 18, two members counted. Osaka: Ben 7 + 25 = 32. Nagoya without Cai:
    # Chi -10 + 27 = 17.
    standings = teams(TeamRule("best_per_hanchan", best_n=1))
    assert table(standings) == [
        (1, "Osaka", D(32), 1, 2),
        (2, "Kyoto", D(18), 2, 2),
        (3, "Nagoya", D(17), 1, 2),
    ]
    assert contributions(standings, "Kyoto") == {
        "Aki": (D(30), True),
        "Ayu": (D(8), True),
        "Ami": (D(-20), False),
    }


def test_hidden_hanchan_never_count() -> None:
    # As after hanchan 1 (hanchan 2 and its penalty left out): Kyoto 30 + 23 - 21 = 32, Osaka 7 - 7 = 0,
    # Nagoya -10.
    assert table(teams(TeamRule("sum"), up_to=1)) == [
        (1, "Kyoto", D(32), 3, 1),
        (2, "Osaka", D(0), 2, 1),
        (3, "Nagoya", D(-10), 1, 1),
    ]


def test_equal_total_and_best_rank_share_the_rank_listed_by_name() -> None:
    entrants = [Entrant(p, p) for p in ("W1", "X1", "Y1", "Z1")]
    results = [HanchanResult(p, 1, 30000, 1, D(0)) for p in ("W1", "X1", "Y1", "Z1")]
    memberships = [Membership(p, p[0]) for p in ("W1", "X1", "Y1", "Z1")]
    standings = compute_team_standings(compute_standings(entrants, results), memberships, TeamRule("sum"))
    assert [(row.rank, row.name) for row in standings.rows] == [(1, "W"), (1, "X"), (1, "Y"), (1, "Z")]


@pytest.mark.parametrize("best_n", [None, 0, 21])
def test_best_rules_need_n_from_1_to_20(best_n: int | None) -> None:
    with pytest.raises(ValueError, match="N from 1 to 20"):
        TeamRule("best_overall", best_n=best_n)


@settings(max_examples=200, deadline=None)
@given(
    scores=st.lists(st.integers(-80, 80), min_size=12, max_size=12),
    teams=st.lists(st.sampled_from(["", "X", "Y", "Z"]), min_size=6, max_size=6),
    penalties=st.lists(st.integers(0, 30), min_size=6, max_size=6),
    ranking=st.sampled_from(["sum", "best_per_hanchan", "best_overall"]),
    best_n=st.integers(1, 4),
)
def test_contributions_add_up_and_sum_is_every_members_total(
    scores: list[int], teams: list[str], penalties: list[int], ranking: str, best_n: int
) -> None:
    """Whatever the scores: the members' contributions add up to the team total, ``sum`` is the sum of
    the members' totals, and a best-N rule never counts more than N scores of a hanchan nor more than
    ``sum`` would when every score is counted with N at least the team's size."""
    players = [f"P{i}" for i in range(6)]
    entrants = [Entrant(p, p) for p in players]
    results = [HanchanResult(p, 1 + i // 6, 30000, 1, D(scores[i])) for i, p in enumerate(players * 2)]
    penalty_entries = [
        PenaltyEntry(p, D(points), 1) for p, points in zip(players, penalties, strict=True) if points
    ]
    standings = compute_standings(entrants, results, penalty_entries)
    memberships = [Membership(p, team) for p, team in zip(players, teams, strict=True)]
    rule = TeamRule(ranking, best_n=best_n if ranking != "sum" else None)  # type: ignore[arg-type]
    computed = compute_team_standings(standings, memberships, rule)
    totals = {row.player: row.total for row in standings.rows}
    assert sorted(row.name for row in computed.rows) == sorted(set(teams) - {""})
    for row in computed.rows:
        assert row.total == sum((m.contribution for m in row.members), D(0))
        if ranking == "sum":
            assert row.total == sum((totals[m.player] for m in row.members), D(0))
        if ranking == "best_per_hanchan":
            for number in (1, 2):
                assert sum(number in m.counted_hanchan for m in row.members) <= best_n
        if len(row.members) <= best_n:
            assert row.total == sum((totals[m.player] for m in row.members), D(0))
    ranks = [row.rank for row in computed.rows]
    assert ranks == sorted(ranks) and (not ranks or ranks[0] == 1)
