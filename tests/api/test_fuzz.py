"""A fuzz run over the API's own OpenAPI schema: no request, however malformed, answers 5xx, and every 4xx
is in the one error format, ``{"errors": [{"field", "rule", "message"}]}``.

schemathesis generates the requests from ``/api/schema/`` (valid ones and, as often, ones that break the
schema); each is sent in process through Django's test client, so it runs against the test database
inside the test's transaction. Path parameters are pointed at the objects of the ``world`` fixture, or
every request would stop at a 404. Bounded: a few examples per operation and role, no shrinking.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections import Counter
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, seed, settings
from rest_framework.test import APIClient
from schemathesis import GenerationMode

from tests.api.conftest import World

# Examples per operation and generation mode (valid, invalid): the organiser's changes reach the services,
# so most go there; an anonymous caller mostly meets the 401.
WRITES = ("post", "put", "patch", "delete")


# FUZZ_SCALE=10 (say) for a longer exploratory run outside the suite.
SCALE = int(os.environ.get("FUZZ_SCALE", "1"))


def examples(role: str, method: str) -> int:
    if role == "anonymous":
        return SCALE
    return (6 if method in WRITES else 2) * SCALE


BASE = "http://testserver"


def object_ids(world: World, path: str) -> dict[str, list[Any]]:
    """Real ids for the path's parameters (and a missing one now and then)."""
    ids = world.ids
    by_resource = {
        "players": [ids["ana"], ids["sub1"]],
        "staff": [ids["referee_role"]],
        "rounds": [1, 2],
        "seating-jobs": [ids["job"]],
        "penalties": [ids["penalty"]],
        "disqualifications": [1],
        "exports": [ids["export"]],
        "exporters": [1],
        "tables": [ids["t1"], ids["t2"], ids["t3"]],
        "tournaments": [ids["t"], ids["private"]],
        "signups": [ids["signup_sara"], ids["signup_ava"], ids["signup_wes"]],
    }
    resource = next((name for name in by_resource if f"/{name}/{{" in path), "tournaments")
    return {
        "tournament_pk": [ids["t"], ids["t"], ids["private"]],
        "table_pk": [ids["t1"], ids["t2"], ids["t3"]],
        "id": by_resource[resource],
        "number": by_resource[resource],
        "token": [world.links[name] for name in ("sara_me", "wes_me", "uma_confirm")],  # sign-ups' links
    }


def send(client: APIClient, case: Any) -> Any:
    """The generated request, serialized as schemathesis would send it, through the test client."""
    kwargs = case.as_transport_kwargs(base_url=BASE)
    prepared = requests.Request(
        method=kwargs["method"],
        url=kwargs["url"],
        headers={k: v for k, v in (kwargs.get("headers") or {}).items() if k.lower() != "authorization"},
        params=kwargs.get("params"),
        data=kwargs.get("data"),
        json=kwargs.get("json"),
        files=kwargs.get("files"),
        cookies=kwargs.get("cookies"),
    ).prepare()
    path = prepared.path_url
    body = prepared.body or b""
    content_type = prepared.headers.get("Content-Type", "application/octet-stream")
    return client.generic(prepared.method, path, data=body, content_type=content_type)


def problem(response: Any) -> str | None:
    """What is wrong with a response: a 5xx, or a 4xx outside the one error format."""
    if response.status_code >= 500:
        return f"{response.status_code}"
    if 400 <= response.status_code < 500 and response.status_code != 405:
        try:
            body = json.loads(response.content)
        except ValueError:
            return f"{response.status_code} not JSON"
        errors = body.get("errors") if isinstance(body, dict) else None
        if not errors or not all({"field", "rule", "message"} <= set(error) for error in errors):
            return f"{response.status_code} outside the error format: {body!r:.200}"
    return None


@pytest.fixture(scope="module")
def operations(django_db_blocker: Any) -> list[Any]:
    """The API's operations, from its own schema (generated once for the module's tests)."""
    with django_db_blocker.unblock():
        document = APIClient().get("/api/schema/", {"format": "json"}).json()
    schema = schemathesis.openapi.from_dict(document)
    return [result.ok() for result in schema.get_all_operations()]


# One test per caller and kind of request (valid, or breaking the schema): parallel workers share them.
@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.parametrize("mode", list(GenerationMode), ids=lambda mode: mode.value)
@pytest.mark.parametrize("role", ["organiser", "anonymous"])
def test_no_request_from_the_schema_answers_5xx(
    world: World, operations: list[Any], role: str, mode: GenerationMode
) -> None:
    client = world.client(role)
    rng = random.Random(f"16/{role}/{mode.value}")
    found: dict[str, str] = {}
    statuses: Counter[int] = Counter()
    started = time.monotonic()

    def fuzz(operation: Any) -> None:
        ids = object_ids(world, operation.path)

        @seed(16)
        @settings(
            max_examples=examples(role, operation.method.lower()),
            deadline=None,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy(generation_mode=mode))
        def run(case: Any) -> None:
            for name in case.path_parameters or {}:
                if name in ids and rng.random() < 0.9:
                    case.path_parameters[name] = rng.choice(ids[name])
            response = send(client, case)
            statuses[response.status_code] += 1
            why = problem(response)
            if why is not None:
                key = f"{operation.method.upper()} {operation.path} ({role}): {why}"
                found.setdefault(key, case.as_curl_command()[:400])

        run()

    for operation in operations:
        fuzz(operation)

    elapsed = time.monotonic() - started
    total = sum(statuses.values())
    print(f"\nfuzz: {total} requests over {len(operations)} operations in {elapsed:.1f} s: {dict(statuses)}")
    assert total >= len(operations)
    assert not found, "\n".join(f"{key}\n    {curl}" for key, curl in found.items())
