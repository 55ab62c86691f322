"""Health checks: ``GET /healthz`` for load balancers, ``GET /healthz/ready`` for operators.

``/healthz`` is liveness: this process answers requests. It touches neither the database, nor the cache,
nor the broker, and names no host, so any number of load balancers may poll it; a dead worker, a Redis
outage or even a database outage (the public pages then answer from their last good copy) does not
take a web node out of the load balancer, since every node would be taken out alike.

``/healthz/ready`` reports each part the product needs (database, cache, broker, workers), for a logged-in
site admin (``is_staff``) or a caller that sends the ``HEALTHZ_TOKEN`` setting in the ``X-Healthz-Token``
header (anyone else: 404). It answers 503 naming each part down (a worker only counts when
``HEALTHZ_REQUIRE_WORKER``); each process runs the checks at most once per ``HEALTHZ_CACHE_SECONDS`` and
answers the others from that result, so polling cannot load the site.
"""

from __future__ import annotations

import hmac
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from kombu import Connection

from config.celery import app as celery_app

Check = dict[str, Any]
TOKEN_HEADER = "X-Healthz-Token"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: the process answers. Nothing else is asked, nothing is named."""
    return JsonResponse({"status": "ok"})


def check_database() -> Check:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"ok": True, "vendor": connection.vendor}


def check_cache() -> Check:
    key = f"healthz:{uuid.uuid4().hex}"
    cache.set(key, "1", timeout=10)
    value = cache.get(key)
    cache.delete(key)
    backend = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    result: Check = {"ok": value == "1", "backend": backend}
    if not result["ok"]:
        # The fail-soft cache (config.cache) answers a miss instead of raising: it keeps why.
        result["error"] = getattr(cache, "last_error", "") or "the cache did not keep a value"
    return result


def broker_configured() -> bool:
    return not settings.CELERY_BROKER_URL.startswith("memory://")


def check_broker() -> Check:
    with Connection(settings.CELERY_BROKER_URL, connect_timeout=2) as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
        return {"ok": True, "transport": conn.transport_cls}


def check_worker() -> Check:
    with Connection(settings.CELERY_BROKER_URL, connect_timeout=2) as conn:
        replies = celery_app.control.ping(timeout=1.0, connection=conn)
    workers = sorted(name for reply in replies for name in reply)
    return {"ok": bool(workers), "workers": workers}


def run_check(check: Callable[[], Check]) -> Check:
    started = time.perf_counter()
    try:
        result = check()
    except Exception as exc:  # a health check reports every failure, whatever its kind
        result = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


def run_checks() -> tuple[int, dict[str, Any]]:
    checks: dict[str, Check] = {"database": run_check(check_database), "cache": run_check(check_cache)}
    if broker_configured():
        checks["broker"] = run_check(check_broker)
        if checks["broker"]["ok"]:
            worker = run_check(check_worker)
        else:
            worker = {"ok": False, "error": "broker unreachable"}
        worker["required"] = settings.HEALTHZ_REQUIRE_WORKER
        checks["worker"] = worker
    else:
        checks["broker"] = {"ok": True, "mode": "eager (tasks run in process)"}
    failed = [name for name, result in checks.items() if not result["ok"]]
    down = [name for name in failed if checks[name].get("required", True)]
    status = "down" if down else ("degraded" if failed else "ok")
    return (503 if down else 200), {"status": status, "down": down, "failed": failed, "checks": checks}


class RecentResult:
    """The last readiness result of this process, reused for ``HEALTHZ_CACHE_SECONDS``; one thread runs
    the checks while the others wait for its result."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.at = 0.0
        self.value: tuple[int, dict[str, Any]] | None = None

    def get(self, compute: Callable[[], tuple[int, dict[str, Any]]]) -> tuple[int, dict[str, Any], float]:
        with self.lock:
            age = time.monotonic() - self.at
            if self.value is None or age >= settings.HEALTHZ_CACHE_SECONDS:
                self.value, self.at, age = compute(), time.monotonic(), 0.0
            return (*self.value, age)

    def clear(self) -> None:
        with self.lock:
            self.value, self.at = None, 0.0


recent = RecentResult()


def may_see_details(request: HttpRequest) -> bool:
    token = settings.HEALTHZ_TOKEN
    sent = request.headers.get(TOKEN_HEADER, "")
    if token and sent and hmac.compare_digest(sent.encode(), token.encode()):
        return True
    user = request.user
    return bool(user.is_authenticated and user.is_active and user.is_staff)


@never_cache
@require_GET
def ready(request: HttpRequest) -> JsonResponse:
    """Readiness, in detail, for staff or the token: each part, with what failed and how long it took."""
    if not may_see_details(request):
        raise Http404("No such page")
    status, body, age = recent.get(run_checks)
    return JsonResponse({**body, "age_seconds": round(age, 1)}, status=status)
