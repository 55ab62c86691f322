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
"""

from __future__ import annotations

import logging
from contextlib import suppress
from datetime import date, datetime
from typing import Any

from celery import shared_task
from django.core.cache import cache
from django.db import transaction
from django.db.models import QuerySet
from django.dispatch import receiver
from django.utils import timezone
from kombu.exceptions import OperationalError

from tournament.models import RatingHistory, RatingSnapshot, Series, Tournament
from tournament.ratings_db import (
    SITE,
    RatingList,
    compute_list,
    current_digest,
    remember_latest,
    series_scope,
    snapshot_fields,
    snapshot_histories,
    stored_list,
)
from tournament.standings_db import results_changed

logger = logging.getLogger(__name__)

DEBOUNCE_SECONDS = 1
VERSION_KEY = "ratings-version:v1"  # the change counter
PENDING_KEY = "ratings-refresh-pending:v1"  # a recompute is sent, not started
PENDING_SECONDS = 60  # a recompute the broker lost leaves its flag this long at most
RUNNING_KEY = "ratings-refresh-running:v1"  # a recompute is running
RUNNING_SECONDS = 600  # a run that died leaves its flag this long at most


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
    """Recompute and store every rating list whose data has changed: the site's, then each series'.
    The scopes stored. Safe to run twice (a list whose digest is the stored one is left alone)."""
    cache.set(RUNNING_KEY, 1, RUNNING_SECONDS)
    cache.delete(PENDING_KEY)  # a change from now on sends another recompute: this one may miss it
    try:
        version = change_version()
        as_of = timezone.localdate()
        stored = []
        scopes: list[tuple[str, Series | None]] = [(SITE, None)]
        scopes += [(series_scope(series), series) for series in Series.objects.order_by("pk")]
        for scope, series in scopes:
            if refresh_list(scope, series, version, as_of) is not None:
                stored.append(scope)
        return stored
    finally:
        cache.delete(RUNNING_KEY)


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
        remember_latest(ratings)
    return ratings


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
    ``scope``, unless a list read later is stored already. True when stored."""
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


def served_list(scope: str, series: Series | None) -> RatingList:
    """The list a page or the API shows (``ratings_db.stored_list``): the stored one, stale while a
    newer one is computed (asked for here if no recompute is sent or running); computed here only on
    a site that never stored one."""
    found = stored_list(scope, _tournaments(series))
    if found is None:
        read_at, version = timezone.now(), change_version()
        digest, events, cutoffs = current_digest(_tournaments(series), timezone.localdate())
        ratings, histories = compute_list(scope, events, cutoffs, digest, timezone.localdate())
        if store_list(scope, series, ratings, histories, version, read_at):
            remember_latest(ratings)
        return ratings
    if found.stale and not cache.get(RUNNING_KEY):
        request_refresh()
    return found


def served_site_list() -> RatingList:
    return served_list(SITE, None)


def served_series_list(series: Series) -> RatingList:
    return served_list(series_scope(series), series)
