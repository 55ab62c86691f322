"""The EMA's ranking (``tournament.ratings.mers``) against examples worked out by hand from the EMA's
text ("Basics for ranking system", 2018; docs/ratings.md). No database; exact fractions.

The decay and the averaging are checked against their definition in the module (a secondary source,
marked unverified there and in docs/ratings.md).
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
)

TODAY = date(2026, 11, 28)


def test_base_rank_is_the_share_of_the_field_beaten_times_1000() -> None:
    assert base_rank(1, 16) == 1000  # the winner
    assert base_rank(16, 16) == 0  # the last
    # 3rd of 16: 1000 x (16 - 3) / (16 - 1) = 13,000 / 15 = 866.67 (the often quoted "867").
    assert base_rank(3, 16) == Fraction(2600, 3)
    # The EMA's own example, "number 75 out of 100": 1000 x 25 / 99 = 252.53 (the EMA writes 252).
    assert base_rank(75, 100) == Fraction(25000, 99)
    # Tied players share the place, so they share its base rank: two 2nd of 4 get 1000 x 2 / 3 each.
    assert base_rank(2, 4) == Fraction(2000, 3)
    with pytest.raises(ValueError, match="place"):
        base_rank(5, 4)
    with pytest.raises(ValueError, match="players"):
        base_rank(1, 1)


def test_tournament_weight_adds_duration_players_countries_and_qualification() -> None:
    # Two days (2) + 64 players (41-80: +0.5) + 7 countries (6-9: +0.5) + no qualification = 3.
    assert tournament_weight(days=2, players=64, countries=7, qualification=False) == 3
    # One day (1) + 40 players (+0) + 5 countries (+0) = 1: a local one-day event.
    assert tournament_weight(days=1, players=40, countries=5, qualification=False) == 1
    # 40 players and 5 substitutes: at most three substitutes count, 43 > 40: +0.5.
    assert tournament_weight(days=1, players=40, substitutes=5, countries=5, qualification=False) == Fraction(
        3, 2
    )
    # Three days (3) + 120 players (+1) + 12 countries (+1) + qualification (+1) = 6.
    assert tournament_weight(days=3, players=120, countries=12, qualification=True) == 6
    # The borders: 80 players +0.5, 81 +1; 9 countries +0.5, 10 +1.
    assert tournament_weight(days=1, players=80, countries=9, qualification=False) == 2
    assert tournament_weight(days=1, players=81, countries=10, qualification=False) == 3
    # Longer than three days: as three (the table stops there).
    assert tournament_weight(days=5, players=20, countries=1, qualification=False) == 3
    with pytest.raises(ValueError, match="days"):
        tournament_weight(days=0, players=20, countries=1, qualification=False)


def test_decay_full_for_a_year_half_for_the_second_then_nothing() -> None:
    ended = date(2025, 1, 1)
    assert decay(ended, ended) == 1
    assert decay(ended, ended + timedelta(days=365)) == 1
    assert decay(ended, ended + timedelta(days=366)) == Fraction(1, 2)
    assert decay(ended, ended + timedelta(days=730)) == Fraction(1, 2)
    assert decay(ended, ended + timedelta(days=731)) == 0
    assert decay(ended, ended - timedelta(days=1)) == 0  # not played yet on that day


def test_part_a_keeps_five_then_eighty_percent_of_the_others_rounded_up() -> None:
    # n -> 5 + ceil(0.8 x (n - 5)): 6 -> 5 + 1; 10 -> 5 + 4; 11 -> 5 + ceil(4.8) = 10; 15 -> 5 + 8.
    assert [part_a_count(n) for n in (0, 1, 5, 6, 9, 10, 11, 15)] == [5, 5, 5, 6, 9, 9, 10, 13]


def result(name: str, rank: int | Fraction, weight: int | Fraction, days_ago: int) -> Result:
    return Result(name, Fraction(rank), Fraction(weight), TODAY - timedelta(days=days_ago))


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


def test_ten_results_part_a_drops_the_worst_part_b_keeps_four() -> None:
    """Ten results of weight 1, base ranks 1000, 900, ..., 100.
    Part A keeps 5 + ceil(0.8 x 5) = 9: (1000 + ... + 200) / 9 = 5,400 / 9 = 600.
    Part B keeps 4: (1000 + 900 + 800 + 700) / 4 = 850.   Ranking: (600 + 850) / 2 = 725."""
    results = [result(f"T{n}", 100 * n, 1, 10 * n) for n in range(1, 11)]
    ranking = player_ranking(results, TODAY)
    assert ranking is not None
    assert (ranking.part_a, ranking.part_b, ranking.value) == (600, 850, 725)


def test_a_winner_of_every_tournament_ranks_1000_once_he_has_five() -> None:
    five = [result(f"T{n}", 1000, 1, n) for n in range(5)]
    ranking = player_ranking(five, TODAY)
    assert ranking is not None and ranking.value == 1000
    # With two: Part A (2000 / 5 = 400) and Part B (2000 / 4 = 500): 450.
    two = player_ranking(five[:2], TODAY)
    assert two is not None and two.value == 450


def test_one_result_is_not_ranked_and_the_list_is_highest_first() -> None:
    assert player_ranking([result("A", 1000, 1, 1)], TODAY) is None
    assert player_ranking([result("A", 1000, 1, 1), result("B", 1000, 1, 900)], TODAY) is None
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
