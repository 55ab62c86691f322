"""Reading the log's format: the JSON (or, through ``mjlog``, the XML) checked and bounded, each hand's
header, points, riichi and result read; what cannot be read is a refusal naming the hand and the field."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from scoring.rules import mjlog
from scoring.rules.i18n import _
from scoring.rules.tenhou.log import (
    ABORTIVE,
    ALL_NOTEN,
    ALL_TENPAI,
    EXHAUSTIVE,
    MAX_HANDS,
    MAX_ITEMS,
    MAX_LOG_BYTES,
    MAX_LOG_DEPTH,
    MAX_TEXT,
    NAGASHI,
    RED_FIVES,
    RIICHI_STAKE,
    RULE_SCORES,
    WIN,
    GameLog,
    LogHand,
    Win,
    four,
    hand_name,
    refusal,
)
from tournament.core.inputs import read_json
from tournament.core.refusal import Refusal

_VALUE_TEXT = re.compile(r"(?:(\d{2,3})符(\d{1,2})飜)?[^\d]*(\d{3,6})(?:-(\d{3,6}))?点∀?")


_YAKU_HAN = re.compile(r".{1,40}\((\d{1,2})飜\)")


_YAKUMAN = re.compile(r".{1,40}\((?:(\d)倍)?役満\)")


class _HandReader:
    """Reads one hand, each refusal naming it ("hand 3 (East 2, 1 honba)") and the field."""

    def __init__(self, number: int, raw: object) -> None:
        self.number = number
        self.where = _("hand {number}").format(number=number)
        self.field = f"log[{number - 1}]"
        if not isinstance(raw, list) or len(raw) != 17:
            raise self.refuse(
                "", _("a hand is a list of 17 items: header, points, dora, ura-dora, 3 per seat, result")
            )
        self.raw = raw

    def refuse(self, field: str, message: str) -> Refusal:
        located = _("{hand}: {problem}").format(hand=self.where, problem=message)
        return refusal(f"{self.field}{field}", located, hand=self.number)

    def ints(self, index: int, what: str, count: int | None = None) -> list[int]:
        value = self.raw[index]
        if (
            not isinstance(value, list)
            or len(value) > MAX_ITEMS
            or (count is not None and len(value) != count)
            or not all(type(item) is int and -10_000_000 < item < 10_000_000 for item in value)
        ):
            if count is None:
                problem = _("{what} must be a list of whole numbers").format(what=what)
            else:
                problem = _("{what} must be a list of {count} whole numbers").format(what=what, count=count)
            raise self.refuse(f"[{index}]", problem)
        return value

    def read(self, previous: LogHand | None) -> LogHand:
        round_index, honba, sticks = self.ints(0, _("the header [round, honba, riichi sticks]"), 3)
        if not (0 <= round_index < 16 and 0 <= honba < 100 and 0 <= sticks < 100):
            raise self.refuse("[0]", _("the round is 0 to 15, honba and riichi sticks 0 to 99"))
        self.where = hand_name(self.number, round_index, honba)
        start = four(self.ints(1, _("the points at the start"), 4))
        self.ints(2, _("the dora indicators"))
        self.ints(3, _("the ura-dora indicators"))
        discards = [self.moves(6 + 3 * seat, seat) for seat in range(4)]
        for seat in range(4):
            self.moves(4 + 3 * seat, seat)
            self.moves(5 + 3 * seat, seat)
        result = self.raw[16]
        if not isinstance(result, list) or not result or not isinstance(result[0], str):
            raise self.refuse("[16]", _("the result must be a list starting with its name (和了, 流局, ...)"))
        declared = {seat for seat in range(4) if any(_is_riichi(move) for move in discards[seat])}
        if result[0] == WIN:
            wins = self.wins(result)
            changes = four([sum(win.changes[seat] for win in wins) for seat in range(4)])
            discarder = wins[0].discarder
            # A riichi declared with the discard that was won on was never made (no stake paid).
            if discarder is not None and discards[discarder] and _is_riichi(discards[discarder][-1]):
                declared.discard(discarder)
            draw = None
        else:
            if result[0] not in (EXHAUSTIVE, ALL_TENPAI, ALL_NOTEN, NAGASHI, *ABORTIVE):
                problem = _("{name} is no result of the format").format(name=repr(result[0][:MAX_TEXT]))
                raise self.refuse("[16][0]", problem)
            if len(result) > 2:
                raise self.refuse("[16]", _("a draw's result is its name and the four changes"))
            changes = four(self.changes(result[1] if len(result) > 1 else [0, 0, 0, 0], "[16][1]"))
            wins, draw = (), result[0]
        if sum(changes) != RIICHI_STAKE * ((sticks + len(declared)) if wins else 0):
            problem = _("the changes {changes} do not add up to the riichi sticks collected")
            raise self.refuse("[16]", problem.format(changes=list(changes)))
        hand = LogHand(
            self.number, round_index, honba, sticks, start, frozenset(declared), wins, draw, changes
        )
        if previous is not None:
            self.follows(previous, hand)
        return hand

    def moves(self, index: int, seat: int) -> list[int | str]:
        value = self.raw[index]
        if not isinstance(value, list) or len(value) > MAX_ITEMS:
            problem = _("the tiles of seat {seat} must be a list of at most {count}")
            raise self.refuse(f"[{index}]", problem.format(seat=seat, count=MAX_ITEMS))
        for move in value:
            if not (type(move) is int or (isinstance(move, str) and len(move) <= 12)):
                problem = _("seat {seat} has a move {move} that is no tile")
                raise self.refuse(f"[{index}]", problem.format(seat=seat, move=repr(str(move)[:MAX_TEXT])))
        return value

    def changes(self, value: object, field: str) -> list[int]:
        if (
            not isinstance(value, list)
            or len(value) != 4
            or not all(type(v) is int and abs(v) < 1_000_000 for v in value)
        ):
            raise self.refuse(field, _("the changes are 4 whole numbers of points"))
        if any(v % 100 for v in value):
            raise self.refuse(
                field, _("the changes {changes} are not multiples of 100").format(changes=value)
            )
        return value

    def wins(self, result: list[Any]) -> tuple[Win, ...]:
        if len(result) not in (3, 5, 7):
            raise self.refuse(
                "[16]", _("a win's result is 和了 and, per winner, the changes and the details")
            )
        wins = []
        for position in range(1, len(result), 2):
            changes = four(self.changes(result[position], f"[16][{position}]"))
            wins.append(self.win(result[position + 1], changes, f"[16][{position + 1}]"))
        discarders = {win.discarder for win in wins}
        if len(wins) > 1 and (
            None in discarders or len(discarders) != 1 or len({w.winner for w in wins}) != len(wins)
        ):
            raise self.refuse("[16]", _("several winners are several players winning on one discard"))
        return tuple(wins)

    def win(self, details: object, changes: tuple[int, int, int, int], field: str) -> Win:
        if (
            not isinstance(details, list)
            or not 5 <= len(details) <= 3 + MAX_ITEMS
            or not all(type(seat) is int and 0 <= seat < 4 for seat in details[:3])
            or not all(isinstance(text, str) and len(text) <= MAX_TEXT for text in details[3:])
        ):
            raise self.refuse(field, _("a win's details are [winner, from, liable, value text, yaku, ...]"))
        winner, source, liable = details[0], details[1], details[2]
        value = _VALUE_TEXT.fullmatch(details[3])
        if value is None:
            problem = _("the value text {text} is not like '30符2飜2000点'").format(text=repr(details[3]))
            raise self.refuse(f"{field}[3]", problem)
        han = yakuman = red = 0
        named: list[tuple[str, int | None]] = []
        for text in details[4:]:
            counted, limit = _YAKU_HAN.fullmatch(text), _YAKUMAN.fullmatch(text)
            if counted is not None or limit is not None:
                named.append(
                    (text[: text.rindex("(")], int(counted.group(1)) if counted is not None else None)
                )
            if counted is not None:
                han += int(counted.group(1))
                if text.startswith(RED_FIVES):
                    red += int(counted.group(1))
            elif limit is not None:
                yakuman += int(limit.group(1) or 1)
            else:
                problem = _("the yaku {yaku} is not like '立直(1飜)' or '大三元(役満)'").format(
                    yaku=repr(text)
                )
                raise self.refuse(field, problem)
        if han == 0 and yakuman == 0:
            raise self.refuse(field, _("a win needs its yaku"))
        if value.group(2) is not None and not yakuman and int(value.group(2)) != han:
            problem = _("the value text gives {text} han, the yaku {han}").format(
                text=value.group(2), han=han
            )
            raise self.refuse(f"{field}[3]", problem)
        return Win(
            winner,
            None if source == winner else source,
            None if liable == winner else liable,
            0 if yakuman else han,
            int(value.group(1)) if value.group(1) and not yakuman else None,
            yakuman,
            red,
            changes,
            tuple(named),
        )

    def follows(self, previous: LogHand, hand: LogHand) -> None:
        """The hand's points and sticks are what the previous hand left (§5.7.4: sticks wait for a win)."""
        if hand.start != previous.end:
            raise self.refuse(
                "[1]",
                _(
                    "the points at the start {start} are not those the previous hand left {end} (its "
                    "changes less 1,000 per riichi declared)"
                ).format(start=list(hand.start), end=list(previous.end)),
            )
        sticks = 0 if previous.wins else previous.sticks + len(previous.riichi)
        if hand.sticks != sticks:
            problem = _("{sticks} riichi sticks on the table; the previous hand left {left}")
            raise self.refuse("[0]", problem.format(sticks=hand.sticks, left=sticks))


def _is_riichi(move: object) -> bool:
    return isinstance(move, str) and move.startswith("r")


FORMAT_JSON = "tenhou.net/6 JSON"


def log_format(raw: bytes | str) -> str:
    """The format ``read_game_log`` reads ``raw`` as: Tenhou's mjlog XML (it starts with "<"), else the
    tenhou.net/6 JSON."""
    return mjlog.FORMAT if mjlog.is_mjlog(raw) else FORMAT_JSON


def read_game_log(raw: bytes | str) -> GameLog:
    """A game log in either format (``log_format``), read and checked as ``read_log`` does: the mjlog XML
    is read into the tenhou.net/6 log of the same game (``scoring.rules.mjlog``), which gives the same
    sheet, findings and figures as that game's JSON."""
    if mjlog.is_mjlog(raw):
        return _read_data(mjlog.to_tenhou6(raw))
    return read_log(raw)


def read_log(raw: bytes | str) -> GameLog:
    """The log read and checked, or a ``Refusal`` naming the field (and the hand) that cannot be read."""
    return _read_data(read_json(raw, max_bytes=MAX_LOG_BYTES, max_depth=MAX_LOG_DEPTH, field="log"))


def _read_data(data: Any) -> GameLog:
    if not isinstance(data, dict):
        raise refusal("log", _("a game log is a JSON object with 'name' and 'log'"))
    names = data.get("name")
    if not isinstance(names, list) or not all(
        isinstance(name, str) and 0 < len(name) <= MAX_TEXT for name in names
    ):
        raise refusal(
            "name", _("'name' lists the players' names (1 to {limit} characters)").format(limit=MAX_TEXT)
        )
    if len(names) != 4 or (len(names) == 4 and not names[3]):
        # Three-player logs (sanma) have no place at a four-player table (WRCR 2015 §4.4).
        problem = _("the log is of a {count}-player game; a table seats 4")
        raise refusal("name", problem.format(count=len([n for n in names if n])))
    if len(set(names)) != 4:
        raise refusal("name", _("the log names the same player twice"))
    hands_raw = data.get("log")
    if not isinstance(hands_raw, list) or not hands_raw:
        raise refusal("log", _("'log' lists the hands"))
    if len(hands_raw) > MAX_HANDS:
        problem = _("the log has {count} hands; a hanchan has at most {limit}")
        raise refusal("log", problem.format(count=len(hands_raw), limit=MAX_HANDS))
    hands: list[LogHand] = []
    for number, raw_hand in enumerate(hands_raw, 1):
        hands.append(_HandReader(number, raw_hand).read(hands[-1] if hands else None))
    sc = data.get("sc")
    return GameLog(
        four(names), tuple(hands), _final_points(sc, hands[-1]), _scores(sc), _rule(data.get("rule"))
    )


def _rule(rule: object) -> str:
    """The log's ``rule.disp``, a display text only read for the length of the game ("" when absent)."""
    if rule is None:
        return ""
    disp = rule.get("disp", "") if isinstance(rule, dict) else None
    if not isinstance(disp, str) or len(disp) > MAX_TEXT:
        raise refusal(
            "rule.disp",
            _("'rule.disp' is the text naming the game's rules, at most {limit} characters").format(
                limit=MAX_TEXT
            ),
        )
    return disp


def _scores(sc: object) -> tuple[Decimal, Decimal, Decimal, Decimal] | None:
    """The placement scores of the log's ``sc`` (already checked by ``_final_points``), as decimals: the
    log writes them as JSON numbers, such as 43.0 or -37.5."""
    if not isinstance(sc, list) or len(sc) != 8:
        return None
    values = sc[1::2]
    if not all(isinstance(value, int | float) and not isinstance(value, bool) for value in values):
        raise refusal("sc", _("'sc' gives each player's final points and placement score"))
    return four([Decimal(str(value)) for value in values])


def _final_points(sc: object, last: LogHand) -> tuple[int, int, int, int] | None:
    """The log's final points (``sc``: points and placement score per player), in full points."""
    if sc is None:
        return None
    if not isinstance(sc, list) or len(sc) != 8 or not all(type(points) is int for points in sc[::2]):
        raise refusal("sc", _("'sc' gives each player's final points and placement score"))
    points = [int(value) for value in sc[::2]]
    # Written in hundreds (tenhou's own logs) or in full points (converters).
    total = sum(last.end) + (RIICHI_STAKE * (last.sticks + len(last.riichi)) if not last.wins else 0)
    if sum(points) * 100 == total:
        points = [value * 100 for value in points]
    left = [points[seat] - last.end[seat] for seat in range(4)]
    # The final points are those the last hand left, or those with the sticks left given to one player.
    if any(left) and sorted(left) != [0, 0, 0, total - sum(last.end)]:
        raise refusal(
            "sc",
            _("the final points {points} are not those the last hand left {end}").format(
                points=points, end=list(last.end)
            ),
            rule=RULE_SCORES,
        )
    return four(points)
