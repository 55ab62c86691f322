"""The WRCR 2015 hand vectors: every vector, fed without its answer, must give its ``expected``.

Comparison rules (vectors README): from five han the fu do not matter (WRCR 2015 §6.1) and are not compared;
han and fu are null for yakuman and for Blessing of Man scored as its fixed mangan; an invalid hand only
has to be ``valid: false``. The order of the yaku is not part of the contract.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from scoring.rules.hands import evaluate_hand

DATA = Path(__file__).resolve().parent.parent / "data"
NOT_INPUT = ("expected", "id", "title", "covers", "notes")


def vectors_path() -> Path:
    """``HAND_VECTORS`` when set, else the vectors kept with the tests (``tests/data/wrc-hands.json``)."""
    return Path(os.environ.get("HAND_VECTORS", DATA / "wrc-hands.json"))


def load_vectors() -> list[dict[str, Any]]:
    path = vectors_path()
    if not path.exists():
        pytest.fail(f"hand vectors not found at {path} (set HAND_VECTORS)", pytrace=False)
    data = json.loads(path.read_text(encoding="utf-8"))
    vectors: list[dict[str, Any]] = data["vectors"]
    assert len(vectors) == data["count"]
    return vectors


VECTORS = load_vectors()


def comparable(result: dict[str, Any], expected: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The parts of ``result`` and ``expected`` that the vectors' comparison rules compare."""
    if not expected["valid"]:
        return {"valid": result["valid"]}, {"valid": False}
    got, want = dict(result), dict(expected)
    han = want["han"]
    if han is not None and han >= 5:
        got.pop("fu")
        want.pop("fu")
    got["yaku"] = Counter(tuple(item) for item in got["yaku"])
    want["yaku"] = Counter(tuple(item) for item in want["yaku"])
    return got, want


@pytest.mark.parametrize("vector", VECTORS, ids=[vector["id"] for vector in VECTORS])
def test_vector(vector: dict[str, Any]) -> None:
    hand = {key: value for key, value in vector.items() if key not in NOT_INPUT}
    result = evaluate_hand(hand)
    got, want = comparable(result, vector["expected"])
    assert got == want, f"{vector['id']} {vector['title']}"
    if not result["valid"]:
        assert result["reason"], "an invalid hand names the rule it breaks"


def test_the_vectors_cover_every_kind_of_payment() -> None:
    keys = {
        key for vector in VECTORS if vector["expected"]["valid"] for key in vector["expected"]["payments"]
    }
    assert {"ron", "tsumo_dealer", "tsumo_non_dealer", "tsumo_all", "tsumo_liable"} <= keys
