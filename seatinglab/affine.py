"""The best directions of AG(3, 4) for 64 players, by exhaustive enumeration, as a start for the annealing.

The generator seats 64 players for 5 to 10 hanchan on chosen directions of AG(3, 4) (its lines are
the tables, one parallel class per hanchan) and ranks table repeats first: from 11 hanchan on no table
numbers for those groups avoid every table repeat, so its table search exchanges players and gives the
gain back. The published schedules accept table repeats there (64 x 13: 51; 64 x 15: 104; 64 x 10: 18),
so an exact entry may too: the groups of the best directions, their table numbers then found by the
annealing within the published count.

Strangers at direction ``x`` share ``sum(c * (c - 1))`` common opponents over the five lines of PG(2, 4)
through ``x`` (``constructions.direction_figures``), and every direction holds 96 pairs, so a choice of
directions is judged by its fewest common opponents, then how many directions sit that low, then the
strangers below ``floor(sqrt(64))``: the order of the criteria.
"""

from __future__ import annotations

import math
import random
from itertools import combinations

from tournament.seating.constructions import affine_classes, projective_lines
from tournament.seating.cyclic import Groups

PLAYERS = 64
POINTS = 21


def best_directions(rounds: int) -> tuple[list[int], tuple[int, int, int]]:
    """The ``rounds`` directions with the most common opponents for the worst strangers, then the fewest
    strangers that low, then the fewest below 8, and those three figures (pairs, not directions)."""
    lines = projective_lines(3)
    through = [[i for i, line in enumerate(lines) if d in line] for d in range(POINTS)]
    bar = math.isqrt(PLAYERS)
    per_direction = 3 * PLAYERS // 2
    best: tuple[int, int, int] | None = None
    chosen: list[int] = []
    for subset in combinations(range(POINTS), rounds):
        on = set(subset)
        counts = [sum(1 for d in line if d in on) for line in lines]
        scores = [sum(counts[i] * (counts[i] - 1) for i in through[d]) for d in range(POINTS) if d not in on]
        if not scores:
            continue
        low = min(scores)
        at_low = scores.count(low) * per_direction
        below = sum(1 for v in scores if v < bar) * per_direction if rounds > 4 else 0
        key = (low, -at_low, -below)
        if best is None or key > best:
            best, chosen = key, list(subset)
    if best is None:
        raise ValueError(f"64 players in {rounds} hanchan: every pair meets, there are no strangers")
    return chosen, (best[0], -best[1], -best[2])


def affine_start(rounds: int, rng: random.Random) -> list[Groups]:
    """The hanchan of the best directions (players ``0..63``), in a random order with random table
    numbers: the annealing's start."""
    classes = affine_classes(3)
    directions, _ = best_directions(rounds)
    rng.shuffle(directions)
    hanchan = []
    for d in directions:
        tables = [list(line) for line in classes[d]]
        rng.shuffle(tables)
        hanchan.append(tables)
    return hanchan
