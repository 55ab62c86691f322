"""Offline finder: choosing who never meets (the *leave*) before seating anyone.

In a repeat-free schedule of ``N`` players over ``R`` hanchan every player meets ``3R`` others and
never meets ``s = N - 1 - 3R`` (their *strangers*). Two strangers ``a`` and ``b`` then share as opponents
every player but themselves and their strangers: ``N - 2 - (s - 1) - (s - 1) + c`` = ``N - 2s + c``,
where ``c`` is the number of strangers they share. So the leave alone fixes the worst strangers' common
opponents and how many pairs sit that low, and a search for the leave can run apart from the (much
harder) search for hanchan that seat everyone else exactly once.

Under a group G (:class:`.group.GroupAction`) a leave that G maps to itself is a union of classes of
pairs, ``c`` is the same for every pair of a class, and every player of one orbit has the same number of
strangers. :func:`leave_candidates` searches such unions: each player ``s`` strangers, the classes no
hanchan of the stabilisers can seat always in, ranked by the fewest shared strangers, then by how few
pairs have that few. :func:`.sat_group.sat_group_rounds` then looks for the hanchan (``apart``).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .group import GroupAction, Pair, PlayerRef


@dataclass(frozen=True)
class Leave:
    """A leave that G maps to itself: its ``classes``, the fewest strangers ``shared`` by two strangers,
    and ``at_fewest``, the number of pairs of strangers sharing that few."""

    classes: tuple[Pair, ...]
    shared: int
    at_fewest: int

    def rank(self) -> tuple[int, int]:
        return (-self.shared, self.at_fewest)


class _Space:
    """The classes a leave is made of, and what each gives every orbit of players."""

    def __init__(self, action: GroupAction, strangers: int, forced: set[Pair]) -> None:
        self.action = action
        self.members = action.class_members()
        orbit_of = [min(action.act(g, p) for g in action.elements) for p in range(action.n)]
        self.orbits = sorted(set(orbit_of))
        sizes = {o: orbit_of.count(o) for o in self.orbits}
        self.gives: dict[Pair, dict[int, int]] = {}
        for c, pairs in self.members.items():
            ends: dict[int, int] = {}
            for pair in pairs:
                for p in pair:
                    ends[orbit_of[p]] = ends.get(orbit_of[p], 0) + 1
            self.gives[c] = {o: count // sizes[o] for o, count in ends.items()}
        self.forced = tuple(sorted(forced))
        self.need = {o: strangers for o in self.orbits}
        for c in self.forced:
            for o, d in self.gives[c].items():
                self.need[o] -= d
        self.free = sorted(c for c in self.members if c not in forced)

    def complete(self, chosen: list[Pair], rng: random.Random, nodes: int) -> list[Pair] | None:
        """``chosen`` (free classes) completed at random to a leave giving every orbit its need, or
        ``None`` if none is found within ``nodes`` steps."""
        need = dict(self.need)
        for c in chosen:
            for o, d in self.gives[c].items():
                need[o] -= d
        if any(v < 0 for v in need.values()):
            return None
        taken = set(chosen)
        rest = [c for c in self.free if c not in taken]
        rng.shuffle(rest)
        budget = [nodes]
        picked: list[Pair] = []

        def fits(c: Pair) -> bool:
            return all(need[o] >= d for o, d in self.gives[c].items())

        def search(i: int) -> bool:
            if not any(need.values()):
                return True
            budget[0] -= 1
            if budget[0] < 0:
                return False
            for j in range(i, len(rest)):
                c = rest[j]
                if fits(c):
                    for o, d in self.gives[c].items():
                        need[o] -= d
                    picked.append(c)
                    if search(j + 1):
                        return True
                    picked.pop()
                    for o, d in self.gives[c].items():
                        need[o] += d
            return False

        return chosen + picked if search(0) else None

    def score(self, chosen: list[Pair]) -> Leave:
        """The leave of the forced classes and ``chosen``, with its worst shared strangers."""
        adjacent = [0] * self.action.n
        classes = tuple(sorted((*self.forced, *chosen)))
        for c in classes:
            for p, q in self.members[c]:
                adjacent[p] |= 1 << q
                adjacent[q] |= 1 << p
        shared = {c: (adjacent[c[0]] & adjacent[c[1]]).bit_count() for c in classes}
        low = min(shared.values(), default=0)
        return Leave(classes, low, sum(len(self.members[c]) for c, v in shared.items() if v == low))


def leave_candidates(
    action: GroupAction,
    rounds: int,
    forced: set[Pair],
    rng: random.Random,
    seconds: float,
    keep: int = 10,
) -> list[Leave]:
    """The best ``keep`` distinct leaves found in ``seconds`` for ``rounds`` repeat-free hanchan under
    G, best first (fewest shared strangers highest, then fewest pairs that low), the classes ``forced``
    always in. Random completions, each improved by dropping one or two of its classes and completing
    again while that is no worse (a plain hill climb: the space is small and its optima many)."""
    strangers = action.n - 1 - 3 * rounds
    if strangers < 0:
        raise ValueError(f"{action.n} players cannot play {rounds} hanchan without a repeat meeting")
    space = _Space(action, strangers, forced)
    if any(v < 0 for v in space.need.values()):
        return []
    found: dict[tuple[Pair, ...], Leave] = {}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        start = space.complete([], rng, 10_000)
        if start is None:
            continue
        current = start
        best = space.score(current)
        stale = 0
        while stale < 200 and time.monotonic() < deadline:
            drop = rng.randint(1, min(2, len(current))) if current else 0
            kept = current[:]
            for _ in range(drop):
                kept.pop(rng.randrange(len(kept)))
            trial = space.complete(kept, rng, 2_000)
            if trial is None:
                stale += 1
                continue
            leave = space.score(trial)
            if leave.rank() < best.rank():
                stale = 0
            else:
                stale += 1
            if leave.rank() <= best.rank():
                current, best = trial, leave
        found[best.classes] = best
    return sorted(found.values(), key=Leave.rank)[:keep]


def apart_pairs(action: GroupAction, leave: Leave) -> list[tuple[PlayerRef, PlayerRef]]:
    """One pair of each class of ``leave``, as :func:`.sat_group.sat_group_rounds` takes them."""
    return [(action.ref(p), action.ref(q)) for p, q in leave.classes]


def leave_text(action: GroupAction, leave: Leave) -> str:
    """``leave`` written for the finder's ``--apart``."""

    def one(ref: PlayerRef) -> str:
        kind, j, g = ref
        coordinates = ".".join(str(x) for x in g)
        return {"type": f"{j}:{coordinates}", "short": f"s{j}:{coordinates}", "fixed": f"f{j}"}[kind]

    return ";".join(f"{one(a)}-{one(b)}" for a, b in apart_pairs(action, leave))
