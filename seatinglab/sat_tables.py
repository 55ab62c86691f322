"""The SAT method on a whole schedule for a small field, table numbers included (:func:`sat_tables`, see
:mod:`.satfind`): excess meetings, table repeats and common opponents as cardinality constraints.
"""

from __future__ import annotations

import random
from itertools import combinations

from tournament.seating.cyclic import Groups

from .satfind import Formula, solve


def sat_tables(
    n: int,
    rounds: int,
    repeats: int,
    rng: random.Random,
    seconds: float,
    excess: int = 0,
    consecutive: bool = False,
    opponents: int = 0,
    at_fewest: int | None = None,
) -> list[Groups] | None:
    """A whole schedule for a small field, table numbers included: at most ``excess`` excess meetings
    (no pair more than twice), at most ``repeats`` table repeats (visits to a table beyond the first;
    at most ``max(2, ceil(R/T))`` visits), and unless ``consecutive`` nobody at the same table in two
    consecutive hanchan; ``None`` if the solver runs out of ``seconds``, :class:`Unsatisfiable` if it
    proves there is none.
    Hanchan come as lists of tables in table-number order.

    * ``x[r][p][t]``: player ``p`` sits at table ``t`` in hanchan ``r``; one table per player, four
      players per table;
    * a meeting variable per pair and hanchan, implied by a shared table; at most one per pair, or two
      with an excess variable, of which at most ``excess`` are true;
    * ``o[p][t][k]``: ``p`` visits ``t`` at least ``k`` times (``k >= 2``), implied by any ``k``
      visits; at most ``repeats`` of them are true.

    With ``opponents = L``, every two players who never meet have at least ``L`` common opponents
    (criterion 4): a meeting variable per pair true only if the pair shares some table (through a
    variable per pair, hanchan and table), and a common-opponent variable per pair and third player.
    With ``at_fewest = K`` as well, at most ``K`` of them have exactly ``L``.

    Symmetry: hanchan 0 seats players ``4t..4t+3`` at table ``t`` (relabelling players and tables),
    and in hanchan 1 those four sit at increasing tables (exchanging them), when they cannot share one.
    """
    tables = n // 4
    cap = max(2, -(-rounds // tables))
    formula = Formula()
    new, card, equal, clauses = formula.new, formula.card, formula.equal, formula.clauses

    x = [[[0] * tables for _ in range(n)] for _ in range(rounds)]
    slots = [(r, p, t) for r in range(rounds) for p in range(n) for t in range(tables)]
    rng.shuffle(slots)
    for r, p, t in slots:
        x[r][p][t] = new()

    for r in range(rounds):
        for p in range(n):
            card(x[r][p], 1, "equals")
        for t in range(tables):
            card([x[r][p][t] for p in range(n)], 4, "equals")
    for p in range(n):
        clauses.append([x[0][p][p // 4]])
    if rounds > 1 and excess == 0:
        for p in range(n):
            if p % 4:
                for t in range(tables):
                    clauses.append([-x[1][p][t], *(x[1][p - 1][u] for u in range(t))])
    doubles = []
    for p, q in combinations(range(n), 2):
        met = []
        for r in range(rounds):
            z = new()
            clauses.extend([-x[r][p][t], -x[r][q][t], z] for t in range(tables))
            met.append(z)
        if excess == 0:
            card(met, 1, "atmost")
            continue
        d = new()
        doubles.append(d)
        card(met, 2, "atmost")
        clauses.extend([-met[i], -met[j], d] for i, j in combinations(range(rounds), 2))
    card(doubles, excess, "atmost")
    extra = []
    for p in range(n):
        for t in range(tables):
            visits = [x[r][p][t] for r in range(rounds)]
            if not consecutive:
                clauses.extend([-visits[r], -visits[r + 1]] for r in range(rounds - 1))
            card(visits, cap, "atmost")
            for k in range(2, cap + 1):
                o = new()
                extra.append(o)
                clauses.extend(
                    [*(-visits[i] for i in chosen), o] for chosen in combinations(range(rounds), k)
                )
    card(extra, repeats, "atmost")
    if opponents or at_fewest is not None:
        meets: dict[tuple[int, int], int] = {}
        for p, q in combinations(range(n), 2):
            # meets[p, q] only if some (hanchan, table) holds both.
            both = []
            for r in range(rounds):
                for t in range(tables):
                    y = new()
                    clauses.extend([[-y, x[r][p][t]], [-y, x[r][q][t]]])
                    both.append(y)
            meets[p, q] = new()
            clauses.append([-meets[p, q], *both])
        at_level: list[int] = []
        for p, q in combinations(range(n), 2):
            common = []
            for o in range(n):
                if o not in (p, q):
                    w = new()
                    clauses.extend([[-w, meets[min(p, o), max(p, o)]], [-w, meets[min(q, o), max(q, o)]]])
                    common.append(w)
            # Either the pair meets or it has ``opponents`` common opponents: the meeting counts as
            # ``opponents`` more literals equivalent to it.
            copies = [equal(meets[p, q]) for _ in range(opponents + 1)]
            if opponents:
                card(common + copies[:opponents], opponents, "atleast")
            if at_fewest is not None:
                # ... and unless ``low`` marks it, one common opponent more.
                low = new()
                at_level.append(low)
                marked = [equal(low) for _ in range(opponents + 1)]
                card(common + copies + marked, opponents + 1, "atleast")
        if at_fewest is not None:
            card(at_level, at_fewest, "atmost")

    model = solve(clauses, seconds)
    if model is None:
        return None
    return [[[p for p in range(n) if x[r][p][t] in model] for t in range(tables)] for r in range(rounds)]
