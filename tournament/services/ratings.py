"""The site's and the series' rating lists, computed in the background and stored, so that no page
request computes one (docs/ratings.md, "Computed in the background").

Once a change of what a list is made of commits (a sheet signed or corrected, a penalty, a tournament's
settings, publication or MERS inputs, a registration linked, merged or split: every change that moves a
tournament's standings version, ``standings_db.results_changed``; a hanchan finished; a series'
tournaments), ``ratings_changed`` adds one to the change counter and asks for a recompute. The changes
made until a recompute starts share it: the first sends the task to start in ``DEBOUNCE_SECONDS`` and
marks it pending, the others find it pending; the task clears the mark as it starts. The task reads
the counter, recomputes each list whose data has changed (its digest) and stores it with the counter
it was computed for; a slower run that read older data never replaces a newer list. With no broker
(tasks run in process) the change's own request computes, once it commits.

Each list runs on its own (``run_list``): a list that fails is recorded with its cause in its
``RatingRun`` and the others are still computed; the failed list is not tried again before its retry
time, which doubles with each failure in a row (``RATINGS_RETRY_SECONDS`` up to
``RATINGS_RETRY_MAX_SECONDS``), whoever asks (a change, a reader or the sweep). A run writes a heartbeat
while it computes (from a thread: the computation is one long call); the sweep (Celery beat, every
``JOB_SWEEP_SECONDS``) records a run whose heartbeat is older than ``JOB_HEARTBEAT_STALE_SECONDS`` as
died, and sends the recompute of every list whose retry time has come. Meanwhile the pages serve the
last good list with its time.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.dispatch import receiver
from django.utils import timezone
from kombu.exceptions import OperationalError

from tournament.models import RatingHistory, RatingRun, RatingSnapshot, Series, Tournament
from tournament.queries.ratings_db import (
    SITE,
    RatingList,
    cache_list,
    compute_list,
    current_digest,
    remember_latest,
    series_scope,
    snapshot_fields,
    snapshot_histories,
    stored_list,
)
from tournament.queries.standings_db import results_changed
from tournament.services.jobs import heartbeat_stale

logger = logging.getLogger(__name__)

DEBOUNCE_SECONDS = 1
VERSION_KEY = "ratings-version:v1"  # the change counter
PENDING_KEY = "ratings-refresh-pending:v1"  # a recompute is sent, not started
PENDING_SECONDS = 60  # a recompute the broker lost leaves its flag this long at most
# A recompute task is under way in some process: what the test suite waits for before its next test.
# The pages and the sweep read each list's ``RatingRun`` instead.
RUNNING_KEY = "ratings-refresh-running:v1"
RUNNING_SECONDS = 600  # a task that died leaves its flag this long at most
ERROR_LENGTH = 2000  # of a failure's cause, as stored


def change_version() -> int:
    """How many changes of the rating lists' data have committed (as the cache counts them)."""
    return int(cache.get(VERSION_KEY, 0))


def ratings_changed() -> None:
    """A change of what a rating list is made of has committed: the change counter moves, and a
    recompute is asked for."""
    cache.add(VERSION_KEY, 0, None)
    with suppress(ValueError):  # the cache lost the key, or cannot be reached: the readers see the digest
        cache.incr(VERSION_KEY)
    request_refresh()


def ratings_changed_on_commit() -> None:
    """``ratings_changed`` once the current transaction commits (a failure is logged, never undoes the
    change: the next reader asks again)."""
    transaction.on_commit(ratings_changed, robust=True)


@receiver(results_changed)
def _results_changed(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    ratings_changed()


def request_refresh() -> bool:
    """Send the recompute, to start in ``DEBOUNCE_SECONDS``, unless one is already sent and not started:
    the changes made until it starts share it (it reads their data once it has started). True when
    this call sent it. With no broker it runs here."""
    if refresh_rating_lists.app.conf.task_always_eager:
        refresh_rating_lists.delay()
        return True
    if not cache.add(PENDING_KEY, 1, PENDING_SECONDS):
        return False
    try:
        refresh_rating_lists.apply_async(countdown=DEBOUNCE_SECONDS)
    except OperationalError:
        cache.delete(PENDING_KEY)
        logger.warning("the broker did not take the rating lists' recompute; the next reader asks again")
        return False
    return True


@shared_task(
    name="tournament.refresh_rating_lists", acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def refresh_rating_lists() -> list[str]:
    """Recompute and store every rating list whose data has changed: the site's, then each series',
    each on its own (``run_list``: one list's failure is recorded and the next one still runs). The
    scopes stored. Safe to run twice (a list whose digest is the stored one is left alone)."""
    cache.set(RUNNING_KEY, 1, RUNNING_SECONDS)
    cache.delete(PENDING_KEY)  # a change from now on sends another recompute: this one may miss it
    try:
        version = change_version()
        as_of = timezone.localdate()
        return [scope for scope, series in list_scopes() if run_list(scope, series, version, as_of)]
    finally:
        cache.delete(RUNNING_KEY)


def list_scopes() -> list[tuple[str, Series | None]]:
    """Every rating list: the site's, then each series' in the order they were made."""
    scopes: list[tuple[str, Series | None]] = [(SITE, None)]
    return scopes + [(series_scope(series), series) for series in Series.objects.order_by("pk")]


def _tournaments(series: Series | None) -> QuerySet[Tournament]:
    return Tournament.objects.all() if series is None else series.tournaments.all()


def refresh_list(scope: str, series: Series | None, version: int, as_of: date) -> RatingList | None:
    """The list of ``scope`` computed and stored for change ``version``, unless the stored one is made of
    the same data (None: then only its version moves)."""
    read_at = timezone.now()
    digest, events, cutoffs = current_digest(_tournaments(series), as_of)
    stored = RatingSnapshot.objects.filter(scope=scope)
    if stored.filter(digest=digest).exists():
        stored.filter(version__lt=version).update(version=version)
        return None
    ratings, histories = compute_list(scope, events, cutoffs, digest, as_of)
    if store_list(scope, series, ratings, histories, version, read_at):
        cache_list(ratings, histories)
        remember_latest(ratings)
    return ratings


def lock_timeout_seconds() -> float:
    return float(getattr(settings, "RATINGS_LOCK_TIMEOUT_SECONDS", 30))


@transaction.atomic
def store_list(
    scope: str,
    series: Series | None,
    ratings: RatingList,
    histories: dict[str, Any],
    version: int,
    read_at: datetime,
) -> bool:
    """Store ``ratings`` (read from the data as of ``read_at``) and its histories as the list of
    ``scope``, unless a list read later is stored already. True when stored. On PostgreSQL the stored
    row is waited for ``RATINGS_LOCK_TIMEOUT_SECONDS`` at most: a transaction stuck on it fails this run
    (recorded, tried again later) instead of holding the worker."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT set_config('lock_timeout', %s, true)", [f"{int(lock_timeout_seconds() * 1000)}ms"]
            )
    fields = {**snapshot_fields(ratings), "series": series, "version": version, "read_at": read_at}
    snapshot, created = RatingSnapshot.objects.select_for_update().get_or_create(scope=scope, defaults=fields)
    if not created:
        if snapshot.read_at > read_at:
            return False
        for name, value in fields.items():
            setattr(snapshot, name, value)
        snapshot.save()
        snapshot.histories.all().delete()
    RatingHistory.objects.bulk_create(
        RatingHistory(snapshot=snapshot, bucket=bucket, steps=steps)
        for bucket, steps in snapshot_histories(histories).items()
    )
    return True


# -- Each list's run: claimed, its heartbeat, its outcome, the backoff and the sweep -------------------


def retry_delay(failures: int) -> timedelta:
    """How long a list waits after its ``failures``-th failure in a row: ``RATINGS_RETRY_SECONDS``,
    doubled with each further failure, at most ``RATINGS_RETRY_MAX_SECONDS``; no wait for none."""
    if failures < 1:
        return timedelta(0)
    first = float(getattr(settings, "RATINGS_RETRY_SECONDS", 30))
    longest = float(getattr(settings, "RATINGS_RETRY_MAX_SECONDS", 1800))
    return timedelta(seconds=min(longest, first * 2 ** min(failures - 1, 30)))


def heartbeat_seconds() -> float:
    """How often a run writes its heartbeat: four times within the age the sweep takes for dead."""
    return heartbeat_stale().total_seconds() / 4


def under_way(run: RatingRun | None, now: datetime) -> bool:
    """A run of the list is under way: its heartbeat is fresh."""
    return run is not None and run.heartbeat_at is not None and run.heartbeat_at >= now - heartbeat_stale()


def waiting(run: RatingRun | None, now: datetime) -> bool:
    """The list failed and its retry time has not come."""
    return run is not None and run.failures > 0 and run.retry_at is not None and run.retry_at > now


def notice_dead_runs(now: datetime, scope: str | None = None) -> list[str]:
    """Record each run whose heartbeat is stale (of ``scope``, or of every list) as died: a failure, its
    cause, and its retry time (at once the first time: the heartbeat's age was the wait; after the usual
    backoff when its runs die again and again). The scopes noticed."""
    dead = RatingRun.objects.filter(heartbeat_at__lt=now - heartbeat_stale())
    if scope is not None:
        dead = dead.filter(scope=scope)
    noticed = []
    for run in dead:
        failures = run.failures + 1
        started = run.started_at or run.heartbeat_at
        error = (
            f"the run started at {started:%Y-%m-%d %H:%M:%S %Z} stopped: no heartbeat since "
            f"{run.heartbeat_at:%Y-%m-%d %H:%M:%S %Z} (its worker died or was stopped)"
        )
        # Only if no other process took the run meanwhile (its heartbeat is still the dead one).
        recorded = RatingRun.objects.filter(pk=run.pk, heartbeat_at=run.heartbeat_at).update(
            heartbeat_at=None,
            finished_at=now,
            failures=failures,
            failed_at=now,
            error=error,
            retry_at=now + retry_delay(failures - 1),
        )
        if recorded:
            logger.error("the rating list %s: %s", run.scope, error)
            noticed.append(run.scope)
    return noticed


def claim_run(scope: str, series: Series | None) -> bool:
    """Start a run of the list of ``scope`` (a compare-and-set on its ``RatingRun``): False when a run
    is under way (a fresh heartbeat) or the list waits for its retry time after a failure. A run found
    dead is recorded first (``notice_dead_runs``)."""
    now = timezone.now()
    RatingRun.objects.get_or_create(scope=scope, defaults={"series": series})
    notice_dead_runs(now, scope)
    free = Q(heartbeat_at=None) & (Q(failures=0) | Q(retry_at=None) | Q(retry_at__lte=now))
    return bool(RatingRun.objects.filter(free, scope=scope).update(heartbeat_at=now, started_at=now))


@contextmanager
def heartbeat(scope: str) -> Iterator[None]:
    """While the body runs, the run's heartbeat is written every ``heartbeat_seconds`` from a thread of
    its own (the computation is one long call that reports nothing), so that the sweep takes only a
    dead run for dead: the thread dies with its worker."""
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(heartbeat_seconds()):
                RatingRun.objects.filter(scope=scope, heartbeat_at__isnull=False).update(
                    heartbeat_at=timezone.now()
                )
        except Exception:  # a heartbeat missed is the sweep's to notice; the run goes on
            logger.exception("the heartbeat of the rating list %s stopped", scope)
        finally:
            connection.close()  # this thread's own database connection

    thread = threading.Thread(target=beat, name=f"rating-heartbeat-{scope}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def record_success(scope: str) -> None:
    now = timezone.now()
    RatingRun.objects.filter(scope=scope).update(
        heartbeat_at=None, finished_at=now, succeeded_at=now, failures=0, retry_at=None
    )


def record_failure(scope: str, error: BaseException) -> None:
    """The run of ``scope`` failed with ``error``: its cause stored for staff, its retry time set (the
    backoff of this many failures in a row). Never raises: the run's own error is what is logged."""
    cause = f"{type(error).__name__}: {error}"[:ERROR_LENGTH]
    try:
        now = timezone.now()
        run = RatingRun.objects.filter(scope=scope).first()
        failures = (run.failures if run is not None else 0) + 1
        RatingRun.objects.filter(scope=scope).update(
            heartbeat_at=None,
            finished_at=now,
            failures=failures,
            failed_at=now,
            error=cause,
            retry_at=now + retry_delay(failures),
        )
    except Exception:
        logger.exception("the failure of the rating list %s could not be recorded", scope)


def run_list(scope: str, series: Series | None, version: int, as_of: date) -> bool:
    """One list's run (``refresh_list``), on its own: claimed first (skipped while a run is under way or
    the list waits for its retry), with its heartbeat; a failure is recorded (``record_failure``) and
    does not reach the caller, so that the next list still runs. True when a list was stored."""
    return _run(scope, series, lambda: refresh_list(scope, series, version, as_of)) is not None


def _run(scope: str, series: Series | None, compute: Callable[[], RatingList | None]) -> RatingList | None:
    try:
        claimed = claim_run(scope, series)
    except Exception:  # the database, say: nothing to record it in; the next run or the sweep tries again
        logger.exception("the run of the rating list %s could not be started", scope)
        return None
    if not claimed:
        return None
    try:
        with heartbeat(scope):
            ratings = compute()
    except Exception as error:
        logger.exception("the rating list %s could not be computed", scope)
        record_failure(scope, error)
        return None
    record_success(scope)
    return ratings


def sweep_rating_runs() -> list[str]:
    """Record the runs that died (``notice_dead_runs``) and send the recompute when a list's retry time
    has come (its run died or failed). The scopes due."""
    now = timezone.now()
    notice_dead_runs(now)
    due = RatingRun.objects.filter(heartbeat_at=None, failures__gt=0, retry_at__lte=now)
    scopes = list(due.order_by("scope").values_list("scope", flat=True))
    if scopes:
        request_refresh()
    return scopes


@shared_task(name="tournament.sweep_rating_lists", ignore_result=True)
def sweep_rating_lists() -> list[str]:
    """The sweep, sent by Celery beat every ``JOB_SWEEP_SECONDS``."""
    return sweep_rating_runs()


def retry_now(scope: str) -> None:
    """Staff's "recompute now": the list's wait after a failure is over, and the recompute is sent."""
    RatingRun.objects.filter(scope=scope).update(retry_at=timezone.now())
    request_refresh()


# -- What the pages read -------------------------------------------------------------------------------


def served_list(scope: str, series: Series | None) -> RatingList:
    """The list a page or the API shows (``ratings_db.stored_list``): the stored one; while its data has
    changed, the last good one, stale, with its time (and ``failing`` when its recompute failed), the
    recompute asked for here only when none is under way and the list is not waiting for its retry
    time. Computed here only on a site that never stored one (``first_list``)."""
    found = stored_list(scope, _tournaments(series))
    if found is None:
        return first_list(scope, series)
    if not found.stale:
        return found
    run = RatingRun.objects.filter(scope=scope).first()
    now = timezone.now()
    if not under_way(run, now) and not waiting(run, now):
        request_refresh()
    return replace(found, failing=run is not None and run.failures > 0)


def first_list(scope: str, series: Series | None) -> RatingList:
    """The list of a scope that never stored one, computed and stored in this request, as one run
    (``_run``); while another run computes it, or after it failed, an empty list, stale (no time)."""
    as_of = timezone.localdate()

    def compute() -> RatingList:
        read_at, version = timezone.now(), change_version()
        digest, events, cutoffs = current_digest(_tournaments(series), as_of)
        ratings, histories = compute_list(scope, events, cutoffs, digest, as_of)
        if store_list(scope, series, ratings, histories, version, read_at):
            cache_list(ratings, histories)
            remember_latest(ratings)
        return ratings

    ratings = _run(scope, series, compute)
    if ratings is not None:
        return ratings
    run = RatingRun.objects.filter(scope=scope).first()
    failing = run is not None and run.failures > 0
    return RatingList(scope, "", as_of, [], [], [], stale=True, failing=failing)


def run_of(scope: str) -> RatingRun | None:
    """The list's run, for staff: whether one is under way, the last failure and its cause."""
    return RatingRun.objects.filter(scope=scope).first()


def served_site_list() -> RatingList:
    return served_list(SITE, None)


def served_series_list(series: Series) -> RatingList:
    return served_list(series_scope(series), series)
