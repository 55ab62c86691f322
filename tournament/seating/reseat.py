"""Re-seating that keeps seats: the remaining hanchan after a change of the field, moving as few players as
possible from the published schedule.

A player *moves* in a hanchan when they were seated in the published schedule of that hanchan, still play,
and their table or seat wind differs (sitting out where a seat was published counts as a move). A player
without a published seat there (a late arrival, a substitute called in, a player who was to sit out) joins;
a player no longer in the field leaves. Neither is a move.

The fewest moves are known exactly, hanchan by hanchan: every player who keeps a published seat at a table
that still exists can stay, so the only players who must move are those of the tables removed (the highest
numbers, since tables are numbered 1 to T) and, when some must sit out, the seated players chosen to sit out.
Everyone else stays; the players who move or join fill the seats left free (by a player who left or sat
out, or at a new table). :func:`reseat` keeps exactly those seats, so its moves meet the bound except where
the fair rotation of sit-outs (nobody sits out twice before everyone has once) picks a player who had a
seat while another without one had sat out more: the bound ignores the rotation and stays a bound.

Who takes which free seat is the second objective, searched by exchanges of two movers (simulated
annealing, :mod:`.free_seats`), in the generator's order: repeat meetings (over the hanchan played and
the whole new schedule), separation, table repeats (and the same table in consecutive hanchan), then seat
winds.

With a cap on repeat meetings (``max_excess``), when the fewest moves leave more than the cap, any two
players may be exchanged: an iterated best-improvement descent trades moves for repeat meetings down to
the cap (docs/seating.md, "Re-seating that keeps seats"), except where seats only change hands.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.rules.i18n import _

from .assignment import assign
from .free_seats import FreeSeatSearch
from .model import PlayerId, PlayerInfo, Round, RoundInput, SeatingError, SeparationRule

#: Exchanges tried per movable seat.
STEPS_PER_SEAT = 400
#: Exchanges per seat of the low-temperature search after the descent towards a cap (see reseat).
CLEANUP_STEPS_PER_SEAT = 40
CLEANUP_STEPS = 20_000
#: Kicks in a row without a better result before the iterated descent towards a cap gives up.
ITERATION_PATIENCE = 200
#: The wall-clock cap when none is given (the work budgets normally end first: about 1.3 s at 172 players).
DEFAULT_TIME_LIMIT = 4.0


@dataclass(frozen=True)
class Reseat:
    """The remaining hanchan re-seated, with what changed from the published schedule.

    ``rounds[h]`` is hanchan ``h`` of the remaining ones (tables of players East to North); ``moved[h]``,
    ``joined[h]`` and ``sitting_out[h]`` name its players who moved, who joined without a published seat,
    and who sit out (in the order of ``players``). ``lower_bound`` is the fewest moves any re-seating of
    this field can make, proven by counting; ``moves`` the total of ``moved``.
    """

    rounds: tuple[Round, ...]
    moved: tuple[tuple[PlayerId, ...], ...]
    joined: tuple[tuple[PlayerId, ...], ...]
    sitting_out: tuple[tuple[PlayerId, ...], ...]
    lower_bound: int
    lower_bounds: tuple[int, ...]

    @property
    def moves(self) -> int:
        return sum(len(m) for m in self.moved)

    @property
    def optimal(self) -> bool:
        """Whether the moves are proven the fewest possible (they meet the bound)."""
        return self.moves == self.lower_bound

    def as_lists(self) -> list[list[list[PlayerId]]]:
        return [[list(table) for table in hanchan] for hanchan in self.rounds]


def seat_map(hanchan: Sequence[Sequence[PlayerId]]) -> dict[PlayerId, tuple[int, int]]:
    """Each player's ``(table, wind)`` in one hanchan (0-based)."""
    return {p: (t, w) for t, table in enumerate(hanchan) for w, p in enumerate(table)}


def moved_players(
    before: Sequence[Sequence[PlayerId]], after: Sequence[Sequence[PlayerId]], field: Sequence[PlayerId]
) -> list[PlayerId]:
    """The players of ``field`` seated in ``before`` whose table or wind in ``after`` differs (or who have
    no seat there), in the order of ``field``."""
    old, new = seat_map(before), seat_map(after)
    return [p for p in field if p in old and new.get(p) != old[p]]


def _checked(published: Sequence[RoundInput], ids: Sequence[PlayerId]) -> list[list[list[PlayerId]]]:
    out: list[list[list[PlayerId]]] = []
    for h, hanchan in enumerate(published):
        seen: set[PlayerId] = set()
        tables: list[list[PlayerId]] = []
        for t, table in enumerate(hanchan):
            if len(table) != 4:
                raise SeatingError(
                    _("published hanchan {number}, table {table}: expected 4 players").format(
                        number=h + 1, table=t + 1
                    )
                )
            for p in table:
                if p in seen:
                    raise SeatingError(
                        _("published hanchan {number}: player {player} seated twice").format(
                            number=h + 1, player=repr(p)
                        )
                    )
                seen.add(p)
            tables.append(list(table))
        out.append(tables)
    if len(set(ids)) != len(ids):
        raise SeatingError(_("player ids must be unique"))
    if len(ids) < 4:
        raise SeatingError(_("at least 4 players are needed, got {count}").format(count=len(ids)))
    return out


@dataclass(frozen=True)
class SitOuts:
    """Who sits out each remaining hanchan (``chosen``), the published seats that costs (``moves``: a
    player who sits out where they had a seat at a table that remains), and ``bound``, the fewest seats
    any fair rotation can cost, proven (see :func:`choose_sit_outs`)."""

    chosen: list[list[PlayerId]]
    moves: int
    bound: int


def choose_sit_outs(
    published: Sequence[Sequence[Sequence[PlayerId]]],
    ids: Sequence[PlayerId],
    tables: int,
    sat_out: Mapping[PlayerId, int],
) -> SitOuts:
    """Who sits out each remaining hanchan when ``len(ids)`` is ``4 * tables`` plus a few: fair, and costing
    the fewest published seats.

    Fair: a player sits out only when nobody has sat out fewer times (``sat_out`` counts the hanchan
    already sat out). So the sit-outs come in *levels*: level ``L`` is every player who has sat out ``L``
    times or fewer, once each, and takes the sit-out slots (``extra`` a hanchan, in the order of the
    hanchan) after level ``L - 1``; the last level may be partial. Within a level any player may take any
    of its slots, so each level is an assignment of its slots to its players, solved exactly (least cost:
    a sit-out where the player would keep a published seat costs one move; among equals the later in
    ``ids``, the last to check in). A hanchan where one level ends and the next begins cannot have a
    player twice: the next level is solved without the players the one before put in that hanchan.
    ``bound`` is the same levels solved each on its own, without that rule: a relaxation, so no fair
    rotation costs fewer seats; where the two agree (nearly always) the sit-outs are proven the fewest."""
    extra = len(ids) - 4 * tables
    chosen: list[list[PlayerId]] = [[] for _ in published]
    if extra <= 0 or not published:
        return SitOuts(chosen, 0, 0)
    order = {p: i for i, p in enumerate(ids)}
    counts = {p: int(sat_out.get(p, 0)) for p in ids}
    keeps = [{p for p, (t, _w) in seat_map(hanchan).items() if t < tables} for hanchan in published]
    slots = extra * len(published)
    later = len(ids) * slots + 1  # one move outweighs every tie-break together
    levels: list[tuple[list[PlayerId], range]] = []
    start, level = 0, min(counts.values())
    while start < slots:
        members = [p for p in ids if counts[p] <= level]
        taken = min(len(members), slots - start)
        levels.append((members, range(start, start + taken)))
        start, level = start + taken, level + 1

    def solve(members: list[PlayerId], positions: range, barred: set[tuple[PlayerId, int]]) -> list[int]:
        hanchan_of = [position // extra for position in positions]
        cost = [
            [
                None if (p, h) in barred else (later if p in keeps[h] else 0) + (len(ids) - 1 - order[p])
                for p in members
            ]
            for h in hanchan_of
        ]
        return assign(cost)

    moves = bound = 0
    barred: set[tuple[PlayerId, int]] = set()
    for members, positions in levels:
        hanchan_of = [position // extra for position in positions]
        relaxed = solve(members, positions, set())
        bound += sum(1 for row, col in enumerate(relaxed) if members[col] in keeps[hanchan_of[row]])
        clash = any((members[col], hanchan_of[row]) in barred for row, col in enumerate(relaxed))
        picks = solve(members, positions, barred) if clash else relaxed
        barred = set()
        for row, col in enumerate(picks):
            p, h = members[col], hanchan_of[row]
            chosen[h].append(p)
            barred.add((p, h))
            moves += p in keeps[h]
    return SitOuts([sorted(c, key=order.__getitem__) for c in chosen], moves, bound)


def _separation_sets(
    infos: Sequence[PlayerInfo], rule: SeparationRule | None, first_hanchan: int, count: int
) -> list[list[set[int]] | None]:
    """For every remaining hanchan, each player's set of players to keep apart (or ``None``)."""
    out: list[list[set[int]] | None] = [None] * count
    if rule is None or not rule.attributes():
        return out
    for h in range(count):
        number = first_hanchan + h
        active = [name for name, allowed_from in rule.attributes() if number < allowed_from]
        if not active:
            continue
        sets: list[set[int]] = [set() for _ in infos]
        for name in active:
            buckets: dict[str, list[int]] = {}
            for i, info in enumerate(infos):
                value = getattr(info, name)
                if value not in (None, ""):
                    buckets.setdefault(str(value), []).append(i)
            for members in buckets.values():
                for i in members:
                    sets[i].update(j for j in members if j != i)
        out[h] = sets
    return out


def _forced_sit_outs(
    published: Sequence[Sequence[Sequence[PlayerId]]], ids: Sequence[PlayerId], tables: int
) -> list[int]:
    """The part of each hanchan's counting bound that sit-outs force (``lower_bound``)."""
    extra = len(ids) - 4 * tables
    field = set(ids)
    out = []
    for hanchan in published:
        seats = seat_map(hanchan)
        keepers = sum(1 for p, (t, _w) in seats.items() if p in field and t < tables)
        out.append(max(0, extra - (len(field) - keepers)))
    return out


def lower_bound(
    published: Sequence[Sequence[Sequence[PlayerId]]], ids: Sequence[PlayerId], tables: int
) -> list[int]:
    """The fewest moves of each remaining hanchan, by counting: every published seat of a table numbered
    ``tables`` or more is lost, and when ``len(ids) - 4 * tables`` must sit out, those beyond the players
    without a seat to lose are players who had one."""
    extra = len(ids) - 4 * tables
    field = set(ids)
    out = []
    for hanchan in published:
        seats = seat_map(hanchan)
        lost = sum(1 for p, (t, _w) in seats.items() if p in field and t >= tables)
        keepers = sum(1 for p, (t, _w) in seats.items() if p in field and t < tables)
        free_to_sit_out = len(field) - keepers
        out.append(lost + max(0, extra - free_to_sit_out))
    return out


def reseat(
    published: Sequence[RoundInput],
    players: Sequence[PlayerInfo | PlayerId],
    *,
    played: Sequence[RoundInput] = (),
    separate: SeparationRule | None = None,
    sat_out: Mapping[PlayerId, int] | None = None,
    max_excess: int | None = None,
    max_meetings: int | None = None,
    seed: int = 0,
    time_limit: float | None = None,
) -> Reseat:
    """Re-seat the remaining hanchan ``published`` (as they were published) for the field ``players``.

    ``players`` are those who play the remaining hanchan (who is in after the change), in the order that
    decides who sits out first among equals (the last first); with ``4 * T + k`` of them, ``T`` tables
    and ``k`` sit out each hanchan, in rotation (``sat_out``: hanchan each has sat out already).
    ``played`` are the hanchan before (their meetings, tables and winds count). Separation follows the
    generator's rule, hanchan numbered after ``played``.

    The moves are the fewest (see the module), unless ``max_excess`` is given and the fewest moves leave
    more repeat meetings (over ``played`` and the remaining hanchan) than that: then players are moved to
    bring them down to ``max_excess`` with as few further moves as the search finds, except where seats
    only change hands (the same tables, and nobody has to move), where nobody moves (the service passes
    the repeat meetings of a full re-optimisation, so that the proposal is never worse on them where the
    search can help it). ``max_meetings``, when given, is the most times a pair may meet (the service
    passes the best schedule's): a pair the fewest moves would make meet more often is traded for
    moves the same way. Deterministic for a seed unless ``time_limit``
    (seconds) cuts the search of the second objective short; the moves do not depend on it.
    """
    started = time.monotonic()
    infos = [p if isinstance(p, PlayerInfo) else PlayerInfo(p) for p in players]
    ids = [info.id for info in infos]
    rounds = _checked(published, ids)
    history = _checked(played, ids) if played else []
    tables = len(ids) // 4
    if not rounds:
        return Reseat((), (), (), (), 0, ())
    sit_outs = choose_sit_outs(rounds, ids, tables, sat_out or {})
    outs = sit_outs.chosen
    bounds = lower_bound(rounds, ids, tables)
    # The seats lost to the tables removed, and to the sit-outs of a fair rotation at the fewest.
    lost = sum(
        bound - forced for bound, forced in zip(bounds, _forced_sit_outs(rounds, ids, tables), strict=True)
    )
    fewest = lost + sit_outs.bound

    # Players as indices: the field first, then anyone else seen (only their history matters).
    index: dict[PlayerId, int] = {p: i for i, p in enumerate(ids)}
    for hanchan in [*history, *rounds]:
        for table in hanchan:
            for p in table:
                index.setdefault(p, len(index))
    n = len(index)
    field_count = len(ids)
    history_meet = [[0] * n for _ in range(n)]
    history_visits = [[0] * tables for _ in range(n)]
    history_winds = [[0] * 4 for _ in range(n)]
    last_table = [-2] * n
    for h, hanchan in enumerate(history):
        for t, table in enumerate(hanchan):
            members = [index[p] for p in table]
            for w, i in enumerate(members):
                history_winds[i][w] += 1
                if t < tables:
                    history_visits[i][t] += 1
                if h == len(history) - 1:
                    last_table[i] = t
            for a in range(4):
                for b in range(a + 1, 4):
                    history_meet[members[a]][members[b]] += 1
                    history_meet[members[b]][members[a]] += 1

    new_tables: list[list[list[int]]] = []
    movable: list[list[tuple[int, int]]] = []
    home: list[dict[int, tuple[int, int]]] = []
    for h, hanchan in enumerate(rounds):
        out = {index[p] for p in outs[h]}
        seats: list[list[int]] = [[-1] * 4 for _ in range(tables)]
        kept: dict[int, tuple[int, int]] = {}
        for t, table in enumerate(hanchan):
            if t >= tables:
                continue
            for w, p in enumerate(table):
                i = index[p]
                if i < field_count and i not in out:
                    seats[t][w] = i
                    kept[i] = (t, w)
        free = [(t, w) for t in range(tables) for w in range(4) if seats[t][w] < 0]
        movers = [i for i in range(field_count) if i not in kept and i not in out]
        if len(free) != len(movers):  # equal by construction; a guard against a broken input
            raise SeatingError(_("the remaining hanchan cannot seat this field"))
        for (t, w), i in zip(free, movers, strict=True):
            seats[t][w] = i
        new_tables.append(seats)
        movable.append(free)
        home.append(kept)

    infos_by_index = infos + [PlayerInfo(p) for p in list(index)[field_count:]]
    apart = _separation_sets(infos_by_index, separate, len(history) + 1, len(rounds))
    search = FreeSeatSearch(
        n,
        new_tables,
        home,
        history_meet,
        history_visits,
        history_winds,
        last_table,
        apart,
        random.Random(seed),
    )
    deadline = started + (DEFAULT_TIME_LIMIT if time_limit is None else time_limit)
    # First who takes which free seat (the moves stay the fewest); then, if that leaves more repeat
    # meetings than the cap, exchanges of anyone, trading moves for repeat meetings down to the cap.
    search.run(movable, STEPS_PER_SEAT * sum(len(seats) for seats in movable), deadline)
    # A seat that only changes hands (as many tables, nobody has to move) moves nobody, whatever the cap:
    # the newcomer's repeat meetings are what the proposal then states.
    changes_hands = sum(bounds) == 0 and all(len(hanchan) == tables for hanchan in rounds)
    if max_meetings is not None:
        search.cap_meetings(max_meetings)
    over = (max_excess is not None and search.excess > max_excess) or search.over_meetings > 0
    if over and not changes_hands:
        search.cap = max_excess
        every = [[(t, w) for t in range(tables) for w in range(4)] for _ in rounds]
        search.iterate(deadline, ITERATION_PATIENCE)
        search.run(
            every, min(CLEANUP_STEPS, CLEANUP_STEPS_PER_SEAT * 4 * tables * len(rounds)), deadline, hot=0.5
        )

    ids_by_index = list(index)
    out_rounds = tuple(
        tuple(tuple(ids_by_index[i] for i in table) for table in hanchan) for hanchan in search.tables
    )
    moved = []
    joined = []
    for h, hanchan in enumerate(rounds):
        old = seat_map(hanchan)
        moved.append(tuple(moved_players(hanchan, out_rounds[h], ids)))
        now = seat_map(out_rounds[h])
        joined.append(tuple(p for p in ids if p in now and p not in old))
    return Reseat(
        rounds=out_rounds,
        moved=tuple(moved),
        joined=tuple(joined),
        sitting_out=tuple(tuple(o) for o in outs),
        lower_bound=max(sum(bounds), fewest),
        lower_bounds=tuple(bounds),
    )


def renumbered(
    rounds: Sequence[Sequence[Sequence[PlayerId]]], published: Sequence[Sequence[Sequence[PlayerId]]]
) -> list[list[list[PlayerId]]]:
    """``rounds`` with each hanchan's tables renumbered to keep the most published seats: the tables are
    the same (who meets whom does not change), only their numbers, chosen by an exact assignment of the
    new tables to the numbers, each worth the players it would keep at their published table and wind
    (and, below that, at their published table)."""
    out: list[list[list[PlayerId]]] = []
    for h, hanchan in enumerate(rounds):
        before = seat_map(published[h]) if h < len(published) else {}
        count = len(hanchan)
        cost = [
            [
                -sum(
                    (4 * count + 1) * (before.get(p) == (number, w)) + (before.get(p, (-1, -1))[0] == number)
                    for w, p in enumerate(table)
                )
                for number in range(count)
            ]
            for table in hanchan
        ]
        numbers = assign(cost)
        tables: list[list[PlayerId]] = [[] for _ in range(count)]
        for table, number in zip(hanchan, numbers, strict=True):
            tables[number] = list(table)
        out.append(tables)
    return out
