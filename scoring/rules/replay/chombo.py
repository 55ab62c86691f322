"""Chombo (WRCR 2015 §7.1): the penalty a verdict lists, and a chombo hand read as its outcome."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.rules import legal
from scoring.rules.i18n import _
from scoring.rules.legal import CHOMBO, HandOutcome
from scoring.rules.sheet import RULE_CHOMBO, Error, HandState, Sheet, as_changes, hand_error, seat_set


@dataclass(frozen=True, slots=True)
class Chombo:
    """A chombo penalty the sheet gives (WRCR 2015 §7.1): who, in which hand (None on a final-points
    sheet) and the points, negative."""

    player: str
    hand: int | None
    points: int

    def as_json(self) -> dict[str, Any]:
        return {"player": self.player, "hand": self.hand, "points": self.points}


def chombo_outcome(
    sheet: Sheet, number: int, names: object, state: HandState, errors: list[Error]
) -> HandOutcome:
    """WRCR 2015 §7.1: no payment (unless the ruleset has a table payment), stakes returned."""
    offenders, more = seat_set(sheet, number, state, [names] if isinstance(names, str) else names, "offender")
    errors.extend(more)
    if not offenders and not more:
        errors.append(hand_error(number, state, RULE_CHOMBO, _("a chombo names its offender")))
    changes = [0, 0, 0, 0]
    for offender in sorted(offenders):
        for seat, amount in enumerate(legal.chombo_payments(offender, state.dealer, sheet.ruleset)):
            changes[seat] += amount
    return HandOutcome(CHOMBO, as_changes(changes), offenders=tuple(sorted(offenders)))
