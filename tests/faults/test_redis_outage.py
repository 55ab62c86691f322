"""With Redis down, the site answers from the database; after it returns, nothing cached is stale.

Each test starts a Redis server of its own (``tests.own_redis``) and points the site's cache at it;
the machine's shared Redis and PostgreSQL are never stopped. Two kinds of outage: the server killed
(connections refused at once) and the server frozen (SIGSTOP: connections hang until the socket
timeout, and the server comes back with every key it held, stale entries included).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from tests.conftest import make_user
from tests.own_redis import OwnRedis, own_redis
from tests.scoring import hanchan
from tournament.models import Table, Tournament
from tournament.queries.standings_db import cache_key

RETRY_SECONDS = 0.3
PASSWORD = "pw-for-tests-only"


@pytest.fixture
def redis(settings: Any) -> Iterator[OwnRedis]:
    with own_redis() as server:
        settings.CACHES = {
            "default": {
                "BACKEND": "config.cache.FailSoftRedisCache",
                "LOCATION": server.url,
                "OPTIONS": {
                    "socket_connect_timeout": 0.3,
                    "socket_timeout": 0.3,
                    "RETRY_SECONDS": RETRY_SECONDS,
                },
            }
        }
        yield server


def ana_total(visitor: Client, tournament: Tournament) -> str:
    response = visitor.get(f"/t/{tournament.slug}/standings.json")
    assert response.status_code == 200
    return next(row["total"] for row in response.json()["rows"] if row["name"] == "Ana")


def submit_and_sign(referee: Client, table: Table) -> None:
    url = f"/api/tables/{table.pk}/sheet/"
    submitted = referee.post(
        url, {"entry": hanchan.entry("final"), "submit": True}, content_type="application/json"
    )
    assert submitted.status_code == 201, submitted.content
    signed = referee.post(f"{url}sign/", {}, content_type="application/json")
    assert signed.status_code == 200, signed.content


def logged_in(username: str) -> Client:
    client = Client()
    response = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert response.status_code == 302, response.content
    return client


@pytest.mark.django_db(transaction=True)
def test_redis_killed_pages_login_submit_and_sign_answer_from_the_database(
    redis: OwnRedis, tournament: Tournament, seated_table: Table, referee: Any
) -> None:
    visitor = Client()
    assert ana_total(visitor, tournament) == "0"
    assert visitor.get(f"/t/{tournament.slug}/standings/").status_code == 200
    redis.stop()

    for path in ("standings/", "standings.json", "", "players/", "seating/"):
        assert visitor.get(f"/t/{tournament.slug}/{path}").status_code == 200, path
    assert visitor.get(f"/api/tournaments/{tournament.pk}/standings/").status_code == 200
    assert visitor.get("/accounts/login/").status_code == 200
    wrong = Client().post("/accounts/login/", {"username": "referee", "password": "wrong"})
    assert wrong.status_code == 200  # the form again, with its error
    referee_client = logged_in("referee")
    submit_and_sign(referee_client, seated_table)
    assert ana_total(visitor, tournament) == "22.4"  # computed from the database
    assert referee_client.get(f"/t/{tournament.slug}/standings/").status_code == 200  # the session held

    redis.start()  # empty, on the same port
    time.sleep(RETRY_SECONDS)
    assert ana_total(visitor, tournament) == "22.4"
    assert cache.get(cache_key(tournament.pk, Tournament.objects.get(pk=tournament.pk).standings_version))


@pytest.mark.django_db(transaction=True)
def test_a_sheet_signed_while_redis_hangs_shows_as_soon_as_it_returns_with_its_old_entries(
    redis: OwnRedis, tournament: Tournament, seated_table: Table, referee: Any
) -> None:
    make_user("member")  # a second account: logins go on while the cache hangs
    visitor = Client()
    assert ana_total(visitor, tournament) == "0"
    assert visitor.get(f"/t/{tournament.slug}/standings/").status_code == 200
    before = cache.get(cache_key(tournament.pk, 0))
    assert before is not None  # the standings as they were, cached
    referee_client = logged_in("referee")

    redis.freeze()
    submit_and_sign(referee_client, seated_table)
    assert ana_total(visitor, tournament) == "22.4"
    assert "22.4" in visitor.get(f"/t/{tournament.slug}/standings/").content.decode()
    logged_in("member")

    redis.thaw()
    time.sleep(RETRY_SECONDS)
    # The old entries are back with Redis, unchanged; none of them is answered.
    assert cache.get(cache_key(tournament.pk, 0)) == before
    assert ana_total(visitor, tournament) == "22.4"
    assert "22.4" in visitor.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert visitor.get(f"/api/tournaments/{tournament.pk}/standings/").json()["rows"][0]["total"] == "22.4"


def test_the_cache_answers_a_miss_logs_once_and_leaves_a_hanging_redis_alone(
    redis: OwnRedis, caplog: pytest.LogCaptureFixture
) -> None:
    assert cache.set_many({"a": 1}) == [] and cache.get("a") == 1
    redis.freeze()
    started = time.monotonic()
    assert cache.get("a", "default") == "default"
    assert time.monotonic() - started >= 0.25  # one socket timeout...
    started = time.monotonic()
    for _ in range(50):
        assert cache.get("a") is None
        assert cache.add("b", 1) is False
        assert cache.set_many({"b": 1, "c": 2}) == ["b", "c"]
        assert cache.get_many(["a", "b"]) == {}
        with pytest.raises(ValueError):
            cache.incr("a")
    assert time.monotonic() - started < 0.25  # ...then none while RETRY_SECONDS run
    warnings = [r for r in caplog.records if r.name == "config.cache"]
    assert len(warnings) == 1 and "Timeout" in warnings[0].getMessage()
    redis.thaw()
    time.sleep(RETRY_SECONDS)
    assert cache.get("a") == 1  # back, with what it held


@pytest.mark.django_db(transaction=True)
def test_with_redis_down_the_login_limits_still_hold_in_each_process(redis: OwnRedis, referee: Any) -> None:
    redis.stop()
    attempts = [
        Client(REMOTE_ADDR="203.0.113.7").post(
            "/accounts/login/", {"username": "referee", "password": "wrong"}
        )
        for _ in range(6)
    ]
    assert [a.status_code for a in attempts] == [200] * 5 + [429]
    assert b"Too many failed sign-in attempts for this user name." in attempts[-1].content
    # Another address still signs in: the limit is per address and name, never per name alone.
    assert logged_in("referee").session.get("_auth_user_id")
