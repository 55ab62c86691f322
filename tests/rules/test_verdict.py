"""The replay's typed verdict: frozen, exact (Decimal uma and scores), text only in ``as_json``; and the
final-points check of the engine, the same verdict for a sheet that gives the final points only."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from scoring.rules.replay import Chombo, Error, Verdict, check_final, replay
from scoring.rules.ruleset import get_ruleset

WRC = get_ruleset("WRC2015")
PLAYERS = ["Ana", "Ben", "Cho", "Dai"]
FINAL = {"Ana": 37400, "Ben": 26600, "Cho": 24900, "Dai": 31100}


def final_sheet(**fields: object) -> dict[str, object]:
    return {"players": PLAYERS, "final_points": dict(FINAL), "riichi_sticks_left": 0, "chombo": [], **fields}


def test_a_replay_verdict_holds_decimals_and_formats_them_only_as_json() -> None:
    sheet = {
        "players": PLAYERS,
        "hands": [{"result": "ron", "winner": "Ana", "loser": "Cho", "han": 3, "fu": 40, "riichi": []}],
        "ended_by_time": True,
    }
    verdict = replay(sheet, WRC)
    assert verdict.valid and verdict.errors == ()
    assert verdict.scores is not None and verdict.uma is not None
    assert verdict.scores["Ana"] == Decimal("22.7") and isinstance(verdict.uma["Ana"], Decimal)
    data = verdict.as_json()
    assert data["scores"]["Ana"] == "22.7" and data["uma"]["Ana"] == "15"
    assert data["errors"] == [] and data["hands"][0]["winners"] == ["Ana"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.valid = False  # type: ignore[misc]


def test_errors_are_typed_and_keep_their_json_shape() -> None:
    verdict = replay({"players": PLAYERS, "hands": [{"result": "ron", "winner": "Eve"}]}, WRC)
    assert not verdict.valid
    error = verdict.errors[0]
    assert isinstance(error, Error) and error.hand == 1 and error.field is None
    assert set(error.as_json()) == {"hand", "rule", "message"}


def test_final_points_check_returns_the_same_kind_of_verdict() -> None:
    verdict = check_final(final_sheet(chombo=["Cho"]), WRC)
    assert isinstance(verdict, Verdict) and verdict.valid
    assert verdict.scores == {
        "Ana": Decimal("22.4"),
        "Ben": Decimal("-8.4"),
        "Cho": Decimal("-20.1"),
        "Dai": Decimal("6.1"),
    }
    assert verdict.chombo == (Chombo("Cho", None, -20),)
    assert verdict.as_json() == {
        "valid": True,
        "final_points": FINAL,
        "riichi_sticks_left": 0,
        "finished": True,
        "ranks": {"Ana": 1, "Ben": 3, "Cho": 4, "Dai": 2},
        "uma": {"Ana": "15", "Ben": "-5", "Cho": "-15", "Dai": "5"},
        "scores": {"Ana": "22.4", "Ben": "-8.4", "Cho": "-20.1", "Dai": "6.1"},
        "chombo": [{"player": "Cho", "hand": None, "points": -20}],
    }


def test_final_points_errors_name_their_field() -> None:
    points = dict(FINAL, Ana=37450)
    del points["Dai"]
    verdict = check_final(
        final_sheet(final_points={**points, "Eve": 0}, riichi_sticks_left=-1, chombo=["X"]), WRC
    )
    assert not verdict.valid
    assert [(e.field, e.rule, e.message) for e in verdict.errors] == [
        ("final_points", "players", "Eve is not at this table"),
        ("final_points", "players", "final points of Dai are missing"),
        ("riichi_sticks_left", "format", "riichi_sticks_left must be a whole number, 0 or more"),
        ("chombo", "players", "chombo must list players of this table"),
    ]
    total = check_final(final_sheet(final_points=dict(FINAL, Ana=36400)), WRC)
    assert [e.as_json() for e in total.errors] == [
        {
            "hand": None,
            "rule": "points-total (WRCR 2015 §5.7.4, §5.9)",
            "message": "final points add up to 119,000, not 120,000",
            "field": "final_points",
        }
    ]
    assert total.as_json() == {"valid": False, "errors": [total.errors[0].as_json()]}
