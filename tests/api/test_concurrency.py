"""Two referees submit the same table at the same moment, over real HTTP, on PostgreSQL: one sheet.

The live server answers each request in its own thread with its own database connection; the two
submissions start together (a barrier) and the database's one-sheet-per-table constraint decides.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token

from scoring.models import ScoreSheet, SheetVersion
from tests.conftest import make_user
from tests.scoring import hanchan


def post(url: str, token: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as refused:
        return refused.code, json.load(refused)


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_submissions_one_201_one_409_one_sheet(live_server: Any, seated_table: Any) -> None:
    assert connection.vendor == "postgresql", "this test needs PostgreSQL's row locks and unique indexes"
    tournament = seated_table.round.tournament
    tokens = [
        Token.objects.create(user=make_user(name, tournament, "referee")).key for name in ("first", "second")
    ]
    url = f"{live_server.url}/api/tables/{seated_table.pk}/sheet/"
    barrier = threading.Barrier(2)
    answers: list[tuple[int, dict[str, Any]]] = []

    def submit(token: str, form: str) -> None:
        barrier.wait()
        answers.append(post(url, token, {"entry": hanchan.entry(form), "submit": True}))

    threads = [
        threading.Thread(target=submit, args=(token, form))
        for token, form in zip(tokens, ("final", "deltas"), strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert sorted(status for status, _ in answers) == [201, 409]
    conflict = next(body for status, body in answers if status == 409)
    assert [(e["field"], e["rule"]) for e in conflict["errors"]] == [("table", "one-sheet-per-table")]
    assert "already has a score sheet" in conflict["errors"][0]["message"]
    assert ScoreSheet.objects.count() == 1
    assert SheetVersion.objects.count() == 1
