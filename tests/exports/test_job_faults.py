"""Jobs through faults the tests cause on a Redis broker and workers they start themselves (never the
machine's shared services): a job asked for while the broker is down, and a worker killed mid-export.

The workers run with the job sweep in them (``celery worker -B``, the beat schedule of the settings) and
short intervals, so that these tests take seconds; production's are in the README's configuration.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from config.celery import app as celery_app
from exports import services as export_services
from exports.exporters import register, unregister
from exports.models import ExportJob
from tests.conftest import running_worker
from tests.own_redis import OwnRedis, broker_at, own_redis
from tests.processes import artifact
from tournament.models import Tournament

State = ExportJob.State
# The job settings of the workers these tests start: a sweep each second, a queued job sent again after
# a second, a running one whose heartbeat is 3 s old taken for dead.
FAST = {"JOB_SWEEP_SECONDS": "1", "JOB_QUEUE_GRACE_SECONDS": "1", "JOB_HEARTBEAT_STALE_SECONDS": "3"}


def wait_for(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    pytest.fail(f"waited {timeout:.0f} s for {what}")


def finished(job_id: int) -> ExportJob | None:
    job = ExportJob.objects.get(pk=job_id)
    return job if job.state in {State.DONE, State.FAILED} else None


@pytest.fixture
def broker() -> Iterator[OwnRedis]:
    """A Redis of this test's own, this process's broker meanwhile."""
    with own_redis(artifact("own-redis.log")) as server, broker_at(server.url):
        yield server


@pytest.fixture
def slow_exporter() -> Iterator[None]:
    from tests.exports import slow

    register(slow.SlowExporter)
    yield
    unregister(slow.SlowExporter.identifier)


def sweeping_worker(broker: OwnRedis, tmp_path: Path, log_name: str) -> Any:
    """A worker on ``broker`` with the sweep in it (embedded beat), that knows the slow test export."""
    node = f"sweeper-{uuid.uuid4().hex[:8]}@localhost"
    extra = ("--include", "tests.exports.slow", "--beat", "--schedule", str(tmp_path / "beat-schedule"))
    return running_worker(node, log_name, *extra, concurrency=1, redis_url=broker.url, env=FAST)


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_an_export_asked_for_while_the_broker_is_down_is_accepted_and_runs_once_it_is_back(
    played: Tournament, organiser: Any, broker: OwnRedis, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    broker.stop()
    client = Client()
    client.force_login(organiser)
    url = reverse("exports:request", kwargs={"slug": played.slug, "identifier": "standings_csv"})
    started = time.monotonic()
    response = client.post(url, HTTP_ACCEPT="application/json")
    assert response.status_code == 202 and response.json()["state"] == "queued"
    assert time.monotonic() - started < 5  # the broker's absence does not hold the request
    assert "the broker did not take job" in caplog.text
    job_id = response.json()["id"]

    broker.start()
    with sweeping_worker(broker, tmp_path, "sweep-worker.log"):
        done = wait_for(lambda: finished(job_id), 30, "the sweep to send the job and the worker to run it")
    assert done.state == State.DONE, done.error
    assert done.attempt == 1
    assert done.filename.startswith("test-open-standings") and done.file.size > 0
    done.file.delete()


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_export_and_another_one_completes_it_once(
    played: Tournament, organiser: Any, broker: OwnRedis, slow_exporter: None, tmp_path: Path
) -> None:
    node = f"doomed-{uuid.uuid4().hex[:8]}@localhost"
    extra = ("--include", "tests.exports.slow")
    with running_worker(node, "doomed-worker.log", *extra, concurrency=1, redis_url=broker.url, env=FAST):
        job = export_services.request_export(played, organiser, "slow_test")  # sent on commit
        wait_for(
            lambda: ExportJob.objects.filter(pk=job.pk, state=State.RUNNING, progress__gt=0).exists(),
            20,
            "the worker to start the export",
        )
        stats = celery_app.control.inspect(destination=[node], timeout=2).stats() or {}
        main = stats[node]["pid"]
        os.killpg(main, signal.SIGKILL)  # the main process and its pool at once, as if the machine died
    killed = time.monotonic()
    running = ExportJob.objects.get(pk=job.pk)
    assert running.state == State.RUNNING and running.attempt == 1  # its message still unacknowledged

    with sweeping_worker(broker, tmp_path, "rescue-worker.log"):
        done = wait_for(lambda: finished(job.pk), 40, "the sweep to run the dead worker's export again")
    assert done.state == State.DONE, done.error
    assert done.attempt == 2
    assert time.monotonic() - killed < 30  # stale after 3 s, swept within 1 s, rendered in 4 s
    with done.file.open("rb") as handle:
        assert handle.read() == b"Test Open: all done\n"
    assert os.listdir(os.path.dirname(done.file.path)) == [os.path.basename(done.file.name)]  # one file
    done.file.delete()
