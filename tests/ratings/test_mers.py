"""The EMA's ranking (``tournament.ratings.mers``) against examples worked out by hand from the EMA's
text and the sources docs/ratings.md names ("MERS: the EMA's ranking"). No database; exact fractions.

Each example gives its inputs, each step and the result; a reader can redo them with a pencil.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

import pytest

from tournament.ratings.mers import (
    Result,
    base_rank,
    decay,
    part_a_count,
    player_ranking,
    ranking_list,
    tournament_weight,
    years_after,
)

TODAY = date(2026, 11, 28)


def test_base_rank_is_the_share_of_the_field_beaten_times_1000_to_a_whole_number() -> None:
    assert base_rank(1, 16) == 1000  # the winner: 1000 x 15 / 15
    assert base_rank(16, 16) == 0  # the last: 1000 x 0 / 15
    # 3rd of 16: 1000 x (16 - 3) / (16 - 1) = 13,000 / 15 = 866.67, to the nearest: 867.
    assert base_rank(3, 16) == 867
    # The EMA's own example, "number 75 out of 100": 1000 x 25 / 99 = 252.53; nearest 253 (the EMA
    # writes 252: docs/ratings.md says why 253).
    assert base_rank(75, 100) == 253
    # Two players tied 2nd of 4 share the place, and its base rank: 1000 x 2 / 3 = 666.67 -> 667 each.
    assert base_rank(2, 4) == 667 and base_rank(3, 4) == 333
    assert all(base_rank(place, 37).denominator == 1 for place in range(1, 38))
    with pytest.raises(ValueError, match="place"):
        base_rank(5, 4)
    with pytest.raises(ValueError, match="players"):
        base_rank(1, 1)


def test_a_base_rank_on_a_half_goes_to_the_even_number() -> None:
    """A base rank falls on a half when N - 1 divides 2000 x (N - place) but not 1000 x (N - place); the
    four fields where that happens, worked out from the formula 1000 x (N - place) / (N - 1):"""
    # 16th of 17: 1000 x 1 / 16 = 62.5 -> 62 (up would be 63).
    assert base_rank(16, 17) == 62
    # 80th of 81: 1000 x 1 / 80 = 12.5 -> 12 (up would be 13).
    assert base_rank(80, 81) == 12
    # 31st of 33: 1000 x 2 / 32 = 62.5 -> 62.
    assert base_rank(31, 33) == 62
    # 46th of 49: 1000 x 3 / 48 = 62.5 -> 62.
    assert base_rank(46, 49) == 62
    # The even number is above as often as below: 14th of 17, 1000 x 3 / 16 = 187.5 -> 188; 78th of 81,
    # 1000 x 3 / 80 = 37.5 -> 38.
    assert base_rank(14, 17) == 188 and base_rank(78, 81) == 38
    # Not a half: to the nearest, as before (33rd of 49: 1000 x 16 / 48 = 333.33 -> 333).
    assert base_rank(33, 49) == 333


def weight(
    days: int = 1, players: int = 20, countries: int = 1, qualification: bool = False, substitutes: int = 0
) -> Fraction:
    return tournament_weight(
        days=days, players=players, countries=countries, qualification=qualification, substitutes=substitutes
    )


def test_the_weight_table_at_each_of_its_borders() -> None:
    # Duration: one, two, three days 1, 2, 3; four days as three (20 players +0, one country +0).
    assert [weight(days=d) for d in (1, 2, 3, 4)] == [1, 2, 3, 3]
    # Players: 40 +0, 41 +0.5, 80 +0.5, 81 +1 (one day: 1 + that).
    assert [weight(players=n) for n in (40, 41, 80, 81)] == [1, Fraction(3, 2), Fraction(3, 2), 2]
    # Substitutes count as players, three at most: 38 + 3 = 41 (+0.5); 38 + 5 counts 38 + 3 = 41 (+0.5);
    # 37 + 5 counts 40 (+0); 78 + 5 counts 81 (+1); 77 + 5 counts 80 (+0.5).
    assert weight(players=38, substitutes=3) == Fraction(3, 2)
    assert weight(players=38, substitutes=5) == Fraction(3, 2)
    assert weight(players=37, substitutes=5) == 1
    assert weight(players=78, substitutes=5) == 2
    assert weight(players=77, substitutes=5) == Fraction(3, 2)
    # Countries: 5 +0, 6 +0.5, 9 +0.5, 10 +1 (the page in force: "6 <= X <= 9", "X >= 10").
    assert [weight(countries=c) for c in (5, 6, 9, 10)] == [1, Fraction(3, 2), Fraction(3, 2), 2]
    # Qualification +1.
    assert weight(qualification=True) == 2
    # Two days (2) + 64 players (+0.5) + 7 countries (+0.5) = 3.
    assert weight(days=2, players=64, countries=7) == 3
    # Five days (3) + 216 players (+1) + 20 countries (+1) + qualification (+1) = 6: an OEMC.
    assert weight(days=5, players=216, countries=20, qualification=True) == 6
    with pytest.raises(ValueError, match="days"):
        weight(days=0)
    with pytest.raises(ValueError, match="players"):
        weight(players=1)


def test_decay_full_up_to_a_year_after_half_up_to_two_years_after_both_days_included() -> None:
    # Last day 1 June 2023. One year after: 1 June 2024, 366 days later (29 February 2024 between);
    # two years after: 1 June 2025, 731 days later. A count in days of 365 and 730 would get both wrong.
    ended = date(2023, 6, 1)
    assert decay(ended, ended - timedelta(days=1)) == 0  # not over yet on that day
    assert decay(ended, ended) == 1
    assert decay(ended, date(2024, 6, 1)) == 1  # exactly one year: still full
    assert decay(ended, date(2024, 6, 2)) == Fraction(1, 2)  # one day past
    assert decay(ended, date(2025, 6, 1)) == Fraction(1, 2)  # exactly two years: still half
    assert decay(ended, date(2025, 6, 2)) == 0  # one day past
    # The EMA's freeze of 1 April 2020 kept "tournaments from April 1st 2018": 731 days, half weight;
    # a tournament of 31 March 2018 was out.
    assert decay(date(2018, 4, 1), date(2020, 4, 1)) == Fraction(1, 2)
    assert decay(date(2018, 3, 31), date(2020, 4, 1)) == 0


def test_a_tournament_ending_on_29_february() -> None:
    leap = date(2024, 2, 29)
    assert years_after(leap, 1) == date(2025, 2, 28) and years_after(leap, 4) == date(2028, 2, 29)
    assert decay(leap, date(2025, 2, 28)) == 1
    assert decay(leap, date(2025, 3, 1)) == Fraction(1, 2)
    assert decay(leap, date(2026, 2, 28)) == Fraction(1, 2)
    assert decay(leap, date(2026, 3, 1)) == 0


def test_part_a_keeps_five_then_eighty_percent_of_the_others_rounded_up() -> None:
    # n -> 5 + ceil(0.8 x (n - 5)): 6 -> 5 + ceil(0.8) = 6; 10 -> 5 + 4 = 9; 11 -> 5 + ceil(4.8) = 10;
    # 15 -> 5 + 8 = 13; 20 -> 5 + 12 = 17; 25 -> 5 + 16 = 21; up to 5: five (filled up with zeros).
    counts = [part_a_count(n) for n in (0, 1, 5, 6, 9, 10, 11, 15, 20, 25)]
    assert counts == [5, 5, 5, 6, 9, 9, 10, 13, 17, 21]


def result(name: str, rank: int, weight: int | Fraction, days_ago: int) -> Result:
    return Result(name, Fraction(rank), Fraction(weight), TODAY - timedelta(days=days_ago))


def test_fewer_than_two_results_that_count_is_not_ranked() -> None:
    assert player_ranking([], TODAY) is None
    assert player_ranking([result("A", 1000, 1, 1)], TODAY) is None
    # B ended 900 days ago, more than two years: it counts for nothing, A is alone.
    assert player_ranking([result("A", 1000, 1, 1), result("B", 1000, 1, 900)], TODAY) is None


def test_two_results_filled_up_with_zeros_and_the_two_year_border() -> None:
    """X: base rank 1000, weight 2, last day 28 November 2024, exactly two years before TODAY: decay 1/2,
    effective weight 1. Y: 500, weight 1, yesterday: effective weight 1.

    Part A (five results, three missing as 0 with weight 1): (1000 x 1 + 500 x 1) / (1 + 1 + 3) = 300.
    Part B (four results, two missing): 1,500 / (2 + 2) = 375.   Ranking: (300 + 375) / 2 = 337.5.
    A day later X no longer counts: Y alone is not ranked."""
    two_years = (TODAY - date(2024, 11, 28)).days
    results = [result("X", 1000, 2, two_years), result("Y", 500, 1, 1)]
    ranking = player_ranking(results, TODAY)
    assert ranking is not None
    assert (ranking.part_a, ranking.part_b, ranking.value, ranking.results) == (300, 375, Fraction(675, 2), 2)
    assert ranking.rounded == Decimal("337.50")
    assert player_ranking(results, TODAY + timedelta(days=1)) is None


def test_three_results_filled_up_with_zeros() -> None:
    """Effective weights: weight x decay.
    A: 1000, weight 2, 100 days ago -> 2.   B: 600, weight 1, 200 days -> 1.
    C: 800, weight 3, 500 days ago (second year) -> 3 x 1/2 = 1.5.   D: 900, 800 days ago -> 0, left out.

    Part A (five results, two missing as 0 with weight 1):
      (1000 x 2 + 800 x 1.5 + 600 x 1 + 0 + 0) / (2 + 1.5 + 1 + 1 + 1) = 3,800 / 6.5 = 584.615...
    Part B (four results, one missing): 3,800 / (4.5 + 1) = 3,800 / 5.5 = 690.909...
    Ranking: (7,600/13 + 7,600/11) / 2 = 91,200 / 143 = 637.762... -> 637.76.
    """
    ranking = player_ranking(
        [
            result("A", 1000, 2, 100),
            result("B", 600, 1, 200),
            result("C", 800, 3, 500),
            result("D", 900, 1, 800),
        ],
        TODAY,
    )
    assert ranking is not None
    assert ranking.results == 3
    assert ranking.part_a == Fraction(7600, 13)
    assert ranking.part_b == Fraction(7600, 11)
    assert ranking.value == Fraction(91200, 143)
    assert ranking.rounded == Decimal("637.76")


def test_five_results_no_zeros_part_b_keeps_the_best_four() -> None:
    """900 (weight 3), 800 (2), 700 (1), 600 (1), and 500 of weight 2 in its second year (2 x 1/2 = 1).
    Part A, all five: (2,700 + 1,600 + 700 + 600 + 500) / (3 + 2 + 1 + 1 + 1) = 6,100 / 8 = 762.5.
    Part B, the best four: (2,700 + 1,600 + 700 + 600) / 7 = 5,600 / 7 = 800.
    Ranking: (762.5 + 800) / 2 = 781.25."""
    results = [
        result("A", 900, 3, 10),
        result("B", 800, 2, 20),
        result("C", 700, 1, 30),
        result("D", 600, 1, 40),
        result("E", 500, 2, 400),
    ]
    ranking = player_ranking(results, TODAY)
    assert ranking is not None
    assert (ranking.part_a, ranking.part_b, ranking.value) == (Fraction(1525, 2), 800, Fraction(3125, 4))
    assert ranking.rounded == Decimal("781.25")


def test_six_results_part_a_keeps_all_six() -> None:
    """Six results of weight 1, base ranks 1000, 800, 600, 400, 200, 0: Part A keeps 5 + ceil(0.8) = 6,
    so even the 0 counts: 3,000 / 6 = 500. Part B: (1000 + 800 + 600 + 400) / 4 = 700. Ranking 600."""
    results = [result(f"T{n}", 200 * n, 1, 10 + n) for n in range(6)]
    ranking = player_ranking(results, TODAY)
    assert ranking is not None
    assert (ranking.part_a, ranking.part_b, ranking.value) == (500, 700, 600)


def test_ten_results_part_a_drops_the_worst_part_b_keeps_four() -> None:
    """Ten results of weight 1, base ranks 1000, 900, ..., 100.
    Part A keeps 5 + ceil(0.8 x 5) = 9: (1000 + ... + 200) / 9 = 5,400 / 9 = 600.
    Part B keeps 4: (1000 + 900 + 800 + 700) / 4 = 850.   Ranking: (600 + 850) / 2 = 725."""
    results = [result(f"T{n}", 100 * n, 1, 10 * n) for n in range(1, 11)]
    ranking = player_ranking(results, TODAY)
    assert ranking is not None
    assert (ranking.part_a, ranking.part_b, ranking.value) == (600, 850, 725)


def test_eleven_results_part_a_keeps_ten() -> None:
    """Eleven results of weight 1, base ranks 1000, 900, ..., 0.
    Part A keeps 5 + ceil(0.8 x 6) = 5 + ceil(4.8) = 10: (1000 + ... + 100) / 10 = 5,500 / 10 = 550.
    Part B: 850 as above.   Ranking: (550 + 850) / 2 = 700."""
    results = [result(f"T{n}", 100 * n, 1, 10 + n) for n in range(11)]
    ranking = player_ranking(results, TODAY)
    assert ranking is not None
    assert (ranking.part_a, ranking.part_b, ranking.value, ranking.results) == (550, 850, 700, 11)


def test_the_best_results_are_the_best_base_ranks_whatever_their_weight() -> None:
    """Nine results of base rank 500 and weight 1, and one of base rank 100 and weight 6: Part A keeps
    9 of 10, the nine 500s (the heavy 100 is the worst): 500. Part B: four 500s: 500. Ranking 500."""
    results = [result(f"T{n}", 500, 1, 10 + n) for n in range(9)] + [result("heavy", 100, 6, 5)]
    ranking = player_ranking(results, TODAY)
    assert ranking is not None
    assert (ranking.part_a, ranking.part_b, ranking.value) == (500, 500, 500)


def test_equal_base_ranks_at_part_bs_cut_keep_the_heavier() -> None:
    """Three results of 900 (weight 1), a 500 of weight 1 ten days ago and a 500 of weight 3 two hundred
    days ago. Part A, all five: (2,700 + 500 + 1,500) / (3 + 1 + 3) = 4,700 / 7 = 671.43.
    Part B, the best four: the three 900s and the heavier 500: (2,700 + 1,500) / (3 + 3) = 700 (the
    lighter one would give 3,200 / 4 = 800). Ranking: (4,700 / 7 + 700) / 2 = 9,600 / 14 = 685.71."""
    results = [result(f"T{n}", 900, 1, 30 + n) for n in range(3)]
    results += [result("light", 500, 1, 10), result("heavy", 500, 3, 200)]
    ranking = player_ranking(results, TODAY)
    assert ranking is not None
    assert (ranking.part_a, ranking.part_b) == (Fraction(4700, 7), 700)
    assert ranking.value == Fraction(4800, 7) and ranking.rounded == Decimal("685.71")


def test_a_winner_of_every_tournament_ranks_1000_once_he_has_five() -> None:
    five = [result(f"T{n}", 1000, 1, n) for n in range(5)]
    ranking = player_ranking(five, TODAY)
    assert ranking is not None and ranking.value == 1000
    # With two: Part A (2000 / 5 = 400) and Part B (2000 / 4 = 500): 450.
    two = player_ranking(five[:2], TODAY)
    assert two is not None and two.value == 450


def test_the_list_is_highest_first_without_the_unranked() -> None:
    listed = ranking_list(
        {
            "low": [result("A", 0, 1, 1), result("B", 500, 1, 2)],
            "alone": [result("A", 1000, 1, 1)],
            "high": [result("A", 1000, 1, 1), result("B", 500, 1, 2)],
        },
        TODAY,
    )
    assert [player for player, _ranking in listed] == ["high", "low"]
    # high: Part A 1500 / 5 = 300, Part B 1500 / 4 = 375 -> 337.5; low: 500/5 and 500/4 -> 112.5.
    assert [ranking.value for _player, ranking in listed] == [Fraction(675, 2), Fraction(225, 2)]
