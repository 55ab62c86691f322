"""The sign-ups' export (``signups_xlsx``, ``signups_csv``): asked for from the organisers' sign-ups page
and the API, made by the export jobs' flow, read back cell by cell; for organisers only."""

from __future__ import annotations

import io
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from openpyxl import load_workbook

from exports.models import ExportJob
from tests.conftest import make_user
from tests.exports.helpers import csv_rows
from tests.exports.test_injection import HYPERLINK
from tournament.models import SignUp, Tournament

pytestmark = pytest.mark.django_db

CONFIRMED = datetime(2026, 4, 1, 0, 30, tzinfo=UTC)  # 09:30 in Tokyo


def signup(tournament: Tournament, last: str, first: str, state: str, minutes: int, **fields: Any) -> SignUp:
    return SignUp.objects.create(
        tournament=tournament,
        last_name=last,
        first_name=first,
        email=f"{first.lower()}@example.org",
        language="en",
        consent_at=CONFIRMED,
        state=state,
        confirmed_at=None if state == "unconfirmed" else CONFIRMED + timedelta(minutes=minutes),
        token_seed=secrets.token_hex(16),
        manage_token_hash=secrets.token_hex(32),
        manage_expires_at=CONFIRMED + timedelta(days=60),
        **fields,
    )


@pytest.fixture
def signed_up(tournament: Tournament) -> Tournament:
    tournament.time_zone = "Asia/Tokyo"
    tournament.save()
    signup(tournament, "Alves", "Ana", "waiting_list", 20, country="PT", note=HYPERLINK)
    signup(
        tournament,
        "Yamada",
        "Taro",
        "registered",
        0,
        native_name="山田 太郎",
        country="JP",
        club="Tokyo Riichi",
        ema_id="12345678",
        nicknames="taro@tenhou",
        paid=True,
    )
    signup(tournament, "Brandt", "Ben", "waiting_list", 10, note="+49 call me")
    signup(tournament, "Costa", "Cleo", "unconfirmed", 0)
    signup(tournament, "Dias", "Dora", "cancelled", 5)
    return tournament


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def download(client: Client, identifier: str, capture: Any) -> tuple[ExportJob, bytes]:
    """Ask for the export as the sign-ups page's button does, then fetch the file the page links."""
    page = client.get("/t/test-open/manage/signups/").text
    action = f"/t/test-open/exports/{identifier}/"
    assert f'formaction="{action}"' in page
    with capture(execute=True):
        asked = client.post(action)
    job = ExportJob.objects.get(exporter=identifier)
    assert asked.status_code == 302 and asked["Location"] == f"/t/test-open/exports/?job={job.pk}"
    status = client.get(f"/t/test-open/exports/jobs/{job.pk}/").json()
    assert status["state"] == "done", status
    file = client.get(status["download_url"])
    assert file.status_code == 200
    return job, b"".join(file.streaming_content)


HEADER = [
    "State",
    "Waiting list",
    "Last name",
    "First name",
    "Name in its own script",
    "Country",
    "Club",
    "EMA number",
    "Email",
    "Nicknames",
    "Note",
    "Paid",
    "Confirmed",
]


def test_the_workbook_has_every_sign_up_in_the_order_of_states_and_waiting_list(
    signed_up: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    job, data = download(logged_in(organiser), "signups_xlsx", django_capture_on_commit_callbacks)
    assert job.filename == "test-open-signups.xlsx"
    sheet = load_workbook(io.BytesIO(data))["Sign-ups"]
    table = [[(cell.data_type, cell.value) for cell in row] for row in sheet.iter_rows()]
    assert [value for _, value in table[0]] == HEADER
    assert [row[2][1] for row in table[1:]] == ["Costa", "Yamada", "Brandt", "Alves", "Dias"]
    taro = [value for _, value in table[2]]
    assert taro == [
        "registered",
        None,
        "Yamada",
        "Taro",
        "山田 太郎",
        "Japan",
        "Tokyo Riichi",
        "12345678",
        "taro@example.org",
        "taro@tenhou",
        None,
        "yes",
        datetime(2026, 4, 1, 9, 30),  # the venue's time, Tokyo
    ]
    assert sheet.cell(3, 13).number_format == "yyyy-mm-dd hh:mm"
    assert [row[1][1] for row in table[1:]] == [None, None, 1, 2, None]
    ana = table[4]
    assert ana[10] == ("s", HYPERLINK)  # a text cell, never a formula
    assert ana[1] == ("n", 2)
    assert table[1][12][1] is None  # unconfirmed: no time


def test_the_csv_quotes_text_a_spreadsheet_would_read_as_a_formula(
    signed_up: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    job, data = download(logged_in(organiser), "signups_csv", django_capture_on_commit_callbacks)
    assert job.filename == "test-open-signups.csv"
    table = csv_rows(data)
    assert table[0] == HEADER
    by_name = {row[2]: row for row in table[1:]}
    assert by_name["Yamada"][4] == "山田 太郎" and by_name["Yamada"][12] == "2026-04-01 09:30:00"
    assert by_name["Alves"][10] == "'" + HYPERLINK and by_name["Alves"][1] == "2"
    assert by_name["Brandt"][10] == "'+49 call me"


def test_in_the_readers_language(
    signed_up: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = logged_in(organiser)
    client.cookies["django_language"] = "de"
    _, data = download(client, "signups_csv", django_capture_on_commit_callbacks)
    table = csv_rows(data)
    assert table[0][0] != "State" and table[0][2] != "Last name"
    assert {row[5] for row in table[1:]} >= {"Japan", "Portugal"}


def test_only_organisers_export_the_sign_ups(
    signed_up: Tournament, organiser: Any, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    for client in (logged_in(referee), logged_in(make_user("head", signed_up, "head_referee")), Client()):
        assert client.post("/t/test-open/exports/signups_xlsx/").status_code == 403
        assert "signups_csv" not in client.get("/t/test-open/exports/").text
    token_client = logged_in(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        asked = token_client.post(
            f"/api/tournaments/{signed_up.pk}/exports/",
            {"exporter": "signups_csv"},
            content_type="application/json",
        )
    assert asked.status_code == 202, asked.content
    job = token_client.get(f"/api/tournaments/{signed_up.pk}/exports/{asked.json()['id']}/").json()
    assert job["state"] == "done"
    file = token_client.get(job["download_url"])
    assert csv_rows(b"".join(file.streaming_content))[0] == HEADER
    refused = logged_in(referee).post(
        f"/api/tournaments/{signed_up.pk}/exports/",
        {"exporter": "signups_csv"},
        content_type="application/json",
    )
    assert refused.status_code == 403
