"""Live updates, the sending side: after a change commits, one short notice on Redis pub/sub that every
web process hears (its one subscriber fans it out to the browsers it streams to, ``tournament.views.live``).

A notice says only which tournament changed and what kind of thing (``standings``, ``seating``,
``clock``, ``tables``: a table's sheet saved hand by hand, submitted or signed), under a number that
counts the tournament's notices (its live version). It never carries what changed: each web process
computes what its viewers may see once per notice, with the same publication rules as the pages
(``public_cutoff``, ``public_rounds``).

Redis keeps the number and the last ``LOG_LENGTH`` notices of each tournament, so that a browser that
reconnects with ``Last-Event-ID`` learns which kinds it missed. A script makes the count, the log and
the publication one atomic step: notices reach every subscriber in the order of their numbers.

A series has notices of its own (``announce_series``), under its own number and log: its subject is
``s<id>`` where a tournament's is its id, and its one kind ``series`` (its standings changed, because a
tournament of it did: ``tournament.queries.live_standings``). A series' stream (``/series/<slug>/live``) hears
only those.

Without ``REDIS_URL`` nothing is sent (the pages poll). A notice that Redis does not take is logged and
forgotten: the change itself stands, and the browsers' polling, slowed while a stream is open, still
catches it. After a failure this process leaves Redis alone for ``RETRY_SECONDS``.
"""

from __future__ import annotations

import logging
import threading
import time

import redis
from django.conf import settings
from django.db import transaction
from redis.exceptions import RedisError

logger = logging.getLogger("tournament.live")

KINDS = ("standings", "seating", "clock", "tables")
# The one kind of a series' notices, and the prefix of a series' subject ("s12": series 12).
SERIES_KIND = "series"
SERIES_PREFIX = "s"
# A tournament's id, or a series' subject ("s12").
Subject = int | str
LOG_LENGTH = 64
LOG_SECONDS = 24 * 3600
RETRY_SECONDS = 5.0
SOCKET_SECONDS = 1.0

# KEYS: the counter, the log. ARGV: kind, channel, log length, subject (tournament id), log lifetime.
ANNOUNCE_SCRIPT = """
local id = redis.call('INCR', KEYS[1])
redis.call('RPUSH', KEYS[2], id .. ':' .. ARGV[1])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[3]), -1)
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[5]))
redis.call('PUBLISH', ARGV[2], ARGV[4] .. ':' .. id .. ':' .. ARGV[1])
return id
"""

_lock = threading.Lock()
_client: redis.Redis | None = None
_failed_at = 0.0


def enabled() -> bool:
    return bool(settings.REDIS_URL)


def _namespace() -> str:
    """Keys and channel of this site (test sessions side by side keep apart by the cache's prefix)."""
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    return f"{prefix}:live" if prefix else "live"


def channel() -> str:
    return f"{_namespace()}:notices"


def version_key(subject: Subject) -> str:
    return f"{_namespace()}:version:{subject}"


def log_key(subject: Subject) -> str:
    return f"{_namespace()}:log:{subject}"


def series_subject(series_id: int) -> str:
    return f"{SERIES_PREFIX}{series_id}"


def kinds_of(subject: Subject) -> tuple[str, ...]:
    """The kinds of notice a subject has: a tournament's ``KINDS``, a series' ``series``."""
    return (SERIES_KIND,) if isinstance(subject, str) else KINDS


def parse_notice(data: bytes | str) -> tuple[Subject, int, str] | None:
    """(subject: a tournament's id or a series' "s<id>", version, kind) of a notice as published, or
    None for anything else."""
    text = data.decode() if isinstance(data, bytes) else data
    parts = text.split(":")
    if len(parts) != 3 or not parts[1].isdigit():
        return None
    name, version, kind = parts
    subject: Subject
    if name.isdigit():
        subject = int(name)
    elif name.startswith(SERIES_PREFIX) and name[len(SERIES_PREFIX) :].isdigit():
        subject = name
    else:
        return None
    if kind not in kinds_of(subject):
        return None
    return subject, int(version), kind


def missed_kinds(last_seen: int, current: int, log: list[bytes], kinds: tuple[str, ...] = KINDS) -> list[str]:
    """The kinds of notice (of ``kinds``: a tournament's, or a series') a browser that saw version
    ``last_seen`` missed, in their order: every kind when the log no longer reaches back that far (or
    the counter went back: Redis lost it)."""
    if last_seen >= current:
        return [] if last_seen == current else list(kinds)
    entries = []
    for item in log:
        number, _, kind = (item.decode() if isinstance(item, bytes) else item).partition(":")
        if number.isdigit() and kind in kinds:
            entries.append((int(number), kind))
    if not entries or entries[0][0] > last_seen + 1:
        return list(kinds)
    missed = {kind for number, kind in entries if number > last_seen}
    return [kind for kind in kinds if kind in missed]


def _redis() -> redis.Redis:
    global _client
    with _lock:
        if _client is None:
            _client = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=SOCKET_SECONDS, socket_connect_timeout=SOCKET_SECONDS
            )
        return _client


def announce(tournament_id: Subject, kind: str) -> int | None:
    """Send the notice now (call it once the change has committed); its version, or None if not sent.
    ``tournament_id``: the tournament's id, or a series' subject (``announce_series``)."""
    global _failed_at
    if kind not in kinds_of(tournament_id):
        raise ValueError(f"unknown live notice kind {kind!r}")
    if not enabled() or time.monotonic() - _failed_at < RETRY_SECONDS:
        return None
    try:
        version = _redis().eval(
            ANNOUNCE_SCRIPT,
            2,
            version_key(tournament_id),
            log_key(tournament_id),
            kind,
            channel(),
            LOG_LENGTH,
            tournament_id,
            LOG_SECONDS,
        )
    except (RedisError, OSError) as exc:
        _failed_at = time.monotonic()
        logger.warning("live notice %s of tournament %s not sent (%s): pages poll", kind, tournament_id, exc)
        return None
    return int(version)


def announce_series(series_id: int) -> int | None:
    """Send a series' notice now: its standings changed (a tournament of it did, and has committed)."""
    return announce(series_subject(series_id), SERIES_KIND)


def announce_on_commit(tournament_id: int, kind: str) -> None:
    """Send the notice once the current transaction commits (never if it rolls back)."""
    transaction.on_commit(lambda: announce(tournament_id, kind), robust=True)
