"""Live updates, the receiving side: ``/t/<slug>/live`` streams a tournament's changes to a browser as
Server-Sent Events, served by the ASGI server (``config.asgi``).

Each web process holds ONE Redis subscriber (``Hub``) that hears every notice of ``tournament.queries.live``
and
fans it out to the queues of the streams it serves. For each notice it computes, once, what the
public may see (the standings as the standings page's poll answers them to a visitor, under
``public_cutoff``; the clock; the live tables as their page's poll answers a visitor), and hands the
same text to every public stream of the tournament: a change costs each process one computation, not
one request per phone. The tournament's staff (who see more than the public) get the notice without
the standings or the tables and fetch their own.

An event::

    id: 42
    event: standings    (or seating, clock, tables)
    data: {"kind": "standings", "version": 42, "payload": {...}}

``id`` is the tournament's live version: a browser that reconnects sends it back as ``Last-Event-ID``
and gets one event for each kind it missed, with what is current. A comment every
``LIVE_HEARTBEAT_SECONDS`` keeps proxies from closing a quiet stream. Beyond ``LIVE_MAX_CONNECTIONS``
streams in one process, beyond ``LIVE_MAX_PER_ADDRESS`` from one client address (``tournament.queries.access.
client_address``) in one process, or while Redis cannot be reached, the answer is 503 with
``Retry-After``; with
no Redis configured, or under a WSGI server (``runserver``, which cannot hold a stream open), it is
204: in each case the browser polls as before (``static/js/live.js``).

A full process stays fair between addresses: a reader from an address holding at least two streams
fewer than the address holding the most takes the place of that address's oldest stream
(``Hub.give_way``). A new address therefore always finds a place while any address holds more than one,
and no address can push out another's streams to hold more than it.

A reader too slow for its stream (its ``QUEUE_LENGTH`` events waiting: the network does not take what
was sent) is dropped: its request is cancelled, which closes the connection and frees its place; the
browser reconnects with ``Last-Event-ID`` and catches up. A stream whose write has waited on the
network longer than ``LIVE_WRITE_SECONDS`` is dropped the same way at the next heartbeat
(``Hub.end_stalled``): a reader that stopped reading keeps its place only while the socket's buffers
take what is sent, and then that long at most, even on a quiet tournament that sends too little to
fill its queue.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import suppress
from typing import Any

import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connections
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET
from redis.exceptions import RedisError

from tournament.models import Series, StaffRole, Tournament
from tournament.queries import access, live
from tournament.queries.live_standings import standings_payload
from tournament.queries.live_tables import public_tables
from tournament.queries.series_db import series_board
from tournament.queries.standings_db import public_cutoff
from tournament.views.base import access_tournament
from tournament.views.clock import clock_data

logger = logging.getLogger("tournament.live")

RETRY_AFTER_SECONDS = 10
RECONNECT_MILLISECONDS = 3000
QUEUE_LENGTH = 32
SUBSCRIBE_WAIT_SECONDS = 3.0
RESUBSCRIBE_SECONDS = 2.0
MAX_EVENT_ID = 10**15
HEARTBEAT = b": heartbeat\n\n"
REDIS_DOWN = gettext_lazy("Live updates are unavailable for a moment: the page polls meanwhile.")
# Numbers the streams of this process in the order they opened: the oldest of an address gives way first.
_opened = itertools.count()


class Stream:
    """One browser's stream of a tournament (its ``subject``: the tournament's id) or of a series ("s<id>",
    ``live.series_subject``): its queue of (version, text) and whether it sees only what is public."""

    __slots__ = (
        "address",
        "opened",
        "overflow",
        "public",
        "queue",
        "sent",
        "subject",
        "task",
        "writing_since",
    )

    def __init__(self, subject: live.Subject, public: bool, address: str = "") -> None:
        self.subject = subject
        self.public = public
        self.address = address
        self.opened = next(_opened)
        # When the write of the text last handed to the server began (time.monotonic()), while it waits
        # for the network to take it; None between writes.
        self.writing_since: float | None = None
        self.queue: asyncio.Queue[tuple[int, bytes] | None] = asyncio.Queue(QUEUE_LENGTH)
        self.sent = 0
        self.overflow = False
        # The task that writes the stream to its browser (set when it starts writing).
        self.task: asyncio.Task[Any] | None = None

    def offer(self, version: int, text: bytes) -> None:
        try:
            self.queue.put_nowait((version, text))
        except asyncio.QueueFull:
            self.drop()

    def drop(self) -> None:
        """Too slow a reader: the stream ends, even while a write to it waits on the network (the task
        writing it is cancelled); the browser reconnects and catches up with Last-Event-ID."""
        self.overflow = True
        if self.task is not None and not self.task.done() and self.task is not asyncio.current_task():
            self.task.cancel()


def event_text(version: int, kind: str, payload: Any = None) -> bytes:
    """An event as sent, encoded once for every stream that gets it."""
    data: dict[str, Any] = {"kind": kind, "version": version}
    if payload is not None:
        data["payload"] = payload
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False, cls=DjangoJSONEncoder)
    return f"id: {version}\nevent: {kind}\ndata: {body}\n\n".encode()


def _compute(subject: live.Subject, kind: str) -> tuple[bool, Any]:
    """Whether the public may still see the tournament (or the series: while it exists), and what a
    stream carries for a notice of this kind (runs in a thread of its own, whose database connection is
    closed afterwards)."""
    try:
        if isinstance(subject, str):
            series = Series.objects.filter(pk=int(subject.removeprefix(live.SERIES_PREFIX))).first()
            return (False, None) if series is None else (True, series_board(series))
        tournament = Tournament.objects.filter(pk=subject).first()
        if tournament is None:
            return False, None
        if kind == "clock":
            return tournament.is_public, clock_data(tournament)
        if kind == "tables":
            return tournament.is_public, public_tables(tournament, fresh=True)
        # The copy of this change, never the one from before it (computed where the change was made).
        return tournament.is_public, standings_payload(tournament, public_cutoff(tournament), fresh=True)
    finally:
        connections.close_all()


class Hub:
    """This process's one subscriber and the streams it feeds."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.loop = asyncio.get_running_loop()
        self.streams: dict[live.Subject, set[Stream]] = defaultdict(set)
        self.count = 0
        # Each client address's streams, oldest first (a dict as an ordered set).
        self.by_address: dict[str, dict[Stream, None]] = {}
        self.up = False
        self.settled = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.beat: asyncio.Task[None] | None = None
        self.reader = aioredis.Redis(
            connection_pool=aioredis.BlockingConnectionPool.from_url(
                url, max_connections=8, timeout=5, socket_timeout=2, socket_connect_timeout=2
            )
        )
        # The last text computed per (tournament, kind, public): reconnecting browsers share it.
        self.latest: dict[tuple[live.Subject, str, bool], tuple[int, bytes | None]] = {}
        self.computing: dict[tuple[live.Subject, str, bool], asyncio.Lock] = defaultdict(asyncio.Lock)

    async def ready(self) -> bool:
        """Whether the subscriber listens (started on the first stream; a lost one is restarted)."""
        if self.beat is None or self.beat.done():
            self.beat = asyncio.create_task(self._heartbeat(settings.LIVE_HEARTBEAT_SECONDS))
        if self.task is None or self.task.done():
            self.settled.clear()
            self.task = asyncio.create_task(self._listen())
        if not self.up:
            try:
                await asyncio.wait_for(self.settled.wait(), SUBSCRIBE_WAIT_SECONDS)
            except TimeoutError:
                return False
        return self.up

    async def _listen(self) -> None:
        while True:
            client = aioredis.Redis.from_url(self.url, socket_connect_timeout=2, socket_keepalive=True)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(live.channel())
                    self.up = True
                    self.settled.set()
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            await self._dispatch(message["data"])
            except (RedisError, OSError) as exc:
                logger.warning("live subscriber lost Redis (%s): streams closed, pages poll", exc)
            finally:
                self.up = False
                await client.aclose()
            self.latest.clear()
            self._close_all()
            self.settled.set()  # a stream waiting to start learns that Redis is down
            await asyncio.sleep(RESUBSCRIBE_SECONDS)
            self.settled.clear()

    async def _heartbeat(self, seconds: float) -> None:
        """A comment to every stream every ``seconds``, once the streams whose writes have waited too long
        are dropped: one timer for the process, none per stream."""
        while True:
            await asyncio.sleep(seconds)
            self.end_stalled(settings.LIVE_WRITE_SECONDS)
            for streams in list(self.streams.values()):
                for stream in list(streams):
                    stream.offer(0, HEARTBEAT)

    def end_stalled(self, seconds: float) -> None:
        """Drop every stream whose current write has waited more than ``seconds`` for the network: its
        reader takes nothing (the socket's buffers are full), and a quiet tournament may never send the
        events that would overflow its queue."""
        since = time.monotonic() - seconds
        for streams in list(self.streams.values()):
            for stream in list(streams):
                if stream.writing_since is not None and stream.writing_since < since:
                    logger.info("live stream of %s dropped: a write waited %s s", stream.address, seconds)
                    stream.drop()

    def _close_all(self) -> None:
        for streams in self.streams.values():
            for stream in streams:
                stream.overflow = True
                with suppress(asyncio.QueueFull):
                    stream.queue.put_nowait(None)

    async def _dispatch(self, data: bytes) -> None:
        notice = live.parse_notice(data)
        if notice is None:
            return
        subject, version, kind = notice
        streams = self.streams.get(subject)
        if not streams:
            return
        texts: dict[bool, bytes | None] = {}
        for public in sorted({stream.public for stream in streams}):
            texts[public] = await self.text(subject, version, kind, public)
        for stream in list(streams):
            text = texts[stream.public]
            if text is None:  # the tournament is private now (or gone): its public streams end
                stream.overflow = True
                with suppress(asyncio.QueueFull):
                    stream.queue.put_nowait(None)
            elif version > stream.sent:
                stream.offer(version, text)

    async def text(self, subject: live.Subject, version: int, kind: str, public: bool) -> bytes | None:
        """The event of a notice for public or staff streams, computed once per version; None when the
        public may no longer see the tournament."""
        key = (subject, kind, public)
        async with self.computing[key]:
            found = self.latest.get(key)
            if found is not None and found[0] >= version:
                return found[1]  # as new or newer: what is current is what a browser wants
            payload = None
            if kind == "clock" or (kind in ("standings", "tables", live.SERIES_KIND) and public):
                try:
                    shown, payload = await sync_to_async(_compute, thread_sensitive=False)(subject, kind)
                except Exception:  # the database is away: the notice alone, the pages fetch their copy
                    logger.exception("live %s of tournament %s not computed", kind, subject)
                    return event_text(version, kind)
                if public and not shown:
                    return None
            text = event_text(version, kind, payload)
            self.latest[key] = (version, text)
            return text

    def held_by(self, address: str) -> int:
        """How many streams ``address`` holds in this process."""
        return len(self.by_address.get(address, ()))

    def give_way(self, address: str) -> Stream | None:
        """The stream that gives its place to a new one from ``address`` in a full process: the oldest
        stream of the address holding the most, when that address holds at least two more than
        ``address`` does (ties: the oldest of their oldest); None when no address does, and the new
        stream is refused. So a new address finds a place while any address holds more than one, and an
        address takes a place only from one that would still hold as many as it."""
        held = self.held_by(address)
        most = max((len(streams) for streams in self.by_address.values()), default=0)
        if most < held + 2:
            return None
        oldest = (next(iter(streams)) for streams in self.by_address.values() if len(streams) == most)
        return min(oldest, key=lambda stream: stream.opened)

    def admit(self, stream: Stream) -> bool:
        """Add the stream, in a full process in the place of the one that gives way (ended at once, its
        browser reconnects); False, and nothing changed, when there is no place for it."""
        if self.count >= settings.LIVE_MAX_CONNECTIONS:
            leaving = self.give_way(stream.address)
            if leaving is None:
                return False
            logger.info("live stream of %s ended: its place goes to %s", leaving.address, stream.address)
            self.remove(leaving)  # its place is free now, before its task has ended
            leaving.drop()
        self.add(stream)
        return True

    def add(self, stream: Stream) -> None:
        self.streams[stream.subject].add(stream)
        self.count += 1
        self.by_address.setdefault(stream.address, {})[stream] = None

    def remove(self, stream: Stream) -> None:
        streams = self.streams.get(stream.subject)
        if streams is not None and stream in streams:
            streams.discard(stream)
            self.count -= 1
            held = self.by_address[stream.address]
            del held[stream]
            if not held:
                del self.by_address[stream.address]
            if not streams:
                del self.streams[stream.subject]

    async def catch_up(self, stream: Stream, last_seen: int | None) -> list[bytes]:
        """The first events of a new stream: one per kind missed since ``last_seen``, or a greeting
        naming the current version when the browser has none."""
        subject = stream.subject
        current = int(await self.reader.get(live.version_key(subject)) or 0)
        if last_seen is None:
            stream.sent = current
            return [event_text(current, "hello")]
        log = await self.reader.lrange(live.log_key(subject), 0, -1)  # type: ignore[misc]
        kinds = live.missed_kinds(last_seen, current, log, live.kinds_of(subject))
        texts = [await self.text(subject, current, kind, stream.public) for kind in kinds]
        stream.sent = current
        return [text for text in texts if text is not None]


_hub: Hub | None = None


def hub() -> Hub:
    """This process's hub, made on the first stream (one per event loop)."""
    global _hub
    loop = asyncio.get_running_loop()
    if _hub is None or _hub.loop is not loop or _hub.url != settings.REDIS_URL:
        _hub = Hub(settings.REDIS_URL)
    return _hub


def unavailable(message: str, rule: str) -> HttpResponse:
    """The stream refused for now (503), in the API's form; the message in the reader's language."""
    response = JsonResponse({"errors": [{"field": "stream", "rule": rule, "message": message}]}, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def full() -> HttpResponse:
    """The process streams to as many browsers as it may, and no address holds enough to give way."""
    message = gettext(
        "This server streams to {count} browsers already: try again in {seconds} seconds (the page polls "
        "meanwhile)."
    ).format(count=settings.LIVE_MAX_CONNECTIONS, seconds=RETRY_AFTER_SECONDS)
    return unavailable(message, "live-connection-limit")


def last_event_id(request: HttpRequest) -> int | None:
    """The version the browser saw last (``Last-Event-ID``); None when absent or not a number."""
    value = request.headers.get("Last-Event-ID", "")
    value = value.strip()
    if not value.isascii() or not value.isdigit() or len(value) > 15:
        return None
    number = int(value)
    return number if number < MAX_EVENT_ID else None


def _open(request: HttpRequest, slug: str) -> tuple[int, bool]:
    """Authorise the viewer (as the pages do: 404 for a tournament they may not see), then give this
    thread's database connection back: a stream must not hold one while it stays open."""
    try:
        tournament = access_tournament(request, slug)
        return tournament.pk, not access.has_role(request.user, tournament, StaffRole.Role.REFEREE)
    finally:
        connections.close_all()


def _open_series(series_slug: str) -> str:
    """A series' subject (404 for a series that does not exist; every series is public)."""
    try:
        series = Series.objects.filter(slug=series_slug).first()
        if series is None:
            raise Http404(gettext("Series not found."))
        return live.series_subject(series.pk)
    finally:
        connections.close_all()


@require_GET
async def stream(request: HttpRequest, slug: str) -> HttpResponse:
    subject, public = await sync_to_async(_open)(request, slug)
    return await _serve(request, subject, public)


@require_GET
async def series_stream(request: HttpRequest, series_slug: str) -> HttpResponse:
    """A series' stream (its projector's): its standings each time a tournament of it changes, the same
    for every reader (a series is public)."""
    subject = await sync_to_async(_open_series)(series_slug)
    return await _serve(request, subject, True)


async def _serve(request: HttpRequest, subject: live.Subject, public: bool) -> HttpResponse:
    if not live.enabled() or not isinstance(request, ASGIRequest):
        response = HttpResponse(status=204)  # no stream here: the page polls
        response["Cache-Control"] = "no-store"
        return response
    the_hub = hub()
    address = access.client_address(request)
    if the_hub.count >= settings.LIVE_MAX_CONNECTIONS and the_hub.give_way(address) is None:
        return full()
    if the_hub.held_by(address) >= settings.LIVE_MAX_PER_ADDRESS:
        message = gettext(
            "Too many live streams from this address: try again in {seconds} seconds (the page polls "
            "meanwhile)."
        ).format(seconds=RETRY_AFTER_SECONDS)
        return unavailable(message, "live-address-limit")
    if not await the_hub.ready():
        return unavailable(str(REDIS_DOWN), "live-redis")
    last_seen = last_event_id(request)
    connection = Stream(subject, public, address)
    # First, so that nothing published while catching up is lost; checked again, as other streams may
    # have opened while Redis was asked.
    if not the_hub.admit(connection):
        return full()
    try:
        first = await the_hub.catch_up(connection, last_seen)
    except (RedisError, OSError):
        the_hub.remove(connection)
        return unavailable(str(REDIS_DOWN), "live-redis")
    except BaseException:
        the_hub.remove(connection)
        raise
    response = StreamingHttpResponse(events(the_hub, connection, first), content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


async def events(the_hub: Hub, connection: Stream, first: list[bytes]) -> AsyncIterator[bytes]:
    connection.task = asyncio.current_task()  # the request's task, which writes what this yields
    try:
        # Any connection the middleware opened in this request's thread goes back now.
        await sync_to_async(connections.close_all)()
        # Each text handed to the server is written while this generator waits for its next step: the
        # time it started says how long the network has kept it (Hub.end_stalled).
        connection.writing_since = time.monotonic()
        yield f"retry: {RECONNECT_MILLISECONDS}\n: live\n\n".encode() + b"".join(first)
        connection.writing_since = None
        while not connection.overflow:
            item = await connection.queue.get()
            if item is None:
                return
            version, text = item
            if version == 0 or version > connection.sent:
                if version:  # not a heartbeat
                    connection.sent = version
                connection.writing_since = time.monotonic()
                yield text
                connection.writing_since = None
    finally:
        the_hub.remove(connection)
