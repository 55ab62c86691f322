"""The production command serves the ASGI application: the Procfile's ``web`` and ``live`` lines, run as
honcho runs them (a shell), answer pages and live streams, the live tier at its lower CPU priority; and
DATABASE_POOL shares PostgreSQL connections."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests import processes
from tests.asgi_server import Server, open_stream, wait_until_serving
from tests.conftest import ROOT, database_url_of_test_database
from tests.own_redis import free_port
from tournament.models import Tournament

POOL_PROBE = """
import json
import django
django.setup()
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({"max_age": db["CONN_MAX_AGE"], "pool": db.get("OPTIONS", {}).get("pool")}))
"""


def pool_settings(**env: str) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", POOL_PROBE],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_database_pool_replaces_connections_kept_per_thread() -> None:
    url = "postgres://postgres@127.0.0.1:5432/postgres"
    assert pool_settings(DATABASE_URL=url, DATABASE_POOL="0") == {"max_age": 60, "pool": None}
    pooled = pool_settings(DATABASE_URL=url, DATABASE_POOL="1", DATABASE_POOL_SIZE="3")
    # The pool's own retries end after DATABASE_RETRY_SECONDS: the requests' attempts take over
    # (config.postgresql).
    pool = {"min_size": 1, "max_size": 3, "timeout": 5.0, "reconnect_timeout": 2.0}
    assert pooled == {"max_age": 0, "pool": pool}


def procfile_command(kind: str) -> str:
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith(f"{kind}:"))
    return line.removeprefix(f"{kind}:").strip()


def server_nice_values(pid: int) -> set[int]:
    """The nice values of the server's processes under the shell ``pid`` (uvicorn and its workers)."""
    found, todo = set(), [pid]
    while todo:
        each = todo.pop()
        with contextlib.suppress(OSError):
            if Path(f"/proc/{each}/cmdline").read_bytes().split(b"\0")[0] not in (b"sh", b"/bin/sh"):
                found.add(int(Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()[16]))
            for task in Path(f"/proc/{each}/task").iterdir():
                todo += [int(child) for child in (task / "children").read_text().split()]
    return found


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("kind", "nice"), [("web", 0), ("live", 10)])
def test_the_procfile_web_and_live_lines_serve_pages_and_live_streams(
    tournament: Tournament, kind: str, nice: int
) -> None:
    if not settings.REDIS_URL:
        pytest.fail("needs REDIS_URL and PostgreSQL: run it with `make test`")
    assert "uvicorn config.asgi:application" in procfile_command(kind)
    port = free_port()
    env = {
        **os.environ,
        "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}",
        "DATABASE_URL": database_url_of_test_database(),
        "REDIS_URL": settings.REDIS_URL,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
        "LIVE_CONCURRENCY": "2",
    }
    # As honcho runs it: a shell, which runs uvicorn in its place; uvicorn's own processes end with it.
    process = processes.start(["sh", "-c", procfile_command(kind)], env=env)
    server = Server(port, process)
    try:
        wait_until_serving(server)
        assert server.get(f"/t/{tournament.slug}/standings/")[0] == 200
        stream = open_stream(server, f"/t/{tournament.slug}/live")
        assert stream.status == 200 and stream.next().kind == "hello"
        stream.close()
        assert server_nice_values(process.pid) == {nice}  # the live tier yields the CPU to the pages
    finally:
        processes.stop(process, grace=15)
