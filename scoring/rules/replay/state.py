"""The table from one hand to the next: dealer rotation, honba and riichi sticks after each outcome
(WRCR 2015 §5.7.4, §5.7.7, §5.7.8, §7.1), a hand's riichi stakes, and the step of a replay path."""

from __future__ import annotations

from typing import NamedTuple

from scoring.rules.legal import ABORTIVE, CHOMBO, DRAW, NAGASHI, HandOutcome
from scoring.rules.sheet import PLAYING, UNREADABLE, Error, HandState, Sheet


def next_state(state: HandState, outcome: HandOutcome, declarers: int) -> HandState:
    """The table after ``outcome`` (WRCR 2015 §5.7.4, §5.7.7, §5.7.8, §7.1); a nagashi mangan is a draw
    (the dealer stays when tenpai), an abortive draw keeps the dealer."""
    points = (
        state.points[0] + outcome.changes[0],
        state.points[1] + outcome.changes[1],
        state.points[2] + outcome.changes[2],
        state.points[3] + outcome.changes[3],
    )
    kind = outcome.kind
    last = state.last
    if kind in (CHOMBO, UNREADABLE):
        # §7.1: a chombo is re-dealt: riichi stakes returned, no counter, no rotation.
        return HandState(state.round_index, state.honba, state.sticks, points, PLAYING, last)
    if kind == ABORTIVE:
        # The online rules: an abortive draw keeps the dealer ("All count as renchan"), adds a counter, and
        # the riichi stakes wait on the table as after a draw (§5.7.4).
        return HandState(state.round_index, state.honba + 1, state.sticks + declarers, points, PLAYING, last)
    if kind in (DRAW, NAGASHI):
        # §5.7.2, §5.7.4, §5.7.8: a counter is added, the sticks wait, the dealer stays if tenpai.
        rotation = 0 if state.round_index % 4 in outcome.tenpai else 1
        return HandState(
            state.round_index + rotation, state.honba + 1, state.sticks + declarers, points, PLAYING, last
        )
    if state.round_index % 4 in outcome.winners:
        return HandState(state.round_index, state.honba + 1, 0, points, PLAYING, last)
    return HandState(state.round_index + 1, 0, 0, points, PLAYING, last)


class Node(NamedTuple):
    """One step of a replay path; paths share their beginnings."""

    state: HandState
    parent: Node | None
    before: HandState | None
    outcome: HandOutcome | None
    riichi: frozenset[int]
    errors: tuple[Error, ...]
    error_count: int


def stakes(sheet: Sheet, riichi: frozenset[int]) -> list[int]:
    stick = sheet.ruleset.riichi_stick
    return [-stick if seat in riichi else 0 for seat in range(4)]
