"""The ASGI application: every page and the API as under WSGI, and the live streams
(``tournament.views.live``), which hold a connection open without holding a worker. Production serves it
with uvicorn (the ``web`` line of the ``Procfile``).

Django runs each request's synchronous code (the middleware, the views) on a thread of the request's own.
Left to itself, asgiref starts a new thread for every request and joins it at the end, in the event
loop's process: under a registration opening's rush (py-spy, four web processes) about an eighth of a web
process's samples were spent starting threads and handing them their work, with every other request of
that process waiting meanwhile, and about a fourteenth more building again, on each new thread, what
Celery and Redis keep per thread (the result backend, its connections, package version look-ups).
``RequestThreads`` lends each request a thread kept from an earlier one instead, as a WSGI server's
thread pool does; Django already leaves a thread clean for the next request (its connections are given
back, its language and time zone set anew by each request's middleware).
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
Application = Callable[[Scope, Receive, Send], Awaitable[None]]

# Threads kept for the next requests, each process: beyond it (after a burst, or when a thousand live
# streams close), a thread is let go, without waiting for it in the event loop.
KEPT_THREADS = int(os.environ.get("ASGI_KEPT_THREADS", "32"))


class RequestThreads:
    """``application`` with each HTTP request's synchronous code on one thread, lent for the request and
    kept for a later one (``ThreadSensitiveContext(executor=...)``: asgiref's own way to choose the thread;
    Django's per-request context inside it then takes this one)."""

    def __init__(self, application: Application, kept: int = KEPT_THREADS) -> None:
        self.application = application
        self.kept = kept
        self.idle: list[ThreadPoolExecutor] = []  # touched by the event loop's thread only

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.application(scope, receive, send)
            return
        executor = self.idle.pop() if self.idle else ThreadPoolExecutor(1, thread_name_prefix="request")
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.application(scope, receive, send)
        finally:
            # A request cut short (its client gone) may leave its view running on the thread: the next
            # request given this thread starts once it is done, as on a WSGI server's thread.
            if len(self.idle) < self.kept:
                self.idle.append(executor)
            else:
                executor.shutdown(wait=False)


application = RequestThreads(get_asgi_application())
