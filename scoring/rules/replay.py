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
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple

from scoring.rules import legal
from scoring.rules.explain import (
    after_end_error,
    changes_text,
    chombo_mismatch,
    explain_change,
    noten_riichi_error,
)
from scoring.rules.hands import evaluate_hand
from scoring.rules.i18n import _, gettext_noop
from scoring.rules.legal import (
    ABORTIVE,
    CHOMBO,
    DRAW,
    MULTIPLE_RON,
    NAGASHI,
    RON,
    TSUMO,
    HandOutcome,
    Moment,
)
from scoring.rules.payments import YAKUMAN, basic_points, format_points, ron_value, tsumo_values, win_payments
from scoring.rules.ruleset import ABORTIVE_DRAWS, AGARI_YAME_ALWAYS, FOUR_RIICHI, TRIPLE_RON, Ruleset
from scoring.rules.scores import (
    RULE_RANGE,
    check_final_points,
    final_points_limit,
    format_score,
    hanchan_scores,
    table_scores,
)
from scoring.rules.sheet import (
    MAY_END,
    OVER,
    PLAYING,
    ROUND_LABELS,
    RULE_ABORTIVE,
    RULE_CHOMBO,
    RULE_FINAL_POINTS,
    RULE_FORMAT,
    RULE_HAN_FU,
    RULE_HEAD_BUMP,
    RULE_LIABILITY,
    RULE_NAGASHI,
    RULE_NOT_FINISHED,
    RULE_PAYMENT,
    RULE_PLAYER,
    RULE_STICKS_LEFT,
    RULE_TILES,
    UNREADABLE,
    WIND_LETTERS,
    Error,
    HandState,
    Sheet,
    Value,
    as_changes,
    extension_end,
    game_end,
    hand_error,
    is_int,
    player_seat,
    read_deltas,
    read_sheet,
    read_value,
    seat_of,
    seat_set,
    sheet_error,
    unreadable,
)
from scoring.rules.yaku import RULE_YAKU_VALUE, WinYaku, read_win_yaku, tiles_yaku, yaku_name

__all__ = ["Chombo", "Error", "HandRecord", "HandState", "Verdict", "check_final", "next_state", "replay"]


@dataclass(frozen=True, slots=True)
class Chombo:
    """A chombo penalty the sheet gives (WRCR 2015 §7.1): who, in which hand (None on a final-points
    sheet) and the points, negative."""

    player: str
    hand: int | None
    points: int

    def as_json(self) -> dict[str, Any]:
        return {"player": self.player, "hand": self.hand, "points": self.points}


class HandRecord(NamedTuple):
    """One hand as replayed: the table before it (round, dealer, honba, sticks), its result and riichi
    declarers, the four point changes and the points after it. ``winners``, ``tenpai`` or ``offenders``
    name who won, who was tenpai at a draw, or who made a chombo.

    Immutable; a NamedTuple rather than a frozen dataclass for the reason given at ``HandState``: the
    replay builds one per hand, and a frozen dataclass made the sheet benchmark a quarter slower."""

    round: str
    dealer: str
    honba: int
    sticks: int
    result: str
    riichi: tuple[str, ...]
    deltas: Mapping[str, int]
    points: Mapping[str, int]
    winners: tuple[str, ...] = ()
    tenpai: tuple[str, ...] | None = None
    offenders: tuple[str, ...] = ()
    # An abortive draw's kind (``ruleset.ABORTIVE_DRAWS``); a nagashi mangan's players.
    abortive: str = ""
    nagashi: tuple[str, ...] = ()
    yaku: Mapping[str, WinYaku] | None = None  # each winner's yaku, where they are known

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "round": self.round,
            "dealer": self.dealer,
            "honba": self.honba,
            "sticks": self.sticks,
            "result": self.result,
            "riichi": list(self.riichi),
            "deltas": dict(self.deltas),
            "points": dict(self.points),
        }
        if self.winners:
            data["winners"] = list(self.winners)
        elif self.tenpai is not None:
            data["tenpai"] = list(self.tenpai)
        elif self.offenders:
            data["offenders"] = list(self.offenders)
        if self.abortive:
            data["kind"] = self.abortive
        if self.nagashi:
            data["nagashi"] = list(self.nagashi)
        if self.yaku:
            data["yaku"] = {name: found.as_json() for name, found in self.yaku.items()}
        return data


@dataclass(frozen=True, slots=True)
class Verdict:
    """The rules engine's verdict on a sheet, exact: points are integers, uma and scores ``Decimal``.

    ``valid`` with ``errors`` empty, or not valid with every error found. What could be computed is set,
    the rest is None: an unreadable sheet has only its errors; ``ranks``, ``uma`` and ``scores`` need
    final points that are a possible end of a hanchan; ``ruleset``, ``players`` and ``hands`` come with a
    hand-by-hand sheet only. ``as_json`` is the one place where scores become text.
    """

    valid: bool
    errors: tuple[Error, ...] = ()
    ruleset: str | None = None
    players: tuple[str, ...] | None = None
    hands: tuple[HandRecord, ...] | None = None
    final_points: Mapping[str, int] | None = None
    riichi_sticks_left: int | None = None
    finished: bool | None = None
    ranks: Mapping[str, int] | None = None
    uma: Mapping[str, Decimal] | None = None
    scores: Mapping[str, Decimal] | None = None
    chombo: tuple[Chombo, ...] | None = None

    @classmethod
    def refused(cls, errors: Sequence[Error]) -> Verdict:
        """A sheet that could not be read far enough to replay: its errors only."""
        return cls(valid=False, errors=tuple(errors))

    def as_json(self) -> dict[str, Any]:
        """The verdict as JSON (stored with the sheet, answered by the check endpoints, read by the pages
        and the sheet editor): scores as exact decimal strings (``format_score``), errors and hands as
        objects. A valid final-points verdict has no ``errors`` key; every other verdict has one."""
        data: dict[str, Any] = {"valid": self.valid}
        if self.ruleset is not None:
            data["ruleset"] = self.ruleset
        if self.players is not None:
            data["players"] = list(self.players)
        if self.hands is not None:
            data["hands"] = [hand.as_json() for hand in self.hands]
        if self.final_points is not None:
            data["final_points"] = dict(self.final_points)
        if self.riichi_sticks_left is not None:
            data["riichi_sticks_left"] = self.riichi_sticks_left
        if self.finished is not None:
            data["finished"] = self.finished
        if self.ranks is not None and self.uma is not None and self.scores is not None:
            data["ranks"] = dict(self.ranks)
            data["uma"] = {player: format_score(value) for player, value in self.uma.items()}
            data["scores"] = {player: format_score(value) for player, value in self.scores.items()}
        if self.chombo is not None:
            data["chombo"] = [chombo.as_json() for chombo in self.chombo]
        if not self.valid or self.hands is not None:
            data["errors"] = [error.as_json() for error in self.errors]
        return data


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


class _Node(NamedTuple):
    """One step of a replay path; paths share their beginnings."""

    state: HandState
    parent: _Node | None
    before: HandState | None
    outcome: HandOutcome | None
    riichi: frozenset[int]
    errors: tuple[Error, ...]
    error_count: int


def replay(sheet: Mapping[str, Any], ruleset: Ruleset | None = None) -> Verdict:
    """Replay one hanchan score sheet; ``ruleset`` overrides the sheet's own ``ruleset`` field.

    Returns the ``Verdict``: ``valid``, ``errors`` and, as far as the sheet could be read, ``hands`` (round,
    dealer, honba, sticks before the hand, result, deltas, points after), ``final_points``,
    ``riichi_sticks_left``, ``finished``, ``ranks``, ``uma``, ``scores`` (exact ``Decimal``) and ``chombo``
    penalties.
    """
    parsed, errors = read_sheet(sheet, ruleset)
    if parsed is None:
        return Verdict.refused(errors)
    hands = sheet.get("hands")
    if not isinstance(hands, list):
        return Verdict.refused([*errors, sheet_error(RULE_FORMAT, _("the sheet needs a list of hands"))])
    start = parsed.ruleset.starting_points
    state = HandState(0, 0, 0, (start, start, start, start), last=game_end(parsed.ruleset))
    root = _Node(state, None, None, None, frozenset(), (), 0)
    paths = [root]
    for number, hand in enumerate(hands, 1):
        paths = _step(parsed, number, hand, paths)
    node = _choose(paths, sheet)
    return _result(parsed, sheet, node, errors)


def _step(sheet: Sheet, number: int, hand: object, paths: list[_Node]) -> list[_Node]:
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
                    _Node(after, node, state, outcome, riichi, tuple(errors), node.error_count + len(errors))
                ]
    extended: dict[tuple[int, int, int, int, int], _Node] = {}
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
                extended[key] = _Node(after, node, state, outcome, riichi, all_errors, count)
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


def _choose(paths: list[_Node], sheet: Mapping[str, Any]) -> _Node:
    """The path with the fewest errors, preferring one whose end agrees with the sheet."""
    by_time = sheet.get("ended_by_time") is True

    def cost(node: _Node) -> tuple[int, int]:
        return node.error_count, 0 if node.state.may_end or by_time else 1

    return min(paths, key=cost)


def _hand_outcomes(
    sheet: Sheet, number: int, hand: object, state: HandState
) -> list[tuple[HandOutcome, list[Error], frozenset[int]]]:
    if not isinstance(hand, dict):
        error = hand_error(number, state, RULE_FORMAT, _("a hand is a JSON object"))
        return [(unreadable(), [error], frozenset())]
    riichi, errors = seat_set(sheet, number, state, hand.get("riichi", []), "riichi")
    if "result" in hand:
        outcome = _outcome(sheet, number, hand, state, riichi, errors)
        if "deltas" in hand:
            _check_written_deltas(sheet, number, hand["deltas"], state, outcome, errors)
        return [(outcome, errors, riichi)]
    if "deltas" in hand:
        return _deltas_outcomes(sheet, number, hand, state, riichi, errors)
    errors.append(hand_error(number, state, RULE_FORMAT, _("a hand needs a result or the four deltas")))
    return [(unreadable(), errors, riichi)]


def _stakes(sheet: Sheet, riichi: frozenset[int]) -> list[int]:
    stick = sheet.ruleset.riichi_stick
    return [-stick if seat in riichi else 0 for seat in range(4)]


def _outcome(
    sheet: Sheet,
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
    if result == ABORTIVE:
        return _abortive(sheet, number, hand, state, riichi, errors)
    if result == NAGASHI:
        return _nagashi(sheet, number, hand, state, riichi, errors)
    text = _("unknown result {result} (ron, tsumo, draw, chombo, abortive or nagashi)").format(
        result=repr(result)
    )
    errors.append(hand_error(number, state, RULE_FORMAT, text))
    return unreadable()


def _win(
    sheet: Sheet,
    number: int,
    hand: dict[str, Any],
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
    *,
    tsumo: bool,
) -> HandOutcome:
    winner = seat_of(sheet, hand.get("winner"))
    loser = None if tsumo else seat_of(sheet, hand.get("loser"))
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
    sheet: Sheet, number: int, hand: dict[str, Any], state: HandState, tsumo: bool, errors: list[Error]
) -> HandOutcome:
    """The errors of a win whose winner or discarder is missing or unknown."""
    winner = player_seat(sheet, number, state, hand.get("winner"), _("winner"), errors)
    loser = (
        None
        if tsumo
        else player_seat(sheet, number, state, hand.get("loser"), _("discarder (loser)"), errors)
    )
    if winner is not None and winner == loser:
        text = _("{player} cannot win on their own discard").format(player=sheet.name(winner))
        errors.append(hand_error(number, state, RULE_FORMAT, text))
    return unreadable()


def _known_value(sheet: Sheet, hand: dict[str, Any], tsumo: bool) -> int | None:
    """The base value of a plain legal han/fu, from the ruleset's tables; None for anything else
    (tiles, yakuman, illegal or unreadable values), which ``_win_value`` checks and reports."""
    han, fu = hand.get("han"), hand.get("fu")
    if (
        type(han) is not int
        or "tiles" in hand
        or "yaku" in hand
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


def _win_value(
    sheet: Sheet,
    number: int,
    hand: dict[str, Any],
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
    value = read_value(hand)
    entered = (
        _entered_yaku(sheet, number, hand, state, riichi, winner, tsumo, errors, who)
        if "yaku" in hand
        else None
    )
    if "yaku" in hand:
        if entered is None:
            return 0
        value = _yaku_value(sheet, number, hand, state, entered, value, errors, who)
        if value is None:
            return 0
    if "tiles" in hand:
        evaluated = _evaluate_tiles(sheet, number, hand, state, riichi, winner, tsumo, value, errors, who)
        if evaluated is None:
            return 0
        if entered is not None:
            _compare_yaku(sheet, number, state, winner, entered, errors, who)
        if hand.get("han") is None and not hand.get("yakuman") and entered is None:
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
    hand: dict[str, Any],
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
        hand,
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
    hand: dict[str, Any],
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
    if "han" not in hand and "yakuman" not in hand:
        return value
    if (
        written is not None
        and written.yakuman == value.yakuman
        and (value.yakuman or written.han == value.han)
    ):
        return value
    given = (
        _("{count} yakuman").format(count=written.yakuman)
        if written is not None and written.yakuman
        else _("{han} han").format(han=hand.get("han"))
    )
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
    liable = player_seat(sheet, number, state, hand["liable"], _("liable player"), errors)
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
    hand: dict[str, Any],
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
    tiles = hand["tiles"]
    if not isinstance(tiles, dict):
        errors.append(_win_error(who, number, state, RULE_FORMAT, _("tiles is a hand object")))
        return None
    situation = dict(tiles)
    situation["win"] = TSUMO if tsumo else RON
    situation["seat_wind"] = WIND_LETTERS[(winner - state.dealer) % 4]
    situation["round_wind"] = WIND_LETTERS[(state.round_index // 4) % 4]
    situation["honba"] = state.honba
    situation["riichi_sticks"] = state.sticks + len(riichi)
    flags = situation.get("flags") or {}
    # Flags that are no object (a list, a number) are left as written: the hand evaluator refuses them,
    # naming the field, as it refuses them in a hand given alone.
    if isinstance(flags, Mapping):
        flags = dict(flags)
        if winner in riichi and not flags.get("double_riichi"):
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
    melds = situation.get("melds") or []
    is_open = any(isinstance(meld, dict) and meld.get("type") != "kan_closed" for meld in melds)
    sheet.yaku[(number, winner)] = tiles_yaku(result, is_open=is_open, yakuman=evaluated.yakuman)
    if claimed is not None and claimed.basic(sheet.ruleset) != basic:
        yaku = ", ".join(str(name) for name, _han in result.get("yaku", []))
        text = _("the tiles score {value} ({yaku}), not the value on the sheet").format(value=text, yaku=yaku)
        errors.append(_win_error(who, number, state, RULE_TILES, text))
    return evaluated


def _multiple_ron(
    sheet: Sheet,
    number: int,
    hand: dict[str, Any],
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> HandOutcome:
    """Several winners on one discard:
    ``{"result": "ron", "loser": ..., "wins": [{"winner": ..., "han": ..., "fu": ...}, ...]}``."""
    loser = player_seat(sheet, number, state, hand.get("loser"), _("discarder (loser)"), errors)
    wins = hand["wins"]
    if (
        loser is None
        or not isinstance(wins, list)
        or not wins
        or not all(isinstance(win, dict) for win in wins)
    ):
        if loser is not None:
            errors.append(
                hand_error(number, state, RULE_FORMAT, _("wins is a list of {winner, han, fu} objects"))
            )
        return unreadable()
    values: dict[int, int] = {}
    for win in wins:
        winner = player_seat(sheet, number, state, win.get("winner"), _("winner"), errors)
        if winner is None:
            continue
        if winner == loser or winner in values:
            text = _("{player} cannot win twice or on their own discard").format(player=sheet.name(winner))
            errors.append(hand_error(number, state, RULE_FORMAT, text))
            continue
        who = sheet.name(winner) if len(wins) > 1 else None
        values[winner] = _win_value(sheet, number, win, state, riichi, winner, False, errors, who)
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
        return HandOutcome(ABORTIVE, as_changes(_stakes(sheet, riichi)), value=TRIPLE_RON)
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


def _draw(
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
    changes = [stake + payment for stake, payment in zip(_stakes(sheet, riichi), payments, strict=True)]
    return HandOutcome(DRAW, as_changes(changes), tenpai=tuple(sorted(tenpai)))


def _abortive(
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
    changes = as_changes(_stakes(sheet, riichi))
    return HandOutcome(
        ABORTIVE, changes, value=kind if isinstance(kind, str) and kind in ABORTIVE_DRAWS else ""
    )


def _nagashi(
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
        return _draw(sheet, number, hand, state, riichi, errors)
    if not nagashi and not more:
        errors.append(hand_error(number, state, RULE_NAGASHI, _("a nagashi mangan names its player(s)")))
    tenpai, more = seat_set(sheet, number, state, hand.get("tenpai", []), "tenpai")
    errors.extend(more)
    noten_riichi = sorted(riichi - tenpai)
    if noten_riichi and sheet.ruleset.noten_riichi_chombo:
        errors.append(noten_riichi_error(sheet, number, state, noten_riichi))
    payments = legal.nagashi_payments(nagashi, state.dealer)
    changes = [stake + payment for stake, payment in zip(_stakes(sheet, riichi), payments, strict=True)]
    return HandOutcome(
        NAGASHI, as_changes(changes), tenpai=tuple(sorted(tenpai)), winners=tuple(sorted(nagashi))
    )


def _chombo(sheet: Sheet, number: int, names: object, state: HandState, errors: list[Error]) -> HandOutcome:
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


def _check_written_deltas(
    sheet: Sheet, number: int, deltas: object, state: HandState, outcome: HandOutcome, errors: list[Error]
) -> None:
    """An outcome that also gives the deltas written on the sheet: both must agree."""
    written = read_deltas(sheet, number, deltas, state, errors)
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


def _deltas_outcomes(
    sheet: Sheet,
    number: int,
    hand: dict[str, Any],
    state: HandState,
    riichi: frozenset[int],
    errors: list[Error],
) -> list[tuple[HandOutcome, list[Error], frozenset[int]]]:
    """Each reading of a deltas hand with its errors (``errors``: those found so far in the hand) and its
    riichi declarers."""
    changes = read_deltas(sheet, number, hand["deltas"], state, errors)
    if changes is None:
        return [(unreadable(), errors, riichi)]
    if "chombo" in hand:
        outcome = _chombo(sheet, number, hand["chombo"], state, errors)
        if outcome.changes != changes:
            errors.append(hand_error(number, state, RULE_CHOMBO, chombo_mismatch(sheet, outcome, changes)))
        return [(HandOutcome(CHOMBO, changes, offenders=outcome.offenders), errors, riichi)]
    moment = Moment(state.round_index % 4, state.honba, state.sticks, riichi)
    found = legal.readings(moment, changes, sheet.ruleset)
    if "tenpai" in hand:
        tenpai, more = seat_set(sheet, number, state, hand["tenpai"], "tenpai")
        errors.extend(more)
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


def _path(node: _Node) -> list[_Node]:
    nodes = []
    current: _Node | None = node
    while current is not None and current.outcome is not None:
        nodes.append(current)
        current = current.parent
    nodes.reverse()
    return nodes


def _result(sheet: Sheet, raw: Mapping[str, Any], node: _Node, errors: list[Error]) -> Verdict:
    players = sheet.players
    hands: list[HandRecord] = []
    chombo: list[Chombo] = []
    for number, step in enumerate(_path(node), 1):
        if step.errors:
            errors.extend(step.errors)
        hands.append(_hand_record(players, step, _known_yaku(sheet, number, step)))
        if step.outcome is not None and step.outcome.offenders:
            chombo.extend(
                Chombo(players[seat], number, -sheet.ruleset.chombo_penalty)
                for seat in step.outcome.offenders
            )
    state = _collect_sticks_left(node.state, sheet.ruleset)
    final = dict(zip(players, state.points, strict=True))
    errors.extend(_end_errors(sheet, raw, state, final))
    ranks: dict[str, int] | None = None
    uma: dict[str, Decimal] | None = None
    scores: dict[str, Decimal] | None = None
    if sum(state.points) == 4 * sheet.ruleset.starting_points - sheet.ruleset.riichi_stick * state.sticks:
        ranks, uma, scores = table_scores(final, sheet.ruleset)
    return Verdict(
        valid=not errors,
        errors=tuple(errors),
        ruleset=sheet.ruleset.name,
        players=players,
        hands=tuple(hands),
        final_points=final,
        riichi_sticks_left=state.sticks,
        finished=state.may_end,
        ranks=ranks,
        uma=uma,
        scores=scores,
        chombo=tuple(chombo),
    )


def _collect_sticks_left(state: HandState, ruleset: Ruleset) -> HandState:
    """The table at the end: sticks left stay on the table (WRCR 2015 §5.9), unless the ruleset gives
    them to the first-placed player (the earlier starting seat on a tie)."""
    if not ruleset.sticks_left_to_first or not state.sticks:
        return state
    first = max(range(4), key=lambda seat: (state.points[seat], -seat))
    points = list(state.points)
    points[first] += ruleset.riichi_stick * state.sticks
    return state._replace(sticks=0, points=as_changes(points))


def _known_yaku(sheet: Sheet, number: int, step: _Node) -> dict[str, WinYaku] | None:
    """The yaku of the hand's winners that were entered or scored from tiles."""
    if not sheet.yaku or step.outcome is None:
        return None
    found = {
        sheet.players[seat]: sheet.yaku[(number, seat)]
        for seat in step.outcome.winners
        if (number, seat) in sheet.yaku
    }
    return found or None


def _hand_record(
    players: tuple[str, str, str, str], step: _Node, yaku: dict[str, WinYaku] | None = None
) -> HandRecord:
    before, outcome, points, riichi = step.before, step.outcome, step.state.points, step.riichi
    assert before is not None and outcome is not None
    east, south, west, north = players
    changes, kind = outcome.changes, outcome.kind
    return HandRecord(
        round=ROUND_LABELS[before.round_index % 16],
        dealer=players[before.round_index % 4],
        honba=before.honba,
        sticks=before.sticks,
        result=kind,
        riichi=tuple([players[seat] for seat in sorted(riichi)]) if riichi else (),
        deltas={east: changes[0], south: changes[1], west: changes[2], north: changes[3]},
        points={east: points[0], south: points[1], west: points[2], north: points[3]},
        winners=() if kind == NAGASHI else _names(players, outcome.winners),
        tenpai=_names(players, outcome.tenpai) if kind in (DRAW, NAGASHI) else None,
        offenders=_names(players, outcome.offenders),
        abortive=outcome.value if kind == ABORTIVE else "",
        nagashi=_names(players, outcome.winners) if kind == NAGASHI else (),
        yaku=yaku,
    )


def _names(players: tuple[str, str, str, str], seats: tuple[int, ...]) -> tuple[str, ...]:
    if not seats:
        return ()
    if len(seats) == 1:
        return (players[seats[0]],)
    return tuple([players[seat] for seat in seats])


def _end_errors(sheet: Sheet, raw: Mapping[str, Any], state: HandState, final: dict[str, int]) -> list[Error]:
    errors: list[Error] = []
    ended_by_time = raw.get("ended_by_time")
    if ended_by_time is False and not state.may_end:
        errors.append(
            sheet_error(
                RULE_NOT_FINISHED,
                _(
                    "the sheet stops before the end of the hanchan ({round}, {honba} honba is still to be "
                    "played) but does not say the time limit ended it"
                ).format(round=state.round_name(), honba=state.honba),
            )
        )
    sticks_left = raw.get("riichi_sticks_left")
    if sticks_left is not None and sticks_left != state.sticks:
        errors.append(
            sheet_error(
                RULE_STICKS_LEFT,
                _("the sheet leaves {written} riichi sticks on the table, the hands leave {sticks}").format(
                    written=sticks_left, sticks=state.sticks
                ),
            )
        )
    written = raw.get("final_points")
    if written is None:
        limit = final_points_limit(sheet.ruleset)
        beyond = [(player, points) for player, points in final.items() if abs(points) > limit]
        for player, points in beyond:
            errors.append(
                sheet_error(
                    RULE_RANGE,
                    _(
                        "{player} ends with {points} by the hands, beyond ten times the table's points "
                        "({limit}) either way"
                    ).format(player=player, points=format_points(points), limit=format_points(limit)),
                )
            )
        return errors
    if written == final and sum(state.points) == sum(final.values()) and not errors:
        return _final_points_errors(written, state.sticks, sheet.ruleset)
    if not isinstance(written, dict):
        return [*errors, sheet_error(RULE_FORMAT, _("final_points maps each player to their points"))]
    unknown = sorted(set(written) - set(final))
    if unknown:
        text = _("final points of unknown player(s) {names}").format(names=", ".join(map(repr, unknown)))
        errors.append(sheet_error(RULE_PLAYER, text))
    errors.extend(
        _final_points_errors(written, sticks_left if is_int(sticks_left) else state.sticks, sheet.ruleset)
    )
    for player, points in final.items():
        if player in written and written[player] != points:
            shown = format_points(written[player]) if is_int(written[player]) else repr(written[player])
            errors.append(
                sheet_error(
                    RULE_FINAL_POINTS,
                    _("{player} ends with {points} by the hands, the sheet says {shown}").format(
                        player=player, points=format_points(points), shown=shown
                    ),
                )
            )
        elif player not in written:
            text = _("the final points of {player} are missing").format(player=player)
            errors.append(sheet_error(RULE_FINAL_POINTS, text))
    return errors


def _final_points_errors(
    points: Mapping[str, int], sticks_left: int, ruleset: Ruleset, field: str | None = None
) -> list[Error]:
    """``scores.check_final_points`` as typed errors of the sheet as a whole."""
    return [
        Error(None, str(problem["rule"]), str(problem["message"]), field)
        for problem in check_final_points(points, sticks_left, ruleset)
    ]


# ---------------------------------------------------------------------------------------------------
# The final-points form


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

RULE_FINAL_FORMAT = "format"
RULE_FINAL_PLAYERS = "players"


def check_final(sheet: Mapping[str, Any], ruleset: Ruleset) -> Verdict:
    """The verdict on a sheet that gives the final points only, not the hands:
    ``{"players": [4 names], "final_points": {name: points}, "riichi_sticks_left": n, "chombo": [name]}``.

    The points must be those of the table's four players, each a multiple of 100, adding up to the
    starting points less the riichi sticks left (WRCR 2015 §5.9); each chombo named is a penalty of the
    ruleset (§7.1). Every error names the input field it is about.
    """
    parsed, read_errors = read_sheet(sheet, ruleset)
    if parsed is None:
        return Verdict.refused(read_errors)
    names = parsed.players
    points = sheet.get("final_points")
    sticks = sheet.get("riichi_sticks_left", 0)
    chombo = sheet.get("chombo", [])
    errors: list[Error] = []
    if not isinstance(points, dict):
        errors.append(
            Error(
                None,
                RULE_FINAL_FORMAT,
                _("final_points must map each player's name to points"),
                "final_points",
            )
        )
    else:
        unknown = sorted(set(points) - set(names))
        missing = [name for name in names if name not in points]
        for name in unknown:
            text = _("{player} is not at this table").format(player=name)
            errors.append(Error(None, RULE_FINAL_PLAYERS, text, "final_points"))
        for name in missing:
            text = _("final points of {player} are missing").format(player=name)
            errors.append(Error(None, RULE_FINAL_PLAYERS, text, "final_points"))
    if not is_int(sticks) or sticks < 0:
        errors.append(
            Error(
                None,
                RULE_FINAL_FORMAT,
                _("riichi_sticks_left must be a whole number, 0 or more"),
                "riichi_sticks_left",
            )
        )
    if not isinstance(chombo, list) or any(name not in names for name in chombo):
        errors.append(Error(None, RULE_FINAL_PLAYERS, _("chombo must list players of this table"), "chombo"))
    if errors:
        return Verdict.refused(errors)
    assert isinstance(points, dict) and is_int(sticks) and isinstance(chombo, list)
    ordered = {name: points[name] for name in names}
    problems = _final_points_errors(ordered, sticks, ruleset, "final_points")
    if problems:
        return Verdict.refused(problems)
    ranks, uma, scores = hanchan_scores(ordered, ruleset, sticks)
    return Verdict(
        valid=True,
        final_points=ordered,
        riichi_sticks_left=sticks,
        finished=True,
        ranks=ranks,
        uma=uma,
        scores=scores,
        chombo=tuple(Chombo(name, None, -ruleset.chombo_penalty) for name in chombo),
    )
