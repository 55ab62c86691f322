"""Every rating recomputed from the results of a series: 50 tournaments, 5,000 persons, 200,000 hanchan
results (a player's result in one hanchan: 50,000 tables of four), generated in memory. The pure
recompute: the skill rating (``tournament.ratings.skill``, openskill) over every hanchan in order, and
the EMA ranking (``tournament.ratings.mers``) of every person from the tournaments' final places.

Target: every rating under 30 s. Needs no database (the site-wide persons and series are not stored yet:
this times what a recompute would run once their results are read).

    .venv/bin/python benchmarks/bench_series.py [--tables-results]

``--tables-results`` reads "200,000 hanchan results" as 200,000 tables (800,000 players' results)
instead, to show the headroom.
"""

from __future__ import annotations

import random
import sys
import time
from collections import defaultdict
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.ratings.mers import Result, base_rank, ranking_list, tournament_weight
from tournament.ratings.skill import Game, rate

TOURNAMENTS, PERSONS, RESULTS, HANCHAN = 50, 5000, 200_000, 10
UMA = (15, 5, -5, -15)


def series(results: int) -> tuple[list[Game], dict[int, list[Result]], date]:
    """The games of every tournament in order, each person's MERS results, and the day after the last."""
    rng = random.Random(37)
    per_tournament = results // TOURNAMENTS // HANCHAN // 4 * 4  # players of each tournament
    games: list[Game] = []
    mers: dict[int, list[Result]] = defaultdict(list)
    day = date(2024, 1, 6)
    for number in range(TOURNAMENTS):
        players = rng.sample(range(PERSONS), min(per_tournament, PERSONS))
        totals = dict.fromkeys(players, 0)
        for hanchan in range(1, HANCHAN + 1):
            rng.shuffle(players)
            for table in range(len(players) // 4):
                seated = tuple(players[4 * table : 4 * table + 4])
                points = [rng.randrange(-200, 800) * 100 for _ in range(4)]
                if rng.random() < 0.02:
                    points[1] = points[0]  # a tie on points: a shared place
                places = tuple(1 + sum(other > mine for other in points) for mine in points)
                games.append(Game((number, hanchan, table + 1), seated, places))
                for player, place, mine in zip(seated, places, points, strict=True):
                    totals[player] += mine // 1000 + UMA[place - 1]
        ended = day + timedelta(days=rng.choice((0, 1, 2)))
        weight = tournament_weight(
            days=(ended - day).days + 1,
            players=len(players),
            countries=rng.randrange(1, 15),
            qualification=rng.random() < 0.1,
        )
        order = sorted(totals.values(), reverse=True)
        for player, total in totals.items():
            place = 1 + order.index(total)
            mers[player].append(Result(number, base_rank(place, len(players)), weight, ended))
        day += timedelta(days=21)
    return games, mers, day


def main() -> None:
    results = RESULTS * 4 if "--tables-results" in sys.argv else RESULTS
    start = time.perf_counter()
    games, mers, as_of = series(results)
    generated = time.perf_counter() - start
    seats = sum(len(game.players) for game in games)
    print(
        f"{TOURNAMENTS} tournaments, {len(mers)} persons, {seats:,} hanchan results ({len(games):,} tables),"
        f" generated in {generated:.1f} s"
    )

    start = time.perf_counter()
    ratings = rate(games)
    skill_seconds = time.perf_counter() - start
    top = ratings.table()[0]
    print(
        f"skill (openskill Plackett-Luce), every hanchan in order: {skill_seconds:.1f} s "
        f"({1e6 * skill_seconds / len(games):.0f} us a table); top ordinal {top[1].ordinal:.2f} "
        f"after {top[2]} hanchan"
    )

    start = time.perf_counter()
    ranked = ranking_list(mers, as_of)
    mers_seconds = time.perf_counter() - start
    print(
        f"MERS ranking of every person on {as_of}: {mers_seconds:.2f} s; {len(ranked)} ranked, "
        f"top {ranked[0][1].rounded}"
    )
    total = skill_seconds + mers_seconds
    print(f"every rating: {total:.1f} s (target < 30 s): {'ok' if total < 30 else 'TOO SLOW'}")


if __name__ == "__main__":
    main()
