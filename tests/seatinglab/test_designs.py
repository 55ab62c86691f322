"""Designs the offline finder builds whole: transversal designs from difference matrices (seatinglab.matrix)
and repeat-free schedules with a prescribed leave (seatinglab.sat_group.sat_group_rounds with ``apart``), or
with strangers who share strangers (``shared``, the leave chosen by the solver or by seatinglab.leave), and
one base hanchan developed over Z_m whose leave is annealed for shared strangers (seatinglab.develop)."""

from __future__ import annotations

import ast
import random
from itertools import combinations
from types import ModuleType

import pytest

from seatinglab import cli
from seatinglab.cli_anneal import best_kept, generator_start
from seatinglab.group import GroupAction, PlayerRef
from seatinglab.leave import leave_candidates
from seatinglab.matrix import difference_matrix, is_difference_matrix, matrix_schedule
from seatinglab.sat_group import coverable_classes, sat_group_rounds
from seatinglab.satfind import Unsatisfiable
from tests.seating.helpers import pair_counts
from tournament.seating.constructions import common_opponent_figures
from tournament.seating.cyclic import CyclicShape


def _table_repeats(rounds: list[list[list[int]]], n: int) -> int:
    visits: dict[tuple[int, int], int] = {}
    for hanchan in rounds:
        for t, table in enumerate(hanchan):
            for p in table:
                visits[p, t] = visits.get((p, t), 0) + 1
    return sum(c - 1 for c in visits.values())


@pytest.mark.parametrize("m", [5, 7, 11])
def test_a_difference_matrix_seats_4m_players_for_m_hanchan_with_no_repeat_of_any_kind(m: int) -> None:
    pytest.importorskip("pysat")
    rows = difference_matrix(m, random.Random(0), 60.0)
    assert rows is not None and is_difference_matrix(rows, m)
    rounds = matrix_schedule(rows, m)
    n = 4 * m
    for hanchan in rounds:
        assert sorted(p for table in hanchan for p in table) == list(range(n))
    met = pair_counts(rounds)
    # Players of different types meet exactly once, two of one type never.
    assert met == {(p, q): 1 for p, q in combinations(range(n), 2) if p // m != q // m}
    # Every player sits at every table once.
    assert _table_repeats(rounds, n) == 0
    # The strangers of one type share every player of the three other types.
    assert common_opponent_figures(rounds, n)[:2] == (3 * m, 4 * m * (m - 1) // 2)


@pytest.mark.parametrize("m", [3, 4, 6])
def test_no_difference_matrix_over_z3_or_an_even_cyclic_group(m: int) -> None:
    # Z_m of even order has no orthomorphism at all, and Z_3 has too few elements for three of them.
    pytest.importorskip("pysat")
    with pytest.raises(Unsatisfiable):
        difference_matrix(m, random.Random(0), 60.0)


def test_the_rows_of_a_difference_matrix_are_checked() -> None:
    assert is_difference_matrix([[0, 0, 0], [0, 1, 2], [0, 2, 1]], 3)
    assert not is_difference_matrix([[0, 0, 0], [0, 1, 2], [0, 2, 2]], 3)


def _pure(
    orders: tuple[int, ...], types: int, elements: list[tuple[int, ...]]
) -> list[tuple[PlayerRef, PlayerRef]]:
    zero = tuple(0 for _ in orders)
    return [(("type", i, zero), ("type", i, g)) for i in range(types) for g in elements]


def test_a_prescribed_leave_is_never_met_and_every_other_pair_meets_once() -> None:
    pytest.importorskip("pysat")
    # 16 players = Z_2 x Z_2 x 4 types, the types apart: four hanchan that the group maps to themselves
    # (a resolvable transversal design; the affine plane without one of its parallel classes).
    apart = _pure((2, 2), 4, [(0, 1), (1, 0), (1, 1)])
    rounds = sat_group_rounds((2, 2), 4, 0, [None] * 4, random.Random(0), 60.0, apart=apart)
    assert rounds is not None and len(rounds) == 4
    met = pair_counts(rounds)
    assert met == {(p, q): 1 for p, q in combinations(range(16), 2) if p // 4 != q // 4}
    # Two players of one type share the 12 players of the other types as common opponents.
    assert common_opponent_figures(rounds, 16)[:2] == (12, 24)


def test_a_leave_that_cannot_be_kept_is_proved_impossible() -> None:
    pytest.importorskip("pysat")
    # 12 players in four types of three who never meet, three hanchan: a resolvable transversal design
    # with groups of three, which would take three mutually orthogonal Latin squares of order 3 (there
    # are two at most).
    apart = _pure((3,), 4, [(1,)])
    with pytest.raises(Unsatisfiable):
        sat_group_rounds((3,), 4, 0, [None] * 3, random.Random(0), 60.0, apart=apart)


def _leave_argv(tables: str) -> list[str]:
    # 20 players = Z_5 x 4 types, the types apart: five hanchan that Z_5 maps to themselves.
    apart = ";".join(f"{i}:0-{i}:{d}" for i in range(4) for d in (1, 2))
    argv = ["--players", "20", "--rounds", "5", "--method", "anneal", "--start", "group", "--tables", tables]
    argv += ["--group", "5", "--types", "4", "--apart", apart, "--stabilisers", "*;*;*;*;*"]
    argv += ["--excess", "0", "--table-repeats", "0", "--opponents", "15", "--seconds", "20", "--seed", "1"]
    return argv


# Everyone at every table once, and two of one type share the other 15 players.
LEAVE_FIGURES = "20 x 5: {'excess': 0, 'table_repeats': 0, 'opponents': 15, 'at_fewest': 40"


def test_the_finder_anneals_table_numbers_around_the_hanchan_of_a_leave(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--start group``: the SAT method's hanchan, then only table numbers move."""
    pytest.importorskip("pysat")
    from seatinglab import native

    try:
        native.self_check(8, [[[0, 1, 2, 3], [4, 5, 6, 7]]], 1, 1, 0)
    except native.NoCompiler as error:
        pytest.skip(str(error))
    argv = [*_leave_argv("anneal"), "--engine", "c", "--table-moves", "1.0", "--hard", "1", "--hot", "3"]
    assert cli.main([*argv, "--cold", "0.05"]) == 0
    assert LEAVE_FIGURES in capsys.readouterr().out


def test_the_generators_table_search_numbers_the_tables_of_a_leave(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--start group --tables generator``: nobody above ceil(R/T) visits to a table, groups kept."""
    pytest.importorskip("pysat")
    assert cli.main([*_leave_argv("generator"), "--attempts", "2"]) == 0
    assert LEAVE_FIGURES in capsys.readouterr().out


@pytest.mark.parametrize(
    ("orders", "k", "f", "short"), [((6,), 4, 0, []), ((3, 3), 3, 1, []), ((4,), 3, 0, [[(2,)]])]
)
def test_the_classes_of_a_group_action_hold_every_pair_once(
    orders: tuple[int, ...], k: int, f: int, short: list[list[tuple[int, ...]]]
) -> None:
    action = GroupAction(orders, k, f, short)
    assert sum(action.pairs_in.values()) == action.n * (action.n - 1) // 2
    assert all(action.player(action.ref(p)) == p for p in range(action.n))
    for pair, c in action.class_of.items():
        # Every element moves a pair within its class.
        for g in action.elements:
            a, b = (action.act(g, p) for p in pair)
            assert action.class_of[min(a, b), max(a, b)] == c


def shared_strangers(n: int, rounds: list[list[list[int]]]) -> dict[tuple[int, int], int]:
    """For each pair of players who never meet, how many players meet neither of them."""
    met = {p: {p} for p in range(n)}
    for hanchan in rounds:
        for table in hanchan:
            for p in table:
                met[p].update(table)
    strange = {p: set(range(n)) - met[p] for p in range(n)}
    return {(p, q): len(strange[p] & strange[q]) for p, q in combinations(range(n), 2) if q in strange[p]}


def test_strangers_who_share_two_strangers_are_four_groups_of_four() -> None:
    pytest.importorskip("pysat")
    # 16 x 4: every player has 3 strangers; sharing two of them makes the strangers groups of four
    # who never meet (a resolvable transversal design: over Z_2 x Z_2, as Z_4 has none), and each
    # stranger shares all 12 others.
    rounds = sat_group_rounds((2, 2), 4, 0, [None] * 4, random.Random(0), 60.0, shared=2)
    assert rounds is not None
    assert max(pair_counts(rounds).values()) == 1
    shares = shared_strangers(16, rounds)
    assert len(shares) == 24 and set(shares.values()) == {2}
    assert common_opponent_figures(rounds, 16)[:2] == (12, 24)


def test_no_stranger_shares_only_the_floor_when_none_may() -> None:
    pytest.importorskip("pysat")
    # At least one shared stranger, and no pair at exactly one: the groups of four again.
    rounds = sat_group_rounds((2, 2), 4, 0, [None] * 4, random.Random(0), 60.0, shared=1, shared_fewest=0)
    assert rounds is not None
    assert set(shared_strangers(16, rounds).values()) == {2}


def test_strangers_cannot_share_more_strangers_than_they_have() -> None:
    pytest.importorskip("pysat")
    with pytest.raises(Unsatisfiable):
        sat_group_rounds((2, 2), 4, 0, [None] * 4, random.Random(0), 60.0, shared=3)


def test_a_chosen_leave_gives_every_player_its_strangers_and_its_shares() -> None:
    # 40 x 8 over Z_10 x 4 types: 15 strangers each; the figures of each leave found are those of its
    # graph, counted pair by pair.
    action = GroupAction((10,), 4, 0)
    seated = coverable_classes(action, [None] * 8)
    forced = {c for c in action.pairs_in if c not in seated}
    leaves = leave_candidates(action, 8, forced, random.Random(0), 1.0, keep=3)
    assert leaves and forced <= set(leaves[0].classes)
    members = action.class_members()
    for leave in leaves:
        pairs = [pair for c in leave.classes for pair in members[c]]
        degree = [0] * 40
        for p, q in pairs:
            degree[p] += 1
            degree[q] += 1
        assert degree == [15] * 40
        strange = [{q for pair in pairs if p in pair for q in pair if q != p} for p in range(40)]
        shares = [len(strange[p] & strange[q]) for p, q in pairs]
        assert min(shares) == leave.shared
        assert shares.count(leave.shared) == leave.at_fewest
    assert [leave.rank() for leave in leaves] == sorted(leave.rank() for leave in leaves)


def test_dropping_hanchan_keeps_those_whose_table_mates_share_strangers() -> None:
    # 40 x 13 seats everyone with everyone once; three hanchan fewer leave their table-mates strangers,
    # who share the two others of their table and, for the best three, often more.
    design = generator_start(40, 13, 0)
    keep = best_kept(design, 40, 10)
    assert len(keep) == 10 and len(set(keep)) == 10
    assert common_opponent_figures([design[i] for i in keep], 40)[:2] == (24, 57)
    assert common_opponent_figures(design[:10], 40)[:2] == (24, 108)


def test_the_finder_drops_hanchan_from_a_longer_schedule(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--players", "16", "--rounds", "4", "--method", "anneal", "--start", "drop", "--from-rounds", "5"]
    argv += ["--tables", "generator", "--attempts", "1", "--opponents", "12", "--table-repeats", "48"]
    assert cli.main(argv) == 0
    out = capsys.readouterr()
    assert "kept hanchan 0,1,2,3 of 5" in out.err
    # The affine plane of order 4 less one parallel class: the three strangers of each player (the
    # rest of their table in the hanchan dropped) share the two others, so 16 - 2 * 3 + 2 common
    # opponents for all 24 pairs of strangers.
    assert "'excess': 0," in out.out and "'opponents': 12, 'at_fewest': 24," in out.out


def _develop() -> ModuleType:
    """The compiled development search, built on first use; skipped without a C compiler (the offline
    finder's own requirement, not the product's)."""
    from seatinglab import develop, native

    try:
        develop.self_check(CyclicShape(5, 4, 0, 1), 0, 1, 1)
    except native.NoCompiler as error:
        pytest.skip(str(error))
    return develop


@pytest.mark.parametrize(("m", "transversal"), [(7, 0), (7, 1), (11, 1), (13, 0)])
def test_the_development_search_keeps_its_class_counts_up_to_date(m: int, transversal: int) -> None:
    develop = _develop()
    for seed in (1, 2, 3):
        assert develop.self_check(CyclicShape(m, 4, 0, 1), transversal, 5000, seed) == 0


def test_a_development_whose_strangers_share_two_strangers() -> None:
    """28 x 7 over Z_7 x 4: six strangers each, so 28 - 2 * 6 + 2 = 18 common opponents when every two
    strangers share two strangers; the search reaches it in well under a second, counted again here."""
    develop = _develop()
    outcome = develop.develop_native(CyclicShape(7, 4, 0, 1), 0, 1, 30.0, shared=2)
    assert outcome.reached
    rounds = outcome.rounds
    assert len(rounds) == 7
    for hanchan in rounds:
        assert sorted(p for table in hanchan for p in table) == list(range(28))
    met = pair_counts(rounds)
    assert max(met.values()) == 1 and len(met) == 7 * 7 * 6
    assert common_opponent_figures(rounds, 28)[0] >= 18


def test_the_development_search_returns_its_last_state_when_time_runs_out() -> None:
    # 36 x 12 over Z_9 x 4 + 3 transversal hanchan: 36 meetings each among 35 others, never repeat-free.
    develop = _develop()
    outcome = develop.develop_native(CyclicShape(9, 4, 0, 1), 3, 1, 0.2, shared=10)
    assert not outcome.reached and len(outcome.rounds) == 12


def test_the_finder_numbers_the_tables_of_a_development(capsys: pytest.CaptureFixture[str]) -> None:
    """``--start develop``: 28 x 8 over Z_7 x 4 plus a transversal hanchan, three strangers each who
    share a stranger (28 - 6 + 1 = 23 common opponents at least), then the generator's table search."""
    _develop()
    argv = ["--players", "28", "--rounds", "8", "--method", "anneal", "--start", "develop"]
    argv += ["--shape", "7,4,0,1", "--transversal", "1", "--opponents", "23", "--hard", "3", "--hot", "1"]
    argv += ["--tables", "generator", "--attempts", "1", "--table-repeats", "60", "--seconds", "30"]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "28 x 8: {'excess': 0," in out
    figures = ast.literal_eval(out.split(": ", 1)[1].rsplit(" in ", 1)[0])
    assert figures["opponents"] >= 23


@pytest.mark.parametrize(
    ("rounds", "extra", "message"),
    [
        ("8", ["--shape", "7,4,0,1", "--transversal", "2"], "make 9 hanchan, not 8"),
        ("14", ["--shape", "14,2,0,1"], "odd Z_m"),
        ("8", [], "needs --shape"),
    ],
)
def test_the_finder_refuses_a_development_of_the_wrong_size(
    rounds: str, extra: list[str], message: str
) -> None:
    argv = ["--players", "28", "--rounds", rounds, "--method", "anneal", "--start", "develop", *extra]
    with pytest.raises(SystemExit, match=message):
        cli.main([*argv, "--opponents", "23"])
