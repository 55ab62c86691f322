"""Shared fixtures. The suite runs on the machine's real PostgreSQL and Redis (see the Makefile).

Celery: tests run tasks in process unless marked ``integration``; those get a real worker process
(``celery -A config worker``) started once per session, talking to the real Redis broker and to the
test database.
"""

from __future__ import annotations

import fcntl
import os
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.conf import settings
from django.db import connection

from config.auth import local_counts as login_counts
from config.celery import app as celery_app
from tests import flush, processes
from tests.processes import artifact

if TYPE_CHECKING:
    from tournament.models import Player, Tournament

ROOT = processes.ROOT


def pytest_configure(config: pytest.Config) -> None:
    """The main pytest process and each pytest-xdist worker end with their parent (tests.processes); the
    suite's accounts are hashed cheaply (tests.hashers); a transactional test's rows are deleted after
    it rather than its tables truncated (tests.flush)."""
    processes.die_with_parent()
    flush.delete_after_each_test()
    settings.PASSWORD_HASHERS = [
        "tests.hashers.QuickPBKDF2PasswordHasher" if path.endswith(".PBKDF2PasswordHasher") else path
        for path in settings.PASSWORD_HASHERS
    ]


def pytest_unconfigure(config: pytest.Config) -> None:
    """The main process of a parallel run drops the test databases of workers stopped before their own
    teardown could (the run interrupted: Ctrl-C, a timeout, ``make`` killed), and the template they were
    created from (``django_db_modify_db_settings``)."""
    if hasattr(config, "workerinput") or not settings.TEST_RUN_ID:
        return
    conf = connection.settings_dict
    prefix = (conf.get("TEST") or {}).get("NAME") or ""
    if connection.vendor != "postgresql" or not prefix:
        return
    import psycopg  # the server's own connection, outside Django's (whose use the plugin has blocked)

    with psycopg.connect(database_url(conf["NAME"]), autocommit=True) as server:
        names = server.execute(
            r"SELECT datname FROM pg_database WHERE datname LIKE %s OR datname LIKE %s",
            [f"{prefix}\\_gw%", f"{prefix}\\_template%"],
        ).fetchall()
        for (name,) in names:
            server.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, django_db_blocker: Any, request: pytest.FixtureRequest
) -> None:
    """A parallel run's workers create their test databases from one migrated database rather than each
    migrating its own (about 7 s of CPU a worker): the first worker to take the lock migrates
    ``<test database>_template``, and each worker's database is then PostgreSQL's copy of it (``CREATE
    DATABASE ... TEMPLATE``), where the migrations find nothing left to do. The main process drops the
    template with the workers' databases (``pytest_unconfigure``)."""
    worker = getattr(request.config, "workerinput", {}).get("workerid")
    conf = settings.DATABASES["default"]
    name = (conf.get("TEST") or {}).get("NAME") or ""
    if not worker or not name or not settings.TEST_RUN_ID or connection.vendor != "postgresql":
        return
    template = name.removesuffix(f"_{worker}") + "_template"
    with django_db_blocker.unblock(), open(Path(tempfile.gettempdir()) / f"{template}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        migrated_template(template)
    conf["TEST"]["TEMPLATE"] = template


def migrated_template(template: str) -> None:
    """``template`` migrated, unless it is there already: built under another name and renamed once whole,
    so that a worker stopped half-way never leaves a template that looks ready."""
    import psycopg
    from django.core.management import call_command

    with psycopg.connect(database_url("postgres"), autocommit=True) as server:
        if server.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template]).fetchone():
            return
        building = f"{template}_building"
        server.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
        server.execute(f'CREATE DATABASE "{building}"')
    conf = connection.settings_dict
    saved = conf["NAME"]
    connection.close()
    conf["NAME"] = building
    try:
        call_command("migrate", verbosity=0, interactive=False)
    finally:
        connection.close()
        conf["NAME"] = saved
    with psycopg.connect(database_url("postgres"), autocommit=True) as server:
        server.execute(f'ALTER DATABASE "{building}" RENAME TO "{template}"')


# The longest tests first, so that a parallel run ends on short tests with every worker busy, not on one
# long test with the others idle: pytest-xdist's ``load`` scheduling hands the tests out in this order,
# a batch to each worker in turn and then one by one as workers come free. First the every-page check
# (three tests of a minute or more), then the rest of the browser tests, then the tests with a worker, a
# server of their own or a seating search; each group keeps its order.
LONG_MARKERS = {"browser", "integration"}
LONG_FOLDERS = {"browser", "live", "seating", "seatinglab", "faults"}
LONGEST = {
    ROOT / "tests" / "browser" / "test_every_page.py",
    ROOT / "tests" / "browser" / "test_lyon_event.py",
}
# What runs a server or a worker of its own, marked ``server`` so that ``make test-quick`` (``-m "not
# browser and not integration and not server"``) leaves it out: the folders of the live tier and of the
# faults, the fixtures of pytest-django's live server and of the Celery worker, and any module that uses the
# helpers that start processes (a uvicorn, a Redis of the test's own).
SERVER_FOLDERS = {"browser", "live", "faults"}
SERVER_FIXTURES = {"live_server", "celery_worker"}
SERVER_HELPERS = {"tests.processes", "tests.asgi_server", "tests.own_redis"}


def starts_servers(item: pytest.Item) -> bool:
    if item.path.relative_to(ROOT / "tests").parts[0] in SERVER_FOLDERS:
        return True
    if SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    imported = vars(item.module).values() if isinstance(item, pytest.Function) else ()
    return any(
        SERVER_HELPERS & {getattr(value, "__module__", None), getattr(value, "__name__", None)}
        for value in imported
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if starts_servers(item):
            item.add_marker(pytest.mark.server)

    def rank(item: pytest.Item) -> int:
        folder = item.path.relative_to(ROOT / "tests").parts[0]
        if item.path in LONGEST:
            return 0
        if folder == "browser":
            return 1
        return 2 if folder in LONG_FOLDERS or any(item.get_closest_marker(m) for m in LONG_MARKERS) else 3

    items.sort(key=rank)  # stable: each group keeps its order


def database_url(name: str) -> str:
    """The URL of database ``name`` on the server of Django's connection."""
    conf = connection.settings_dict
    user = conf.get("USER") or "postgres"
    password = f":{conf['PASSWORD']}" if conf.get("PASSWORD") else ""
    host = conf.get("HOST") or "127.0.0.1"
    port = conf.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{name}"


def database_url_of_test_database() -> str:
    conf = connection.settings_dict
    if connection.vendor != "postgresql":
        pytest.fail("integration tests need PostgreSQL: run them with `make test`")
    return database_url(conf["NAME"])


@contextmanager
def running_worker(
    node: str,
    log_name: str,
    *extra_args: str,
    concurrency: int = 2,
    redis_url: str | None = None,
    env: dict[str, str] | None = None,
) -> Iterator[str]:
    """A real ``celery -A config worker`` process on the real broker (or the Redis at ``redis_url``, with
    ``env`` added to its environment), against the test database; yields its node name once it answers
    a ping, and stops it afterwards (a worker the test killed already is only waited for)."""
    if not settings.REDIS_URL:
        pytest.fail("integration tests need REDIS_URL (a real Redis broker): run them with `make test`")
    env = {
        **os.environ,
        "DATABASE_URL": database_url_of_test_database(),
        "REDIS_URL": redis_url or settings.REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "PYTHONUNBUFFERED": "1",
        **(env or {}),
    }
    log = artifact(log_name)
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO"]
    command += ["--concurrency", str(concurrency), "--hostname", node, "--without-gossip", "--without-mingle"]
    with log.open("w") as log_file:
        # If this process ends first, a cold shutdown (SIGQUIT): the worker stops at once, with its pool
        # and its embedded beat (which SIGKILL would leave behind).
        process = processes.start([*command, *extra_args], env=env, output=log_file, death_signal="QUIT")
        try:
            deadline = time.monotonic() + 60
            while not celery_app.control.ping(destination=[node], timeout=0.5):
                if process.poll() is not None:
                    pytest.fail(f"the Celery worker {node} exited with {process.returncode}; see {log}")
                if time.monotonic() > deadline:
                    pytest.fail(f"the Celery worker {node} did not answer a ping within 60 s; see {log}")
            yield node
        finally:
            processes.stop(process, grace=20)


@pytest.fixture(scope="session")
def celery_worker(django_db_setup: None, django_db_blocker: object) -> Iterator[str]:
    """This pytest process's real Celery worker process on the real broker (its own queue: see
    ``TEST_NAMESPACE`` in the settings); yields its node name."""
    with running_worker(f"test-{uuid.uuid4().hex[:8]}@localhost", "celery-worker.log") as node:
        yield node


@pytest.fixture(autouse=True)
def celery_mode(request: pytest.FixtureRequest) -> Iterator[None]:
    """Run tasks in process, except in integration tests, which send them to the real worker."""
    eager = request.node.get_closest_marker("integration") is None
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = eager
    if not eager:
        request.getfixturevalue("celery_worker")
    yield
    if not eager:
        rating_lists_recomputed()
    celery_app.conf.task_always_eager = previous


def rating_lists_recomputed() -> None:
    """The worker's recompute of the rating lists that a test's changes sent (to start a second later,
    tournament.services.ratings) has run: it would otherwise store a list in the next test's database."""
    from django.core.cache import cache

    from tournament.services import ratings

    deadline = time.monotonic() + 60
    while cache.get(ratings.PENDING_KEY) or cache.get(ratings.RUNNING_KEY):
        if time.monotonic() > deadline:
            pytest.fail("the rating lists' recompute did not end within 60 s")
        time.sleep(0.1)


@pytest.fixture
def tournament(db: None) -> Tournament:
    from tournament.models import Tournament

    return Tournament.objects.create(
        name="Test Open",
        slug="test-open",
        starts_on=date(2026, 5, 1),
        ends_on=date(2026, 5, 2),
        hanchan_count=5,
    )


def make_players(
    tournament: Tournament, count: int, *, prefix: str = "Player", **fields: object
) -> list[Player]:
    from tournament.models import Player

    return Player.objects.bulk_create(
        Player(tournament=tournament, name=f"{prefix} {i:03d}", **fields) for i in range(1, count + 1)
    )


@pytest.fixture
def sixteen_players(tournament: Tournament) -> list[Player]:
    from tournament.models import Player

    return make_players(tournament, 16, status=Player.Status.CHECKED_IN)


def make_user(username: str, tournament: Tournament | None = None, role: str | None = None) -> Any:
    from django.contrib.auth import get_user_model

    from tournament.models import StaffRole

    user = get_user_model().objects.create_user(username=username, password="pw-for-tests-only")
    if tournament is not None and role is not None:
        StaffRole.objects.create(tournament=tournament, user=user, role=role)
    return user


@pytest.fixture
def referee(tournament: Tournament) -> Any:
    return make_user("referee", tournament, "referee")


@pytest.fixture
def head_referee(tournament: Tournament) -> Any:
    return make_user("head", tournament, "head_referee")


@pytest.fixture
def organiser(tournament: Tournament) -> Any:
    return make_user("organiser", tournament, "organiser")


def seat_table(round_: Any, number: int, players: list[Player]) -> Any:
    from tournament.models import Seat, Table

    table = Table.objects.create(round=round_, number=number)
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, wind=wind, player=player) for wind, player in enumerate(players)
    )
    return table


@pytest.fixture
def seated_table(tournament: Tournament) -> Any:
    """Hanchan 1, table 1: Ana (East), Ben (South), Cho (West), Dai (North)."""
    from tournament.models import Player, Round

    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    players = [
        Player.objects.create(tournament=tournament, name=name) for name in ("Ana", "Ben", "Cho", "Dai")
    ]
    return seat_table(round_, 1, players)


@pytest.fixture(autouse=True)
def english_after_each_test() -> Iterator[None]:
    """Each test starts in the site's language: a request of the test client leaves its language active
    in the thread, which would turn a later test's English expectations into another language."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    """Each test starts with an empty cache: this session's keys only (the real Redis under `make test`)."""
    from django.core.cache import cache

    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    if settings.REDIS_URL and prefix:
        client = cache._cache.get_client(write=True)  # type: ignore[attr-defined]
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
    else:
        cache.clear()
    login_counts.clear()  # each process's own count of failed sign-ins (config.auth)
    yield
