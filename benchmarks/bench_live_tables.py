"""The head referee's live tables: the payload of a hanchan in play, read from PostgreSQL.

100 and 250 tables of a started hanchan, each with a draft of a random legal hanchan (the replay as the
sheet editor stores it, from ``bench_rules``). Figures: the queries the payload takes (target: five or
fewer, whatever the count of tables) and its time, best and median of 15 (target: under 100 ms for 250
tables, as the page polls it every few seconds). Runs on the database of DATABASE_URL in a throwaway
test database that it creates and drops.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python benchmarks/bench_live_tables.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")

import django  # noqa: E402

django.setup()

from bench_rules import random_sheets  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

COUNTS = (100, 250)
RUNS = 15


def seed(tables: int) -> int:
    """A tournament whose first hanchan has ``tables`` tables in play, each with a draft sheet."""
    from scoring.models import ScoreSheet
    from scoring.rules.replay import replay
    from tournament.models import Player, Round, Seat, Table, Tournament

    tournament = Tournament.objects.create(
        name=f"Bench {tables}",
        slug=f"bench-{tables}",
        starts_on=date(2026, 1, 1),
        ends_on=date(2026, 1, 2),
        hanchan_count=1,
    )
    players = Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Player {i:04d}") for i in range(4 * tables)
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    made = Table.objects.bulk_create(Table(round=round_, number=n + 1) for n in range(tables))
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, wind=wind, player=players[4 * t + wind])
        for t, table in enumerate(made)
        for wind in range(4)
    )
    sheets = []
    for t, (table, sheet) in enumerate(zip(made, random_sheets(tables, seed=tables), strict=True)):
        names = [players[4 * t + wind].name for wind in range(4)]
        entry = {"form": "hands", "hands": sheet["hands"]}
        replayed = replay({**sheet, "players": names}).as_json()
        sheets.append(ScoreSheet(table=table, form="hands", entry=entry, replay=replayed))
    ScoreSheet.objects.bulk_create(sheets)
    return tournament.pk


def main() -> None:
    from tournament.models import Tournament
    from tournament.queries.live_tables import tables_payload

    connection.settings_dict["TEST"]["NAME"] = f"bench_live_tables_{os.getpid()}"  # runs may overlap
    test_db = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        for count in COUNTS:
            tournament = Tournament.objects.get(pk=seed(count))
            with CaptureQueriesContext(connection) as queries:
                payload = tables_payload(tournament, staff=True)
            assert len(payload["tables"]) == count
            times = []
            for _ in range(RUNS):
                started = time.perf_counter()
                tables_payload(tournament, staff=True)
                times.append(time.perf_counter() - started)
            print(
                f"{count} tables in play: {len(queries)} queries (target <= 5), "
                f"best {min(times) * 1000:.1f} ms, median {statistics.median(times) * 1000:.1f} ms "
                f"(target < 100 ms at 250) on {connection.vendor}; load {os.getloadavg()[0]:.2f}"
            )
    finally:
        connection.creation.destroy_test_db(test_db, verbosity=0)


if __name__ == "__main__":
    main()
