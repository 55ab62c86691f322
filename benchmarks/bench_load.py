"""Live standings under load: 200 phones polling while a referee signs sheets, as in production mode.

Production mode on this machine: gunicorn (sync workers) with DEBUG off, on PostgreSQL and Redis.
200 clients each poll, with 1 to 3 s between requests as the live page does, a mix
of the standings page, its JSON and the standings API; meanwhile this process signs a sheet every
0.5 s (each refreshes the cached standings on commit). Target: p95 under 50 ms and no errors.

    .venv/bin/python benchmarks/bench_load.py [--clients 200] [--seconds 30]

The clients are asyncio coroutines in this process (a new connection per request, as a phone
polling every few seconds mostly makes). Needs PostgreSQL (DATABASE_URL, default the local server) and Redis
(REDIS_URL, default redis://127.0.0.1:6379/14). It uses a database of its own, `bench_load`, which it
creates and drops.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.served import database_url, final_entry, free_port, get, new_tournament, psql, wait_for  # noqa: E402

DB_NAME = "bench_load"
DATABASE_URL = database_url(DB_NAME)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
PORT = free_port()
PLAYERS, ROUNDS = 160, 6

os.environ.update(
    DJANGO_SETTINGS_MODULE="config.settings",
    DATABASE_URL=DATABASE_URL,
    REDIS_URL=REDIS_URL,
    DEBUG="0",
    SECRET_KEY="benchmark-only-secret-key-" + "x" * 30,
    ALLOWED_HOSTS="127.0.0.1,localhost",
    SECURE_COOKIES="0",
    SECURE_SSL_REDIRECT="0",  # plain HTTP on the loopback, as behind a TLS-terminating proxy
    HEALTHZ_REQUIRE_WORKER="0",
    LOG_LEVEL="WARNING",
)


async def poll(paths: list[str], seconds: float, clients: int) -> dict[str, object]:
    """``clients`` phones, each asking for one of ``paths`` every 1 to 3 s (as the live pages poll), over
    a new connection each time; every request's latency from connecting to the last byte."""
    latencies: list[float] = []
    errors: dict[str, int] = {}
    deadline = time.monotonic() + seconds
    rng = random.Random(3)

    async def client() -> None:
        await asyncio.sleep(rng.uniform(0, 2))
        while time.monotonic() < deadline:
            path = rng.choice(paths)
            status, seconds = await get(PORT, path)
            if status != "200":
                errors[status] = errors.get(status, 0) + 1
            else:
                latencies.append(seconds)
            await asyncio.sleep(rng.uniform(1, 3))

    await asyncio.gather(*(client() for _ in range(clients)))
    latencies.sort()

    def percentile(p: float) -> float:
        return (
            latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies else float("nan")
        )

    return {
        "requests": len(latencies) + sum(errors.values()),
        "p50_ms": percentile(0.5),
        "p95_ms": percentile(0.95),
        "p99_ms": percentile(0.99),
        "max_ms": percentile(1.0),
        "errors": errors,
    }


def prepare() -> tuple[str, int, list[int]]:
    """Create the database and a tournament: seated, hanchan 1 to 3 signed, later ones to sign."""
    prepared = new_tournament(DB_NAME, "Load Open", "load-open", players=PLAYERS, rounds=ROUNDS, signed=3)
    from tournament.queries.standings_db import refresh_standings

    refresh_standings(prepared.tournament.pk)
    return prepared.tournament.slug, prepared.tournament.pk, prepared.to_sign


def sign_continuously(table_ids: list[int], stop: threading.Event, signed: list[float], every: float) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connection

    from scoring import services as sheets
    from tournament.models import Table

    user = get_user_model().objects.get(username="bench")
    rng = random.Random(2)
    for table_id in table_ids:
        if stop.is_set():
            break
        started = time.perf_counter()
        table = Table.objects.get(pk=table_id)
        sheets.sign_sheet(sheets.save_sheet(table, final_entry(table, rng), user, submit=True), user)
        signed.append(time.perf_counter() - started)
        stop.wait(every)
    connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument(
        "--sign-every", type=float, default=0.5, help="seconds between two signed sheets; 0: none"
    )
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    args = parser.parse_args()
    slug, tournament_id, to_sign = prepare()
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, check=True
    )
    paths = [
        f"/t/{slug}/standings/",
        f"/t/{slug}/standings.json",
        f"/api/tournaments/{tournament_id}/standings/",
    ]
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{PORT}",
            "--workers",
            str(args.workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        start_new_session=True,
    )
    stop = threading.Event()
    signed: list[float] = []
    try:
        for path in paths * 10:  # every worker process warm
            wait_for(f"http://127.0.0.1:{PORT}{path}")
        signer = threading.Thread(
            target=sign_continuously, args=(to_sign if args.sign_every else [], stop, signed, args.sign_every)
        )
        signer.start()
        figures = asyncio.run(poll(paths, args.seconds, args.clients))
        stop.set()
        signer.join()
        errors = sum(figures["errors"].values())
        print(
            f"{args.clients} clients polling every 1-3 s for {args.seconds} s "
            f"(gunicorn, {args.workers} sync workers, DEBUG off, PostgreSQL, Redis):"
        )
        print(
            f"  {figures['requests']} requests ({figures['requests'] / args.seconds:.0f}/s), "
            f"p50 {figures['p50_ms']:.1f} ms, p95 {figures['p95_ms']:.1f} ms, "
            f"p99 {figures['p99_ms']:.1f} ms, "
            f"max {figures['max_ms']:.1f} ms; errors {errors} {figures['errors']}"
        )
        print(
            f"  meanwhile {len(signed)} sheets signed by a referee "
            f"(median {sorted(signed)[len(signed) // 2] * 1000:.0f} ms each)"
            if signed
            else "  no sheet signed"
        )
        met = figures["p95_ms"] < 50 and not errors
        print(f"  target p95 < 50 ms with no errors: {'met' if met else 'NOT met'}")
    finally:
        stop.set()
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)
        from django.db import connections

        connections.close_all()
        psql(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")


if __name__ == "__main__":
    main()
