"""The sheet editor's JSON save (``save.json``) under an ``Idempotency-Key``: a retry of one request
saves once and gets the first answer again; the same key with another body is refused (422); two
copies of one request sent at the same moment save once (PostgreSQL row locks and unique key)."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from scoring.models import ScoreSheet, SheetVersion, SubmissionKey
from scoring.services.idempotency import SUBMISSION_KEY_DAYS, forget_old_submission_keys
from tests.scoring import hanchan
from tournament.models import Tournament
from tournament.queries.access import PLAYER_SESSION_KEY

KEY = "0f8c2a6e-1d3b-4f5a-9c7e-2b4d6f8a0c1e"


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def url(table: Any) -> str:
    return f"/t/{table.round.tournament.slug}/sheet/{table.round.number}/{table.number}/save.json"


def post(client: Client, table: Any, body: dict[str, Any], key: str | None = KEY) -> Any:
    headers = {} if key is None else {"Idempotency-Key": key}
    return client.post(url(table), json.dumps(body), content_type="application/json", headers=headers)


def draft(form: str = "final", expected_version: int | None = None, action: str = "draft") -> dict[str, Any]:
    return {"entry": hanchan.entry(form), "action": action, "expected_version": expected_version}


@pytest.fixture
def client_of(referee: Any) -> Client:
    client = Client()
    client.force_login(referee)
    return client


@pytest.mark.django_db
def test_the_same_key_twice_saves_one_version_and_answers_the_same(
    seated_table: Any, client_of: Client
) -> None:
    first = post(client_of, seated_table, draft(action="submit"))
    again = post(client_of, seated_table, draft(action="submit"))
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json() == {"version": 1, "status": "submitted"}
    sheet = ScoreSheet.objects.get(table=seated_table)
    assert sheet.version == 1
    assert SheetVersion.objects.filter(sheet=sheet).count() == 1
    assert SubmissionKey.objects.filter(key=KEY).count() == 1


@pytest.mark.django_db
def test_the_same_key_with_another_body_is_refused_422_naming_the_rule(
    seated_table: Any, client_of: Client
) -> None:
    assert post(client_of, seated_table, draft("final")).status_code == 200
    other = post(client_of, seated_table, draft("deltas"))
    assert other.status_code == 422
    (error,) = other.json()["errors"]
    assert error["field"] == "Idempotency-Key"
    assert error["rule"] == "idempotency-key-reuse"
    assert ScoreSheet.objects.get(table=seated_table).version == 1


@pytest.mark.django_db
def test_a_new_key_for_the_next_version_saves_again(seated_table: Any, client_of: Client) -> None:
    assert post(client_of, seated_table, draft("final")).json()["version"] == 1
    second = post(
        client_of, seated_table, draft("deltas", expected_version=1), key=KEY.replace("0f8c", "1f8c")
    )
    assert second.json() == {"version": 2, "status": "draft"}


@pytest.mark.django_db
def test_a_refusal_is_the_stored_answer_too(seated_table: Any, client_of: Client) -> None:
    bad = {"form": "final", "final_points": {"Ana": 1000, "Ben": 2000, "Cho": 3000, "Dai": 4000}}
    body = {"entry": bad, "action": "submit", "expected_version": None}
    first = post(client_of, seated_table, body)
    assert first.status_code == 400
    assert post(client_of, seated_table, body).json() == first.json()
    assert not ScoreSheet.objects.filter(table=seated_table).exists()


@pytest.mark.django_db
def test_a_draft_with_a_refused_hand_is_saved_and_its_submission_refused_naming_the_rule(
    seated_table: Any, client_of: Client
) -> None:
    """What the sheet page posts: a draft the rules engine refuses is kept on the server with its
    problems (not on one phone only); submitting it is refused with the rule, and nothing changes."""
    entry = {"form": "hands", "hands": [dict(hanchan.OUTCOMES[0], fu=20, han=1)]}
    saved = post(client_of, seated_table, {"entry": entry, "action": "draft", "expected_version": None})
    assert saved.status_code == 200 and saved.json() == {"version": 1, "status": "draft"}
    sheet = ScoreSheet.objects.get(table=seated_table)
    assert sheet.entry == entry and sheet.replay["valid"] is False
    [problem] = sheet.replay["errors"]
    assert problem["hand"] == 1 and "20 fu" in problem["message"]
    submit = {"entry": entry, "action": "submit", "expected_version": 1}
    refused = post(client_of, seated_table, submit, key="s" * 16)
    assert refused.status_code == 400
    [error] = refused.json()["errors"]
    assert (error["hand"], error["field"], error["rule"]) == (1, "hands", problem["rule"])
    assert error["rule"] == "han-fu (WRCR 2015 §6.1, §6.3)"
    sheet.refresh_from_db()
    assert (sheet.status, sheet.version) == ("draft", 1)


@pytest.mark.django_db
def test_a_stale_version_is_a_conflict_with_the_current_version(seated_table: Any, client_of: Client) -> None:
    post(client_of, seated_table, draft("final"), key="a" * 16)
    post(client_of, seated_table, draft("deltas", expected_version=1), key="b" * 16)
    stale = post(client_of, seated_table, draft("outcomes", expected_version=1), key="c" * 16)
    assert stale.status_code == 409
    assert stale.json()["current_version"] == 2
    assert [e["rule"] for e in stale.json()["errors"]] == ["stale-version", "stale-version"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("key", "body", "field"),
    [
        (None, draft(), "Idempotency-Key"),
        ("short", draft(), "Idempotency-Key"),
        ("x" * 65, draft(), "Idempotency-Key"),
        ("has spaces in it, sixteen+", draft(), "Idempotency-Key"),
        (KEY, {"entry": [], "action": "draft"}, "entry"),
        (KEY, {"entry": {"form": "final"}, "action": "publish"}, "action"),
        (KEY, {"entry": {"form": "final"}, "action": "draft", "expected_version": "1"}, "expected_version"),
        (KEY, {"entry": {"form": "final"}, "action": "draft", "expected_version": True}, "expected_version"),
    ],
)
def test_bad_requests_are_refused_naming_the_field(
    seated_table: Any, client_of: Client, key: str | None, body: dict[str, Any], field: str
) -> None:
    response = post(client_of, seated_table, body, key=key)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == field
    assert not SubmissionKey.objects.exists()


@pytest.mark.django_db
def test_a_large_body_is_refused(seated_table: Any, client_of: Client) -> None:
    body = {"entry": {"form": "final", "note": "x" * 300_000}, "action": "draft"}
    response = post(client_of, seated_table, body)
    assert response.status_code == 400
    assert response.json()["errors"][0]["rule"] == "body-size"


@pytest.mark.django_db
def test_another_users_key_is_refused_and_reveals_nothing(
    seated_table: Any, client_of: Client, head_referee: Any
) -> None:
    assert post(client_of, seated_table, draft()).status_code == 200
    other = Client()
    other.force_login(head_referee)
    response = post(other, seated_table, draft())
    assert response.status_code == 422
    assert "version" not in response.json()


@pytest.mark.django_db
def test_an_anonymous_save_is_sent_to_the_login(seated_table: Any) -> None:
    response = post(Client(), seated_table, draft())
    assert response.status_code == 302
    assert not ScoreSheet.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_copies_of_one_request_sent_at_once_save_once(seated_table: Any, referee: Any) -> None:
    assert connection.vendor == "postgresql", "this test needs real row locks and unique indexes"
    barrier = threading.Barrier(3)
    answers: list[tuple[int, Any]] = []

    def send() -> None:
        client = Client()
        client.force_login(referee)
        try:
            barrier.wait()
            response = post(client, seated_table, draft(action="submit"))
            answers.append((response.status_code, response.json()))
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [(200, {"version": 1, "status": "submitted"})] * 3
    assert SheetVersion.objects.filter(sheet__table=seated_table).count() == 1


def player_client(player: Any) -> Client:
    """A browser signed in as a seated player (a PIN or a link: the session names the player)."""
    client = Client()
    session = client.session
    session[PLAYER_SESSION_KEY] = {str(player.tournament_id): player.pk}
    session.save()
    return client


@pytest.mark.django_db
def test_a_seated_players_retry_saves_once_too(seated_table: Any) -> None:
    tournament = seated_table.round.tournament
    tournament.entry_mode = Tournament.EntryMode.PLAYERS
    tournament.save()
    ana = tournament.players.get(name="Ana")
    client = player_client(ana)
    first = post(client, seated_table, draft(action="submit"))
    again = post(client, seated_table, draft(action="submit"))
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json() == {"version": 1, "status": "submitted"}
    assert SheetVersion.objects.filter(sheet__table=seated_table).count() == 1
    stored = SubmissionKey.objects.get(key=KEY)
    assert stored.player == ana and stored.user is None
    # Another player of the table with the same key: refused, nothing revealed.
    other = post(player_client(tournament.players.get(name="Ben")), seated_table, draft(action="submit"))
    assert other.status_code == 422
    assert "version" not in other.json()


@pytest.mark.django_db
def test_keys_are_forgotten_after_a_week_and_a_late_retry_still_saves_nothing(
    seated_table: Any, client_of: Client
) -> None:
    assert post(client_of, seated_table, draft(action="submit")).status_code == 200
    assert post(client_of, seated_table, draft(expected_version=1), key="k" * 20).status_code == 200
    SubmissionKey.objects.filter(key=KEY).update(
        created_at=timezone.now() - timedelta(days=SUBMISSION_KEY_DAYS, hours=1)
    )
    assert forget_old_submission_keys() == 1
    assert list(SubmissionKey.objects.values_list("key", flat=True)) == ["k" * 20]
    # The first request retried after its key was forgotten: refused as a second sheet, not saved again.
    late = post(client_of, seated_table, draft(action="submit"))
    assert late.status_code == 409
    assert ScoreSheet.objects.get(table=seated_table).version == 2
