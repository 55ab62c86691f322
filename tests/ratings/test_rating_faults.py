"""Rating lists that cannot be frozen (``tournament.services.ratings``, docs/ratings.md, "Results that
cannot be rated" and "When a recompute fails"): a result that cannot be rated is left out of its list
with its reason, and the list and the others are still computed; a list whose recompute fails is
recorded with its cause, shown to staff, not tried again by its readers but after a backoff, while its
last good list is served with its time; a run whose worker died is noticed by the sweep and run again.

The tournaments and their figures: tests/ratings/test_rating_lists.py.
"""

from __future__ import annotations

import re
import time
from datetime import date, timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test import Client
from django.utils import timezone

from scoring.models import SeatResult
from tests.ratings.test_rating_lists import build
from tests.ratings.test_rating_refresh import BEN_AFTER, BEN_BEFORE, ben_ranking, correct_spring, fresh
from tests.series.helpers import SECOND, played
from tournament.models import RatingRun, RatingSnapshot, Series
from tournament.queries.ratings_db import SITE, series_scope
from tournament.ratings.lists import MersEvent, mers_places, mers_results, rated_games
from tournament.services import ratings as rating_services

# -- The pure rules: which results cannot be rated ----------------------------------------------------


def test_a_table_that_cannot_be_rated_is_left_out_with_its_reason_and_the_others_are_games() -> None:
    rows = [
        # Tournament 1, hanchan 1: table 1 is sound; table 2 has a place 5 (an archive's, say).
        *[(1, 1, 1, who, place) for who, place in (("a", 1), ("b", 2), ("c", 3), ("d", 4))],
        *[(1, 1, 2, who, place) for who, place in (("e", 1), ("f", 2), ("g", 5), ("h", 3))],
        # Hanchan 2: "a" holds two seats of table 1; "e" sits at tables 2 and 3 (two registrations).
        *[(1, 2, 1, who, place) for who, place in (("a", 1), ("a", 2), ("c", 3), ("d", 4))],
        *[(1, 2, 2, who, place) for who, place in (("e", 1), ("f", 2), ("g", 3), ("h", 4))],
        *[(1, 2, 3, who, place) for who, place in (("e", 1), ("i", 2), ("j", 3), ("k", 4))],
        (1, 2, 4, "z", 1),  # a table the reader sees one result of: no game, and no fault
    ]
    games, left_out = rated_games(rows)
    assert [game.key for game in games] == [(1, 1, 1)]
    assert [(fault.hanchan, fault.table, fault.rule, fault.entrant) for fault in left_out] == [
        (1, 2, "place-range", "g"),
        (2, 1, "seated-twice", "a"),
        (2, 2, "two-tables", "e"),
        (2, 3, "two-tables", "e"),
    ]
    assert left_out[0].detail == "hanchan 1, table 2: place 5 outside 1 to 4"


def test_a_person_ranked_twice_in_an_event_is_left_out_and_the_others_keep_their_base_ranks() -> None:
    # Four ranked registrations, two of them one person (2nd and 3rd): the other two keep places 1 and 4
    # of four (base ranks 1000 and 0), the person has no result; a place 9 of four is left out too.
    places = mers_places(7, [("ana", 1), ("ben", 2), ("ben", 3), ("cho", 4)])
    assert places.places == {"ana": 1, "cho": 4} and places.ranked == 4
    assert [(fault.rule, fault.entrant) for fault in places.left_out] == [
        ("ranked-twice", "ben"),
        ("ranked-twice", "ben"),
    ]
    assert mers_places(8, [("ana", 1), ("dai", 9)]).left_out[0].rule == "mers-place-range"
    event = MersEvent(7, date(2026, 3, 1), date(2026, 3, 1), places.places, 4, 0, 1, False, ranked=4)
    results = mers_results([event])
    assert {who: [r.base_rank for r in own] for who, own in results.items()} == {"ana": [1000], "cho": [0]}


# -- In the database ----------------------------------------------------------------------------------


def staff_client() -> Client:
    staff = get_user_model().objects.create_user(username="site-staff", password="pw-for-tests-only")
    staff.is_staff = True
    staff.save()
    client = Client()
    client.force_login(staff)
    return client


@pytest.mark.django_db
def test_a_list_with_results_that_cannot_be_rated_is_still_computed_and_so_are_the_others() -> None:
    world = build()
    # Summer: a result with place 7 (an imported event's). One person registered twice in one event can
    # no longer be stored (the constraint one_registration_per_person_per_tournament): the pure rules'
    # test above covers it.
    rating_services.refresh_rating_lists()
    before = RatingSnapshot.objects.get(scope=SITE)
    winter_league = Series.objects.create(name="Winter league", slug="winter-league")
    winter_league.tournaments.set([world["winter"]])
    summer, summer_organiser = played("summer", SECOND)
    SeatResult.objects.filter(sheet__table__round__tournament=summer, player__name="Cho").update(rank=7)

    assert rating_services.refresh_rating_lists() == [SITE, series_scope(winter_league)]
    assert fresh(SITE) and fresh(series_scope(winter_league))
    assert not RatingRun.objects.filter(failures__gt=0).exists()
    site = RatingSnapshot.objects.get(scope=SITE)
    assert [fault["rule"] for fault in site.left_out] == ["place-range"]
    assert site.left_out_count == 1
    # Skill: summer's table (a place 7) is no game, so no one's hanchan count moves.
    counts = {who: count for who, _mu, _sigma, count in site.skill}
    assert counts == {who: count for who, _mu, _sigma, count in before.skill}

    # Staff see what was left out and why; the public sees the list.
    page = staff_client().get("/ratings/?list=mers").content.decode()
    assert 'data-rating-left-out="1"' in page
    assert "hanchan 1, table 1: place 7 outside 1 to 4 (place-range)" in page
    assert "Summer Cup, Cho" in page
    public = Client().get("/ratings/?list=mers").content.decode()
    assert "data-rating-left-out" not in public and 'data-name="Ana"' in public
    # The tournament's own list (its organiser sees every hanchan) leaves the table out too, instead of
    # failing the page.
    organiser = Client()
    organiser.force_login(summer_organiser)
    assert organiser.get("/t/summer/ratings/").status_code == 200


def other_connection_locking(scope: str) -> Any:
    """A second connection to the database whose open transaction holds the stored list's row (a
    transaction stuck on it)."""
    other = connections.create_connection("default")
    other.set_autocommit(False)
    with other.cursor() as cursor:
        cursor.execute("SELECT id FROM tournament_ratingsnapshot WHERE scope = %s FOR UPDATE", [scope])
    return other


@pytest.mark.django_db(transaction=True)
def test_a_failed_recompute_is_recorded_shown_to_staff_and_retried_after_a_backoff_not_by_readers(
    settings: Any,
) -> None:
    settings.RATINGS_LOCK_TIMEOUT_SECONDS = 0.2
    settings.RATINGS_RETRY_SECONDS = 30
    world = build()
    season = Series.objects.create(name="Season", slug="season")
    season.tournaments.set([world["spring"], world["autumn"]])
    rating_services.refresh_rating_lists()
    good = RatingSnapshot.objects.get(scope=SITE)
    client, staff = Client(), staff_client()
    # A transaction stuck on the site's stored list: storing it fails. (The session's own lock timeout
    # is only a guard: without the run's, the change below would wait 5 s, then fail alike.)
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '5s'")
    other = other_connection_locking(SITE)
    try:
        started = time.monotonic()
        correct_spring(world)  # its commit recomputes the lists (tasks run in process here)
        assert time.monotonic() - started < 4
        # The site's list failed, recorded with its cause; the series' was computed all the same.
        run = RatingRun.objects.get(scope=SITE)
        assert run.failures == 1 and run.heartbeat_at is None
        assert "lock timeout" in run.error and run.error.startswith("OperationalError")
        assert run.retry_at - run.failed_at == timedelta(seconds=30)
        assert fresh(series_scope(season)) and not fresh(SITE)
        assert ben_ranking(client.get("/series/season/ratings/?list=mers").content.decode()) == BEN_AFTER

        # Readers get the last good list with its time, and send no new run.
        for _ in range(5):
            response = client.get("/ratings/?list=mers")
            assert response.status_code == 200
            assert ben_ranking(response.content.decode()) == BEN_BEFORE
        assert client.get("/api/ratings/?list=mers").json()["updated_at"] == good.computed_at.isoformat()
        assert RatingRun.objects.get(scope=SITE).started_at == run.started_at
        notes = re.findall(r"<p [^>]*data-rating-stale>([^<]*)</p>", response.content.decode())
        when = timezone.localtime(good.computed_at)
        assert len(notes) == 1 and notes[0].startswith("As of ") and str(when.year) in notes[0]
        assert "could not be computed yet" in notes[0]
        assert "data-rating-failure" not in response.content.decode()
        # Staff see the failure, its cause and the next try.
        page = staff.get("/ratings/").content.decode()
        failure = re.search(r"<p [^>]*data-rating-failure>([^<]*)</p>", page)
        assert failure is not None and "failures in a row: 1" in failure.group(1)
        assert "lock timeout" in failure.group(1)

        # The sweep before the retry time sends nothing; after it, the run is tried again, fails again
        # and waits twice as long.
        assert rating_services.sweep_rating_runs() == []
        assert RatingRun.objects.get(scope=SITE).failures == 1
        RatingRun.objects.filter(scope=SITE).update(retry_at=timezone.now() - timedelta(seconds=1))
        assert rating_services.sweep_rating_runs() == [SITE]
        run = RatingRun.objects.get(scope=SITE)
        assert run.failures == 2 and run.retry_at - run.failed_at == timedelta(seconds=60)
    finally:
        other.rollback()
        other.close()
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
    # The stuck transaction gone, the next try succeeds: the list is fresh, the failure cleared.
    RatingRun.objects.filter(scope=SITE).update(retry_at=timezone.now() - timedelta(seconds=1))
    assert rating_services.sweep_rating_runs() == [SITE]
    run = RatingRun.objects.get(scope=SITE)
    assert run.failures == 0 and run.succeeded_at is not None and fresh(SITE)
    page = staff.get("/ratings/?list=mers").content.decode()
    assert ben_ranking(page) == BEN_AFTER
    assert "data-rating-stale" not in page and "data-rating-failure" not in page


@pytest.mark.django_db
def test_a_run_whose_worker_died_is_noticed_by_the_sweep_and_run_again() -> None:
    world = build()
    rating_services.refresh_rating_lists()
    # A change whose recompute was taken by a worker (its run's heartbeat written) that then died: the
    # commit's own notice does not run here (the test's transaction never commits).
    correct_spring(world)
    assert not fresh(SITE)
    client = Client()
    now = timezone.now()
    RatingRun.objects.filter(scope=SITE).update(heartbeat_at=now, started_at=now)
    # While the heartbeat is fresh the run is under way: readers get the stored list and send nothing.
    page = client.get("/ratings/?list=mers").content.decode()
    assert ben_ranking(page) == BEN_BEFORE and "a newer list is being computed" in page
    assert not fresh(SITE) and RatingRun.objects.get(scope=SITE).started_at == now
    assert rating_services.sweep_rating_runs() == []
    # Its worker died: the heartbeat is not written again. Past JOB_HEARTBEAT_STALE_SECONDS, the sweep
    # records the run as died and runs the list again at once.
    stale = now - rating_services.heartbeat_stale() - timedelta(seconds=1)
    RatingRun.objects.filter(scope=SITE).update(heartbeat_at=stale, started_at=stale)
    assert rating_services.sweep_rating_runs() == [SITE]
    assert fresh(SITE)
    run = RatingRun.objects.get(scope=SITE)
    assert run.failures == 0 and run.heartbeat_at is None and "its worker died" in run.error
    assert ben_ranking(client.get("/ratings/?list=mers").content.decode()) == BEN_AFTER


@pytest.mark.django_db
def test_the_admin_shows_each_lists_run_and_recomputes_a_waiting_list_now() -> None:
    world = build()
    rating_services.refresh_rating_lists()
    correct_spring(world)  # the list is stale (the commit's notice does not run here)
    later = timezone.now() + timedelta(minutes=10)
    RatingRun.objects.filter(scope=SITE).update(
        failures=3, error="OperationalError: the cause", retry_at=later
    )
    admin = get_user_model().objects.create_superuser(username="site-admin", password="pw-for-tests-only")
    client = Client()
    client.force_login(admin)
    listing = client.get("/admin/tournament/ratingrun/")
    assert listing.status_code == 200 and "OperationalError: the cause" in listing.content.decode()
    assert client.get("/admin/tournament/ratingsnapshot/").status_code == 200
    # Waiting ten minutes after its third failure; "Recompute now" ends the wait and runs it.
    run = RatingRun.objects.get(scope=SITE)
    response = client.post(
        "/admin/tournament/ratingrun/", {"action": "recompute_now", "_selected_action": [run.pk]}
    )
    assert response.status_code == 302
    assert fresh(SITE) and RatingRun.objects.get(scope=SITE).failures == 0


@pytest.mark.django_db(transaction=True)
def test_a_long_run_keeps_its_heartbeat_fresh_so_the_sweep_leaves_it_alone(settings: Any) -> None:
    # Heartbeats taken for dead after 1 s: a run writes one every 0.25 s from its own thread.
    settings.JOB_HEARTBEAT_STALE_SECONDS = 1
    assert rating_services.claim_run(SITE, None)
    first = RatingRun.objects.get(scope=SITE).heartbeat_at
    with rating_services.heartbeat(SITE):
        time.sleep(2)  # a computation longer than the heartbeat's age
        assert rating_services.notice_dead_runs(timezone.now()) == []
        assert RatingRun.objects.get(scope=SITE).heartbeat_at > first
    time.sleep(1.2)
    assert rating_services.notice_dead_runs(timezone.now()) == [SITE]
