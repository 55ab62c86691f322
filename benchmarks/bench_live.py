"""Live updates to a thousand phones: Server-Sent Events from the ASGI server, as in production mode.

Production mode on this machine: uvicorn (``config.asgi``, 4 worker processes, as the Procfile) with
DEBUG off, on PostgreSQL and Redis. 1,000 anonymous viewers hold a stream of the standings open (asyncio
connections in this process); meanwhile a referee signs a sheet every few seconds (a process of its own,
as the referee's request is not made on the viewers' phones; signed as the service does it), and 20 more
phones (a process of their own) load pages (standings page, its JSON, the home page, the clock; a new
connection each, every 0.5 to 1.5 s, each phone starting at its own moment within the first second).
Figures: the delay from each sheet's commit to its event reaching each viewer (p50, p95, max; target:
every viewer within 2 s), the page loads' latency (target: p95 under 100 ms, no error) and the server's
memory per idle stream (resident memory of the server's processes with the streams open, less before,
over the count).

    .venv/bin/python benchmarks/bench_live.py [--viewers 1000] [--sheets 8] [--workers 4]

Needs PostgreSQL (DATABASE_URL, default the local server) and Redis (BENCH_REDIS_URL, default
redis://127.0.0.1:6379/14). It uses a database of its own, `bench_live`, which it creates and drops,
and serves on a free port.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import resource
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.served import database_url, free_port, get, new_tournament, psql, serve, wait_for  # noqa: E402

DB_NAME = "bench_live"
DATABASE_URL = database_url(DB_NAME)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
PLAYERS, ROUNDS = 160, 4

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
    LOG_LEVEL="WARNING",
)
SERVER_ENV = {"DATABASE_POOL": os.environ.get("BENCH_DATABASE_POOL", "1")}  # as the Procfile serves


def prepare() -> tuple[str, list[int]]:
    """The database and a tournament of 160 players: hanchan 1 signed, hanchan 2's sheets submitted and
    waiting for a signature (each signature then makes exactly one change, one event)."""
    prepared = new_tournament(
        DB_NAME, "Live Open", "live-open", players=PLAYERS, rounds=ROUNDS, signed=1, submitted=1
    )
    return prepared.tournament.slug, prepared.submitted


def start_signer(slug: str) -> None:
    """The signing process: Django set up once, for every sheet it signs, and the code a signature runs
    on its commit warmed (as in a web process that has served before), so that the first signature is
    not timed with the process's start."""
    import django

    django.setup()
    from tournament.models import Tournament
    from tournament.queries.live_standings import live_standings
    from tournament.queries.standings_db import load_standings

    tournament = Tournament.objects.get(slug=slug)
    load_standings(tournament.pk)
    live_standings(tournament)


def sign(sheet_id: int) -> float:
    """Sign one submitted sheet; the moment its transaction committed (before any on-commit work)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from scoring import services as sheets
    from scoring.models import ScoreSheet

    committed: list[float] = []
    user = get_user_model().objects.get(username="bench")
    with transaction.atomic():
        transaction.on_commit(lambda: committed.append(time.monotonic()))  # runs first of the hooks
        sheets.sign_sheet(ScoreSheet.objects.get(pk=sheet_id), user)
    return committed[0]


class Viewer:
    """One phone's stream: when each standings event arrived."""

    def __init__(self) -> None:
        self.arrivals: list[float] = []
        self.connected = asyncio.Event()
        self.failed: str | None = None


async def view(port: int, path: str, viewer: Viewer, gate: asyncio.Semaphore, stop: asyncio.Event) -> None:
    try:
        async with gate:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
            )
            status = await asyncio.wait_for(reader.readline(), 20)
            if b" 200 " not in status:
                viewer.failed = status.decode().strip()
                viewer.connected.set()
                return
            while (await asyncio.wait_for(reader.readline(), 20)).strip():
                pass  # the headers
            viewer.connected.set()
        while not stop.is_set():
            try:
                line = await asyncio.wait_for(reader.readline(), 1)
            except TimeoutError:
                continue
            if not line:
                viewer.failed = "closed"
                return
            if b"event: standings" in line:  # a chunk holds a whole event: the line is its arrival
                viewer.arrivals.append(time.monotonic())
        writer.close()
    except (OSError, TimeoutError) as exc:
        viewer.failed = type(exc).__name__
        viewer.connected.set()


async def load_pages(port: int, paths: list[str], stop: asyncio.Event, clients: int) -> dict[str, Any]:
    latencies: list[float] = []
    by_path: dict[str, list[float]] = {path: [] for path in paths}
    errors: dict[str, int] = {}
    rng = random.Random(3)

    async def client(start: float) -> None:
        await asyncio.sleep(start)  # phones in a hall do not load their pages in step
        while not stop.is_set():
            path = rng.choice(paths)
            status, seconds = await get(port, path)
            if status != "200":
                errors[status] = errors.get(status, 0) + 1
            else:
                latencies.append(seconds)
                by_path[path].append(seconds)
            await asyncio.sleep(rng.uniform(0.5, 1.5))

    await asyncio.gather(*(client(rng.uniform(0, 1)) for _ in range(clients)))
    return {
        "latencies": sorted(latencies),
        "errors": errors,
        "by_path": {path: sorted(values) for path, values in by_path.items()},
    }


def phones(port: int, paths: list[str], seconds: float, clients: int) -> dict[str, Any]:
    """The phones loading pages, for ``seconds``, in a process of their own: their timings are not held
    up by this process reading a thousand viewers' events (a hall's phones are separate devices)."""

    async def timed() -> dict[str, Any]:
        stop = asyncio.Event()
        asyncio.get_running_loop().call_later(seconds, stop.set)
        return await load_pages(port, paths, stop, clients)

    return asyncio.run(timed())


def percentile(values: list[float], p: float) -> float:
    return values[min(len(values) - 1, int(p * len(values)))] * 1000 if values else float("nan")


def server_rss_kib(pid: int) -> int:
    """Resident memory of the server: its main process and every worker."""
    pids = [pid]
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if children.exists():
        pids += [int(p) for p in children.read_text().split()]
    total = 0
    for each in pids:
        for line in Path(f"/proc/{each}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


async def run(
    args: argparse.Namespace,
    port: int,
    stream_port: int,
    slug: str,
    to_sign: list[int],
    pid: int,
    signer: ProcessPoolExecutor,
    phone_pool: ProcessPoolExecutor,
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    before = server_rss_kib(pid)
    viewers = [Viewer() for _ in range(args.viewers)]
    gate = asyncio.Semaphore(50)
    started = time.monotonic()
    tasks = [asyncio.create_task(view(stream_port, f"/t/{slug}/live", v, gate, stop)) for v in viewers]
    await asyncio.gather(*(v.connected.wait() for v in viewers))
    connect_seconds = time.monotonic() - started
    await asyncio.sleep(2)  # idle
    after = server_rss_kib(pid)
    refused = [v.failed for v in viewers if v.failed]
    paths = [f"/t/{slug}/standings/", f"/t/{slug}/standings.json", f"/t/{slug}/", f"/t/{slug}/clock.json"]
    seconds = 2 + args.sheets * args.every  # from 2 s before the first signature to the end of the last
    if args.phones_beside_viewers:  # the layout before: timed in the loop that reads the 1,000 streams
        pages_stop = asyncio.Event()
        loop.call_later(seconds, pages_stop.set)
        pages: Any = asyncio.ensure_future(load_pages(port, paths, pages_stop, args.page_clients))
    else:
        pages = loop.run_in_executor(phone_pool, phones, port, paths, seconds, args.page_clients)
    await asyncio.sleep(2)
    commits = []
    for sheet_id in to_sign[: args.sheets]:
        commits.append(await loop.run_in_executor(signer, sign, sheet_id))
        await asyncio.sleep(args.every)
    page_figures = await pages
    stop.set()
    await asyncio.gather(*tasks)
    delays, missed = [], 0
    for viewer in viewers:
        if viewer.failed and not viewer.arrivals:
            continue
        for committed in commits:
            arrival = next((t for t in viewer.arrivals if t >= committed), None)
            if arrival is None:
                missed += 1
            else:
                delays.append(arrival - committed)
    delays.sort()
    return {
        "connect_seconds": connect_seconds,
        "refused": refused,
        "rss_before": before,
        "rss_after": after,
        "delays": delays,
        "missed": missed,
        "commits": len(commits),
        "pages": page_figures,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--sheets", type=int, default=8)
    parser.add_argument("--every", type=float, default=3.0, help="seconds between two signatures")
    parser.add_argument("--page-clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=4, help="web processes (the Procfile's web)")
    parser.add_argument(
        "--live-workers",
        type=int,
        default=0,
        help="processes of a live tier of their own that serve the streams (the Procfile's live, which a "
        "proxy sends /t/<slug>/live to); 0: the web processes serve the streams too",
    )
    parser.add_argument("--live-nice", type=int, default=10, help="the live tier's nice value")
    parser.add_argument(
        "--phones-beside-viewers",
        action="store_true",
        help="time the page loads in this process, beside the 1,000 viewers (as the benchmark did before)",
    )
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * args.viewers + 1024)), hard))
    slug, to_sign = prepare()
    port = free_port()
    servers = [serve(ROOT, port, args.workers, env=SERVER_ENV)]
    stream_port = port
    if args.live_workers:
        stream_port = free_port()
        servers.append(
            serve(
                ROOT,
                stream_port,
                args.live_workers,
                env=SERVER_ENV,
                prefix=["nice", "-n", str(args.live_nice)],
            )
        )
        wait_for(f"http://127.0.0.1:{stream_port}/healthz")
    try:
        for path in (f"/t/{slug}/standings/", f"/t/{slug}/standings.json", f"/t/{slug}/") * 10:
            wait_for(f"http://127.0.0.1:{port}{path}")
        # The referee's signatures come from a process of their own (CLOCK_MONOTONIC is the machine's).
        context = multiprocessing.get_context("spawn")
        with (
            ProcessPoolExecutor(1, mp_context=context, initializer=start_signer, initargs=(slug,)) as signer,
            ProcessPoolExecutor(1, mp_context=context) as phone_pool,
        ):
            for pool in (signer, phone_pool):
                pool.submit(time.monotonic).result()  # started before the clock runs
            figures = asyncio.run(
                run(args, port, stream_port, slug, to_sign, servers[-1].pid, signer, phone_pool)
            )
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait()
        from django.db import connections

        connections.close_all()
        psql(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
    delays, pages = figures["delays"], figures["pages"]
    loads = pages["latencies"]
    page_errors = sum(pages["errors"].values())
    per_stream = (figures["rss_after"] - figures["rss_before"]) / max(
        1, args.viewers - len(figures["refused"])
    )
    tier = f"; streams: {args.live_workers} live, nice {args.live_nice}" if args.live_workers else ""
    print(
        f"{args.viewers} SSE viewers on uvicorn ({args.workers} web{tier}; DEBUG off, PostgreSQL, Redis), "
        f"connected in {figures['connect_seconds']:.1f} s; refused {len(figures['refused'])}"
        + (f" {sorted(set(figures['refused']))}" if figures["refused"] else "")
    )
    print(
        f"  {figures['commits']} sheets signed: {len(delays)} deliveries, {figures['missed']} missed; delay "
        f"after the commit p50 {percentile(delays, 0.5):.0f} ms, p95 {percentile(delays, 0.95):.0f} ms, "
        f"max {percentile(delays, 1.0):.0f} ms"
    )
    print(
        f"  meanwhile {args.page_clients} phones loading pages: {len(loads) + page_errors} loads, "
        f"p50 {percentile(loads, 0.5):.1f} ms, p95 {percentile(loads, 0.95):.1f} ms, "
        f"max {percentile(loads, 1.0):.1f} ms; errors {page_errors} {pages['errors']}"
    )
    print(
        "    p95 by page: "
        + ", ".join(f"{path} {percentile(values, 0.95):.0f} ms" for path, values in pages["by_path"].items())
    )
    print(
        f"  server memory {figures['rss_before'] / 1024:.0f} MiB before, "
        f"{figures['rss_after'] / 1024:.0f} MiB with the streams open: {per_stream:.0f} KiB per idle stream"
    )
    met = (
        not figures["refused"]
        and not figures["missed"]
        and percentile(delays, 1.0) < 2000
        and percentile(pages["latencies"], 0.95) < 100
        and not page_errors
    )
    print(f"  targets (every viewer within 2 s, pages p95 < 100 ms, no error): {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
