"""GET /healthz: a cheap liveness answer for load balancers (nothing asked, nothing named);
GET /healthz/ready: the database, the cache, the broker and the workers, for staff or a token."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from config import health
from tests.own_redis import own_redis

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "a-long-random-health-token"


@pytest.fixture(autouse=True)
def fresh_result(settings: Any) -> None:
    settings.HEALTHZ_TOKEN = TOKEN
    health.recent.clear()


@pytest.mark.django_db
def test_liveness_asks_nothing_and_names_nothing(client: Client) -> None:
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert len(queries) == 0
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_details_are_for_staff_or_the_token_only(client: Client, django_user_model: type[User]) -> None:
    assert client.get("/healthz/ready").status_code == 404
    assert client.get("/healthz/ready", headers={"X-Healthz-Token": "guess"}).status_code == 404
    client.force_login(django_user_model.objects.create_user("player", password="x"))
    assert client.get("/healthz/ready").status_code == 404
    client.force_login(django_user_model.objects.create_user("admin", password="x", is_staff=True))
    assert client.get("/healthz/ready").json()["checks"]["database"]["ok"] is True


@pytest.mark.django_db
def test_no_token_configured_lets_no_header_in(client: Client, settings: Any) -> None:
    settings.HEALTHZ_TOKEN = ""
    assert client.get("/healthz/ready", headers={"X-Healthz-Token": ""}).status_code == 404


@pytest.mark.integration
@pytest.mark.django_db
def test_everything_up_answers_200_with_each_part(client: Client, celery_worker: str) -> None:
    response = client.get("/healthz/ready", headers={"X-Healthz-Token": TOKEN})
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["down"] == [] and body["failed"] == []
    checks = body["checks"]
    assert checks["database"]["ok"] and checks["database"]["vendor"] == "postgresql"
    assert checks["cache"]["ok"] and checks["cache"]["backend"] == "FailSoftRedisCache"
    assert checks["broker"]["ok"]
    assert celery_worker in checks["worker"]["workers"]
    # Polled again within HEALTHZ_CACHE_SECONDS, the process answers the same result without checking.
    again = client.get("/healthz/ready", headers={"X-Healthz-Token": TOKEN}).json()
    assert again["checks"] == checks
    assert again["age_seconds"] >= 0 and again["age_seconds"] < 5


def healthz_in_subprocess(*headers: str, **env: str) -> list[tuple[int, dict[str, Any]]]:
    """Each path (with the token) in a fresh process with this environment: (status, body)."""
    script = (
        "import django, json, sys, time; django.setup()\n"
        "from django.test import Client\n"
        "client = Client(HTTP_HOST='localhost', headers={'X-Healthz-Token': sys.argv[1]})\n"
        "for path in sys.argv[2:]:\n"
        "    started = time.perf_counter()\n"
        "    r = client.get(path)\n"
        "    body = {**r.json(), 'seconds': time.perf_counter() - started}\n"
        "    print(json.dumps({'status': r.status_code, 'body': body}))\n"
    )
    full_env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "HEALTHZ_TOKEN": TOKEN, **env}
    result = subprocess.run(
        [sys.executable, "-c", script, TOKEN, *headers],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()[-len(headers) :]
    return [(out["status"], out["body"]) for out in map(json.loads, lines)]


def test_redis_unreachable_keeps_the_node_alive_and_details_name_cache_broker_and_worker() -> None:
    # Port 1 on loopback: nothing listens there.
    _, (live_status, live), (status, body) = healthz_in_subprocess(
        "/healthz", "/healthz", "/healthz/ready", REDIS_URL="redis://127.0.0.1:1/0"
    )
    # The second call (the first loads the URL modules): no database, cache or broker round trip.
    assert live_status == 200 and live["status"] == "ok" and live["seconds"] < 0.1
    assert status == 503
    assert body["status"] == "down"
    assert set(body["down"]) == {"cache", "broker", "worker"}
    assert "Connection" in body["checks"]["cache"]["error"]
    assert body["checks"]["database"]["ok"] is True


def test_a_dead_worker_is_reported_but_never_fails_liveness() -> None:
    # A broker of this test's own, on which no worker listens (the shared one has other sessions' workers).
    with own_redis() as redis:
        (live_status, live), (status, body), (_, optional) = [
            *healthz_in_subprocess("/healthz", "/healthz/ready", REDIS_URL=redis.url),
            *healthz_in_subprocess("/healthz/ready", REDIS_URL=redis.url, HEALTHZ_REQUIRE_WORKER="0"),
        ]
    assert live_status == 200 and live == {"status": "ok", "seconds": live["seconds"]}
    assert status == 503 and body["down"] == ["worker"]
    assert body["checks"]["cache"]["ok"] and body["checks"]["broker"]["ok"]
    assert body["checks"]["worker"] == {**body["checks"]["worker"], "ok": False, "workers": []}
    # Where workers are optional, a dead one leaves the site degraded, not down.
    assert optional["status"] == "degraded" and optional["down"] == [] and optional["failed"] == ["worker"]


def test_embedded_default_needs_no_broker() -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["REDIS_URL"] = ""
    [(status, body)] = healthz_in_subprocess("/healthz/ready", **env)
    assert status == 200
    assert body["checks"]["broker"]["mode"].startswith("eager")
