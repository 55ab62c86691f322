"""The flow of a hanchan: the walk over a sheet's hands, each read as its outcome (or its readings,
followed side by side), the table after it, and the reading of the whole sheet that the rest agrees with."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from scoring.rules.entry import (
    Abortive,
    AnyHand,
    ChomboHand,
    Deltas,
    Draw,
    Ending,
    Entry,
    MultipleRon,
    Nagashi,
    NoResult,
    NotAnObject,
    UnknownResult,
    Win,
    add_problems,
    read_entry,
)
from scoring.rules.explain import after_end_error
from scoring.rules.i18n import _, gettext_noop
from scoring.rules.legal import ABORTIVE, CHOMBO, HandOutcome
from scoring.rules.replay.chombo import chombo_outcome
from scoring.rules.replay.deltas import check_written_deltas, deltas_outcomes
from scoring.rules.replay.draws import abortive_outcome, draw_outcome, nagashi_outcome
from scoring.rules.replay.end import final_verdict
from scoring.rules.replay.state import Node, next_state
from scoring.rules.replay.verdict import Verdict
from scoring.rules.replay.wins import multiple_ron_outcome, win_outcome
from scoring.rules.ruleset import AGARI_YAME_ALWAYS, Ruleset
from scoring.rules.sheet import (
    MAY_END,
    OVER,
    RULE_FORMAT,
    UNREADABLE,
    Error,
    HandState,
    Sheet,
    extension_end,
    game_end,
    hand_error,
    unreadable,
)

Outcomes = list[tuple[HandOutcome, list[Error], frozenset[int]]]


def replay(sheet: Mapping[str, Any], ruleset: Ruleset | None = None) -> Verdict:
    """Replay one hanchan score sheet; ``ruleset`` overrides the sheet's own ``ruleset`` field.

    Returns the ``Verdict``: ``valid``, ``errors`` and, as far as the sheet could be read, ``hands`` (round,
    dealer, honba, sticks before the hand, result, deltas, points after), ``final_points``,
    ``riichi_sticks_left``, ``finished``, ``ranks``, ``uma``, ``scores`` (exact ``Decimal``) and ``chombo``
    penalties.
    """
    read, errors = read_entry(sheet, ruleset)
    if read is None:
        return Verdict.refused(errors)
    parsed = read.sheet
    start = parsed.ruleset.starting_points
    state = HandState(0, 0, 0, (start, start, start, start), last=game_end(parsed.ruleset))
    root = Node(state, None, None, None, frozenset(), (), 0)
    paths = [root]
    for number, hand in enumerate(read.hands, 1):
        paths = _step(parsed, number, hand, paths)
    node = _choose(paths, read.ending)
    return final_verdict(parsed, read.ending, node, errors)


def _step(sheet: Sheet, number: int, hand: Entry, paths: list[Node]) -> list[Node]:
    """Every path extended by every reading of ``hand``; one path per resulting game state."""
    if len(paths) == 1:
        node = paths[0]
        state = node.state
        if not state.finished:
            results = _hand_outcomes(sheet, number, hand, state)
            if len(results) == 1:
                outcome, errors, riichi = results[0]
                after = _after(sheet.ruleset, state, outcome, len(riichi))
                return [
                    Node(after, node, state, outcome, riichi, tuple(errors), node.error_count + len(errors))
                ]
    extended: dict[tuple[int, int, int, int, int], Node] = {}
    for node in paths:
        state = node.state
        end_errors: tuple[Error, ...] = ()
        if state.finished and (node.before is None or not node.before.finished):
            end_errors = (after_end_error(sheet, number, state),)
        for outcome, errors, riichi in _hand_outcomes(sheet, number, hand, state):
            after = _after(sheet.ruleset, state, outcome, len(riichi))
            all_errors = (*end_errors, *errors) if errors or end_errors else ()
            count = node.error_count + len(all_errors)
            key = (after.round_index, after.honba, after.sticks, after.end, after.last)
            known = extended.get(key)
            if known is None or count < known.error_count:
                extended[key] = Node(after, node, state, outcome, riichi, all_errors, count)
    return list(extended.values())


def _after(ruleset: Ruleset, state: HandState, outcome: HandOutcome, declarers: int) -> HandState:
    """``next_state``, and the end of the hanchan as the ruleset has it (WRCR 2015 §5.8, §5.9.1: after South
    4, no agari yame, no West round; §4.1: "The game continues when a player's score goes below zero"). The
    online rules: a player below zero ends it (busting); the all-last dealer who keeps the deal, first with
    at least the West round's points, ends it (agari yame, or may end it); and when nobody has those points
    after South 4 (East 4 in an East-only game), the extension round is played, sudden death: the first hand
    after which somebody has them ends the game, West 4 (South 4) at most."""
    after = next_state(state, outcome, declarers)
    target = ruleset.west_round_points
    end = game_end(ruleset)
    if after.finished and target and after.last == end and max(after.points) < target:
        after = after._replace(last=extension_end(ruleset))
    if after.finished:
        return after
    if ruleset.busting and min(after.points) < 0:
        return after._replace(end=OVER)
    redealt = outcome.kind in (CHOMBO, UNREADABLE)
    if state.round_index >= end and not redealt and max(after.points) >= target:
        # The extension round is sudden death: "As soon as someone attains 30,000 points [...] the game
        # ends" (Tenhou.net rules), whoever deals next; a real Tenhou game ended when the West 2 dealer won
        # to 30,500 and was first (tests/data/tenhou/real-tenhou-2017-west.json).
        return after._replace(end=OVER)
    kept = after.round_index == state.round_index and outcome.kind != ABORTIVE and not redealt
    if ruleset.agari_yame and kept and state.round_index == after.last - 1:
        dealer = state.round_index % 4
        others = [after.points[seat] for seat in range(4) if seat != dealer]
        if after.points[dealer] > max(others) and after.points[dealer] >= target:
            return after._replace(end=OVER if ruleset.agari_yame == AGARI_YAME_ALWAYS else MAY_END)
    return after


def _choose(paths: list[Node], ending: Ending) -> Node:
    """The path with the fewest errors, preferring one whose end agrees with the sheet."""
    by_time = ending.ended_by_time is True

    def cost(node: Node) -> tuple[int, int]:
        return node.error_count, 0 if node.state.may_end or by_time else 1

    return min(paths, key=cost)


def _hand_outcomes(sheet: Sheet, number: int, hand: Entry, state: HandState) -> Outcomes:
    if isinstance(hand, NotAnObject):
        error = hand_error(number, state, RULE_FORMAT, _("a hand is a JSON object"))
        return [(unreadable(), [error], frozenset())]
    errors: list[Error] = []
    if hand.riichi.problems:
        add_problems(errors, number, state, hand.riichi.problems)
    riichi = hand.riichi.seats
    if isinstance(hand, Deltas):
        return deltas_outcomes(sheet, number, hand, state, riichi, errors)
    outcome = _OUTCOMES[type(hand)](sheet, number, hand, state, riichi, errors)
    if hand.deltas is not None:
        check_written_deltas(sheet, number, hand.deltas, state, outcome, errors)
    return [(outcome, errors, riichi)]


def _chombo(
    sheet: Sheet, number: int, hand: ChomboHand, state: HandState, riichi: frozenset[int], errors: list[Error]
) -> HandOutcome:
    return chombo_outcome(sheet, number, hand.offenders, state, errors)


def _draw(
    sheet: Sheet, number: int, hand: Draw, state: HandState, riichi: frozenset[int], errors: list[Error]
) -> HandOutcome:
    return draw_outcome(sheet, number, hand.tenpai, state, riichi, errors)


def _unknown(
    sheet: Sheet,
    number: int,
    hand: UnknownResult,
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> HandOutcome:
    add_problems(errors, number, state, (hand.problem,))
    return unreadable()


def _no_result(
    sheet: Sheet, number: int, hand: NoResult, state: HandState, riichi: frozenset[int], errors: list[Error]
) -> HandOutcome:
    errors.append(hand_error(number, state, RULE_FORMAT, _("a hand needs a result or the four deltas")))
    return unreadable()


# Each kind of hand read as its outcome (a paper sheet's deltas apart: they may have several readings).
_OUTCOMES: dict[type[AnyHand], Callable[..., HandOutcome]] = {
    Win: win_outcome,
    MultipleRon: multiple_ron_outcome,
    Draw: _draw,
    ChomboHand: _chombo,
    Abortive: abortive_outcome,
    Nagashi: nagashi_outcome,
    UnknownResult: _unknown,
    NoResult: _no_result,
}


# The results as messages name them ("this ron gives ..."), translated when shown.
RESULT_NAMES = (
    gettext_noop("ron"),
    gettext_noop("multiple ron"),
    gettext_noop("tsumo"),
    gettext_noop("draw"),
    gettext_noop("chombo"),
    gettext_noop("abortive"),
    gettext_noop("nagashi"),
)
