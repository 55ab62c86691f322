"""A game log as read: its bounds, the rule names of its refusals, the names its results go by, and
the log itself (``GameLog``), hand by hand (``LogHand``) and win by win (``Win``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TypeVar

from scoring.rules.i18n import _, gettext_noop
from scoring.rules.ruleset import FOUR_KONGS, FOUR_RIICHI, FOUR_WINDS, NINE_TERMINALS, TRIPLE_RON
from scoring.rules.sheet import ROUND_WINDS, round_name
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


RED_FIVES = "赤ドラ"


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
        return four(
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


def hand_label(round_index: int, honba: int) -> str:
    """A hand's name, from "East 1, 0 honba" to "South 4, 2 honba"; tenhou's West round is named on."""
    return f"{ROUND_WINDS[round_index // 4 % 4]} {round_index % 4 + 1}, {honba} honba"


def hand_name(number: int, round_index: int, honba: int) -> str:
    """A hand as the refusals name it, in the reader's language: "hand 3 (East 2, 1 honba)". (The label
    of a finding, ``hand_label``, stays English: it is stored with the sheet version.)"""
    return _("hand {number} ({round}, {honba} honba)").format(
        number=number, round=round_name(round_index), honba=honba
    )


def four(values: Sequence[_T]) -> tuple[_T, _T, _T, _T]:
    return values[0], values[1], values[2], values[3]


def refusal(field: str, message: str, *, hand: int | None = None, rule: str = RULE_LOG) -> Refusal:
    return Refusal.of([Problem(field, rule, message, hand=hand)])
