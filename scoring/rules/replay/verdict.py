"""What the replay returns: the ``Verdict`` on a sheet and a ``HandRecord`` for each hand replayed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple

from scoring.rules.replay.chombo import Chombo
from scoring.rules.scores import format_score
from scoring.rules.sheet import Error
from scoring.rules.yaku import WinYaku


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
