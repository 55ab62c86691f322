"""Faults a test (or a benchmark) causes on services it starts itself, never on the machine's shared ones.

``OwnRedis`` is a ``redis-server`` on a free port of this machine, which the caller stops and starts again
at will; ``broker_at`` points this process's Celery app at it for a while.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

from config.celery import app as celery_app


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class OwnRedis:
    """A throwaway Redis (no persistence) on a free port: ``start``, ``stop``, and ``url``."""

    def __init__(self, log: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        server = shutil.which("redis-server") or "redis-server"
        command = [
            server,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ]
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with self.log.open("a") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 10
        while True:
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(
                        f"redis-server on port {self.port} did not start; see {self.log}"
                    ) from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


@contextmanager
def own_redis(log: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(log)
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
