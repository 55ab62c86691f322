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
annealing), in the generator's order: repeat meetings (over the hanchan played and the whole new
schedule), separation, table repeats (and the same table in consecutive hanchan), then seat winds.

With a cap on repeat meetings (``max_excess``), when the fewest moves leave more than the cap, any two
players may be exchanged: an iterated best-improvement descent trades moves for repeat meetings down to
the cap (docs/seating.md, "Re-seating that keeps seats"), except where seats only change hands.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.rules.i18n import _

from .assignment import assign
from .model import PlayerId, PlayerInfo, Round, RoundInput, SeatingError, SeparationRule

#: Weights of the second objective, in the generator's order of the criteria.
MEETING_WEIGHT = 1_000_000
SPREAD_WEIGHT = 10_000
SEPARATION_WEIGHT = 100_000
TABLE_WEIGHT = 1_000
CONSECUTIVE_WEIGHT = 3_000
WIND_WEIGHT = 10
#: With a cap on repeat meetings, one repeat meeting beyond it outweighs any number of moves there can
#: be, and a move outweighs the second objective.
OVER_CAP_WEIGHT = 10**15
MOVE_WEIGHT = 10**9

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


class _Search:
    """The exchange search of one re-seating over all its hanchan (players as indices).

    ``home[h][p]`` is the published seat ``p`` can keep in hanchan ``h`` (or none); a player away from it
    has moved. ``cap``, when given, is the most repeat meetings the schedule may have before moves are
    traded for them (see :func:`reseat`)."""

    def __init__(
        self,
        n: int,
        tables: list[list[list[int]]],
        home: list[dict[int, tuple[int, int]]],
        history_meet: list[list[int]],
        history_visits: list[list[int]],
        history_winds: list[list[int]],
        last_table: list[int],
        apart: list[list[set[int]] | None],
        rng: random.Random,
    ) -> None:
        self.n = n
        self.tables = tables
        self.home = home
        self.apart = apart
        self.rng = rng
        self.meet = [list(row) for row in history_meet]
        self.visits = [list(row) for row in history_visits]
        self.winds = [list(row) for row in history_winds]
        self.last_table = last_table
        self.rounds = len(tables)
        self.cap: int | None = None
        # With a most meetings of a pair (``meet_cap``): the meetings beyond it, over every pair.
        self.meet_cap: int | None = None
        self.over_meetings = 0
        self.journal: list[tuple[int, tuple[int, int], tuple[int, int]]] | None = None
        table_count = max((len(h) for h in tables), default=0)
        for row in self.visits:
            row.extend([0] * max(0, table_count - len(row)))
        self.excess = sum(max(0, m - 1) for p in range(n) for m in self.meet[p][p + 1 :])
        self.where: list[list[int]] = [[-1] * n for _ in tables]  # hanchan -> player -> table
        self.moves = 0
        for h, hanchan in enumerate(tables):
            for t, table in enumerate(hanchan):
                for w, p in enumerate(table):
                    self.where[h][p] = t
                    self.visits[p][t] += 1
                    self.winds[p][w] += 1
                    if p in home[h] and home[h][p] != (t, w):
                        self.moves += 1
                for a in range(4):
                    for b in range(a + 1, 4):
                        self._meet(table[a], table[b], +1)

    def _meet(self, p: int, q: int, sign: int) -> None:
        before = self.meet[p][q]
        after = before + sign
        self.meet[p][q] = self.meet[q][p] = after
        self.excess += max(0, after - 1) - max(0, before - 1)
        if self.meet_cap is not None:
            self.over_meetings += max(0, after - self.meet_cap) - max(0, before - self.meet_cap)

    def cap_meetings(self, most: int) -> None:
        """No pair to meet more than ``most`` times: the meetings beyond it count as repeat meetings over
        the cap do (see ``key``)."""
        self.meet_cap = most
        self.over_meetings = sum(max(0, m - most) for p in range(self.n) for m in self.meet[p][p + 1 :])

    @staticmethod
    def _pair(m: int) -> int:
        if m <= 1:
            return 0
        extra = m - 1
        return MEETING_WEIGHT * extra + SPREAD_WEIGHT * extra * (extra - 1) // 2

    def _table_at(self, p: int, h: int) -> int:
        if h < 0:
            return self.last_table[p] if h == -1 else -2
        if h >= self.rounds:
            return -2
        return self.where[h][p]

    def _player_cost(self, h: int, t: int, w: int, p: int, others: Sequence[int]) -> int:
        """What ``p`` at seat ``(t, w)`` of hanchan ``h`` costs beside ``others`` (meetings counted as
        they stand, ``p`` seated)."""
        cost = 0
        for q in others:
            cost += self._pair(self.meet[p][q])
        sep = self.apart[h]
        if sep is not None:
            cost += SEPARATION_WEIGHT * sum(1 for q in others if q in sep[p])
        # Linear in the counts, which include ``p`` here: an exchange then changes the sum of C(count, 2)
        # over tables and winds by exactly the difference (a convex measure of repeats).
        cost += TABLE_WEIGHT * (self.visits[p][t] - 1)
        if self._table_at(p, h - 1) == t:
            cost += CONSECUTIVE_WEIGHT
        if self._table_at(p, h + 1) == t:
            cost += CONSECUTIVE_WEIGHT
        cost += WIND_WEIGHT * self.winds[p][w]
        return cost

    def _place(self, h: int, t: int, w: int, p: int, sign: int) -> None:
        for q in self.tables[h][t]:
            if q != p and q >= 0:
                self._meet(p, q, sign)
        self.visits[p][t] += sign
        self.winds[p][w] += sign
        if p in self.home[h] and self.home[h][p] != (t, w):
            self.moves += sign

    def _local(self, h: int, tables: Sequence[int], swapped: Sequence[int]) -> int:
        """The cost seen from the players of ``tables`` (pairs, separation, tables, winds), plus the
        consecutive-table cost the ``swapped`` players carry in the hanchan before and after, plus
        moves and repeat meetings beyond the cap."""
        total = 0
        for t in tables:
            table = self.tables[h][t]
            for w, p in enumerate(table):
                total += self._player_cost(h, t, w, p, [q for q in table if q != p])
        for p in swapped:
            t = self.where[h][p]
            for other in (h - 1, h + 1):
                if 0 <= other < self.rounds and self.where[other][p] == t:
                    total += CONSECUTIVE_WEIGHT
        total += MOVE_WEIGHT * self.moves
        return total + OVER_CAP_WEIGHT * self.over()

    def _swap(self, h: int, a: tuple[int, int], b: tuple[int, int]) -> None:
        (ta, wa), (tb, wb) = a, b
        p, q = self.tables[h][ta][wa], self.tables[h][tb][wb]
        self._place(h, ta, wa, p, -1)
        self.tables[h][ta][wa] = -1
        self._place(h, tb, wb, q, -1)
        self.tables[h][tb][wb] = -1
        self.tables[h][ta][wa] = q
        self._place(h, ta, wa, q, +1)
        self.tables[h][tb][wb] = p
        self._place(h, tb, wb, p, +1)
        self.where[h][q], self.where[h][p] = ta, tb
        if self.journal is not None:
            self.journal.append((h, a, b))

    def over(self) -> int:
        """Repeat meetings above the cap, and meetings of a pair above the most a pair may meet."""
        return (max(0, self.excess - self.cap) if self.cap is not None else 0) + self.over_meetings

    def key(self) -> tuple[int, int, int]:
        """Repeat meetings above the caps, moves, repeat meetings: what the capped search minimises."""
        return (self.over(), self.moves, self.excess)

    def undo(self, mark: int) -> None:
        """Take back the exchanges made since the journal held ``mark`` entries."""
        assert self.journal is not None
        journal, self.journal = self.journal, None
        while len(journal) > mark:
            h, a, b = journal.pop()
            self._swap(h, a, b)
        self.journal = journal

    def perturb(self, kicks: int) -> None:
        """Exchange ``kicks`` players who meet someone again with players of other tables, at random."""
        for _kick in range(kicks):
            h = self.rng.randrange(self.rounds)
            a = self._repeated_seat(h)
            if a is None:
                continue
            others = [t for t in range(len(self.tables[h])) if t != a[0]]
            if not others:
                continue
            self._swap(h, a, (self.rng.choice(others), self.rng.randrange(4)))

    def iterate(self, deadline: float, patience: int) -> None:
        """Iterated descent: kick, descend, keep the result only when it is better (else take it back),
        until the cap and the fewest moves are met, ``patience`` kicks in a row fail, or the deadline."""
        self.journal = []
        self.descend(deadline)
        best = self.key()
        self.journal.clear()
        failures = 0
        while failures < patience and best[0] > 0 and time.monotonic() < deadline:
            self.perturb(1 + self.rng.randrange(3))
            self.descend(deadline)
            now = self.key()
            if now < best:
                best, failures = now, 0
            else:
                self.undo(0)
                failures += 1
            self.journal.clear()
        self.journal = None

    def run(
        self,
        seats: list[list[tuple[int, int]]],
        steps: int,
        deadline: float,
        hot: float = 0.0,
        start: float = 2.0 * MEETING_WEIGHT,
    ) -> None:
        """Simulated annealing over exchanges of two players of ``seats[h]`` in one hanchan. With ``hot``,
        that share of the exchanges starts from a player of a repeated pair (where they pay off)."""
        choices = [h for h, some in enumerate(seats) if len(some) >= 2]
        if not choices or steps <= 0:
            return
        # From accepting a repeat meeting (or a move, from ``start``) to accepting nothing worse.
        temperature = start
        cooling = math.exp(math.log(1e-9 * MEETING_WEIGHT / start) / steps)
        for step in range(steps):
            if (step & 255) == 0 and time.monotonic() > deadline:
                return
            h = self.rng.choice(choices)
            some = seats[h]
            a = self._repeated_seat(h) if hot and self.rng.random() < hot else None
            if a is None:
                a = self.rng.choice(some)
            b = self.rng.choice(some)
            if a == b:
                continue
            tables = (a[0],) if a[0] == b[0] else (a[0], b[0])
            swapped = (self.tables[h][a[0]][a[1]], self.tables[h][b[0]][b[1]])
            before = self._local(h, tables, swapped)
            self._swap(h, a, b)
            after = self._local(h, tables, swapped)
            delta = after - before
            if delta > 0 and self.rng.random() >= math.exp(-delta / max(temperature, 1e-9)):
                self._swap(h, a, b)
            temperature *= cooling

    def descend(self, deadline: float) -> None:
        """Best-improvement exchanges from every seat whose player meets someone there more than once:
        each is tried against every seat of another table of its hanchan, the best taken while it lowers
        the cost (repeat meetings beyond the cap first, then moves, then the second objective)."""
        tried: set[tuple[int, int, int]] = set()
        while time.monotonic() < deadline:
            hot = [
                (h, t, w)
                for h, hanchan in enumerate(self.tables)
                for t, table in enumerate(hanchan)
                for w, p in enumerate(table)
                if (h, t, w) not in tried and any(self.meet[p][q] > 1 for q in table if q != p)
            ]
            if not hot:
                return
            h, t, w = hot[self.rng.randrange(len(hot))]
            tried.add((h, t, w))
            best: tuple[int, tuple[int, int]] | None = None
            journal, self.journal = self.journal, None  # trials taken back at once: not journalled
            for tb, table in enumerate(self.tables[h]):
                if tb == t:
                    continue
                for wb in range(4):
                    swapped = (self.tables[h][t][w], table[wb])
                    before = self._local(h, (t, tb), swapped)
                    self._swap(h, (t, w), (tb, wb))
                    delta = self._local(h, (t, tb), swapped) - before
                    self._swap(h, (t, w), (tb, wb))
                    if delta < 0 and (best is None or delta < best[0]):
                        best = (delta, (tb, wb))
            self.journal = journal
            if best is not None:
                self._swap(h, (t, w), best[1])
                tried.clear()

    def _repeated_seat(self, h: int) -> tuple[int, int] | None:
        """A seat of hanchan ``h`` whose player meets someone at their table more than once."""
        hanchan = self.tables[h]
        t = self.rng.randrange(len(hanchan))
        for k in range(len(hanchan)):
            table = hanchan[(t + k) % len(hanchan)]
            for w, p in enumerate(table):
                if any(self.meet[p][q] > 1 for q in table if q != p):
                    return ((t + k) % len(hanchan), w)
        return None


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
    search = _Search(
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
