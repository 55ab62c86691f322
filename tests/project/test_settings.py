"""Settings come from the environment: SQLite and eager Celery by default, PostgreSQL and Redis when set."""

from __future__ import annotations

import json
import os
import secrets
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
    # Django's PostgreSQL backend, which answers at once while the database is down (config.postgresql).
    assert conf["engine"] == "config.postgresql"
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


PRODUCTION = {"DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "testserver"}
REQUESTS = """
import json, django
django.setup()
from django.conf import settings
from django.test import Client
client = Client()
plain = client.get("/api/", HTTP_ACCEPT="application/json")
health = client.get("/healthz")
secure = client.get("/api/", secure=True, HTTP_ACCEPT="application/json")
print(json.dumps({
    "plain": [plain.status_code, plain.get("Location")],
    "health": health.status_code,
    "secure": [secure.status_code, secure.get("Strict-Transport-Security"),
               secure.get("Content-Security-Policy")],
    "proxies": settings.REST_FRAMEWORK["NUM_PROXIES"],
}))
"""


def production_environment() -> dict[str, str]:
    """This process's environment without our settings, nor the browser tests' DJANGO_ALLOW_ASYNC_UNSAFE
    (tests/browser/conftest.py), which `check --deploy` rightly refuses."""
    unset = {*CONFIG_VARS, "DJANGO_ALLOW_ASYNC_UNSAFE"}
    return {k: v for k, v in os.environ.items() if k not in unset and not k.startswith("SECURE_")}


def production(**env: str) -> dict[str, object]:
    clean = production_environment()
    result = subprocess.run(
        [sys.executable, "-c", REQUESTS],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **PRODUCTION, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def test_check_deploy_is_clean_in_production() -> None:
    clean = production_environment()
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**clean, **PRODUCTION, "ALLOWED_HOSTS": "tournament.example.org"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_redirects_to_https_sends_hsts_and_a_policy_but_not_for_healthz() -> None:
    conf = production()
    assert conf["plain"] == [301, "https://testserver/api/"]
    assert conf["health"] != 301  # a load balancer's plain-HTTP probe reaches the health check
    status, hsts, policy = conf["secure"]  # type: ignore[misc]
    assert status == 200 and hsts == "max-age=31536000"
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert conf["proxies"] == 0


def test_behind_a_tls_proxy_the_redirect_and_hsts_are_configurable() -> None:
    conf = production(
        SECURE_SSL_REDIRECT="0",
        SECURE_HSTS_SECONDS="3600",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="1",
        TRUSTED_PROXY_COUNT="1",
    )
    assert conf["plain"][0] == 200  # type: ignore[index]
    assert conf["secure"][1] == "max-age=3600; includeSubDomains"  # type: ignore[index]
    assert conf["proxies"] == 1


@pytest.mark.parametrize(("name", "value"), [("TRUSTED_PROXY_COUNT", "one"), ("SECURE_HSTS_SECONDS", "-1")])
def test_a_malformed_number_names_the_variable(name: str, value: str) -> None:
    result = settings_with(**PRODUCTION, **{name: value})
    assert result.returncode != 0
    assert f"{name}='{value}'" in result.stderr
