"""The score sheet as entered, read once: its players, its ruleset and each hand as a typed hand.

``read_entry`` reads a sheet (plain JSON, docs/rules-engine.md) in one pass: every name resolved to its
seat, every value to its type, and every format problem kept as a ``Problem`` of its hand and field (the
rule and the text; the replay places it in its hand, "hand 3 (East 2, 1 honba): ...", because the round
and honba of a hand are known only once the hands before it are replayed, and may differ between two
readings of a paper sheet's deltas). The replay (``scoring.rules.replay``) walks these typed hands and
never reads the JSON: it reports each problem where the rules meet its field, so a sheet's errors come in
the order of its hands and, within a hand, of its fields.

Two parts of a win go on as entered, each to its own reader, because their meaning depends on the moment
of the hand: the yaku (``yaku.read_win_yaku``, which needs the dealer and the riichi declarers) and the
tiles (``hands.evaluate_hand``, which needs the seat and round winds, honba and sticks); of the tiles, this
module reads what the replay adds to them (the flags, whether a meld opens the hand).

``read_final`` reads the other form of a sheet, the final points only (``replay.final``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from scoring.rules.i18n import _
from scoring.rules.legal import ABORTIVE, CHOMBO, DRAW, NAGASHI, RON, TSUMO
from scoring.rules.ruleset import ABORTIVE_DRAWS, Ruleset
from scoring.rules.sheet import (
    RULE_CHOMBO,
    RULE_FORMAT,
    RULE_MULTIPLE,
    RULE_PLAYER,
    Error,
    HandState,
    Sheet,
    Value,
    as_changes,
    hand_error,
    is_int,
    join,
    read_sheet,
    sheet_error,
)

_NOBODY: frozenset[int] = frozenset()
# The fields of a win entered by its yaku that ``yaku.read_win_yaku`` reads.
YAKU_FIELDS = ("yaku", "open", "dora", "ura_dora", "aka_dora", "fu")
# The rules of a final-points sheet's fields: one that is no map, number or list; one that names no
# player of the table, or misses one.
RULE_FINAL_FORMAT = "format"
RULE_FINAL_PLAYERS = "players"


@dataclass(frozen=True, slots=True)
class Problem:
    """A format problem of one field of a hand: the rule it breaks and the text, without the hand's place
    (``hand_error`` adds it when the replay reaches the hand)."""

    rule: str
    text: str


Problems = tuple[Problem, ...]


@dataclass(frozen=True, slots=True)
class Seats:
    """The players a field names (riichi, tenpai, offenders, nagashi), as seats; ``problems``: the names
    that are no player of the table, or a field that is no list."""

    seats: frozenset[int]
    problems: Problems = ()


NOBODY = Seats(_NOBODY)


@dataclass(frozen=True, slots=True)
class Tiles:
    """A win's tiles: ``situation``, the hand object as entered, for the hand evaluator to read; what the
    replay adds to it: ``flags`` as entered (an empty object when none; None when they are something else,
    left for the evaluator to refuse, naming the field), whether they declare a double riichi, and whether
    a meld other than a closed kan opens the hand."""

    situation: Mapping[str, Any]
    flags: Mapping[str, Any] | None
    double_riichi: bool
    is_open: bool


@dataclass(frozen=True, slots=True)
class WinValue:
    """What a sheet gives of one win's value. ``plain``: han and fu as whole numbers with nothing else (no
    yaku, tiles or yakuman), looked up in the ruleset's tables; ``value``: han/fu or yakuman as written, or
    None when unreadable. ``yaku``: the fields of a win entered by its yaku, None without; ``written``: the
    sheet also writes han or yakuman, shown as ``given`` when the yaku disagree. ``tiles``: the hand's
    tiles, None without (``tiles_problem`` when they are no object); ``unwritten``: no han and no yakuman,
    so the tiles give the value."""

    plain: tuple[int, int | None] | None
    value: Value | None
    yaku: Mapping[str, Any] | None = None
    written: bool = False
    given: str = ""
    tiles: Tiles | None = None
    tiles_problem: Problem | None = None
    unwritten: bool = True

    @property
    def has_tiles(self) -> bool:
        return self.tiles is not None or self.tiles_problem is not None


@dataclass(frozen=True, slots=True)
class Liable:
    """The player liable for a win (WRCR 2015 §6.2): the seat, or None (none named, or no player of the
    table: ``problems``)."""

    seat: int | None
    problems: Problems = ()


@dataclass(frozen=True, slots=True)
class Written:
    """The four deltas a hand writes: the changes in seat order (None when they cannot be used) and their
    problems."""

    changes: tuple[int, int, int, int] | None
    problems: Problems = ()


@dataclass(frozen=True, slots=True)
class Hand:
    """What every hand that is an object has: its riichi declarers; ``deltas``: the four deltas it writes
    beside its result (None without)."""

    riichi: Seats
    deltas: Written | None


@dataclass(frozen=True, slots=True)
class Win(Hand):
    """A ron on one discard or a tsumo. ``winner`` and ``loser`` (None on a tsumo) are seats; a win whose
    players cannot be read has ``players_problems`` and is replayed as unreadable."""

    tsumo: bool
    winner: int | None
    loser: int | None
    players_problems: Problems
    value: WinValue
    liable: Liable | None


@dataclass(frozen=True, slots=True)
class RonWin:
    """One win of a multiple ron: its winner, the problems found before its value (an unknown winner, a
    winner twice or on their own discard: then ``value`` is None and the win is skipped), and ``who``, the
    winner's name beginning each of its errors when the hand has several wins."""

    winner: int | None
    problems: Problems
    value: WinValue | None
    who: str | None


@dataclass(frozen=True, slots=True)
class MultipleRon(Hand):
    """Several wins on one discard: ``{"result": "ron", "loser": ..., "wins": [...]}``. ``wins`` is None
    when the discarder or the list cannot be read (``problems`` says why)."""

    loser: int | None
    problems: Problems
    wins: tuple[RonWin, ...] | None


@dataclass(frozen=True, slots=True)
class Draw(Hand):
    """An exhaustive draw and its tenpai players."""

    tenpai: Seats


@dataclass(frozen=True, slots=True)
class ChomboHand(Hand):
    """A chombo re-deal and its offenders (WRCR 2015 §7.1)."""

    offenders: Seats


@dataclass(frozen=True, slots=True)
class Abortive(Hand):
    """An abortive draw: its kind (one of ``ABORTIVE_DRAWS``), or "" with ``problem`` when it names none."""

    kind: str
    problem: Problem | None


@dataclass(frozen=True, slots=True)
class Nagashi(Hand):
    """A nagashi mangan: its players, the tenpai players and whether the online game played it."""

    nagashi: Seats
    tenpai: Seats
    played_online: bool


@dataclass(frozen=True, slots=True)
class UnknownResult(Hand):
    """A result the sheet format does not know."""

    problem: Problem


@dataclass(frozen=True, slots=True)
class Deltas(Hand):
    """A paper sheet's hand: its four deltas (``Hand.deltas``, always given), read as the outcomes they
    can be; ``chombo``: the offenders it names (a chombo re-deal), ``tenpai``: the tenpai players it names
    (an exhaustive draw); None when the hand does not name them."""

    chombo: Seats | None
    tenpai: Seats | None


@dataclass(frozen=True, slots=True)
class NoResult(Hand):
    """An object that gives neither a result nor the four deltas."""


@dataclass(frozen=True, slots=True)
class NotAnObject:
    """A hand that is no JSON object."""


AnyHand = Win | MultipleRon | Draw | ChomboHand | Abortive | Nagashi | UnknownResult | Deltas | NoResult
Entry = AnyHand | NotAnObject


@dataclass(frozen=True, slots=True)
class Ending:
    """What the sheet writes of the end, as written (``replay.end`` checks it against the hands): whether
    the time limit ended the hanchan (True, False, or None when not said), the riichi sticks left and the
    final points (None when not written)."""

    ended_by_time: bool | None
    sticks_left: object
    final_points: object


@dataclass(frozen=True, slots=True)
class ReadSheet:
    """A sheet read once: its players and ruleset (``sheet``), its hands, typed, and its end."""

    sheet: Sheet
    hands: tuple[Entry, ...]
    ending: Ending


@dataclass(frozen=True, slots=True)
class FinalEntry:
    """A sheet of the final points only, read: its players (``sheet``), the points of each in seat order,
    as written (``scores.check_final_points`` checks them), the riichi sticks left and the players named
    for a chombo, once per chombo."""

    sheet: Sheet
    points: Mapping[str, Any]
    sticks_left: int
    chombo: tuple[str, ...]


def read_entry(raw: Mapping[str, Any], ruleset: Ruleset | None) -> tuple[ReadSheet | None, list[Error]]:
    """The sheet read, or None with the errors that stop its replay (no four players, no ruleset, no list
    of hands)."""
    sheet, errors = read_sheet(raw, ruleset)
    if sheet is None:
        return None, errors
    hands = raw.get("hands")
    if not isinstance(hands, list):
        return None, [*errors, sheet_error(RULE_FORMAT, _("the sheet needs a list of hands"))]
    by_time = raw.get("ended_by_time")
    ending = Ending(
        by_time if isinstance(by_time, bool) else None, raw.get("riichi_sticks_left"), raw.get("final_points")
    )
    return ReadSheet(sheet, tuple([read_hand(sheet, hand) for hand in hands]), ending), errors


def read_final(raw: Mapping[str, Any], ruleset: Ruleset) -> tuple[FinalEntry | None, list[Error]]:
    """A sheet of the final points only (``replay.final``), or None with the errors of its fields:
    ``{"players": [4 names], "final_points": {name: points}, "riichi_sticks_left": n, "chombo": [name]}``.
    """
    sheet, errors = read_sheet(raw, ruleset)
    if sheet is None:
        return None, errors
    names = sheet.players
    points = raw.get("final_points")
    sticks = raw.get("riichi_sticks_left", 0)
    chombo = raw.get("chombo", [])
    errors = []
    if not isinstance(points, dict):
        text = _("final_points must map each player's name to points")
        errors.append(Error(None, RULE_FINAL_FORMAT, text, "final_points"))
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
        text = _("riichi_sticks_left must be a whole number, 0 or more")
        errors.append(Error(None, RULE_FINAL_FORMAT, text, "riichi_sticks_left"))
    if not isinstance(chombo, list) or any(name not in names for name in chombo):
        errors.append(Error(None, RULE_FINAL_PLAYERS, _("chombo must list players of this table"), "chombo"))
    if errors:
        return None, errors
    assert isinstance(points, dict) and is_int(sticks) and isinstance(chombo, list)
    ordered = MappingProxyType({name: points[name] for name in names})
    return FinalEntry(sheet, ordered, sticks, tuple(chombo)), []


def read_hand(sheet: Sheet, hand: object) -> Entry:
    """One hand of the sheet, typed."""
    if not isinstance(hand, dict):
        return NotAnObject()
    riichi = read_seats(sheet, hand.get("riichi", []), "riichi")
    if "result" in hand:
        deltas = read_deltas(sheet, hand["deltas"]) if "deltas" in hand else None
        return _read_result(sheet, hand, riichi, deltas)
    if "deltas" in hand:
        chombo = read_offenders(sheet, hand["chombo"]) if "chombo" in hand else None
        tenpai = read_seats(sheet, hand["tenpai"], "tenpai") if "tenpai" in hand and chombo is None else None
        return Deltas(riichi, read_deltas(sheet, hand["deltas"]), chombo, tenpai)
    return NoResult(riichi, None)


def _read_result(sheet: Sheet, hand: dict[str, Any], riichi: Seats, deltas: Written | None) -> AnyHand:
    result = hand["result"]
    if result == RON:
        if "wins" in hand:
            return _read_multiple_ron(sheet, hand, riichi, deltas)
        return _read_win(sheet, hand, riichi, deltas, tsumo=False)
    if result == TSUMO:
        return _read_win(sheet, hand, riichi, deltas, tsumo=True)
    if result == DRAW:
        return Draw(riichi, deltas, read_seats(sheet, hand.get("tenpai", []), "tenpai"))
    if result == CHOMBO:
        return ChomboHand(riichi, deltas, read_offenders(sheet, hand.get("offender", hand.get("offenders"))))
    if result == ABORTIVE:
        kind = hand.get("kind")
        # A kind that is no text (a list, an object) is refused like any unknown kind: looking it up among
        # the kinds would fail on it.
        if isinstance(kind, str) and kind in ABORTIVE_DRAWS:
            return Abortive(riichi, deltas, kind, None)
        text = _("an abortive draw names its kind: {kinds}").format(kinds=", ".join(ABORTIVE_DRAWS))
        return Abortive(riichi, deltas, "", Problem(RULE_FORMAT, text))
    if result == NAGASHI:
        nagashi = read_seats(sheet, hand.get("nagashi", []), "nagashi")
        tenpai = read_seats(sheet, hand.get("tenpai", []), "tenpai")
        return Nagashi(riichi, deltas, nagashi, tenpai, hand.get("played_online") is True)
    text = _("unknown result {result} (ron, tsumo, draw, chombo, abortive or nagashi)").format(
        result=repr(result)
    )
    return UnknownResult(riichi, deltas, Problem(RULE_FORMAT, text))


def _read_win(
    sheet: Sheet, hand: dict[str, Any], riichi: Seats, deltas: Written | None, *, tsumo: bool
) -> Win:
    winner = seat_of(sheet, hand.get("winner"))
    loser = None if tsumo else seat_of(sheet, hand.get("loser"))
    problems: Problems = ()
    if winner is None or (loser is None and not tsumo) or winner == loser:
        problems = _win_players_problems(sheet, hand, tsumo)
    liable = _read_liable(sheet, hand["liable"]) if "liable" in hand else None
    return Win(riichi, deltas, tsumo, winner, loser, problems, read_win_value(hand), liable)


def _read_liable(sheet: Sheet, name: object) -> Liable:
    if name is None:
        return Liable(None)
    problems: list[Problem] = []
    seat = player_seat(sheet, name, _("liable player"), problems)
    return Liable(seat, tuple(problems))


def _win_players_problems(sheet: Sheet, hand: dict[str, Any], tsumo: bool) -> Problems:
    """The problems of a win whose winner or discarder is missing or unknown."""
    problems: list[Problem] = []
    winner = player_seat(sheet, hand.get("winner"), _("winner"), problems)
    loser = None if tsumo else player_seat(sheet, hand.get("loser"), _("discarder (loser)"), problems)
    if winner is not None and winner == loser:
        text = _("{player} cannot win on their own discard").format(player=sheet.name(winner))
        problems.append(Problem(RULE_FORMAT, text))
    return tuple(problems)


def _read_multiple_ron(
    sheet: Sheet, hand: dict[str, Any], riichi: Seats, deltas: Written | None
) -> MultipleRon:
    problems: list[Problem] = []
    loser = player_seat(sheet, hand.get("loser"), _("discarder (loser)"), problems)
    wins = hand["wins"]
    if (
        loser is None
        or not isinstance(wins, list)
        or not wins
        or not all(isinstance(win, dict) for win in wins)
    ):
        if loser is not None:
            problems.append(Problem(RULE_FORMAT, _("wins is a list of {winner, han, fu} objects")))
        return MultipleRon(riichi, deltas, loser, tuple(problems), None)
    read: list[RonWin] = []
    seen: set[int] = set()
    for win in wins:
        found: list[Problem] = []
        winner = player_seat(sheet, win.get("winner"), _("winner"), found)
        who = None
        value = None
        if winner is not None:
            if winner == loser or winner in seen:
                text = _("{player} cannot win twice or on their own discard").format(
                    player=sheet.name(winner)
                )
                found.append(Problem(RULE_FORMAT, text))
            else:
                seen.add(winner)
                who = sheet.name(winner) if len(wins) > 1 else None
                value = read_win_value(win)
        read.append(RonWin(winner, tuple(found), value, who))
    return MultipleRon(riichi, deltas, loser, tuple(problems), tuple(read))


def read_win_value(hand: Mapping[str, Any]) -> WinValue:
    """What the hand gives of its win's value (``WinValue``)."""
    han, fu = hand.get("han"), hand.get("fu")
    has_yaku, has_tiles, has_yakuman = "yaku" in hand, "tiles" in hand, "yakuman" in hand
    plain_fu = fu is None or type(fu) is int
    if type(han) is int and plain_fu and not (has_yaku or has_tiles or has_yakuman):
        return _plain_value(han, fu)
    value = read_value(hand)
    yaku = None
    written, given = False, ""
    if has_yaku:
        yaku = MappingProxyType({field: hand[field] for field in YAKU_FIELDS if field in hand})
        written = "han" in hand or has_yakuman
        given = (
            _("{count} yakuman").format(count=value.yakuman)
            if value is not None and value.yakuman
            else _("{han} han").format(han=han)
        )
    tiles = problem = None
    if has_tiles:
        entered = hand["tiles"]
        if isinstance(entered, dict):
            tiles = read_tiles(entered)
        else:
            problem = Problem(RULE_FORMAT, _("tiles is a hand object"))
    unwritten = han is None and not hand.get("yakuman")
    return WinValue(None, value, yaku, written, given, tiles, problem, unwritten)


@lru_cache(maxsize=512)
def _plain_value(han: int, fu: int | None) -> WinValue:
    """The value of a win written as han and fu alone: one frozen object for each of the few values a
    sheet writes."""
    return WinValue((han, fu), Value(han, fu))


def read_tiles(entered: Mapping[str, Any]) -> Tiles:
    """A win's tiles object (``Tiles``)."""
    flags = entered.get("flags") or {}
    read_flags = MappingProxyType(dict(flags)) if isinstance(flags, Mapping) else None
    melds = entered.get("melds")
    # Melds that are no list go on to the evaluator, which refuses them.
    is_open = isinstance(melds, Sequence) and any(
        isinstance(meld, dict) and meld.get("type") != "kan_closed" for meld in melds
    )
    double_riichi = read_flags is not None and bool(read_flags.get("double_riichi"))
    return Tiles(MappingProxyType(dict(entered)), read_flags, double_riichi, is_open)


def add_problems(errors: list[Error], number: int, state: HandState, problems: Problems) -> None:
    """The problems of hand ``number`` added to ``errors``, each placed in its hand (``hand_error``)."""
    for problem in problems:
        errors.append(hand_error(number, state, problem.rule, problem.text))


def seat_of(sheet: Sheet, name: object) -> int | None:
    """The seat of a player named on the sheet; None for anything that is not a name at this table."""
    return sheet.seats.get(name) if isinstance(name, str) else None


def player_seat(sheet: Sheet, name: object, role: str, problems: list[Problem]) -> int | None:
    """The seat of the player a field names; None, with its problem, when missing or unknown."""
    seat = seat_of(sheet, name)
    if seat is None:
        if name is None:
            problems.append(Problem(RULE_FORMAT, _("the {role} is missing").format(role=role)))
        else:
            text = _("the {role} {name} is not a player of this table").format(role=role, name=repr(name))
            problems.append(Problem(RULE_PLAYER, text))
    return seat


def read_seats(sheet: Sheet, names: object, role: str) -> Seats:
    """The players a list names; nobody for an empty (or false) field."""
    if not names:
        return NOBODY
    if isinstance(names, list):
        try:
            return Seats(frozenset([sheet.seats[name] for name in names]))
        except (KeyError, TypeError):
            pass
    else:
        return Seats(_NOBODY, (Problem(RULE_FORMAT, _("{role} is a list of players").format(role=role)),))
    problems: list[Problem] = []
    role_player = _("{role} player").format(role=role)
    seats = [player_seat(sheet, name, role_player, problems) for name in names]
    return Seats(frozenset(seat for seat in seats if seat is not None), tuple(problems))


def read_offenders(sheet: Sheet, names: object) -> Seats:
    """A chombo's offenders (one name or a list); a chombo that names none is a problem of its own."""
    offenders = read_seats(sheet, [names] if isinstance(names, str) else names, "offender")
    if not offenders.seats and not offenders.problems:
        return Seats(_NOBODY, (Problem(RULE_CHOMBO, _("a chombo names its offender")),))
    return offenders


def read_value(hand: Mapping[str, Any]) -> Value | None:
    """A win's han and fu, or its count of yakuman, as written; None when they are no whole numbers."""
    han, fu, yakuman = hand.get("han"), hand.get("fu"), hand.get("yakuman", 0)
    if not is_int(yakuman) or yakuman < 0:
        return None
    if yakuman:
        return Value(0, None, yakuman)
    if not is_int(han) or not (fu is None or is_int(fu)):
        return None
    return Value(han, fu)


def read_deltas(sheet: Sheet, deltas: object) -> Written:
    """The four deltas in seat order, each a whole multiple of 100; a change that is no multiple of 100 is
    a problem and still used, anything else leaves the deltas unusable."""
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
            return Written((a, b, c, d))
    if not isinstance(deltas, dict) or set(deltas) != set(sheet.players):
        unknown = sorted(set(deltas) - set(sheet.players)) if isinstance(deltas, dict) else []
        if unknown:
            text = _("unknown player(s) {names} in deltas").format(names=", ".join(map(repr, unknown)))
            return Written(None, (Problem(RULE_PLAYER, text),))
        return Written(None, (Problem(RULE_FORMAT, _("deltas give the change of each of the 4 players")),))
    values = [deltas[player] for player in sheet.players]
    if not all(is_int(value) for value in values):
        return Written(None, (Problem(RULE_FORMAT, _("deltas are whole numbers of points")),))
    odd = [player for player, value in zip(sheet.players, values, strict=True) if value % 100]
    text = _("the change of {players} is not a multiple of 100").format(players=join(odd))
    return Written(as_changes(values), (Problem(RULE_MULTIPLE, text),))
