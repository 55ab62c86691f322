"""Hanchan replay: check a score sheet hand by hand and compute the final points and scores.

A sheet (plain JSON) lists the players in starting seat order (East, South, West, North) and the hands in
order. Each hand is either an *outcome* (``result``: ron, tsumo, draw or chombo, with its details) or the
four *deltas* written on a paper sheet (riichi stakes paid and sticks collected included); both carry the
hand's riichi declarers. See docs/rules-engine.md for the full format.

The replay enforces dealer rotation and continuance counters (WRCR 2015 §5.7.7, §5.7.8), the end of the
hanchan after South 4 without agari yame (§5.8, §5.9.1), riichi stakes and sticks (§5.7.4, §6.1), the
payments of every hand (§6.1, §6.2, §5.7.2), chombo re-deals (§7.1) and the final points (§5.9). An
invalid sheet gets every error found, each naming its hand and the rule.

Deltas are checked against the legal outcomes of the moment (``legal.readings``). Where deltas have two
readings that lead to different game states (all four changes zero without riichi: everyone tenpai, the
dealer stays, or everyone noten, the deal passes), the replay follows both and keeps the reading that the
rest of the sheet agrees with.

The replay lives in modules by concern, and what callers use is importable from here:

- ``flow``: the walk over the hands (``replay``), each read as its outcome, readings followed side by side;
- ``state``: the table from one hand to the next (``next_state``: dealer rotation, honba, riichi sticks);
- ``wins``: a ron, a tsumo or a multiple ron, its value and payments;
- ``draws``: an exhaustive draw, an abortive draw, a nagashi mangan;
- ``chombo``: a chombo hand and the penalty (``Chombo``);
- ``deltas``: the four deltas a paper sheet writes, read as the outcomes they can be;
- ``end``: the end of the game, the chosen path turned into the verdict;
- ``verdict``: what the replay returns (``Verdict``, ``HandRecord``);
- ``final``: the final-points form (``check_final``).
"""

from scoring.rules.replay.chombo import Chombo
from scoring.rules.replay.final import check_final
from scoring.rules.replay.flow import RESULT_NAMES, replay
from scoring.rules.replay.state import next_state
from scoring.rules.replay.verdict import HandRecord, Verdict
from scoring.rules.sheet import Error, HandState

__all__ = [
    "RESULT_NAMES",
    "Chombo",
    "Error",
    "HandRecord",
    "HandState",
    "Verdict",
    "check_final",
    "next_state",
    "replay",
]
