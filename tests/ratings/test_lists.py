"""The pure parts of the rating lists (``tournament.ratings.lists``) and the rating chart's geometry
(``tournament.core.presentation.rating_chart``), worked out by hand. No database."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from tournament.core.presentation import rating_chart
from tournament.ratings.lists import MersEvent, entrant, entrant_person, games, mers_results


def test_entrants_are_persons_or_registrations_alone() -> None:
    assert entrant(7, 70) == "person:7" and entrant(None, 70) == "player:70"
    assert entrant_person("person:7") == 7 and entrant_person("player:70") is None


def test_only_tables_of_four_are_games_in_the_order_of_the_rows() -> None:
    rows = [
        (1, 1, 1, "a", 1),
        (1, 1, 1, "b", 2),
        (1, 1, 1, "c", 3),
        (1, 1, 1, "d", 4),
        (1, 1, 2, "e", 1),  # a table whose other results the reader may not see
        (2, 1, 1, "d", 1),
        (2, 1, 1, "c", 2),
        (2, 1, 1, "b", 2),
        (2, 1, 1, "a", 4),
    ]
    found = games(rows)
    assert [game.key for game in found] == [(1, 1, 1), (2, 1, 1)]
    assert found[1].players == ("d", "c", "b", "a") and found[1].places == (1, 2, 2, 4)


def test_mers_weight_inputs_and_base_ranks() -> None:
    # Three days (3), 79 players and 2 substitutes counted: 81 > 80 (+1), 10 countries (+1), qualified (+1).
    big = MersEvent(1, date(2026, 3, 1), date(2026, 3, 3), {}, 79, 2, 10, True)
    assert big.days == 3 and big.weight() == 6
    # One day, 40 players (+0), no country known: one (+0).
    small = MersEvent(2, date(2026, 4, 4), date(2026, 4, 4), {"x": 1, "y": 2, "z": 2}, 40, 0, 0, False)
    assert small.weight() == 1
    results = mers_results([big, small])  # big ranks no one: fewer than two ranked players
    assert {who: [r.base_rank for r in own] for who, own in results.items()} == {
        "x": [Fraction(1000)],
        "y": [Fraction(500)],
        "z": [Fraction(500)],
    }
    assert results["x"][0].ended_on == date(2026, 4, 4) and results["x"][0].weight == 1


def test_the_chart_has_a_point_after_each_hanchan() -> None:
    # Ordinals 0, 5, 10 (mu 25, 26, 28 with sigma 25/3, 7, 6): from 0 to 28, labels 30 and 0.
    chart = rating_chart([(25.0, 25 / 3), (26.0, 7.0), (28.0, 6.0)])
    assert chart is not None and chart["count"] == 3
    assert len(chart["rating"].split()) == 3 and len(chart["skill"].split()) == 3
    assert [label["label"] for label in chart["y_labels"]] == ["30", "0"]
    # From x 36 to 310, y 12 (30) to 146 (0): the first point at (36, 146); the last, 10, at y 12 +
    # (30 - 10) x 134 / 30 = 101.3; mu 25 at 12 + 5 x 134 / 30 = 34.3.
    assert chart["rating"].split() == ["36.0,146.0", "173.0,123.7", "310.0,101.3"]
    assert chart["skill"].split()[0] == "36.0,34.3"
    assert chart["first_rating"] == "0.00" and chart["last_rating"] == "10.00"
    assert rating_chart([]) is None
    assert rating_chart([(25.0, 1.0)])["count"] == 1  # type: ignore[index]
