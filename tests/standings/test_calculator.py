"""The pure standings calculator: totals, shared ranks, tie-breaks, unranked players, rank history."""

from __future__ import annotations

import itertools
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.ruleset import get_ruleset
from scoring.rules.scores import hanchan_scores
from tournament.core.standings import Entrant, HanchanResult, PenaltyEntry, compute_standings

D = Decimal


def result(player: str, round_: int, score: str, rank: int = 2, points: int = 30000) -> HanchanResult:
    return HanchanResult(player=player, round=round_, points=points, rank=rank, score=D(score))


def test_total_is_hanchan_scores_minus_penalties_and_ranks_are_shared() -> None:
    entrants = [Entrant(p, p) for p in "ABCD"]
    results = [
        result("A", 1, "40.5", 1),
        result("B", 1, "10", 2),
        result("C", 1, "10", 2),
        result("D", 1, "-60.5", 4),
    ]
    standings = compute_standings(entrants, results, [PenaltyEntry("A", D(20), 1)])
    assert [(r.player, r.rank, r.total) for r in standings.rows] == [
        ("A", 1, D("20.5")),
        ("B", 2, D("10")),
        ("C", 2, D("10")),
        ("D", 4, D("-60.5")),
    ]
    assert standings.row_of("A").penalty_total == D(20)


def test_tie_break_most_firsts_then_best_hanchan() -> None:
    entrants = [Entrant(p, p) for p in "ABC"]
    results = [
        result("A", 1, "30", 1),
        result("A", 2, "-10", 3),
        result("B", 1, "10", 2),
        result("B", 2, "10", 2),
        result("C", 1, "25", 1),
        result("C", 2, "-5", 2),
    ]
    none = compute_standings(entrants, results)
    assert [(r.player, r.rank) for r in none.rows] == [("A", 1), ("B", 1), ("C", 1)]
    firsts = compute_standings(entrants, results, tie_breaks=["most_firsts"])
    assert [(r.player, r.rank) for r in firsts.rows] == [("A", 1), ("C", 1), ("B", 3)]
    best = compute_standings(entrants, results, tie_breaks=["best_hanchan"])
    assert [(r.player, r.rank) for r in best.rows] == [("A", 1), ("C", 2), ("B", 3)]


def test_substitutes_and_disqualified_players_keep_results_but_are_not_ranked() -> None:
    entrants = [Entrant("A", "A"), Entrant("S", "Sub", ranked=False), Entrant("X", "Xavier", ranked=False)]
    results = [result("A", 1, "-5"), result("S", 1, "50", 1), result("X", 1, "20")]
    standings = compute_standings(entrants, results)
    assert [(r.player, r.rank) for r in standings.rows] == [("A", 1), ("S", None), ("X", None)]
    assert standings.row_of("S").total == D(50)


def test_rank_after_every_round_counts_penalties_from_their_round() -> None:
    entrants = [Entrant(p, p) for p in "AB"]
    results = [result("A", 1, "10"), result("B", 1, "5"), result("A", 2, "0"), result("B", 2, "0")]
    standings = compute_standings(entrants, results, [PenaltyEntry("A", D(10), 2)], rounds=3)
    assert standings.row_of("A").rank_history == [1, 2, 2]
    assert standings.row_of("B").rank_history == [2, 1, 1]


def test_a_missed_round_has_no_result() -> None:
    standings = compute_standings([Entrant("A", "A")], [result("A", 2, "3")], [PenaltyEntry("A", D(30), 1)])
    row = standings.row_of("A")
    assert sorted(row.by_round) == [2]
    assert (row.played, row.total) == (1, D(-27))


tables = st.lists(
    st.tuples(st.lists(st.integers(-400, 1600), min_size=3, max_size=3), st.integers(0, 3)),
    min_size=1,
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(tables)
def test_table_scores_sum_to_minus_sticks_left_and_the_ranking_is_a_permutation(
    drawn: list[tuple[list[int], int]],
) -> None:
    ruleset = get_ruleset("WRC2015")
    entrants: list[Entrant] = []
    results: list[HanchanResult] = []
    for index, (hundreds, sticks) in enumerate(drawn):
        players = [f"t{index}p{seat}" for seat in range(4)]
        three = [h * 100 for h in hundreds]
        points = dict(zip(players, [*three, 120000 - 1000 * sticks - sum(three)], strict=True))
        ranks, _uma, scores = hanchan_scores(points, ruleset, sticks)
        # WRCR 2015 §5.9.2: the table's scores add up to minus the riichi sticks left (in thousands).
        assert sum(scores.values()) == -sticks
        entrants.extend(Entrant(p, p, ranked=seat != 3 or index % 2 == 0) for seat, p in enumerate(players))
        results.extend(HanchanResult(p, 1, points[p], ranks[p], scores[p]) for p in players)
    standings = compute_standings(entrants, results)
    ranked_ids = {e.id for e in entrants if e.ranked}
    ranked_rows = [r for r in standings.rows if r.rank is not None]
    assert sorted(r.player for r in ranked_rows) == sorted(ranked_ids)
    assert all(a.total >= b.total for a, b in itertools.pairwise(ranked_rows))
    assert ranked_rows[0].rank == 1
