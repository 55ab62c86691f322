"""The seating laboratory's SAT methods (seatinglab.satfind and the sat_* modules): base hanchan of cyclic
shapes, schedules over abelian groups and whole schedules with their table numbers, and the proofs that
none exists."""

from __future__ import annotations

import random

import pytest

from seatinglab.sat_cyclic import sat_rounds
from seatinglab.sat_group import sat_group_rounds
from seatinglab.sat_tables import sat_tables
from seatinglab.satfind import Unsatisfiable
from tests.seating.helpers import check_no_repeat, fewest_common_opponents, pair_counts, table_visits
from tournament.seating.cyclic import CyclicShape


def test_whole_schedule_sat_finder_seats_24_players_5_hanchan_at_five_tables_each() -> None:
    pytest.importorskip("pysat")
    rounds = sat_tables(24, 5, 0, random.Random(1), 60.0)
    assert rounds is not None and len(rounds) == 5
    check_no_repeat(rounds, 24)
    assert all(max(row) == 1 for row in table_visits(rounds, 24))


def test_whole_schedule_sat_finder_gives_strangers_common_opponents() -> None:
    pytest.importorskip("pysat")
    # 20 players, 3 hanchan: each meets 9 of 19, so 10 strangers each; every stranger shares 4 opponents
    # (as in the published schedule), and 4 is the most without a table repeat: the solver proves 5
    # impossible.
    rounds = sat_tables(20, 3, 0, random.Random(2), 60.0, opponents=4)
    assert rounds is not None
    check_no_repeat(rounds, 20)
    assert fewest_common_opponents(rounds, 20) >= 4
    with pytest.raises(Unsatisfiable):
        sat_tables(20, 3, 0, random.Random(2), 60.0, opponents=5)
    # At least 3, and no stranger at exactly 3 (at most 0 of them): at least 4 again.
    rounds = sat_tables(20, 3, 0, random.Random(2), 60.0, opponents=3, at_fewest=0)
    assert rounds is not None
    assert fewest_common_opponents(rounds, 20) >= 4


def test_whole_schedule_sat_finder_proves_a_table_repeat_forced() -> None:
    pytest.importorskip("pysat")
    # 16 players, 2 hanchan: every table of the second hanchan takes one player from each table of the
    # first, so each table keeps one of its players: 4 repeats at least, all in consecutive hanchan.
    with pytest.raises(Unsatisfiable):
        sat_tables(16, 2, 3, random.Random(0), 60.0, consecutive=True)
    rounds = sat_tables(16, 2, 4, random.Random(0), 60.0, consecutive=True)
    assert rounds is not None
    assert sum(c - 1 for row in table_visits(rounds, 16) for c in row if c > 1) == 4


def test_sat_finder_builds_a_resolvable_group_divisible_design() -> None:
    pytest.importorskip("pysat")
    # 24 players = Z_7 x 3 + 3 fixed, groups of three who never meet: {(x, 0), (x, 1), (x, 2)} and the
    # fixed players; every other pair meets exactly once in the 7 hanchan.
    rounds = sat_rounds(CyclicShape(m=7, k=3, f=3, s=1), random.Random(0), 60.0, groups=3)
    assert rounds is not None and len(rounds) == 7
    check_no_repeat(rounds, 24)
    met = pair_counts(rounds)
    groups = [{x, 7 + x, 14 + x} for x in range(7)] + [{21, 22, 23}]
    for p in range(24):
        for q in range(p + 1, 24):
            together = any(p in g and q in g for g in groups)
            assert met.get((p, q), 0) == (0 if together else 1), (p, q)


def test_sat_finder_finds_a_base_hanchan() -> None:
    pytest.importorskip("pysat")
    rounds = sat_rounds(CyclicShape(m=7, k=3, f=3, s=1), random.Random(0), 60.0)
    assert rounds is not None and len(rounds) == 7
    check_no_repeat(rounds, 24)


def test_sat_finder_adds_transversal_hanchan() -> None:
    pytest.importorskip("pysat")
    # 28 players = Z_7 x 4: one developed base hanchan and two transversal ones, 9 hanchan (the maximum).
    rounds = sat_rounds(CyclicShape(m=7, k=4, f=0, s=1), random.Random(0), 60.0, transversal=2)
    assert rounds is not None and len(rounds) == 9
    check_no_repeat(rounds, 28)


def test_sat_finder_develops_hanchan_that_a_subgroup_maps_to_themselves() -> None:
    pytest.importorskip("pysat")
    # 16 players = Z_4 x 4 and no base hanchan: two hanchan that translation by 2 maps to themselves
    # (two each) and one that every translation does: the affine plane, everyone meets everyone once,
    # the pairs (x, i), (x + 2, i) included (only a hanchan of even stabiliser can seat them once).
    # The seeds (the clauses' order) are ones the solver settles in well under a second; the time to a
    # model is heavy-tailed over seeds (0.4 s to over a minute for one formula), what it finds is not.
    rounds = sat_rounds(CyclicShape(m=4, k=4, f=0, s=0), random.Random(7), 60.0, orbits=(2, 2, 4))
    assert rounds is not None and len(rounds) == 5
    assert pair_counts(rounds) == {(p, q): 1 for p in range(16) for q in range(p + 1, 16)}
    for hanchan in rounds[4:]:
        shifted = sorted(sorted(4 * (p // 4) + (p + 1) % 4 for p in table) for table in hanchan)
        assert shifted == sorted(sorted(table) for table in hanchan)
    # 16 players = Z_15 + 1 fixed: one hanchan that translation by 5 maps to itself (the fixed player
    # with a coset {x, x + 5, x + 10}), developed into 5: the affine plane again.
    rounds = sat_rounds(CyclicShape(m=15, k=1, f=1, s=0), random.Random(7), 60.0, orbits=(3,))
    assert rounds is not None and len(rounds) == 5
    assert pair_counts(rounds) == {(p, q): 1 for p in range(16) for q in range(p + 1, 16)}
    # Over Z_7 no hanchan holds two players of one type, so those only add transversal hanchan.
    rounds = sat_rounds(CyclicShape(m=7, k=4, f=0, s=1), random.Random(7), 60.0, orbits=(7, 7))
    assert rounds is not None and len(rounds) == 9
    check_no_repeat(rounds, 28)


def test_group_sat_finder_over_a_non_cyclic_group() -> None:
    pytest.importorskip("pysat")
    # The affine plane: 16 players = Z_2^4, five hanchan that every translation maps to itself.
    rounds = sat_group_rounds((2, 2, 2, 2), 1, 0, [None] * 5, random.Random(0), 60.0)
    assert rounds is not None
    assert pair_counts(rounds) == {(p, q): 1 for p in range(16) for q in range(p + 1, 16)}


def test_group_sat_finder_with_pairs_exchanged_outside_a_subgroup() -> None:
    pytest.importorskip("pysat")
    # 32 x 10 without a repeat meeting (the social-golfer maximum): Z_2^3 x 4 types, four hanchan
    # that the group maps to themselves and three pairs, each pair exchanged by the translations
    # outside a subgroup of order four. Everyone meets everyone but one other player exactly once.
    stabilisers: list[list[tuple[int, ...]] | None] = [None] * 4
    stabilisers += [[(1, 0, 0), (0, 0, 1)], [(0, 1, 0), (0, 0, 1)], [(0, 1, 0), (0, 0, 1)]]
    # Seed 10: a model in 0.6 s (seed 0 takes 11 s, seed 1 over a minute; the same schedule's kind).
    rounds = sat_group_rounds((2, 2, 2), 4, 0, stabilisers, random.Random(10), 300.0)
    assert rounds is not None and len(rounds) == 10
    met = pair_counts(rounds)
    assert max(met.values()) == 1 and len(met) == 32 * 30 // 2
    for hanchan in rounds:
        assert sorted(p for table in hanchan for p in table) == list(range(32))


def test_group_sat_finder_with_a_short_orbit() -> None:
    pytest.importorskip("pysat")
    # A short orbit: 24 players = Z_3 x Z_7 and the three cosets of Z_7 (the shape of the shipped
    # 48 x 15 over Z_3 x Z_15); one hanchan fixed by the subgroup of order 3, developed into 7.
    rounds = sat_group_rounds((3, 7), 1, 0, [[(1, 0)]], random.Random(0), 60.0, short=[[(0, 1)]])
    assert rounds is not None and len(rounds) == 7
    check_no_repeat(rounds, 24)
    assert len(pair_counts(rounds)) == 24 * 21 // 2


def test_group_sat_finder_with_a_multiplier() -> None:
    pytest.importorskip("pysat")
    # A multiplier: 44 x 14 over Z_14 x 3 + 2 fixed with the base hanchan also fixed by
    # (x, i) -> (11 x, i + 1); everyone meets everyone but one other player exactly once.
    # Seed 5: a model in under 2 s (seed 0 takes 7 s).
    rounds = sat_group_rounds((14,), 3, 2, [[]], random.Random(5), 300.0, multiplier=(11, 1))
    assert rounds is not None and len(rounds) == 14
    met = pair_counts(rounds)
    assert max(met.values()) == 1 and len(met) == 44 * 42 // 2


def test_sat_finder_proves_no_base_hanchan_exists() -> None:
    pytest.importorskip("pysat")
    # 12 players cannot play 4 hanchan without a repeat: each would need 12 different opponents.
    with pytest.raises(Unsatisfiable):
        sat_rounds(CyclicShape(m=4, k=3, f=0, s=1), random.Random(0), 60.0)
