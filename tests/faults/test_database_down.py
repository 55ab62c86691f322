"""With PostgreSQL unreachable, the public pages answer with their last good copy; the rest answers 503.

The outage is real, and this test's own: the test's database connection is closed and pointed at a
loopback port where nothing listens, so the next query fails to connect (``OperationalError``) exactly
as when the server is down; the machine's shared PostgreSQL is never touched. The connection is
pointed back afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client

from tests.conftest import make_players, make_user
from tests.own_redis import free_port
from tournament.middleware import copy_key
from tournament.models import Tournament


@contextmanager
def database_down() -> Iterator[None]:
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT=str(free_port()))
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


@pytest.mark.django_db(transaction=True)
def test_public_pages_answer_their_last_good_copy(tournament: Tournament) -> None:
    make_players(tournament, 4, prefix="Copy")
    visitor = Client()
    base = f"/t/{tournament.slug}"
    page = visitor.get(f"{base}/standings/")
    feed = visitor.get(f"{base}/standings.json")
    assert page.status_code == feed.status_code == 200
    member = Client()
    member.force_login(make_user("member"))

    with database_down():
        stale = visitor.get(f"{base}/standings/")
        assert stale.status_code == 200
        assert "Copy 004" in stale.content.decode()
        assert "The database cannot be reached for now" in stale.content.decode()
        assert stale["X-Stale-Copy"]
        stale_feed = visitor.get(f"{base}/standings.json")
        assert stale_feed.status_code == 200 and stale_feed.json() == feed.json()
        # A logged-in member gets the public copy too (it holds nothing but what anyone sees).
        assert member.get(f"{base}/standings/").status_code == 200

        # A page never copied, a page for staff and the API answer 503, never a server error.
        never = visitor.get(f"{base}/players/")
        assert never.status_code == 503 and never["Retry-After"]
        assert "Temporarily unavailable" in never.content.decode()
        assert member.get(f"{base}/manage/").status_code == 503
        api = visitor.get("/api/tournaments/")
        assert api.status_code == 503
        assert api.json()["errors"][0]["rule"] == "database-unavailable"

    # Back up: the pages are live again, not the copy.
    again = visitor.get(f"{base}/standings/")
    assert again.status_code == 200 and "X-Stale-Copy" not in again


@pytest.mark.django_db
def test_only_what_every_visitor_sees_is_copied(tournament: Tournament) -> None:
    standings = f"/t/{tournament.slug}/standings/"
    member = Client()
    member.force_login(make_user("member"))
    assert member.get(standings).status_code == 200
    assert cache.get(copy_key(standings, "en")) is None  # a page seen with a session may be personal
    assert Client().get(standings).status_code == 200
    assert cache.get(copy_key(standings, "en")) is not None
    tournament.is_public = False
    tournament.save()
    players = f"/t/{tournament.slug}/players/"
    assert Client().get(players).status_code == 404  # a private tournament never answers a visitor
    assert cache.get(copy_key(players, "en")) is None
