"""The exports page, the request and poll endpoints and the download, for each role and nobody."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from exports.models import ExportJob
from tests.conftest import make_user
from tests.exports.helpers import csv_rows, workbook
from tournament.models import Tournament


def url(name: str, **kwargs: Any) -> str:
    return reverse(f"exports:{name}", kwargs={"slug": "test-open", **kwargs})


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_the_page_lists_the_exports_open_to_each_visitor(
    played: Tournament, referee: Any, organiser: Any
) -> None:
    page = Client().get(url("index"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Exports of Test Open" in text and "Seating (Excel)" in text and "Seating (CSV)" in text
    assert (
        "Standings (Excel)" not in text
        and "Printable score sheets" not in text
        and "Tournament archive" not in text
    )
    text = logged_in(referee).get(url("index")).content.decode()
    assert (
        "Standings (Excel)" in text and "Printable score sheets (PDF)" in text and "EMA results" not in text
    )
    text = logged_in(organiser).get(url("index")).content.decode()
    assert "EMA results (Excel)" in text and "Tournament archive (JSON)" in text
    assert url("request", identifier="archive_json") in text


@pytest.mark.django_db
def test_request_poll_and_download_as_json(
    played: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = logged_in(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url("request", identifier="ema_results_csv"), HTTP_ACCEPT="application/json")
    assert response.status_code == 202
    job = response.json()
    assert job["exporter"] == "ema_results_csv" and job["state"] == "queued"
    status = client.get(job["status_url"]).json()
    assert status["state"] == "done" and status["progress"] == 1.0
    assert status["download_url"] == url("download", job_id=job["id"])
    download = client.get(status["download_url"])
    assert download.status_code == 200
    assert download["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="test-open-ema-results.csv"' in download["Content-Disposition"]
    table = csv_rows(b"".join(download.streaming_content))
    assert table[1][:3] == ["1", "10000001", "Ana"]


@pytest.mark.django_db
def test_a_plain_form_post_returns_to_the_page_which_shows_the_job(
    played: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    client = Client()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url("request", identifier="seating_xlsx"))
    job = ExportJob.objects.get()
    assert response.status_code == 302 and response["Location"] == f"{url('index')}?job={job.pk}"
    page = client.get(response["Location"]).content.decode()
    assert f'href="{url("download", job_id=job.pk)}"' in page
    download = client.get(url("download", job_id=job.pk))
    book = workbook(b"".join(download.streaming_content))
    assert book.sheetnames[0] == "By table"


@pytest.mark.django_db
def test_users_without_the_permission_are_refused_the_request_and_the_download(
    played: Tournament, organiser: Any, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = logged_in(organiser).post(
            url("request", identifier="archive_json"), HTTP_ACCEPT="application/json"
        )
    job_id = response.json()["id"]
    for client in (logged_in(referee), Client(), logged_in(make_user("stranger"))):
        assert client.post(url("request", identifier="archive_json")).status_code == 403
        assert client.get(url("download", job_id=job_id)).status_code == 403
        assert client.get(url("status", job_id=job_id)).status_code == 403
    assert logged_in(organiser).get(url("download", job_id=job_id)).status_code == 200
    assert Client().get(url("request", identifier="seating_xlsx")).status_code == 405
    assert Client().post(url("request", identifier="nothing_such")).status_code == 404
    assert Client().get(url("download", job_id=10**9)).status_code == 404


@pytest.mark.django_db
def test_a_private_tournament_is_not_found_for_outsiders(played: Tournament, referee: Any) -> None:
    played.is_public = False
    played.save()
    assert Client().get(url("index")).status_code == 404
    assert Client().post(url("request", identifier="seating_xlsx")).status_code == 404
    assert logged_in(referee).get(url("index")).status_code == 200


@pytest.mark.django_db
def test_an_unfinished_or_expired_export_is_not_served(played: Tournament, organiser: Any) -> None:
    client = logged_in(organiser)
    response = client.post(url("request", identifier="seating_xlsx"), HTTP_ACCEPT="application/json")
    job_id = response.json()["id"]  # no on-commit here: the job stays queued
    assert client.get(url("download", job_id=job_id)).status_code == 409
    ExportJob.objects.filter(pk=job_id).update(state="done", expires_at="2000-01-01T00:00:00Z", file="x.xlsx")
    assert client.get(url("download", job_id=job_id)).status_code == 410
