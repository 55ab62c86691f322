"""Online game logs in the tenhou.net/6 JSON format, read into a hand-by-hand score sheet.

The format (the one tenhou.net/6's log editor shows, the common log viewers read, and Mahjong Soul logs
are converted to) is one JSON object:

* ``name``: the four players' online nicknames, in the seat order of the first hand (index 0 deals
  East 1); ``title``, ``rule`` (``disp``, a display text, and ``aka``, red fives played) and ``ratingc``,
  ``sx``, ``dan``, ``rate`` describe the game and are not needed for the sheet; ``sc``, when present,
  gives each player's final points and placement score as pairs (points written in full or in
  hundreds).
* ``log``: one array per hand. Its first four items are the hand's header (``[round, honba, riichi
  sticks on the table]``, the round 0 for East 1 up to 7 for South 4 and 8 on for West), the four
  players' points at its start, the dora and the ura-dora indicators. Then come three arrays per seat,
  seat 0 first: the dealt tiles, the draws (calls written as text) and the discards, where a text
  starting with ``r`` is the discard that declares riichi. The last item is the result: a win,
  ``["和了", changes, details, ...]`` with one pair of changes and details per winner (two or three on a
  multiple ron), the details being ``[winner, from, liable, value text, yaku, ...]`` (``from`` equal to
  the winner on a self-draw, ``liable`` equal to the winner when nobody is liable, the value text such as
  ``"30符2飜2000点"`` or ``"満貫2000-4000点"``, each yaku ``"name(n飜)"`` or ``"name(役満)"``), or a draw,
  ``[name, changes]`` (``流局`` an exhaustive draw, ``全員聴牌``/``全員不聴`` one where all or none were
  tenpai, ``流し満貫`` nagashi mangan, and the abortive draws ``九種九牌``, ``四家立直``, ``三家和了``,
  ``四槓散了``, ``四風連打``).
* A hand's changes are the payments of its result, honba and riichi sticks collected included; the
  1,000-point stake of a riichi declared in the hand is not in them. So a hand's points at the start are
  the previous hand's points, plus its changes, less 1,000 for each of its riichi declarers (a riichi whose
  declaring discard was won on was never made).

``read_log`` reads and checks a log (bounded: size, nesting, hands, texts); a log that cannot be read is a
``Refusal`` naming the hand and the field. ``match_players`` maps the log's nicknames to the table's four
players. ``log_sheet`` writes the sheet entry (``scoring.services``'s hand-by-hand form), replays it under
the tournament's ruleset, and reports, hand by hand, each way the online game's rules differ from the
tournament's (``Finding``) instead of accepting them silently.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar

from scoring.rules import mjlog
from scoring.rules.i18n import _, gettext_noop
from scoring.rules.legal import stick_taker
from scoring.rules.replay import replay
from scoring.rules.ruleset import (
    ABORTIVE_DRAWS,
    FOUR_KONGS,
    FOUR_RIICHI,
    FOUR_WINDS,
    NINE_TERMINALS,
    TRIPLE_RON,
    Ruleset,
)
from scoring.rules.scores import format_score, table_scores
from scoring.rules.sheet import ROUND_WINDS, round_name
from scoring.rules.yaku import YAKU, read_win_yaku
from tournament.core.inputs import read_json
from tournament.core.refusal import Problem, Refusal

MAX_LOG_BYTES = 1_048_576  # a whole hanchan's log is some 30 KB
MAX_LOG_DEPTH = 8  # the log is 5 levels deep
MAX_HANDS = 64  # a hanchan has 8 hands plus its repeats; tenhou's West round adds a few more
MAX_TEXT = 64  # a nickname, a yaku, a value text
MAX_ITEMS = 64  # tiles, draws or discards of one seat; yaku of one win

RULE_LOG = "game-log"
RULE_PLAYERS = "game-log-players"
RULE_SCORES = "game-log-scores"
RULE_SEAT_ORDER = "game-log-seat-order (WRCR 2015 §4.2)"
# The sheet page's opt-in to the log's seats (the API's ``reseat_winds``), named by the refusal above.
# Marked here, translated where shown (the form's label, the page, the refusal).
RESEAT_LABEL = gettext_noop("The table sat as in the log: re-seat the winds")

# The tournament's rules a finding cites.
RULE_RED_FIVES = "no-red-fives (WRCR 2015 §3.3, §6.4)"
RULE_HEAD_BUMP = "head-bump (WRCR 2015 §5.7.6)"
# A ruleset whose abortive draws include three players calling ron (sanchahou) on one discard.
RULE_TRIPLE_RON = "triple-ron (abortive draw)"
RULE_ABORTIVE = "no-abortive-draws (WRCR 2015 §5.7.3)"
RULE_NAGASHI = "exhaustive-draw (WRCR 2015 §5.7.2)"
RULE_PAYMENT = "payment (WRCR 2015 §6.1)"
RULE_KIRIAGE = "kiriage (WRCR 2015 §6.1)"
RULE_START = "starting-points (WRCR 2015 §4.1)"
RULE_WEST = "end-of-game (WRCR 2015 §5.8, §5.9)"
RULE_STICKS_LEFT = "riichi-sticks-left (WRCR 2015 §5.7.4, §5.9)"
RULE_LIABILITY = "liability (WRCR 2015 §6.2)"
RULE_FINAL = "final-points (WRCR 2015 §5.9)"
RULE_HANCHAN_SCORE = "hanchan-score (WRCR 2015 §5.9.2)"
RULE_UNFINISHED = "hanchan-not-finished (WRCR 2015 §5.8, §6.1)"
RULE_EAST_ONLY = "east-only-game (WRCR 2015 §5.8)"
# Tenhou's ``rule.disp`` names the length of the game: 東 an East-only game (東風戦: "般東喰赤",
# "特東喰赤速"), 南 a hanchan ("般南喰赤"); a text naming both (東南戦, a hanchan's full name) is a hanchan.
EAST_WIND, SOUTH_WIND = "東", "南"

_T = TypeVar("_T")

WIN = "和了"
EXHAUSTIVE = "流局"
ALL_TENPAI = "全員聴牌"
ALL_NOTEN = "全員不聴"
NAGASHI = "流し満貫"
# The log's abortive draws and the ruleset's kinds (``scoring.rules.ruleset.ABORTIVE_DRAWS`` names them).
ABORTIVE = {
    "九種九牌": NINE_TERMINALS,
    "四家立直": FOUR_RIICHI,
    "三家和了": TRIPLE_RON,
    "四槓散了": FOUR_KONGS,
    "四風連打": FOUR_WINDS,
}
RIICHI_STAKE = 1000

_VALUE_TEXT = re.compile(r"(?:(\d{2,3})符(\d{1,2})飜)?[^\d]*(\d{3,6})(?:-(\d{3,6}))?点∀?")
_YAKU_HAN = re.compile(r".{1,40}\((\d{1,2})飜\)")
_YAKUMAN = re.compile(r".{1,40}\((?:(\d)倍)?役満\)")
_RED_FIVES = "赤ドラ"
_DORA = "ドラ"
_URA_DORA = "裏ドラ"
# The yaku as tenhou.net names them, by identifier (scoring.rules.yaku); winds and dragons as
# "自風 東", "場風 南", "役牌 中".
_LOG_YAKU = {
    "門前清自摸和": "menzen_tsumo",
    "立直": "riichi",
    "両立直": "double_riichi",
    "ダブル立直": "double_riichi",
    "一発": "ippatsu",
    "槍槓": "chankan",
    "嶺上開花": "rinshan",
    "海底摸月": "haitei",
    "河底撈魚": "houtei",
    "平和": "pinfu",
    "断幺九": "tanyao",
    "一盃口": "iipeikou",
    "七対子": "chiitoitsu",
    "一気通貫": "ittsu",
    "三色同順": "sanshoku",
    "混全帯幺九": "chanta",
    "対々和": "toitoi",
    "三暗刻": "sanankou",
    "三色同刻": "sanshoku_doukou",
    "三槓子": "sankantsu",
    "混老頭": "honroutou",
    "小三元": "shousangen",
    "二盃口": "ryanpeikou",
    "混一色": "honitsu",
    "純全帯幺九": "junchan",
    "清一色": "chinitsu",
    "人和": "renhou",
    "天和": "tenhou",
    "地和": "chiihou",
    "国士無双": "kokushi",
    "国士無双１３面": "kokushi",
    "九蓮宝燈": "chuuren",
    "純正九蓮宝燈": "chuuren",
    "四暗刻": "suuankou",
    "四暗刻単騎": "suuankou",
    "四槓子": "suukantsu",
    "大三元": "daisangen",
    "小四喜": "shousuushii",
    "大四喜": "daisuushii",
    "緑一色": "ryuuiisou",
    "清老頭": "chinroutou",
    "字一色": "tsuuiisou",
    "役牌 白": "yakuhai_haku",
    "役牌 發": "yakuhai_hatsu",
    "役牌 中": "yakuhai_chun",
}
_SEAT_WIND = "自風"
_ROUND_WIND = "場風"


@dataclass(frozen=True)
class Win:
    """One winner of a hand: seats are the log's (0 deals East 1); ``discarder`` None on a self-draw."""

    winner: int
    discarder: int | None
    liable: int | None
    han: int
    fu: int | None
    yakuman: int
    red_fives: int
    changes: tuple[int, int, int, int]
    # The yaku the log names, as (name, han; None for a yakuman), and its dora and ura dora han.
    yaku: tuple[tuple[str, int | None], ...] = ()


@dataclass(frozen=True)
class LogHand:
    """One hand of the log: its header, its start points, its riichi declarers, and its result (``wins``
    for a win, else ``draw`` the result's name), with the four changes of its result."""

    number: int
    round_index: int
    honba: int
    sticks: int
    start: tuple[int, int, int, int]
    riichi: frozenset[int]
    wins: tuple[Win, ...]
    draw: str | None
    changes: tuple[int, int, int, int]

    @property
    def label(self) -> str:
        return hand_label(self.round_index, self.honba)

    @property
    def end(self) -> tuple[int, int, int, int]:
        """The points after the hand: its changes, less the riichi stakes of its declarers."""
        return _four(
            [
                self.start[seat] + self.changes[seat] - (RIICHI_STAKE if seat in self.riichi else 0)
                for seat in range(4)
            ]
        )


@dataclass(frozen=True)
class GameLog:
    names: tuple[str, str, str, str]
    hands: tuple[LogHand, ...]
    final_points: tuple[int, int, int, int] | None  # the log's ``sc``, in full points, when given
    # The placement score of each player in the log's ``sc`` (uma and oka included), when given.
    scores: tuple[Decimal, Decimal, Decimal, Decimal] | None = None
    # The log's ``rule.disp`` (Tenhou's name of the lobby's rules, "般南喰赤"), "" when it has none.
    rule: str = ""

    @property
    def east_only(self) -> bool:
        """Whether the log's rules say an East-only game (東 without 南)."""
        return EAST_WIND in self.rule and SOUTH_WIND not in self.rule


@dataclass(frozen=True)
class Finding:
    """A way the log's game differs from the tournament's rules: the hand (its number in the log and its
    name, such as "East 2, 1 honba"; None for the game as a whole), the tournament rule and why."""

    hand: int | None
    label: str
    rule: str
    message: str

    def as_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "label": self.label, "rule": self.rule, "message": self.message}


@dataclass(frozen=True)
class LogSheet:
    """The sheet entry read from a log (``form`` "hands"), and the findings beside it."""

    entry: dict[str, Any]
    findings: tuple[Finding, ...]


def hand_label(round_index: int, honba: int) -> str:
    """A hand's name, from "East 1, 0 honba" to "South 4, 2 honba"; tenhou's West round is named on."""
    return f"{ROUND_WINDS[round_index // 4 % 4]} {round_index % 4 + 1}, {honba} honba"


def hand_name(number: int, round_index: int, honba: int) -> str:
    """A hand as the refusals name it, in the reader's language: "hand 3 (East 2, 1 honba)". (The label
    of a finding, ``hand_label``, stays English: it is stored with the sheet version.)"""
    return _("hand {number} ({round}, {honba} honba)").format(
        number=number, round=round_name(round_index), honba=honba
    )


def _four(values: Sequence[_T]) -> tuple[_T, _T, _T, _T]:
    return values[0], values[1], values[2], values[3]


def _refuse(field: str, message: str, *, hand: int | None = None, rule: str = RULE_LOG) -> Refusal:
    return Refusal.of([Problem(field, rule, message, hand=hand)])


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
        return _refuse(f"{self.field}{field}", located, hand=self.number)

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
        start = _four(self.ints(1, _("the points at the start"), 4))
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
            changes = _four([sum(win.changes[seat] for win in wins) for seat in range(4)])
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
            changes = _four(self.changes(result[1] if len(result) > 1 else [0, 0, 0, 0], "[16][1]"))
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
            changes = _four(self.changes(result[position], f"[16][{position}]"))
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
                if text.startswith(_RED_FIVES):
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
        raise _refuse("log", _("a game log is a JSON object with 'name' and 'log'"))
    names = data.get("name")
    if not isinstance(names, list) or not all(
        isinstance(name, str) and 0 < len(name) <= MAX_TEXT for name in names
    ):
        raise _refuse(
            "name", _("'name' lists the players' names (1 to {limit} characters)").format(limit=MAX_TEXT)
        )
    if len(names) != 4 or (len(names) == 4 and not names[3]):
        # Three-player logs (sanma) have no place at a four-player table (WRCR 2015 §4.4).
        problem = _("the log is of a {count}-player game; a table seats 4")
        raise _refuse("name", problem.format(count=len([n for n in names if n])))
    if len(set(names)) != 4:
        raise _refuse("name", _("the log names the same player twice"))
    hands_raw = data.get("log")
    if not isinstance(hands_raw, list) or not hands_raw:
        raise _refuse("log", _("'log' lists the hands"))
    if len(hands_raw) > MAX_HANDS:
        problem = _("the log has {count} hands; a hanchan has at most {limit}")
        raise _refuse("log", problem.format(count=len(hands_raw), limit=MAX_HANDS))
    hands: list[LogHand] = []
    for number, raw_hand in enumerate(hands_raw, 1):
        hands.append(_HandReader(number, raw_hand).read(hands[-1] if hands else None))
    sc = data.get("sc")
    return GameLog(
        _four(names), tuple(hands), _final_points(sc, hands[-1]), _scores(sc), _rule(data.get("rule"))
    )


def _rule(rule: object) -> str:
    """The log's ``rule.disp``, a display text only read for the length of the game ("" when absent)."""
    if rule is None:
        return ""
    disp = rule.get("disp", "") if isinstance(rule, dict) else None
    if not isinstance(disp, str) or len(disp) > MAX_TEXT:
        raise _refuse(
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
        raise _refuse("sc", _("'sc' gives each player's final points and placement score"))
    return _four([Decimal(str(value)) for value in values])


def _final_points(sc: object, last: LogHand) -> tuple[int, int, int, int] | None:
    """The log's final points (``sc``: points and placement score per player), in full points."""
    if sc is None:
        return None
    if not isinstance(sc, list) or len(sc) != 8 or not all(type(points) is int for points in sc[::2]):
        raise _refuse("sc", _("'sc' gives each player's final points and placement score"))
    points = [int(value) for value in sc[::2]]
    # Written in hundreds (tenhou's own logs) or in full points (converters).
    total = sum(last.end) + (RIICHI_STAKE * (last.sticks + len(last.riichi)) if not last.wins else 0)
    if sum(points) * 100 == total:
        points = [value * 100 for value in points]
    left = [points[seat] - last.end[seat] for seat in range(4)]
    # The final points are those the last hand left, or those with the sticks left given to one player.
    if any(left) and sorted(left) != [0, 0, 0, total - sum(last.end)]:
        raise _refuse(
            "sc",
            _("the final points {points} are not those the last hand left {end}").format(
                points=points, end=list(last.end)
            ),
            rule=RULE_SCORES,
        )
    return _four(points)


def fold(name: str) -> str:
    """A name compared without case and accents: "José" and "JOSE" match."""
    decomposed = unicodedata.normalize("NFKD", name.strip())
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


def match_players(
    log_names: Sequence[str],
    seated: Sequence[str],
    mapping: Mapping[str, str] | None = None,
    *,
    reseat: bool = False,
) -> tuple[str, str, str, str]:
    """The table's player in each seat of the log: by ``mapping`` (log name -> a seated player's name)
    where given, else by the same name without case and accents. Every log name must find a different
    player of the table. The log's seat order must be the table's (the seat winds, WRCR 2015 §4.2, East
    first: the sheet is replayed in that order), unless ``reseat``: the referee accepts the log's seats,
    and the table is re-seated as the log sat (``scoring.services.sheet_from_log``)."""
    mapping = mapping or {}
    if (
        not isinstance(mapping, Mapping)
        or len(mapping) > 4
        or not all(
            isinstance(key, str) and isinstance(value, str) and len(key) <= MAX_TEXT and len(value) <= 200
            for key, value in mapping.items()
        )
    ):
        raise _refuse(
            "mapping",
            _("the mapping gives at most 4 log names, each with a player's name"),
            rule=RULE_PLAYERS,
        )
    unknown = sorted(set(mapping) - set(log_names))
    if unknown:
        raise _refuse(
            "mapping",
            _("{names} is no player of the log").format(names=", ".join(map(repr, unknown))),
            rule=RULE_PLAYERS,
        )
    by_fold = {fold(name): name for name in seated}
    players: list[str] = []
    for log_name in log_names:
        wanted = mapping.get(log_name, log_name)
        player = by_fold.get(fold(wanted)) if isinstance(wanted, str) else None
        if player is None:
            raise _refuse(
                "mapping",
                _(
                    "the log's player {name} matches nobody at the table ({seated}); map the log's names to "
                    "the table's players"
                ).format(name=repr(log_name), seated=", ".join(seated)),
                rule=RULE_PLAYERS,
            )
        players.append(player)
    if len(set(players)) != 4:
        raise _refuse(
            "mapping", _("two of the log's players are mapped to one player of the table"), rule=RULE_PLAYERS
        )
    if players != list(seated) and not reseat:
        raise _refuse(
            "reseat_winds",
            _(
                "the log seats {players} as East, South, West, North; the table seats {seated} (seat "
                "winds, WRCR 2015 §4.2). If the table sat as in the log, a head referee accepts the log's "
                'seats: tick "{label}" (in the API, "reseat_winds": true)'
            ).format(players=", ".join(players), seated=", ".join(seated), label=_(RESEAT_LABEL)),
            rule=RULE_SEAT_ORDER,
        )
    return _four(players)


def log_sheet(log: GameLog, players: Sequence[str], ruleset: Ruleset) -> LogSheet:
    """The hand-by-hand sheet of the log (``players``: the table's player in each seat of the log) and the
    findings where the log's game differs from the tournament's ``ruleset``."""
    findings: list[Finding] = []
    if log.east_only and not ruleset.east_only:
        findings.append(
            Finding(
                None,
                "",
                RULE_EAST_ONLY,
                _(
                    "an East-only game (the log's rules: {rule}); the tournament plays hanchan, the East and "
                    "the South round"
                ).format(rule=log.rule),
            )
        )
    entries: list[dict[str, Any]] = []
    played: list[LogHand] = []
    for index, hand in enumerate(log.hands):
        if hand.round_index >= 8 and not ruleset.west_round_points:
            findings.append(
                Finding(
                    hand.number,
                    hand.label,
                    RULE_WEST,
                    _(
                        "the online game went on into the West round; the hanchan ends after South 4 and "
                        "this hand and those after it are left off the sheet"
                    ),
                )
            )
            break
        following = log.hands[index + 1] if index + 1 < len(log.hands) else None
        # Whether the online game's dealer kept the deal after this hand: its next hand says so.
        dealer_kept = following is not None and following.round_index == hand.round_index
        entries.append(_entry(hand, players, ruleset, findings, dealer_kept))
        played.append(hand)
    entry: dict[str, Any] = {"form": "hands", "hands": entries}
    _compare(log, played, entry, players, ruleset, findings)
    return LogSheet(entry, tuple(findings))


def _entry(
    hand: LogHand, players: Sequence[str], ruleset: Ruleset, findings: list[Finding], dealer_kept: bool
) -> dict[str, Any]:
    def note(rule: str, message: str) -> None:
        findings.append(Finding(hand.number, hand.label, rule, message))

    riichi = [players[seat] for seat in sorted(hand.riichi)]
    if hand.draw is not None:
        if hand.draw in ABORTIVE:
            kind = ABORTIVE[hand.draw]
            if ruleset.allows_abortive(kind):
                return {"result": "abortive", "kind": kind, "riichi": riichi}
            if ruleset.abortive_draws:
                message = _(
                    "abortive draw ({kind}): the tournament's rules ({ruleset}) have no such abortive draw; "
                    "entered as a draw without payments where the dealer keeps the deal, as the online game "
                    "went on"
                )
            else:
                message = _(
                    "abortive draw ({kind}): the tournament plays none; entered as a draw without payments "
                    "where the dealer keeps the deal, as the online game went on"
                )
            note(RULE_ABORTIVE, message.format(kind=_(ABORTIVE_DRAWS[kind]), ruleset=ruleset.name))
            return {"result": "draw", "tenpai": list(players), "riichi": riichi}
        if hand.draw == NAGASHI:
            # The log gives the nagashi's payments (its players gain) but not who was tenpai: the riichi
            # declarers were, and the dealer was when the online game kept the deal (the next hand).
            dealer = players[hand.round_index % 4]
            nagashi: dict[str, Any] = {
                "result": "nagashi",
                "nagashi": [players[seat] for seat in range(4) if hand.changes[seat] > 0],
                "tenpai": [name for name in players if name in riichi or (dealer_kept and name == dealer)],
                "riichi": riichi,
            }
            if ruleset.nagashi_mangan:
                return nagashi
            # The tournament's rules have none (WRCR 2015 §5.7.2: an exhaustive draw pays only the noten
            # payments), but the result played is what happened at the table: the log's four changes are
            # kept, the deal going on as the online game's, and the difference is reported.
            note(
                RULE_NAGASHI,
                _(
                    "nagashi mangan: the tournament's rules ({ruleset}) have none, an exhaustive draw paying "
                    "only the noten payments; entered as the online game played it, its payments kept "
                    "(the log does not say whether the players without riichi were tenpai: check them)"
                ).format(ruleset=ruleset.name),
            )
            return {**nagashi, "played_online": True}
        if hand.draw == ALL_TENPAI:
            return {"result": "draw", "tenpai": list(players), "riichi": riichi}
        if hand.draw == ALL_NOTEN:
            return {"result": "draw", "tenpai": [], "riichi": riichi}
        if any(hand.changes):
            tenpai = [players[seat] for seat in range(4) if hand.changes[seat] > 0]
            return {"result": "draw", "tenpai": tenpai, "riichi": riichi}
        return _deltas(hand, players)
    for win in hand.wins:
        if win.red_fives and not ruleset.red_fives:
            note(
                RULE_RED_FIVES,
                _(
                    "{player}'s hand counts {han} han of red fives; the tournament plays without red "
                    "fives (the han are entered as the log scored them)"
                ).format(player=players[win.winner], han=win.red_fives),
            )
    wins = hand.wins
    if len(wins) == 3 and ruleset.multiple_ron and ruleset.allows_abortive(TRIPLE_RON):
        note(
            RULE_TRIPLE_RON,
            _(
                "3 players won on {discarder}'s discard; under the tournament's rules ({ruleset}) three "
                "players calling ron is an abortive draw: entered as one, without payments"
            ).format(discarder=players[wins[0].discarder or 0], ruleset=ruleset.name),
        )
        return {"result": "abortive", "kind": TRIPLE_RON, "riichi": riichi}
    if len(wins) > 1 and not ruleset.multiple_ron:
        discarder = wins[0].discarder
        assert discarder is not None
        first = stick_taker(discarder, [win.winner for win in wins])
        others = [players[win.winner] for win in wins if win.winner != first]
        note(
            RULE_HEAD_BUMP,
            _(
                "{count} players won on {discarder}'s discard; only the player closest to the discarder "
                "wins: {first} is entered, {others} not"
            ).format(
                count=len(wins), discarder=players[discarder], first=players[first], others=", ".join(others)
            ),
        )
        wins = tuple(win for win in wins if win.winner == first)
    if len(wins) > 1:
        return {
            "result": "ron",
            "loser": players[wins[0].discarder or 0],
            "wins": [
                _with_yaku(_value({"winner": players[win.winner]}, win), win, hand, ruleset) for win in wins
            ],
            "riichi": riichi,
        }
    win = wins[0]
    if not win.yakuman and win.han < 5 and win.fu is None:
        return _deltas(hand, players)  # a limit hand of fewer than 5 han: the log gives no fu
    if win.discarder is None:
        entry: dict[str, Any] = {"result": "tsumo", "winner": players[win.winner]}
    else:
        entry = {"result": "ron", "winner": players[win.winner], "loser": players[win.discarder]}
    if win.liable is not None and ruleset.liability:
        entry["liable"] = players[win.liable]
    elif win.liable is not None:
        note(
            RULE_LIABILITY,
            _(
                "the log makes {liable} liable for {winner}'s yakuman; the tournament's rules ({ruleset}) "
                "have no liability payment: entered without it"
            ).format(liable=players[win.liable], winner=players[win.winner], ruleset=ruleset.name),
        )
    return {**_with_yaku(_value(entry, win), win, hand, ruleset), "riichi": riichi}


def _value(entry: dict[str, Any], win: Win) -> dict[str, Any]:
    if win.yakuman:
        entry["yakuman"] = win.yakuman
    else:
        entry["han"] = win.han
        if win.fu is not None:
            entry["fu"] = win.fu
    return entry


def _log_yaku(win: Win) -> tuple[list[str], int, int, bool | None] | None:
    """The win's yaku as identifiers, its dora and ura dora, and whether the hand was open (None: the
    log does not tell); None when a yaku is one the tournament's list does not know."""
    ids: list[str] = []
    dora = ura = 0
    opened: bool | None = None
    for name, han in win.yaku:
        if name == _DORA:
            dora += han or 0
            continue
        if name == _URA_DORA:
            ura += han or 0
            continue
        if name == _RED_FIVES:
            continue
        wind = name.split(" ")[0]
        yaku = {_SEAT_WIND: "yakuhai_seat_wind", _ROUND_WIND: "yakuhai_round_wind"}.get(
            wind, _LOG_YAKU.get(name)
        )
        if yaku is None:
            return None
        ids.append(yaku)
        known = YAKU[yaku]
        if known.open_han is None:
            opened = False
        elif han is not None and han == known.open_han != known.han and opened is None:
            opened = True
    return ids, dora, ura, opened


def _with_yaku(entry: dict[str, Any], win: Win, hand: LogHand, ruleset: Ruleset) -> dict[str, Any]:
    """The win's entry with the yaku the log names (and its dora), where the rules engine finds them a
    possible combination worth the han the log scored; the entry as it was otherwise (a yaku unknown to
    the list, or red fives the tournament does not play, whose han the yaku cannot give)."""
    found = _log_yaku(win)
    if found is None or (win.red_fives and not ruleset.red_fives):
        return entry
    ids, dora, ura, opened = found
    tsumo = win.discarder is None
    if opened is None and tsumo and not win.yakuman:
        opened = "menzen_tsumo" not in ids  # a closed self-draw always has Fully Concealed Hand
    yaku_entry: dict[str, Any] = {"yaku": ids}
    if opened:
        yaku_entry["open"] = True
    for key, count in (("dora", dora), ("ura_dora", ura), ("aka_dora", win.red_fives)):
        if count:
            yaku_entry[key] = count
    checked, problems = read_win_yaku(
        {**yaku_entry, "fu": win.fu},
        tsumo=tsumo,
        dealer=win.winner == hand.round_index % 4,
        declared_riichi=win.winner in hand.riichi,
        ruleset=ruleset,
    )
    if checked is None or problems:
        return entry
    agrees = checked.yakuman > 0 if win.yakuman else checked.han == win.han
    if not agrees:
        return entry
    return {**entry, **yaku_entry}


def _deltas(hand: LogHand, players: Sequence[str]) -> dict[str, Any]:
    """The hand as the four changes of a paper sheet, riichi stakes included."""
    changes = [hand.end[seat] - hand.start[seat] for seat in range(4)]
    return {
        "deltas": dict(zip(players, changes, strict=True)),
        "riichi": [players[seat] for seat in sorted(hand.riichi)],
    }


def _compare(
    log: GameLog,
    played: Sequence[LogHand],
    entry: dict[str, Any],
    players: Sequence[str],
    ruleset: Ruleset,
    findings: list[Finding],
) -> None:
    """Replays the sheet under the tournament's rules and reports every hand it scores otherwise than the
    log; the final points (and sticks left) go on the sheet, to be checked, only when nothing differs."""
    verdict = replay({**{k: v for k, v in entry.items() if k != "form"}, "players": list(players)}, ruleset)
    same = True
    if played[0].start != (ruleset.starting_points,) * 4:
        same = False
        findings.append(
            Finding(
                None,
                "",
                RULE_START,
                _("the online game started at {points} points each, the tournament starts at {start}").format(
                    points=f"{played[0].start[0]:,}", start=f"{ruleset.starting_points:,}"
                ),
            )
        )
    replayed = verdict.hands or ()
    for hand, record in zip(played, replayed, strict=False):
        expected = [hand.end[seat] - hand.start[seat] for seat in range(4)]
        got = [record.deltas.get(player, 0) for player in players]
        if expected != got:
            same = False
            win = hand.wins[0] if len(hand.wins) == 1 else None
            kiriage = win is not None and ruleset.kiriage and (win.han, win.fu) in ((4, 30), (3, 60))
            findings.append(
                Finding(
                    hand.number,
                    hand.label,
                    RULE_KIRIAGE if kiriage else RULE_PAYMENT,
                    _payment_finding(kiriage).format(log=_signed(expected), rules=_signed(got)),
                )
            )
    if verdict.finished is False and not (log.east_only and not ruleset.east_only):
        # (An East-only game under a hanchan's rules ends "too early": its one finding says why, above.)
        findings.append(
            Finding(
                None,
                "",
                RULE_UNFINISHED,
                _(
                    "the log ends before the hanchan is over: it ends after South 4 (§5.8), or when a player "
                    "goes below zero ({ruleset})"
                ).format(ruleset=ruleset.name)
                if ruleset.busting
                else _(
                    "the log ends before the hanchan is over: it ends after South 4 (§5.8), and a player "
                    "below zero does not end it (§6.1)"
                ),
            )
        )
    last = played[-1]
    left = 0 if last.wins else last.sticks + len(last.riichi)
    if ruleset.sticks_left_to_first and verdict.final_points is not None and same and verdict.valid:
        # The tournament gives the sticks left to first place, as the online game did.
        end = tuple(verdict.final_points[player] for player in players)
        left = verdict.riichi_sticks_left or 0
    else:
        end = last.end
    if log.final_points is not None and log.final_points != end and left:
        findings.append(
            Finding(
                None,
                "",
                RULE_STICKS_LEFT,
                _(
                    "the online game gave the {count} riichi stick(s) left at the end to a player; the "
                    "tournament leaves them to nobody"
                ).format(count=left),
            )
        )
    if same and verdict.valid and len(played) == len(log.hands):
        entry["final_points"] = dict(zip(players, end, strict=True))
        entry["riichi_sticks_left"] = left
        if log.scores is not None and log.final_points == end:
            scores = table_scores(entry["final_points"], ruleset)[2]
            ours = tuple(scores[player] for player in players)
            if ours != log.scores and not _scored_as_older_tenhou(entry["final_points"], log.scores, ruleset):
                findings.append(
                    Finding(
                        None,
                        "",
                        RULE_HANCHAN_SCORE,
                        _(
                            "the online game scored the places {log}; the tournament's rules score them "
                            "{rules}"
                        ).format(log=_listed(players, log.scores), rules=_listed(players, ours)),
                    )
                )
    elif same is False or len(played) != len(log.hands):
        findings.append(
            Finding(
                None,
                "",
                RULE_FINAL,
                _(
                    "the sheet's final points are those the tournament's rules give, not the log's ({points})"
                ).format(points=", ".join(f"{p} {v:,}" for p, v in zip(players, last.end, strict=True))),
            )
        )


def _scored_as_older_tenhou(
    final_points: Mapping[str, int], scores: Sequence[Decimal], ruleset: Ruleset
) -> bool:
    """Whether the log's placement scores are the tournament's own rules counted on the points rounded to
    thousands, as Tenhou wrote them before it wrote them to the tenth: a log whose ``sc`` scores are all
    whole numbers is of that time (a log of 2023 writes 71.1, one of 2019 47), and is read so. The date
    of the change is not known; the log itself says which it is."""
    if ruleset.round_to_thousand or not all(score == score.to_integral_value() for score in scores):
        return False
    older = dataclasses.replace(ruleset, round_to_thousand=True)
    counted = table_scores(final_points, older)[2]
    return tuple(counted[player] for player in final_points) == tuple(scores)


def _listed(players: Sequence[str], scores: Sequence[Decimal]) -> str:
    return ", ".join(f"{player} {format_score(score)}" for player, score in zip(players, scores, strict=True))


def _payment_finding(kiriage: bool) -> str:
    """A hand the tournament's rules score otherwise than the log, the kiriage named when it is why."""
    if kiriage:
        return _(
            "4 han 30 fu and 3 han 60 fu are a mangan for the tournament (kiriage); the log changed the "
            "points by {log}, the tournament's rules by {rules}"
        )
    return _("the log changed the points by {log}, the tournament's rules by {rules}")


def _signed(values: Sequence[int]) -> str:
    return " / ".join(f"{value:+,}" for value in values)
