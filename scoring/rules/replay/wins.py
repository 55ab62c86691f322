"""Wins: a ron or a tsumo read as its outcome, its value from han/fu, yakuman, the yaku entered or the
tiles (checked against each other), its payments with pao liability, and a multiple ron."""

from __future__ import annotations

from collections.abc import Mapping

from scoring.rules import legal
from scoring.rules.entry import Liable, MultipleRon, Win, WinValue, add_problems
from scoring.rules.hands import evaluate_hand
from scoring.rules.i18n import _
from scoring.rules.legal import ABORTIVE, MULTIPLE_RON, RON, TSUMO, HandOutcome, Moment
from scoring.rules.payments import YAKUMAN, basic_points, ron_value, tsumo_values, win_payments
from scoring.rules.replay.state import stakes
from scoring.rules.ruleset import ABORTIVE_DRAWS, TRIPLE_RON
from scoring.rules.sheet import (
    RULE_ABORTIVE,
    RULE_FORMAT,
    RULE_HAN_FU,
    RULE_HEAD_BUMP,
    RULE_LIABILITY,
    RULE_TILES,
    WIND_LETTERS,
    Error,
    HandState,
    Sheet,
    Value,
    as_changes,
    hand_error,
    unreadable,
)
from scoring.rules.yaku import RULE_YAKU_VALUE, WinYaku, read_win_yaku, tiles_yaku, yaku_name


def win_outcome(
    sheet: Sheet,
    number: int,
    hand: Win,
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> HandOutcome:
    tsumo, winner, loser = hand.tsumo, hand.winner, hand.loser
    if winner is None or (loser is None and not tsumo) or winner == loser:
        add_problems(errors, number, state, hand.players_problems)
        return unreadable()
    plain = hand.value.plain
    basic = None if plain is None else sheet.tables.bases.get((plain[0], plain[1], tsumo))
    if basic is None:
        basic = _win_value(sheet, number, hand.value, state, riichi, winner, tsumo, errors)
    liable = None
    if hand.liable is not None:
        liable = _liable(sheet, number, hand.liable, state, winner, loser, basic, errors)
    ruleset = sheet.ruleset
    changes = [0, 0, 0, 0]
    for seat in riichi:
        changes[seat] -= ruleset.riichi_stick
    dealer = state.round_index % 4
    if liable is not None:
        payments = win_payments(
            basic, dealer=winner == dealer, tsumo=tsumo, honba=state.honba, ruleset=ruleset, liable=True
        )
        _pay(changes, payments, winner, loser, liable, dealer)
    elif tsumo:
        from_dealer, from_other = tsumo_values(basic, winner == dealer)
        counters = state.honba * ruleset.honba_tsumo_each
        for seat in range(4):
            if seat != winner:
                amount = (from_dealer if seat == dealer else from_other) + counters
                changes[seat] -= amount
                changes[winner] += amount
    elif loser is not None:
        amount = ron_value(basic, winner == dealer) + state.honba * ruleset.honba_ron
        changes[loser] -= amount
        changes[winner] += amount
    changes[winner] += ruleset.riichi_stick * (state.sticks + len(riichi))
    return HandOutcome(TSUMO if tsumo else RON, (changes[0], changes[1], changes[2], changes[3]), (winner,))


def _pay(
    changes: list[int],
    payments: dict[str, int],
    winner: int,
    loser: int | None,
    liable: int | None,
    dealer: int,
) -> None:
    """Move ``payments`` (keys of ``win_payments``) from the payers to the winner."""
    for key, amount in payments.items():
        if key == "ron" or key == "ron_discarder":
            payers = [loser]
        elif key == "ron_liable" or key == "tsumo_liable":
            payers = [liable]
        elif key == "tsumo_dealer":
            payers = [dealer]
        elif key == "tsumo_non_dealer":
            payers = [seat for seat in range(4) if seat not in (winner, dealer)]
        else:
            payers = [seat for seat in range(4) if seat != winner]
        for payer in payers:
            if payer is not None:
                changes[payer] -= amount
                changes[winner] += amount


def _win_value(
    sheet: Sheet,
    number: int,
    win: WinValue,
    state: HandState,
    riichi: frozenset[int],
    winner: int,
    tsumo: bool,
    errors: list[Error],
    who: str | None = None,
) -> int:
    """The base value of a win from its han/fu/yakuman, or from its yaku (checked against its tiles when
    given), or 0 when the sheet does not give a readable value. ``who``: the winner's name, which begins
    each of the win's errors when the hand has several winners (a multiple ron)."""
    value = win.value
    entered = None
    if win.yaku is not None:
        entered = _entered_yaku(sheet, number, win.yaku, state, riichi, winner, tsumo, errors, who)
        if entered is None:
            return 0
        value = _yaku_value(sheet, number, win, state, entered, value, errors, who)
        if value is None:
            return 0
    if win.has_tiles:
        evaluated = _evaluate_tiles(sheet, number, win, state, riichi, winner, tsumo, value, errors, who)
        if evaluated is None:
            return 0
        if entered is not None:
            _compare_yaku(sheet, number, state, winner, entered, errors, who)
        if win.unwritten and entered is None:
            value = evaluated
    if value is None:
        text = _("a win needs han and fu as whole numbers, or a count of yakuman")
        errors.append(_win_error(who, number, state, RULE_FORMAT, text))
        return 0
    problem = None if value.yakuman else legal.han_fu_problem(value.han, value.fu, tsumo=tsumo)
    if problem:
        if value.fu is None:
            text = (
                _("{han} han is not a legal self-draw: {problem}")
                if tsumo
                else _("{han} han is not a legal ron: {problem}")
            )
        elif tsumo:
            text = _("{han} han {fu} fu is not a legal self-draw: {problem}")
        else:
            text = _("{han} han {fu} fu is not a legal ron: {problem}")
        text = text.format(han=value.han, fu=value.fu, problem=problem)
        errors.append(_win_error(who, number, state, RULE_HAN_FU, text))
    return value.basic(sheet.ruleset)


def _win_error(who: str | None, number: int, state: HandState, rule: str, text: str) -> Error:
    """An error of one win of hand ``number``; in a hand with several winners, the winner's name begins
    it ("hand 3 (East 2, 0 honba): Ben: ..."), so that each refusal says whose win it is about."""
    if who:
        text = _("{player}: {problem}").format(player=who, problem=text)
    return hand_error(number, state, rule, text)


def _entered_yaku(
    sheet: Sheet,
    number: int,
    entered: Mapping[str, object],
    state: HandState,
    riichi: frozenset[int],
    winner: int,
    tsumo: bool,
    errors: list[Error],
    who: str | None = None,
) -> WinYaku | None:
    """The win's yaku as entered (``scoring.rules.yaku``), kept for the record; None, with every problem
    as an error of the hand, when the rules refuse them."""
    found, problems = read_win_yaku(
        entered,
        tsumo=tsumo,
        dealer=winner == state.dealer,
        declared_riichi=winner in riichi,
        ruleset=sheet.ruleset,
        winner=sheet.name(winner),
    )
    for problem in problems:
        errors.append(_win_error(who, number, state, problem.rule, problem.message))
    if found is not None:
        sheet.yaku[(number, winner)] = found
    return found


def _yaku_value(
    sheet: Sheet,
    number: int,
    win: WinValue,
    state: HandState,
    entered: WinYaku,
    written: Value | None,
    errors: list[Error],
    who: str | None = None,
) -> Value | None:
    """The value the yaku give; where the sheet also writes han (or yakuman), both must agree."""
    if entered.yakuman:
        value = Value(0, None, entered.yakuman)
    elif entered.han is None:
        value = Value(5, None)  # Blessing of Man, the WRCR mangan (§6.5.4)
    else:
        value = Value(entered.han, entered.fu)
    if not win.written:
        return value
    if (
        written is not None
        and written.yakuman == value.yakuman
        and (value.yakuman or written.han == value.han)
    ):
        return value
    given = win.given
    counted = (
        _("a yakuman")
        if value.yakuman
        else _("{han} han").format(han=value.han)
        if value.han
        else _("a mangan")
    )
    text = _("the yaku and dora give {counted}, the sheet writes {given} (WRCR 2015 §6.1, §6.5)").format(
        counted=counted, given=given
    )
    errors.append(_win_error(who, number, state, RULE_YAKU_VALUE, text))
    return None


def _compare_yaku(
    sheet: Sheet,
    number: int,
    state: HandState,
    winner: int,
    entered: WinYaku,
    errors: list[Error],
    who: str | None = None,
) -> None:
    """A win entered with its yaku and its tiles: the tiles must give the same yaku."""
    found = sheet.yaku.get((number, winner))
    if found is None or found.source != "tiles" or set(found.yaku) == set(entered.yaku):
        return
    text = _("the tiles give the yaku {tiles}, the sheet {entered}").format(
        tiles=", ".join(yaku_name(item) for item in found.yaku),
        entered=", ".join(yaku_name(item) for item in entered.yaku),
    )
    errors.append(_win_error(who, number, state, RULE_TILES, text))


def _liable(
    sheet: Sheet,
    number: int,
    entered: Liable,
    state: HandState,
    winner: int,
    loser: int | None,
    basic: int,
    errors: list[Error],
) -> int | None:
    """The seat paying under liability (WRCR 2015 §6.2), or None."""
    if entered.problems:
        add_problems(errors, number, state, entered.problems)
    liable = entered.seat
    if liable is None:
        return None
    if not sheet.ruleset.liability:
        text = _("the {ruleset} rules have no liability payment").format(ruleset=sheet.ruleset.name)
        errors.append(hand_error(number, state, RULE_LIABILITY, text))
        return None
    if liable == winner:
        errors.append(
            hand_error(number, state, RULE_LIABILITY, _("the winner cannot be liable for their own hand"))
        )
        return None
    if basic < basic_points(0, 0, sheet.ruleset, 1):
        errors.append(
            hand_error(
                number,
                state,
                RULE_LIABILITY,
                _("liability applies only to Big Three Dragons and Big Four Winds, which are yakuman"),
            )
        )
        return None
    # The discarder who is also the liable player simply pays the whole ron.
    return None if liable == loser else liable


def _evaluate_tiles(
    sheet: Sheet,
    number: int,
    win: WinValue,
    state: HandState,
    riichi: frozenset[int],
    winner: int,
    tsumo: bool,
    claimed: Value | None,
    errors: list[Error],
    who: str | None = None,
) -> Value | None:
    """Score the hand's tiles with the hand evaluator and compare them with the claimed value.

    Returns the value the tiles give (5 han for a fixed mangan such as Blessing of Man under WRCR), or
    None when the tiles are not a winning hand."""
    tiles = win.tiles
    if tiles is None:
        problem = win.tiles_problem
        if problem is not None:
            errors.append(_win_error(who, number, state, problem.rule, problem.text))
        return None
    situation = dict(tiles.situation)
    situation["win"] = TSUMO if tsumo else RON
    situation["seat_wind"] = WIND_LETTERS[(winner - state.dealer) % 4]
    situation["round_wind"] = WIND_LETTERS[(state.round_index // 4) % 4]
    situation["honba"] = state.honba
    situation["riichi_sticks"] = state.sticks + len(riichi)
    # Flags that are no object (a list, a number) are left as written: the hand evaluator refuses them,
    # naming the field, as it refuses them in a hand given alone.
    if tiles.flags is not None:
        flags = dict(tiles.flags)
        if winner in riichi and not tiles.double_riichi:
            flags["riichi"] = True
        situation["flags"] = flags
    try:
        result = evaluate_hand(situation, sheet.ruleset)
    except ValueError as problem:
        text = _("the tiles do not describe a hand: {problem}").format(problem=problem)
        errors.append(_win_error(who, number, state, RULE_FORMAT, text))
        return None
    if not result.get("valid"):
        text = _("the tiles of {player} are not a winning hand ({reason})")
        if not result.get("reason"):
            text = _("the tiles of {player} are not a winning hand")
        text = text.format(player=sheet.name(winner), reason=result.get("reason"))
        errors.append(_win_error(who, number, state, RULE_TILES, text))
        return None
    basic = int(result.get("basic_points") or 0)
    # A yakuman has no han; 13 han or more named a yakuman (counted yakuman, where the ruleset has them)
    # stay a value of han and fu, as the sheet writes them.
    if result.get("limit") == "yakuman" and result.get("han") is None:
        evaluated, text = Value(0, None, max(1, basic // YAKUMAN)), _("a yakuman")
    elif result.get("han") is None:
        evaluated, text = Value(5, None), str(result.get("limit") or _("a limit hand"))
    else:
        evaluated, text = (
            Value(int(result["han"]), int(result["fu"])),
            _("{han} han {fu} fu").format(han=result["han"], fu=result["fu"]),
        )
    sheet.yaku[(number, winner)] = tiles_yaku(result, is_open=tiles.is_open, yakuman=evaluated.yakuman)
    if claimed is not None and claimed.basic(sheet.ruleset) != basic:
        yaku = ", ".join(str(name) for name, _han in result.get("yaku", []))
        text = _("the tiles score {value} ({yaku}), not the value on the sheet").format(value=text, yaku=yaku)
        errors.append(_win_error(who, number, state, RULE_TILES, text))
    return evaluated


def multiple_ron_outcome(
    sheet: Sheet,
    number: int,
    hand: MultipleRon,
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> HandOutcome:
    """Several winners on one discard:
    ``{"result": "ron", "loser": ..., "wins": [{"winner": ..., "han": ..., "fu": ...}, ...]}``."""
    if hand.problems:
        add_problems(errors, number, state, hand.problems)
    loser = hand.loser
    if loser is None or hand.wins is None:
        return unreadable()
    values: dict[int, int] = {}
    for win in hand.wins:
        if win.problems:
            add_problems(errors, number, state, win.problems)
        if win.winner is None or win.value is None:
            continue
        values[win.winner] = _win_value(
            sheet, number, win.value, state, riichi, win.winner, False, errors, win.who
        )
    if not values:
        return unreadable()
    if len(values) == 3 and sheet.ruleset.multiple_ron and sheet.ruleset.allows_abortive(TRIPLE_RON):
        errors.append(
            hand_error(
                number,
                state,
                RULE_ABORTIVE,
                _(
                    "{players} won on the same discard; under {ruleset} three players calling ron is an "
                    'abortive draw (sanchahou): enter the hand as an abortive draw, "{kind}"'
                ).format(
                    players=sheet.names(sorted(values)),
                    ruleset=sheet.ruleset.name,
                    kind=_(ABORTIVE_DRAWS[TRIPLE_RON]),
                ),
            )
        )
        return HandOutcome(ABORTIVE, as_changes(stakes(sheet, riichi)), value=TRIPLE_RON)
    if len(values) > 1 and not sheet.ruleset.multiple_ron:
        taker = legal.stick_taker(loser, values)
        errors.append(
            hand_error(
                number,
                state,
                RULE_HEAD_BUMP,
                _(
                    "{players} won on the same discard, but under {ruleset} only the player closest to the "
                    "discarder in turn order wins: {taker} (head bump)"
                ).format(
                    players=sheet.names(sorted(values)), ruleset=sheet.ruleset.name, taker=sheet.name(taker)
                ),
            )
        )
        values = {taker: values[taker]}
    ron_values = {winner: ron_value(basic, winner == state.dealer) for winner, basic in values.items()}
    moment = Moment(state.dealer, state.honba, state.sticks, riichi)
    changes = legal.multiple_ron_changes(moment, loser, ron_values, sheet.ruleset)
    winners = tuple(sorted(values, key=lambda seat: (seat - loser) % 4))
    return HandOutcome(MULTIPLE_RON if len(winners) > 1 else RON, as_changes(changes), winners=winners)
