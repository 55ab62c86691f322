"""The processes a test run starts, and how none of them outlives it.

Every server or worker a test starts (a Celery worker, a web server, a Redis of its own) is started by
``start``: in a process group of its own, so that ``stop`` ends it with everything it started, and with a
parent-death signal (``setpriv --pdeathsig``, util-linux), so that the kernel ends it if the pytest process
that started it goes away without a word (killed, timed out, its ``make`` killed). The pytest processes
themselves (the main one and each pytest-xdist worker) take the same signal from their own parent
(``die_with_parent``) and turn SIGTERM into an interruption, so that their fixtures' teardown still runs.

Logs go under ``tests/artifacts/``, named after the pytest-xdist worker that wrote them (``artifact``).
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
from collections.abc import Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"
SETPRIV = shutil.which("setpriv")
PR_SET_PDEATHSIG = 1


def worker_name() -> str:
    """This process's pytest-xdist worker ("gw0", "gw1", ...), or "main" when the run is not parallel."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def artifact(name: str) -> Path:
    """``tests/artifacts/<name>`` with this worker's name before the suffix (celery-worker.gw0.log)."""
    path = ARTIFACTS / name
    path = path.with_name(f"{path.stem}.{worker_name()}{path.suffix}")
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def start(
    command: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    output: IO[Any] | int | None = subprocess.DEVNULL,
    cwd: Path = ROOT,
    death_signal: str = "TERM",
) -> subprocess.Popen[bytes]:
    """``command`` in a new session (its own process group), sent SIG``death_signal`` by the kernel if
    this process ends first."""
    prefix = [SETPRIV, "--pdeathsig", death_signal, "--"] if SETPRIV else []
    return subprocess.Popen(
        [*prefix, *command],
        cwd=cwd,
        env=dict(env) if env is not None else None,
        stdout=output,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def stop(process: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """SIGTERM to the process's group, SIGKILL after ``grace`` seconds; a group gone already is only
    waited for."""
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGCONT)  # a stopped process cannot act on SIGTERM
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"stopped by signal {signum}")


def die_with_parent() -> None:
    """This pytest process is sent SIGTERM when its parent ends (``make``, or the main pytest process of a
    parallel run), and SIGTERM interrupts it like Ctrl-C: the session's teardown runs (test databases
    dropped, workers and servers stopped)."""
    signal.signal(signal.SIGTERM, _interrupt)
    with suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
