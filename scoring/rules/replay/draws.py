"""Draws: an exhaustive draw (tenpai payments), an abortive draw and a nagashi mangan, each read as its
outcome under the ruleset."""

from __future__ import annotations

from scoring.rules import legal
from scoring.rules.entry import Abortive, Nagashi, Seats, add_problems
from scoring.rules.explain import noten_riichi_error
from scoring.rules.i18n import _
from scoring.rules.legal import ABORTIVE, DRAW, NAGASHI, HandOutcome
from scoring.rules.replay.state import stakes
from scoring.rules.ruleset import ABORTIVE_DRAWS, FOUR_RIICHI
from scoring.rules.sheet import (
    RULE_ABORTIVE,
    RULE_NAGASHI,
    Error,
    HandState,
    Sheet,
    as_changes,
    hand_error,
)


def draw_outcome(
    sheet: Sheet,
    number: int,
    named: Seats,
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> HandOutcome:
    """An exhaustive draw with the tenpai players ``named``."""
    if named.problems:
        add_problems(errors, number, state, named.problems)
    tenpai = named.seats
    noten_riichi = sorted(riichi - tenpai)
    if noten_riichi and sheet.ruleset.noten_riichi_chombo:
        errors.append(noten_riichi_error(sheet, number, state, noten_riichi))
    payments = legal.noten_payments(tenpai, sheet.ruleset)
    changes = [stake + payment for stake, payment in zip(stakes(sheet, riichi), payments, strict=True)]
    return HandOutcome(DRAW, as_changes(changes), tenpai=tuple(sorted(tenpai)))


def abortive_outcome(
    sheet: Sheet,
    number: int,
    hand: Abortive,
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> HandOutcome:
    """An abortive draw (``{"result": "abortive", "kind": ...}``), where the ruleset allows its kind: no
    payment, the riichi stakes of the hand go onto the table. Under a ruleset without it (WRCR 2015
    §5.7.3: "The World Riichi Championship Rules do not recognize any abortive draw cases") an error,
    and the replay goes on as the online game did: no payment, the dealer keeps the deal."""
    kind = hand.kind
    ruleset = sheet.ruleset
    if hand.problem is not None:
        add_problems(errors, number, state, (hand.problem,))
    elif not ruleset.abortive_draws:
        text = _("{ruleset} has no abortive draws ({kind}): a hand ends by a win or an exhaustive draw")
        errors.append(
            hand_error(
                number, state, RULE_ABORTIVE, text.format(ruleset=ruleset.name, kind=_(ABORTIVE_DRAWS[kind]))
            )
        )
    elif not ruleset.allows_abortive(kind):
        text = _("{kind} is no abortive draw under {ruleset}; its abortive draws: {kinds}").format(
            kind=_(ABORTIVE_DRAWS[kind]),
            ruleset=ruleset.name,
            kinds=", ".join(
                _(ABORTIVE_DRAWS[other]) for other in ABORTIVE_DRAWS if ruleset.allows_abortive(other)
            ),
        )
        errors.append(hand_error(number, state, RULE_ABORTIVE, text))
    elif kind == FOUR_RIICHI and len(riichi) != 4:
        text = _("four riichi is an abortive draw only when all four players declared riichi in the hand")
        errors.append(hand_error(number, state, RULE_ABORTIVE, text))
    changes = as_changes(stakes(sheet, riichi))
    return HandOutcome(ABORTIVE, changes, value=kind)


def nagashi_outcome(
    sheet: Sheet,
    number: int,
    hand: Nagashi,
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> HandOutcome:
    """A nagashi mangan (``{"result": "nagashi", "nagashi": [...], "tenpai": [...]}``) where the ruleset has
    it: each nagashi player is paid a mangan as for a self-draw instead of the noten payments; the dealer
    keeps the deal when tenpai and a counter is added, as at an exhaustive draw. Under a ruleset without
    it (WRCR 2015 §5.7.2: an exhaustive draw pays the noten payments) an error, and the hand is replayed as
    the exhaustive draw with the tenpai players given, unless the hand says ``"played_online": true``: the
    nagashi mangan an online game played, which the tournament takes as the result played at the table
    (a game log's import marks it so, and reports it: ``scoring.rules.tenhou``)."""
    if hand.nagashi.problems:
        add_problems(errors, number, state, hand.nagashi.problems)
    nagashi = hand.nagashi.seats
    if not sheet.ruleset.nagashi_mangan and not hand.played_online:
        text = _(
            "{ruleset} has no nagashi mangan: an exhaustive draw pays only the noten payments (enter it as "
            "an exhaustive draw with its tenpai players)"
        ).format(ruleset=sheet.ruleset.name)
        errors.append(hand_error(number, state, RULE_NAGASHI, text))
        return draw_outcome(sheet, number, hand.tenpai, state, riichi, errors)
    if not nagashi and not hand.nagashi.problems:
        errors.append(hand_error(number, state, RULE_NAGASHI, _("a nagashi mangan names its player(s)")))
    if hand.tenpai.problems:
        add_problems(errors, number, state, hand.tenpai.problems)
    tenpai = hand.tenpai.seats
    noten_riichi = sorted(riichi - tenpai)
    if noten_riichi and sheet.ruleset.noten_riichi_chombo:
        errors.append(noten_riichi_error(sheet, number, state, noten_riichi))
    payments = legal.nagashi_payments(nagashi, state.dealer)
    changes = [stake + payment for stake, payment in zip(stakes(sheet, riichi), payments, strict=True)]
    return HandOutcome(
        NAGASHI, as_changes(changes), tenpai=tuple(sorted(tenpai)), winners=tuple(sorted(nagashi))
    )
