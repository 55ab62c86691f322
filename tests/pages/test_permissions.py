"""Every page renders for the roles that may see it and refuses the others: a login redirect for the
anonymous, 403 for a signed-in user without the role (a referee of another tournament included), and
404 for everyone without a role when the tournament is private."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.pages.conftest import Site, client_for
from tournament.models import Person, Player, Series, Tournament

USERS = ("anonymous", "nobody", "other_referee", "referee", "head_referee", "organiser", "admin")
RANK = {"referee": 1, "head_referee": 2, "organiser": 3, "admin": 3}

PUBLIC = [
    "/t/{slug}/",
    "/t/{slug}/standings/",
    "/t/{slug}/standings.json",
    "/t/{slug}/seating/",
    "/t/{slug}/seating/1/",
    "/t/{slug}/players/",
    "/t/{slug}/players/{ana}/",
    "/t/{slug}/calendar.ics",
    "/t/{slug}/signup/",
    "/t/{slug}/signup/registered/",
    "/t/{slug}/projector/",
    "/t/{slug}/awards/",
    "/t/{slug}/projector/awards/",
    "/t/{slug}/ratings/",
    "/t/{slug}/clock.json",
    "/t/{slug}/tables/",
    "/t/{slug}/tables.json",
    "/t/{slug}/projector/tables/",
    "/t/{slug}/projector/tables.json",
]
STAFF = [
    ("/t/{slug}/referee/", "referee"),
    ("/t/{slug}/sheet/1/1/", "referee"),
    ("/t/{slug}/sheet/1/2/", "referee"),
    ("/t/{slug}/sheet/1/1/correct/", "head_referee"),
    ("/t/{slug}/penalties/", "head_referee"),
    ("/t/{slug}/clock/", "head_referee"),
    ("/t/{slug}/tables/watch/", "head_referee"),
    ("/t/{slug}/manage/", "organiser"),
    ("/t/{slug}/manage/edit/", "organiser"),
    ("/t/{slug}/manage/players/", "organiser"),
    ("/t/{slug}/manage/check-in/", "organiser"),
    ("/t/{slug}/manage/seating/", "organiser"),
    ("/t/{slug}/manage/seating/jobs/{job}/", "organiser"),
    ("/t/{slug}/manage/seating/jobs/{job}.json", "organiser"),
    ("/t/{slug}/manage/absences/", "organiser"),
    ("/t/{slug}/manage/phases/", "organiser"),
    ("/t/{slug}/manage/staff/", "organiser"),
    ("/t/{slug}/manage/awards/", "organiser"),
    ("/t/{slug}/manage/persons/", "organiser"),
    ("/t/{slug}/manage/players/{ana}/", "organiser"),
    ("/t/{slug}/exports/print/score-sheets/1/", "referee"),
    ("/t/{slug}/exports/print/seating-cards/1/", "referee"),
]


def url(template: str, site: Site) -> str:
    return template.format(slug=site.tournament.slug, ana=site.player("Ana").pk, job=site.job.pk)


def expected_staff_status(user: str, minimum: str, *, private: bool) -> int:
    if user == "anonymous":
        return 302
    if RANK.get(user, 0) >= RANK[minimum]:
        return 200
    return 404 if private and user not in RANK else 403


@pytest.mark.django_db
@pytest.mark.parametrize("user", USERS)
def test_public_pages_open_to_everyone_for_a_public_tournament(site: Site, user: str) -> None:
    client = client_for(site.users[user])
    for template in PUBLIC:
        response = client.get(url(template, site))
        assert response.status_code == 200, (template, user, response.status_code)


@pytest.mark.django_db
@pytest.mark.parametrize("user", USERS)
def test_a_private_tournament_is_not_found_for_people_without_a_role(site: Site, user: str) -> None:
    site.tournament.is_public = False
    site.tournament.save()
    client = client_for(site.users[user])
    expected = 200 if user in RANK else 404
    for template in PUBLIC:
        response = client.get(url(template, site))
        assert response.status_code == expected, (template, user, response.status_code)


@pytest.mark.django_db
@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
@pytest.mark.parametrize("user", USERS)
def test_staff_pages_permission_matrix(site: Site, user: str, private: bool) -> None:
    if private:
        site.tournament.is_public = False
        site.tournament.save()
    client = client_for(site.users[user])
    for template, minimum in STAFF:
        address = url(template, site)
        response = client.get(address)
        expected = expected_staff_status(user, minimum, private=private)
        assert response.status_code == expected, (template, user, response.status_code)
        if expected == 302:
            assert response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("user", "expected"),
    [
        ("anonymous", 302),
        ("nobody", 403),
        ("other_referee", 403),
        ("referee", 403),
        ("head_referee", 403),
        ("organiser", 200),
        ("admin", 200),
    ],
)
def test_creating_a_tournament_is_for_organisers_and_site_admins(
    site: Site, user: str, expected: int
) -> None:
    """The form and its submission: the same permission as the API's (tournament.access), checked by
    the service both doors call."""
    client = client_for(site.users[user])
    assert client.get("/tournaments/new/").status_code == expected
    body = {"name": "New Cup", "slug": "new-cup", "starts_on": "2026-06-01", "ends_on": "2026-06-01"}
    body |= {"ruleset_preset": "EMA2025", "ruleset_overrides": "{}", "hanchan_count": "4"}
    body |= {"hanchan_minutes": "90"}
    submitted = client.post("/tournaments/new/", body)
    assert submitted.status_code == (302 if expected == 200 else expected), submitted.content[:300]
    assert Tournament.objects.filter(slug="new-cup").exists() is (expected == 200)


@pytest.mark.django_db
@pytest.mark.parametrize("user", USERS)
def test_staff_actions_refuse_the_wrong_roles(site: Site, user: str) -> None:
    """The POST-only actions follow the same rules as the pages."""
    client = client_for(site.users[user])
    slug = site.tournament.slug
    penalty = site.tournament.penalties.get()  # Cho's chombo on table 1
    actions: list[tuple[str, dict[str, Any], str]] = [
        (f"/t/{slug}/sheet/1/2/check.json", {}, "referee"),
        (f"/t/{slug}/sheet/1/2/from-log/", {}, "referee"),
        (f"/t/{slug}/penalties/{penalty.pk}/revoke/", {"reason": "test"}, "head_referee"),
        (f"/t/{slug}/penalties/disqualify/", {}, "head_referee"),
        (f"/t/{slug}/manage/check-in/{site.player('Ana').pk}/", {"checked_in": "on"}, "organiser"),
        (f"/t/{slug}/manage/players/import/", {}, "organiser"),
        (f"/t/{slug}/manage/check-in/many/", {}, "organiser"),
        (f"/t/{slug}/manage/seating/1/publish/", {"published": "on"}, "organiser"),
        (f"/t/{slug}/manage/phases/", {"action": "seat_by_rank", "phase": "2"}, "organiser"),
        (f"/t/{slug}/manage/players/{site.player('Ana').pk}/", {"form": "edit"}, "organiser"),
        (f"/t/{slug}/manage/persons/", {"action": "new", "player": site.player("Ana").pk}, "organiser"),
    ]
    for address, data, minimum in actions:
        response = client.post(address, data)
        allowed = user != "anonymous" and RANK.get(user, 0) >= RANK[minimum]
        if user == "anonymous":
            assert response.status_code == 302, address
        elif not allowed:
            assert response.status_code == 403, (address, user)
        else:
            assert response.status_code in {200, 302, 400}, (address, user, response.status_code)


@pytest.mark.django_db
def test_index_lists_public_tournaments_and_the_private_ones_of_the_staff(site: Site) -> None:
    site.tournament.is_public = False
    site.tournament.save()
    assert b"Test Open" not in client_for(None).get("/").content
    assert b"Test Open" not in client_for(site.users["other_referee"]).get("/").content
    assert b"Test Open" in client_for(site.users["referee"]).get("/").content
    assert b"Elsewhere Cup" in client_for(None).get("/").content


@pytest.mark.django_db
@pytest.mark.parametrize("user", USERS)
def test_a_private_tournament_never_appears_in_the_calendar_feed(site: Site, user: str) -> None:
    """The site's feed is the public's, whoever fetches it: a private tournament's coming event is left
    out even for its staff; its own feed follows its pages (404 without a role)."""
    today = timezone.localdate()
    Tournament.objects.filter(pk=site.tournament.pk).update(
        is_public=False, starts_on=today + timedelta(days=7), ends_on=today + timedelta(days=8)
    )
    client = client_for(site.users[user])
    feed = client.get("/calendar.ics")
    assert feed.status_code == 200 and b"Test Open" not in feed.content
    own = client.get(f"/t/{site.tournament.slug}/calendar.ics")
    assert own.status_code == (200 if user in RANK else 404)


@pytest.mark.django_db
@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
@pytest.mark.parametrize("user", USERS)
def test_series_and_person_pages(site: Site, user: str, private: bool) -> None:
    """A series' pages are public, and show what the public sees of each tournament; a person's page is
    found by whoever sees one of their tournaments (404 otherwise: a private tournament's players do
    not show that they exist)."""
    if private:
        site.tournament.is_public = False
        site.tournament.save()
    person = Person.objects.create(name="Ana")
    Player.objects.filter(pk=site.player("Ana").pk).update(person=person)
    series = Series.objects.create(name="Season", slug="season")
    series.tournaments.set([site.tournament])
    client = client_for(site.users[user])
    series_pages = (
        "/series/",
        "/series/season/",
        "/series/season/events/",
        "/series/season/projector/",
        "/series/season/awards/",
        "/series/season/projector/awards/",
        "/series/season/exports/",
        "/series/season/ratings/",
        "/ratings/",
    )
    for address in series_pages:
        assert client.get(address).status_code == 200, (address, user)
    # Its exports hold what the page shows: anyone may ask for one (the page then follows it).
    asked = client.post("/series/season/exports/series_standings_csv/")
    assert asked.status_code == 302 and "/series/season/exports/?job=" in asked["Location"], user
    assert client.post("/series/season/exports/standings_csv/").status_code == 404, user
    # Its archive (each tournament's whole archive, the persons) is for whoever may change the series and
    # organises each of its tournaments: here the site admin only.
    archived = client.post("/series/season/exports/series_archive_json/")
    assert archived.status_code == (302 if user == "admin" else 403), user
    expected = 404 if private and user not in RANK else 200
    assert client.get(f"/persons/{person.pk}/").status_code == expected, user
    # A new series: whoever may create a tournament; a series changed by its creator (none here) or an admin.
    creates = 302 if user == "anonymous" else (200 if user in ("organiser", "admin") else 403)
    assert client.get("/series/new/").status_code == creates, user
    edits = 302 if user == "anonymous" else (200 if user == "admin" else 403)
    assert client.get("/series/season/edit/").status_code == edits, user
    staff_series = client.get("/series/season/").content.decode()
    assert ('data-name="Ana"' in staff_series) is not private  # a private tournament counts for no one
    for ratings in ("/series/season/ratings/", "/ratings/"):
        assert ('data-name="Ana"' in client.get(ratings).content.decode()) is not private, (ratings, user)


@pytest.mark.django_db
@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
@pytest.mark.parametrize("user", USERS)
def test_club_session_page_and_its_table_form(site: Site, user: str, private: bool) -> None:
    """A club session's page is one of its public pages (404 for a tournament, which has none); forming a
    table is the organisers' (signed-in players' only where the session allows it: tests/tournament), and
    taking one back the organisers' and head referees'."""
    Tournament.objects.filter(pk=site.tournament.pk).update(kind=Tournament.Kind.CLUB, is_public=not private)
    client = client_for(site.users[user])
    slug = site.tournament.slug
    sees = not private or user in RANK
    assert client.get(f"/t/{slug}/club/").status_code == (200 if sees else 404), user
    assert client.get("/t/elsewhere/club/").status_code == 404  # a tournament, not a session
    response = client.post(f"/t/{slug}/club/tables/", {"east": site.player("Eve").pk})
    if not sees:
        expected = 404
    elif user == "anonymous":
        expected = 302
    else:
        expected = 400 if RANK.get(user, 0) >= RANK["organiser"] else 403  # 400: three seats left empty
    assert response.status_code == expected, (user, response.status_code)
    # Taking a table back: the organisers' and head referees' (409 here: a hanchan of the schedule, from
    # before the event became a session; the player who formed a table: tests/tournament).
    response = client.post(f"/t/{slug}/club/tables/1/take-back/")
    if not sees:
        expected = 404
    elif user == "anonymous":
        expected = 302
    else:
        expected = 409 if RANK.get(user, 0) >= RANK["head_referee"] else 403
    assert response.status_code == expected, (user, response.status_code)
