"""A whole tournament day through the API: create, import, check in, seat, enter and sign, read standings.

The organiser works with a session (logged in with username and password), the referee with a token.
Seating runs as a Celery task, in process here (``celery_mode`` in tests/conftest.py), once the request's
transaction commits: hence a transactional test.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.api.conftest import PASSWORD
from tests.conftest import make_user
from tournament.models import Player

PLAYERS_CSV = "name;country;club;ema id;substitute\n" + "".join(
    f"Player {n:02d};{country};Club {n % 3};{4000000 + n:08d};no\n"
    for n, country in zip(range(1, 17), ["JP", "FR", "DE", "NL"] * 4, strict=True)
)


def csv_file(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("players.csv", text.encode(), content_type="text/csv")


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.content
    return response.json()


@pytest.mark.django_db(transaction=True)
def test_a_tournament_day_through_the_api() -> None:
    # The organiser-to-be: an account a site admin allowed to organise (Django's add_tournament).
    make_user("ola").user_permissions.add(Permission.objects.get(codename="add_tournament"))
    make_user("rei")
    organiser = APIClient()
    assert organiser.login(username="ola", password=PASSWORD)

    tournament = ok(
        organiser.post(
            "/api/tournaments/",
            {
                "name": "Spring Open",
                "slug": "spring-open",
                "starts_on": "2026-04-04",
                "ends_on": "2026-04-05",
                "hanchan_count": 3,
            },
        ),
        201,
    )
    base = f"/api/tournaments/{tournament['id']}"
    staff = ok(organiser.get(f"{base}/staff/"))["results"]
    assert [(s["username"], s["role"]) for s in staff] == [("ola", "organiser")]
    ok(organiser.post(f"{base}/staff/", {"username": "rei", "role": "referee"}), 201)

    # A file with one bad row imports nothing, and names the row.
    bad = PLAYERS_CSV + "Player 17;Narnia;;;no\n"
    refused = organiser.post(f"{base}/players/import/", {"file": csv_file(bad)}, format="multipart")
    assert refused.status_code == 400
    assert refused.json()["errors"] == [
        {
            "line": 18,
            "field": "country",
            "rule": "registration",
            "message": "'Narnia' is not an ISO 3166 country code or name",
        }
    ]
    assert Player.objects.count() == 0
    preview = ok(
        organiser.post(
            f"{base}/players/import/", {"file": csv_file(PLAYERS_CSV), "dry_run": "true"}, format="multipart"
        )
    )
    assert (preview["valid"], preview["imported"], len(preview["rows"])) == (True, 0, 16)
    assert Player.objects.count() == 0
    imported = ok(
        organiser.post(f"{base}/players/import/", {"file": csv_file(PLAYERS_CSV)}, format="multipart"), 201
    )
    assert imported["imported"] == 16

    players = ok(organiser.get(f"{base}/players/", {"page_size": 10}))
    assert players["count"] == 16 and len(players["results"]) == 10 and players["next"]
    everyone = ok(organiser.get(f"{base}/players/", {"page_size": 100}))["results"]
    for player in everyone:
        checked = ok(organiser.post(f"{base}/players/{player['id']}/check-in/"))
        assert checked["status"] == "checked_in"
    plan = ok(organiser.get(f"{base}/check-in-plan/"))
    assert (plan["checked_in"], plan["tables"], plan["substitutes_needed"]) == (16, 4, 0)

    job = ok(organiser.post(f"{base}/seating-jobs/", {"seed": 3}), 202)
    assert job["state"] == "queued"
    job = ok(organiser.get(f"{base}/seating-jobs/{job['id']}/"))
    assert job["state"] == "done", job["error"]
    assert job["progress"] == 1.0 and job["report"]

    rounds = ok(organiser.get(f"{base}/rounds/"))["results"]
    assert [(r["number"], r["status"], len(r["tables"])) for r in rounds] == [
        (1, "seated", 4),
        (2, "seated", 4),
        (3, "seated", 4),
    ]
    started = ok(organiser.post(f"{base}/rounds/1/clock/", {"action": "start"}))
    assert started["status"] == "started" and started["clock"]["state"] == "running"

    # The referee works with a token.
    token = ok(APIClient().post("/api/auth/token/", {"username": "rei", "password": PASSWORD}))["token"]
    referee = APIClient()
    referee.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    table = rounds[0]["tables"][0]
    names = [seat["player"]["name"] for seat in table["seats"]]
    entry = {
        "form": "final",
        "final_points": dict(zip(names, [45000, 30000, 25000, 20000], strict=True)),
        "riichi_sticks_left": 0,
    }
    verdict = ok(referee.post(f"/api/tables/{table['id']}/sheet/check/", {"entry": entry}))
    assert verdict["valid"] and verdict["scores"][names[0]] == "30"  # 15 + uma 15
    sheet = ok(referee.post(f"/api/tables/{table['id']}/sheet/", {"entry": entry, "submit": True}), 201)
    assert (sheet["status"], sheet["version"]) == ("submitted", 1)
    signed = ok(referee.post(f"/api/tables/{table['id']}/sheet/sign/", {"expected_version": 1}))
    assert signed["status"] == "signed" and signed["signed_by"] == "rei" and len(signed["content_hash"]) == 64
    assert [v["action"] for v in signed["history"]] == ["submitted", "signed"]

    # Anyone reads the standings: the signed table counts, the other tables are pending.
    standings = ok(APIClient().get(f"{base}/standings/"))
    top = standings["rows"][0]
    assert (top["name"], top["rank"], top["total"], top["played"]) == (names[0], 1, "30", 1)
    assert len(standings["rows"]) == 16
    pending = [(p["round"], p["table"]) for p in standings["pending_tables"]]
    assert pending == [(1, 2), (1, 3), (1, 4)] + [(r, t) for r in (2, 3) for t in (1, 2, 3, 4)]
    # And anyone reads the signed sheet, without its history.
    public = ok(APIClient().get(f"/api/tables/{table['id']}/sheet/"))
    assert public["status"] == "signed" and "history" not in public
