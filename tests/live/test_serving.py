"""The production command serves the ASGI application: the Procfile's ``web`` line, run as honcho runs
it (a shell), answers pages and live streams; and DATABASE_POOL shares PostgreSQL connections."""

from __future__ import annotations

import json
import os
import subprocess
import sys

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
    assert pooled == {"max_age": 0, "pool": {"min_size": 1, "max_size": 3, "timeout": 5.0}}


def web_command() -> str:
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    return line.removeprefix("web:").strip()


@pytest.mark.django_db(transaction=True)
def test_the_procfile_web_line_serves_pages_and_live_streams(tournament: Tournament) -> None:
    if not settings.REDIS_URL:
        pytest.fail("needs REDIS_URL and PostgreSQL: run it with `make test`")
    assert "uvicorn config.asgi:application" in web_command()
    port = free_port()
    env = {
        **os.environ,
        "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}",
        "DATABASE_URL": database_url_of_test_database(),
        "REDIS_URL": settings.REDIS_URL,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
    }
    # As honcho runs it: a shell, which runs uvicorn in its place; uvicorn's own processes end with it.
    process = processes.start(["sh", "-c", web_command()], env=env)
    server = Server(port, process)
    try:
        wait_until_serving(server)
        assert server.get(f"/t/{tournament.slug}/standings/")[0] == 200
        stream = open_stream(server, f"/t/{tournament.slug}/live")
        assert stream.status == 200 and stream.next().kind == "hello"
        stream.close()
    finally:
        processes.stop(process, grace=15)
