"""GET /healthz reports the database, the cache, the broker and a worker; 503 names what is down."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.integration
@pytest.mark.django_db
def test_everything_up_answers_200_with_each_part(client: Client, celery_worker: str) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["down"] == []
    checks = body["checks"]
    assert checks["database"]["ok"] and checks["database"]["vendor"] == "postgresql"
    assert checks["cache"]["ok"] and checks["cache"]["backend"] == "RedisCache"
    assert checks["broker"]["ok"]
    assert celery_worker in checks["worker"]["workers"]


def healthz_in_subprocess(**env: str) -> tuple[int, dict[str, object]]:
    script = (
        "import django, json; django.setup()\n"
        "from django.test import Client\n"
        "r = Client(HTTP_HOST='localhost').get('/healthz')\n"
        "print(json.dumps({'status': r.status_code, 'body': r.json()}))\n"
    )
    full_env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout.strip().splitlines()[-1])
    return out["status"], out["body"]


def test_redis_unreachable_answers_503_naming_cache_and_broker() -> None:
    # Port 1 on loopback: nothing listens there.
    status, body = healthz_in_subprocess(REDIS_URL="redis://127.0.0.1:1/0")
    assert status == 503
    assert body["status"] == "down"
    assert set(body["down"]) == {"cache", "broker", "worker"}  # type: ignore[arg-type]
    checks = body["checks"]
    assert "Connection" in checks["cache"]["error"]  # type: ignore[index]
    assert checks["database"]["ok"] is True  # type: ignore[index]


def test_embedded_default_needs_no_broker() -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["REDIS_URL"] = ""
    status, body = healthz_in_subprocess(**env)
    assert status == 200
    assert body["checks"]["broker"]["mode"].startswith("eager")  # type: ignore[index]
