"""Schedules with a cyclic symmetry: base hanchan developed modulo ``m``.

Players are ``(x, i)`` with ``x`` in Z_m and ``i`` one of ``k`` types, plus ``f`` fixed players
("infinity" points): ``N = k*m + f``. A *base hanchan* is a partition of the players into tables; adding
``t`` to every ``x`` (fixed players stay) gives hanchan number ``t``, so ``s`` base hanchan give ``s*m``
hanchan. Two players meet once per occurrence of their *difference class* in the base hanchan:

* same type ``i``, difference ``±d`` (a difference of exactly ``m/2`` makes a pair meet twice);
* types ``i < j``, difference ``x_j - x_i``;
* a fixed player with a type ``i`` (a fixed player meets a whole type once per such occurrence);
* two fixed players (they would meet in every developed hanchan).

A repeat-free schedule is therefore a set of base hanchan in which no class occurs twice: a problem
``m`` times smaller than the schedule itself, which a tabu search solves in well under a second for the
dense cases (every player meets nearly everyone) where a search over whole schedules struggles. With
``k = 3`` and one fixed player this is the classical 1-rotational construction of resolvable designs:
``N = 4 (mod 12)`` players, ``(N-1)/3`` hanchan, everyone meets everyone exactly once.

Schedules found by these searches for the hardest sizes are shipped in ``data/cyclic.json`` so that they
are instant; :mod:`.shipped` reads them. The seating laboratory that regenerates them (the top-level
package ``seatinglab``, ``python -m seatinglab``) imports this module, never the other way round.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .search import Budget

Groups = list[list[int]]


@dataclass(frozen=True)
class CyclicShape:
    m: int  # order of the cyclic group
    k: int  # number of types
    f: int  # fixed players
    s: int  # base hanchan

    @property
    def n(self) -> int:
        return self.k * self.m + self.f


def candidate_shapes(n: int, rounds: int) -> list[CyclicShape]:
    """Shapes that can hold ``rounds`` repeat-free hanchan for ``n`` players, loosest first."""
    tables = n // 4
    out: list[tuple[tuple[int, float], CyclicShape]] = []
    for f in range(0, tables + 1):
        rest = n - f
        for m in range(3, rest + 1):
            if rest % m:
                continue
            k = rest // m
            s = -(-rounds // m)
            if s > 2:
                continue
            if f and (3 * s > k or f > m):
                continue
            if f == 0 and k < 2:
                continue
            capacity = k * ((m - 1) // 2) + k * (k - 1) // 2 * m
            needed = s * (3 * f + 6 * (tables - f))
            if needed > capacity:
                continue
            out.append(((s, needed / capacity), CyclicShape(m, k, f, s)))
    out.sort(key=lambda item: item[0])
    return [shape for _, shape in out]


class Classes:
    """Difference class of every pair of players, and the excess meetings a class count implies."""

    NORMAL, HALF, FIXED_PAIR = 0, 1, 2

    def __init__(self, shape: CyclicShape) -> None:
        m, k = shape.m, shape.k
        n = shape.n
        half = m // 2
        kinds: list[int] = []
        index: dict[tuple[Any, ...], int] = {}

        def cls(key: tuple[Any, ...], kind: int) -> int:
            if key not in index:
                index[key] = len(kinds)
                kinds.append(kind)
            return index[key]

        table = [[-1] * n for _ in range(n)]
        for p in range(n):
            for q in range(p + 1, n):
                if p < k * m and q < k * m:
                    i, x = divmod(p, m)
                    j, y = divmod(q, m)
                    if i == j:
                        d = (y - x) % m
                        d = min(d, m - d)
                        c = cls(("pure", i, d), self.HALF if 2 * d == m else self.NORMAL)
                    else:
                        c = cls(("mixed", i, j, (y - x) % m), self.NORMAL)
                elif p < k * m:
                    c = cls(("fixed", q - k * m, p // m), self.NORMAL)
                else:
                    c = cls(("fixed-pair", p, q), self.FIXED_PAIR)
                table[p][q] = c
                table[q][p] = c
        self.table = table
        self.kinds = kinds
        self.m = m
        self.half = half

    def excess(self, kind: int, count: int) -> int:
        if count <= 0:
            return 0
        if kind == self.NORMAL:
            return self.m * (count - 1)
        if kind == self.HALF:
            return self.half * (2 * count - 1)
        return self.m * count - 1


class BaseSearch:
    """Tabu search for base hanchan whose development has no repeat meeting."""

    def __init__(self, shape: CyclicShape, rng: random.Random, taken: Sequence[int] = ()) -> None:
        """``taken``: difference classes already used elsewhere (by transversal hanchan)."""
        self.shape = shape
        self.rng = rng
        self.classes = Classes(shape)
        n = shape.n
        k, m, f = shape.k, shape.m, shape.f
        self.count = [0] * len(self.classes.kinds)
        self.bases: list[Groups] = []
        self.where: list[list[int]] = []
        for b in range(shape.s):
            # Fixed players in separate tables with one player of three different types each.
            finite = list(range(k * m))
            rng.shuffle(finite)
            blocks: Groups = []
            for u in range(f):
                types = [(3 * b + j + u) % k for j in range(3)]
                block = [k * m + u]
                for i in types:
                    for idx, p in enumerate(finite):
                        if p // m == i:
                            block.append(finite.pop(idx))
                            break
                blocks.append(block)
            while finite:
                blocks.append([finite.pop() for _ in range(4)])
            where = [0] * n
            for gi, block in enumerate(blocks):
                for p in block:
                    where[p] = gi
            self.bases.append(blocks)
            self.where.append(where)
            for block in blocks:
                self._add_block(block, 1)
        for c in taken:
            self.count[c] += 1
        self.cost = sum(self.classes.excess(self.classes.kinds[c], v) for c, v in enumerate(self.count))

    def _add_block(self, block: list[int], sign: int) -> None:
        table = self.classes.table
        for i in range(4):
            row = table[block[i]]
            for j in range(i + 1, 4):
                self.count[row[block[j]]] += sign

    def _bump(self, c: int, sign: int) -> int:
        kinds = self.classes.kinds
        before = self.count[c]
        self.count[c] = before + sign
        return self.classes.excess(kinds[c], before + sign) - self.classes.excess(kinds[c], before)

    def _swap(self, b: int, x: int, y: int) -> int:
        """Swap players ``x`` and ``y`` (different tables of base hanchan ``b``); returns the cost change."""
        where = self.where[b]
        blocks = self.bases[b]
        gx, gy = where[x], where[y]
        bx, by = blocks[gx], blocks[gy]
        table = self.classes.table
        d = 0
        for z in bx:
            if z != x:
                d += self._bump(table[x][z], -1) + self._bump(table[y][z], 1)
        for z in by:
            if z != y:
                d += self._bump(table[y][z], -1) + self._bump(table[x][z], 1)
        bx[bx.index(x)] = y
        by[by.index(y)] = x
        where[x], where[y] = gy, gx
        self.cost += d
        return d

    def _swap_delta(self, b: int, x: int, y: int) -> int:
        """The cost change of :meth:`_swap`, without making it."""
        where = self.where[b]
        blocks = self.bases[b]
        table = self.classes.table
        row_x, row_y = table[x], table[y]
        change: dict[int, int] = {}
        for z in blocks[where[x]]:
            if z != x:
                c = row_x[z]
                change[c] = change.get(c, 0) - 1
                c = row_y[z]
                change[c] = change.get(c, 0) + 1
        for z in blocks[where[y]]:
            if z != y:
                c = row_y[z]
                change[c] = change.get(c, 0) - 1
                c = row_x[z]
                change[c] = change.get(c, 0) + 1
        kinds = self.classes.kinds
        excess = self.classes.excess
        count = self.count
        d = 0
        for c, v in change.items():
            if v:
                before = count[c]
                d += excess(kinds[c], before + v) - excess(kinds[c], before)
        return d

    def _conflicted(self) -> list[tuple[int, int]]:
        table = self.classes.table
        kinds = self.classes.kinds
        out: list[tuple[int, int]] = []
        for b, blocks in enumerate(self.bases):
            for block in blocks:
                for i in range(4):
                    row = table[block[i]]
                    for j in range(4):
                        if i != j:
                            c = row[block[j]]
                            if self.count[c] > 1 or (kinds[c] != Classes.NORMAL and self.count[c] > 0):
                                out.append((b, block[i]))
                                break
        return out

    def run(self, budget: Budget) -> bool:
        rng = self.rng
        n = self.shape.n
        fixed_start = self.shape.k * self.shape.m
        tabu: dict[tuple[int, int, int], int] = {}
        it = 0
        best = self.cost
        stall = 0
        while self.cost > 0:
            conflicted = self._conflicted()
            b, x = conflicted[rng.randrange(len(conflicted))]
            where = self.where[b]
            gx = where[x]
            best_d: int | None = None
            moves: list[int] = []
            for y in range(n):
                gy = where[y]
                if gy == gx or (x >= fixed_start) != (y >= fixed_start):
                    continue
                d_total = self._swap_delta(b, x, y)
                tabu_move = tabu.get((b, x, gy), 0) > it or tabu.get((b, y, gx), 0) > it
                if tabu_move and self.cost + d_total >= best:
                    continue
                if best_d is None or d_total < best_d:
                    best_d = d_total
                    moves = [y]
                elif d_total == best_d:
                    moves.append(y)
            it += 1
            if not budget.spend(1):
                return False
            if best_d is None:
                continue
            y = rng.choice(moves)
            gy = where[y]
            self._swap(b, x, y)
            tenure = 4 + rng.randrange(6 + n // 8)
            tabu[(b, x, gx)] = it + tenure
            tabu[(b, y, gy)] = it + tenure
            if self.cost < best:
                best = self.cost
                stall = 0
            else:
                stall += 1
                if stall > 300 + 10 * n:
                    stall = 0
                    best = self.cost
                    for _ in range(2 + n // 16):
                        bb = rng.randrange(len(self.bases))
                        p = rng.randrange(fixed_start)
                        q = rng.randrange(fixed_start)
                        if self.where[bb][p] != self.where[bb][q]:
                            self._swap(bb, p, q)
        return True


def develop(shape: CyclicShape, bases: list[Groups], rounds: int) -> list[Groups]:
    """The first ``rounds`` hanchan of the development (base hanchan after base hanchan)."""
    m, k = shape.m, shape.k
    finite = k * m
    out: list[Groups] = []
    for blocks in bases:
        for t in range(m):
            if len(out) == rounds:
                return out
            out.append(
                [[p if p >= finite else (p // m) * m + (p % m + t) % m for p in block] for block in blocks]
            )
    return out


def depth_first_bases(
    shape: CyclicShape, rng: random.Random, node_limit: int, taken: Sequence[int] = ()
) -> list[list[list[int]]] | None:
    """One repeat-free base hanchan (``shape.s == 1``; returned as a list of one) by depth-first search:
    the table of the first uncovered player is completed with players whose difference classes are all
    unused; randomised
    order, abandoned after ``node_limit`` nodes (restart with another seed)."""
    if shape.s != 1:
        return None
    classes = Classes(shape)
    table = classes.table
    used = [kind != Classes.NORMAL for kind in classes.kinds]
    for c in taken:
        used[c] = True
    n = shape.n
    finite = shape.k * shape.m
    order = list(range(finite, n)) + list(range(finite))
    covered = [False] * n
    blocks: Groups = []
    nodes = 0

    def extend(block: list[int], candidates: list[int], start: int) -> bool | None:
        nonlocal nodes
        if len(block) == 4:
            blocks.append(list(block))
            result = place()
            if result:
                return True
            blocks.pop()
            return result
        for ci in range(start, len(candidates)):
            q = candidates[ci]
            if covered[q]:
                continue
            row = table[q]
            new: list[int] = []
            for b in block:
                c = row[b]
                if used[c] or c in new:
                    break
                new.append(c)
            else:
                for c in new:
                    used[c] = True
                covered[q] = True
                block.append(q)
                result = extend(block, candidates, ci + 1)
                if result:
                    return True
                block.pop()
                covered[q] = False
                for c in new:
                    used[c] = False
                if result is None:
                    return None
        return False

    def place() -> bool | None:
        nonlocal nodes
        nodes += 1
        if nodes > node_limit:
            return None
        p = next((i for i in order if not covered[i]), -1)
        if p < 0:
            return True
        covered[p] = True
        candidates = [q for q in range(finite) if not covered[q] and (p >= finite or q > p)]
        if not blocks and p >= finite:
            # translations: the first fixed player's table may hold type 0 at position 0
            candidates = [q for q in candidates if q >= shape.m or q == 0]
        rng.shuffle(candidates)
        result = extend([p], candidates, 0)
        covered[p] = False
        return result

    return [[sorted(b) for b in blocks]] if place() else None


def rotational_design(n: int, rng: random.Random, node_limit: int) -> list[Groups] | None:
    """Resolvable design for ``n = 4 (mod 12)`` players by depth-first search: players are Z_{3r} and one
    fixed player (``r = (n-1)/3`` hanchan); hanchan ``c`` holds ``{fixed, c, c+r, c+2r}`` and
    ``B + c + {0, r, 2r}`` for every base table ``B``. The base tables must use every non-zero residue
    modulo ``r`` once and every difference outside ``{0, r, 2r}`` once: then everyone meets everyone
    exactly once. Returns the ``r`` hanchan (players ``0..n-1``, the fixed one is ``n-1``)."""
    if n % 12 != 4:
        return None
    r = (n - 1) // 3
    big = 3 * r
    count = (n - 4) // 12
    used_res = [False] * r
    used_res[0] = True
    used_diff = [False] * big
    for d in (0, r, 2 * r):
        used_diff[d] = True
    blocks: Groups = []
    nodes = 0
    lifts = [0, r, 2 * r]

    def extend(block: list[int], candidates: list[int], start: int) -> bool | None:
        if len(block) == 4:
            blocks.append(list(block))
            result = place()
            if result:
                return True
            blocks.pop()
            return result
        for ci in range(start, len(candidates)):
            res = candidates[ci]
            if used_res[res]:
                continue
            order = lifts[:]
            rng.shuffle(order)
            for lift in order:
                y = res + lift
                diffs: list[int] = []
                for b in block:
                    d1 = (y - b) % big
                    d2 = (b - y) % big
                    if used_diff[d1] or used_diff[d2] or d1 == d2 or d1 in diffs or d2 in diffs:
                        break
                    diffs += [d1, d2]
                else:
                    for d in diffs:
                        used_diff[d] = True
                    used_res[res] = True
                    block.append(y)
                    result = extend(block, candidates, ci + 1)
                    if result:
                        return True
                    block.pop()
                    used_res[res] = False
                    for d in diffs:
                        used_diff[d] = False
                    if result is None:
                        return None
        return False

    def place() -> bool | None:
        nonlocal nodes
        nodes += 1
        if nodes > node_limit:
            return None
        if len(blocks) == count:
            return True
        rho = next(i for i in range(1, r) if not used_res[i])
        firsts = [rho] if not blocks else [rho + lift for lift in lifts]
        used_res[rho] = True
        candidates = [i for i in range(rho + 1, r) if not used_res[i]]
        rng.shuffle(candidates)
        for x0 in firsts:
            result = extend([x0], candidates, 0)
            if result:
                return True
            if result is None:
                used_res[rho] = False
                return None
        used_res[rho] = False
        return False

    if not place():
        return None
    fixed = n - 1
    rounds: list[Groups] = []
    for c in range(r):
        groups: Groups = [[fixed, c, c + r, c + 2 * r]]
        for b in blocks:
            for lift in lifts:
                groups.append(sorted((x + c + lift) % big for x in b))
        rounds.append(groups)
    return rounds


def find_schedule(
    n: int, rounds: int, rng: random.Random, effort: int, deadline: float | None
) -> tuple[str, list[Groups]] | None:
    """Repeat-free hanchan for ``n`` players, at least ``rounds`` of them, from a symmetric structure:
    the rotational design (``n = 4 mod 12``), else base hanchan by depth-first search with restarts,
    else by tabu search. ``effort`` scales the work (about 10**5 per second)."""

    def late() -> bool:
        return deadline is not None and time.monotonic() > deadline

    if n % 12 == 4 and rounds <= (n - 1) // 3:
        design = rotational_design(n, rng, effort)
        if design is not None:
            return "rotational", design
    shapes = candidate_shapes(n, rounds)[:4]
    for shape in shapes:
        if shape.s != 1:
            continue
        for _ in range(20):
            if late():
                return None
            bases = depth_first_bases(shape, rng, max(2000, effort // 20))
            if bases is not None:
                return f"cyclic m={shape.m} k={shape.k} f={shape.f}", develop(shape, bases, shape.m * shape.s)
    for i, shape in enumerate(shapes):
        if late():
            return None
        budget = Budget(max(1, effort // 50 // (len(shapes) - i)), deadline)
        search = BaseSearch(shape, rng)
        if search.run(budget):
            bases = [[sorted(block) for block in blocks] for blocks in search.bases]
            return f"cyclic m={shape.m} k={shape.k} f={shape.f}", develop(shape, bases, shape.m * shape.s)
    return None


# -- shipped data -----------------------------------------------------------------------------------
