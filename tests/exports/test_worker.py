"""Exports through the real Redis broker and real worker processes, including a worker lost mid-export."""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from config.celery import app as celery_app
from exports import services as export_services
from exports.exporters import register, unregister
from exports.models import ExportJob
from tests.conftest import running_worker
from tests.exports.helpers import rows, workbook
from tournament.models import Tournament

State = ExportJob.State


def wait_for(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"waited {timeout:.0f} s for {what}")


def job_in(job_id: int, *states: str) -> ExportJob | None:
    job = ExportJob.objects.get(pk=job_id)
    return job if job.state in states else None


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_an_export_runs_on_the_worker_and_is_downloaded(played: Tournament, organiser: Any) -> None:
    client = Client()
    client.force_login(organiser)
    request = reverse("exports:request", kwargs={"slug": played.slug, "identifier": "standings_xlsx"})
    job = client.post(request, HTTP_ACCEPT="application/json").json()
    status = wait_for(
        lambda: (s := client.get(job["status_url"]).json())["state"] in {"done", "failed"} and s,
        60,
        "the worker to produce the export",
    )
    assert status["state"] == "done", status["error"]
    download = client.get(status["download_url"])
    assert download.status_code == 200
    book = workbook(b"".join(download.streaming_content))
    assert rows(book["Standings"])[1][:2] == [1, "Ana"]
    ExportJob.objects.get(pk=job["id"]).file.delete()


@pytest.fixture
def slow_exporter() -> Iterator[None]:
    from tests.exports import slow

    register(slow.SlowExporter)
    yield
    unregister(slow.SlowExporter.identifier)


@pytest.fixture
def export_worker(celery_worker: str) -> Iterator[str]:
    """A second worker, one process in its pool, that knows the slow test export; meanwhile the session's
    worker stops taking tasks from the queue, so this one gets the job."""
    queue = celery_app.conf.task_default_queue
    node = f"exports-{uuid.uuid4().hex[:8]}@localhost"
    celery_app.control.cancel_consumer(queue, destination=[celery_worker], reply=True, timeout=5)
    try:
        extra = ("--queues", queue, "--include", "tests.exports.slow")
        with running_worker(node, "export-worker.log", *extra, concurrency=1):
            yield node
    finally:
        celery_app.control.add_consumer(queue, destination=[celery_worker], reply=True, timeout=5)


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_export_and_the_export_still_completes(
    played: Tournament, organiser: Any, slow_exporter: None, export_worker: str
) -> None:
    from tests.exports.slow import attempts_key, process_key

    cache.delete_many([attempts_key(played.pk), process_key(played.pk)])
    job = export_services.request_export(played, organiser, "slow_test")  # queued on commit, at once here
    pid = wait_for(lambda: cache.get(process_key(played.pk)), 30, "the export worker to start the job")
    running = wait_for(
        lambda: (j := job_in(job.pk, State.RUNNING)) is not None and j.progress > 0 and j,
        10,
        "the export to report progress",
    )
    assert running.progress < 1  # mid-way
    active = celery_app.control.inspect(destination=[export_worker], timeout=2).active() or {}
    assert [task["worker_pid"] for task in active.get(export_worker, [])] == [pid]
    os.kill(pid, signal.SIGKILL)  # the pool process dies mid-export, its task not acknowledged

    done = wait_for(lambda: job_in(job.pk, State.DONE, State.FAILED), 60, "the export to be delivered again")
    assert done.state == State.DONE, done.error
    assert cache.get(attempts_key(played.pk)) == 2  # rendered once before the kill, once after
    with done.file.open("rb") as handle:
        assert handle.read() == b"Test Open: all done\n"
    done.file.delete()
