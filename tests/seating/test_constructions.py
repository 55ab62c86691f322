"""Algebraic constructions and the shipped schedules."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations, pairwise

import pytest

from tournament.seating import constructions, cyclic, generate, quality_report, shipped
from tournament.seating.cyclic import CyclicShape

from .helpers import check_no_repeat, fewest_common_opponents, pair_counts, table_visits


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
    check_no_repeat(schedule, n)
    for p in range(n):
        tables = [next(t for t, g in enumerate(h) if p in g) for h in schedule]
        assert len(set(tables)) == rounds


@pytest.mark.parametrize(("n", "rounds"), [(52, 6), (100, 12), (128, 14)])
def test_transversal_design_on_chosen_elements_keeps_its_properties_and_gains_common_opponents(
    n: int, rounds: int
) -> None:
    schedule = constructions.transversal_schedule(n, rounds, random.Random(3))
    assert schedule is not None and len(schedule) == rounds
    check_no_repeat(schedule, n)
    for p in range(n):
        tables = [next(t for t, g in enumerate(h) if p in g) for h in schedule]
        assert len(set(tables)) == rounds
    first = constructions.transversal_schedule(n, rounds)
    assert first is not None
    chosen = constructions.common_opponent_figures(schedule, n)
    plain = constructions.common_opponent_figures(first, n)
    assert chosen[0] == fewest_common_opponents(schedule, n)
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
    check_no_repeat(schedule, n)


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
            check_no_repeat(cyclic.develop(shape, bases, 5), 20)
            return
    pytest.fail("no base hanchan for 20 players")


def test_shipped_schedules_are_repeat_free() -> None:
    for n in range(16, 173, 4):
        found = shipped.shipped_schedule(n, 1)
        if found is not None:
            check_no_repeat(found[1], n)


def test_shipped_schedules_reach_the_social_golfer_maxima() -> None:
    """Dense sizes where a search over whole schedules keeps repeats: the shipped data are repeat-free
    up to these hanchan counts (the published World Riichi schedules' range is 15 hanchan)."""
    reach = {28: 9, 32: 10, 36: 11, 40: 13, 44: 14, 48: 15, 52: 17, 56: 14, 60: 15}
    for n, rounds in reach.items():
        found = shipped.shipped_schedule(n, rounds)
        assert found is not None, n
        check_no_repeat(found[1][:rounds], n)


@pytest.mark.parametrize("chosen", [(0, 1, 2, 3, 4), (0, 5, 9, 13, 17, 20), (1, 2, 3, 7, 11, 15, 19, 20)])
def test_direction_figures_count_the_common_opponents_of_the_affine_hanchan(chosen: tuple[int, ...]) -> None:
    classes = constructions.affine_classes(3)
    rounds = [classes[d] for d in chosen]
    low, below = constructions.direction_figures(3, chosen)
    assert low == fewest_common_opponents(rounds, 64)
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
    data = shipped.load_data("tables.json")
    exact = shipped.load_data("exact.json")
    assert "24x5" in data and "24x4" in exact
    assert not any(entry.get("exact") for entry in data.values())
    entries = [(key, entry, False) for key, entry in data.items()]
    entries += [(key, entry, True) for key, entry in exact.items()]
    for key, entry, is_exact in entries:
        n, rounds = (int(v) for v in key.split("x"))
        schedule = shipped.shipped_exact(n, rounds) if is_exact else shipped.shipped_tables(n, rounds)
        assert schedule is not None and len(schedule) == rounds
        for hanchan in schedule:
            assert sorted(p for g in hanchan for p in g) == list(range(n))
            assert all(len(g) == 4 for g in hanchan)
        excess = sum(c - 1 for c in pair_counts(schedule).values())
        repeats = sum(c - 1 for row in table_visits(schedule, n) for c in row if c > 1)
        assert (excess, repeats) == (entry["excess"], entry["table_repeats"]), key
        assert fewest_common_opponents(schedule, n) == entry["opponents"], key
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


def test_shipped_schedule_prefers_the_entry_of_the_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry keyed by players and hanchan ("48x10") serves that size alone; the entry keyed by
    players ("48") still serves every size up to its length."""
    longest = [[[0, 1, 2, 3], [4, 5, 6, 7]]] * 3
    own = [[[0, 4, 1, 5], [2, 6, 3, 7]]] * 2
    data = {"8": {"method": "longest", "rounds": longest}, "8x2": {"method": "own", "rounds": own}}
    monkeypatch.setattr(shipped, "_DATA", data)
    assert shipped.shipped_schedule(8, 2) == ("own", own)
    assert shipped.shipped_schedule(8, 1) == ("longest", longest)
    assert shipped.shipped_schedule(8, 3) == ("longest", longest)
    assert shipped.shipped_schedule(8, 4) is None


def test_exact_entries_are_used_as_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """An exact entry (data/exact.json) keeps its groups and table numbers (relabelled by the seed):
    the searches would trade its common opponents back for table repeats."""
    found = [
        [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]],
        [[4, 9, 14, 3], [0, 5, 10, 15], [12, 1, 6, 11], [8, 13, 2, 7]],
    ]
    monkeypatch.setattr(shipped, "_EXACT", {"16x2": {"rounds": found}})
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
