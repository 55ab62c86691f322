"""Two real ASGI servers for the live stream tests (``tests.asgi_server``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.asgi_server import Server, running_server


@pytest.fixture
def server(transactional_db: None) -> Iterator[Server]:
    with running_server(log_name="live-server-a.log") as started:
        yield started


@pytest.fixture
def other_server(transactional_db: None) -> Iterator[Server]:
    with running_server(log_name="live-server-b.log") as started:
        yield started
