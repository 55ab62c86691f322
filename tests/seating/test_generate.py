"""The generator: valid schedules for any size, the known perfect schedules, the other criteria."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament.seating import SeatingError, generate, generator, lower_bounds, quality_report
from tournament.seating.generator import attempts_for, opponents_first
from tournament.seating.shipped import without_exact_entry

from .helpers import QUICK, UNTIMED, assert_valid, pair_counts


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables=st.integers(min_value=1, max_value=50), rounds=st.integers(min_value=1, max_value=15))
def test_any_size_gives_a_valid_schedule(tables: int, rounds: int) -> None:
    n = 4 * tables
    schedule = generate(n, rounds, seed=tables * 31 + rounds, time_limit=0.2)
    assert len(schedule.rounds) == rounds
    assert_valid(schedule.rounds, range(1, n + 1))
    report = quality_report(schedule)
    assert report["valid"]
    assert report["wind_imbalance"] <= 1
    assert report["wind_warnings"] == 0


def test_16_players_5_hanchan_is_perfect() -> None:
    schedule = generate(16, 5, seed=7)
    meetings = pair_counts(schedule.rounds)
    assert len(meetings) == 120 and set(meetings.values()) == {1}  # everyone meets everyone once
    report = quality_report(schedule)
    assert report["wind_imbalance"] == 1 and report["wind_warnings"] == 0
    # The affine plane forces one player per table to stay between two hanchan (16 consecutive
    # repeats); then at least one player visits a table three times, and with one such player at
    # least 34 table repeats (exhaustive search over the table numbers): we reach that minimum.
    assert report["consecutive_table_repeats"] == 16
    assert report["table_warnings"] == 1
    assert report["table_repeats"] == 34


def test_32_players_8_hanchan_no_repeat_no_table_repeat_perfect_winds() -> None:
    report = quality_report(generate(32, 8, seed=1))
    assert report["excess_meetings"] == 0
    assert report["table_repeats"] == 0
    assert report["consecutive_table_repeats"] == 0
    assert report["wind_imbalance"] == 0
    assert report["wind_count_histogram"] == {"2": 128}


@pytest.mark.slow
@pytest.mark.parametrize(("players", "rounds"), [(28, 9), (40, 13)])
def test_4_mod_12_perfect(players: int, rounds: int) -> None:
    schedule = generate(players, rounds, seed=2, time_limit=UNTIMED)
    meetings = pair_counts(schedule.rounds)
    assert len(meetings) == players * (players - 1) // 2
    assert set(meetings.values()) == {1}
    report = quality_report(schedule)
    assert report["wind_imbalance"] == 1 and report["wind_warnings"] == 0


def test_64_players_21_hanchan_affine_space() -> None:
    schedule = generate(64, 21, seed=3, time_limit=UNTIMED)
    meetings = pair_counts(schedule.rounds)
    assert len(meetings) == 64 * 63 // 2 and set(meetings.values()) == {1}


@pytest.mark.slow
@pytest.mark.parametrize(("rounds", "fewest", "below"), [(5, 2, 1440), (7, 6, 768), (8, 8, 0)])
def test_64_players_strangers_share_opponents_of_chosen_affine_directions(
    rounds: int, fewest: int, below: int
) -> None:
    # The World Riichi app's published 64 x 7 has (6, 768) and 64 x 8 (6, 96); the search after the
    # construction never lowers the worst pairs (64 x 5 went from 2 to 0 before).
    report = quality_report(generate(64, rounds, seed=6, time_limit=UNTIMED))
    assert report["excess_meetings"] == 0 and report["table_repeats"] == 0
    assert report["min_indirect"] >= fewest
    assert report["indirect_warnings"] <= below


@pytest.mark.parametrize(
    ("players", "rounds", "limit"),
    # 128 x 15 ships an exact entry with the published 11 table repeats for more common opponents
    # (data/exact.json, checked in test_constructions); 128 x 14 is the largest power of two here.
    # Where the searches' own budgets end within a few seconds, no time limit, so that the figures are the
    # same on a loaded machine (80 x 12 reaches no table repeat after 2 s of search on an idle one); the
    # longer budgets (5 to 7 s) are cut at 3 s, long after they reach these figures.
    [
        (20, 5, UNTIMED),
        (40, 5, 3),
        (36, 9, UNTIMED),
        (44, 8, 3),
        (52, 10, UNTIMED),
        (80, 12, UNTIMED),
        (100, 7, 3),
        (128, 14, 3),
    ],
)
def test_no_repeat_no_table_repeat_balanced_winds(players: int, rounds: int, limit: float) -> None:
    report = quality_report(generate(players, rounds, seed=5, time_limit=limit))
    assert report["excess_meetings"] == 0
    assert report["table_repeats"] == report["table_repeats_lower_bound"] == 0
    assert report["consecutive_table_repeats"] == 0
    assert report["wind_imbalance"] == lower_bounds(players, rounds)["wind_imbalance"]
    assert report["wind_warnings"] == 0
    assert report["opponent_graph_components"] == 1


# (players, hanchan): excess meetings of the published World Riichi schedules (server/seating/stats).
PUBLISHED_EXCESS = {(20, 7): 41, (20, 9): 89, (24, 9): 67}


@pytest.mark.parametrize(("players", "rounds"), sorted(PUBLISHED_EXCESS))
def test_more_hanchan_than_tables(players: int, rounds: int) -> None:
    report = quality_report(generate(players, rounds, seed=4, time_limit=QUICK))
    assert report["excess_meetings"] <= PUBLISHED_EXCESS[(players, rounds)]
    assert report["table_repeats"] <= 1.25 * report["table_repeats_lower_bound"]
    assert report["wind_warnings"] == 0


def test_16_players_10_hanchan_everyone_meets_twice() -> None:
    report = quality_report(generate(16, 10, seed=1, time_limit=QUICK))
    assert report["pair_meeting_histogram"] == {"2": 120}
    assert report["excess_meetings"] == report["excess_meetings_lower_bound"]


@pytest.mark.parametrize(("players", "rounds"), [(28, 9), (40, 11), (60, 14), (96, 6)])
def test_never_the_same_table_in_consecutive_hanchan(players: int, rounds: int) -> None:
    schedule = generate(players, rounds, seed=9, time_limit=QUICK)
    for h in range(rounds - 1):
        now = {p: t for t, table in enumerate(schedule.rounds[h]) for p in table}
        after = {p: t for t, table in enumerate(schedule.rounds[h + 1]) for p in table}
        assert all(now[p] != after[p] for p in now)


def test_same_seed_same_schedule_other_seed_other_schedule() -> None:
    # A construction; a search's fresh schedule: test_every_seed_gives_a_fresh_schedule_of_the_same_quality.
    a = generate(32, 8, seed=11)
    b = generate(32, 8, seed=11)
    c = generate(32, 8, seed=12)
    assert a.rounds == b.rounds
    assert a.rounds != c.rounds


@pytest.mark.slow
def test_every_seed_gives_a_fresh_schedule_of_the_same_quality() -> None:
    """60 x 9 comes from the searches, whose own seed 1 leaves three strangers at 8 common opponents
    where seed 0 leaves two: a fresh schedule is searched once per size, the seed relabelling its
    players, so an organiser who tries another seed never gets worse figures (nor better ones)."""
    figures = []
    schedules = []
    for seed in (0, 1, 1):
        generator._FRESH_SEARCHED.clear()  # each seed's own search, not the one kept from the last
        schedule = generate(60, 9, seed=seed, time_limit=UNTIMED)  # the figures of work done, not seconds
        schedules.append(schedule.rounds)
        report = quality_report(schedule)
        # Every figure but the lists of players' cells (whose names the relabelling changes).
        figures.append({key: value for key, value in report.items() if not key.endswith("_cells")})
    assert figures[0] == figures[1] == figures[2]
    assert figures[0]["min_indirect"] == 8 and figures[0]["indirect_histogram"]["8"] == 2
    # The same seed, the same schedule; another seed, another.
    assert schedules[1] == schedules[2] != schedules[0]


def test_a_size_searched_already_is_relabelled_not_searched_again() -> None:
    key = (20, 5, attempts_for(20, 5))
    generator._FRESH_SEARCHED.clear()
    first = generate(20, 5, seed=3)
    kept = generator._FRESH_SEARCHED[key]
    again = generate(20, 5, seed=3)
    other = generate(20, 5, seed=4)
    assert first.rounds == again.rounds != other.rounds
    figures = [
        {key: value for key, value in quality_report(s).items() if not key.endswith("_cells")}
        for s in (first, other)
    ]
    assert figures[0] == figures[1]
    assert generator._FRESH_SEARCHED[key] is kept  # used, not replaced
    # A search cut by the caller's time limit is never kept, nor one around played hanchan.
    generator._FRESH_SEARCHED.clear()
    generate(20, 5, seed=1, time_limit=5)
    generate(20, 5, seed=1, fixed_rounds=first.rounds[:4])
    assert generator._FRESH_SEARCHED == {}


def test_the_seed_drives_the_searches_around_played_hanchan() -> None:
    played = generate(16, 1, seed=0).rounds
    a = generate(16, 4, seed=1, fixed_rounds=played, attempts=1)
    b = generate(16, 4, seed=2, fixed_rounds=played, attempts=1)
    assert a.rounds[:1] == b.rounds[:1] == played
    # Not a relabelling of one schedule: the played hanchan stay as they are, the rest differ.
    assert a.rounds[1:] != b.rounds[1:]


def test_progress_is_reported_up_to_one() -> None:
    seen: list[float] = []
    generate(40, 6, seed=1, progress=seen.append, time_limit=QUICK)
    assert seen and seen[-1] == 1.0
    assert all(0.0 <= x <= 1.0 for x in seen)
    assert seen == sorted(seen)


def test_player_objects_and_ids_are_kept() -> None:
    ids = [f"P{i:02d}" for i in range(12)]
    schedule = generate(ids, 3, seed=1, time_limit=0.5)
    assert schedule.players == tuple(ids)
    assert_valid(schedule.rounds, ids)


@pytest.mark.parametrize(
    ("players", "rounds", "message"),
    [(18, 4, "multiple of 4"), (0, 4, "at least 4"), (16, 0, "at least one"), (-4, 2, "at least 4")],
)
def test_impossible_input(players: int, rounds: int, message: str) -> None:
    with pytest.raises(SeatingError, match=message):
        generate(players, rounds)


def test_tables_argument_must_match() -> None:
    with pytest.raises(SeatingError):
        generate(16, 3, tables=5)
    assert generate(16, 3, tables=4).tables == 4


def test_winds_balanced_within_every_four_hanchan() -> None:
    schedule = generate(24, 8, seed=3, time_limit=QUICK)
    for start in (0, 4):
        seats: dict[int, Counter[int]] = {}
        for hanchan in schedule.rounds[start : start + 4]:
            for table in hanchan:
                for seat, p in enumerate(table):
                    seats.setdefault(int(p), Counter())[seat] += 1
        assert all(sorted(c.values()) == [1, 1, 1, 1] for c in seats.values())


def _criteria(report: dict[str, object]) -> tuple[object, ...]:
    low = report["min_indirect"]
    histogram = report["indirect_histogram"]
    assert isinstance(histogram, dict)
    return (
        report["excess_meetings"],
        report["table_repeats"],
        report["consecutive_table_repeats"],
        report["wind_imbalance"],
        -low if isinstance(low, int) else 0,
        histogram.get(str(low), 0),
    )


@pytest.mark.slow
@pytest.mark.parametrize(("players", "rounds", "published"), [(40, 9, 43), (40, 10, 58)])
def test_small_fields_keep_the_best_of_several_attempts(players: int, rounds: int, published: int) -> None:
    assert attempts_for(players, rounds) >= 2
    # The generator's own search: these sizes also ship as exact entries, which it would return as found.
    with without_exact_entry(players, rounds):
        one = quality_report(generate(players, rounds, seed=0, attempts=1, time_limit=UNTIMED))
        best = quality_report(generate(players, rounds, seed=0, time_limit=UNTIMED))
    assert _criteria(best) < _criteria(one)
    # Table repeats: the seed's own attempt has 43 and 61; the published schedules have 43 and 58.
    assert best["excess_meetings"] == 0 and best["table_repeats"] < published


def test_large_fields_get_one_attempt_and_attempts_are_checked() -> None:
    assert attempts_for(172, 15) == 1 and attempts_for(1000, 12) == 1
    with pytest.raises(SeatingError, match="at least one attempt"):
        generate(16, 5, attempts=0)


@pytest.mark.slow
def test_sparse_fields_raise_common_opponents_before_table_numbers() -> None:
    # At most half as many hanchan as tables: the seed's own attempt takes that order, the next the other.
    assert opponents_first(40, 5, 0) and not opponents_first(40, 5, 1) and opponents_first(40, 5, 2)
    assert not opponents_first(40, 7, 0) and opponents_first(40, 7, 1)
    report = quality_report(generate(40, 5, seed=0, time_limit=UNTIMED))
    # The published 40 x 5 leaves 12 strangers with only 3 common opponents; tables first left 16.
    assert report["excess_meetings"] == 0 and report["table_repeats"] == 0
    assert report["min_indirect"] == 3 and report["indirect_histogram"]["3"] < 12


@pytest.mark.slow
def test_48_players_14_hanchan_without_a_repeat_meeting() -> None:
    # Shipped data (Z_14 x 3 + 6 fixed, found by the SAT finder): the published schedule has no repeat
    # meeting either, and 228 table repeats.
    report = quality_report(generate(48, 14, seed=0, time_limit=UNTIMED))
    assert report["excess_meetings"] == 0
    assert report["table_repeats"] < 228


def test_the_group_search_stops_at_the_cost_no_grouping_can_go_below() -> None:
    """The group search's target, computed by hand. Eight players over five hanchan: 60 meetings among
    28 pairs, so at best 24 pairs meet twice and 4 three times (32 repeats, 4 of them a third meeting).
    With hanchan 1 played at two tables of four (each player met three), four more hanchan: the same 60
    meetings. Twelve players after hanchan 1 and 2 with a pair that met twice: that pair's cost is forced,
    and nothing else is forced."""
    cost = generator.search.pair_cost
    empty = [bytearray(8) for _ in range(8)]
    assert generator._group_target(8, 5, empty) == 24 * cost(2) + 4 * cost(3) == 32_040
    played = [bytearray(8) for _ in range(8)]
    for table in ((0, 1, 2, 3), (4, 5, 6, 7)):
        for p in table:
            for q in table:
                if p != q:
                    played[p][q] = 1
    assert generator._group_target(8, 4, played) == 32_040
    twelve = [bytearray(12) for _ in range(12)]
    twelve[0][1] = twelve[1][0] = 2  # met at both tables played; every other pair once at most
    for p in range(2, 12):
        twelve[p][(p + 1) % 12 or 2] = twelve[(p + 1) % 12 or 2][p] = 1
    # 12 meetings played (that pair twice, a ring of ten once) and 54 to come: 66 for 66 pairs, and
    # nobody over 2 + 9 = 11 meetings, so only the forced second meeting costs.
    assert generator._group_target(12, 3, twelve) == cost(2) == 1000
    assert generator._group_target(40, 9, [bytearray(40) for _ in range(40)]) == 0
