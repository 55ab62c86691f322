"""What one request asks the database about roles: a user's role in a tournament is read once per request,
however many checks (the page's access, the service it calls, the staff links) need it."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.pages.conftest import Site, client_for
from tournament.models import Player

ROLE_TABLE = '"tournament_staffrole"'


def role_lookups(queries: list[dict[str, Any]]) -> int:
    return sum(1 for query in queries if query["sql"].startswith("SELECT") and ROLE_TABLE in query["sql"])


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "method"),
    [
        ("manage/", "get"),
        ("manage/check-in/", "get"),
        ("clock/", "get"),
        ("referee/", "get"),
        ("penalties/", "get"),
        ("exports/", "get"),
    ],
)
def test_a_page_reads_the_users_role_once(site: Site, path: str, method: str) -> None:
    client = client_for(site.users["organiser"])
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(f"/t/{site.tournament.slug}/{path}")
    assert response.status_code == 200
    assert role_lookups(captured.captured_queries) == 1


@pytest.mark.django_db
def test_an_action_reads_the_role_once_for_the_view_and_its_service(site: Site) -> None:
    """The check-in toggle authorises in the view and again in the service: one look-up for both."""
    client = client_for(site.users["organiser"])
    eve = site.tournament.players.get(name="Eve")
    with CaptureQueriesContext(connection) as captured:
        response = client.post(f"/t/{site.tournament.slug}/manage/check-in/{eve.pk}/", {"checked_in": "1"})
    assert response.status_code == 302
    assert site.tournament.players.get(pk=eve.pk).status == Player.Status.CHECKED_IN
    assert role_lookups(captured.captured_queries) == 1


@pytest.mark.django_db
def test_a_role_granted_in_a_request_is_read_again(site: Site) -> None:
    """The look-up is remembered for one request only, and forgotten when the role changes in it."""
    nobody = site.users["nobody"]
    assert client_for(nobody).get(f"/t/{site.tournament.slug}/manage/").status_code == 403
    response = client_for(site.users["organiser"]).post(
        f"/t/{site.tournament.slug}/manage/staff/",
        {"form": "grant", "username": nobody.username, "role": "organiser"},
    )
    assert response.status_code == 302
    assert client_for(nobody).get(f"/t/{site.tournament.slug}/manage/").status_code == 200
