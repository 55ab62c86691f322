"""A task's round trip through the real Redis broker and a real worker process."""

from __future__ import annotations

import pytest

from config.celery import echo


@pytest.mark.integration
def test_round_trip_through_the_broker_and_a_worker(celery_worker: str) -> None:
    result = echo.delay({"table": 7})
    assert result.get(timeout=30) == {"payload": {"table": 7}, "worker": celery_worker}


def test_without_integration_marker_tasks_run_in_process() -> None:
    result = echo.delay("here")
    assert result.get(timeout=5)["payload"] == "here"
