"""The rating lists recomputed in the background (``tournament.services.ratings``, docs/ratings.md,
"Computed in the background"): a change's commit recomputes and stores them, a page or the API reads the
stored list and computes nothing (no query of the results), the stored list is served, marked stale with
when it was computed, while a newer one is computed; the changes of one second share one recompute; and
with a real worker through Redis, a signed sheet reaches the stored list.

The tournaments and their figures: tests/ratings/test_rating_lists.py (Ben's MERS ranking 305.43, 183.33
once spring's sheet is corrected so that he is 4th there).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring import services as sheets
from scoring.models import ScoreSheet
from tests.ratings.test_rating_lists import build, key
from tests.series.helpers import FIRST, SECOND, played
from tournament.models import RatingHistory, RatingRun, RatingSnapshot, Series, Tournament
from tournament.queries.ratings_db import SITE, current_digest, series_scope
from tournament.services import ratings as rating_services

BEN_BEFORE, BEN_AFTER = "305.43", "183.33"


def correct_spring(world: dict[str, Any]) -> None:
    """Ben and Cho swap their points in spring: Ben 4th there, Cho 3rd."""
    sheet = ScoreSheet.objects.get(table__round__tournament=world["spring"])
    points = {**FIRST, "Ben": FIRST["Cho"], "Cho": FIRST["Ben"]}
    entry = {"form": "final", "final_points": points, "riichi_sticks_left": 0}
    sheets.correct_sheet(sheet, entry, world["spring_organiser"], reason="Ben and Cho swapped")


def results_read(queries: CaptureQueriesContext) -> list[str]:
    """The queries of the captured requests that read the hanchan results (what computing a list reads)."""
    return [query["sql"] for query in queries.captured_queries if "scoring_seatresult" in query["sql"]]


def ben_ranking(page: str) -> str:
    found = re.search(r'<tr data-name="Ben">.*?<b>([\d.]+)</b>', page)
    assert found is not None, page
    return found.group(1)


def fresh(scope: str) -> bool:
    snapshot = RatingSnapshot.objects.filter(scope=scope).first()
    tournaments = (
        Tournament.objects.all() if scope == SITE else Series.objects.get(pk=scope[7:]).tournaments.all()
    )
    return snapshot is not None and snapshot.digest == current_digest(tournaments, timezone.localdate())[0]


def wait_for(condition: Callable[[], bool], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.2)


@pytest.mark.django_db(transaction=True)
def test_a_committed_change_is_recomputed_and_the_page_after_it_computes_nothing() -> None:
    # Tasks run in process here: each change's commit recomputes the stored lists.
    world = build()
    season = Series.objects.create(name="Season", slug="season")
    season.tournaments.set([world["spring"], world["autumn"]])
    rating_services.refresh_rating_lists()
    assert fresh(SITE) and fresh(series_scope(season))
    correct_spring(world)
    assert fresh(SITE) and fresh(series_scope(season))  # recomputed as the correction committed
    snapshot = RatingSnapshot.objects.get(scope=SITE)
    assert snapshot.version == rating_services.change_version() > 0
    assert dict((who, str(value)) for who, value, _n in snapshot.mers)[key(world, "Ben")] == BEN_AFTER
    client = Client()
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/ratings/?list=mers").content.decode()
        series_page = client.get("/series/season/ratings/").content.decode()
        body = client.get("/api/ratings/?list=mers").json()
    assert results_read(queries) == []
    assert ben_ranking(page) == BEN_AFTER and "data-rating-stale" not in page
    assert "data-rating-stale" not in series_page and 'data-name="Ben"' in series_page
    assert body["stale"] is False and body["updated_at"] == snapshot.computed_at.isoformat()
    # The cache lost everything: the stored list and its histories are read from the table, not computed.
    cache.clear()
    ben = world["persons"]["Ben"].pk
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/ratings/?list=mers").content.decode()
    assert results_read(queries) == []
    assert ben_ranking(page) == BEN_AFTER
    # A person's page reads the results of their own events (their placements), not those of the list:
    # their chart is the stored bucket's.
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        person = client.get(f"/persons/{ben}/").content.decode()
    assert any("tournament_ratinghistory" in query["sql"] for query in queries.captured_queries)
    assert 'data-points="3"' in person  # Ben's three hanchan
    assert RatingSnapshot.objects.get(scope=SITE).read_at == snapshot.read_at  # nothing stored again


@pytest.mark.django_db
def test_while_a_newer_list_is_computed_the_stored_one_is_served_marked_with_its_time() -> None:
    world = build()
    client = Client()
    # A site that never stored a list computes it in the request, once, and stores it.
    assert not RatingSnapshot.objects.exists()
    assert ben_ranking(client.get("/ratings/?list=mers").content.decode()) == BEN_BEFORE
    stored = RatingSnapshot.objects.get(scope=SITE)
    # A recompute is running (on a worker: its run's heartbeat is fresh) when spring's sheet is corrected.
    RatingRun.objects.filter(scope=SITE).update(heartbeat_at=timezone.now())
    correct_spring(world)
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/ratings/?list=mers").content.decode()
        body = client.get("/api/ratings/?list=mers").json()
    assert results_read(queries) == []
    assert ben_ranking(page) == BEN_BEFORE
    when = timezone.localtime(stored.computed_at)
    notes = re.findall(r"<p [^>]*data-rating-stale>([^<]*)</p>", page)
    assert len(notes) == 1 and notes[0].startswith("Updated ") and str(when.year) in notes[0]
    assert "a newer list is being computed" in notes[0]
    assert body["stale"] is True and body["updated_at"] == stored.computed_at.isoformat()
    assert {row["name"]: row["ranking"] for row in body["results"]}["Ben"] == BEN_BEFORE
    person = client.get(f"/persons/{world['persons']['Ben'].pk}/").content.decode()
    assert "data-rating-stale" in person
    # The recompute stores the new list: the next page is fresh.
    RatingRun.objects.filter(scope=SITE).update(heartbeat_at=None)  # that run has ended
    assert rating_services.refresh_rating_lists() == [SITE]
    page = client.get("/ratings/?list=mers").content.decode()
    assert ben_ranking(page) == BEN_AFTER and "data-rating-stale" not in page
    # Run again with nothing changed: nothing is computed or stored.
    assert rating_services.refresh_rating_lists() == []


@pytest.mark.django_db
def test_an_older_computation_never_replaces_a_newer_list() -> None:
    build()
    rating_services.refresh_rating_lists()
    stored = RatingSnapshot.objects.get(scope=SITE)
    older = rating_services.served_site_list()
    assert not rating_services.store_list(SITE, None, older, {}, 0, stored.read_at - timedelta(seconds=1))
    assert RatingSnapshot.objects.get(scope=SITE).read_at == stored.read_at
    assert RatingHistory.objects.filter(snapshot=stored).count() == stored.histories.count() > 0


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_the_changes_of_one_second_share_one_recompute_on_the_worker() -> None:
    build()
    wait_for(lambda: fresh(SITE))
    wait_for(
        lambda: not cache.get(rating_services.RUNNING_KEY) and not cache.get(rating_services.PENDING_KEY)
    )
    sent = [rating_services.request_refresh() for _ in range(5)]
    assert sent == [True, False, False, False, False]
    # Pending for at least the debounce delay, until the worker starts it; then the next change sends
    # another.
    started = time.monotonic()
    wait_for(lambda: not cache.get(rating_services.PENDING_KEY))
    assert time.monotonic() - started >= rating_services.DEBOUNCE_SECONDS - 0.1
    assert rating_services.request_refresh() is True


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_signed_sheet_reaches_the_stored_list_through_the_worker() -> None:
    world = build()
    wait_for(lambda: fresh(SITE))
    ana = key(world, "Ana")
    before = {who: hanchan for who, _mu, _sigma, hanchan in RatingSnapshot.objects.get(scope=SITE).skill}
    # A new public tournament, its sheet signed: the worker stores the list with Ana's third hanchan.
    played("summer", SECOND)
    wait_for(lambda: fresh(SITE))
    wait_for(lambda: RatingSnapshot.objects.get(scope=SITE).version == rating_services.change_version())
    snapshot = RatingSnapshot.objects.get(scope=SITE)
    after = {who: hanchan for who, _mu, _sigma, hanchan in snapshot.skill}
    assert after[ana] == before[ana] + 1
    assert snapshot.version == rating_services.change_version()
    with CaptureQueriesContext(connection) as queries:
        body = Client().get("/api/ratings/").json()
    assert results_read(queries) == [] and body["stale"] is False
    assert {row["person"]: row["hanchan"] for row in body["results"]}[world["persons"]["Ana"].pk] == after[
        ana
    ]
