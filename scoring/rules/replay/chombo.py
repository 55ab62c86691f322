"""Chombo (WRCR 2015 §7.1): the penalty a verdict lists, and a chombo hand read as its outcome."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.rules import legal
from scoring.rules.entry import Seats, add_problems
from scoring.rules.legal import CHOMBO, HandOutcome
from scoring.rules.sheet import Error, HandState, Sheet, as_changes


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
    sheet: Sheet, number: int, named: Seats, state: HandState, errors: list[Error]
) -> HandOutcome:
    """WRCR 2015 §7.1: no payment (unless the ruleset has a table payment), stakes returned."""
    if named.problems:
        add_problems(errors, number, state, named.problems)
    offenders = named.seats
    changes = [0, 0, 0, 0]
    for offender in sorted(offenders):
        for seat, amount in enumerate(legal.chombo_payments(offender, state.dealer, sheet.ruleset)):
            changes[seat] += amount
    return HandOutcome(CHOMBO, as_changes(changes), offenders=tuple(sorted(offenders)))
