"""The score sheet as the replay reads it: players, ruleset and hands, typed and checked for format.

A sheet (plain JSON) lists the players in starting seat order (East, South, West, North) and the hands in
order. Each hand is either an *outcome* (``result``: ron, tsumo, draw or chombo, with its details) or the
four *deltas* written on a paper sheet (riichi stakes paid and sticks collected included); both carry the
hand's riichi declarers. See docs/rules-engine.md for the full format.

This module holds the sheet model: the rule names errors cite, the typed ``Error``, the table before a
hand (``HandState``), the sheet's players and ruleset (``Sheet``, read by ``read_sheet``) and a win's
value (``Value``). ``scoring.rules.entry`` reads the hands once into typed hands; the replay
(``scoring.rules.replay``) walks them; the longer explanations of illegal hands are in
``scoring.rules.explain``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeGuard

from scoring.rules import legal
from scoring.rules.i18n import _, gettext_noop
from scoring.rules.legal import HandOutcome
from scoring.rules.payments import basic_points
from scoring.rules.ruleset import DEFAULT_RULESET, Ruleset, get_ruleset
from scoring.rules.yaku import WinYaku

ROUND_WINDS = ("East", "South", "West", "North")
WIND_LETTERS = ("E", "S", "W", "N")
END_ROUND_INDEX = 8
# An East-only game (``Ruleset.east_only``) ends after East 4.
EAST_END_ROUND_INDEX = 4
UNREADABLE = "unreadable"
_NOBODY: frozenset[int] = frozenset()
ROUND_LABELS = tuple(f"{wind} {number}" for wind in ROUND_WINDS for number in range(1, 5))
# The winds as messages name them, translated when shown (ROUND_LABELS stay English: they are data).
WIND_NAMES = (gettext_noop("East"), gettext_noop("South"), gettext_noop("West"), gettext_noop("North"))

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
# Outcomes the online rules allow and WRCR 2015 does not: their refusals cite the WRCR section that rules
# them out; a ruleset that allows them (``Ruleset.abortive_draws``, ``nagashi_mangan``) checks them.
RULE_ABORTIVE = "abortive-draw (WRCR 2015 §5.7.3)"
RULE_NAGASHI = "nagashi-mangan (WRCR 2015 §5.7.2)"
RULE_BUSTING = "busting (WRCR 2015 §4.1)"


@dataclass(frozen=True, slots=True)
class Error:
    """One thing wrong with a sheet: the hand it is in (its number on the sheet, or None for the sheet as a
    whole), the rule it breaks and the message; ``field`` names the input field when the error is about one
    (the final-points form)."""

    hand: int | None
    rule: str
    message: str
    field: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The error as JSON consumers read it: ``hand``, ``rule``, ``message`` and, when set, ``field``."""
        data: dict[str, Any] = {"hand": self.hand, "rule": self.rule, "message": self.message}
        if self.field is not None:
            data["field"] = self.field
        return data


# How a hanchan stands after a hand (``HandState.end``): going on; over before its last round is played
# out (busting, agari yame, a player reaching the West round's points); or over if the sheet stops here
# (an agari yame the dealer may choose).
PLAYING, OVER, MAY_END = 0, 1, 2
# The West round of the online rules' extension ends with West 4 (an East-only game's South round with
# South 4: ``extension_end``).
WEST_END_ROUND_INDEX = 12


def game_end(ruleset: Ruleset) -> int:
    """The round index after the game's last round: South 4 (a hanchan, WRCR 2015 §5.8) or East 4 (an
    East-only game)."""
    return EAST_END_ROUND_INDEX if ruleset.east_only else END_ROUND_INDEX


def extension_end(ruleset: Ruleset) -> int:
    """The round index after the extension round's last (West 4; South 4 in an East-only game)."""
    return game_end(ruleset) + 4


class HandState(NamedTuple):
    """The table before a hand: ``round_index`` 0 is East 1, 7 is South 4, 8 is past the end (``last``:
    12 when the online rules' West round is played). ``end``: ``PLAYING``, ``OVER`` or ``MAY_END``.

    Immutable like the frozen dataclasses elsewhere; a NamedTuple because the replay makes one per hand
    and a frozen dataclass takes several times longer to build."""

    round_index: int
    honba: int
    sticks: int
    points: tuple[int, int, int, int]
    end: int = PLAYING
    last: int = END_ROUND_INDEX

    @property
    def dealer(self) -> int:
        return self.round_index % 4

    @property
    def finished(self) -> bool:
        return self.end == OVER or self.round_index >= self.last

    @property
    def may_end(self) -> bool:
        """The hanchan is over if the sheet stops here: finished, or an agari yame the dealer may choose."""
        return self.end == MAY_END or self.finished

    def label(self) -> str:
        """East 1 to South 4; hands after the end are labelled on as West 1 and so on."""
        return ROUND_LABELS[self.round_index % 16]

    def round_name(self) -> str:
        """``label`` in the reader's language, for messages."""
        return round_name(self.round_index)


def round_name(round_index: int) -> str:
    """East 1 to South 4 (and on) in the reader's language: the wind of the round and the dealer's turn."""
    wind = _(WIND_NAMES[round_index // 4 % 4])
    return _("{wind} {number}").format(wind=wind, number=round_index % 4 + 1)


class Sheet(NamedTuple):
    """What the replay needs of a sheet besides its hands. ``yaku``: the yaku of each win whose yaku are
    known (entered or from its tiles), by hand number and winner's seat, filled in as the replay reads
    the hands (a dict of its own for every sheet read)."""

    players: tuple[str, str, str, str]
    seats: dict[str, int]
    ruleset: Ruleset
    tables: legal.PaymentTables
    yaku: dict[tuple[int, int], WinYaku]

    def name(self, seat: int) -> str:
        return self.players[seat]

    def names(self, seats: Sequence[int]) -> str:
        return join([self.players[seat] for seat in seats])


def join(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=_(", ").join(names[:-1]), last=names[-1])


def _prefix(number: int, state: HandState) -> str:
    return _("hand {number} ({round}, {honba} honba)").format(
        number=number, round=state.round_name(), honba=state.honba
    )


def hand_error(number: int, state: HandState, rule: str, text: str) -> Error:
    """An error of hand ``number``, its message located: "hand 3 (East 2, 1 honba): ..."."""
    return Error(number, rule, _("{hand}: {problem}").format(hand=_prefix(number, state), problem=text))


def sheet_error(rule: str, message: str) -> Error:
    """An error of the sheet as a whole (no hand)."""
    return Error(None, rule, message)


def is_int(value: object) -> TypeGuard[int]:
    return type(value) is int


def read_sheet(sheet: Mapping[str, Any], ruleset: Ruleset | None) -> tuple[Sheet | None, list[Error]]:
    if not isinstance(sheet, Mapping):
        return None, [sheet_error(RULE_FORMAT, _("a sheet is a JSON object"))]
    players = sheet.get("players")
    if (
        not isinstance(players, list)
        or len(players) != 4
        or not all(isinstance(player, str) and player for player in players)
        or len(set(players)) != 4
    ):
        return None, [sheet_error(RULE_FORMAT, _("a sheet names 4 different players in starting seat order"))]
    if ruleset is None:
        try:
            ruleset = sheet_ruleset(sheet.get("ruleset", DEFAULT_RULESET))
        except (TypeError, ValueError) as problem:
            return None, [sheet_error(RULE_RULESET, str(problem))]
    seats = {player: seat for seat, player in enumerate(players)}
    names = (players[0], players[1], players[2], players[3])
    return Sheet(names, seats, ruleset, legal.payment_tables(ruleset), {}), []


def sheet_ruleset(value: object) -> Ruleset:
    if isinstance(value, str):
        return get_ruleset(value)
    if isinstance(value, dict):
        return Ruleset.from_dict(value)
    raise ValueError(_("the ruleset is a preset name or a ruleset object"))


def unreadable() -> HandOutcome:
    return HandOutcome(UNREADABLE, (0, 0, 0, 0))


def as_changes(values: Sequence[int]) -> tuple[int, int, int, int]:
    return values[0], values[1], values[2], values[3]


class Value(NamedTuple):
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
