"""What the benchmarks that serve the site share: a database of their own, a seated tournament with its
sheets, a free port and waiting for a server to answer.

Django is imported only once a benchmark has set its environment (``os.environ``) and calls
``new_tournament``; importing this module loads nothing of the product.
"""

from __future__ import annotations

import asyncio
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from datetime import date
from typing import Any

SERVER_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
USER_NAME, PASSWORD = "bench", "bench-password-1"


def database_url(name: str) -> str:
    """The address of the benchmark's own database ``name`` on the server of ``DATABASE_URL``."""
    return SERVER_URL.rsplit("/", 1)[0] + f"/{name}"


def psql(sql: str) -> None:
    subprocess.run(["psql", SERVER_URL, "-q", "-c", sql], check=True, capture_output=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(url: str, seconds: float = 30) -> None:
    """Until ``url`` answers 200; a server that never does ends the benchmark."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not answer {url}")


async def get(port: int, path: str, timeout: float = 5) -> tuple[str, float]:
    """One page load over a new connection, as a phone makes it: the HTTP status (or the error's name)
    and the seconds from connecting to the last byte."""
    started = time.perf_counter()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        response = await asyncio.wait_for(reader.read(), timeout)
        writer.close()
    except (OSError, TimeoutError) as exc:
        return type(exc).__name__, time.perf_counter() - started
    return response[9:12].decode(), time.perf_counter() - started


def serve(
    root: Any, port: int, workers: int, *, env: dict[str, str] | None = None, prefix: list[str] | None = None
) -> subprocess.Popen[bytes]:
    """uvicorn serving ``config.asgi`` from ``root`` on ``port`` with ``workers`` processes, as the
    Procfile does, in a session of its own (stopped with its process group); the static files collected
    first (with DEBUG off the pages name them from the manifest)."""
    collect = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"]
    subprocess.run(collect, cwd=root, env={**os.environ, **(env or {})}, check=True)
    command = [*(prefix or []), sys.executable, "-m", "uvicorn", "config.asgi:application"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--workers", str(workers), "--no-access-log"]
    return subprocess.Popen(
        [*command, "--timeout-graceful-shutdown", "2"],
        cwd=root,
        env={**os.environ, **(env or {})},
        start_new_session=True,
    )


def final_entry(table: Any, rng: random.Random) -> dict[str, object]:
    """A valid final-points sheet for the table's four, random but repeatable."""
    names = [seat.player.name for seat in table.seats.select_related("player").order_by("wind")]
    a, b, c = (rng.randrange(100, 450) * 100 for _ in range(3))
    return {
        "form": "final",
        "final_points": dict(zip(names, [a, b, c, 120000 - a - b - c], strict=True)),
        "riichi_sticks_left": 0,
    }


@dataclass
class Prepared:
    user: Any
    tournament: Any
    signed: int  # hanchan signed
    submitted: list[int] = field(default_factory=list)  # sheets submitted, waiting for a signature
    to_sign: list[int] = field(default_factory=list)  # tables with no sheet yet, in order


def new_tournament(
    database: str, name: str, slug: str, *, players: int, rounds: int, signed: int, submitted: int = 0
) -> Prepared:
    """A fresh database ``database`` (dropped first) with one tournament of ``players`` checked in and
    seated for ``rounds`` hanchan: the first ``signed`` hanchan signed, the next ``submitted`` submitted
    (their sheets' ids in ``submitted``), the tables of the later ones in ``to_sign``. Sets up Django."""
    psql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
    psql(f"CREATE DATABASE {database}")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from scoring import services as sheets
    from tournament import services
    from tournament.models import Player, Round, Table

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_superuser(USER_NAME, password=PASSWORD)
    tournament = services.create_tournament(
        user, name=name, slug=slug, starts_on=date(2026, 1, 1), ends_on=date(2026, 1, 2), hanchan_count=rounds
    )
    Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Player {i:03d}", status="checked_in") for i in range(players)
    )
    services.run_seating_job(services.request_seating(tournament, user, seed=1).pk)
    prepared = Prepared(user, tournament, signed)
    rng = random.Random(1)
    for round_ in Round.objects.filter(tournament=tournament).order_by("number"):
        round_.status = Round.Status.STARTED
        round_.save(update_fields=["status"])
        for table in Table.objects.filter(round=round_).order_by("number"):
            if round_.number <= signed + submitted:
                sheet = sheets.save_sheet(table, final_entry(table, rng), user, submit=True)
                if round_.number <= signed:
                    sheets.sign_sheet(sheet, user)
                else:
                    prepared.submitted.append(sheet.pk)
            else:
                prepared.to_sign.append(table.pk)
    return prepared
