"""Draws: an exhaustive draw (tenpai payments), an abortive draw and a nagashi mangan, each read as its
outcome under the ruleset."""

from __future__ import annotations

from typing import Any

from scoring.rules import legal
from scoring.rules.explain import noten_riichi_error
from scoring.rules.i18n import _
from scoring.rules.legal import ABORTIVE, DRAW, NAGASHI, HandOutcome
from scoring.rules.replay.state import stakes
from scoring.rules.ruleset import ABORTIVE_DRAWS, FOUR_RIICHI
from scoring.rules.sheet import (
    RULE_ABORTIVE,
    RULE_FORMAT,
    RULE_NAGASHI,
    Error,
    HandState,
    Sheet,
    as_changes,
    hand_error,
    seat_set,
)


def draw_outcome(
    sheet: Sheet,
    number: int,
    hand: dict[str, Any],
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> HandOutcome:
    tenpai, more = seat_set(sheet, number, state, hand.get("tenpai", []), "tenpai")
    errors.extend(more)
    noten_riichi = sorted(riichi - tenpai)
    if noten_riichi and sheet.ruleset.noten_riichi_chombo:
        errors.append(noten_riichi_error(sheet, number, state, noten_riichi))
    payments = legal.noten_payments(tenpai, sheet.ruleset)
    changes = [stake + payment for stake, payment in zip(stakes(sheet, riichi), payments, strict=True)]
    return HandOutcome(DRAW, as_changes(changes), tenpai=tuple(sorted(tenpai)))


def abortive_outcome(
    sheet: Sheet,
    number: int,
    hand: dict[str, Any],
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> HandOutcome:
    """An abortive draw (``{"result": "abortive", "kind": ...}``), where the ruleset allows its kind: no
    payment, the riichi stakes of the hand go onto the table. Under a ruleset without it (WRCR 2015
    §5.7.3: "The World Riichi Championship Rules do not recognize any abortive draw cases") an error,
    and the replay goes on as the online game did: no payment, the dealer keeps the deal."""
    kind = hand.get("kind")
    ruleset = sheet.ruleset
    # A kind that is no text (a list, an object) is refused like any unknown kind: looking it up among the
    # kinds would fail on it.
    if not isinstance(kind, str) or kind not in ABORTIVE_DRAWS:
        text = _("an abortive draw names its kind: {kinds}").format(kinds=", ".join(ABORTIVE_DRAWS))
        errors.append(hand_error(number, state, RULE_FORMAT, text))
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
    return HandOutcome(
        ABORTIVE, changes, value=kind if isinstance(kind, str) and kind in ABORTIVE_DRAWS else ""
    )


def nagashi_outcome(
    sheet: Sheet,
    number: int,
    hand: dict[str, Any],
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
    nagashi, more = seat_set(sheet, number, state, hand.get("nagashi", []), "nagashi")
    errors.extend(more)
    if not sheet.ruleset.nagashi_mangan and hand.get("played_online") is not True:
        text = _(
            "{ruleset} has no nagashi mangan: an exhaustive draw pays only the noten payments (enter it as "
            "an exhaustive draw with its tenpai players)"
        ).format(ruleset=sheet.ruleset.name)
        errors.append(hand_error(number, state, RULE_NAGASHI, text))
        return draw_outcome(sheet, number, hand, state, riichi, errors)
    if not nagashi and not more:
        errors.append(hand_error(number, state, RULE_NAGASHI, _("a nagashi mangan names its player(s)")))
    tenpai, more = seat_set(sheet, number, state, hand.get("tenpai", []), "tenpai")
    errors.extend(more)
    noten_riichi = sorted(riichi - tenpai)
    if noten_riichi and sheet.ruleset.noten_riichi_chombo:
        errors.append(noten_riichi_error(sheet, number, state, noten_riichi))
    payments = legal.nagashi_payments(nagashi, state.dealer)
    changes = [stake + payment for stake, payment in zip(stakes(sheet, riichi), payments, strict=True)]
    return HandOutcome(
        NAGASHI, as_changes(changes), tenpai=tuple(sorted(tenpai)), winners=tuple(sorted(nagashi))
    )
