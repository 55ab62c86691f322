"""A real Celery worker killed in the middle of a rating lists' recompute (``tournament.services.ratings``,
docs/ratings.md, "When a recompute fails"): the last good lists are served meanwhile, the sweep of another
worker notices the run that died from its heartbeat and runs the lists again, within seconds.

The workers are processes of the test's own on a Redis of its own (never the machine's shared services).
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client

from config.celery import app as celery_app
from tests.conftest import running_worker
from tests.own_redis import broker_at, own_redis
from tests.processes import artifact
from tests.ratings.test_rating_faults import other_connection_locking
from tests.ratings.test_rating_lists import build
from tests.ratings.test_rating_refresh import BEN_AFTER, BEN_BEFORE, ben_ranking, correct_spring, fresh
from tournament.models import RatingRun, Series
from tournament.queries.ratings_db import SITE, latest_key, series_scope
from tournament.services import ratings as rating_services

# The workers' job settings: a sweep each second, a heartbeat 3 s old taken for dead; storing a list may
# wait for its row far longer than the test runs, so the doomed worker is still waiting when it is killed.
FAST = {
    "JOB_SWEEP_SECONDS": "1",
    "JOB_QUEUE_GRACE_SECONDS": "1",
    "JOB_HEARTBEAT_STALE_SECONDS": "3",
    "RATINGS_LOCK_TIMEOUT_SECONDS": "120",
}
WAITING_ON_A_LOCK = (
    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
)


def waiting_on_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute(WAITING_ON_A_LOCK)
        return int(cursor.fetchone()[0])


def until(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {seconds:.0f} s for {what}")
        time.sleep(0.1)


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_recompute_is_noticed_by_the_sweep_and_another_worker_completes_the_lists(
    tmp_path: Path,
) -> None:
    world = build()
    season = Series.objects.create(name="Season", slug="season")
    season.tournaments.set([world["spring"], world["autumn"]])
    rating_services.refresh_rating_lists()  # in process: the last good lists
    client = Client()
    # The workers are real Celery processes on a Redis of this test's own (broker and cache), never the
    # session's worker; this process sends its change's recompute there.
    with own_redis(artifact("ratings-own-redis.log")) as server, broker_at(server.url):
        eager = celery_app.conf.task_always_eager
        celery_app.conf.task_always_eager = False
        other = other_connection_locking(SITE)  # the site's stored list held: its run waits mid-way
        try:
            correct_spring(world)  # its commit sends the recompute
            cache.delete(rating_services.PENDING_KEY)  # this process's mark; the workers keep theirs
            node = f"doomed-{uuid.uuid4().hex[:8]}@localhost"
            with running_worker(
                node, "ratings-doomed-worker.log", concurrency=1, redis_url=server.url, env=FAST
            ):
                until(lambda: waiting_on_a_lock() > 0, 30, "the worker's run to reach the stored list")
                run = RatingRun.objects.get(scope=SITE)
                assert run.heartbeat_at is not None  # claimed, under way, in the worker
                stats = celery_app.control.inspect(destination=[node], timeout=2).stats() or {}
                os.killpg(stats[node]["pid"], signal.SIGKILL)  # the worker and its pool, mid-recompute
            killed = time.monotonic()
        finally:
            other.rollback()
            other.close()
        # Meanwhile readers get the last good list and send nothing.
        assert ben_ranking(client.get("/ratings/?list=mers").content.decode()) == BEN_BEFORE
        assert not fresh(SITE) and not fresh(series_scope(season))
        rescue = f"rescue-{uuid.uuid4().hex[:8]}@localhost"
        beat = ("--beat", "--schedule", str(tmp_path / "beat-schedule"))
        try:
            with running_worker(
                rescue, "ratings-rescue-worker.log", *beat, concurrency=1, redis_url=server.url, env=FAST
            ):
                until(
                    lambda: fresh(SITE) and fresh(series_scope(season)),
                    40,
                    "the sweep to run the lists again",
                )
        finally:
            celery_app.conf.task_always_eager = eager
    assert time.monotonic() - killed < 30  # stale after 3 s, swept within 1 s, computed in a moment
    run = RatingRun.objects.get(scope=SITE)
    assert run.failures == 0 and run.heartbeat_at is None and "its worker died" in run.error
    # The workers cached the new list in their Redis, not in this process's cache, whose last list is the
    # old one: without it, the page reads the stored list (in production both share one cache).
    cache.delete(latest_key(SITE))
    assert ben_ranking(client.get("/ratings/?list=mers").content.decode()) == BEN_AFTER
