"""Offline finder, second method: SAT problems, for the base hanchan of a cyclic shape and more.

The tabu search of :mod:`tournament.seating.cyclic` solves the looser shapes in seconds but wanders on
the tightest ones, where the base hanchan must use every difference class exactly once (32 players x 10
hanchan, 44 x 14: social-golfer instances at their maximum). A SAT solver (CaDiCaL through
``python-sat``, a development dependency only: the generator itself never imports it) settles those
exactly.

This module holds what the SAT methods share: :class:`Formula` (clauses with cardinality constraints),
:func:`solve` (CaDiCaL in a child process, stopped at the deadline), :class:`Unsatisfiable` and the
helpers of a hanchan that a group maps to itself; it is the only module that imports ``python-sat``.
The methods: :func:`.sat_cyclic.sat_rounds` (a cyclic shape's base hanchan),
:func:`.sat_group.sat_group_rounds` (over any abelian group, with a prescribed or chosen leave) and
:func:`.sat_tables.sat_tables` (whole schedules with their table numbers).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from itertools import combinations

from tournament.seating.cyclic import Groups


class Unsatisfiable(Exception):
    """The solver proved that no schedule of the kind asked for exists (a timeout proves nothing)."""


class Formula:
    """Clauses over numbered variables, with cardinality constraints as sequential counters."""

    def __init__(self) -> None:
        self.top = 0
        self.clauses: list[list[int]] = []

    def new(self) -> int:
        self.top += 1
        return self.top

    def card(self, lits: list[int], bound: int, kind: str, guard: int | None = None) -> None:
        """At most, exactly or at least (``kind``) ``bound`` of ``lits`` are true; with ``guard``, only
        when that literal is true (every clause of the encoding holds ``-guard`` too)."""
        # python-sat is an optional (development) dependency: imported here, when a SAT method runs, so
        # that the finder's other methods and its tests work without it.
        from pysat.card import CardEnc, EncType  # type: ignore[import-not-found,unused-ignore]

        if kind == "atmost" and bound >= len(lits):
            return
        maker = {"atmost": CardEnc.atmost, "equals": CardEnc.equals, "atleast": CardEnc.atleast}[kind]
        enc = maker(lits=lits, bound=bound, top_id=self.top, encoding=EncType.seqcounter)
        self.clauses.extend(enc.clauses if guard is None else [[*c, -guard] for c in enc.clauses])
        self.top = max(self.top, enc.nv)

    def equal(self, lit: int) -> int:
        """A new variable equivalent to ``lit``."""
        copy = self.new()
        self.clauses.extend([[-copy, lit], [copy, -lit]])
        return copy


def _three_table_mates(
    formula: Formula, p: int, others: list[int], together: Callable[[int, int], int]
) -> None:
    """Player ``p`` has exactly three table-mates among ``others``, and two of them share a table
    (``together(q, r)``: the variable true when ``q`` and ``r`` share one). One variable may stand for
    two table-mates of ``p`` (in a symmetric hanchan, ``x + d`` and ``x - d``): each counts once."""
    lits = [together(p, q) for q in others]
    formula.card([formula.equal(lit) for lit in lits], 3, "equals")
    for (q, lq), (r, lr) in combinations(zip(others, lits, strict=True), 2):
        formula.clauses.append([-lq, -lr, together(q, r)])


def _tables_of(n: int, together: set[tuple[int, int]]) -> Groups:
    """The tables of a hanchan given the pairs ``(p, q)``, ``p < q``, who share a table."""
    seen: set[int] = set()
    tables: Groups = []
    for p in range(n):
        if p not in seen:
            block = [p, *(q for q in range(p + 1, n) if (p, q) in together)]
            seen.update(block)
            tables.append(block)
    return tables


def solve(clauses: list[list[int]], seconds: float) -> set[int] | None:
    """The true variables of a model, or ``None`` when no answer came within ``seconds`` (or the
    solver's process died); raises :class:`Unsatisfiable` when the solver proves there is no model.
    CaDiCaL cannot be interrupted, so it runs in a child process that is stopped at the deadline."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_solve_child, args=(clauses, send), daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(seconds):
            return None
        answer: list[int] | None = receive.recv()
    except EOFError:
        return None
    finally:
        child.kill()
        child.join()
    if answer is None:
        raise Unsatisfiable
    return {lit for lit in answer if lit > 0}


def _solve_child(clauses: list[list[int]], send: object) -> None:
    # Optional dependency, imported when used (see Formula.card).
    from pysat.solvers import Solver  # type: ignore[import-not-found,unused-ignore]

    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        answer = solver.get_model() if solver.solve() else None
    send.send(answer)  # type: ignore[attr-defined]
