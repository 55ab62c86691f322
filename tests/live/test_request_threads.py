"""``config.asgi.RequestThreads``: each HTTP request's synchronous code runs on one thread lent for the
request and kept for a later one, instead of a thread started and joined per request."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from config.asgi import RequestThreads

HTTP = {"type": "http", "path": "/"}


class ThreadsSeen:
    """An ASGI application that runs two pieces of synchronous code per request, as Django's middleware
    and view do, and notes the threads they ran on; ``hold`` keeps requests open until set."""

    def __init__(self) -> None:
        self.threads: list[tuple[int, int]] = []
        self.hold: asyncio.Event | None = None
        self.entered = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        first = await sync_to_async(threading.get_ident)()
        self.entered += 1
        if self.hold is not None:
            await self.hold.wait()
        if scope.get("path") == "/fails":
            raise RuntimeError("the view failed")
        second = await sync_to_async(threading.get_ident)()
        self.threads.append((first, second))


async def nothing() -> dict[str, Any]:
    return {}


async def ignore(message: Any) -> None:
    return None


async def three_at_once(app: ThreadsSeen, served: RequestThreads) -> None:
    """Three requests held open together until all three have started."""
    app.hold = asyncio.Event()
    tasks = [asyncio.create_task(served(HTTP, nothing, ignore)) for _ in range(3)]
    while app.entered < 3:
        await asyncio.sleep(0.01)
    app.hold.set()
    await asyncio.gather(*tasks)


def test_requests_one_after_another_share_one_kept_thread() -> None:
    app = ThreadsSeen()
    served = RequestThreads(app, kept=4)

    async def three() -> None:
        for _ in range(3):
            await served(HTTP, nothing, ignore)

    asyncio.run(three())
    threads = {thread for pair in app.threads for thread in pair}
    assert len(app.threads) == 3
    assert len(threads) == 1
    assert threads != {threading.get_ident()}
    assert len(served.idle) == 1


def test_requests_at_once_each_have_their_own_thread() -> None:
    app = ThreadsSeen()
    served = RequestThreads(app, kept=4)

    asyncio.run(three_at_once(app, served))
    # Within a request, one thread throughout; between requests held open together, three threads.
    assert all(first == second for first, second in app.threads)
    assert len({first for first, _ in app.threads}) == 3
    assert len(served.idle) == 3


def test_threads_beyond_those_kept_end_with_their_request() -> None:
    app = ThreadsSeen()
    served = RequestThreads(app, kept=1)

    asyncio.run(three_at_once(app, served))
    assert len(served.idle) == 1
    used = {first for first, _ in app.threads}
    assert len(used) == 3

    def alive() -> set[int]:
        return {thread.ident for thread in threading.enumerate() if thread.ident in used}  # type: ignore[misc]

    for _ in range(250):  # the two let go end on their own, without being waited for
        if len(alive()) == 1:
            break
        threading.Event().wait(0.02)
    assert len(alive()) == 1


def test_a_failed_request_gives_its_thread_back() -> None:
    app = ThreadsSeen()
    served = RequestThreads(app, kept=4)

    async def failing_then_good() -> None:
        with pytest.raises(RuntimeError, match="the view failed"):
            await served({"type": "http", "path": "/fails"}, nothing, ignore)
        await served(HTTP, nothing, ignore)

    asyncio.run(failing_then_good())
    assert len(served.idle) == 1
    assert len(app.threads) == 1


def test_other_scopes_pass_through_without_a_thread() -> None:
    seen: list[str] = []

    async def lifespan_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    served = RequestThreads(lifespan_app, kept=4)
    asyncio.run(served({"type": "lifespan"}, nothing, ignore))
    assert seen == ["lifespan"]
    assert served.idle == []
