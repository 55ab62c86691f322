"""Tile notation: digits followed by their suit letter, e.g. ``123m456p789s11z`` (WRCR 2015 §3).

``m`` characters, ``p`` circles, ``s`` bamboos, each numbered 1-9; ``z`` honours numbered 1-7: East, South,
West, North, White, Green, Red. Red fives, flowers and jokers are not used (WRCR 2015 §3.3), so ``0`` is
not a tile. Whitespace between groups is ignored (``123m 456p``).

A tile is held as its kind, an index 0-33 (the order of the ``mahjong`` library's 34-tile arrays):
1m-9m = 0-8, 1p-9p = 9-17, 1s-9s = 18-26, East, South, West, North = 27-30, White, Green, Red = 31-33.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import NoReturn

from scoring.rules.i18n import _

# Suit letter -> (index of its tile 1, highest number).
SUITS: dict[str, tuple[int, int]] = {"m": (0, 9), "p": (9, 9), "s": (18, 9), "z": (27, 7)}
TILE_KINDS = 34
# WRCR 2015 §3: a set holds four identical tiles of each kind.
COPIES_PER_KIND = 4

EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
HONOUR_NAMES = ("East", "South", "West", "North", "White Dragon", "Green Dragon", "Red Dragon")

_WELL_FORMED = re.compile(r"(?:[1-9]+[mps]|[1-7]+z)+")
_NUMBERS = re.compile(r"([0-9]+)([mpsz])")
# Splits a tile string into groups that each end with a letter from "mpsz"; a trailing group without
# one is kept so that it can be reported.
_GROUP = re.compile(r"[^mpsz]*[mpsz]|[^mpsz]+$")


class HandInputError(ValueError):
    """Input that does not describe a hand: bad tile notation, wrong tile counts, unknown values.

    The message starts with the name of the offending field, e.g. ``concealed: "12x" is not a tile``.
    """


def parse_tiles(text: object, field: str) -> list[int]:
    """The tile kinds written in ``text``, in order. ``field`` names the input in error messages."""
    if not isinstance(text, str):
        raise HandInputError(
            _('{field}: expected a tile string such as "123m11z", got {value}').format(
                field=field, value=repr(text)
            )
        )
    kinds = _kinds(text)
    if kinds is None:
        _raise_notation_error(text, field)
    return list(kinds)


@lru_cache(maxsize=4096)
def _kinds(text: str) -> tuple[int, ...] | None:
    """The kinds in a well-formed tile string; None when it is not one (a slower pass finds the error)."""
    compact = "".join(text.split())
    if not _WELL_FORMED.fullmatch(compact):
        return None
    return tuple(
        SUITS[suit][0] + int(number) - 1 for numbers, suit in _NUMBERS.findall(compact) for number in numbers
    )


def _raise_notation_error(text: str, field: str) -> NoReturn:
    compact = "".join(text.split())
    if not compact:
        raise HandInputError(_("{field}: no tiles").format(field=field))
    for group in _GROUP.findall(compact):
        suit = group[-1]
        numbers = group[:-1]
        if suit not in SUITS or any(number not in "0123456789" for number in numbers):
            raise HandInputError(
                _('{field}: "{group}" is not a tile (write digits followed by m, p, s or z)').format(
                    field=field, group=group
                )
            )
        if not numbers:
            raise HandInputError(
                _('{field}: "{group}" is not a tile (no number before the suit letter)').format(
                    field=field, group=group
                )
            )
        for number in numbers:
            if number == "0" and suit != "z":
                raise HandInputError(
                    _(
                        '{field}: "0{suit}" is not a tile (red fives are not used, WRCR 2015 §3.3: '
                        "write 5{suit})"
                    ).format(field=field, suit=suit)
                )
            if not 1 <= int(number) <= SUITS[suit][1]:
                raise HandInputError(
                    _('{field}: "{tile}" is not a tile ({range})').format(
                        field=field, tile=number + suit, range=_range_of(suit)
                    )
                )
    raise AssertionError(f"unreachable: {text!r} is well formed")


def parse_tile(text: object, field: str) -> int:
    """The one tile written in ``text``."""
    tiles = parse_tiles(text, field)
    if len(tiles) != 1:
        raise HandInputError(
            _('{field}: "{tiles}" is {count} tiles, expected one').format(
                field=field, tiles=text, count=len(tiles)
            )
        )
    return tiles[0]


def tile_str(kind: int) -> str:
    """One tile in notation: ``tile_str(31) == "5z"``."""
    suit, (first, _highest) = _suit_of(kind)
    return f"{kind - first + 1}{suit}"


def tiles_str(kinds: Iterable[int]) -> str:
    """Tiles in notation, sorted and grouped by suit: ``tiles_str([31, 0, 1]) == "12m5z"``."""
    by_suit: dict[str, list[str]] = {suit: [] for suit in SUITS}
    for kind in sorted(kinds):
        suit, (first, _highest) = _suit_of(kind)
        by_suit[suit].append(str(kind - first + 1))
    return "".join("".join(numbers) + suit for suit, numbers in by_suit.items() if numbers)


def dora_of(indicator: int) -> int:
    """The dora shown by an indicator (WRCR 2015 §4.8): the next tile of the suit, 9 -> 1;
    East -> South -> West -> North -> East; White -> Green -> Red -> White."""
    if indicator < EAST:
        first = indicator - indicator % 9
        return first + (indicator - first + 1) % 9
    if indicator <= NORTH:
        return EAST + (indicator - EAST + 1) % 4
    return WHITE + (indicator - WHITE + 1) % 3


def is_terminal_or_honour(kind: int) -> bool:
    return kind >= EAST or kind % 9 in (0, 8)


def _suit_of(kind: int) -> tuple[str, tuple[int, int]]:
    if not 0 <= kind < TILE_KINDS:
        raise ValueError(f"{kind} is not a tile kind (0-33)")
    for suit, (first, highest) in SUITS.items():
        if first <= kind < first + highest:
            return suit, (first, highest)
    raise AssertionError("unreachable: the suits cover 0-33")


def _range_of(suit: str) -> str:
    return _("honours are 1z-7z") if suit == "z" else _("suit tiles are 1{suit}-9{suit}").format(suit=suit)
