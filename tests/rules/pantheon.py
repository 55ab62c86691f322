"""Test tooling: reader for the text game log of the Pantheon tournament system (its
``Mimir/tests/models/testdata/games.txt``, kept as ``tests/data/ema-tournament-24-hanchan.txt``).

Not part of the rules engine: it only turns the real tournament records into sheets for the replay tests.

Games are separated by blank lines. A game's first line lists the four players in starting seat order with
their recorded final points (``name:points``); each following line is one hand:

* ``ron WINNER from LOSER Nhan [Mfu] (yaku...)``; ``also WINNER Nhan [Mfu] (...)`` adds a second winner
  on the same discard;
* ``tsumo WINNER Nhan [Mfu] (yaku...)``;
* ``draw tempai P1 P2 ...`` (``tempai all``, ``tempai nobody``);
* ``chombo PLAYER``;
* a trailing ``riichi P1 P2 ...`` names the hand's riichi declarers.

Each game becomes a sheet in the replay's input format, with the recorded final points.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

_YAKU = re.compile(r"\([^)]*\)")
_HAN = re.compile(r"^(\d+)han$")
_FU = re.compile(r"^(\d+)fu$")


class PantheonFormatError(ValueError):
    """A line of the log that the reader does not understand."""


def parse_games(text: str, ruleset: str = "EMA2016") -> list[dict[str, Any]]:
    """One sheet per game of a Pantheon text log."""
    blocks = [block for block in re.split(r"\n\s*\n", text.strip()) if block.strip()]
    return [_parse_game(block.strip().splitlines(), ruleset) for block in blocks]


def read_games(path: str | Path, ruleset: str = "EMA2016") -> list[dict[str, Any]]:
    """``parse_games`` of a log file."""
    return parse_games(Path(path).read_text(encoding="utf-8"), ruleset)


def _parse_game(lines: list[str], ruleset: str) -> dict[str, Any]:
    players: list[str] = []
    final_points: dict[str, int] = {}
    for entry in lines[0].split():
        name, _, points = entry.partition(":")
        if not points.lstrip("-").isdigit():
            raise PantheonFormatError(f"not a player with points: {entry!r}")
        players.append(name)
        final_points[name] = int(points)
    hands: list[dict[str, Any]] = []
    for line in lines[1:]:
        _parse_hand(line, players, hands)
    return {"ruleset": ruleset, "players": players, "hands": hands, "final_points": final_points}


def _parse_hand(line: str, players: list[str], hands: list[dict[str, Any]]) -> None:
    words = _YAKU.sub(" ", line).split()
    riichi: list[str] = []
    if "riichi" in words:
        at = words.index("riichi")
        words, riichi = words[:at], words[at + 1 :]
    if not words:
        raise PantheonFormatError(f"empty hand line: {line!r}")
    kind, rest = words[0], words[1:]
    if kind == "ron" and len(rest) >= 3 and rest[1] == "from":
        hands.append(
            {"result": "ron", "winner": rest[0], "loser": rest[2], **_value(rest[3:], line), "riichi": riichi}
        )
    elif kind == "also" and rest and hands and hands[-1].get("result") == "ron":
        _add_winner(hands[-1], {"winner": rest[0], **_value(rest[1:], line)}, riichi)
    elif kind == "tsumo" and rest:
        hands.append({"result": "tsumo", "winner": rest[0], **_value(rest[1:], line), "riichi": riichi})
    elif kind == "draw" and rest[:1] == ["tempai"]:
        hands.append({"result": "draw", "tenpai": _tenpai(rest[1:], players, line), "riichi": riichi})
    elif kind == "chombo" and len(rest) == 1:
        hands.append({"result": "chombo", "offender": rest[0], "riichi": riichi})
    else:
        raise PantheonFormatError(f"unknown hand line: {line!r}")


def _value(words: list[str], line: str) -> dict[str, int]:
    value: dict[str, int] = {}
    for word in words:
        han, fu = _HAN.match(word), _FU.match(word)
        if han:
            value["han"] = int(han.group(1))
        elif fu:
            value["fu"] = int(fu.group(1))
        else:
            raise PantheonFormatError(f"unknown word {word!r} in {line!r}")
    if "han" not in value:
        raise PantheonFormatError(f"a win without han: {line!r}")
    return value


def _add_winner(hand: dict[str, Any], win: dict[str, Any], riichi: list[str]) -> None:
    """Turn a ron into the multiple-ron form: ``{"result": "ron", "loser": ..., "wins": [...]}``."""
    if "wins" not in hand:
        first = {key: hand.pop(key) for key in ("winner", "han", "fu") if key in hand}
        hand["wins"] = [first]
    hand["wins"].append(win)
    hand["riichi"] = [*hand["riichi"], *(name for name in riichi if name not in hand["riichi"])]


def _tenpai(words: list[str], players: list[str], line: str) -> list[str]:
    if words == ["nobody"]:
        return []
    if words == ["all"]:
        return list(players)
    if not words:
        raise PantheonFormatError(f"a draw names its tenpai players: {line!r}")
    return words
