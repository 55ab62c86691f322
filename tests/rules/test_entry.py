"""The sheet read once (scoring.rules.entry): typed hands, names as seats, each format problem kept with
its hand; and the replay (scoring.rules.replay) reading none of the sheet's JSON itself."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from scoring.rules.entry import (
    NOBODY,
    Abortive,
    Deltas,
    Draw,
    MultipleRon,
    NotAnObject,
    Problem,
    Seats,
    Win,
    read_entry,
    read_final,
)
from scoring.rules.replay import check_final, replay
from scoring.rules.ruleset import get_ruleset
from scoring.rules.sheet import RULE_FORMAT, RULE_MULTIPLE, RULE_PLAYER

WRC = get_ruleset("WRC2015")
PLAYERS = ["Ana", "Ben", "Cho", "Dai"]
REPLAY = Path(__file__).resolve().parents[2] / "scoring" / "rules" / "replay"
# What the replay may read by a field's name: the results of the readers it calls, not the sheet. The hand
# evaluator's result (``hands.evaluate_hand``) in wins.py; ``scores.check_final_points``'s problems in
# end.py.
READER_RESULTS = {"wins.py": {"result"}, "end.py": {"problem"}}


def read(hands: list[object], **fields: object) -> tuple[object, ...]:
    entry, errors = read_entry({"players": PLAYERS, "hands": hands, **fields}, WRC)
    assert entry is not None and errors == []
    return entry.hands


def test_a_hand_is_read_into_frozen_types_with_names_as_seats() -> None:
    win, draw, multiple, deltas, abortive, other = read(
        [
            {"result": "ron", "winner": "Ben", "loser": "Dai", "han": 2, "fu": 30, "riichi": ["Ben", "Cho"]},
            {"result": "draw", "tenpai": ["Ana"]},
            {"result": "ron", "loser": "Ana", "wins": [{"winner": "Ben", "han": 1, "fu": 30}]},
            {"deltas": {"Ana": 1000, "Ben": -1000, "Cho": 0, "Dai": 0}},
            {"result": "abortive", "kind": "four-winds"},
            [],
        ]
    )
    assert isinstance(win, Win) and (win.winner, win.loser, win.tsumo) == (1, 3, False)
    assert win.riichi == Seats(frozenset({1, 2})) and win.value.plain == (2, 30)
    assert isinstance(draw, Draw) and draw.tenpai.seats == {0} and draw.riichi is NOBODY
    assert isinstance(multiple, MultipleRon) and multiple.loser == 0 and multiple.wins is not None
    assert [ron.winner for ron in multiple.wins] == [1]
    assert isinstance(deltas, Deltas) and deltas.deltas is not None
    assert deltas.deltas.changes == (1000, -1000, 0, 0)
    assert isinstance(abortive, Abortive) and abortive.problem is None
    assert isinstance(other, NotAnObject)
    with pytest.raises(dataclasses.FrozenInstanceError):
        win.winner = 2  # type: ignore[misc]


def test_each_format_problem_is_kept_with_its_field_and_placed_in_its_hand_by_the_replay() -> None:
    (hand,) = read(
        [
            {
                "result": "tsumo",
                "winner": "Eve",
                "han": 1,
                "fu": 30,
                "riichi": ["Ana", "Zed"],
                "deltas": {"Ana": 1050, "Ben": -350, "Cho": -350, "Dai": -350},
            }
        ]
    )
    assert isinstance(hand, Win) and hand.winner is None
    assert hand.riichi.seats == {0} and [p.rule for p in hand.riichi.problems] == [RULE_PLAYER]
    assert [p.rule for p in hand.players_problems] == [RULE_PLAYER]
    assert hand.deltas is not None and hand.deltas.changes == (1050, -350, -350, -350)
    assert [p.rule for p in hand.deltas.problems] == [RULE_MULTIPLE]
    # The text has no place yet: the replay adds "hand 1 (East 1, 0 honba)" when it reaches the hand.
    assert all(not p.text.startswith("hand") for p in hand.riichi.problems)
    verdict = replay({"players": PLAYERS, "hands": [{"result": "draw", "tenpai": "Ana"}]}, WRC)
    assert [(e.hand, e.rule) for e in verdict.errors][:1] == [(1, RULE_FORMAT)]
    assert verdict.errors[0].message.startswith("hand 1 (East 1, 0 honba): ")


@pytest.mark.parametrize(
    ("tiles", "flags", "double_riichi", "is_open"),
    [
        ({"hand": "123m"}, {}, False, False),
        ({"flags": {"double_riichi": True}}, {"double_riichi": True}, True, False),
        ({"flags": []}, {}, False, False),  # a false value: no flags, as the replay always had it
        ({"flags": ["riichi"]}, None, False, False),  # left for the evaluator to refuse
        ({"melds": [{"type": "kan_closed", "tiles": "1111m"}]}, {}, False, False),
        ({"melds": [{"type": "pon", "tiles": "111m"}]}, {}, False, True),
        ({"melds": "pon"}, {}, False, False),
    ],
)
def test_a_wins_tiles_are_read_for_what_the_replay_adds(
    tiles: dict[str, object], flags: object, double_riichi: bool, is_open: bool
) -> None:
    (hand,) = read([{"result": "tsumo", "winner": "Ana", "tiles": tiles}])
    assert isinstance(hand, Win) and hand.value.tiles is not None
    read_tiles = hand.value.tiles
    assert read_tiles.situation == tiles
    assert (None if read_tiles.flags is None else dict(read_tiles.flags)) == flags
    assert (read_tiles.double_riichi, read_tiles.is_open) == (double_riichi, is_open)
    (no_object,) = read([{"result": "tsumo", "winner": "Ana", "tiles": "123m"}])
    assert isinstance(no_object, Win) and no_object.value.tiles_problem == Problem(
        RULE_FORMAT, "tiles is a hand object"
    )


def test_a_final_points_sheet_is_read_in_seat_order_or_refused_field_by_field() -> None:
    points = {"Dai": 31100, "Cho": 24900, "Ben": 26600, "Ana": 37400}
    final, errors = read_final(
        {"players": PLAYERS, "final_points": points, "riichi_sticks_left": 0, "chombo": ["Ben", "Ben"]}, WRC
    )
    assert errors == [] and final is not None
    assert list(final.points) == PLAYERS and final.chombo == ("Ben", "Ben")
    final, errors = read_final(
        {"players": PLAYERS, "final_points": {"Ana": 1}, "riichi_sticks_left": -1, "chombo": "Ana"}, WRC
    )
    assert final is None
    assert [(e.rule, e.field) for e in errors] == [
        ("players", "final_points"),
        ("players", "final_points"),
        ("players", "final_points"),
        ("format", "riichi_sticks_left"),
        ("players", "chombo"),
    ]
    assert check_final({"players": PLAYERS, "final_points": points}, WRC).valid


def raw_reads(source: str, allowed: set[str]) -> list[str]:
    """Where ``source`` reads a field of a JSON object by its name: ``x.get("name")`` or ``x["name"]``
    (stores aside), on anything but the readers' results ``allowed``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        target = key = None
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and node.args
        ):
            target, key = node.func.value, node.args[0]
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            target, key = node.value, node.slice
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            continue
        if isinstance(target, ast.Name) and target.id in allowed:
            continue
        found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_the_replay_reads_no_field_of_the_sheet_by_its_name() -> None:
    """Every field of a sheet is read in scoring.rules.entry; the replay's modules take its typed hands
    (docs/rules-engine.md)."""
    modules = sorted(REPLAY.glob("*.py"))
    assert {path.name for path in modules} >= {"flow.py", "wins.py", "draws.py", "chombo.py", "end.py"}
    found = {
        path.name: reads
        for path in modules
        if (reads := raw_reads(path.read_text(encoding="utf-8"), READER_RESULTS.get(path.name, set())))
    }
    assert found == {}


def test_the_guard_finds_a_raw_read() -> None:
    planted = (
        'def outcome(hand, result, data):\n    data["x"] = 1\n    return hand.get("winner"), hand["loser"]\n'
    )
    assert raw_reads(planted, {"result"}) == [
        "line 3: hand.get('winner')",
        "line 3: hand['loser']",
    ]
    assert raw_reads('def f(result):\n    return result["han"], result.get("fu")\n', {"result"}) == []
