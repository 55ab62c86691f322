"""Live updates over Server-Sent Events, on real uvicorn processes, the test database and Redis: a change
made through one process reaches a stream of another; the public stream carries only what the public
may see; a reconnecting browser catches up with Last-Event-ID; the connection cap and a Redis outage
answer 503 with Retry-After while the pages keep working."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from contextlib import aclosing, suppress
from typing import Any

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client, override_settings
from rest_framework.authtoken.models import Token

from tests.asgi_server import (
    Server,
    closed_by_server,
    never_reading_stream,
    open_stream,
    running_server,
    wait_for,
)
from tests.conftest import make_players, seat_table
from tests.own_redis import OwnRedis, free_port
from tournament import services
from tournament.models import Round, Tournament
from tournament.queries import live
from tournament.views import live as live_views

pytestmark = pytest.mark.django_db(transaction=True)


def final_entry(table: Any, points: list[int]) -> dict[str, Any]:
    names = [seat.player.name for seat in table.seats.order_by("wind")]
    return {"form": "final", "riichi_sticks_left": 0, "final_points": dict(zip(names, points, strict=True))}


def sign_through(server: Server, table: Any, token: str, points: list[int]) -> None:
    status, body = server.post(
        f"/api/tables/{table.pk}/sheet/", {"entry": final_entry(table, points), "submit": True}, token
    )
    assert status == 201, body
    status, body = server.post(f"/api/tables/{table.pk}/sheet/sign/", {}, token)
    assert status == 200, body


@pytest.fixture
def two_hanchan(tournament: Tournament) -> tuple[Tournament, list[Any]]:
    """Two hanchan of two tables each, eight players, both started."""
    tournament.hanchan_count = 2
    tournament.save()
    players = make_players(tournament, 8, prefix="P")
    tables = []
    for number in (1, 2):
        round_ = Round.objects.create(tournament=tournament, number=number, status="started")
        tables += [seat_table(round_, 1, players[:4]), seat_table(round_, 2, players[4:])]
    return tournament, tables


def total_of(payload: dict[str, Any], name: str) -> str:
    return next(row["total"] for row in payload["rows"] if row["name"] == name)


def test_a_sheet_signed_through_one_process_reaches_a_stream_of_another(
    two_hanchan: tuple[Tournament, list[Any]], referee: Any, server: Server, other_server: Server
) -> None:
    tournament, tables = two_hanchan
    stream = open_stream(server, f"/t/{tournament.slug}/live")
    assert stream.status == 200 and stream.headers["content-type"] == "text/event-stream"
    hello = stream.next()
    assert hello.kind == "hello" and hello.data == {"kind": "hello", "version": int(hello.id or 0)}

    sign_through(
        other_server, tables[0], Token.objects.create(user=referee).key, [40000, 30000, 30000, 20000]
    )

    # The sheet's submission, then its signature: the standings as the public sees them, with each (and
    # the live tables' own events beside them).
    seen = stream.until(
        lambda e: e.kind == "standings" and e.data is not None and e.data["payload"]["rounds"] == 1
    )
    assert {e.kind for e in seen} <= {"standings", "tables"}
    events = [e for e in seen if e.kind == "standings"]
    assert all(e.data is not None and e.data["version"] == int(e.id or 0) for e in events)
    assert int(events[0].id or 0) > int(hello.id or 0)
    payload = events[-1].data["payload"]  # type: ignore[index]
    assert total_of(payload, "P 001") == "25"  # 40,000 points: +10 and the first place's uma of 15
    assert payload["pending"] == [{"table": 2, "status": "none"}]
    stream.close()


def test_the_public_stream_never_carries_hidden_hanchan(
    two_hanchan: tuple[Tournament, list[Any]], referee: Any, organiser: Any, server: Server
) -> None:
    tournament, tables = two_hanchan
    Tournament.objects.filter(pk=tournament.pk).update(hidden_hanchan=1)
    token = Token.objects.create(user=referee).key
    for table in tables[:2]:
        sign_through(server, table, token, [40000, 30000, 30000, 20000])
    staff = Client()
    staff.force_login(organiser)
    public_stream = open_stream(server, f"/t/{tournament.slug}/live")
    cookie = {"Cookie": f"sessionid={staff.cookies['sessionid'].value}"}
    staff_stream = open_stream(server, f"/t/{tournament.slug}/live", cookie)
    assert public_stream.next().kind == staff_stream.next().kind == "hello"

    sign_through(server, tables[2], token, [40000, 30000, 30000, 20000])  # hanchan 2: hidden

    events = [e for e in public_stream.drain(2.0) if e.kind == "standings"]
    assert len(events) >= 2, events  # the sheet's submission and its signature
    for event in events:
        assert event.kind == "standings" and event.data is not None
        payload = event.data["payload"]
        assert payload["as_of"] == 1 and payload["hidden_from"] == 2
        assert total_of(payload, "P 001") == "25"  # not 50: hanchan 2 stays hidden
        assert '"50"' not in json.dumps(payload)
    staff_events = [e for e in staff_stream.drain(0.5) if e.kind == "standings"]
    assert len(staff_events) == len(events)
    for staff_event in staff_events:
        assert staff_event.kind == "standings" and staff_event.data is not None
        assert "payload" not in staff_event.data  # the staff fetch their own, whole standings
    public_stream.close()
    staff_stream.close()


def test_a_reconnecting_browser_catches_up_with_last_event_id(
    two_hanchan: tuple[Tournament, list[Any]], organiser: Any
) -> None:
    tournament, _ = two_hanchan
    with running_server({"LIVE_HEARTBEAT_SECONDS": "0.5"}) as server:
        stream = open_stream(server, f"/t/{tournament.slug}/live")
        seen = int(stream.next().id or 0)
        stream.close()
        round_ = tournament.rounds.get(number=1)
        services.operate_clock(round_, organiser, "extend", minutes=5)  # while the browser is away
        services.publish_seating(round_, organiser)
        current = int(live.announce(tournament.pk, "clock") or 0)

        again = open_stream(server, f"/t/{tournament.slug}/live", {"Last-Event-ID": str(seen)})
        caught = [again.next(), again.next()]
        assert [e.kind for e in caught] == ["seating", "clock"]  # one event per kind missed, in order
        assert all(int(e.id or 0) == current for e in caught)
        assert caught[1].data is not None and caught[1].data["payload"]["round"] == 1
        assert "payload" not in (caught[0].data or {})  # a seating notice names nothing
        again.close()

        up_to_date = open_stream(server, f"/t/{tournament.slug}/live", {"Last-Event-ID": str(current)})
        assert up_to_date.next(comments=True).comment == "live"
        assert up_to_date.next(comments=True).comment == "heartbeat"  # nothing missed, kept alive
        up_to_date.close()

        # Redis forgot the tournament (or the browser's number is nonsense): everything, afresh.
        ahead = open_stream(server, f"/t/{tournament.slug}/live", {"Last-Event-ID": str(current + 1000)})
        assert [ahead.next().kind for _ in live.KINDS] == list(live.KINDS)
        ahead.close()


def test_beyond_the_connection_cap_a_stream_is_refused_with_retry_after(tournament: Tournament) -> None:
    with running_server({"LIVE_MAX_CONNECTIONS": "2", "LIVE_MAX_PER_ADDRESS": "2"}) as server:
        path = f"/t/{tournament.slug}/live"
        first, second = open_stream(server, path), open_stream(server, path)
        assert first.status == second.status == 200
        first.next()
        second.next()
        status, headers, body = server.get(path)
        assert status == 503 and headers["retry-after"] == "10"
        assert json.loads(body)["errors"][0]["rule"] == "live-connection-limit"
        assert server.get(f"/t/{tournament.slug}/standings/")[0] == 200  # the pages still answer
        first.close()

        def admitted() -> bool:
            attempt = open_stream(server, path)
            attempt.close()
            return attempt.status == 200

        assert wait_for(admitted)  # a closed stream gives its place back
        second.close()


def test_with_redis_unreachable_the_stream_refuses_clearly_and_the_pages_work(tournament: Tournament) -> None:
    nowhere = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    with running_server({"REDIS_URL": nowhere}) as server:
        status, headers, body = server.get(f"/t/{tournament.slug}/live")
        assert status == 503 and headers["retry-after"] == "10"
        error = json.loads(body)["errors"][0]
        assert error["rule"] == "live-redis" and "polls" in error["message"]
        for page in ("standings/", "standings.json", "clock.json", ""):
            assert server.get(f"/t/{tournament.slug}/{page}")[0] == 200


def test_a_stream_ends_when_redis_goes_away(tournament: Tournament) -> None:
    redis = OwnRedis()
    redis.start()
    try:
        with running_server({"REDIS_URL": redis.url}) as server:
            stream = open_stream(server, f"/t/{tournament.slug}/live")
            assert stream.next().kind == "hello"
            redis.stop()
            with pytest.raises(EOFError):  # the browser reconnects, is refused, and polls
                stream.next(timeout=10)
            assert server.get(f"/t/{tournament.slug}/live")[0] == 503
            assert server.get(f"/t/{tournament.slug}/standings/")[0] == 200
    finally:
        redis.stop()


def test_without_a_stream_server_the_endpoint_says_so_and_pages_poll(tournament: Tournament) -> None:
    """Under WSGI (runserver, gunicorn, the test client) no stream is held open: 204, and the browser
    polls. (Asked from a thread of its own: no event loop of another test may run in it.)"""

    def ask() -> int:
        try:
            return Client().get(f"/t/{tournament.slug}/live").status_code
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(ask).result() == 204


def test_a_private_tournament_streams_to_no_stranger(tournament: Tournament, server: Server) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    assert server.get(f"/t/{tournament.slug}/live")[0] == 404


def test_a_tournament_made_private_ends_its_public_streams(tournament: Tournament, server: Server) -> None:
    stream = open_stream(server, f"/t/{tournament.slug}/live")
    assert stream.next().kind == "hello"
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    live.announce(tournament.pk, "standings")
    with pytest.raises(EOFError):  # nothing more reaches a stranger
        stream.next()
    assert server.get(f"/t/{tournament.slug}/live")[0] == 404


def test_one_address_cannot_take_every_stream_and_other_addresses_still_connect(
    tournament: Tournament,
) -> None:
    env = {"LIVE_MAX_PER_ADDRESS": "2", "TRUSTED_PROXY_COUNT": "1"}
    with running_server(env) as server:
        path = f"/t/{tournament.slug}/live"
        mine = [open_stream(server, path, {"X-Forwarded-For": "198.51.100.7"}) for _ in range(2)]
        assert [stream.status for stream in mine] == [200, 200]
        refused = open_stream(server, path, {"X-Forwarded-For": "198.51.100.7"})
        assert refused.status == 503 and refused.headers["retry-after"] == "10"
        assert json.loads(refused.response.read())["errors"][0]["rule"] == "live-address-limit"
        other = open_stream(server, path, {"X-Forwarded-For": "203.0.113.20"})
        assert other.status == 200 and other.next().kind == "hello"
        for stream in [*mine, other]:
            stream.close()


def test_a_stream_whose_writes_wait_is_dropped_once_its_queue_is_full_and_gives_its_place_back() -> None:
    """A browser that stops reading: once the socket's buffers are full, the write of its stream waits
    (as Django's ASGI handler awaits the server's send); the events meant for it fill its queue, and the
    next one drops it: the task writing it is cancelled, the stream ends and its place (the process's and
    its address's) is free. Driven here as the handler drives a stream, with a write that never ends."""

    async def scenario() -> None:
        hub = live_views.Hub(settings.REDIS_URL)
        stream = live_views.Stream(1, True, "10.3.0.1")
        hub.add(stream)
        assert (hub.count, hub.held_by("10.3.0.1")) == (1, 1)
        writing = asyncio.Event()

        async def handler() -> None:  # as django.core.handlers.asgi's send_response
            async with aclosing(live_views.events(hub, stream, [b"hello"])) as content:
                async for _part in content:
                    writing.set()
                    await asyncio.Event().wait()  # the network takes nothing more

        task = asyncio.create_task(handler())
        await asyncio.wait_for(writing.wait(), 10)
        for version in range(1, live_views.QUEUE_LENGTH + 1):
            stream.offer(version, b"event")
        assert not task.done()  # a full queue, not yet a drop
        stream.offer(live_views.QUEUE_LENGTH + 1, b"event")
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)
        assert (hub.count, hub.by_address) == (0, {})

    run_in_a_thread(scenario())


def run_in_a_thread(scenario: Coroutine[Any, Any, None]) -> None:
    """Run ``scenario`` in an event loop of its own thread: a browser test before this one may have left
    an event loop in this thread."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(scenario)
        except BaseException as error:
            failed.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    assert not thread.is_alive()
    if failed:
        raise failed[0]


@override_settings(LIVE_WRITE_SECONDS=0.3)
def test_a_stream_whose_write_waits_too_long_is_dropped_though_its_queue_never_fills() -> None:
    """A reader that stopped reading on a quiet tournament: its write waits (the socket's buffers are
    full), and the heartbeats alone would take 32 beats to fill its queue. The heartbeat after the write
    has waited ``LIVE_WRITE_SECONDS`` drops it; a stream whose writes go through stays. Driven as the
    handler drives a stream (beats every 0.1 s: a queue overflow would take 3.3 s)."""

    async def scenario() -> None:
        hub = live_views.Hub(settings.REDIS_URL)
        stalled = live_views.Stream(1, True, "10.3.0.1")
        reading = live_views.Stream(1, True, "10.3.0.2")
        hub.add(stalled)
        hub.add(reading)
        writing = asyncio.Event()
        beats = 0

        async def never_taken() -> None:  # as django.core.handlers.asgi's send_response, the send waiting
            async with aclosing(live_views.events(hub, stalled, [b"hello"])) as content:
                async for _part in content:
                    writing.set()
                    await asyncio.Event().wait()

        async def taken() -> None:  # each send done at once
            nonlocal beats
            async with aclosing(live_views.events(hub, reading, [b"hello"])) as content:
                async for part in content:
                    beats += part == live_views.HEARTBEAT
                    await asyncio.sleep(0)

        stuck, going = asyncio.create_task(never_taken()), asyncio.create_task(taken())
        await asyncio.wait_for(writing.wait(), 10)
        heartbeat = asyncio.create_task(hub._heartbeat(0.1))
        try:
            with pytest.raises(asyncio.CancelledError):
                await asyncio.wait_for(stuck, 2.0)
            assert stalled.queue.qsize() < live_views.QUEUE_LENGTH  # not an overflow: the write's wait
            assert (hub.count, hub.held_by("10.3.0.1"), hub.held_by("10.3.0.2")) == (1, 0, 1)
            await asyncio.sleep(0.5)
            assert not going.done() and beats >= 5  # the reader's stream goes on, its heartbeats written
        finally:
            heartbeat.cancel()
            going.cancel()
            with suppress(asyncio.CancelledError):
                await going

    run_in_a_thread(scenario())


def test_at_capacity_a_reader_from_a_new_address_takes_the_place_of_the_address_holding_the_most(
    tournament: Tournament,
) -> None:
    """Streams that never read, spread over four addresses (each under the per-address cap), take every
    place of the process while notices go out: the kernel's buffers take them, so none is ever found
    slow. A reader from a new address still gets a stream, in the place of the oldest stream of the
    address holding the most; an address takes a place only from one holding at least two more than it,
    so the holders cannot push the new readers out again."""
    env = {"LIVE_MAX_CONNECTIONS": "8", "LIVE_MAX_PER_ADDRESS": "4", "LIVE_HEARTBEAT_SECONDS": "0.5"}
    with running_server(env) as server:
        path = f"/t/{tournament.slug}/live"
        holders = [never_reading_stream(server, path, f"127.0.0.{10 + number % 4}") for number in range(8)]
        try:
            for _ in range(60):  # the notices of a busy hall, which the buffers absorb
                live.announce(tournament.pk, "seating")
                time.sleep(0.02)
            holding = open_stream(server, path, source="127.0.0.10")  # holds 2, as many as any
            assert holding.status == 503 and holding.headers["retry-after"] == "10"
            assert json.loads(holding.response.read())["errors"][0]["rule"] == "live-connection-limit"
            holding.close()

            newcomer = open_stream(server, path, source="127.0.0.50")
            assert newcomer.status == 200 and newcomer.next().kind == "hello"
            assert closed_by_server(holders[0])  # the oldest of 127.0.0.10, all four holding 2
            second = open_stream(server, path, source="127.0.0.51")
            assert second.status == 200 and second.next().kind == "hello"
            assert closed_by_server(holders[1])  # the oldest of those still holding 2: 127.0.0.11's

            for address in ("127.0.0.12", "127.0.0.50"):  # 2 and 1, where the most is 2: nobody gives way
                refused = open_stream(server, path, source=address)
                assert refused.status == 503
                assert json.loads(refused.response.read())["errors"][0]["rule"] == "live-connection-limit"
                refused.close()
            assert not any(closed_by_server(holder, timeout=0.2) for holder in holders[2:])

            version = live.announce(tournament.pk, "seating")
            for reader in (newcomer, second):
                event = reader.next()
                assert (event.kind, int(event.id or 0)) == ("seating", version)
                reader.close()
        finally:
            for holder in holders:
                holder.close()
