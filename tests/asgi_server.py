"""Real ASGI servers (uvicorn, as in production) on free ports against the test database and Redis, and
a small Server-Sent Events client that reads their streams (the live stream tests and the browser's)."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from tests import processes
from tests.conftest import database_url_of_test_database
from tests.own_redis import free_port
from tests.processes import artifact


@dataclass
class Event:
    id: str | None
    kind: str | None
    data: dict[str, Any] | None
    comment: str | None = None


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request("GET", path, headers=headers or {})
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            connection.close()

    def post(self, path: str, body: dict[str, Any], token: str) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            connection.request(
                "POST",
                path,
                body=json.dumps(body),
                headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
            )
            response = connection.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            connection.close()


@dataclass
class Stream:
    """An open ``text/event-stream`` response, read event by event."""

    connection: http.client.HTTPConnection
    response: http.client.HTTPResponse
    status: int
    headers: dict[str, str] = field(default_factory=dict)

    def next(self, timeout: float = 5.0, *, comments: bool = False) -> Event:
        """The next event (or, with ``comments``, the next comment), within ``timeout`` seconds."""
        assert self.connection.sock is not None
        deadline = time.monotonic() + timeout
        fields: dict[str, str] = {}
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no event in time")
            self.connection.sock.settimeout(left)
            line = self.response.readline()
            if not line:
                raise EOFError("the server closed the stream")
            text = line.decode().rstrip("\n")
            if text.startswith(":"):
                if comments:
                    return Event(None, None, None, comment=text[1:].strip())
                continue
            if text == "":
                if "event" in fields or "data" in fields:
                    data = json.loads(fields["data"]) if "data" in fields else None
                    return Event(fields.get("id"), fields.get("event"), data)
                fields = {}
                continue
            name, _, value = text.partition(":")
            fields[name] = value.removeprefix(" ")

    def until(self, wanted: Callable[[Event], bool], timeout: float = 5.0) -> list[Event]:
        """Every event up to and including the first ``wanted`` one, within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            seen.append(self.next(max(0.01, deadline - time.monotonic())))
            if wanted(seen[-1]):
                return seen

    def drain(self, seconds: float) -> list[Event]:
        """Every event that comes within ``seconds``."""
        deadline = time.monotonic() + seconds
        seen = []
        while (left := deadline - time.monotonic()) > 0:
            try:
                seen.append(self.next(left))
            except TimeoutError:
                break
        return seen

    def close(self) -> None:
        self.connection.close()


def open_stream(
    server: Server, path: str, headers: dict[str, str] | None = None, source: str | None = None
) -> Stream:
    """A stream read as a browser reads it; from the loopback address ``source`` (127.0.0.2, ...: a
    client address of its own, as the server sees it) when given."""
    bound = (source, 0) if source else None
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=bound)
    connection.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
    response = connection.getresponse()
    return Stream(connection, response, response.status, {k.lower(): v for k, v in response.getheaders()})


def never_reading_stream(server: Server, path: str, source: str) -> socket.socket:
    """A stream asked for from the loopback address ``source`` whose reader then reads nothing, as a
    phone that stopped or a client that holds places: its answer is only peeked at (the socket's buffer
    stays as full as the server made it) until its status line has come, so it holds a place when this
    returns. Refused (not 200): AssertionError."""
    client = socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(source, 0))
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
    client.sendall(request.encode())
    status = b""
    while len(status) < len(b"HTTP/1.1 200"):
        status = client.recv(64, socket.MSG_PEEK)
        if not status:
            raise AssertionError("the server closed the stream before answering")
        if len(status) < len(b"HTTP/1.1 200"):
            time.sleep(0.01)
    assert status.startswith(b"HTTP/1.1 200"), status
    return client


def closed_by_server(client: socket.socket, timeout: float = 10.0) -> bool:
    """Whether the server ends the stream of ``client`` within ``timeout`` seconds (reading what it sent)."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        client.settimeout(left)
        try:
            if not client.recv(65536):
                return True
        except TimeoutError:
            return False
        except ConnectionResetError:
            return True
    return False


@contextmanager
def running_server(
    env: dict[str, str] | None = None, log_name: str = "live-server.log", workers: int = 1
) -> Iterator[Server]:
    """``uvicorn config.asgi:application`` (``workers`` processes) on a free port, with this session's
    database, Redis and key prefix (``TEST_RUN_ID``), ``env`` added; stopped afterwards."""
    if not settings.REDIS_URL:
        pytest.fail("live stream tests need REDIS_URL and PostgreSQL: run them with `make test`")
    port = free_port()
    environment = {
        **os.environ,
        "DATABASE_URL": database_url_of_test_database(),
        "REDIS_URL": settings.REDIS_URL,
        "DATABASE_POOL": "1",  # as the Procfile serves
        "PYTHONUNBUFFERED": "1",
        **(env or {}),
    }
    log = artifact(log_name)
    command = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port)]
    command += ["--host", "127.0.0.1", "--no-access-log", "--timeout-graceful-shutdown", "1"]
    if workers > 1:
        command += ["--workers", str(workers)]
    with log.open("w") as log_file:
        process = processes.start(command, env=environment, output=log_file)
        server = Server(port, process)
        try:
            wait_until_serving(server, log)
            yield server
        finally:
            processes.stop(process)


def wait_until_serving(server: Server, log: Path | None = None, timeout: float = 30) -> None:
    """Until ``server`` answers ``/healthz`` with 200; fails if its process exits first or it takes longer
    than ``timeout`` seconds."""
    see = f"; see {log}" if log else ""
    deadline = time.monotonic() + timeout
    while True:
        if server.process.poll() is not None:
            pytest.fail(f"the server exited with {server.process.returncode}{see}")
        with suppress(OSError):
            if server.get("/healthz")[0] == 200:
                return
        if time.monotonic() > deadline:
            pytest.fail(f"the server did not answer within {timeout:.0f} s{see}")
        time.sleep(0.05)


def wait_for(check: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()
