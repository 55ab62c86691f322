"""The four deltas a paper sheet writes: checked against an outcome that gives them too, or read as
each legal outcome of the moment they can be (``legal.readings``)."""

from __future__ import annotations

from scoring.rules import legal
from scoring.rules.entry import Deltas, Written, add_problems
from scoring.rules.explain import changes_text, chombo_mismatch, explain_change
from scoring.rules.i18n import _
from scoring.rules.legal import CHOMBO, DRAW, NAGASHI, RON, HandOutcome, Moment
from scoring.rules.replay.chombo import chombo_outcome
from scoring.rules.ruleset import Ruleset
from scoring.rules.sheet import (
    RULE_CHOMBO,
    RULE_PAYMENT,
    UNREADABLE,
    Error,
    HandState,
    Sheet,
    hand_error,
    unreadable,
)


def check_written_deltas(
    sheet: Sheet, number: int, deltas: Written, state: HandState, outcome: HandOutcome, errors: list[Error]
) -> None:
    """An outcome that also gives the deltas written on the sheet: both must agree."""
    if deltas.problems:
        add_problems(errors, number, state, deltas.problems)
    written = deltas.changes
    if written is not None and outcome.kind != UNREADABLE and written != outcome.changes:
        errors.append(
            hand_error(
                number,
                state,
                RULE_PAYMENT,
                _("the sheet writes {written} but this {result} gives {changes}").format(
                    written=changes_text(sheet, written),
                    result=_(outcome.kind),
                    changes=changes_text(sheet, outcome.changes),
                ),
            )
        )


def deltas_outcomes(
    sheet: Sheet,
    number: int,
    hand: Deltas,
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> list[tuple[HandOutcome, list[Error], frozenset[int]]]:
    """Each reading of a deltas hand with its errors (``errors``: those found so far in the hand) and its
    riichi declarers."""
    written = hand.deltas
    assert written is not None
    if written.problems:
        add_problems(errors, number, state, written.problems)
    changes = written.changes
    if changes is None:
        return [(unreadable(), errors, riichi)]
    if hand.chombo is not None:
        outcome = chombo_outcome(sheet, number, hand.chombo, state, errors)
        if outcome.changes != changes:
            errors.append(hand_error(number, state, RULE_CHOMBO, chombo_mismatch(sheet, outcome, changes)))
        return [(HandOutcome(CHOMBO, changes, offenders=outcome.offenders), errors, riichi)]
    moment = Moment(state.round_index % 4, state.honba, state.sticks, riichi)
    found = legal.readings(moment, changes, sheet.ruleset)
    if hand.tenpai is not None:
        if hand.tenpai.problems:
            add_problems(errors, number, state, hand.tenpai.problems)
        tenpai = hand.tenpai.seats
        # Naming the tenpai players says the hand was an exhaustive draw (or a nagashi mangan).
        found = [
            reading for reading in found if reading.kind in (DRAW, NAGASHI) and set(reading.tenpai) == tenpai
        ]
    if not found:
        errors.append(explain_change(sheet, number, state, moment, changes))
        return [(_fallback(moment, changes, sheet.ruleset), errors, riichi)]
    if len(found) == 1 and found[0].kind != CHOMBO:
        return [(found[0], errors, riichi)]
    outcomes: list[tuple[HandOutcome, list[Error], frozenset[int]]] = []
    for reading in found:
        more = list(errors)
        if reading.kind == CHOMBO:
            more.append(
                hand_error(
                    number,
                    state,
                    RULE_CHOMBO,
                    _(
                        "no points changed although riichi was declared: that is a chombo re-deal; name the "
                        'offender ("chombo": [...]) so the {penalty} point penalty is applied'
                    ).format(penalty=sheet.ruleset.chombo_penalty),
                )
            )
        outcomes.append((reading, more, riichi))
    return outcomes


def _fallback(moment: Moment, changes: tuple[int, int, int, int], ruleset: Ruleset) -> HandOutcome:
    """How an illegal change most likely ended the hand, so the replay can go on after reporting it:
    a draw when everybody or nobody pays and several gain (noten payments touch all four players), else
    a win by the players who gain."""
    stick = ruleset.riichi_stick
    before = [change + stick if seat in moment.riichi else change for seat, change in enumerate(changes)]
    gainers = tuple(seat for seat in range(4) if before[seat] > 0)
    if not any(before) or (sum(before) == 0 and all(before) and len(gainers) != 1):
        return HandOutcome(DRAW, changes, tenpai=gainers if any(before) else (0, 1, 2, 3))
    return HandOutcome(RON, changes, winners=gainers or (max(range(4), key=lambda seat: before[seat]),))
