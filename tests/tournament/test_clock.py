"""The hanchan clock (WRCR 2015 §8.2): start, pause, extend, extra minutes for one table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from tournament import services
from tournament.core.clock import Clock
from tournament.core.refusal import Refusal
from tournament.models import Round

T0 = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)


def test_a_running_clock_counts_down_and_stops_at_zero() -> None:
    clock = Clock.stopped(90).start(T0)
    assert clock.seconds_left(T0 + timedelta(minutes=30)) == 60 * 60
    assert clock.seconds_left(T0 + timedelta(minutes=100)) == 0
    assert clock.as_dict(T0 + timedelta(minutes=100))["state"] == "over"


def test_pause_keeps_the_time_left_and_start_resumes_it() -> None:
    paused = Clock.stopped(90).start(T0).pause(T0 + timedelta(minutes=10))
    assert paused.seconds_left(T0 + timedelta(hours=5)) == 80 * 60
    resumed = paused.start(T0 + timedelta(minutes=20))
    assert resumed.seconds_left(T0 + timedelta(minutes=30)) == 70 * 60
    with pytest.raises(Refusal):
        resumed.start(T0)


def test_extend_and_table_extra_minutes() -> None:
    clock = Clock.stopped(90).start(T0).extend(5)
    assert clock.seconds_left(T0) == 95 * 60
    assert clock.seconds_left(T0, extra_minutes=3) == 98 * 60


@pytest.mark.django_db
def test_starting_the_clock_starts_the_hanchan(tournament: Any, organiser: Any, referee: Any) -> None:
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.SEATED)
    with pytest.raises(PermissionDenied):
        services.operate_clock(round_, referee, "start")
    started = services.operate_clock(round_, organiser, "start")
    assert started.status == Round.Status.STARTED and started.clock().state == "running"
    paused = services.operate_clock(round_, organiser, "pause")
    assert paused.clock().state == "paused" and 89 * 60 < paused.clock().remaining <= 90 * 60
