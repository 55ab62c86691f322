"""Plain data types of the seating generator: players, separation rules, schedules.

A *hanchan* (round) is a tuple of tables; the index of a table in its hanchan is its table number
(0-based here, shown 1-based to people), and the index of a player at a table is the seat wind:
0 East, 1 South, 2 West, 3 North.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from scoring.rules.i18n import _

PlayerId = int | str
Table = tuple[PlayerId, ...]
Round = tuple[Table, ...]
RoundInput = Sequence[Sequence[PlayerId]]

WINDS: Final = ("East", "South", "West", "North")

#: Value of a :class:`SeparationRule` field meaning "never at the same table".
NEVER: Final = 1_000_000


class SeatingError(ValueError):
    """The input cannot be seated (wrong player count, bad fixed hanchan, ...)."""


@dataclass(frozen=True)
class PlayerInfo:
    """One registered player. ``team``, ``club`` and ``country`` only matter to a :class:`SeparationRule`."""

    id: PlayerId
    team: str | None = None
    club: str | None = None
    country: str | None = None


@dataclass(frozen=True)
class SeparationRule:
    """Keep players who share a team, club or country apart.

    Each field is ``None`` (no rule for that attribute), :data:`NEVER` (they never share a table), or the
    first hanchan, counted from 1, in which they may share a table: ``SeparationRule(country=6)`` keeps
    compatriots apart in hanchan 1 to 5.

    Separation ranks right after repeat meetings: a schedule never trades a repeat meeting for it, but it
    is never traded for table numbers, winds or common opponents (those are arranged around the groups).
    """

    team: int | None = None
    club: int | None = None
    country: int | None = None

    def attributes(self) -> tuple[tuple[str, int], ...]:
        """``(attribute, first hanchan allowed)`` for every active attribute."""
        out: list[tuple[str, int]] = []
        for name in ("team", "club", "country"):
            value = getattr(self, name)
            if value is not None:
                if value < 1:
                    raise SeatingError(
                        _("separation of {attribute}: the first hanchan allowed must be >= 1").format(
                            attribute=name
                        )
                    )
                out.append((name, int(value)))
        return tuple(out)


@dataclass(frozen=True)
class Schedule:
    """A complete seating: ``rounds[h][t]`` is the table ``t`` of hanchan ``h`` as (East, South, West, North).

    ``fixed_rounds`` leading hanchan were given (already played) and are reproduced unchanged.
    ``method`` names how the groups were built (an algebraic construction or the search).
    """

    players: tuple[PlayerId, ...]
    rounds: tuple[Round, ...]
    seed: int = 0
    fixed_rounds: int = 0
    method: str = ""

    @property
    def tables(self) -> int:
        return len(self.rounds[-1]) if self.rounds else 0

    def as_lists(self) -> list[list[list[PlayerId]]]:
        """The JSON shape ``[[[e, s, w, n], ...tables], ...hanchan]``."""
        return [[list(table) for table in hanchan] for hanchan in self.rounds]

    def to_json_dict(self) -> dict[str, list[list[list[PlayerId]]]]:
        return {"rounds": self.as_lists()}

    def table_of(self, hanchan: int, player: PlayerId) -> tuple[int, int]:
        """``(table number, seat wind)`` of ``player`` in hanchan ``hanchan`` (both 0-based)."""
        for t, table in enumerate(self.rounds[hanchan]):
            for seat, p in enumerate(table):
                if p == player:
                    return t, seat
        raise KeyError(player)
