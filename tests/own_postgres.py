"""A PostgreSQL server of a test's own, to kill and start again; the machine's shared server is never touched.

``OwnPostgres`` is a cluster made by ``initdb`` in a temporary folder and served by ``postgres`` on a
free loopback port (no Unix socket, trust authentication, nothing synced to disk). PostgreSQL refuses to
run as root, and the tests run as root: the cluster belongs to the ``postgres`` user and its server runs
as that user (``setpriv``, with the parent-death signal set after the change of user, so that the server
still ends with the test's process). ``kill`` is an immediate shutdown (SIGQUIT to the server, what
``pg_ctl stop -m immediate`` sends: every connection is cut at once, nothing is written on the way
out); ``start`` again recovers from it, as after a crash, with every committed row. ``freeze`` and
``thaw`` stop and continue the server (SIGSTOP, SIGCONT): a server that does not answer.
``copy_database`` fills a database of the cluster with a copy of another server's (``pg_dump | psql``).
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import psycopg
import pytest

from tests import processes
from tests.own_redis import free_port

OWNER = "postgres"


def binary(name: str) -> str:
    """A PostgreSQL server program: from ``pg_config --bindir`` (Debian keeps them off the PATH), else
    the PATH."""
    pg_config = shutil.which("pg_config")
    if pg_config:
        bindir = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True).stdout.strip()
        if bindir and (Path(bindir) / name).exists():
            return str(Path(bindir) / name)
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed (scripts/ensure-services.sh installs PostgreSQL)")
    return found


def as_owner(*command: str) -> list[str]:
    return [
        "setpriv",
        f"--reuid={OWNER}",
        f"--regid={OWNER}",
        "--init-groups",
        "--pdeathsig=QUIT",  # after the change of user, which clears an earlier one
        "--",
        *command,
    ]


class OwnPostgres:
    """A throwaway PostgreSQL cluster in ``folder`` (owned by the ``postgres`` user), on a free port."""

    def __init__(self, folder: Path, log: Path) -> None:
        self.folder = folder
        self.data = folder / "data"
        self.log = log
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, name: str = "postgres") -> str:
        return f"postgres://{OWNER}@127.0.0.1:{self.port}/{name}"

    def init(self) -> None:
        owner = pwd.getpwnam(OWNER)
        os.chown(self.folder, owner.pw_uid, owner.pw_gid)
        command = [binary("initdb"), "-D", str(self.data), "-U", OWNER, "--auth=trust", "-E", "UTF8"]
        done = subprocess.run(as_owner(*command, "--no-sync", "--no-instructions"), capture_output=True)
        if done.returncode != 0:
            pytest.fail(f"initdb failed: {done.stderr.decode()}")

    def start(self) -> None:
        command = [binary("postgres"), "-D", str(self.data), "-p", str(self.port)]
        settings = {
            "listen_addresses": "127.0.0.1",
            "unix_socket_directories": "",
            "fsync": "off",
            "synchronous_commit": "off",
            "full_page_writes": "off",
            "shared_buffers": "32MB",
        }
        for name, value in settings.items():
            command += ["-c", f"{name}={value}"]
        with self.log.open("a") as output:
            self.process = processes.start(as_owner(*command), output=output, death_signal="QUIT")
        deadline = time.monotonic() + 30
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"PostgreSQL on port {self.port} did not start; see {self.log}")
            time.sleep(0.05)

    def answers(self) -> bool:
        try:
            with psycopg.connect(self.url(), connect_timeout=2):
                return True
        except psycopg.OperationalError:
            return False

    def kill(self) -> None:
        """An immediate shutdown: every connection cut, the server gone until ``start``."""
        self._signal(signal.SIGQUIT)

    def stop(self) -> None:
        """A fast shutdown (SIGINT): open connections are ended, not waited for."""
        self._signal(signal.SIGINT)

    def freeze(self) -> None:
        """The server stopped (SIGSTOP) without a word: a new connection hangs until its timeout, as
        across a network partition; the connections already open still answer."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGCONT)

    def _signal(self, signum: int) -> None:
        if self.process is None:
            return
        with suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGCONT)  # a stopped server cannot act on the signal
            os.kill(self.process.pid, signum)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            processes.stop(self.process, grace=0)
        self.process = None

    def copy_database(self, source_url: str, name: str) -> None:
        """Database ``name`` of this cluster, made a copy of the database at ``source_url``."""
        with psycopg.connect(self.url(), autocommit=True) as server:
            server.execute(f'CREATE DATABASE "{name}"')
        dump = subprocess.Popen(
            [binary("pg_dump"), "--no-owner", "--no-privileges", source_url], stdout=subprocess.PIPE
        )
        restore = subprocess.run(
            [binary("psql"), "-q", "-v", "ON_ERROR_STOP=1", self.url(name)],
            stdin=dump.stdout,
            capture_output=True,
        )
        assert dump.stdout is not None
        dump.stdout.close()
        if dump.wait() != 0 or restore.returncode != 0:
            pytest.fail(f"copying the database failed: {restore.stderr.decode()}")


@contextmanager
def own_postgres() -> Iterator[OwnPostgres]:
    """A cluster made and started for the test, stopped and deleted afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="own-postgres-"))
    server = OwnPostgres(folder, processes.artifact("own-postgres.log"))
    try:
        server.init()
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
