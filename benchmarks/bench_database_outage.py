"""PostgreSQL killed under the production site: how long the pages, the API and a submit wait meanwhile,
and how soon the site is fresh again after the restart (docs/operations.md, "A database that dies").

The site is uvicorn with two worker processes and the connection pool, as the Procfile serves it, DEBUG
off, on a PostgreSQL cluster of the benchmark's own (``tests.own_postgres``: ``initdb`` in a temporary
folder, a free port; the machine's shared server is never stopped) holding a copy of a seated tournament
(hanchan 1 and 2 signed), with a Redis of its own as the cache. ``--readers`` phones poll the public
pages (the home page, the standings, their JSON) every 0.8 to 1.6 s over a new connection each; after
``--warm-up`` seconds the cluster is killed (an immediate shutdown: every connection cut at once), a
second later the API is asked and a sheet submitted, and ``--outage-seconds`` after the kill it is
started again.

Figures (targets in brackets):

- ``page_p95_ms`` / ``page_max_ms``: the pages' answers during the outage, from a second after the kill
  (the requests already in flight then are answered, not timed) [p95 < 200 ms];
- ``api_ms`` / ``submit_ms``: the API's and the submit's 503 [< 200 ms], and whether anything was stored;
- ``fresh_after_restart_s``: the first fresh page after the restart [< 5 s];
- ``errors``: answers of 500 or more, and connections refused, all through [0].

    .venv/bin/python benchmarks/bench_database_outage.py [--readers 50] [--outage-seconds 8]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.served import database_url, final_entry, new_tournament, psql  # noqa: E402

DB_NAME = "bench_database_outage"
# This process prepares the tournament with no Redis (tasks in process); the server gets its own.
os.environ.update(
    DJANGO_SETTINGS_MODULE="config.settings",
    DATABASE_URL=database_url(DB_NAME),
    REDIS_URL="",
    DEBUG="0",
    SECRET_KEY="benchmark-only-secret-key-" + "x" * 30,
    ALLOWED_HOSTS="127.0.0.1,localhost",
    SECURE_COOKIES="0",
    SECURE_SSL_REDIRECT="0",
    HEALTHZ_REQUIRE_WORKER="0",
    LOG_LEVEL="ERROR",
)
PAGES = ("", "standings/", "standings.json")


@dataclass
class Answer:
    started: float
    seconds: float
    status: int
    stale: bool


def request(port: int, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, bool, float]:
    """One request on a connection of its own: the status, whether it is a stale copy, and its seconds."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Token {token}"
    started = time.monotonic()
    link = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        link.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = link.getresponse()
        response.read()
        return response.status, response.getheader("X-Stale-Copy") is not None, time.monotonic() - started
    except OSError:
        return 0, False, time.monotonic() - started
    finally:
        link.close()


def poll(port: int, base: str, answers: list[Answer], stop: threading.Event, seed: int) -> None:
    chance = random.Random(seed)
    while not stop.is_set():
        started = time.monotonic()
        status, stale, seconds = request(port, "GET", base + chance.choice(PAGES))
        answers.append(Answer(started, seconds, status, stale))
        stop.wait(chance.uniform(0.8, 1.6))


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else (values[0] if values else 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--readers", type=int, default=50)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--warm-up", type=float, default=3.0)
    parser.add_argument("--outage-seconds", type=float, default=8.0)
    parser.add_argument("--after-seconds", type=float, default=8.0)
    args = parser.parse_args()

    prepared = new_tournament(DB_NAME, "Outage Open", "outage-open", players=args.players, rounds=4, signed=2)
    from django.db import connections
    from rest_framework.authtoken.models import Token

    from tests import processes
    from tests.asgi_server import Server, wait_until_serving
    from tests.own_postgres import own_postgres
    from tests.own_redis import free_port, own_redis
    from tournament.models import Table

    token = Token.objects.create(user=prepared.user).key
    table = Table.objects.get(pk=prepared.to_sign[0])
    submission = {"entry": final_entry(table, random.Random(table.pk)), "submit": True}
    sheet_url = f"/api/tables/{table.pk}/sheet/"
    base = f"/t/{prepared.tournament.slug}/"
    connections.close_all()
    command = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"]
    subprocess.run(command, cwd=ROOT, check=True)  # DEBUG off: the pages name the collected files
    logs = ROOT / "var" / "bench"
    logs.mkdir(parents=True, exist_ok=True)
    try:
        with own_postgres() as database, own_redis(logs / "database-outage-redis.log") as redis:
            database.copy_database(database_url(DB_NAME), "site")
            port = free_port()
            env = {
                **os.environ,
                "DATABASE_URL": database.url("site"),
                "REDIS_URL": redis.url,
                "DATABASE_POOL": "1",
                "TEST_RUN_ID": "",
            }
            command = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port)]
            command += ["--host", "127.0.0.1", "--no-access-log", "--workers", "2", "--log-level", "warning"]
            with (logs / "database-outage-server.log").open("w") as log:
                server = processes.start(command, env=env, output=log)
                try:
                    wait_until_serving(Server(port, server))
                    for page in PAGES * 4:  # each process's last good copy of each page
                        request(port, "GET", base + page)
                    answers: list[Answer] = []
                    stop = threading.Event()
                    readers = [
                        threading.Thread(target=poll, args=(port, base, answers, stop, seed), daemon=True)
                        for seed in range(args.readers)
                    ]
                    for reader in readers:
                        reader.start()
                    time.sleep(args.warm_up)
                    killed_at = time.monotonic()
                    database.kill()
                    gone_at = time.monotonic()
                    time.sleep(1)
                    api = request(port, "GET", "/api/tournaments/")
                    submitted = request(port, "POST", sheet_url, submission, token)
                    time.sleep(max(0.0, killed_at + args.outage_seconds - time.monotonic()))
                    restart_at = time.monotonic()
                    database.start()
                    restarted_at = time.monotonic()
                    time.sleep(args.after_seconds)
                    stop.set()
                    for reader in readers:
                        reader.join(timeout=60)
                finally:
                    processes.stop(server)
            import psycopg

            with psycopg.connect(database.url("site")) as link:
                row = link.execute("SELECT count(*) FROM scoring_scoresheet WHERE table_id = %s", [table.pk])
                stored = int(row.fetchone()[0])  # type: ignore[index]
    finally:
        connections.close_all()
        psql(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")

    during = [a for a in answers if gone_at + 1.0 <= a.started < restart_at]
    fresh = [a for a in answers if a.started >= restarted_at and a.status == 200 and not a.stale]
    errors = sum(1 for a in answers if a.status >= 500 or a.status == 0)
    load = os.getloadavg()[0]
    print(f"readers {args.readers}, outage {args.outage_seconds:.0f} s, load at the end {load:.2f}")
    print(f"answers: {len(answers)}; during the outage {len(during)}, of them stale copies "
          f"{sum(a.stale for a in during)}")  # fmt: skip
    seconds = [a.seconds for a in during]
    print(f"page_p95_ms {p95(seconds) * 1000:.0f} (target < 200); page_max_ms {max(seconds) * 1000:.0f}")
    print(f"api_ms {api[2] * 1000:.0f} (status {api[0]}); submit_ms {submitted[2] * 1000:.0f} "
          f"(status {submitted[0]}); sheets stored in the outage {stored}")  # fmt: skip
    back = min(a.started + a.seconds for a in fresh) - restarted_at if fresh else float("inf")
    print(f"restart {restarted_at - restart_at:.2f} s; fresh_after_restart_s {back:.2f} (target < 5)")
    statuses = Counter(a.status for a in answers)
    print(f"errors {errors} (target 0); statuses {dict(sorted(statuses.items()))}")


if __name__ == "__main__":
    main()
