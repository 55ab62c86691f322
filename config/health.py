"""``GET /healthz``: the state of each part the product needs, for load balancers and operators.

Each check returns ``{"ok": bool, ...}``; the answer is HTTP 503 when a required part is down, and the
JSON names that part. A worker is required when a broker is configured (``HEALTHZ_REQUIRE_WORKER``).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from kombu import Connection

from config.celery import app as celery_app

Check = dict[str, Any]


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
    return {"ok": value == "1", "backend": backend}


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


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
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
    down = [name for name, result in checks.items() if not result["ok"] and result.get("required", True)]
    body = {"status": "ok" if not down else "down", "down": down, "checks": checks}
    return JsonResponse(body, status=200 if not down else 503)
