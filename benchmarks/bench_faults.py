"""Redis outages in production mode: server errors during the outage, and how soon the standings are right.

The production server (uvicorn workers running ``config.asgi`` with the connection pool, as the
Procfile; ``--server gunicorn``: sync workers on ``config.wsgi``), DEBUG off, on PostgreSQL, with a Redis
server of the benchmark's own (a ``redis-server --save ""`` subprocess on a free port: the machine's
shared Redis is never touched) as the cache and broker. Clients poll the standings page, its JSON, the
standings API and the login page while a referee submits and signs a sheet through the API; meanwhile
Redis goes away for 20 s, in two ways:

- ``kill``: the server is killed (connections refused at once) and started again, empty;
- ``freeze``: the server is stopped with SIGSTOP (connections hang until the socket timeout) and
  continued, with every key it held: the standings cached before the signing included.

Figures (each from a function of its own):

- ``redis_outage_5xx``: answers of 500 or more during each kind of outage (target: 0);
- ``seconds_until_standings_right``: after a frozen Redis returns, seconds until the standings JSON shows
  the sheet signed during the outage (target: under 60 s; it also says how soon after the signing they
  were right during the outage);
- then ``faults_jobs.py`` (``--skip-jobs`` leaves it out): seconds until the export of a worker killed
  mid-export is completed by another worker.

    .venv/bin/python benchmarks/bench_faults.py [--clients 20] [--outage-seconds 20] [--server uvicorn]

Needs PostgreSQL (DATABASE_URL, default the local server); uses a database of its own, ``bench_faults``,
which it creates and drops.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.served import database_url, final_entry, free_port, new_tournament, psql, wait_for  # noqa: E402

DB_NAME = "bench_faults"
DATABASE_URL = database_url(DB_NAME)
PLAYERS, ROUNDS = 40, 4


REDIS_PORT, WEB_PORT = free_port(), free_port()
REDIS_URL = f"redis://127.0.0.1:{REDIS_PORT}/0"

os.environ.update(
    DJANGO_SETTINGS_MODULE="config.settings",
    DATABASE_URL=DATABASE_URL,
    REDIS_URL=REDIS_URL,
    DEBUG="0",
    SECRET_KEY="benchmark-only-secret-key-" + "x" * 30,
    ALLOWED_HOSTS="127.0.0.1,localhost",
    SECURE_COOKIES="0",
    SECURE_SSL_REDIRECT="0",
    HEALTHZ_REQUIRE_WORKER="0",
    LOG_LEVEL="ERROR",
)


class Redis:
    """The benchmark's own Redis server."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("redis-server is not installed")
        self.process = subprocess.Popen(
            [binary, "--port", str(REDIS_PORT), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", REDIS_PORT), timeout=0.2) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("redis-server did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait()

    def freeze(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGCONT)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGCONT)
            self.process.terminate()
            self.process.wait(timeout=10)


@dataclass
class Site:
    slug: str
    tournament_id: int
    token: str
    to_sign: list[int]
    redis: Redis
    paths: list[str] = field(default_factory=list)


def prepare(redis: Redis) -> Site:
    """The database and a tournament: seated, hanchan 1 and 2 signed, the later ones to sign."""
    prepared = new_tournament(DB_NAME, "Fault Open", "fault-open", players=PLAYERS, rounds=ROUNDS, signed=2)
    from rest_framework.authtoken.models import Token

    tournament, to_sign = prepared.tournament, prepared.to_sign
    token = Token.objects.create(user=prepared.user).key
    site = Site(tournament.slug, tournament.pk, token, to_sign, redis)
    site.paths = [
        f"/t/{site.slug}/standings/",
        f"/t/{site.slug}/standings.json",
        f"/api/tournaments/{site.tournament_id}/standings/",
        "/accounts/login/",
    ]
    return site


def request(method: str, path: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    req = urllib.request.Request(f"http://127.0.0.1:{WEB_PORT}{path}", data, headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, None


def sign_one(site: Site) -> list[int]:
    """A referee submits and signs the next table's sheet through the API: the two statuses."""
    from tournament.models import Table

    table = Table.objects.get(pk=site.to_sign.pop(0))
    url = f"/api/tables/{table.pk}/sheet/"
    submitted, _ = request(
        "POST", url, site.token, {"entry": final_entry(table, random.Random(table.pk)), "submit": True}
    )
    signed, _ = request("POST", f"{url}sign/", site.token, {})
    return [submitted, signed]


def expected_totals(site: Site) -> dict[str, str]:
    from tournament.queries.standings_db import load_standings, serialize

    return {row["name"]: row["total"] for row in serialize(load_standings(site.tournament_id))["rows"]}


def shown_totals(site: Site) -> dict[str, str] | None:
    status, body = request("GET", f"/t/{site.slug}/standings.json")
    return {row["name"]: row["total"] for row in body["rows"]} if status == 200 else None


class Pollers:
    """``clients`` coroutines in a thread of their own, each asking for one of the paths every 0.2 to 0.6 s
    over a new connection; every answer's (time, status) is kept."""

    def __init__(self, paths: list[str], clients: int) -> None:
        self.paths, self.clients = paths, clients
        self.answers: list[tuple[float, str]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self.run()))

    async def run(self) -> None:
        rng = random.Random(3)

        async def client() -> None:
            while not self.stop.is_set():
                path = rng.choice(self.paths)
                try:
                    reader, writer = await asyncio.wait_for(
                        asyncio.open_connection("127.0.0.1", WEB_PORT), 10
                    )
                    writer.write(
                        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
                    )
                    response = await asyncio.wait_for(reader.read(), 30)
                    writer.close()
                    status = response[9:12].decode()
                except (OSError, TimeoutError) as exc:
                    status = type(exc).__name__
                self.answers.append((time.monotonic(), status))
                await asyncio.sleep(rng.uniform(0.2, 0.6))

        await asyncio.gather(*(client() for _ in range(self.clients)))

    def __enter__(self) -> Pollers:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()

    def between(self, start: float, end: float) -> Counter[str]:
        return Counter(status for at, status in self.answers if start <= at <= end)


def outage(site: Site, kind: str, seconds: float) -> tuple[float, float, list[int]]:
    """Redis away for ``seconds`` (killed, or frozen), a sheet signed 2 s in: (down at, back at, statuses
    of the submit and the signing)."""
    down = time.monotonic()
    if kind == "kill":
        site.redis.kill()
    else:
        site.redis.freeze()
    time.sleep(2)
    statuses = sign_one(site)
    time.sleep(max(0.0, seconds - (time.monotonic() - down)))
    if kind == "kill":
        site.redis.start()
    else:
        site.redis.thaw()
    return down, time.monotonic(), statuses


def redis_outage_5xx(site: Site, kind: str, seconds: float, clients: int) -> dict[str, Any]:
    """Answers of 500 or more (and every status) while Redis is away ``seconds``."""
    with Pollers(site.paths, clients) as pollers:
        time.sleep(3)
        down, back, statuses = outage(site, kind, seconds)
        time.sleep(3)
    answers = pollers.between(down, back)
    answers.update(str(status) for status in statuses)
    errors = sum(count for status, count in answers.items() if not status.isdigit() or int(status) >= 500)
    return {"kind": kind, "answers": answers, "errors": errors, "sign": statuses}


def seconds_until_standings_right(site: Site, seconds: float, limit: float = 120) -> dict[str, float | None]:
    """A frozen Redis, a sheet signed during the outage: seconds from the signing, and from Redis's return,
    until the standings JSON shows it (None: not right within ``limit``)."""
    for _ in range(5):  # the standings cached before the outage, in every worker's Redis
        shown_totals(site)
    down = time.monotonic()
    site.redis.freeze()
    time.sleep(2)
    sign_one(site)
    signed = time.monotonic()
    expected = expected_totals(site)
    right_at: float | None = None
    while time.monotonic() - down < seconds:
        if right_at is None and shown_totals(site) == expected:
            right_at = time.monotonic()
        time.sleep(0.2)
    site.redis.thaw()
    back = time.monotonic()
    while time.monotonic() - back < limit:
        if shown_totals(site) == expected:
            return {
                "after_return": round(time.monotonic() - back, 2),
                "after_signing": round(right_at - signed, 2) if right_at else None,
                "right_during": right_at is not None,
            }
        time.sleep(0.2)
    return {"after_return": None, "after_signing": None, "right_during": right_at is not None}


@contextmanager
def running_site(workers: int, server_kind: str = "uvicorn") -> Iterator[Site]:
    redis = Redis()
    redis.start()
    server = None
    try:
        site = prepare(redis)
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, check=True
        )
        if server_kind == "gunicorn":
            command = ["gunicorn", "config.wsgi:application", "--bind", f"127.0.0.1:{WEB_PORT}",
                       "--workers", str(workers), "--log-level", "warning"]  # fmt: skip
        else:  # as the Procfile serves
            command = ["uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port", str(WEB_PORT),
                       "--workers", str(workers), "--log-level", "warning", "--no-proxy-headers"]  # fmt: skip
        server = subprocess.Popen(
            [sys.executable, "-m", *command],
            cwd=ROOT,
            env={**os.environ, "DATABASE_POOL": "1" if server_kind == "uvicorn" else "0"},
            start_new_session=True,
        )
        for path in site.paths * 5:
            wait_for(f"http://127.0.0.1:{WEB_PORT}{path}")
        yield site
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)
        redis.stop()
        from django.db import connections

        connections.close_all()
        psql(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--outage-seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--server", choices=("uvicorn", "gunicorn"), default="uvicorn")
    parser.add_argument(
        "--skip-jobs", action="store_true", help="leave out the killed worker's job (about 2.5 minutes)"
    )
    args = parser.parse_args()
    with running_site(args.workers, args.server) as site:
        print(
            f"Redis away {args.outage_seconds:.0f} s while {args.clients} clients poll the standings and the "
            f"login page every 0.2-0.6 s and a referee submits and signs a sheet by the API "
            f"({args.server}, {args.workers} workers, DEBUG off, PostgreSQL):"
        )
        errors = 0
        for kind in ("kill", "freeze"):
            figures = redis_outage_5xx(site, kind, args.outage_seconds, args.clients)
            answers = ", ".join(f"{status}: {count}" for status, count in sorted(figures["answers"].items()))
            print(
                f"  {kind:6} 5xx or failed answers during the outage: {figures['errors']} "
                f"({answers}; submit and sign {figures['sign']})"
            )
            errors += figures["errors"]
        right = seconds_until_standings_right(site, args.outage_seconds)
        print(
            f"  freeze standings right {right['after_return']} s after Redis returned "
            f"(and {right['after_signing']} s after the signing, during the outage)"
        )
        met = not errors and right["after_return"] is not None and right["after_return"] < 60
        print(f"  target no server error and standings right within 60 s: {'met' if met else 'NOT met'}")
    if not args.skip_jobs:
        # The third figure: its own process, broker and database (benchmarks/faults_jobs.py).
        print("A worker killed mid-export:", flush=True)
        subprocess.run([sys.executable, str(Path(__file__).with_name("faults_jobs.py"))], check=True)


if __name__ == "__main__":
    main()
