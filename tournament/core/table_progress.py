"""Live tables, in plain Python: where each table of a hanchan stands, from the hands its sheet holds so
far (the rules engine's replay of a draft, saved hand by hand by the players or a referee), and which
tables are far behind the others.

A table's state after its last entered hand: each seat's running points (the points after that hand,
as the replay gives them), the riichi sticks on the table (what the points lack of the starting points:
the table is zero-sum, so ``4 * starting points - the points`` lies on it in sticks), the continuance
counters (honba) and the hand being played (East 1 to South 4, and the West round of the online
rules), which follow WRCR 2015 §5.7.7 and §5.7.8 as the replay's ``next_state`` does: a dealer who
wins, or is tenpai at an exhaustive draw, keeps the deal and a counter is added; a non-dealer's win
passes the deal and clears the counters; a draw the dealer is noten at passes the deal and adds a
counter; an abortive draw keeps the deal and adds a counter; a chombo is re-dealt (§7.1) with nothing
added. A sheet of final points only has no hands: its table shows those points.

Slow tables (``slow_tables``), for the head referee: a table still playing is flagged

* **behind** when it has played ``hands_behind`` hands (``HANDS_BEHIND``, 3) or more fewer than the
  median table of the hanchan (the lower median of the hands played at every table whose hands are
  known, finished tables included: they set the pace);
* **idle** when nothing was entered for it for ``idle_minutes`` (``IDLE_MINUTES``, 15) or more: since its
  last entry, or, for a table with no entry yet, since the first entry of any table of the hanchan
  (play was under way then). A hanchan where nobody entered anything flags nobody.

A hand of a 90-minute hanchan takes six to eight minutes, so 15 minutes without an entry is two hands
not entered, and three hands behind the median is a table about twenty minutes late.

A referee's tables (``disputed_first``): the tables whose sheet the players disputed come first, as only
a referee can settle them; the others keep their order.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from scoring.rules.legal import ABORTIVE, CHOMBO, DRAW, MULTIPLE_RON, NAGASHI, RON, TSUMO
from scoring.rules.sheet import ROUND_LABELS, UNREADABLE

HANDS_BEHIND = 3
IDLE_MINUTES = 15

# What a table is doing: no entry yet, hands entered and play going on, the replay says the hanchan is
# over (not submitted yet), or its sheet's status.
WAITING = "waiting"
PLAYING = "playing"
OVER = "over"
FINISHED_STATUSES = ("submitted", "signed", "disputed")

RULE_BEHIND = "hands-behind"
RULE_IDLE = "no-entry"

DISPUTED = "disputed"

T = TypeVar("T")


def disputed_first(tables: Iterable[T], status: Callable[[T], str | None]) -> list[T]:
    """The tables in a referee's order: those whose sheet's ``status`` is disputed first, then the rest,
    each group in the order given (table order; a club session's hanchan order)."""
    return sorted(tables, key=lambda table: status(table) != DISPUTED)


@dataclass(frozen=True, slots=True)
class SeatEntry:
    """Who sits where: ``wind`` 0 (East) to 3 (North), the player's id and name."""

    wind: int
    player: int
    name: str


@dataclass(frozen=True, slots=True)
class TableEntry:
    """What the database holds of one table: its number, its four seats (East first) and its sheet, if
    any: its ``status``, when it was first and last saved, and of the engine's replay as stored only
    what the live state reads (``of_replay``): how many hands (None: a sheet of final points only), the
    last one, whether the hanchan may end there, the final points and the sticks left."""

    table: int
    seats: Sequence[SeatEntry]
    status: str | None = None
    first_entry_at: datetime | None = None
    last_entry_at: datetime | None = None
    hands_played: int | None = None
    last_hand: Mapping[str, Any] | None = None
    finished: bool = False
    final_points: Mapping[str, int] | None = None
    riichi_sticks_left: int = 0

    @classmethod
    def of_replay(
        cls,
        table: int,
        seats: Sequence[SeatEntry],
        status: str | None,
        replay: Mapping[str, Any] | None,
        **more: Any,
    ) -> TableEntry:
        """The entry of a sheet whose whole replay is at hand (``ScoreSheet.replay``)."""
        replay = replay or {}
        hands = replay.get("hands")
        listed: list[Any] | None = hands if isinstance(hands, list) else None
        return cls(
            table,
            seats,
            status,
            hands_played=len(listed) if listed is not None else None,
            last_hand=listed[-1] if listed else None,
            finished=bool(replay.get("finished")),
            final_points=replay.get("final_points"),
            riichi_sticks_left=int(replay.get("riichi_sticks_left") or 0),
            **more,
        )


@dataclass(frozen=True, slots=True)
class TableState:
    """A table as the live pages show it. ``points``: East to North (None where unknown: a sheet without
    them); ``round_index`` the hand being played (0 is East 1), None once the hanchan is over;
    ``hands_played`` None for a sheet of final points only."""

    table: int
    status: str
    seats: tuple[SeatEntry, ...]
    points: tuple[int | None, ...]
    riichi_sticks: int
    honba: int
    round_index: int | None
    hands_played: int | None
    last_entry_at: datetime | None
    first_entry_at: datetime | None = None

    @property
    def playing(self) -> bool:
        """Still to be handed in: waiting for its first entry or playing (the slow tables' field)."""
        return self.status in (WAITING, PLAYING)

    def hand_label(self) -> str | None:
        """The hand being played in English data form (``East 3``), None once the hanchan is over."""
        return None if self.round_index is None else ROUND_LABELS[self.round_index % 16]

    @property
    def dealer(self) -> int | None:
        """The seat (its wind in the seating, 0 East to 3 North) that deals the hand being played: the
        deal passes East, South, West, North in turn, hand by hand (WRCR 2015 §5.7.7); None once over."""
        return None if self.round_index is None else self.round_index % 4

    def seat_winds(self) -> tuple[int | None, ...]:
        """Each seat's wind in the hand being played (0 East to 3 North), East-seat first as ``seats``:
        the dealer is East, the player on the dealer's right South, and so on; the seating's winds (the
        first hand's) are where the seats sit, not what they are once the deal has passed. None once
        the hanchan is over."""
        dealer = self.dealer
        return tuple(None if dealer is None else (seat.wind - dealer) % 4 for seat in self.seats)


def tables_playing(tables: Sequence[TableState], *, hanchan_begun: bool) -> int:
    """How many tables of one hanchan play now. A table whose hanchan is over plays no more; a table
    with a hand entered plays; a table without any entry plays only once its hanchan has begun (its
    clock started, a sheet submitted, or, in a club session, the table formed at the venue): before
    that, "10 of 10 tables playing" would say the opposite of the clock's "not started"."""
    return sum(
        1 for table in tables if table.status == PLAYING or (table.status == WAITING and hanchan_begun)
    )


@dataclass(frozen=True, slots=True)
class Flag:
    """Why a table is flagged: ``rule`` ``hands-behind`` (``hands`` behind a median of ``median``) or
    ``no-entry`` (``minutes`` since the last entry)."""

    rule: str
    hands: int = 0
    median: int = 0
    minutes: int = 0

    def as_json(self) -> dict[str, Any]:
        if self.rule == RULE_BEHIND:
            return {"rule": self.rule, "hands": self.hands, "median": self.median}
        return {"rule": self.rule, "minutes": self.minutes}


def next_hand(hand: Mapping[str, Any]) -> tuple[int, int]:
    """The round index and honba of the hand after ``hand``, a hand of the replay (its ``round``,
    ``dealer``, ``honba`` before it, ``result`` and ``winners`` or ``tenpai``)."""
    round_index = ROUND_LABELS.index(hand["round"])
    honba = int(hand["honba"])
    result = hand["result"]
    dealer = hand["dealer"]
    if result in (RON, TSUMO, MULTIPLE_RON):
        if dealer in hand.get("winners", ()):
            return round_index, honba + 1
        return round_index + 1, 0
    if result in (DRAW, NAGASHI):
        return round_index + (0 if dealer in (hand.get("tenpai") or ()) else 1), honba + 1
    if result == ABORTIVE:
        return round_index, honba + 1
    if result in (CHOMBO, UNREADABLE):
        return round_index, honba
    raise ValueError(f"unknown hand result {result!r}")


def table_state(entry: TableEntry, starting_points: int, riichi_stick: int) -> TableState:
    """Where the table stands (see the module's docstring); ``starting_points`` and ``riichi_stick`` of
    the tournament's ruleset."""
    seats = tuple(sorted(entry.seats, key=lambda seat: seat.wind))
    names = [seat.name for seat in seats]
    start: tuple[int | None, ...] = tuple(starting_points for _ in seats)
    common: dict[str, Any] = {
        "table": entry.table,
        "seats": seats,
        "last_entry_at": entry.last_entry_at,
        "first_entry_at": entry.first_entry_at,
        "hands_played": entry.hands_played,
    }
    if entry.status is None:
        common["hands_played"] = 0
        return TableState(status=WAITING, points=start, riichi_sticks=0, honba=0, round_index=0, **common)
    if entry.status in FINISHED_STATUSES or entry.hands_played is None:
        # A sheet handed in (or of final points only): the table's final points.
        final = entry.final_points or {}
        return TableState(
            status=entry.status if entry.status in FINISHED_STATUSES else OVER,
            points=tuple(final.get(name) for name in names),
            riichi_sticks=entry.riichi_sticks_left,
            honba=0,
            round_index=None,
            **common,
        )
    if entry.last_hand is None:
        return TableState(status=PLAYING, points=start, riichi_sticks=0, honba=0, round_index=0, **common)
    after = [int(entry.last_hand["points"][name]) for name in names]
    sticks = (len(seats) * starting_points - sum(after)) // riichi_stick
    round_index, honba = next_hand(entry.last_hand)
    return TableState(
        status=OVER if entry.finished else PLAYING,
        points=tuple(after),
        riichi_sticks=sticks,
        honba=honba,
        round_index=None if entry.finished else round_index,
        **common,
    )


def slow_tables(
    tables: Sequence[TableState],
    now: datetime,
    *,
    hands_behind: int = HANDS_BEHIND,
    idle_minutes: int = IDLE_MINUTES,
) -> dict[int, tuple[Flag, ...]]:
    """The flags of each table still playing that is far behind the others (see the module's
    docstring), by table number; tables not flagged are left out."""
    known = [table.hands_played for table in tables if table.hands_played is not None]
    median = statistics.median_low(known) if known else 0
    firsts = [table.first_entry_at for table in tables if table.first_entry_at is not None]
    play_began = min(firsts) if firsts else None
    flagged: dict[int, tuple[Flag, ...]] = {}
    for table in tables:
        if not table.playing:
            continue
        flags: list[Flag] = []
        if table.hands_played is not None and median - table.hands_played >= hands_behind:
            flags.append(Flag(RULE_BEHIND, hands=median - table.hands_played, median=median))
        since = table.last_entry_at or play_began
        if since is not None:
            minutes = int((now - since).total_seconds() // 60)
            if minutes >= idle_minutes:
                flags.append(Flag(RULE_IDLE, minutes=minutes))
        if flags:
            flagged[table.table] = tuple(flags)
    return flagged
