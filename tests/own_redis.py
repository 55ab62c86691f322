"""Faults a test (or a benchmark) causes on services it starts itself, never on the machine's shared ones.

``OwnRedis`` is a ``redis-server --port <free port> --save "" --appendonly no``: nothing written to disk; a
restart starts empty. ``stop`` and ``start`` take it away and bring it back; ``freeze`` (SIGSTOP) makes it
hang with its data, as a network partition would, and ``thaw`` (SIGCONT) brings it back with every key it
held. ``broker_at`` points this process's Celery app at such a server for a while.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from config.celery import app as celery_app
from tests import processes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class OwnRedis:
    """A throwaway Redis on ``port`` (a free one by default), its output to ``log`` when given."""

    def __init__(self, port: int | None = None, log: Path | None = None) -> None:
        self.port = port if port is not None else free_port()
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed (scripts/ensure-services.sh installs it)")
        command = [
            binary,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ]
        if self.log is not None:
            with self.log.open("a") as output:
                self.process = processes.start(command, output=output)
        else:
            self.process = processes.start(command)
        deadline = time.monotonic() + 10
        while not answers(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(
                    f"redis-server on port {self.port} did not start"
                    + (f"; see {self.log}" if self.log else "")
                )
            time.sleep(0.02)

    def stop(self) -> None:
        if self.process is not None:
            processes.stop(self.process)
            self.process = None

    def freeze(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGCONT)


@contextmanager
def own_redis(log: Path | None = None) -> Iterator[OwnRedis]:
    server = OwnRedis(log=log)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _forget_connections() -> None:
    # Forgotten, not closed: kombu keeps one pool per broker URL for the whole process, and the app's own
    # broker's pool is used again afterwards.
    celery_app._pool = None
    if "amqp" in celery_app.__dict__:
        celery_app.amqp._producer_pool = None


@contextmanager
def broker_at(url: str) -> Iterator[None]:
    """This process sends tasks (and control commands) through the broker at ``url`` meanwhile."""
    previous = celery_app.conf.broker_url
    celery_app.conf.broker_url = url
    _forget_connections()
    try:
        yield
    finally:
        celery_app.conf.broker_url = previous
        _forget_connections()
