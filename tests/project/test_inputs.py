"""tournament.inputs, the bounded JSON reader and the printable-text check: plain Python, no database."""

from __future__ import annotations

import pytest

from scoring.rules.ruleset import Ruleset
from scoring.rules.scores import check_final_points, final_points_limit
from tournament.core.inputs import control_problem, json_depth, read_json
from tournament.core.refusal import Refusal


def refused(raw: bytes | str, **kwargs: int) -> tuple[str | None, str]:
    with pytest.raises(Refusal) as caught:
        read_json(raw, **kwargs)
    return caught.value.field, caught.value.rule


def test_depth_is_counted_without_recursion_and_ignores_brackets_in_strings() -> None:
    assert json_depth('{"a": [1, {"b": "[[[[{{{"}]}') == 3
    assert json_depth('"\\"[[[" ') == 0
    assert json_depth("[" * 100_000) == 100_000  # no RecursionError, whatever the text claims
    deepest: list[object] = []
    for _ in range(31):
        deepest = [deepest]
    assert read_json("[" * 32 + "]" * 32) == deepest
    assert refused("[" * 33 + "]" * 33) == ("body", "json-depth")
    assert refused("[" * 5000 + "]" * 5000) == ("body", "json-depth")


def test_size_encoding_nul_surrogates_and_numbers() -> None:
    assert refused(b"[" + b"1," * 100 + b"1]", max_bytes=100) == ("body", "body-size")
    assert refused(b'"\xff"') == ("body", "json-unicode")
    assert refused('{"a": "\\ud800"}') == ("body", "json-unicode")
    assert refused('{"\\udfff": 1}') == ("body", "json-unicode")
    assert refused('["x\\u0000"]') == ("body", "printable-text")
    assert read_json('"\\ud83d\\ude00"') == "\U0001f600"  # a surrogate pair is one character
    for text in ("NaN", "Infinity", "1e1000000", "1" * 5000, '{"a": '):
        assert refused(text) == ("body", "json"), text
    assert read_json(b'{"points": 1e3, "n": -2}') == {"points": 1000.0, "n": -2}


def test_control_characters() -> None:
    assert control_problem("Ana Ó'Brien") is None
    assert control_problem("two\tcolumns\r\nand lines", multiline=True) is None
    assert "U+0009" in (control_problem("tab\tin a name") or "")
    assert "U+0001" in (control_problem("x\x01", multiline=True) or "")
    assert "U+007F" in (control_problem("x\x7f") or "")


def test_ruleset_numbers_are_bounded() -> None:
    assert Ruleset.custom(chombo_penalty=1000, uma=(50, 10, -10, -50)).chombo_penalty == 1000
    for overrides in (
        {"chombo_penalty": 10**9},
        {"chombo_penalty": 1001},
        {"starting_points": 0},
        {"riichi_stick": -1000},
        {"uma": (10**9, 0, 0, -(10**9))},
        {"kiriage": "yes"},
        {"name": "x\x00"},
        {"colour": "red"},
    ):
        with pytest.raises(ValueError):
            Ruleset.custom(**overrides)


def test_final_points_beyond_ten_tables_either_way_are_refused() -> None:
    wrc = Ruleset.custom()
    limit = final_points_limit(wrc)
    assert limit == 1_200_000
    at_limit = {"A": limit, "B": -limit, "C": 60000, "D": 60000}
    assert check_final_points(at_limit, 0, wrc) == []
    beyond = {"A": 10**9, "B": -(10**9), "C": 60000, "D": 60000}  # adds up, as the sheet did
    assert [e["rule"] for e in check_final_points(beyond, 0, wrc)] == [
        "final-points-range (WRCR 2015 §4.1, §5.9)"
    ] * 2
