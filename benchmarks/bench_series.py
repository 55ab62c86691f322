"""Every rating recomputed from the results of a series: 50 tournaments, 5,000 persons, 200,000 hanchan
results (a player's result in one hanchan: 50,000 tables of four).

1. The pure recompute, generated in memory: the skill rating (``tournament.ratings.skill``, openskill)
   over every hanchan in order, and the EMA ranking (``tournament.ratings.mers``) of every person from
   the tournaments' final places. Target: every rating under 30 s.
2. The database side: the same field loaded into a throwaway PostgreSQL database (bulk_create), then the
   pages timed with Django's test Client (p50 and p95 over repeated requests, after a first request that
   fills the caches): a person's page, a series' standings (the series holds every tournament), the
   site's and the series' rating lists. Target: each page under 100 ms p95. Then the rating pages
   right after a change (the stored list served, stale, while the recompute runs), the background
   recompute's time, and the pages again once it has stored the new list.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python benchmarks/bench_series.py \
        [--small] [--pure] [--tables-results]

``--small``: a tenth of the field (5 tournaments, 500 persons, 20,000 results), for a quick run.
``--profile``: each page's warm request under cProfile too. ``--pure``: the pure recompute only (no
database). ``--tables-results`` reads "200,000 hanchan results"
as 200,000 tables (800,000 players' results) instead, to show the headroom (pure part only).
"""

from __future__ import annotations

import cProfile
import os
import pstats
import random
import statistics
import sys
import time
from collections import defaultdict
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")

import django

django.setup()

from django.core.cache import cache  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.db.models import F  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

from scoring.models import ScoreSheet, SeatResult  # noqa: E402
from tournament.models import Person, Player, RatingRun, Round, Seat, Series, Table, Tournament  # noqa: E402
from tournament.ratings.mers import Result, base_rank, ranking_list, tournament_weight  # noqa: E402
from tournament.ratings.skill import Game, rate  # noqa: E402
from tournament.services import ratings as rating_services  # noqa: E402

TOURNAMENTS, PERSONS, RESULTS, HANCHAN = 50, 5000, 200_000, 10
SMALL = "--small" in sys.argv
if SMALL:
    TOURNAMENTS, PERSONS, RESULTS = 5, 500, 20_000
COUNTRIES = ("DE", "FR", "NL", "DK", "AT", "PL", "RU", "UA", "IT", "ES", "GB", "SE", "FI", "CZ", "HU")
REPEAT = 30
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
    pure()
    if "--pure" not in sys.argv:
        database()


def pure() -> None:
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


# -- The database side --------------------------------------------------------------------------------


def seed(results: int) -> tuple[list[int], int, int]:
    """The field in the database: persons, tournaments (every fifth a MERS event), registrations linked
    to their persons, hanchan, tables, seats, signed sheets and their results; returns the tournaments'
    ids, the series' id (every tournament) and a person's id (one who played many)."""
    rng = random.Random(37)
    per_tournament = results // TOURNAMENTS // HANCHAN // 4 * 4
    persons = Person.objects.bulk_create(
        Person(name=f"Person {i:05d}", country=COUNTRIES[i % len(COUNTRIES)]) for i in range(PERSONS)
    )
    person_ids = [person.pk for person in persons]
    day = date(2026, 1, 3)
    tournaments = []
    for number in range(TOURNAMENTS):
        tournaments.append(
            Tournament(
                name=f"Open {number:02d}",
                slug=f"open-{number:02d}",
                starts_on=day,
                ends_on=day + timedelta(days=number % 3),
                hanchan_count=HANCHAN,
                mers_event=number % 5 == 0,
                players_qualified=number % 10 == 0,
            )
        )
        day += timedelta(days=6)
    tournaments = Tournament.objects.bulk_create(tournaments)
    for tournament in tournaments:
        chosen = rng.sample(person_ids, min(per_tournament, PERSONS))
        players = Player.objects.bulk_create(
            Player(
                tournament=tournament,
                name=f"Person {person - person_ids[0]:05d}",
                person_id=person,
                country=COUNTRIES[(person - person_ids[0]) % len(COUNTRIES)],
            )
            for person in chosen
        )
        ids = [player.pk for player in players]
        rounds = Round.objects.bulk_create(
            Round(tournament=tournament, number=n, status="finished") for n in range(1, HANCHAN + 1)
        )
        tables = Table.objects.bulk_create(
            Table(round=round_, number=t + 1) for round_ in rounds for t in range(len(ids) // 4)
        )
        seats: list[Seat] = []
        for index, table in enumerate(tables):
            if index % (len(ids) // 4) == 0:
                rng.shuffle(ids)
            t = index % (len(ids) // 4)
            seats.extend(
                Seat(table=table, round_id=table.round_id, wind=w, player_id=ids[4 * t + w]) for w in range(4)
            )
        seats = Seat.objects.bulk_create(seats, batch_size=5000)
        sheets = ScoreSheet.objects.bulk_create(
            (ScoreSheet(table=table, status="signed", form="final", entry={}, replay={}) for table in tables),
            batch_size=5000,
        )
        rows = []
        for index, sheet in enumerate(sheets):
            points = [rng.randrange(50, 500) * 100 for _ in range(3)]
            points.append(120000 - sum(points))
            places = [1 + sum(other > mine for other in points) for mine in points]
            for w in range(4):
                seat = seats[4 * index + w]
                score = Decimal(points[w] - 30000) / 1000 + (15, 5, -5, -15)[places[w] - 1]
                rows.append(
                    SeatResult(
                        sheet=sheet,
                        seat=seat,
                        player_id=seat.player_id,
                        points=points[w],
                        rank=places[w],
                        uma=Decimal((15, 5, -5, -15)[places[w] - 1]),
                        score=score,
                    )
                )
        SeatResult.objects.bulk_create(rows, batch_size=5000)
    series = Series.objects.create(name="The whole season", slug="season")
    series.tournaments.set(tournaments)
    busiest = max(
        person_ids, key=lambda pk: Player.objects.filter(person_id=pk).count() if pk % 97 == 0 else 0
    )
    return [t.pk for t in tournaments], series.pk, busiest


def timed_page(client: Client, address: str) -> str:
    """A page's first request (filling the caches), then p50 and p95 over ``REPEAT`` more, and the
    queries of one warm request."""
    started = time.perf_counter()
    response = client.get(address)
    first = time.perf_counter() - started
    assert response.status_code == 200, (address, response.status_code)
    times, cpu = [], []
    for _ in range(REPEAT):
        started, used = time.perf_counter(), time.process_time()
        client.get(address)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
    queries = []
    with connection.execute_wrapper(lambda execute, sql, *args: queries.append(sql) or execute(sql, *args)):
        client.get(address)
    if "--profile" in sys.argv:
        profile = cProfile.Profile()
        profile.runcall(client.get, address)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(r"/(tournament|scoring)/", 25)
    p50, p95 = percentiles(times)
    cpu50, cpu95 = percentiles(cpu)
    verdict = "ok" if p95 < 0.1 else "OVER TARGET"
    return (
        f"{address}: first {first * 1000:.0f} ms, p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms "
        f"(this process's CPU: p50 {cpu50 * 1000:.1f} ms, p95 {cpu95 * 1000:.1f} ms; {len(queries)} "
        f"queries; target p95 < 100 ms: {verdict})"
    )


def after_a_change(client: Client, slug: str, tournament_id: int) -> None:
    """A change of the first tournament's results (its standings version moves, as in a signed sheet's
    transaction) while its recompute runs on a worker: the rating pages timed serving the stored list,
    stale; then the background recompute timed (every list whose data changed: the site's and the
    series'), and the pages timed again on the new list."""
    Tournament.objects.filter(pk=tournament_id).update(standings_version=F("standings_version") + 1)
    RatingRun.objects.update(heartbeat_at=timezone.now())  # a worker computes every list
    addresses = ("/ratings/", "/ratings/?list=mers", f"/series/{slug}/ratings/", "/api/ratings/?list=mers")
    print("right after a change (the stored list served, stale, while the recompute runs):")
    for address in addresses:
        assert b"data-rating-stale" in client.get(address).content or address.startswith("/api/")
        print("  " + timed_page(client, address))
    RatingRun.objects.update(heartbeat_at=None)
    started = time.perf_counter()
    stored = rating_services.refresh_rating_lists()
    print(
        f"background recompute ({', '.join(stored)}): {time.perf_counter() - started:.1f} s "
        "(the worker's time; no page waits for it)"
    )
    print("once it is stored:")
    for address in addresses:
        assert b"data-rating-stale" not in client.get(address).content
        print("  " + timed_page(client, address))


def percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def database() -> None:
    setup_test_environment()
    connection.settings_dict["TEST"]["NAME"] = f"bench_series_{os.getpid()}"  # runs may overlap
    test_db = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        started = time.perf_counter()
        ids, series_id, person_id = seed(RESULTS)
        print(
            f"seeded {TOURNAMENTS} tournaments, {PERSONS} persons, {SeatResult.objects.count():,} hanchan "
            f"results in {time.perf_counter() - started:.1f} s on {connection.vendor} ({test_db}); "
            f"cache {type(cache).__name__}"
        )
        cache.clear()
        client = Client()
        slug = Series.objects.get(pk=series_id).slug
        for address in (
            f"/persons/{person_id}/",
            f"/series/{slug}/",
            "/ratings/",
            "/ratings/?list=mers",
            f"/series/{slug}/ratings/",
            "/api/ratings/?list=mers",
        ):
            print(timed_page(client, address))
        after_a_change(client, slug, ids[0])
        reset_queries()
    finally:
        connection.creation.destroy_test_db(test_db, verbosity=0)


if __name__ == "__main__":
    main()
