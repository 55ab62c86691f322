"""The series calculator (tournament.series) against standings worked out by hand, for each rule, with
ties inside an event and in the series. No database."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tournament.core.series import EventResult, SeriesRule, place_points, rule_problem, series_standings


def result(entrant: str, event: int, rank: int, total: str) -> EventResult:
    return EventResult(entrant, entrant, event, rank, Decimal(total))


# Three events. Event 1: A 1st +50, B and C share 2nd with +20, D 4th -90. Event 2: B 1st +40, D 2nd +30,
# A 3rd -10. Event 3: C 1st +60, B 2nd +5.
SEASON = [
    result("A", 1, 1, "50"),
    result("B", 1, 2, "20"),
    result("C", 1, 2, "20"),
    result("D", 1, 4, "-90"),
    result("B", 2, 1, "40"),
    result("D", 2, 2, "30"),
    result("A", 2, 3, "-10"),
    result("C", 3, 1, "60"),
    result("B", 3, 2, "5"),
]


def table(rule: SeriesRule) -> list[tuple[str, int | None, str, int]]:
    return [(row.entrant, row.rank, str(row.score), row.events) for row in series_standings(SEASON, rule)]


def test_sum_of_results() -> None:
    # A 50 - 10 = 40; B 20 + 40 + 5 = 65; C 20 + 60 = 80; D -90 + 30 = -60.
    assert table(SeriesRule("sum")) == [
        ("C", 1, "80", 2),
        ("B", 2, "65", 3),
        ("A", 3, "40", 2),
        ("D", 4, "-60", 2),
    ]


def test_best_n_events() -> None:
    # Best 2: A 50 - 10 = 40; B 40 + 20 = 60 (the 5 of event 3 left out); C 60 + 20 = 80; D 30 - 90 = -60.
    assert table(SeriesRule("best_n", best_n=2)) == [
        ("C", 1, "80", 2),
        ("B", 2, "60", 3),
        ("A", 3, "40", 2),
        ("D", 4, "-60", 2),
    ]
    # Best 1: C 60, A 50, B 40, D 30.
    assert table(SeriesRule("best_n", best_n=1)) == [
        ("C", 1, "60", 2),
        ("A", 2, "50", 2),
        ("B", 3, "40", 3),
        ("D", 4, "30", 2),
    ]
    b = next(row for row in series_standings(SEASON, SeriesRule("best_n", best_n=2)) if row.entrant == "B")
    assert [(c.event, c.counts) for c in b.results] == [(1, True), (2, True), (3, False)]


def test_average_with_a_minimum_of_events() -> None:
    # B 65 / 3 = 21.666... -> 21.67 (hundredths, half to even); A 40 / 2 = 20; C 80 / 2 = 40; D -60 / 2 = -30.
    assert table(SeriesRule("average", min_events=2)) == [
        ("C", 1, "40.00", 2),
        ("B", 2, "21.67", 3),
        ("A", 3, "20.00", 2),
        ("D", 4, "-30.00", 2),
    ]
    # Three events needed: only B is ranked; the others follow, unranked, by their average.
    assert table(SeriesRule("average", min_events=3)) == [
        ("B", 1, "21.67", 3),
        ("C", None, "40.00", 2),
        ("A", None, "20.00", 2),
        ("D", None, "-30.00", 2),
    ]


def test_points_per_rank_with_tied_places_sharing_their_points() -> None:
    points = SeriesRule("points_per_rank", points=tuple(Decimal(p) for p in (10, 6, 3, 1)))
    # Event 1: A 10, B and C (6 + 3) / 2 = 4.5 each, D 1. Event 2: B 10, D 6, A 3. Event 3: C 10, B 6.
    # A 13, B 4.5 + 10 + 6 = 20.5, C 14.5, D 7.
    assert table(points) == [("B", 1, "20.50", 3), ("C", 2, "14.50", 2), ("A", 3, "13", 2), ("D", 4, "7", 2)]


def test_shared_places_beyond_the_table_and_in_thirds() -> None:
    table_ = [Decimal(10), Decimal(6), Decimal(3)]
    # Three tied 1sts: (10 + 6 + 3) / 3 = 6.333... -> 6.33; a 4th beyond the table earns 0.
    assert place_points([1, 1, 1, 4], table_) == [Decimal("6.33")] * 3 + [Decimal(0)]
    # Three tied 2nds of a table of two places: (6 + 0 + 0) / 3 = 2.
    assert place_points([1, 2, 2, 2], table_[:2]) == [Decimal(10), Decimal(2), Decimal(2), Decimal(2)]


def test_equal_series_scores_share_the_rank_and_the_next_rank_is_skipped() -> None:
    results = [
        result("Ben", 1, 1, "10"),
        result("Ana", 1, 1, "10"),
        result("Cy", 1, 3, "5"),
        result("Di", 1, 4, "5"),
    ]
    rows = series_standings(results, SeriesRule("sum"))
    assert [(row.entrant, row.rank) for row in rows] == [("Ana", 1), ("Ben", 1), ("Cy", 3), ("Di", 3)]


@pytest.mark.parametrize(
    ("rule", "field"),
    [
        (SeriesRule("median"), "rule"),  # type: ignore[arg-type]
        (SeriesRule("best_n"), "best_n"),
        (SeriesRule("best_n", best_n=0), "best_n"),
        (SeriesRule("average"), "min_events"),
        (SeriesRule("points_per_rank"), "points"),
        (SeriesRule("points_per_rank", points=(Decimal("NaN"),)), "points"),
    ],
)
def test_a_rule_that_cannot_rank_names_its_field(rule: SeriesRule, field: str) -> None:
    problem = rule_problem(rule)
    assert problem is not None and problem[0] == field


def test_a_complete_rule_has_no_problem() -> None:
    assert rule_problem(SeriesRule("sum")) is None
    assert rule_problem(SeriesRule("best_n", best_n=3)) is None
    assert rule_problem(SeriesRule("average", min_events=2)) is None
    assert rule_problem(SeriesRule("points_per_rank", points=(Decimal(10), Decimal(5)))) is None
