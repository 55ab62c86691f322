"""Several referees submit the same table at the same moment on the SQLite default: run by
``test_sqlite.py`` in a fresh interpreter with no ``DATABASE_URL`` and ``SQLITE_PATH`` set to a new file.

It migrates that file, seats one table, then submits its sheet from as many threads as the first argument
says, at once, through the REST API (each thread its own connection, as the threads of a web server), and
prints as JSON the status codes, the refusals' rules, any error text, and how many sheets and versions
were stored.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402


def main(threads: int) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from scoring.models import ScoreSheet, SheetVersion
    from tests.scoring import hanchan
    from tournament.models import Player, Round, Seat, StaffRole, Table, Tournament

    assert connection.vendor == "sqlite", connection.vendor
    call_command("migrate", verbosity=0)
    tournament = Tournament.objects.create(
        name="SQLite Open",
        slug="sqlite-open",
        starts_on=date(2026, 5, 1),
        ends_on=date(2026, 5, 1),
        hanchan_count=1,
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    table = Table.objects.create(round=round_, number=1)
    for wind, name in enumerate(("Ana", "Ben", "Cho", "Dai")):
        player = Player.objects.create(tournament=tournament, name=name)
        Seat.objects.create(table=table, round=round_, wind=wind, player=player)
    tokens = []
    for index in range(threads):
        user = get_user_model().objects.create_user(f"referee{index}")
        StaffRole.objects.create(tournament=tournament, user=user, role=StaffRole.Role.REFEREE)
        tokens.append(Token.objects.create(user=user).key)
    connection.close()

    barrier = threading.Barrier(threads)
    answers: list[dict[str, Any]] = []

    def submit(token: str, form: str) -> None:
        client = Client(
            raise_request_exception=False, HTTP_HOST="localhost", HTTP_AUTHORIZATION=f"Token {token}"
        )
        barrier.wait()
        try:
            response = client.post(
                f"/api/tables/{table.pk}/sheet/",
                {"entry": hanchan.entry(form), "submit": True},
                content_type="application/json",
            )
            body = response.content.decode(errors="replace")
            is_json = response.headers.get("Content-Type", "").startswith("application/json")
            rules = [e["rule"] for e in response.json().get("errors", [])] if is_json else []
            answers.append({"status": response.status_code, "rules": rules, "body": body[:300]})
        except Exception as exc:  # whatever reaches the caller is reported
            answers.append({"status": None, "rules": [], "body": f"{type(exc).__name__}: {exc}"})
        finally:
            connection.close()

    workers = [
        threading.Thread(target=submit, args=(token, ("final", "deltas")[index % 2]))
        for index, token in enumerate(tokens)
    ]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join(120)
    return {
        "answers": answers,
        "sheets": ScoreSheet.objects.count(),
        "versions": SheetVersion.objects.count(),
        "journal_mode": connection.cursor().execute("PRAGMA journal_mode").fetchone()[0],
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]))))
