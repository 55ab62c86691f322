"""Team standings for 1,000 players in 250 teams of four x 12 hanchan, each rule: the pure calculator.

Target: under 50 ms a rule on top of the individual standings (which bench_standings.py times). Needs no
database.

    .venv/bin/python benchmarks/bench_teams.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.core.standings import Entrant, HanchanResult, PenaltyEntry, compute_standings
from tournament.core.teams import Membership, TeamRule, compute_team_standings

PLAYERS, ROUNDS, TEAM_SIZE = 1000, 12, 4


def main() -> None:
    rng = random.Random(1)
    ids = list(range(PLAYERS))
    entrants = [Entrant(i, f"P{i:04d}") for i in ids]
    results = []
    for number in range(1, ROUNDS + 1):
        rng.shuffle(ids)
        for table in range(PLAYERS // 4):
            scores = [Decimal(rng.randrange(-600, 600)) / 10 for _ in range(3)]
            scores.append(-sum(scores))
            ranked = sorted(range(4), key=lambda w: -scores[w])
            for wind in range(4):
                player = ids[4 * table + wind]
                results.append(HanchanResult(player, number, 30000, ranked.index(wind) + 1, scores[wind]))
    penalties = [
        PenaltyEntry(rng.randrange(PLAYERS), Decimal(20), rng.randrange(1, ROUNDS + 1)) for _ in range(50)
    ]
    standings = compute_standings(entrants, results, penalties)
    memberships = [Membership(i, f"Team {i // TEAM_SIZE:03d}") for i in range(PLAYERS)]
    print(f"{PLAYERS} players in {PLAYERS // TEAM_SIZE} teams of {TEAM_SIZE}, {ROUNDS} hanchan")
    for rule in (TeamRule("sum"), TeamRule("best_per_hanchan", best_n=3), TeamRule("best_overall", best_n=3)):
        times = []
        for _ in range(10):
            start = time.perf_counter()
            teams = compute_team_standings(standings, memberships, rule)
            times.append(time.perf_counter() - start)
        assert len(teams.rows) == PLAYERS // TEAM_SIZE
        print(f"  {rule.ranking:17} median {statistics.median(times) * 1000:6.1f} ms  (target < 50 ms)")


if __name__ == "__main__":
    main()
