"""The explanations of the replay: why a hand's point changes are no legal outcome, in words a referee reads
at the table, each citing its rule (WRCR 2015 §5.7, §6.1, §6.2, §7.1).

``explain_change`` finds the most specific reason a four-way change is illegal (a wrong dealer, honba
left out, sticks miscounted, a payment off the table, ...); the other functions write the texts of the
errors that the replay (``scoring.rules.replay``) reports itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.rules import legal
from scoring.rules.i18n import _, ngettext
from scoring.rules.legal import HandOutcome, Moment
from scoring.rules.payments import format_points
from scoring.rules.ruleset import Ruleset
from scoring.rules.sheet import (
    OVER,
    RULE_AFTER_END,
    RULE_BUSTING,
    RULE_DEALER,
    RULE_HEAD_BUMP,
    RULE_HONBA,
    RULE_LIABILITY,
    RULE_NOTEN,
    RULE_NOTEN_RIICHI,
    RULE_PAYMENT,
    RULE_STICKS,
    RULE_ZERO_SUM,
    Error,
    HandState,
    Sheet,
    game_end,
    hand_error,
    round_name,
)


def after_end_error(sheet: Sheet, number: int, state: HandState) -> Error:
    last_dealer = sheet.name(3)
    busted = [seat for seat in range(4) if state.points[seat] < 0]
    if sheet.ruleset.busting and busted:
        return hand_error(
            number,
            state,
            RULE_BUSTING,
            _(
                "the hanchan ended with the previous hand: {players} went below zero, which ends the game "
                "under {ruleset} (busting); no hand is played after the end"
            ).format(players=sheet.names(busted), ruleset=sheet.ruleset.name),
        )
    ruleset, target = sheet.ruleset, format_points(sheet.ruleset.west_round_points)
    end = game_end(ruleset)
    if state.end == OVER and state.round_index >= end:
        leaders = [seat for seat in range(4) if state.points[seat] >= ruleset.west_round_points]
        text = _(
            "the hanchan ended with the previous hand: the extension round is sudden death, and after it "
            "{players} had {points} or more, which ends the game under {ruleset}; no hand is played after "
            "the end"
        ).format(players=sheet.names(leaders), points=target, ruleset=ruleset.name)
        return hand_error(number, state, RULE_AFTER_END, text)
    if state.end == OVER:
        text = _(
            "the hanchan ended with the previous hand: {dealer}, the last dealer, kept the deal in first "
            "place with {points} or more, which ends the game under {ruleset} (agari yame); no hand is "
            "played after the end"
        ).format(dealer=sheet.name(state.dealer), points=target, ruleset=ruleset.name)
        return hand_error(number, state, RULE_AFTER_END, text)
    if state.last != end:
        text = _(
            "the hanchan ended with the previous hand ({round} passed the deal from {dealer}); under "
            "{ruleset} the extension round ends with {round}"
        ).format(round=round_name(state.last - 1), dealer=last_dealer, ruleset=ruleset.name)
        return hand_error(number, state, RULE_AFTER_END, text)
    if ruleset.east_only:
        return hand_error(
            number,
            state,
            RULE_AFTER_END,
            _(
                "the game ended with the previous hand (East 4 passed the deal from {dealer}); under "
                "{ruleset} an East-only game ends after East 4, no hand is played after the end"
            ).format(dealer=last_dealer, ruleset=ruleset.name),
        )
    return hand_error(
        number,
        state,
        RULE_AFTER_END,
        _(
            "the hanchan ended with the previous hand (South 4 passed the deal from {dealer}); "
            "no hand is played after the end (WRCR 2015 §5.8, no agari yame §5.9.1)"
        ).format(dealer=last_dealer),
    )


def noten_riichi_error(sheet: Sheet, number: int, state: HandState, seats: Sequence[int]) -> Error:
    return hand_error(number, state, RULE_NOTEN_RIICHI, _noten_riichi_text(sheet, seats))


def _noten_riichi_text(sheet: Sheet, seats: Sequence[int]) -> str:
    text = ngettext(
        "{players} declared riichi but is noten at the exhaustive draw: that is a chombo ({penalty} points, "
        "no noten payments, riichi stakes returned, the hand is re-dealt; WRCR 2015 §7.1), to be entered "
        "as {entry}",
        "{players} declared riichi but are noten at the exhaustive draw: that is a chombo ({penalty} "
        "points, no noten payments, riichi stakes returned, the hand is re-dealt; WRCR 2015 §7.1), to be "
        "entered as {entry}",
        len(seats),
    )
    return text.format(
        players=sheet.names(seats),
        penalty=sheet.ruleset.chombo_penalty,
        entry='{"result": "chombo", "offender": ...}',
    )


def changes_text(sheet: Sheet, changes: Sequence[int]) -> str:
    return ", ".join(
        f"{player} {format_points(change, sign=True)}"
        for player, change in zip(sheet.players, changes, strict=True)
    )


def chombo_mismatch(sheet: Sheet, outcome: HandOutcome, changes: Sequence[int]) -> str:
    if sheet.ruleset.chombo_table_payment:
        return _("a chombo here pays {changes}, not {written}").format(
            changes=changes_text(sheet, outcome.changes), written=changes_text(sheet, changes)
        )
    return _(
        "a chombo changes no points at the table (riichi stakes are returned, the penalty comes off the "
        "overall score), but the sheet writes {written}"
    ).format(written=changes_text(sheet, changes))


def explain_change(
    sheet: Sheet, number: int, state: HandState, moment: Moment, changes: Sequence[int]
) -> Error:
    """The error for a change that is no legal outcome: the most specific reason found."""
    ruleset = sheet.ruleset
    stick = ruleset.riichi_stick
    before = [change + stick if seat in moment.riichi else change for seat, change in enumerate(changes)]
    pot = stick * (moment.sticks + len(moment.riichi))
    gainers = [seat for seat in range(4) if before[seat] > 0]
    payers = [seat for seat in range(4) if before[seat] < 0]
    total = sum(before)
    tenpai = [seat for seat in range(4) if before[seat] > 0]
    if total == 0 and 0 < len(tenpai) < 4 and legal.noten_payments(tenpai, ruleset) == before:
        rule, text = RULE_NOTEN_RIICHI, _noten_riichi_text(sheet, sorted(moment.riichi - set(tenpai)))
    elif len(gainers) == 1 and payers and total == pot:
        rule, text = _win_problem(sheet, moment, gainers[0], {seat: -before[seat] for seat in payers})
    elif len(gainers) == 1 and payers and (total > 0 or 0 in before) and (total - pot) % stick == 0:
        rule, text = RULE_STICKS, _sticks_text(sheet, moment, gainers[0], total, pot)
    elif len(gainers) > 1 and len(payers) == 1 and total == pot:
        rule, text = _multiple_ron_problem(sheet, gainers, payers[0], changes)
    elif total == 0:
        rule, text = (
            RULE_NOTEN,
            _(
                "the changes {changes} are not noten payments: at an exhaustive draw the noten players pay "
                "{total} in all, shared equally, to the tenpai players"
            ).format(changes=changes_text(sheet, changes), total=format_points(ruleset.noten_total)),
        )
    else:
        rule, text = (
            RULE_ZERO_SUM,
            _(
                "the changes {changes} add up to {sum}; apart from riichi stakes and collected sticks the "
                "changes of a hand add up to zero"
            ).format(changes=changes_text(sheet, changes), sum=format_points(sum(changes), sign=True)),
        )
    return hand_error(number, state, rule, text)


def _multiple_ron_problem(
    sheet: Sheet, gainers: Sequence[int], loser: int, changes: Sequence[int]
) -> tuple[str, str]:
    if not sheet.ruleset.multiple_ron:
        return RULE_HEAD_BUMP, _(
            "{players} are paid by {loser}, but under {ruleset} only one player wins on a discard: the "
            "closest to the discarder in turn order (head bump)"
        ).format(players=sheet.names(gainers), loser=sheet.name(loser), ruleset=sheet.ruleset.name)
    return (
        RULE_PAYMENT,
        _("{changes} is not a legal multiple ron: each winner gets a legal ron").format(
            changes=changes_text(sheet, changes)
        ),
    )


def _sticks_text(sheet: Sheet, moment: Moment, winner: int, collected: int, pot: int) -> str:
    if moment.sticks and moment.riichi:
        text = _(
            "{player} collects {collected} in riichi sticks, but {pot} lie on the table ({earlier} from "
            "earlier hands and {declared} declared in this hand); the winner takes them all"
        )
    elif moment.sticks:
        text = _(
            "{player} collects {collected} in riichi sticks, but {pot} lie on the table ({earlier} from "
            "earlier hands); the winner takes them all"
        )
    elif moment.riichi:
        text = _(
            "{player} collects {collected} in riichi sticks, but {pot} lie on the table ({declared} "
            "declared in this hand); the winner takes them all"
        )
    else:
        text = _(
            "{player} collects {collected} in riichi sticks, but {pot} lie on the table; the winner takes "
            "them all"
        )
    return text.format(
        player=sheet.name(winner),
        collected=format_points(collected),
        pot=format_points(pot),
        earlier=moment.sticks,
        declared=len(moment.riichi),
    )


def _win_problem(sheet: Sheet, moment: Moment, winner: int, paid: dict[int, int]) -> tuple[str, str]:
    ruleset = sheet.ruleset
    dealer = winner == moment.dealer
    for seat in range(4):
        if seat != moment.dealer and legal.is_legal(
            _at(moment, dealer=seat), _changes_of(moment, winner, paid, ruleset), ruleset
        ):
            return RULE_DEALER, _dealer_text(sheet, moment, winner, seat, paid)
    # Counters left out (the usual slip) or one too many.
    for honba_count in range(moment.honba + 2):
        if honba_count != moment.honba and legal.is_legal(
            _at(moment, honba=honba_count), _changes_of(moment, winner, paid, ruleset), ruleset
        ):
            return RULE_HONBA, _honba_text(moment, honba_count, ruleset, len(paid) == 1)
    if len(paid) == 1:
        (amount,) = paid.values()
        below, above = legal.nearest_ron_values(amount - moment.honba * ruleset.honba_ron, dealer, ruleset)
        near = [
            format_points(value + moment.honba * ruleset.honba_ron)
            for value in (below, above)
            if value is not None
        ]
        text = _ron_payment_text(dealer, bool(moment.honba), len(near)).format(
            amount=format_points(amount, sign=True), honba=moment.honba, near=_(" or ").join(near)
        )
        return RULE_PAYMENT, text
    if len(paid) == 2:
        return RULE_LIABILITY, _(
            "{players} both pay {winner}: two players pay one ron only under liability for a yakuman, each "
            "half, the discarder adding the counters"
        ).format(players=sheet.names(sorted(paid)), winner=sheet.name(winner))
    amounts = ", ".join(f"{sheet.name(seat)} {format_points(value)}" for seat, value in sorted(paid.items()))
    return RULE_PAYMENT, _tsumo_payment_text(dealer, bool(moment.honba)).format(
        winner=sheet.name(winner), amounts=amounts, honba=moment.honba
    )


def _ron_payment_text(dealer: bool, honba: bool, near: int) -> str:
    """The message of an illegal ron payment, whole for each case so that translators see whole sentences."""
    if dealer and honba:
        if near:
            return _("{amount} is not a legal dealer ron payment with {honba} honba (the nearest are {near})")
        return _("{amount} is not a legal dealer ron payment with {honba} honba")
    if dealer:
        if near:
            return _("{amount} is not a legal dealer ron payment (the nearest are {near})")
        return _("{amount} is not a legal dealer ron payment")
    if honba:
        if near:
            return _(
                "{amount} is not a legal non-dealer ron payment with {honba} honba (the nearest are {near})"
            )
        return _("{amount} is not a legal non-dealer ron payment with {honba} honba")
    if near:
        return _("{amount} is not a legal non-dealer ron payment (the nearest are {near})")
    return _("{amount} is not a legal non-dealer ron payment")


def _tsumo_payment_text(dealer: bool, honba: bool) -> str:
    """The message of illegal self-draw payments, whole for each case."""
    if dealer and honba:
        return _("{winner}'s self-draw payments ({amounts}) are not a legal dealer tsumo with {honba} honba")
    if dealer:
        return _("{winner}'s self-draw payments ({amounts}) are not a legal dealer tsumo")
    if honba:
        return _(
            "{winner}'s self-draw payments ({amounts}) are not a legal non-dealer tsumo with {honba} honba"
        )
    return _("{winner}'s self-draw payments ({amounts}) are not a legal non-dealer tsumo")


def _at(moment: Moment, *, dealer: int | None = None, honba: int | None = None) -> Moment:
    return Moment(
        moment.dealer if dealer is None else dealer,
        moment.honba if honba is None else honba,
        moment.sticks,
        moment.riichi,
    )


def _changes_of(moment: Moment, winner: int, paid: dict[int, int], ruleset: Ruleset) -> list[int]:
    """The changes of a win paid ``paid``, rebuilt with the stakes and sticks of ``moment``."""
    changes = [-ruleset.riichi_stick if seat in moment.riichi else 0 for seat in range(4)]
    for seat, amount in paid.items():
        changes[seat] -= amount
        changes[winner] += amount
    changes[winner] += ruleset.riichi_stick * (moment.sticks + len(moment.riichi))
    return changes


def _dealer_text(sheet: Sheet, moment: Moment, winner: int, seat: int, paid: dict[int, int]) -> str:
    real = sheet.name(moment.dealer)
    if len(paid) != 3:
        amount = format_points(sum(paid.values()), sign=True)
        if winner == moment.dealer:
            text = _("{dealer} wins as the dealer of this hand, but {amount} is a non-dealer's ron payment")
        else:
            text = _("{amount} is a dealer's ron payment, but the dealer of this hand is {dealer}")
        return text.format(dealer=real, amount=amount)
    if winner == seat:
        text = _("{player} is paid as the dealer, but the dealer of this hand is {dealer}")
    else:
        text = _("the payments treat {player} as the dealer, but the dealer of this hand is {dealer}")
    return text.format(player=sheet.name(seat), dealer=real)


def _honba_text(moment: Moment, honba_count: int, ruleset: Ruleset, ron: bool) -> str:
    each = ruleset.honba_ron if ron else ruleset.honba_tsumo_each
    if ron:
        text = _(
            "the payments count {counted} honba, but {honba} lie on the table: the ron pays {each} per "
            "counter on top of the hand's value"
        )
    else:
        text = _(
            "the payments count {counted} honba, but {honba} lie on the table: each player pays {each} per "
            "counter on top of the hand's value"
        )
    return text.format(counted=honba_count, honba=moment.honba, each=format_points(each))
