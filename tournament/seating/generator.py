"""The seating generator: groups, then table numbers, then seat winds.

Quality criteria, in this order:

1. no pair of players at one table more than once where possible, else as few repeat meetings as
   possible (and among those, as few pairs meeting three times or more);
2. separation of teams, clubs or countries when asked for (see :class:`SeparationRule`);
3. no player at the same table number twice where possible (WRCR 2015 §8.1), else as few table repeats as
   possible, at most ``ceil(R/T)`` visits to any table, never the same table in consecutive hanchan;
4. every player in each wind ``floor(R/4)`` to ``ceil(R/4)`` times;
5. pairs who never meet share as many common opponents as possible, and the field never splits.

Table numbers and winds are arranged around any grouping, so they never cost anything to criteria 1 and
2; common opponents are improved only by moves that keep criteria 1 and 2 as they are.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scoring.rules.i18n import _

from . import constructions, cyclic, search
from .joint import JointTableSearch, table_base
from .model import (
    PlayerId,
    PlayerInfo,
    Round,
    RoundInput,
    Schedule,
    SeatingError,
    SeparationRule,
)
from .opponents import OpponentSearch, connect_field
from .search import Budget, Groups, GroupState
from .shipped import shipped_exact, shipped_schedule, shipped_tables
from .winds import assign_winds

Progress = Callable[[float], None]

#: Fields up to this size get the joint search of groups and table numbers (joint.JointTableSearch.joint).
SMALL_FIELD = 48
#: Work for that joint search: about 1.3 s (units of about 0.2 us).
JOINT_UNITS = 7_000_000

#: 64 players with this many hanchan start from AG(3, 4) on chosen directions rather than from the
#: transversal design: their strangers share 2 to 12 common opponents where the transversal design
#: leaves 0 to 10 (measured; both keep every table new). From 11 hanchan on, table numbers for these
#: groups need exchanges of players that undo the gain.
AFFINE_DIRECTIONS = (5, 10)


def default_time_limit(n: int, rounds: int) -> float:
    """Safety cap on the wall-clock time when none is given (the search budgets normally end first)."""
    return 8.0 if n <= 256 else 50.0


def _normalise_players(players: Sequence[PlayerInfo | PlayerId] | int) -> list[PlayerInfo]:
    if isinstance(players, int):
        if isinstance(players, bool):
            raise SeatingError(_("the number of players must be an integer"))
        return [PlayerInfo(i) for i in range(1, players + 1)]
    out: list[PlayerInfo] = []
    for p in players:
        out.append(p if isinstance(p, PlayerInfo) else PlayerInfo(p))
    ids = [p.id for p in out]
    if len(set(ids)) != len(ids):
        raise SeatingError(_("player ids must be unique"))
    return out


def validate(n: int, rounds: int) -> None:
    if n < 4:
        raise SeatingError(_("at least 4 players are needed, got {count}").format(count=n))
    if n % 4:
        raise SeatingError(_("the number of players must be a multiple of 4, got {count}").format(count=n))
    if rounds < 1:
        raise SeatingError(_("at least one hanchan is needed, got {count}").format(count=rounds))


def _separation_matrices(
    infos: Sequence[PlayerInfo], rule: SeparationRule | None, first_free: int, free: int
) -> list[list[bytearray] | None]:
    """For every free hanchan, the matrix "these two players must be kept apart" (or ``None``)."""
    out: list[list[bytearray] | None] = [None] * free
    if rule is None:
        return out
    attributes = rule.attributes()
    if not attributes:
        return out
    n = len(infos)
    cache: dict[tuple[str, ...], list[bytearray] | None] = {}
    for r in range(free):
        hanchan = first_free + r + 1  # 1-based
        active = tuple(name for name, allowed_from in attributes if hanchan < allowed_from)
        if active not in cache:
            if not active:
                cache[active] = None
            else:
                matrix = [bytearray(n) for _ in range(n)]
                for name in active:
                    buckets: dict[str, list[int]] = {}
                    for i, info in enumerate(infos):
                        value = getattr(info, name)
                        if value is not None and value != "":
                            buckets.setdefault(str(value), []).append(i)
                    for members in buckets.values():
                        for p in members:
                            row = matrix[p]
                            for q in members:
                                if q != p:
                                    row[q] += 1
                cache[active] = matrix
        out[r] = cache[active]
    return out


class _History:
    def __init__(self, n: int, tables: int, index: dict[PlayerId, int], fixed: list[Round]) -> None:
        self.meet = [bytearray(n) for _ in range(n)]
        self.visits = [[0] * tables for _ in range(n)]
        self.winds = [[0] * 4 for _ in range(n)]
        self.last_table = [-1] * n
        for h, hanchan in enumerate(fixed):
            for t, table in enumerate(hanchan):
                members = [index[p] for p in table if p in index]
                for seat, p in enumerate(table):
                    if p in index:
                        i = index[p]
                        self.winds[i][seat] += 1
                        if t < tables:
                            self.visits[i][t] += 1
                            if h == len(fixed) - 1:
                                self.last_table[i] = t
                for a in range(len(members)):
                    for b in range(a + 1, len(members)):
                        self.meet[members[a]][members[b]] += 1
                        self.meet[members[b]][members[a]] += 1


def normalise_fixed(fixed_rounds: Sequence[RoundInput]) -> list[Round]:
    """Hanchan already played, as tuples of tables; refuses a table without four players or a player
    seated twice in one hanchan (:class:`SeatingError`). Shared with :func:`.swiss.swiss_round`."""
    out: list[Round] = []
    for h, hanchan in enumerate(fixed_rounds):
        seen: set[tuple[str, PlayerId]] = set()
        tables: list[tuple[PlayerId, ...]] = []
        for t, table in enumerate(hanchan):
            table_t = tuple(table)
            if len(table_t) != 4:
                raise SeatingError(
                    _("played hanchan {number}, table {table}: expected 4 players").format(
                        number=h + 1, table=t + 1
                    )
                )
            for p in table_t:
                key = (type(p).__name__, p)
                if key in seen:
                    raise SeatingError(
                        _("played hanchan {number}: player {player} seated twice").format(
                            number=h + 1, player=repr(p)
                        )
                    )
                seen.add(key)
            tables.append(table_t)
        out.append(tuple(tables))
    return out


#: The seed of the searches for a fresh schedule; any other seed relabels its players (see generate).
CANONICAL_SEED = 0


#: Fresh schedules already searched in this process, by (players, hanchan, attempts): the search of a size
#: does not depend on the seed, so an organiser who tries another seed (or a worker that seats a second
#: tournament of the same size) gets the relabelled schedule at once. Only searches run without a caller's
#: time limit are kept (their budgets, not the clock, ended them), and only the most recent few.
_FRESH_SEARCHED: dict[tuple[int, int, int], tuple[str, tuple[tuple[tuple[int, ...], ...], ...]]] = {}
_FRESH_KEPT = 16


def _remember_fresh(key: tuple[int, int, int], method: str, seated: list[Groups]) -> None:
    _FRESH_SEARCHED.pop(key, None)
    _FRESH_SEARCHED[key] = (method, tuple(tuple(tuple(g) for g in hanchan) for hanchan in seated))
    while len(_FRESH_SEARCHED) > _FRESH_KEPT:
        del _FRESH_SEARCHED[next(iter(_FRESH_SEARCHED))]


def _relabel(groups: list[Groups], rng: random.Random, n: int) -> list[Groups]:
    perm = list(range(n))
    rng.shuffle(perm)
    return [[[perm[p] for p in g] for g in hanchan] for hanchan in groups]


def _fit_labels(
    groups: list[Groups], separation: Sequence[list[bytearray] | None], rng: random.Random, steps: int
) -> list[Groups]:
    """Rename the players of a construction so that those to be kept apart land where the construction
    never puts them together (repeat meetings are unchanged by a renaming)."""
    if not groups or all(m is None for m in separation):
        return groups
    n = sum(len(g) for g in groups[0])
    label = list(range(n))
    mates: list[list[list[int]]] = [[[] for _ in range(n)] for _ in groups]
    for r, hanchan in enumerate(groups):
        for g in hanchan:
            for p in g:
                mates[r][p] = [q for q in g if q != p]
    active = [r for r in range(len(groups)) if separation[r] is not None]

    def conflicts(a: int) -> int:
        total = 0
        la = label[a]
        for r in active:
            sep = separation[r]
            assert sep is not None
            row = sep[la]
            for q in mates[r][a]:
                total += row[label[q]]
        return total

    cost = sum(conflicts(a) for a in range(n))
    temperature = 1.0
    for step in range(steps):
        if cost == 0:
            break
        a = rng.randrange(n)
        b = rng.randrange(n)
        if a == b:
            continue
        before = conflicts(a) + conflicts(b)
        label[a], label[b] = label[b], label[a]
        after = conflicts(a) + conflicts(b)
        delta = 2 * (after - before)  # every conflict is seen from both players
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            cost += delta
        else:
            label[a], label[b] = label[b], label[a]
        if (step & 1023) == 0:
            temperature = max(0.05, temperature * 0.9)
    return [[[label[p] for p in g] for g in hanchan] for hanchan in groups]


def _initial_groups(
    n: int, rounds: int, has_history: bool, rng: random.Random, deadline: float
) -> tuple[str, list[Groups]] | None:
    """A construction for the whole tournament, when one applies (no played hanchan)."""
    if has_history or rounds == 1:
        return None
    shipped = shipped_tables(n, rounds)
    if shipped is not None:
        # Found offline with its table numbers (seatinglab.sat_tables.sat_tables): small fields where the
        # searches stop short of the table bound (24 x 5: no table repeat, 16 from the searches).
        return "shipped", _relabel(shipped, rng, n)
    if constructions.power_of_four(n) == 3 and AFFINE_DIRECTIONS[0] <= rounds <= AFFINE_DIRECTIONS[1]:
        affine = constructions.affine_schedule(n, rounds, rng)
        if affine is not None:
            return "affine", _relabel(affine, rng, n)
    transversal = constructions.transversal_schedule(n, rounds, rng)
    if transversal is not None:
        return "transversal", _relabel(transversal, rng, n)
    if constructions.power_of_four(n) is not None and (rounds <= (n - 1) // 3 or n <= 64):
        groups = constructions.affine_schedule(n, rounds)
        if groups is not None:
            return "affine", _relabel(groups, rng, n)
    dense = 3 * rounds > 0.6 * (n - 1)
    cap = (n - 1) // 3
    if cap >= 2 and (rounds <= cap or n <= 200):
        wanted = min(rounds, cap)
        # The entry of this very size first (its own hanchan), else the longest for this field.
        data = shipped_schedule(n, rounds) or shipped_schedule(n, 1)
        # Shipped data serve dense sizes, which the searches cannot make repeat-free; sparser sizes do
        # as well or better from the searches (48 x 6: every stranger at 4 common opponents, 3 from
        # the first six shipped hanchan).
        found = data if dense and data is not None and len(data[1]) >= wanted else None
        if found is None and dense:
            found = cyclic.find_schedule(n, wanted, random.Random(rng.random()), 30_000, deadline)
        if found is None and dense and data is not None:
            # Fewer hanchan than asked: the missing ones start as copies of the first, and the group
            # search mends them (44 x 14 from the 13 shipped: 34 to 44 excess meetings by seed, 83
            # from scratch).
            found = data
        if found is not None:
            label, full = found
            groups = [[list(g) for g in full[r % len(full)]] for r in range(rounds)]
            return label.split()[0], _relabel(groups, rng, n)
    if n >= 200:
        linear = constructions.linear_schedule(n, rounds)
        if linear is not None:
            return "linear", _relabel(linear, rng, n)
    return None


#: Small fields get several independent attempts (each from its own random start) and keep the best,
#: in the order of the criteria: their searches end in different local optima (40 x 9: 40 to 43 table
#: repeats by seed; 40 x 3: 9 to 20 strangers without a common opponent). About ``ATTEMPT_WORK /
#: (N x R)`` attempts, at most ``MAX_ATTEMPTS``; large fields get one.
ATTEMPT_WORK = 1_000
MAX_ATTEMPTS = 3


def attempts_for(n: int, free_rounds: int) -> int:
    """How many independent attempts :func:`generate` makes for ``n`` players and ``free_rounds``."""
    return max(1, min(MAX_ATTEMPTS, ATTEMPT_WORK // max(1, n * free_rounds)))


def opponents_first(n: int, rounds: int, attempt: int) -> bool:
    """Whether attempt number ``attempt`` raises the common opponents before the table numbers too.

    Where at most half as many hanchan as tables are played, table numbers without a repeat are easy
    to find for almost any groups, so the common-opponent search does best on groups free of the
    table constraint first (40 x 5: 1 to 10 strangers at 3 common opponents where the other order
    leaves 15 or 16; 48 x 6: every stranger 4 where the other order leaves some at 3; 172 x 8: 27 or 28
    strangers with none where it leaves 42 to 47). Nearer to as many hanchan as tables, that freedom
    costs table repeats (40 x 7: 2 to 4 where the other order has 0 or 1). Every other attempt takes
    the other order, and the best attempt is kept."""
    sparse = 2 * rounds <= n // 4
    return sparse if attempt % 2 == 0 else not sparse


@dataclass(frozen=True)
class _Window:
    """The wall-clock share of one attempt: stage ``f`` of it must end by ``start + f * length``."""

    start: float
    length: float

    def at(self, fraction: float) -> float:
        return self.start + fraction * self.length


@dataclass
class _Attempt:
    method: str
    state: GroupState
    tables: JointTableSearch
    seated: list[Groups]
    winds: list[list[int]]

    def key(self, played: list[Groups]) -> tuple[int, ...]:
        """Smaller is better, in the order of the criteria: repeat meetings and separation (the group
        search's cost), table numbers (never the same in consecutive hanchan, then table repeats, then
        visits above ``ceil(R/T)``), wind imbalance, then the common opponents of strangers over the
        whole tournament, worst pair first."""
        n = self.state.n
        imbalance = max(max(row) - min(row) for row in self.winds)
        rounds = len(played) + len(self.seated)
        low, at_low, below = constructions.common_opponent_figures([*played, *self.seated], n, rounds > 4)
        return (self.state.cost(), *self.tables.figures(), imbalance, -low, at_low, below)


def _attempt(
    n: int,
    rounds: int,
    fixed: list[Round],
    history: _History,
    separation: list[list[bytearray] | None],
    rng: random.Random,
    window: _Window,
    report: Progress,
    opponents_first: bool = False,
) -> _Attempt:
    """One schedule of the free hanchan: groups, then table numbers, then common opponents and winds.
    ``opponents_first`` also raises the common opponents before the table numbers, while the groups
    are free of the table constraint (then table numbers, then common opponents again)."""
    table_count = n // 4
    free_count = rounds - len(fixed)

    def stage(start: float, end: float) -> Progress:
        return lambda fraction: report(start + (end - start) * min(1.0, max(0.0, fraction)))

    initial = _initial_groups(n, rounds, bool(fixed), rng, window.at(0.25))
    if initial is not None:
        method, free_groups = initial
        free_groups = _fit_labels(free_groups, separation, rng, min(300_000, 200 * n * free_count))
    else:
        method = "search"
        free_groups = search.greedy_rounds(n, free_count, history.meet, separation, rng)
    report(0.1)
    state = GroupState(n, free_groups, history.meet, separation)
    target = _group_target(n, free_count, history.meet)
    if state.cost() > target:
        searcher = search.GroupSearch(state, rng)
        units = 50_000 + 400 * n * free_count
        searcher.run(target, Budget(units, window.at(0.5)), stage(0.1, 0.45))
        if method != "search":
            method += "+search"
    report(0.45)
    if rounds >= 2:
        connect_field(state, rng)
    if opponents_first and n <= 400 and rounds >= 2:
        free_opponents = OpponentSearch(state, rng, None)
        free_opponents.run(Budget(_opponent_units(n, rounds), window.at(0.5)))
    tables_search = JointTableSearch(state, table_count, history.visits, history.last_table, rng)
    tables_search.start()
    tables_search.run(Budget(2_000_000, window.at(0.75)))
    if n <= SMALL_FIELD:
        fresh = not fixed and all(m is None for m in separation)
        base = table_base(n, rounds) if fresh else None
        tables_search.joint(Budget(JOINT_UNITS, window.at(0.75)), target, base)
    report(0.6)
    if n <= 400 and rounds >= 2:
        opponents = OpponentSearch(state, rng, tables_search)
        opponents.run(Budget(_opponent_units(n, rounds), window.at(1.0)), stage(0.6, 0.95))
    report(0.95)
    seated = assign_winds(n, state.rounds, history.winds)
    winds = [list(row) for row in history.winds]
    for hanchan in seated:
        for table in hanchan:
            for seat, p in enumerate(table):
                winds[p][seat] += 1
    return _Attempt(method, state, tables_search, seated, winds)


def generate(
    players: Sequence[PlayerInfo | PlayerId] | int,
    rounds: int,
    *,
    seed: int = 0,
    fixed_rounds: Sequence[RoundInput] = (),
    separate: SeparationRule | None = None,
    tables: int | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
    attempts: int | None = None,
) -> Schedule:
    """Seat ``players`` for ``rounds`` hanchan in total.

    ``players`` is a list of :class:`PlayerInfo` (or bare ids), or a count ``N`` meaning ids 1..N.
    ``fixed_rounds`` are hanchan already played (the first ones); they are kept unchanged and count in
    every criterion. Players of the fixed hanchan who are no longer in ``players`` (withdrawn) are
    ignored; new players (substitutes) start with an empty history. ``tables``, when given, must be
    ``len(players) / 4``. The result is deterministic for a seed unless ``time_limit`` (seconds) cuts
    the search short; with nothing played and nothing to keep apart, the seed only relabels the
    players of one schedule per size, so its figures are the same for every seed. ``progress``
    receives fractions from 0 to 1. ``attempts`` independent attempts
    are made and the best kept, in the order of the criteria (by default :func:`attempts_for`).
    """
    started = time.monotonic()
    infos = _normalise_players(players)
    n = len(infos)
    validate(n, rounds)
    table_count = n // 4
    if tables is not None and tables != table_count:
        raise SeatingError(
            _("{players} players fill {count} tables, not {tables}").format(
                players=n, count=table_count, tables=tables
            )
        )
    fixed = normalise_fixed(fixed_rounds)
    if len(fixed) > rounds:
        raise SeatingError(
            _("{played} hanchan already played but only {rounds} in total").format(
                played=len(fixed), rounds=rounds
            )
        )
    free_count = rounds - len(fixed)
    if attempts is None:
        attempts = attempts_for(n, free_count) if free_count else 1
    elif attempts < 1:
        raise SeatingError(_("at least one attempt is needed, got {count}").format(count=attempts))
    # Without a time limit, a safety cap per attempt; with one, the attempts share it.
    limit = default_time_limit(n, rounds) * attempts if time_limit is None else max(0.05, time_limit)
    deadline = started + limit
    index = {info.id: i for i, info in enumerate(infos)}
    history = _History(n, table_count, index, fixed)
    separation = _separation_matrices(infos, separate, len(fixed), free_count)
    played = [[[index[p] for p in table if p in index] for table in hanchan] for hanchan in fixed]

    def report(stage_start: float, stage_end: float) -> Callable[[float], None]:
        def inner(fraction: float) -> None:
            if progress is not None:
                progress(stage_start + (stage_end - stage_start) * min(1.0, max(0.0, fraction)))

        return inner

    report(0.0, 0.0)(0.0)
    method = "played"
    seated: list[Groups] = []
    exact = None
    # A fresh schedule (nothing played, nothing to keep apart) depends on the size alone: the searches
    # run from the same seed whatever the seed given, and that seed relabels the players, so every
    # seed gives a schedule with the same figures (those of the sweep and of the comparison with the
    # published schedules). Otherwise the seed drives the searches themselves.
    fresh = not fixed and all(m is None for m in separation)
    if fresh:
        exact = shipped_exact(n, rounds)
    search_seed = CANONICAL_SEED if fresh else seed
    searched = _FRESH_SEARCHED.get((n, rounds, attempts)) if fresh and time_limit is None else None
    if exact is not None:
        # Shipped as found, relabelled by the seed: only the winds are assigned.
        method = "shipped"
        seated = assign_winds(n, _relabel(exact, random.Random(seed), n), history.winds)
    elif searched is not None:
        method, seated = searched[0], [[list(g) for g in hanchan] for hanchan in searched[1]]
    elif free_count:
        best: tuple[tuple[int, ...], str, list[Groups]] | None = None
        for attempt in range(attempts):
            now = time.monotonic()
            if attempt and now > deadline:
                break
            # The first attempt is the seed's own, with the whole time limit (the search budgets
            # normally end first); the others start from seeds derived from it, in the time left, and
            # replace it only when they are better.
            window = _Window(now, deadline - now)
            rng = random.Random(search_seed if attempt == 0 else f"{search_seed}/{attempt}")
            share = report(attempt / attempts, (attempt + 1) / attempts)
            first = opponents_first(n, rounds, attempt)
            tried = _attempt(n, rounds, fixed, history, separation, rng, window, share, first)
            if attempts == 1:
                method, seated = tried.method, tried.seated
                break
            key = tried.key(played)
            if best is None or key < best[0]:
                best = (key, tried.method, tried.seated)
        if best is not None:
            _score, method, seated = best
        if fresh and time_limit is None:
            _remember_fresh((n, rounds, attempts), method, seated)
    if fresh and exact is None and seed != CANONICAL_SEED:  # searched from the canonical seed: relabelled
        seated = _relabel(seated, random.Random(seed), n)
    ids = [info.id for info in infos]
    out_rounds: list[Round] = list(fixed)
    for hanchan in seated:
        out_rounds.append(tuple(tuple(ids[p] for p in table) for table in hanchan))
    report(0.0, 1.0)(1.0)
    return Schedule(
        players=tuple(ids),
        rounds=tuple(out_rounds),
        seed=seed,
        fixed_rounds=len(fixed),
        method=method,
    )


def _opponent_units(n: int, rounds: int) -> int:
    """Work for the common-opponent search, the same at every size (a step costs more on large fields:
    1.7 s at 172 x 15, 0.9 s at 104 x 8, 0.3 s at 48 x 9). The search never worsens the worst
    strangers, so more work only helps them: 104 x 8 had 56 strangers at 2 common opponents with a
    third of this, 45 with it."""
    return int(8_000 * (1.0 if rounds > 2 else 0.3))


def _group_target(n: int, free: int, history_meet: list[bytearray]) -> int:
    """Cost at which the group search may stop, as no grouping of the free hanchan can cost less. The
    largest of three bounds, each of which every schedule meets:

    - what the history forces: the pairs that already met twice;
    - per player: one who met ``h`` opponents in the hanchan played and meets three more in each of the
      ``free`` ones has ``h + 3 free`` meetings among ``n - 1`` possible opponents, so at least
      ``h + 3 free - (n - 1)`` of them are repeats (each repeat counted by both its players);
    - the meetings spread as evenly as possible over the pairs, as the cost of a pair grows faster with
      each meeting (a third meeting costs more than a second): eight players over five hanchan must
      have 32 repeats, four of them a third meeting.

    Without history this is at least the counting bound of ``search.excess_lower_bound``; a field that
    can only repeat then stops as soon as its repeats are as few and as spread as they can be, not when
    its budget ends."""
    forced = 0
    repeats = 0
    seen = 0  # the history's meetings, each seen by both its players
    for p in range(n):
        row = history_meet[p]
        met = sum(row)
        seen += met
        repeats += max(0, met + 3 * free - (n - 1))
        for q in range(p + 1, n):
            if row[q] > 1:
                forced += search.pair_cost(row[q])
    pairs = n * (n - 1) // 2
    each, more = divmod(seen // 2 + 6 * (n // 4) * free, pairs)
    even = more * search.pair_cost(each + 1) + (pairs - more) * search.pair_cost(each)
    return max(forced, search.EXCESS_WEIGHT * -(-repeats // 2), even)
