"""A Redis server that a test starts, stops, freezes and thaws itself (never the machine's shared one).

``redis-server --port <free port> --save "" --appendonly no``: nothing written to disk; a restart starts
empty. ``freeze`` (SIGSTOP) makes it hang with its data, as a network partition would; ``thaw`` (SIGCONT)
brings it back with every key it held.
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

import pytest


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
    def __init__(self, port: int) -> None:
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed (scripts/ensure-services.sh installs it)")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 10
        while not answers(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"redis-server on port {self.port} did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                os.kill(self.process.pid, signal.SIGCONT)  # a frozen server cannot act on SIGTERM
                self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def freeze(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGCONT)


@contextmanager
def own_redis() -> Iterator[OwnRedis]:
    server = OwnRedis(free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()
