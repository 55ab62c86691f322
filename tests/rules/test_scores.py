"""Ranks, uma split on ties, hanchan scores and final-points checks (WRCR 2015 §5.9.2)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring.rules.ruleset import Ruleset, get_ruleset
from scoring.rules.scores import check_final_points, format_score, hanchan_scores, ranks_of

WRC = get_ruleset("WRC2015")


def _scores(points: dict[str, int], ruleset: Ruleset = WRC, sticks: int = 0) -> tuple[dict, dict, dict]:
    ranks, uma, scores = hanchan_scores(points, ruleset, sticks)
    return (
        ranks,
        {p: format_score(v) for p, v in uma.items()},
        {p: format_score(v) for p, v in scores.items()},
    )


def test_plain_hanchan() -> None:
    ranks, uma, scores = _scores({"Ana": 48200, "Ben": 31000, "Cho": 25300, "Dai": 15500})
    assert ranks == {"Ana": 1, "Ben": 2, "Cho": 3, "Dai": 4}
    assert uma == {"Ana": "15", "Ben": "5", "Cho": "-5", "Dai": "-15"}
    assert scores == {"Ana": "33.2", "Ben": "6", "Cho": "-9.7", "Dai": "-29.5"}


def test_two_tied_first_split_the_uma() -> None:
    # WRCR 2015 §5.9.2: "if two players tied at the first position, each gets a bonus of +10".
    ranks, uma, scores = _scores({"Ana": 40000, "Ben": 40000, "Cho": 25000, "Dai": 15000})
    assert ranks == {"Ana": 1, "Ben": 1, "Cho": 3, "Dai": 4}
    assert uma == {"Ana": "10", "Ben": "10", "Cho": "-5", "Dai": "-15"}
    assert scores == {"Ana": "20", "Ben": "20", "Cho": "-10", "Dai": "-30"}


def test_ties_in_the_middle_and_at_the_bottom() -> None:
    assert ranks_of({"Ana": 40000, "Ben": 30000, "Cho": 30000, "Dai": 20000}) == {
        "Ana": 1, "Ben": 2, "Cho": 2, "Dai": 4,
    }  # fmt: skip
    _, uma, _ = _scores({"Ana": 40000, "Ben": 30000, "Cho": 30000, "Dai": 20000})
    assert uma == {"Ana": "15", "Ben": "0", "Cho": "0", "Dai": "-15"}
    _, uma, scores = _scores({"Ana": 60000, "Ben": 20000, "Cho": 20000, "Dai": 20000})
    assert uma == {"Ana": "15", "Ben": "-5", "Cho": "-5", "Dai": "-5"}
    assert scores == {"Ana": "45", "Ben": "-15", "Cho": "-15", "Dai": "-15"}
    _, uma, _ = _scores({"Ana": 30000, "Ben": 30000, "Cho": 30000, "Dai": 30000})
    assert uma == {"Ana": "0", "Ben": "0", "Cho": "0", "Dai": "0"}


def test_halves_are_exact() -> None:
    custom = Ruleset.custom(uma=(15, 6, -6, -15))
    _, uma, _ = _scores({"Ana": 40000, "Ben": 30000, "Cho": 30000, "Dai": 20000}, custom)
    _, uma_top, _ = _scores({"Ana": 35000, "Ben": 35000, "Cho": 30000, "Dai": 20000}, custom)
    assert uma["Ben"] == "0"
    assert uma_top == {"Ana": "10.5", "Ben": "10.5", "Cho": "-6", "Dai": "-15"}


def test_thirds_hundredths_remainder_to_the_earlier_seat() -> None:
    # Custom uma 20/10/-10/-20, three tied first: 20 / 3 each. Rule: hundredths, rounded down, the
    # hundredths left over go to the tied players in starting seat order; the total stays exact.
    custom = Ruleset.custom(uma=(20, 10, -10, -20))
    _, uma, scores = hanchan_scores({"Ana": 35000, "Ben": 35000, "Cho": 35000, "Dai": 15000}, custom)
    assert uma == {
        "Ana": Decimal("6.67"),
        "Ben": Decimal("6.67"),
        "Cho": Decimal("6.66"),
        "Dai": Decimal("-20"),
    }
    assert sum(uma.values()) == 0
    assert format_score(scores["Cho"]) == "11.66"


def test_scores_never_use_floats() -> None:
    _, uma, scores = hanchan_scores({"Ana": 30100, "Ben": 29900, "Cho": 30000, "Dai": 30000}, WRC)
    assert all(isinstance(value, Decimal) for value in (*uma.values(), *scores.values()))
    assert format_score(scores["Ana"]) == "15.1"
    assert format_score(scores["Cho"]) == "0"  # tied second and third share +5 and -5


@pytest.mark.parametrize(
    ("score", "text"),
    [
        ("23.2", "23.2"),
        ("-15", "-15"),
        ("0.5", "0.5"),
        ("0", "0"),
        ("-0", "0"),
        ("1.00", "1"),
        ("1E+1", "10"),
    ],
)
def test_format_score(score: str, text: str) -> None:
    assert format_score(Decimal(score)) == text


def test_sticks_left_reduce_the_total() -> None:
    points = {"Ana": 40000, "Ben": 30000, "Cho": 29000, "Dai": 20000}
    assert check_final_points(points, 1, WRC) == []
    ranks, _, _ = hanchan_scores(points, WRC, sticks_left=1)
    assert ranks["Ana"] == 1


def test_final_points_errors() -> None:
    errors = check_final_points({"Ana": 40050, "Ben": 30000, "Cho": 29950, "Dai": 20000}, 0, WRC)
    assert [error["rule"] for error in errors] == ["points-multiple (WRCR 2015 §6.1)"] * 2
    assert errors[0]["message"] == "final points of Ana (40,050) are not a multiple of 100"
    errors = check_final_points({"Ana": 40000, "Ben": 30000, "Cho": 30000, "Dai": 21000}, 0, WRC)
    assert errors == [
        {
            "hand": None,
            "rule": "points-total (WRCR 2015 §5.7.4, §5.9)",
            "message": "final points add up to 121,000, not 120,000",
        }
    ]
    errors = check_final_points({"Ana": 40000, "Ben": 30000, "Cho": 30000, "Dai": 20000}, 2, WRC)
    assert errors[0]["message"] == (
        "final points add up to 120,000, not 118,000 (120,000 less 2 riichi sticks left)"
    )
    with pytest.raises(ValueError, match="121,000"):
        hanchan_scores({"Ana": 40000, "Ben": 30000, "Cho": 30000, "Dai": 21000}, WRC)
