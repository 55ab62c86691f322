"""The venue's time zone, per tournament: the pages and the exports show its times."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from exports import services as export_services
from exports.models import ExportJob
from penalties import services as penalties
from penalties.models import Penalty
from tests.conftest import make_players
from tests.exports.helpers import zip_members
from tournament.models import Player, Tournament

TEN_UTC = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)  # 19:00 in Tokyo


@pytest.fixture
def tokyo(tournament: Tournament) -> Tournament:
    tournament.time_zone = "Asia/Tokyo"
    tournament.save()
    return tournament


@pytest.mark.django_db
def test_pages_show_the_venues_time(tokyo: Tournament, organiser: Any) -> None:
    make_players(tokyo, 1, status=Player.Status.CHECKED_IN, checked_in_at=TEN_UTC)
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/t/{tokyo.slug}/manage/check-in/").content.decode()
    assert "19:00" in page and "10:00" not in page
    assert timezone.get_current_timezone_name() != "Asia/Tokyo"  # the request ended with its zone


@pytest.mark.django_db
def test_exports_write_the_venues_time(
    tokyo: Tournament, organiser: Any, head_referee: Any, settings: Any, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path
    (player,) = make_players(tokyo, 1, status=Player.Status.CHECKED_IN, checked_in_at=TEN_UTC)
    penalty = penalties.give_penalty(player, "phone", head_referee, points=2, reason="ringing")
    Penalty.objects.filter(pk=penalty.pk).update(given_at=TEN_UTC)
    job = ExportJob.objects.create(tournament=tokyo, exporter="standings_csv", requested_by=organiser)
    export_services.run_export_job(job.pk)
    job.refresh_from_db()
    assert job.state == "done", job.error
    members = zip_members(job.file.read())
    penalties_csv = next(data for name, data in members.items() if "penalties" in name).decode("utf-8-sig")
    assert "2026-05-01 19:00" in penalties_csv and "10:00" not in penalties_csv
    job = ExportJob.objects.create(tournament=tokyo, exporter="archive_json", requested_by=organiser)
    export_services.run_export_job(job.pk)
    job.refresh_from_db()
    assert b"2026-05-01T10:00:00+00:00" in job.file.read()  # the archive is data: UTC, whatever the venue


@pytest.mark.django_db
def test_an_unknown_time_zone_is_refused(tournament: Tournament, organiser: Any) -> None:
    client = Client()
    client.force_login(organiser)
    response = client.patch(
        f"/api/tournaments/{tournament.pk}/", {"time_zone": "Mars/Olympus"}, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "time_zone"
