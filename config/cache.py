"""A Redis cache that degrades to a miss when Redis is unreachable.

Everything the product caches can be computed again from the database, so an unreachable Redis must
cost time, not answers: each operation that fails to connect or times out is logged (at most one line
per ``LOG_SECONDS`` per process and Redis, with the count of the failures it stands for) and answers
as Django's API answers a miss: ``get`` the default, ``get_many`` nothing, ``add``/``touch``/
``delete``/``has_key``/``clear`` ``False``, ``set``/``delete_many`` nothing done, ``set_many`` every
key as not stored, ``incr``/``decr`` ``ValueError`` as for a missing key. After a failure the process
leaves that Redis alone for ``RETRY_SECONDS`` (an option of the backend, 5 by default), so a Redis
that hangs instead of refusing costs one socket timeout per process and period, not one per request.

Errors other than a lost connection (a wrong command, a full memory) are not hidden.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("config.cache")

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError)
LOG_SECONDS = 60.0
T = TypeVar("T")


class Outage:
    """The state of one process's link to Redis: when it last failed, what was last logged."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.failed_at = 0.0
        self.logged_at = 0.0
        self.unlogged = 0
        self.last_error = ""

    def failed(self, operation: str, exc: BaseException) -> None:
        now = time.monotonic()
        with self.lock:
            self.failed_at = now
            self.last_error = f"{type(exc).__name__}: {exc}"
            self.unlogged += 1
            if now - self.logged_at < LOG_SECONDS and self.logged_at:
                return
            count, self.unlogged, self.logged_at = self.unlogged, 0, now
        logger.warning(
            "cache unreachable (%s on %s; %d failed operations since the last report): answering as "
            "a miss, the pages read the database",
            self.last_error,
            operation,
            count,
        )

    def recovered(self) -> None:
        if self.failed_at:
            with self.lock:
                if self.failed_at:
                    self.failed_at = 0.0
                    logger.warning("cache reachable again")


_outages: dict[str, Outage] = {}
_outages_lock = threading.Lock()


class FailSoftRedisCache(RedisCache):
    """Django's ``RedisCache``, answering as a miss while Redis cannot be reached (see the module)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS", {}))
        self.retry_seconds = float(options.pop("RETRY_SECONDS", 5.0))
        super().__init__(server, {**params, "OPTIONS": options})
        # Django makes one cache object per thread: the outage is the process's, per Redis location.
        with _outages_lock:
            self.outage = _outages.setdefault(str(server), Outage())

    def _call(self, operation: str, call: Callable[[], T], fallback: T) -> T:
        failed_at = self.outage.failed_at
        if failed_at and time.monotonic() - failed_at < self.retry_seconds:
            return fallback
        try:
            result = call()
        except UNREACHABLE as exc:
            self.outage.failed(operation, exc)
            return fallback
        self.outage.recovered()
        return result

    @property
    def last_error(self) -> str:
        return self.outage.last_error

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._call(
            "add", lambda: super(FailSoftRedisCache, self).add(key, value, timeout, version), False
        )

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._call("get", lambda: super(FailSoftRedisCache, self).get(key, default, version), default)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        self._call("set", lambda: super(FailSoftRedisCache, self).set(key, value, timeout, version), None)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._call(
            "touch", lambda: super(FailSoftRedisCache, self).touch(key, timeout, version), False
        )

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._call("delete", lambda: super(FailSoftRedisCache, self).delete(key, version), False)

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        keys = list(keys)
        return self._call("get_many", lambda: super(FailSoftRedisCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._call("has_key", lambda: super(FailSoftRedisCache, self).has_key(key, version), False)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        missing = object()
        result: Any = self._call(
            "incr", lambda: super(FailSoftRedisCache, self).incr(key, delta, version), missing
        )
        if result is missing:
            raise ValueError(f"Key '{key}' not found (the cache is unreachable)")
        return int(result)

    def set_many(
        self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        return self._call(
            "set_many", lambda: super(FailSoftRedisCache, self).set_many(data, timeout, version), list(data)
        )

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        keys = list(keys)
        self._call("delete_many", lambda: super(FailSoftRedisCache, self).delete_many(keys, version), None)

    def clear(self) -> bool:
        return self._call("clear", lambda: super(FailSoftRedisCache, self).clear(), False)
