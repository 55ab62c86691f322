"""A task's round trip through the real Redis broker and a real worker process."""

from __future__ import annotations

import pytest
from celery.result import EagerResult

from config.celery import echo


@pytest.mark.integration
def test_round_trip_through_the_broker_and_a_worker(celery_worker: str) -> None:
    result = echo.delay({"table": 7})
    assert result.get(timeout=30) == {"payload": {"table": 7}, "worker": celery_worker}


def test_without_integration_marker_tasks_run_in_process() -> None:
    result = echo.delay("here")
    assert isinstance(result, EagerResult), "run in this process, not sent to a worker"
    # Celery's guard against waiting for a task inside a task is one flag for the whole process, not per
    # thread: a task that a live server's thread is running for a page (a browser test before this one in
    # the same worker) holds it while this thread reads its own, finished result.
    assert result.get(timeout=5, disable_sync_subtasks=False)["payload"] == "here"
