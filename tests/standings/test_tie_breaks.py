"""The ordered tie-breaks of the pure calculator, each against a hand-computed example."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.core.standings import (
    MAX_TIE_BREAKS,
    Entrant,
    HanchanResult,
    TieBreak,
    compute_standings,
    tie_breaks_problem,
)


def r(player: str, round_: int, score: str, rank: int, table: int) -> HanchanResult:
    return HanchanResult(
        player=player, round=round_, points=30000, rank=rank, score=Decimal(score), table=table
    )


def ranking(
    players: str, results: list[HanchanResult], *tie_breaks: TieBreak
) -> list[tuple[str, int | None]]:
    standings = compute_standings([Entrant(p, p) for p in players], results, tie_breaks=tie_breaks)
    return [(row.player, row.rank) for row in standings.rows]


# A and B both total 0; they met at table 1 of hanchan 1, where A scored +10 and B -10.
MET = [r("A", 1, "10", 2, 1), r("B", 1, "-10", 3, 1), r("A", 2, "-10", 3, 2), r("B", 2, "10", 2, 3)]


def test_head_to_head_separates_players_who_met() -> None:
    # Names alone would put A first: B, scored in reverse, shows the order comes from the meeting.
    reversed_scores = [
        r("A", 1, "-10", 3, 1),
        r("B", 1, "10", 2, 1),
        r("A", 2, "10", 2, 2),
        r("B", 2, "-10", 3, 3),
    ]
    assert ranking("AB", MET) == [("A", 1), ("B", 1)]
    assert ranking("AB", MET, "head_to_head") == [("A", 1), ("B", 2)]
    assert ranking("AB", reversed_scores, "head_to_head") == [("B", 1), ("A", 2)]


def test_head_to_head_does_not_separate_players_who_never_met() -> None:
    # Same scores, but at different tables each time: both have 0 head-to-head.
    apart = [r("A", 1, "10", 2, 1), r("B", 1, "-10", 3, 2), r("A", 2, "-10", 3, 3), r("B", 2, "10", 1, 4)]
    assert ranking("AB", apart, "head_to_head") == [("A", 1), ("B", 1)]
    # The next tie-break decides: B has a first place, A none.
    assert ranking("AB", apart, "head_to_head", "most_firsts") == [("B", 1), ("A", 2)]


def test_a_three_way_tie_where_only_some_met() -> None:
    """A, B, C and E all total 10. Only A and B met (hanchan 1, table 1: A +15, B -5), so the
    head-to-head totals among the four are A 15, C 0, E 0, B -5. C and E stay equal and go on to the
    next tie-break: C's best hanchan +25 beats E's +5."""
    results = [
        r("A", 1, "15", 1, 1),
        r("B", 1, "-5", 3, 1),
        r("A", 2, "-5", 3, 3),
        r("B", 2, "15", 1, 4),
        r("C", 1, "25", 1, 2),
        r("C", 2, "-15", 4, 5),
        r("E", 1, "5", 2, 6),
        r("E", 2, "5", 2, 7),
    ]
    assert ranking("ABCE", results, "head_to_head") == [("A", 1), ("C", 2), ("E", 2), ("B", 4)]
    assert ranking("ABCE", results, "head_to_head", "best_hanchan") == [
        ("A", 1),
        ("C", 2),
        ("E", 3),
        ("B", 4),
    ]


def test_head_to_head_counts_only_the_tied_players() -> None:
    """A and B total 0 and met once, with C (who is not tied with them) at the table: only A's and B's
    scores at that table count, C's does not make the table count for them twice."""
    results = [
        r("A", 1, "-5", 3, 1),
        r("B", 1, "5", 2, 1),
        r("C", 1, "40", 1, 1),
        r("A", 2, "5", 2, 2),
        r("B", 2, "-5", 3, 3),
    ]
    assert ranking("ABC", results, "head_to_head") == [("C", 1), ("B", 2), ("A", 3)]


# A and B total 10, one first place each; A has a second, B two thirds.
PLACES = [
    r("A", 1, "40", 1, 1),
    r("A", 2, "5", 2, 1),
    r("A", 3, "-35", 4, 1),
    r("B", 1, "20", 1, 2),
    r("B", 2, "-5", 3, 2),
    r("B", 3, "-5", 3, 2),
]


def test_best_placements_decided_at_seconds() -> None:
    assert ranking("BA", PLACES, "most_firsts") == [("A", 1), ("B", 1)]
    reversed_names = [
        HanchanResult(
            player={"A": "B", "B": "A"}[x.player],
            round=x.round,
            points=x.points,
            rank=x.rank,
            score=x.score,
            table=x.table,
        )
        for x in PLACES
    ]
    assert ranking("AB", PLACES, "best_placements") == [("A", 1), ("B", 2)]
    assert ranking("AB", reversed_names, "best_placements") == [("B", 1), ("A", 2)]


def test_best_placements_then_thirds() -> None:
    # Equal 1sts and 2nds (none); A has a third, B a fourth more.
    results = [
        r("A", 1, "-5", 3, 1),
        r("A", 2, "-15", 4, 1),
        r("B", 1, "-10", 4, 2),
        r("B", 2, "-10", 4, 2),
    ]
    assert ranking("BA", results, "best_placements") == [("A", 1), ("B", 2)]


def test_the_order_of_the_tie_breaks_matters() -> None:
    """A and C total 10: A has the best single hanchan (+40), C more first places (two)."""
    results = [
        *PLACES[:3],
        r("C", 1, "25", 1, 3),
        r("C", 2, "5", 1, 3),
        r("C", 3, "-20", 4, 3),
    ]
    assert ranking("AC", results, "best_hanchan", "best_placements") == [("A", 1), ("C", 2)]
    assert ranking("AC", results, "best_placements", "best_hanchan") == [("C", 1), ("A", 2)]
    assert ranking("AC", results, "most_firsts", "best_hanchan") == [("C", 1), ("A", 2)]


def test_the_rank_history_applies_the_tie_breaks_after_each_hanchan() -> None:
    """After hanchan 1 A and B both have +10, B as a first place; after hanchan 2 both +15."""
    results = [r("A", 1, "10", 2, 1), r("B", 1, "10", 1, 2), r("A", 2, "5", 2, 3), r("B", 2, "5", 2, 4)]
    shared = compute_standings([Entrant(p, p) for p in "AB"], results)
    assert [row.rank_history for row in shared.rows] == [[1, 1], [1, 1]]
    broken = compute_standings([Entrant(p, p) for p in "AB"], results, tie_breaks=["best_placements"])
    assert [(row.player, row.rank_history) for row in broken.rows] == [("B", [1, 1]), ("A", [2, 2])]
    # Head-to-head in the history: MET ties A and B only after hanchan 2, when their meeting decides.
    met = compute_standings([Entrant(p, p) for p in "AB"], MET, tie_breaks=["head_to_head"])
    assert [(row.player, row.rank_history) for row in met.rows] == [("A", [1, 1]), ("B", [2, 2])]


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        (["most_firsts", "head_to_head"], None),
        ([], None),
        ("most_firsts", "a list of tie-breaks"),
        (["most_firsts", "most_firsts"], "each tie-break at most once"),
        (["coin_toss"], "'coin_toss' is not a tie-break"),
        ([1], "this value"),
        (["most_firsts"] * (MAX_TIE_BREAKS + 1), f"at most {MAX_TIE_BREAKS} tie-breaks"),
    ],
)
def test_tie_break_orders_are_checked(value: object, problem: str | None) -> None:
    found = tie_breaks_problem(value)
    assert found == problem if problem is None else (found is not None and problem in found)


def test_a_three_way_tie_at_one_table() -> None:
    """A, B and C total 0 and all met at table 1 of hanchan 1 (A +20, B 0, C -20); later hanchan apart."""
    results = [
        r("A", 1, "20", 1, 1),
        r("B", 1, "0", 2, 1),
        r("C", 1, "-20", 3, 1),
        r("A", 2, "-20", 4, 2),
        r("B", 2, "0", 2, 3),
        r("C", 2, "20", 1, 4),
    ]
    assert ranking("CBA", results, "head_to_head") == [("A", 1), ("B", 2), ("C", 3)]


# Small tournaments with few distinct scores, so that ties are common: (hanchan, table) -> four scores.
small_tournaments = st.lists(st.lists(st.integers(-2, 2), min_size=4, max_size=4), min_size=1, max_size=12)
orders = st.permutations(["most_firsts", "best_hanchan", "best_placements", "head_to_head"]).flatmap(
    lambda steps: st.integers(0, 4).map(lambda n: steps[:n])
)


@settings(max_examples=150, deadline=None)
@given(small_tournaments, orders)
def test_tie_breaks_only_separate_equal_totals(tables: list[list[int]], steps: list[TieBreak]) -> None:
    """Eight players, two tables a hanchan: tie-breaks refine the shared ranking, never reorder
    different totals, and the rank after the last hanchan is the final rank."""
    players = "ABCDEFGH"
    results = []
    for index, scores in enumerate(tables):
        round_, table = index // 2 + 1, index % 2 + 1
        seated = players[4 * (table - 1) + round_ % 4 :] + players[: 4 * (table - 1) + round_ % 4]
        for seat, score in enumerate(scores):
            place = 1 + sum(other > score for other in scores)
            results.append(r(seated[seat], round_, str(score * 5), place, table))
    entrants = [Entrant(p, p) for p in players]
    shared = {row.player: row for row in compute_standings(entrants, results).rows}
    broken = compute_standings(entrants, results, tie_breaks=steps)
    for row in broken.rows:
        assert row.rank is not None and shared[row.player].rank is not None
        # Ranks only move down from the shared rank, and stay within the group of equal totals.
        equal = sum(other.total == row.total for other in broken.rows)
        assert shared[row.player].rank <= row.rank < shared[row.player].rank + equal
        assert row.rank_history[-1] == row.rank
    assert all(a.total >= b.total for a, b in itertools.pairwise(broken.rows))


def test_an_unknown_identifier_separates_no_one() -> None:
    """The settings refuse one (tie_breaks_problem); a stored one still never breaks the standings."""
    assert ranking("AB", MET, "coin_toss", "head_to_head") == [("A", 1), ("B", 2)]  # type: ignore[arg-type]
