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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, TypeGuard

from scoring.rules import legal
from scoring.rules.legal import CHOMBO, DRAW, MULTIPLE_RON, RON, TSUMO, HandOutcome, Moment
from scoring.rules.payments import YAKUMAN, basic_points, format_points, ron_value, tsumo_values, win_payments
from scoring.rules.ruleset import DEFAULT_RULESET, Ruleset, get_ruleset
from scoring.rules.scores import check_final_points, format_score, table_scores

Error = dict[str, Any]

ROUND_WINDS = ("East", "South", "West", "North")
WIND_LETTERS = ("E", "S", "W", "N")
# WRCR 2015 §5.8: East 1 to South 4, then the game ends (no West round, no agari yame §5.9.1).
END_ROUND_INDEX = 8
UNREADABLE = "unreadable"
_NOBODY: frozenset[int] = frozenset()
ROUND_LABELS = tuple(f"{wind} {number}" for wind in ROUND_WINDS for number in range(1, 5))

RULE_FORMAT = "sheet-format"
RULE_PLAYER = "unknown-player"
RULE_RULESET = "ruleset"
RULE_HAN_FU = "han-fu (WRCR 2015 §6.1, §6.3)"
RULE_PAYMENT = "payment (WRCR 2015 §6.1)"
RULE_ZERO_SUM = "zero-sum (WRCR 2015 §6.1)"
RULE_DEALER = "dealer-rotation (WRCR 2015 §5.7.8)"
RULE_HONBA = "honba (WRCR 2015 §5.7.7)"
RULE_STICKS = "riichi-sticks (WRCR 2015 §5.7.4, §6.1)"
RULE_NOTEN = "noten-payments (WRCR 2015 §5.7.2)"
RULE_NOTEN_RIICHI = "noten-riichi (WRCR 2015 §7.2)"
RULE_HEAD_BUMP = "head-bump (WRCR 2015 §5.7.6)"
RULE_LIABILITY = "liability (WRCR 2015 §6.2)"
RULE_CHOMBO = "chombo (WRCR 2015 §7.1)"
RULE_AFTER_END = "hand-after-end (WRCR 2015 §5.8)"
RULE_NOT_FINISHED = "hanchan-not-finished (WRCR 2015 §5.8, §8.2)"
RULE_FINAL_POINTS = "final-points (WRCR 2015 §5.9)"
RULE_STICKS_LEFT = "riichi-sticks-left (WRCR 2015 §5.9)"
RULE_MULTIPLE = "points-multiple (WRCR 2015 §6.1)"
RULE_TILES = "hand-tiles (WRCR 2015 §6.1)"


class HandState(NamedTuple):
    """The table before a hand: ``round_index`` 0 is East 1, 7 is South 4, 8 is past the end.

    Immutable like the frozen dataclasses elsewhere; a NamedTuple because the replay makes one per hand
    and a frozen dataclass takes several times longer to build."""

    round_index: int
    honba: int
    sticks: int
    points: tuple[int, int, int, int]

    @property
    def dealer(self) -> int:
        return self.round_index % 4

    @property
    def finished(self) -> bool:
        return self.round_index >= END_ROUND_INDEX

    def label(self) -> str:
        """East 1 to South 4; hands after the end are labelled on as West 1 and so on."""
        return ROUND_LABELS[self.round_index % 16]


def next_state(state: HandState, outcome: HandOutcome, declarers: int) -> HandState:
    """The table after ``outcome`` (WRCR 2015 §5.7.4, §5.7.7, §5.7.8, §7.1)."""
    points = (
        state.points[0] + outcome.changes[0],
        state.points[1] + outcome.changes[1],
        state.points[2] + outcome.changes[2],
        state.points[3] + outcome.changes[3],
    )
    kind = outcome.kind
    if kind in (CHOMBO, UNREADABLE):
        # §7.1: a chombo is re-dealt: riichi stakes returned, no counter, no rotation.
        return HandState(state.round_index, state.honba, state.sticks, points)
    if kind == DRAW:
        # §5.7.2, §5.7.4, §5.7.8: a counter is added, the sticks wait, the dealer stays if tenpai.
        rotation = 0 if state.round_index % 4 in outcome.tenpai else 1
        return HandState(state.round_index + rotation, state.honba + 1, state.sticks + declarers, points)
    if state.round_index % 4 in outcome.winners:
        return HandState(state.round_index, state.honba + 1, 0, points)
    return HandState(state.round_index + 1, 0, 0, points)


class _Sheet(NamedTuple):
    """What the replay needs of a sheet besides its hands."""

    players: tuple[str, str, str, str]
    seats: dict[str, int]
    ruleset: Ruleset
    tables: legal.PaymentTables

    def name(self, seat: int) -> str:
        return self.players[seat]

    def names(self, seats: Sequence[int]) -> str:
        return _join([self.players[seat] for seat in seats])


class _Node(NamedTuple):
    """One step of a replay path; paths share their beginnings."""

    state: HandState
    parent: _Node | None
    before: HandState | None
    outcome: HandOutcome | None
    riichi: frozenset[int]
    errors: tuple[Error, ...]
    error_count: int


def _join(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _prefix(number: int, state: HandState) -> str:
    return f"hand {number} ({state.label()}, {state.honba} honba)"


def _error(number: int, state: HandState, rule: str, text: str) -> Error:
    return {"hand": number, "rule": rule, "message": f"{_prefix(number, state)}: {text}"}


def _sheet_error(rule: str, message: str) -> Error:
    return {"hand": None, "rule": rule, "message": message}


def _is_int(value: object) -> TypeGuard[int]:
    return type(value) is int


# ---------------------------------------------------------------------------------------------------
# Entry point


def replay(sheet: Mapping[str, Any], ruleset: Ruleset | None = None) -> dict[str, Any]:
    """Replay one hanchan score sheet; ``ruleset`` overrides the sheet's own ``ruleset`` field.

    Returns ``valid``, ``errors`` and, as far as the sheet could be read, ``hands`` (round, dealer,
    honba, sticks before the hand, result, deltas, points after), ``final_points``, ``riichi_sticks_left``,
    ``finished``, ``ranks``, ``uma``, ``scores`` (exact decimal strings) and ``chombo`` penalties.
    """
    parsed, errors = _read_sheet(sheet, ruleset)
    if parsed is None:
        return {"valid": False, "errors": errors}
    hands = sheet.get("hands")
    if not isinstance(hands, list):
        return {
            "valid": False,
            "errors": [*errors, _sheet_error(RULE_FORMAT, "the sheet needs a list of hands")],
        }
    start = parsed.ruleset.starting_points
    root = _Node(HandState(0, 0, 0, (start, start, start, start)), None, None, None, frozenset(), (), 0)
    paths = [root]
    for number, hand in enumerate(hands, 1):
        paths = _step(parsed, number, hand, paths)
    node = _choose(paths, sheet)
    return _result(parsed, sheet, node, errors)


def _read_sheet(sheet: Mapping[str, Any], ruleset: Ruleset | None) -> tuple[_Sheet | None, list[Error]]:
    if not isinstance(sheet, Mapping):
        return None, [_sheet_error(RULE_FORMAT, "a sheet is a JSON object")]
    players = sheet.get("players")
    if (
        not isinstance(players, list)
        or len(players) != 4
        or not all(isinstance(player, str) and player for player in players)
        or len(set(players)) != 4
    ):
        return None, [_sheet_error(RULE_FORMAT, "a sheet names 4 different players in starting seat order")]
    if ruleset is None:
        try:
            ruleset = _sheet_ruleset(sheet.get("ruleset", DEFAULT_RULESET))
        except (TypeError, ValueError) as problem:
            return None, [_sheet_error(RULE_RULESET, str(problem))]
    seats = {player: seat for seat, player in enumerate(players)}
    names = (players[0], players[1], players[2], players[3])
    return _Sheet(names, seats, ruleset, legal.payment_tables(ruleset)), []


def _sheet_ruleset(value: object) -> Ruleset:
    if isinstance(value, str):
        return get_ruleset(value)
    if isinstance(value, dict):
        return Ruleset.from_dict(value)
    raise ValueError("the ruleset is a preset name or a ruleset object")


def _step(sheet: _Sheet, number: int, hand: object, paths: list[_Node]) -> list[_Node]:
    """Every path extended by every reading of ``hand``; one path per resulting game state."""
    if len(paths) == 1:
        node = paths[0]
        state = node.state
        if state.round_index < END_ROUND_INDEX:
            results = _hand_outcomes(sheet, number, hand, state)
            if len(results) == 1:
                outcome, errors, riichi = results[0]
                after = next_state(state, outcome, len(riichi))
                return [
                    _Node(after, node, state, outcome, riichi, tuple(errors), node.error_count + len(errors))
                ]
    extended: dict[tuple[int, int, int], _Node] = {}
    for node in paths:
        state = node.state
        end_errors: tuple[Error, ...] = ()
        if state.finished and (node.before is None or not node.before.finished):
            end_errors = (_after_end_error(sheet, number, state),)
        for outcome, errors, riichi in _hand_outcomes(sheet, number, hand, state):
            after = next_state(state, outcome, len(riichi))
            all_errors = (*end_errors, *errors) if errors or end_errors else ()
            count = node.error_count + len(all_errors)
            key = (after.round_index, after.honba, after.sticks)
            known = extended.get(key)
            if known is None or count < known.error_count:
                extended[key] = _Node(after, node, state, outcome, riichi, all_errors, count)
    return list(extended.values())


def _after_end_error(sheet: _Sheet, number: int, state: HandState) -> Error:
    last_dealer = sheet.name(3)
    return _error(
        number,
        state,
        RULE_AFTER_END,
        f"the hanchan ended with the previous hand (South 4 passed the deal from {last_dealer}); "
        "no hand is played after the end (WRCR 2015 §5.8, no agari yame §5.9.1)",
    )


def _choose(paths: list[_Node], sheet: Mapping[str, Any]) -> _Node:
    """The path with the fewest errors, preferring one whose end agrees with the sheet."""
    by_time = sheet.get("ended_by_time") is True

    def cost(node: _Node) -> tuple[int, int]:
        return node.error_count, 0 if node.state.finished or by_time else 1

    return min(paths, key=cost)


# ---------------------------------------------------------------------------------------------------
# One hand


def _hand_outcomes(
    sheet: _Sheet, number: int, hand: object, state: HandState
) -> list[tuple[HandOutcome, list[Error], frozenset[int]]]:
    if not isinstance(hand, dict):
        error = _error(number, state, RULE_FORMAT, "a hand is a JSON object")
        return [(_unreadable(), [error], frozenset())]
    riichi, errors = _seat_set(sheet, number, state, hand.get("riichi", []), "riichi")
    if "result" in hand:
        outcome = _outcome(sheet, number, hand, state, riichi, errors)
        if "deltas" in hand:
            _check_written_deltas(sheet, number, hand["deltas"], state, outcome, errors)
        return [(outcome, errors, riichi)]
    if "deltas" in hand:
        return _deltas_outcomes(sheet, number, hand, state, riichi, errors)
    errors.append(_error(number, state, RULE_FORMAT, "a hand needs a result or the four deltas"))
    return [(_unreadable(), errors, riichi)]


def _unreadable() -> HandOutcome:
    return HandOutcome(UNREADABLE, (0, 0, 0, 0))


def _seat_of(sheet: _Sheet, name: object) -> int | None:
    """The seat of a player named on the sheet; None for anything that is not a name at this table."""
    return sheet.seats.get(name) if isinstance(name, str) else None


def _seat(
    sheet: _Sheet, number: int, state: HandState, name: object, role: str, errors: list[Error]
) -> int | None:
    seat = _seat_of(sheet, name)
    if seat is None:
        if name is None:
            errors.append(_error(number, state, RULE_FORMAT, f"the {role} is missing"))
        else:
            errors.append(
                _error(number, state, RULE_PLAYER, f"the {role} {name!r} is not a player of this table")
            )
    return seat


def _seat_set(
    sheet: _Sheet, number: int, state: HandState, names: object, role: str
) -> tuple[frozenset[int], list[Error]]:
    errors: list[Error] = []
    if not names:
        return _NOBODY, errors
    if isinstance(names, list):
        try:
            return frozenset([sheet.seats[name] for name in names]), errors
        except (KeyError, TypeError):
            pass
    if not isinstance(names, list):
        errors.append(_error(number, state, RULE_FORMAT, f"{role} is a list of players"))
        return frozenset(), errors
    seats = [_seat(sheet, number, state, name, f"{role} player", errors) for name in names]
    return frozenset(seat for seat in seats if seat is not None), errors


def _stakes(sheet: _Sheet, riichi: frozenset[int]) -> list[int]:
    stick = sheet.ruleset.riichi_stick
    return [-stick if seat in riichi else 0 for seat in range(4)]


def _as_changes(values: Sequence[int]) -> tuple[int, int, int, int]:
    return values[0], values[1], values[2], values[3]


def _outcome(
    sheet: _Sheet,
    number: int,
    hand: dict[str, Any],
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> HandOutcome:
    result = hand["result"]
    if result == RON:
        if "wins" in hand:
            return _multiple_ron(sheet, number, hand, state, riichi, errors)
        return _win(sheet, number, hand, state, riichi, errors, tsumo=False)
    if result == TSUMO:
        return _win(sheet, number, hand, state, riichi, errors, tsumo=True)
    if result == DRAW:
        return _draw(sheet, number, hand, state, riichi, errors)
    if result == CHOMBO:
        offenders = hand.get("offender", hand.get("offenders"))
        return _chombo(sheet, number, offenders, state, errors)
    errors.append(
        _error(number, state, RULE_FORMAT, f"unknown result {result!r} (ron, tsumo, draw or chombo)")
    )
    return _unreadable()


def _win(
    sheet: _Sheet,
    number: int,
    hand: dict[str, Any],
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
    *,
    tsumo: bool,
) -> HandOutcome:
    winner = _seat_of(sheet, hand.get("winner"))
    loser = None if tsumo else _seat_of(sheet, hand.get("loser"))
    if winner is None or (loser is None and not tsumo) or winner == loser:
        return _bad_win(sheet, number, hand, state, tsumo, errors)
    basic = _known_value(sheet, hand, tsumo)
    if basic is None:
        basic = _win_value(sheet, number, hand, state, riichi, winner, tsumo, errors)
    liable = _liable(sheet, number, hand, state, winner, loser, basic, errors) if "liable" in hand else None
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


def _bad_win(
    sheet: _Sheet, number: int, hand: dict[str, Any], state: HandState, tsumo: bool, errors: list[Error]
) -> HandOutcome:
    """The errors of a win whose winner or discarder is missing or unknown."""
    winner = _seat(sheet, number, state, hand.get("winner"), "winner", errors)
    loser = None if tsumo else _seat(sheet, number, state, hand.get("loser"), "discarder (loser)", errors)
    if winner is not None and winner == loser:
        text = f"{sheet.name(winner)} cannot win on his own discard"
        errors.append(_error(number, state, RULE_FORMAT, text))
    return _unreadable()


def _known_value(sheet: _Sheet, hand: dict[str, Any], tsumo: bool) -> int | None:
    """The base value of a plain legal han/fu, from the ruleset's tables; None for anything else
    (tiles, yakuman, illegal or unreadable values), which ``_win_value`` checks and reports."""
    han, fu = hand.get("han"), hand.get("fu")
    if (
        type(han) is not int
        or "tiles" in hand
        or "yakuman" in hand
        or (fu is not None and type(fu) is not int)
    ):
        return None
    return sheet.tables.bases.get((han, fu, tsumo))


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


class _Value(NamedTuple):
    """A win's value as the sheet (or the tiles) give it: han and fu, or a count of yakuman."""

    han: int
    fu: int | None
    yakuman: int = 0

    def basic(self, ruleset: Ruleset) -> int:
        """The base value, or 0 when han/fu are too broken to give one."""
        if self.yakuman:
            return basic_points(0, 0, ruleset, self.yakuman)
        if self.han < 1 or (self.han < 5 and (self.fu is None or self.fu < 20)):
            return 0
        return basic_points(self.han, self.fu or 0, ruleset)


def _read_value(hand: dict[str, Any]) -> _Value | None:
    han, fu, yakuman = hand.get("han"), hand.get("fu"), hand.get("yakuman", 0)
    if not _is_int(yakuman) or yakuman < 0:
        return None
    if yakuman:
        return _Value(0, None, yakuman)
    if not _is_int(han) or not (fu is None or _is_int(fu)):
        return None
    return _Value(han, fu)


def _win_value(
    sheet: _Sheet,
    number: int,
    hand: dict[str, Any],
    state: HandState,
    riichi: frozenset[int],
    winner: int,
    tsumo: bool,
    errors: list[Error],
) -> int:
    """The base value of a win from its han/fu/yakuman (checked against its tiles when given), or 0
    when the sheet does not give a readable value."""
    value = _read_value(hand)
    if "tiles" in hand:
        evaluated = _evaluate_tiles(sheet, number, hand, state, riichi, winner, tsumo, value, errors)
        if evaluated is None:
            return 0
        if hand.get("han") is None and not hand.get("yakuman"):
            value = evaluated
    if value is None:
        errors.append(
            _error(number, state, RULE_FORMAT, "a win needs whole numbers han and fu, or a count of yakuman")
        )
        return 0
    problem = None if value.yakuman else legal.han_fu_problem(value.han, value.fu, tsumo=tsumo)
    if problem:
        kind = "self-draw" if tsumo else "ron"
        fu_text = f" {value.fu} fu" if value.fu is not None else ""
        errors.append(
            _error(number, state, RULE_HAN_FU, f"{value.han} han{fu_text} is not a legal {kind}: {problem}")
        )
    return value.basic(sheet.ruleset)


def _liable(
    sheet: _Sheet,
    number: int,
    hand: dict[str, Any],
    state: HandState,
    winner: int,
    loser: int | None,
    basic: int,
    errors: list[Error],
) -> int | None:
    """The seat paying under liability (WRCR 2015 §6.2), or None."""
    if hand.get("liable") is None:
        return None
    liable = _seat(sheet, number, state, hand["liable"], "liable player", errors)
    if liable is None:
        return None
    if not sheet.ruleset.liability:
        errors.append(
            _error(number, state, RULE_LIABILITY, f"the {sheet.ruleset.name} rules have no liability payment")
        )
        return None
    if liable == winner:
        errors.append(_error(number, state, RULE_LIABILITY, "the winner cannot be liable for his own hand"))
        return None
    if basic < basic_points(0, 0, sheet.ruleset, 1):
        errors.append(
            _error(
                number,
                state,
                RULE_LIABILITY,
                "liability applies only to Big Three Dragons and Big Four Winds, which are yakuman",
            )
        )
        return None
    # The discarder who is also the liable player simply pays the whole ron.
    return None if liable == loser else liable


def _evaluate_tiles(
    sheet: _Sheet,
    number: int,
    hand: dict[str, Any],
    state: HandState,
    riichi: frozenset[int],
    winner: int,
    tsumo: bool,
    claimed: _Value | None,
    errors: list[Error],
) -> _Value | None:
    """Score the hand's tiles with the hand evaluator and compare them with the claimed value.

    Returns the value the tiles give (5 han for a fixed mangan such as Blessing of Man under WRCR), or
    None when the tiles are not a winning hand."""
    from scoring.rules.hands import evaluate_hand

    tiles = hand["tiles"]
    if not isinstance(tiles, dict):
        errors.append(_error(number, state, RULE_FORMAT, "tiles is a hand object"))
        return None
    situation = dict(tiles)
    situation["win"] = TSUMO if tsumo else RON
    situation["seat_wind"] = WIND_LETTERS[(winner - state.dealer) % 4]
    situation["round_wind"] = WIND_LETTERS[(state.round_index // 4) % 4]
    situation["honba"] = state.honba
    situation["riichi_sticks"] = state.sticks + len(riichi)
    flags = dict(situation.get("flags") or {})
    if winner in riichi and not flags.get("double_riichi"):
        flags["riichi"] = True
    situation["flags"] = flags
    try:
        result = evaluate_hand(situation, sheet.ruleset)
    except ValueError as problem:
        errors.append(_error(number, state, RULE_FORMAT, f"the tiles do not describe a hand: {problem}"))
        return None
    if not result.get("valid"):
        reason = f" ({result['reason']})" if result.get("reason") else ""
        text = f"the tiles of {sheet.name(winner)} are not a winning hand{reason}"
        errors.append(_error(number, state, RULE_TILES, text))
        return None
    basic = int(result.get("basic_points") or 0)
    if result.get("limit") == "yakuman":
        evaluated, text = _Value(0, None, max(1, basic // YAKUMAN)), "a yakuman"
    elif result.get("han") is None:
        evaluated, text = _Value(5, None), str(result.get("limit") or "a limit hand")
    else:
        evaluated, text = (
            _Value(int(result["han"]), int(result["fu"])),
            f"{result['han']} han {result['fu']} fu",
        )
    if claimed is not None and claimed.basic(sheet.ruleset) != basic:
        yaku = ", ".join(str(name) for name, _ in result.get("yaku", []))
        errors.append(
            _error(number, state, RULE_TILES, f"the tiles score {text} ({yaku}), not the value on the sheet")
        )
    return evaluated


def _multiple_ron(
    sheet: _Sheet,
    number: int,
    hand: dict[str, Any],
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> HandOutcome:
    """Several winners on one discard:
    ``{"result": "ron", "loser": ..., "wins": [{"winner": ..., "han": ..., "fu": ...}, ...]}``."""
    loser = _seat(sheet, number, state, hand.get("loser"), "discarder (loser)", errors)
    wins = hand["wins"]
    if (
        loser is None
        or not isinstance(wins, list)
        or not wins
        or not all(isinstance(win, dict) for win in wins)
    ):
        if loser is not None:
            errors.append(_error(number, state, RULE_FORMAT, "wins is a list of {winner, han, fu} objects"))
        return _unreadable()
    values: dict[int, int] = {}
    for win in wins:
        winner = _seat(sheet, number, state, win.get("winner"), "winner", errors)
        if winner is None:
            continue
        if winner == loser or winner in values:
            errors.append(
                _error(
                    number, state, RULE_FORMAT, f"{sheet.name(winner)} cannot win twice or on his own discard"
                )
            )
            continue
        basic = _win_value(sheet, number, win, state, riichi, winner, False, errors)
        values[winner] = basic
    if not values:
        return _unreadable()
    if len(values) > 1 and not sheet.ruleset.multiple_ron:
        taker = legal.stick_taker(loser, values)
        errors.append(
            _error(
                number,
                state,
                RULE_HEAD_BUMP,
                f"{sheet.names(sorted(values))} won on the same discard, but under {sheet.ruleset.name} "
                "only the "
                f"player closest to the discarder in turn order wins: {sheet.name(taker)} (head bump)",
            )
        )
        values = {taker: values[taker]}
    ron_values = {winner: ron_value(basic, winner == state.dealer) for winner, basic in values.items()}
    moment = Moment(state.dealer, state.honba, state.sticks, riichi)
    changes = legal.multiple_ron_changes(moment, loser, ron_values, sheet.ruleset)
    winners = tuple(sorted(values, key=lambda seat: (seat - loser) % 4))
    return HandOutcome(MULTIPLE_RON if len(winners) > 1 else RON, _as_changes(changes), winners=winners)


def _draw(
    sheet: _Sheet,
    number: int,
    hand: dict[str, Any],
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> HandOutcome:
    tenpai, more = _seat_set(sheet, number, state, hand.get("tenpai", []), "tenpai")
    errors.extend(more)
    noten_riichi = sorted(riichi - tenpai)
    if noten_riichi and sheet.ruleset.noten_riichi_chombo:
        errors.append(_noten_riichi_error(sheet, number, state, noten_riichi))
    payments = legal.noten_payments(tenpai, sheet.ruleset)
    changes = [stake + payment for stake, payment in zip(_stakes(sheet, riichi), payments, strict=True)]
    return HandOutcome(DRAW, _as_changes(changes), tenpai=tuple(sorted(tenpai)))


def _noten_riichi_error(sheet: _Sheet, number: int, state: HandState, seats: Sequence[int]) -> Error:
    return _error(number, state, RULE_NOTEN_RIICHI, _noten_riichi_text(sheet, seats))


def _noten_riichi_text(sheet: _Sheet, seats: Sequence[int]) -> str:
    return (
        f"{sheet.names(seats)} declared riichi but {'is' if len(seats) == 1 else 'are'} noten at the "
        f"exhaustive draw: that is a chombo ({sheet.ruleset.chombo_penalty} points, no noten payments, "
        "riichi stakes returned, the hand is re-dealt; WRCR 2015 §7.1), to be entered as "
        '{"result": "chombo", "offender": ...}'
    )


def _chombo(sheet: _Sheet, number: int, names: object, state: HandState, errors: list[Error]) -> HandOutcome:
    """WRCR 2015 §7.1: no payment (unless the ruleset has a table payment), stakes returned."""
    offenders, more = _seat_set(
        sheet, number, state, [names] if isinstance(names, str) else names, "offender"
    )
    errors.extend(more)
    if not offenders and not more:
        errors.append(_error(number, state, RULE_CHOMBO, "a chombo names its offender"))
    changes = [0, 0, 0, 0]
    for offender in sorted(offenders):
        for seat, amount in enumerate(legal.chombo_payments(offender, state.dealer, sheet.ruleset)):
            changes[seat] += amount
    return HandOutcome(CHOMBO, _as_changes(changes), offenders=tuple(sorted(offenders)))


# ---------------------------------------------------------------------------------------------------
# Deltas


def _read_deltas(
    sheet: _Sheet, number: int, deltas: object, state: HandState, errors: list[Error]
) -> tuple[int, int, int, int] | None:
    if isinstance(deltas, dict) and len(deltas) == 4:
        east, south, west, north = sheet.players
        a, b, c, d = deltas.get(east), deltas.get(south), deltas.get(west), deltas.get(north)
        if (
            type(a) is int
            and type(b) is int
            and type(c) is int
            and type(d) is int
            and not (a % 100 or b % 100 or c % 100 or d % 100)
        ):
            return a, b, c, d
    return _read_bad_deltas(sheet, number, deltas, state, errors)


def _read_bad_deltas(
    sheet: _Sheet, number: int, deltas: object, state: HandState, errors: list[Error]
) -> tuple[int, int, int, int] | None:
    """The errors of deltas that are not four multiples of 100; the deltas when they can still be used."""
    if not isinstance(deltas, dict) or set(deltas) != set(sheet.players):
        unknown = sorted(set(deltas) - set(sheet.players)) if isinstance(deltas, dict) else []
        text = f"unknown player(s) {', '.join(map(repr, unknown))} in deltas" if unknown else ""
        rule = RULE_PLAYER if unknown else RULE_FORMAT
        errors.append(_error(number, state, rule, text or "deltas give the change of each of the 4 players"))
        return None
    values = [deltas[player] for player in sheet.players]
    if not all(_is_int(value) for value in values):
        errors.append(_error(number, state, RULE_FORMAT, "deltas are whole numbers of points"))
        return None
    odd = [player for player, value in zip(sheet.players, values, strict=True) if value % 100]
    errors.append(
        _error(number, state, RULE_MULTIPLE, f"the change of {_join(odd)} is not a multiple of 100")
    )
    return _as_changes(values)


def _check_written_deltas(
    sheet: _Sheet, number: int, deltas: object, state: HandState, outcome: HandOutcome, errors: list[Error]
) -> None:
    """An outcome that also gives the deltas written on the sheet: both must agree."""
    written = _read_deltas(sheet, number, deltas, state, errors)
    if written is not None and outcome.kind != UNREADABLE and written != outcome.changes:
        errors.append(
            _error(
                number,
                state,
                RULE_PAYMENT,
                f"the sheet writes {_changes_text(sheet, written)} but this {outcome.kind} gives "
                f"{_changes_text(sheet, outcome.changes)}",
            )
        )


def _changes_text(sheet: _Sheet, changes: Sequence[int]) -> str:
    return ", ".join(
        f"{player} {format_points(change, sign=True)}"
        for player, change in zip(sheet.players, changes, strict=True)
    )


def _deltas_outcomes(
    sheet: _Sheet,
    number: int,
    hand: dict[str, Any],
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> list[tuple[HandOutcome, list[Error], frozenset[int]]]:
    """Each reading of a deltas hand with its errors (``errors``: those found so far in the hand) and its
    riichi declarers."""
    changes = _read_deltas(sheet, number, hand["deltas"], state, errors)
    if changes is None:
        return [(_unreadable(), errors, riichi)]
    if "chombo" in hand:
        outcome = _chombo(sheet, number, hand["chombo"], state, errors)
        if outcome.changes != changes:
            errors.append(_error(number, state, RULE_CHOMBO, _chombo_mismatch(sheet, outcome, changes)))
        return [(HandOutcome(CHOMBO, changes, offenders=outcome.offenders), errors, riichi)]
    moment = Moment(state.round_index % 4, state.honba, state.sticks, riichi)
    found = legal.readings(moment, changes, sheet.ruleset)
    if "tenpai" in hand:
        tenpai, more = _seat_set(sheet, number, state, hand["tenpai"], "tenpai")
        errors.extend(more)
        # Naming the tenpai players says the hand was an exhaustive draw.
        found = [reading for reading in found if reading.kind == DRAW and set(reading.tenpai) == tenpai]
    if not found:
        errors.append(_explain(sheet, number, state, moment, changes))
        return [(_fallback(moment, changes, sheet.ruleset), errors, riichi)]
    if len(found) == 1 and found[0].kind != CHOMBO:
        return [(found[0], errors, riichi)]
    outcomes: list[tuple[HandOutcome, list[Error], frozenset[int]]] = []
    for reading in found:
        more = list(errors)
        if reading.kind == CHOMBO:
            more.append(
                _error(
                    number,
                    state,
                    RULE_CHOMBO,
                    "no points changed although riichi was declared: that is a chombo re-deal; name the "
                    f'offender ("chombo": [...]) so the {sheet.ruleset.chombo_penalty} point penalty '
                    "is applied",
                )
            )
        outcomes.append((reading, more, riichi))
    return outcomes


def _chombo_mismatch(sheet: _Sheet, outcome: HandOutcome, changes: Sequence[int]) -> str:
    if sheet.ruleset.chombo_table_payment:
        return (
            f"a chombo here pays {_changes_text(sheet, outcome.changes)}, not {_changes_text(sheet, changes)}"
        )
    return (
        "a chombo changes no points at the table (riichi stakes are returned, the penalty comes off the "
        f"overall score), but the sheet writes {_changes_text(sheet, changes)}"
    )


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


def _explain(sheet: _Sheet, number: int, state: HandState, moment: Moment, changes: Sequence[int]) -> Error:
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
            (
                f"the changes {_changes_text(sheet, changes)} are not noten payments: at an exhaustive draw "
                f"the noten players pay {format_points(ruleset.noten_total)} in all, shared equally, to "
                "the tenpai players"
            ),
        )
    else:
        rule, text = (
            RULE_ZERO_SUM,
            (
                f"the changes {_changes_text(sheet, changes)} add up to "
                f"{format_points(sum(changes), sign=True)}; "
                "apart from riichi stakes and collected sticks the changes of a hand add up to zero"
            ),
        )
    return _error(number, state, rule, text)


def _multiple_ron_problem(
    sheet: _Sheet, gainers: Sequence[int], loser: int, changes: Sequence[int]
) -> tuple[str, str]:
    if not sheet.ruleset.multiple_ron:
        return RULE_HEAD_BUMP, (
            f"{sheet.names(gainers)} are paid by {sheet.name(loser)}, but under {sheet.ruleset.name} only "
            "one player wins on a discard: the closest to the discarder in turn order (head bump)"
        )
    return (
        RULE_PAYMENT,
        f"{_changes_text(sheet, changes)} is not a legal multiple ron: each winner gets a legal ron",
    )


def _sticks_text(sheet: _Sheet, moment: Moment, winner: int, collected: int, pot: int) -> str:
    parts = []
    if moment.sticks:
        parts.append(f"{moment.sticks} from earlier hands")
    if moment.riichi:
        parts.append(f"{len(moment.riichi)} declared in this hand")
    where = f" ({' and '.join(parts)})" if parts else ""
    return (
        f"{sheet.name(winner)} collects {format_points(collected)} in riichi sticks, but "
        f"{format_points(pot)} lie on the table{where}; the winner takes them all"
    )


def _win_problem(sheet: _Sheet, moment: Moment, winner: int, paid: dict[int, int]) -> tuple[str, str]:
    ruleset = sheet.ruleset
    dealer = winner == moment.dealer
    role = "dealer" if dealer else "non-dealer"
    honba = f" with {moment.honba} honba" if moment.honba else ""
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
        near = " or ".join(
            format_points(value + moment.honba * ruleset.honba_ron)
            for value in (below, above)
            if value is not None
        )
        text = f"{format_points(amount, sign=True)} is not a legal {role} ron payment{honba}"
        return RULE_PAYMENT, text + (f" (the nearest are {near})" if near else "")
    if len(paid) == 2:
        return RULE_LIABILITY, (
            f"{sheet.names(sorted(paid))} both pay {sheet.name(winner)}: two players pay one ron only under "
            "liability for a yakuman, each half, the discarder adding the counters"
        )
    amounts = ", ".join(f"{sheet.name(seat)} {format_points(value)}" for seat, value in sorted(paid.items()))
    return (
        RULE_PAYMENT,
        f"{sheet.name(winner)}'s self-draw payments ({amounts}) are not a legal {role} tsumo{honba}",
    )


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


def _dealer_text(sheet: _Sheet, moment: Moment, winner: int, seat: int, paid: dict[int, int]) -> str:
    real = sheet.name(moment.dealer)
    if len(paid) != 3:
        amount = format_points(sum(paid.values()), sign=True)
        if winner == moment.dealer:
            return f"{real} wins as the dealer of this hand, but {amount} is a non-dealer's ron payment"
        return f"{amount} is a dealer's ron payment, but the dealer of this hand is {real}"
    if winner == seat:
        return f"{sheet.name(winner)} is paid as the dealer, but the dealer of this hand is {real}"
    return f"the payments treat {sheet.name(seat)} as the dealer, but the dealer of this hand is {real}"


def _honba_text(moment: Moment, honba_count: int, ruleset: Ruleset, ron: bool) -> str:
    each = ruleset.honba_ron if ron else ruleset.honba_tsumo_each
    how = "the ron pays" if ron else "each player pays"
    return (
        f"the payments count {honba_count} honba, but {moment.honba} lie on the table: "
        f"{how} {format_points(each)} per counter on top of the hand's value"
    )


# ---------------------------------------------------------------------------------------------------
# Result


def _path(node: _Node) -> list[_Node]:
    nodes = []
    current: _Node | None = node
    while current is not None and current.outcome is not None:
        nodes.append(current)
        current = current.parent
    nodes.reverse()
    return nodes


def _result(sheet: _Sheet, raw: Mapping[str, Any], node: _Node, errors: list[Error]) -> dict[str, Any]:
    players = sheet.players
    hands: list[dict[str, Any]] = []
    chombo: list[dict[str, Any]] = []
    for number, step in enumerate(_path(node), 1):
        if step.errors:
            errors.extend(step.errors)
        hands.append(_hand_record(players, step))
        if step.outcome is not None and step.outcome.offenders:
            chombo.extend(
                {"player": players[seat], "hand": number, "points": -sheet.ruleset.chombo_penalty}
                for seat in step.outcome.offenders
            )
    state = _collect_sticks_left(node.state, sheet.ruleset)
    final = dict(zip(players, state.points, strict=True))
    errors.extend(_end_errors(sheet, raw, state, final))
    result: dict[str, Any] = {
        "valid": not errors,
        "ruleset": sheet.ruleset.name,
        "players": list(players),
        "hands": hands,
        "final_points": final,
        "riichi_sticks_left": state.sticks,
        "finished": state.finished,
    }
    if sum(state.points) == 4 * sheet.ruleset.starting_points - sheet.ruleset.riichi_stick * state.sticks:
        ranks, uma, scores = table_scores(final, sheet.ruleset)
        result["ranks"] = ranks
        result["uma"] = {player: format_score(value) for player, value in uma.items()}
        result["scores"] = {player: format_score(value) for player, value in scores.items()}
    result["chombo"] = chombo
    result["errors"] = errors
    return result


def _collect_sticks_left(state: HandState, ruleset: Ruleset) -> HandState:
    """The table at the end: sticks left stay on the table (WRCR 2015 §5.9), unless the ruleset gives
    them to the first-placed player (the earlier starting seat on a tie)."""
    if not ruleset.sticks_left_to_first or not state.sticks:
        return state
    first = max(range(4), key=lambda seat: (state.points[seat], -seat))
    points = list(state.points)
    points[first] += ruleset.riichi_stick * state.sticks
    return HandState(state.round_index, state.honba, 0, _as_changes(points))


def _hand_record(players: tuple[str, str, str, str], step: _Node) -> dict[str, Any]:
    before, outcome, points, riichi = step.before, step.outcome, step.state.points, step.riichi
    assert before is not None and outcome is not None
    east, south, west, north = players
    changes, kind = outcome.changes, outcome.kind
    record: dict[str, Any] = {
        "round": ROUND_LABELS[before.round_index % 16],
        "dealer": players[before.round_index % 4],
        "honba": before.honba,
        "sticks": before.sticks,
        "result": kind,
        "riichi": [players[seat] for seat in sorted(riichi)] if riichi else [],
        "deltas": {east: changes[0], south: changes[1], west: changes[2], north: changes[3]},
        "points": {east: points[0], south: points[1], west: points[2], north: points[3]},
    }
    winners = outcome.winners
    if winners:
        record["winners"] = (
            [players[winners[0]]] if len(winners) == 1 else [players[seat] for seat in winners]
        )
    elif kind == DRAW:
        record["tenpai"] = [players[seat] for seat in outcome.tenpai]
    elif outcome.offenders:
        record["offenders"] = [players[seat] for seat in outcome.offenders]
    return record


def _end_errors(
    sheet: _Sheet, raw: Mapping[str, Any], state: HandState, final: dict[str, int]
) -> list[Error]:
    errors: list[Error] = []
    ended_by_time = raw.get("ended_by_time")
    if ended_by_time is False and not state.finished:
        errors.append(
            _sheet_error(
                RULE_NOT_FINISHED,
                f"the sheet stops before the end of the hanchan ({state.label()}, {state.honba} honba is "
                "still to be played) but does not say the time limit ended it",
            )
        )
    sticks_left = raw.get("riichi_sticks_left")
    if sticks_left is not None and sticks_left != state.sticks:
        errors.append(
            _sheet_error(
                RULE_STICKS_LEFT,
                f"the sheet leaves {sticks_left} riichi sticks on the table, the hands leave {state.sticks}",
            )
        )
    written = raw.get("final_points")
    if written is None:
        return errors
    if written == final and sum(state.points) == sum(final.values()) and not errors:
        return check_final_points(written, state.sticks, sheet.ruleset)
    if not isinstance(written, dict):
        return [*errors, _sheet_error(RULE_FORMAT, "final_points maps each player to his points")]
    unknown = sorted(set(written) - set(final))
    if unknown:
        errors.append(
            _sheet_error(RULE_PLAYER, f"final points of unknown player(s) {', '.join(map(repr, unknown))}")
        )
    errors.extend(
        check_final_points(written, sticks_left if _is_int(sticks_left) else state.sticks, sheet.ruleset)
    )
    for player, points in final.items():
        if player in written and written[player] != points:
            shown = format_points(written[player]) if _is_int(written[player]) else repr(written[player])
            errors.append(
                _sheet_error(
                    RULE_FINAL_POINTS,
                    f"{player} ends with {format_points(points)} by the hands, the sheet says {shown}",
                )
            )
        elif player not in written:
            errors.append(_sheet_error(RULE_FINAL_POINTS, f"the final points of {player} are missing"))
    return errors
