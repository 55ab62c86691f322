"""Settings come from the environment: SQLite and eager Celery by default, PostgreSQL and Redis when set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, django
django.setup()
from django.conf import settings
from config.celery import app
print(json.dumps({
    "engine": settings.DATABASES["default"]["ENGINE"],
    "name": str(settings.DATABASES["default"]["NAME"]),
    "host": settings.DATABASES["default"].get("HOST", ""),
    "cache": settings.CACHES["default"]["BACKEND"],
    "eager": app.conf.task_always_eager,
    "broker": app.conf.broker_url,
    "backend": app.conf.result_backend,
    "debug": settings.DEBUG,
}))
"""
CONFIG_VARS = (
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "CELERY_TASK_ALWAYS_EAGER",
)


def settings_with(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in CONFIG_VARS}
    clean["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def probe(**env: str) -> dict[str, object]:
    result = settings_with(**env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_nothing_set_means_sqlite_in_the_project_and_eager_tasks() -> None:
    conf = probe()
    assert conf["engine"] == "django.db.backends.sqlite3"
    assert conf["name"] == str(ROOT / "db.sqlite3")
    assert conf["cache"].endswith("LocMemCache")  # type: ignore[union-attr]
    assert conf["eager"] is True
    assert conf["broker"] == "memory://"
    assert conf["debug"] is True


def test_database_url_switches_to_postgresql() -> None:
    conf = probe(DATABASE_URL="postgres://postgres@127.0.0.1:5432/test")
    assert conf["engine"] == "django.db.backends.postgresql"
    assert conf["name"] == "test"
    assert conf["host"] == "127.0.0.1"


def test_redis_url_switches_broker_backend_and_cache_and_tasks_go_to_workers() -> None:
    conf = probe(REDIS_URL="redis://127.0.0.1:6379/3")
    assert conf["eager"] is False
    assert conf["broker"] == "redis://127.0.0.1:6379/3"
    assert conf["backend"] == "redis://127.0.0.1:6379/3"
    assert conf["cache"] == "config.cache.FailSoftRedisCache"  # a Redis outage answers as a miss


def test_debug_off_without_a_secret_key_stops_with_a_clear_error() -> None:
    result = settings_with(DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY is not set and DEBUG is off" in result.stderr


def test_debug_off_with_a_secret_key_starts() -> None:
    conf = probe(DEBUG="0", SECRET_KEY="x" * 50, ALLOWED_HOSTS="example.org")
    assert conf["debug"] is False


@pytest.mark.parametrize("value", ["maybe", "2"])
def test_a_malformed_boolean_names_the_variable(value: str) -> None:
    result = settings_with(DEBUG=value)
    assert result.returncode != 0
    assert f"DEBUG='{value}'" in result.stderr
