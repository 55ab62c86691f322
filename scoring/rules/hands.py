"""Hand evaluation from tiles: is a hand a legal win, and what is it worth (WRCR 2015 §5.2, §6).

``evaluate_hand(hand)`` takes a hand as JSON (the fields of the WRC hand vectors: ``concealed``, ``melds``,
``win_tile``, ``win``, winds, dora indicators, ``flags``, ...) and returns its han, fu, limit, yaku in WRCR
English names, dora, payments and the winner's total gain. ``parse_hand`` and ``score_hand`` are the two
halves, for callers that keep a parsed ``Hand`` or want the ``HandResult`` dataclass.

The work is split along the ``mahjong`` library's seams (docs/hand-evaluation.md):

* ``scoring.rules.hand_input``: the JSON input read into a typed, checked ``Hand``;
* ``scoring.rules.library``: the adapter to the ``mahjong`` library (``HandCalculator``, ``HandConfig``,
  melds in its format, its yaku under WRCR names);
* ``scoring.rules.wrcr``: the WRCR 2015 corrections on top of the library's answer, and ``HandResult``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rules.hand_input import (
    FLAGS,
    MELD_TYPES,
    YAKU_ORDER,
    DeclaredMeld,
    Hand,
    HandInputError,
    parse_hand,
)
from scoring.rules.ruleset import Ruleset
from scoring.rules.wrcr import HandResult, score_hand

__all__ = [
    "FLAGS",
    "MELD_TYPES",
    "YAKU_ORDER",
    "DeclaredMeld",
    "Hand",
    "HandInputError",
    "HandResult",
    "evaluate_hand",
    "parse_hand",
    "score_hand",
]


def evaluate_hand(hand: Mapping[str, Any], ruleset: Ruleset | None = None) -> dict[str, Any]:
    """Evaluate a hand given in the JSON form of the vectors under ``ruleset`` (default WRC2015).

    Returns the vectors' ``expected`` form; ``{"valid": False, "reason": ...}`` when the hand is not a legal
    win. Raises ``HandInputError`` (a ``ValueError``) when the input does not describe a hand.
    """
    return score_hand(parse_hand(hand), ruleset).to_dict()
