"""The command line (``python -m scoring.rules``), run as a subprocess: exit codes 0, 1 and 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "data" / "wrc-hands.json"
SHEET = {
    "ruleset": "WRC2015",
    "players": ["Ana", "Ben", "Cho", "Dai"],
    "hands": [
        {"result": "ron", "winner": "Ana", "loser": "Cho", "han": 3, "fu": 40, "riichi": ["Ana"]},
        {"result": "tsumo", "winner": "Ben", "han": 1, "fu": 30, "riichi": []},
    ],
    "ended_by_time": True,
}


def run(command: str, stdin: str, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring.rules", command, *options],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_valid_sheet_exits_0() -> None:
    done = run("sheet", json.dumps(SHEET))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["valid"] is True
    assert result["final_points"] == {"Ana": 37100, "Ben": 31400, "Cho": 21900, "Dai": 29600}
    assert result["scores"] == {"Ana": "22.1", "Ben": "6.4", "Cho": "-23.1", "Dai": "-5.4"}


def test_invalid_sheet_exits_1_with_only_the_errors() -> None:
    bad: dict[str, Any] = {**SHEET, "final_points": {"Ana": 37100, "Ben": 31400, "Cho": 21900, "Dai": 29500}}
    done = run("sheet", json.dumps(bad))
    assert done.returncode == 1
    result = json.loads(done.stdout)
    assert set(result) == {"valid", "errors"}
    assert result["valid"] is False
    assert result["errors"][-1] == {
        "hand": None,
        "rule": "final-points (WRCR 2015 §5.9)",
        "message": "Dai ends with 29,600 by the hands, the sheet says 29,500",
    }


def test_ruleset_option_overrides_the_sheet() -> None:
    sheet = {**SHEET, "hands": [{"result": "ron", "winner": "Ben", "loser": "Cho", "han": 4, "fu": 30}]}
    assert json.loads(run("sheet", json.dumps(sheet)).stdout)["final_points"]["Ben"] == 38000
    assert (
        json.loads(run("sheet", json.dumps(sheet), "--ruleset", "EMA2016").stdout)["final_points"]["Ben"]
        == 37700
    )


def test_bad_json_exits_2_with_one_line() -> None:
    for command, text in (("sheet", "{not json"), ("hands", "[1, 2"), ("sheet", "[]"), ("hands", "{}")):
        done = run(command, text)
        assert done.returncode == 2
        assert done.stdout == ""
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1


def test_hands_prints_one_result_per_hand() -> None:
    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))["vectors"][:3]
    hands = [
        {k: v for k, v in vector.items() if k not in ("expected", "id", "title", "covers", "notes")}
        for vector in vectors
    ]
    done = run("hands", json.dumps(hands))
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert isinstance(results, list) and len(results) == 3
    assert all("valid" in result for result in results)


def test_a_hand_that_is_not_a_hand_exits_2() -> None:
    done = run("hands", json.dumps([{"concealed": "12x", "melds": [], "win_tile": "3p", "win": "tsumo"}]))
    assert done.returncode == 2
    assert done.stderr.startswith("error: hand 1: concealed:")
