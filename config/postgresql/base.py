"""Django's PostgreSQL backend, which does not wait on a database known to be down.

Without this, a dead PostgreSQL holds every request that needs it: under the pool (``DATABASE_POOL``,
as the Procfile serves) each request waits the pool's whole ``timeout`` (``DATABASE_POOL_TIMEOUT``,
5 s) for a connection the pool keeps failing to open, and without the pool each request makes its own
attempt, which a server that does not answer holds for the ``connect_timeout``. A hall of phones
refreshing would then hold every thread of every web process at once.

So each process keeps, per database server, an ``Outage``: when a connection to it last failed. A
connection fails when opening it fails, when a query finds it broken (the server went away under it),
or when the pool's own attempt to open one fails while a request waits for it. For
``DATABASE_RETRY_SECONDS`` after the last failure every request that needs a connection is refused at
once (``DatabaseUnreachable``, an ``OperationalError``: the public pages answer their last good copy,
the rest 503, ``tournament.middleware``). After that, one request at a time tries again (the probe):
it waits for a connection at most the pool's timeout, and less when the attempt fails sooner; while it
tries, the others are still refused at once. The first connection that opens ends the outage.

The pool (``psycopg_pool``) would otherwise retry on its own with a growing delay (1, 2, 4, 8, 16 s...),
so that after an outage of 20 s its next attempt could come 10 s after the server is back, while
every request waited for it. Here it gives up its attempts after ``reconnect_timeout`` (set to
``DATABASE_RETRY_SECONDS`` in the settings) and the requests' probes lead the way back instead.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from typing import Any

import psycopg
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db.backends.postgresql import base
from django.db.backends.postgresql.base import NO_DB_ALIAS
from django.db.utils import DatabaseErrorWrapper
from django.utils.asyncio import async_unsafe
from django.utils.functional import cached_property
from psycopg_pool import ConnectionPool, PoolTimeout

logger = logging.getLogger("config.postgresql")

LOG_SECONDS = 60.0
# A request waiting for a pooled connection looks this often whether the pool's attempts failed.
WAIT_SLICE_SECONDS = 0.05


class DatabaseUnreachable(psycopg.OperationalError):
    """The database failed a moment ago and is not tried again yet."""


class Outage:
    """One process's link to one database server: when it last failed, whether a probe is on its way."""

    def __init__(self, server: str) -> None:
        self.server = server
        self.lock = threading.Lock()
        self.failed_at = 0.0  # monotonic; 0: the last attempt succeeded
        self.probe_started_at = 0.0  # monotonic; 0: no probe on its way
        self.last_error = ""
        self.logged_at = 0.0
        self.unlogged = 0
        # The pools of this server, drained as each outage begins: every connection opened before it
        # is dead too.
        self.pools: weakref.WeakSet[ConnectionPool] = weakref.WeakSet()

    def admit(self) -> bool:
        """Whether this caller may try the database, and as the probe (``True``) or as usual (``False``);
        raises ``DatabaseUnreachable`` while the database is left alone."""
        if not self.failed_at:
            return False
        retry = float(getattr(settings, "DATABASE_RETRY_SECONDS", 2.0))
        # A probe that never reported (its thread killed) stops holding the others back after this.
        probe_limit = retry + float(getattr(settings, "DATABASE_POOL_TIMEOUT", 5.0))
        with self.lock:
            now = time.monotonic()
            if not self.failed_at:
                return False
            since = now - self.failed_at
            probing = self.probe_started_at and now - self.probe_started_at < probe_limit
            if since >= retry and not probing:
                self.probe_started_at = now
                return True
            error = self.last_error
        wait = "another request is trying it" if probing else f"tried again in {retry - since:.1f} s"
        raise DatabaseUnreachable(f"the database failed {since:.1f} s ago ({error}); {wait}")

    def failed_since(self, moment: float) -> bool:
        return self.failed_at >= moment

    def failed(self, exc: BaseException) -> None:
        now = time.monotonic()
        with self.lock:
            first = not self.failed_at
            self.failed_at, self.probe_started_at = now, 0.0
            self.last_error = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
            self.unlogged += 1
            if not first and now - self.logged_at < LOG_SECONDS:
                return
            count, self.unlogged, self.logged_at = self.unlogged, 0, now
        if first:
            for pool in list(self.pools):
                if not pool.closed:
                    pool.drain()
        logger.warning(
            "database %s unreachable (%s; %d failures since the last report): requests answer at once "
            "for %s s between attempts",
            self.server,
            self.last_error,
            count,
            getattr(settings, "DATABASE_RETRY_SECONDS", 2.0),
        )

    def recovered(self) -> None:
        if not (self.failed_at or self.probe_started_at):
            return
        with self.lock:
            was_down = bool(self.failed_at)
            self.failed_at = self.probe_started_at = 0.0
        if was_down:
            logger.warning("database %s reachable again", self.server)


_outages: dict[str, Outage] = {}
_outages_lock = threading.Lock()


def outage_of(host: Any, port: Any) -> Outage:
    """The process's ``Outage`` of the server at ``host``:``port`` (as the settings name them)."""
    server = f"{host or ''}:{port or ''}"
    with _outages_lock:
        return _outages.setdefault(server, Outage(server))


class WatchedConnection(psycopg.Connection):
    """A psycopg connection whose opening, by the pool's own threads too, reports to the ``Outage``."""

    @classmethod
    def connect(cls, conninfo: str = "", **kwargs: Any) -> Any:
        outage = outage_of(kwargs.get("host"), kwargs.get("port"))
        try:
            connection = super().connect(conninfo, **kwargs)
        except psycopg.OperationalError as exc:
            outage.failed(exc)
            raise
        outage.recovered()
        return connection


class WatchedPool(ConnectionPool):
    """psycopg's pool, whose waiting clients give up as soon as an attempt to open a connection fails
    after they began to wait, instead of waiting out the whole ``timeout``."""

    def __init__(self, *args: Any, outage: Outage, **kwargs: Any) -> None:
        self.outage = outage
        super().__init__(*args, **kwargs)
        # The connections kept from before an outage would each fail once the server is back, and each
        # failure would begin a new outage: they are closed when it begins (those in use when returned).
        outage.pools.add(self)

    def getconn(self, timeout: float | None = None) -> Any:
        wait = self.timeout if timeout is None else timeout
        started = time.monotonic()
        deadline = started + wait
        while True:
            left = deadline - time.monotonic()
            try:
                return super().getconn(timeout=max(min(WAIT_SLICE_SECONDS, left), 0.001))
            except PoolTimeout:
                if self.outage.failed_since(started):
                    raise DatabaseUnreachable(self.outage.last_error) from None
                if left <= WAIT_SLICE_SECONDS:
                    raise PoolTimeout(f"couldn't get a connection after {wait:.2f} sec") from None


class WatchedErrors(DatabaseErrorWrapper):
    """Django's error wrapper, which also reports a connection found broken (the server went away)."""

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        if isinstance(exc_value, psycopg.OperationalError) and self.wrapper.connection_broken():
            self.wrapper.outage.failed(exc_value)
        super().__exit__(exc_type, exc_value, traceback)


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def outage(self) -> Outage:
        # Looked up each time: a test may point a connection at another server for a while.
        return outage_of(self.settings_dict["HOST"], self.settings_dict["PORT"])

    @cached_property
    def wrap_database_errors(self) -> WatchedErrors:
        return WatchedErrors(self)

    def connection_broken(self) -> bool:
        return self.connection is not None and bool(self.connection.broken)

    @property
    def pool(self) -> WatchedPool | None:
        """Django's own pool (``base.DatabaseWrapper.pool``), made as a ``WatchedPool`` of
        ``WatchedConnection``."""
        pool_options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == NO_DB_ALIAS or not pool_options:
            return None
        if self.alias not in self._connection_pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
            connect_kwargs = self.get_connection_params()
            connect_kwargs["autocommit"] = True  # as Django's: it sets the mode it wants later on
            enable_checks = self.settings_dict["CONN_HEALTH_CHECKS"]
            pool = WatchedPool(
                kwargs=connect_kwargs,
                open=False,
                configure=self._configure_connection,
                check=ConnectionPool.check_connection if enable_checks else None,
                connection_class=WatchedConnection,
                outage=self.outage,
                **({} if pool_options is True else pool_options),
            )
            self._connection_pools.setdefault(self.alias, pool)
        pool_made: WatchedPool = self._connection_pools[self.alias]
        return pool_made

    @async_unsafe
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        probing = self.outage.admit()
        try:
            connection = super().get_new_connection(conn_params)
        except psycopg.OperationalError as exc:
            # A pool that only stayed full is busy, not down (PoolTimeout), and a failed attempt of the
            # pool's own reported itself (DatabaseUnreachable); a probe that got nothing is down.
            if probing or not isinstance(exc, PoolTimeout | DatabaseUnreachable):
                self.outage.failed(exc)
            raise
        if self.pool is None:
            self.outage.recovered()  # a connection of its own was opened
        elif probing:
            self._check_probe(connection)
        return connection

    def _check_probe(self, connection: Any) -> None:
        """A probe may be given a connection the pool kept from before the outage: it proves nothing
        until it answers."""
        try:
            ConnectionPool.check_connection(connection)
        except psycopg.OperationalError as exc:
            self.outage.failed(exc)
            assert self.pool is not None
            self.pool.putconn(connection)  # broken: the pool discards it
            raise
        self.outage.recovered()
