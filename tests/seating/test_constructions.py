"""Algebraic constructions and the shipped schedules."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations, pairwise

import pytest

from tournament.seating import constructions, cyclic, generate, quality_report
from tournament.seating.cyclic import CyclicShape
from tournament.seating.finder.satfind import Unsatisfiable, sat_group_rounds, sat_rounds, sat_tables

from .helpers import pair_counts


def _check_no_repeat(rounds: list[list[list[int]]], n: int) -> None:
    for hanchan in rounds:
        assert sorted(p for g in hanchan for p in g) == list(range(n))
    assert max(pair_counts(rounds).values()) == 1


@pytest.mark.parametrize("k", [1, 2, 3])
def test_affine_space(k: int) -> None:
    classes = constructions.affine_classes(k)
    n = 4**k
    assert len(classes) == (n - 1) // 3
    meetings = pair_counts(classes)
    assert len(meetings) == n * (n - 1) // 2


@pytest.mark.parametrize(("n", "rounds"), [(20, 5), (32, 8), (36, 9), (64, 16), (100, 25), (140, 35)])
def test_transversal_design_has_no_repeats_and_no_table_repeats(n: int, rounds: int) -> None:
    schedule = constructions.transversal_schedule(n, rounds)
    assert schedule is not None
    _check_no_repeat(schedule, n)
    for p in range(n):
        tables = [next(t for t, g in enumerate(h) if p in g) for h in schedule]
        assert len(set(tables)) == rounds


@pytest.mark.parametrize(("n", "rounds"), [(52, 6), (100, 12), (128, 14)])
def test_transversal_design_on_chosen_elements_keeps_its_properties_and_gains_common_opponents(
    n: int, rounds: int
) -> None:
    schedule = constructions.transversal_schedule(n, rounds, random.Random(3))
    assert schedule is not None and len(schedule) == rounds
    _check_no_repeat(schedule, n)
    for p in range(n):
        tables = [next(t for t, g in enumerate(h) if p in g) for h in schedule]
        assert len(set(tables)) == rounds
    first = constructions.transversal_schedule(n, rounds)
    assert first is not None
    chosen = constructions.common_opponent_figures(schedule, n)
    plain = constructions.common_opponent_figures(first, n)
    assert chosen[0] == _fewest_common_opponents(schedule, n)
    assert (chosen[0], -chosen[2]) > (plain[0], -plain[2])
    if n == 128:
        assert plain[0] == 0 and chosen[0] >= 8  # the first 14 elements leave strangers with none


@pytest.mark.parametrize("n", [24, 40, 56, 1000])
def test_no_transversal_design_when_a_field_is_too_small(n: int) -> None:
    assert constructions.transversal_schedule(n, 3) is None


@pytest.mark.parametrize("n", [48, 200, 1000])
def test_linear_schedule(n: int) -> None:
    _, reach = constructions.linear_multipliers(n // 4)
    schedule = constructions.linear_schedule(n, min(reach, 12))
    assert schedule is not None
    _check_no_repeat(schedule, n)


def test_rotational_design_40() -> None:
    rounds = cyclic.rotational_design(40, random.Random(1), 10**7)
    assert rounds is not None and len(rounds) == 13
    meetings = pair_counts(rounds)
    assert len(meetings) == 40 * 39 // 2 and set(meetings.values()) == {1}


def test_cyclic_base_hanchan_by_depth_first_search() -> None:
    shape = CyclicShape(m=5, k=4, f=0, s=1)
    for seed in range(10):
        bases = cyclic.depth_first_bases(shape, random.Random(seed), 20_000)
        if bases is not None:
            _check_no_repeat(cyclic.develop(shape, bases, 5), 20)
            return
    pytest.fail("no base hanchan for 20 players")


def test_shipped_schedules_are_repeat_free() -> None:
    for n in range(16, 173, 4):
        found = cyclic.shipped_schedule(n, 1)
        if found is not None:
            _check_no_repeat(found[1], n)


def test_shipped_schedules_reach_the_social_golfer_maxima() -> None:
    """Dense sizes where a search over whole schedules keeps repeats: the shipped data are repeat-free
    up to these hanchan counts (the published World Riichi schedules' range is 15 hanchan)."""
    reach = {28: 9, 32: 10, 36: 11, 40: 13, 44: 14, 48: 15, 52: 17, 56: 14, 60: 15}
    for n, rounds in reach.items():
        found = cyclic.shipped_schedule(n, rounds)
        assert found is not None, n
        _check_no_repeat(found[1][:rounds], n)


def _table_visits(rounds: list[list[list[int]]], n: int) -> list[list[int]]:
    visits = [[0] * len(rounds[0]) for _ in range(n)]
    for hanchan in rounds:
        for t, group in enumerate(hanchan):
            for p in group:
                visits[p][t] += 1
    return visits


def _fewest_common_opponents(rounds: list[list[list[int]]], n: int) -> int:
    opponents: dict[int, set[int]] = {p: set() for p in range(n)}
    for hanchan in rounds:
        for group in hanchan:
            for p in group:
                opponents[p].update(set(group) - {p})
    strangers = [(p, q) for p in range(n) for q in range(p + 1, n) if q not in opponents[p]]
    return min((len(opponents[p] & opponents[q]) for p, q in strangers), default=0)


@pytest.mark.parametrize("chosen", [(0, 1, 2, 3, 4), (0, 5, 9, 13, 17, 20), (1, 2, 3, 7, 11, 15, 19, 20)])
def test_direction_figures_count_the_common_opponents_of_the_affine_hanchan(chosen: tuple[int, ...]) -> None:
    classes = constructions.affine_classes(3)
    rounds = [classes[d] for d in chosen]
    low, below = constructions.direction_figures(3, chosen)
    assert low == _fewest_common_opponents(rounds, 64)
    opponents: dict[int, set[int]] = {p: set() for p in range(64)}
    for hanchan in rounds:
        for group in hanchan:
            for p in group:
                opponents[p].update(set(group) - {p})
    counted = sum(
        1
        for p in range(64)
        for q in range(p + 1, 64)
        if q not in opponents[p] and len(opponents[p] & opponents[q]) < 8
    )
    assert below == counted


@pytest.mark.parametrize("rounds", [6, 7])
def test_affine_directions_reach_the_best_of_all_direction_sets(rounds: int) -> None:
    lines = constructions.projective_lines(3)
    assert len(lines) == 21 and all(len(line) == 5 for line in lines)
    best = (-1, 0)
    for chosen in combinations(range(21), rounds):
        low, below = constructions.direction_figures(3, chosen, lines)
        best = max(best, (low, -below))
    found = constructions.affine_directions(3, rounds, random.Random(4))
    low, below = constructions.direction_figures(3, found, lines)
    assert (low, -below) == best
    # Six directions: a hyperoval of PG(2, 4) (no three collinear), every stranger 6 common opponents.
    assert best == ((6, -1440) if rounds == 6 else (6, -768))


def test_shipped_whole_schedules_hold_their_figures() -> None:
    data = cyclic.load_data("tables.json")
    exact = cyclic.load_data("exact.json")
    assert "24x5" in data and "24x4" in exact
    assert not any(entry.get("exact") for entry in data.values())
    entries = [(key, entry, False) for key, entry in data.items()]
    entries += [(key, entry, True) for key, entry in exact.items()]
    for key, entry, is_exact in entries:
        n, rounds = (int(v) for v in key.split("x"))
        schedule = cyclic.shipped_exact(n, rounds) if is_exact else cyclic.shipped_tables(n, rounds)
        assert schedule is not None and len(schedule) == rounds
        for hanchan in schedule:
            assert sorted(p for g in hanchan for p in g) == list(range(n))
            assert all(len(g) == 4 for g in hanchan)
        excess = sum(c - 1 for c in pair_counts(schedule).values())
        repeats = sum(c - 1 for row in _table_visits(schedule, n) for c in row if c > 1)
        assert (excess, repeats) == (entry["excess"], entry["table_repeats"]), key
        assert _fewest_common_opponents(schedule, n) == entry["opponents"], key
        low, at_low, below = constructions.common_opponent_figures(schedule, n, rounds > 4)
        assert (low, at_low, below) == (entry["opponents"], entry["at_fewest"], entry["below_bar"]), key
        if is_exact:
            # Used as found: no player at one table in consecutive hanchan, and the generator gives
            # these very figures.
            for before, after in pairwise(schedule):
                for t, group in enumerate(before):
                    assert not set(group) & set(after[t]), key
            report = quality_report(generate(n, rounds, seed=3))
            assert report["excess_meetings"] == entry["excess"], key
            assert report["table_repeats"] == entry["table_repeats"], key
            assert report["consecutive_table_repeats"] == 0, key
            assert report["min_indirect"] == entry["opponents"], key
            assert report["indirect_histogram"][str(low)] == entry["at_fewest"], key


def test_whole_schedule_sat_finder_seats_24_players_5_hanchan_at_five_tables_each() -> None:
    pytest.importorskip("pysat")
    rounds = sat_tables(24, 5, 0, random.Random(1), 60.0)
    assert rounds is not None and len(rounds) == 5
    _check_no_repeat(rounds, 24)
    assert all(max(row) == 1 for row in _table_visits(rounds, 24))


def test_whole_schedule_sat_finder_gives_strangers_common_opponents() -> None:
    pytest.importorskip("pysat")
    # 20 players, 3 hanchan: each meets 9 of 19, so 10 strangers each; every stranger shares 4 opponents
    # (as in the published schedule), and 4 is the most without a table repeat: the solver proves 5
    # impossible.
    rounds = sat_tables(20, 3, 0, random.Random(2), 60.0, opponents=4)
    assert rounds is not None
    _check_no_repeat(rounds, 20)
    assert _fewest_common_opponents(rounds, 20) >= 4
    with pytest.raises(Unsatisfiable):
        sat_tables(20, 3, 0, random.Random(2), 60.0, opponents=5)
    # At least 3, and no stranger at exactly 3 (at most 0 of them): at least 4 again.
    rounds = sat_tables(20, 3, 0, random.Random(2), 60.0, opponents=3, at_fewest=0)
    assert rounds is not None
    assert _fewest_common_opponents(rounds, 20) >= 4


def test_whole_schedule_sat_finder_proves_a_table_repeat_forced() -> None:
    pytest.importorskip("pysat")
    # 16 players, 2 hanchan: every table of the second hanchan takes one player from each table of the
    # first, so each table keeps one of its players: 4 repeats at least, all in consecutive hanchan.
    with pytest.raises(Unsatisfiable):
        sat_tables(16, 2, 3, random.Random(0), 60.0, consecutive=True)
    rounds = sat_tables(16, 2, 4, random.Random(0), 60.0, consecutive=True)
    assert rounds is not None
    assert sum(c - 1 for row in _table_visits(rounds, 16) for c in row if c > 1) == 4


def test_sat_finder_builds_a_resolvable_group_divisible_design() -> None:
    pytest.importorskip("pysat")
    # 24 players = Z_7 x 3 + 3 fixed, groups of three who never meet: {(x, 0), (x, 1), (x, 2)} and the
    # fixed players; every other pair meets exactly once in the 7 hanchan.
    rounds = sat_rounds(CyclicShape(m=7, k=3, f=3, s=1), random.Random(0), 60.0, groups=3)
    assert rounds is not None and len(rounds) == 7
    _check_no_repeat(rounds, 24)
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
    _check_no_repeat(rounds, 24)


def test_sat_finder_adds_transversal_hanchan() -> None:
    pytest.importorskip("pysat")
    # 28 players = Z_7 x 4: one developed base hanchan and two transversal ones, 9 hanchan (the maximum).
    rounds = sat_rounds(CyclicShape(m=7, k=4, f=0, s=1), random.Random(0), 60.0, transversal=2)
    assert rounds is not None and len(rounds) == 9
    _check_no_repeat(rounds, 28)


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
    _check_no_repeat(rounds, 28)


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
    _check_no_repeat(rounds, 24)
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


def test_shipped_schedule_prefers_the_entry_of_the_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry keyed by players and hanchan ("48x10") serves that size alone; the entry keyed by
    players ("48") still serves every size up to its length."""
    longest = [[[0, 1, 2, 3], [4, 5, 6, 7]]] * 3
    own = [[[0, 4, 1, 5], [2, 6, 3, 7]]] * 2
    data = {"8": {"method": "longest", "rounds": longest}, "8x2": {"method": "own", "rounds": own}}
    monkeypatch.setattr(cyclic, "_DATA", data)
    assert cyclic.shipped_schedule(8, 2) == ("own", own)
    assert cyclic.shipped_schedule(8, 1) == ("longest", longest)
    assert cyclic.shipped_schedule(8, 3) == ("longest", longest)
    assert cyclic.shipped_schedule(8, 4) is None


def test_exact_entries_are_used_as_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """An exact entry (data/exact.json) keeps its groups and table numbers (relabelled by the seed):
    the searches would trade its common opponents back for table repeats."""
    found = [
        [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]],
        [[4, 9, 14, 3], [0, 5, 10, 15], [12, 1, 6, 11], [8, 13, 2, 7]],
    ]
    monkeypatch.setattr(cyclic, "_EXACT", {"16x2": {"rounds": found}})
    schedule = generate(16, 2, seed=5)
    assert schedule.method == "shipped"

    def paths(rounds: Sequence[Sequence[Sequence[int]]]) -> list[tuple[int, ...]]:
        """Every player's table numbers, hanchan by hanchan: a renaming keeps them as a whole."""
        where: dict[int, list[int]] = {}
        for hanchan in rounds:
            for t, table in enumerate(hanchan):
                for p in table:
                    where.setdefault(p, []).append(t)
        return sorted(tuple(v) for v in where.values())

    assert paths(schedule.rounds) == paths(found)
