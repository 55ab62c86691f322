"""Background jobs that survive a broker outage and a dead worker: what export and seating jobs share.

A job row (``exports.models.ExportJob``, ``tournament.models.SeatingJob``) is its own outbox. A service
creates the row and sends its task once the transaction commits (``send_on_commit``); when the broker
cannot take the task, the error is logged and the request still succeeds: the row stays queued. Every
``JOB_SWEEP_SECONDS`` a sweep task (Celery beat, see the Procfile) calls ``requeue_stalled``, which sends
again every job still queued ``JOB_QUEUE_GRACE_SECONDS`` after it was sent, and every running job whose
heartbeat is older than ``JOB_HEARTBEAT_STALE_SECONDS`` (its worker died).

A delivery of a task runs the job only after ``claim`` (a compare-and-set under a row lock): a queued
job, a running job whose heartbeat is stale, or a running job whose latest delivery was this very
message (the broker delivered it again because its worker was lost). Each claim is a new ``attempt``;
progress updates (``progress_writer``) write the heartbeat and the final write (``finish``) only for the
current attempt and raise ``Superseded`` or return False otherwise, so a job sent twice stores one
result, whichever delivery runs it.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, models, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError

from tournament.queries import access

logger = logging.getLogger(__name__)

# The states every job model shares (their ``State`` choices have the same values).
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
UNFINISHED = [QUEUED, RUNNING]
# ExportJob, SeriesExportJob or SeatingJob: the models share the fields state, progress, error, finished_at,
# heartbeat_at, attempt and task_id (typed loosely: the models have no common base class).
JobModel = type[Any]
# Progress (and with it the heartbeat) is written at most this often.
PROGRESS_INTERVAL_SECONDS = 0.5


class Superseded(Exception):
    """The job is no longer this delivery's: another delivery claimed it, or it was given up."""


def queue_grace() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "JOB_QUEUE_GRACE_SECONDS", 60)))


def heartbeat_stale() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "JOB_HEARTBEAT_STALE_SECONDS", 120)))


def alive(now: datetime | None = None) -> Q:
    """Jobs under way: queued and sent within the grace, or running with a fresh heartbeat."""
    now = now or timezone.now()
    return Q(state=QUEUED, heartbeat_at__gte=now - queue_grace()) | Q(
        state=RUNNING, heartbeat_at__gte=now - heartbeat_stale()
    )


def stalled(now: datetime | None = None) -> Q:
    """Unfinished jobs that are not under way: never picked up, or their worker died. Jobs without any
    heartbeat (from before heartbeats, or loaded from an archive) are history, never run again."""
    now = now or timezone.now()
    return Q(state=QUEUED, heartbeat_at__lt=now - queue_grace()) | Q(
        state=RUNNING, heartbeat_at__lt=now - heartbeat_stale()
    )


def max_attempts() -> int:
    return int(getattr(settings, "JOB_MAX_ATTEMPTS", 3))


def send(task: Any, job_id: int) -> bool:
    """Send the job's task; False (logged) when the broker cannot take it, which the sweep makes good.

    Without a broker (the local default, tasks run in process) and with ``JOBS_IN_THREAD``, a task sent
    for a web request runs in a thread of its own: the request answers at once and the job's page follows
    its progress, as it does with real workers, instead of the browser waiting on a blank page for the
    whole run. Elsewhere (a command, a test) it runs before ``send`` returns.
    """
    threaded = getattr(settings, "JOBS_IN_THREAD", False) and access.in_request()
    if threaded and task.app.conf.task_always_eager:
        threading.Thread(target=_run_in_thread, args=(task, job_id), daemon=True).start()
        return True
    try:
        task.delay(job_id)
    except OperationalError:
        logger.warning(
            "the broker did not take job %s of %s; the sweep will send it again", job_id, task.name
        )
        return False
    return True


def _run_in_thread(task: Any, job_id: int) -> None:
    try:
        task.apply(args=[job_id])
    except Exception:  # the job row records what it can; the thread must not die silently
        logger.exception("job %s of %s failed in its thread", job_id, task.name)
    finally:
        connection.close()  # this thread's own database connection


def send_on_commit(task: Any, job_id: int) -> None:
    transaction.on_commit(lambda: send(task, job_id))


def claim(model: JobModel, job_id: int, task_id: str | None) -> int | None:
    """Start this delivery (``task_id``) of a job: its attempt number, or None when it must not run
    (finished, or running in another delivery whose heartbeat is fresh)."""
    task_id = task_id or uuid.uuid4().hex
    now = timezone.now()
    with transaction.atomic():
        job: Any = model.objects.select_for_update().filter(pk=job_id).first()
        if job is None:
            return None
        taken_over = job.state == RUNNING and (
            job.task_id == task_id or job.heartbeat_at is None or job.heartbeat_at < now - heartbeat_stale()
        )
        if job.state != QUEUED and not taken_over:
            return None
        attempt = int(job.attempt) + 1
        model.objects.filter(pk=job_id).update(
            state=RUNNING, attempt=attempt, task_id=task_id, heartbeat_at=now, progress=0.0, error=""
        )
    return attempt


def progress_writer(model: JobModel, job_id: int, attempt: int) -> Callable[[float], None]:
    """The progress callback of one attempt: writes progress and heartbeat at most every half second;
    raises ``Superseded`` once the job is no longer this attempt's, so that a lost delivery stops."""
    last_saved = [time.monotonic()]

    def progress(fraction: float) -> None:
        now = time.monotonic()
        if now - last_saved[0] < PROGRESS_INTERVAL_SECONDS:
            return
        last_saved[0] = now
        updated = model.objects.filter(pk=job_id, attempt=attempt, state=RUNNING).update(
            progress=max(0.0, min(fraction, 0.99)), heartbeat_at=timezone.now()
        )
        if not updated:
            raise Superseded(f"job {job_id}: attempt {attempt} was superseded")

    return progress


def finish(model: JobModel, job_id: int, attempt: int, **fields: Any) -> bool:
    """Store the outcome of one attempt, if the job is still that attempt's; whether it was stored."""
    current = model.objects.filter(pk=job_id, attempt=attempt, state=RUNNING)
    return bool(current.update(**{"finished_at": timezone.now(), **fields}))


def is_current(model: JobModel, job_id: int, attempt: int) -> bool:
    """Whether the job is still running this attempt (to check under a lock before storing a result)."""
    current = model.objects.select_for_update().filter(pk=job_id, attempt=attempt, state=RUNNING)
    return bool(current.exists())


def _fail(jobs: models.QuerySet[Any], now: datetime, error: Callable[[], str]) -> int:
    """Mark ``jobs`` failed with the ``error`` of each one's tournament's language (a series' job: the
    language it was asked in; the text is stored once, for whoever opens the job); how many."""
    field = "tournament__language" if hasattr(jobs.model, "tournament") else "language"
    failed = 0
    for language in set(jobs.values_list(field, flat=True)):
        with translation.override(language or settings.LANGUAGE_CODE):
            failed += jobs.filter(**{field: language}).update(state=FAILED, error=error(), finished_at=now)
    return failed


def give_up_stalled(jobs: models.QuerySet[Any], superseded_by: int) -> int:
    """Mark the stalled jobs among ``jobs`` failed, replaced by job ``superseded_by``; how many."""
    now = timezone.now()
    return _fail(
        jobs.filter(stalled(now)),
        now,
        lambda: _("given up: its worker stopped; job {job} replaces it").format(job=superseded_by),
    )


def requeue_stalled(model: JobModel, task: Any, now: datetime | None = None) -> list[int]:
    """Send again every stalled job of ``model``; the ids of those the broker took."""
    now = now or timezone.now()
    sent = []
    stalled_jobs = model.objects.filter(stalled(now))
    # A job that stalled on each of its attempts (it kills its worker, say) is not tried forever.
    given_up = _fail(
        stalled_jobs.filter(attempt__gte=max_attempts()),
        now,
        lambda: _("given up: its worker stopped on each of {attempts} attempts").format(
            attempts=max_attempts()
        ),
    )
    if given_up:
        logger.error("%s job(s) of %s given up after %s attempts", given_up, task.name, max_attempts())
    for job_id in list(stalled_jobs.values_list("pk", flat=True)):
        # Back to queued, sent now: the attempt that stalled can no longer write, and the job is not sent
        # again before the grace has passed.
        requeued = model.objects.filter(stalled(now), pk=job_id).update(state=QUEUED, heartbeat_at=now)
        if requeued:
            logger.warning("job %s of %s stalled; sent again", job_id, task.name)
            if send(task, job_id):
                sent.append(job_id)
    return sent
