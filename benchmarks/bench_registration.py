"""A popular event's registration opening: 1,000 sign-ups within a minute for 200 places, 100 of them
cancelled meanwhile, in production mode.

Production mode on this machine: uvicorn (``config.asgi``, 4 worker processes, as the Procfile) with
DEBUG off and one trusted proxy (each phone its own address in ``X-Forwarded-For``, as behind the
site's proxy), a Celery worker (the messages), PostgreSQL and Redis; the mail server is a real SMTP
server in this process (aiosmtpd), which keeps what it receives. Each of the 1,000 players, at a moment
of their own within the first minute, loads the sign-up page, sends the form, waits for the
confirmation message, follows its link 5 to 30 s later (reading it) and confirms on its button; 100 of
them, chosen at random, cancel from their own link (in the message that answered their confirmation) a
few seconds later.
Meanwhile 20 more phones load the sign-up page and the public list of the registered (a new connection
each, every 0.5 to 1.5 s).

Checked at the end (the run fails on any): the places held are the capacity, never more; nobody
promoted twice; every promoted player confirmed before every player still waiting (the waiting list in
arrival order); every logged message sent and received, but those said no longer by their turn (a
confirmation link to someone confirmed meanwhile), and none received twice (the confirmation, the answer to
it, the promotion and the cancellation once each per player). Figures: the page loads' latency (target: p95
under 100 ms, no error), the sign-ups' and confirmations' answers, the messages and the time from a
form sent to its confirmation message received.

    .venv/bin/python benchmarks/bench_registration.py [--players 1000] [--places 200] [--cancellations 100]

Needs PostgreSQL (DATABASE_URL, default the local server) and Redis (BENCH_REDIS_URL, default
redis://127.0.0.1:6379/13). It uses a database of its own, `bench_registration`, which it creates and
drops, and serves on a free port.
"""

from __future__ import annotations

import argparse
import asyncio
import email
import email.policy
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.served import database_url, free_port, psql, serve, wait_for  # noqa: E402

DB_NAME = "bench_registration"
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
SLUG = "spring-open"
SMTP_PORT = free_port()

os.environ.update(
    DJANGO_SETTINGS_MODULE="config.settings",
    DATABASE_URL=database_url(DB_NAME),
    REDIS_URL=REDIS_URL,
    DEBUG="0",
    SECRET_KEY="benchmark-only-secret-key-" + "x" * 30,
    ALLOWED_HOSTS="127.0.0.1,localhost",
    SECURE_COOKIES="0",
    SECURE_SSL_REDIRECT="0",
    HEALTHZ_REQUIRE_WORKER="0",
    LOG_LEVEL="WARNING",
    TRUSTED_PROXY_COUNT="1",
    EMAIL_HOST="127.0.0.1",
    EMAIL_PORT=str(SMTP_PORT),
    EMAIL_USE_TLS="0",
    CELERY_TASK_ALWAYS_EAGER="0",
    DATABASE_POOL="1",  # as the Procfile serves
)
# From the confirmation message received to its link followed: a person reading their mail.
READING_SECONDS = (5.0, 30.0)
CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
CONFIRM_LINK = re.compile(r"/t/[\w-]+/signup/confirm/([0-9a-f]+)/")
MANAGE_LINK = re.compile(r"/t/[\w-]+/signup/me/([0-9a-f]+)/")
# The subjects a player receives once at most (tournament.services.signup_mail): the confirmation, the
# answer to it, the promotion and the cancellation; the waiting-list place may come again.
ONCE = ("Confirm your sign-up", "You are registered", "A place is yours", "is cancelled")


class Inbox:
    """What the SMTP server received, by recipient: (subject, plain text, when)."""

    def __init__(self) -> None:
        self.by_address: dict[str, list[tuple[str, str, float]]] = {}
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        body = message.get_body(preferencelist=("plain",))
        text = str(body.get_content()) if body is not None else ""
        with self.lock:
            for address in envelope.rcpt_tos:
                self.by_address.setdefault(address, []).append(
                    (str(message["Subject"]), text, time.monotonic())
                )
        return "250 OK"

    def of(self, address: str) -> list[tuple[str, str, float]]:
        with self.lock:
            return list(self.by_address.get(address, []))

    def total(self) -> int:
        with self.lock:
            return sum(len(found) for found in self.by_address.values())


def prepare(places: int) -> None:
    """The database and a tournament whose registration opened an hour ago: ``places`` places and a
    waiting list, no approval."""
    psql(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
    psql(f"CREATE DATABASE {DB_NAME}")
    import django

    django.setup()
    from datetime import date, timedelta

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from tournament import services
    from tournament.models import RegistrationSettings

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_superuser("bench", password="bench-password-1")
    tournament = services.create_tournament(
        user,
        name="Spring Open",
        slug=SLUG,
        starts_on=date(2027, 5, 1),
        ends_on=date(2027, 5, 2),
        hanchan_count=8,
    )
    RegistrationSettings.objects.create(
        tournament=tournament,
        opens_at=timezone.now() - timedelta(hours=1),
        closes_at=timezone.now() + timedelta(days=30),
        capacity=places,
        waiting_list=True,
    )


def work() -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency", "2"]
    return subprocess.Popen(
        [*command, "--loglevel", "WARNING", "-n", "bench-registration@%h"],
        cwd=ROOT,
        env=dict(os.environ),
        start_new_session=True,
    )


async def http(
    port: int,
    method: str,
    path: str,
    *,
    cookie: str = "",
    address: str = "",
    form: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes, float]:
    """One request over a new connection, as a phone makes it: status, headers, body, seconds."""
    started = time.perf_counter()
    body = urllib.parse.urlencode(form).encode() if form is not None else b""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    if address:
        lines.append(f"X-Forwarded-For: {address}")
    if cookie:
        lines.append(f"Cookie: csrftoken={cookie}")
    if form is not None:
        lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        response = await asyncio.wait_for(reader.read(), 30)
        writer.close()
    except (OSError, TimeoutError):
        return 0, {}, b"", time.perf_counter() - started
    head, _, content = response.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers: dict[str, str] = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), "")
        headers[name.strip().lower()] += value.strip() + ";"
    return int(status_line.split()[1]), headers, content, time.perf_counter() - started


async def form_of(port: int, path: str, address: str) -> tuple[str, str]:
    """The page's CSRF cookie and its form's token (a GET, as the phone loads the page first)."""
    status, headers, content, _ = await http(port, "GET", path, address=address)
    cookie = re.search(r"csrftoken=([^;]+)", headers.get("set-cookie", ""))
    token = CSRF.search(content)
    if status != 200 or cookie is None or token is None:
        raise RuntimeError(f"GET {path}: {status}")
    return cookie.group(1), token.group(1).decode()


async def message(
    inbox: Inbox, address: str, count: int, seconds: float = 120
) -> list[tuple[str, str, float]]:
    """Until ``address`` has received ``count`` messages."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = inbox.of(address)
        if len(found) >= count:
            return found
        await asyncio.sleep(0.2)
    raise RuntimeError(f"{address}: {len(inbox.of(address))} messages, waited for {count}")


def letters(number: int) -> str:
    """A first name of Latin letters for player ``number`` (Ab, Ac, ..., Bab...), one each."""
    name = ""
    number += 27
    while number:
        number, digit = divmod(number, 26)
        name = "abcdefghijklmnopqrstuvwxyz"[digit] + name
    return name.capitalize()


async def player(
    port: int, inbox: Inbox, number: int, start: float, cancels: bool, figures: dict[str, list[float]]
) -> str:
    """One player's sign-up, confirmation and, for some, cancellation; what went wrong, or ''."""
    await asyncio.sleep(start)
    address = f"10.{number // 65536 % 256}.{number // 256 % 256}.{number % 256}"
    mail = f"player{number:04d}@example.org"
    base = f"/t/{SLUG}/signup/"
    try:
        cookie, token = await form_of(port, base, address)
        fields = {"last_name": "Player", "first_name": letters(number), "email": mail, "consent": "on"}
        status, _, content, seconds = await http(
            port, "POST", base, cookie=cookie, address=address, form={**fields, "csrfmiddlewaretoken": token}
        )
        figures["sign-up"].append(seconds)
        if status != 200:
            said = re.findall(rb'class="errorlist[^"]*"[^>]*>(.*?)</ul>', content, re.S)
            return f"sign-up {status}: {b' '.join(said)[:200].decode(errors='replace')}"
        sent = time.monotonic()
        (first,) = await message(inbox, mail, 1)
        figures["message"].append(first[2] - sent)
        link = CONFIRM_LINK.search(first[1])
        if link is None:
            return "no confirmation link"
        await asyncio.sleep(random.uniform(*READING_SECONDS))  # the player opens the message
        path = f"/t/{SLUG}/signup/confirm/{link.group(1)}/"
        cookie, token = await form_of(port, path, address)
        status, _, _, seconds = await http(
            port, "POST", path, cookie=cookie, address=address, form={"csrfmiddlewaretoken": token}
        )
        figures["confirmation"].append(seconds)
        if status != 200:
            return f"confirmation {status}"
        if not cancels:
            return ""
        answer = (await message(inbox, mail, 2))[1]
        own = MANAGE_LINK.search(answer[1])
        if own is None:
            return "no link of the player's own"
        await asyncio.sleep(random.uniform(1, 10))
        path = f"/t/{SLUG}/signup/me/{own.group(1)}/"
        cookie, token = await form_of(port, path, address)
        status, _, _, seconds = await http(
            port, "POST", path, cookie=cookie, address=address, form={"csrfmiddlewaretoken": token}
        )
        figures["cancellation"].append(seconds)
        return "" if status == 200 else f"cancellation {status}"
    except RuntimeError as error:
        return str(error)


async def reader(port: int, stop: asyncio.Event, loads: list[tuple[str, int, float]], seed: int) -> None:
    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, 1))
    while not stop.is_set():
        path = rng.choice([f"/t/{SLUG}/signup/", f"/t/{SLUG}/signup/registered/"])
        status, _, _, seconds = await http(port, "GET", path, address=f"192.168.0.{seed}")
        loads.append((path, status, seconds))
        await asyncio.sleep(rng.uniform(0.5, 1.5))


async def run(args: argparse.Namespace, port: int, inbox: Inbox) -> dict[str, Any]:
    rng = random.Random(7)
    cancelling = set(rng.sample(range(args.players), args.cancellations))
    starts = [rng.uniform(0, args.seconds) for _ in range(args.players)]
    figures: dict[str, list[float]] = {"sign-up": [], "confirmation": [], "cancellation": [], "message": []}
    loads: list[tuple[str, int, float]] = []
    stop = asyncio.Event()
    readers = [asyncio.create_task(reader(port, stop, loads, seed)) for seed in range(20)]
    started = time.monotonic()
    problems = await asyncio.gather(
        *(player(port, inbox, n, starts[n], n in cancelling, figures) for n in range(args.players))
    )
    stop.set()
    await asyncio.gather(*readers)
    return {
        "seconds": time.monotonic() - started,
        "problems": [p for p in problems if p],
        **figures,
        "loads": loads,
    }


def settled(inbox: Inbox, seconds: float = 120) -> tuple[int, int]:
    """Until every logged message is marked sent and the mail server has received every one that was sent
    (or 10 s more have passed); the counts of logged messages and of those said no longer (marked sent
    unsent: ``SignUpMessage.stale``)."""
    from tournament.models import SignUpMessage

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not SignUpMessage.objects.filter(sent_at=None).exists():
            sent = SignUpMessage.objects.filter(stale=False).count()
            received_by = time.monotonic() + 10
            while inbox.total() < sent and time.monotonic() < received_by:
                time.sleep(0.2)
            return SignUpMessage.objects.count(), SignUpMessage.objects.filter(stale=True).count()
        time.sleep(0.5)
    raise SystemExit(f"{SignUpMessage.objects.filter(sent_at=None).count()} messages never sent")


def checks(inbox: Inbox, places: int) -> list[str]:
    """What went wrong in the end state (nothing, when the registration held)."""
    from tournament.core import signups
    from tournament.models import AuditEntry, SignUp

    failed = []
    rows = list(SignUp.objects.filter(tournament__slug=SLUG))
    holding = [s for s in rows if s.state in signups.HOLDING]
    if len(holding) != places:
        failed.append(f"{len(holding)} places held, not {places}")
    promotions = list(AuditEntry.objects.filter(action="signup.promote").values_list("subject", flat=True))
    if len(promotions) != len(set(promotions)):
        failed.append("someone promoted twice")
    promoted = {subject.removeprefix("sign-up ") for subject in promotions}
    last_promoted = max((s.confirmed_at for s in rows if s.name in promoted and s.confirmed_at), default=None)
    waiting = [s.confirmed_at for s in rows if s.state == signups.WAITING_LIST and s.confirmed_at]
    if last_promoted and waiting and min(waiting) < last_promoted:
        failed.append("a player still waiting confirmed before one promoted: the list out of order")
    for signup in rows:
        subjects = [subject for subject, _text, _at in inbox.of(signup.email)]
        for once in ONCE:
            if sum(once in subject for subject in subjects) > 1:
                failed.append(f"{signup.email} received {once!r} twice")
    return failed


def p(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] * 1000 if len(values) > 1 else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--places", type=int, default=200)
    parser.add_argument("--cancellations", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()

    import uvloop
    from aiosmtpd.controller import Controller

    subprocess.run(["redis-cli", "-u", REDIS_URL, "FLUSHDB"], check=False, capture_output=True)
    prepare(args.places)
    inbox = Inbox()
    smtp = Controller(inbox, hostname="127.0.0.1", port=SMTP_PORT)
    smtp.start()
    port = free_port()
    server, worker = serve(ROOT, port, args.workers), work()
    try:
        wait_for(f"http://127.0.0.1:{port}/t/{SLUG}/signup/", 60)
        # uvloop (the event loop uvicorn serves with): the phones' side takes less of the CPU the site
        # shares with it on this machine.
        result = uvloop.run(run(args, port, inbox))
        logged, stale = settled(inbox)
        failed = checks(inbox, args.places) + result["problems"][:5]
        if inbox.total() != logged - stale:
            failed.append(f"{logged - stale} messages sent, {inbox.total()} received")
    finally:
        for process in (server, worker):
            os.killpg(process.pid, signal.SIGTERM)
        for process in (server, worker):
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        smtp.stop()
        from django.db import connections

        connections.close_all()
        psql(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")

    loads = result["loads"]
    load_seconds = [seconds for _path, _status, seconds in loads]
    errors = sum(1 for _path, status, _seconds in loads if status != 200)
    print(
        f"{args.players} players within {args.seconds:.0f} s for {args.places} places, {args.cancellations} "
        f"cancelling: done in {result['seconds']:.0f} s, {len(result['problems'])} players failed"
    )
    for name in ("sign-up", "confirmation", "cancellation"):
        values = result[name]
        print(f"  {name}s answered: {len(values)}, p50 {p(values, 50):.1f} ms, p95 {p(values, 95):.1f} ms")
    waits = result["message"]
    print(
        f"  messages: {logged} logged, {stale} said no longer (not sent), {inbox.total()} received; "
        f"form sent to confirmation received "
        f"p50 {p(waits, 50):.0f} ms, p95 {p(waits, 95):.0f} ms"
    )
    print(
        f"  meanwhile 20 phones loading the sign-up page and the list: {len(loads)} loads, "
        f"p50 {p(load_seconds, 50):.1f} ms, p95 {p(load_seconds, 95):.1f} ms, errors {errors}"
    )
    met = not failed and errors == 0 and p(load_seconds, 95) < 100
    print("  checks: " + ("; ".join(failed) if failed else "places, promotions, order and messages held"))
    targets = "no place twice, the list in order, every message once, pages p95 < 100 ms"
    print(f"  targets ({targets}): {'met' if met else 'MISSED'}")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
