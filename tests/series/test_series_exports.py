"""A series' exports through the real export path (the job row, the task run in process once the request
commits, the stored file, the download): the standings worked out by hand, holding only what the public
sees (a private tournament and a hidden hanchan left out), in the asker's language."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from exports import services as export_services
from exports.exporters.series import get_series_exporter
from tests.exports.helpers import csv_rows, rows, workbook, zip_members
from tests.series.helpers import FIRST, SECOND, played
from tournament.models import Series, SeriesExportJob, Tournament

State = SeriesExportJob.State


@pytest.fixture
def season(settings: Any, tmp_path: Path) -> Series:
    """Spring (FIRST), Autumn (SECOND, then FIRST in a hidden last hanchan) and a private Closed Cup,
    ranked by the best event of each player."""
    settings.MEDIA_ROOT = tmp_path / "media"
    spring, _ = played("spring", FIRST)
    autumn, _ = played("autumn", SECOND, FIRST, day=2, hidden_hanchan=1)
    closed, _ = played("closed", FIRST, day=3, is_public=False)
    series = Series.objects.create(name="Season", slug="season", rule=Series.Rule.BEST_N, best_n=1)
    series.tournaments.set([spring, autumn, closed])
    return series


# The public sees Spring's hanchan (Ana 22.4, Dai 6.1, Ben -8.4, Cho -20.1: ranks 1, 2, 3, 4) and Autumn's
# first (Ben 30, Cho 10, Ana -10, Dai -30: ranks 1, 2, 3, 4); the best of each: Ben 30 (Autumn), Ana 22.4
# (Spring), Cho 10 (Autumn), Dai 6.1 (Spring). With Autumn's hidden hanchan or the private Closed Cup
# counted, Ana's best would be 22.4 + 22.4 or Autumn's 12.4, and Ben's 21.6.
STANDINGS = [
    ["Rank", "Name", "Native name", "Score", "Events", "Spring Cup", "Autumn Cup"],
    [1, "Ben", None, 30, 2, -8.4, 30],
    [2, "Ana", None, 22.4, 2, 22.4, -10],
    [3, "Cho", None, 10, 2, -20.1, 10],
    [4, "Dai", None, 6.1, 2, 6.1, -30],
]


@pytest.mark.django_db
def test_the_standings_workbook_holds_what_the_public_sees_worked_out_by_hand(
    season: Series, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        job = export_services.request_series_export(season, None, "series_standings_xlsx")
    assert len(callbacks) == 1  # the task is sent once the request commits, and runs in process here
    job.refresh_from_db()
    assert (job.state, job.progress, job.error) == (State.DONE, 1.0, "")
    assert job.filename == "season-series-standings.xlsx"
    assert job.file.name == f"exports/series/{season.pk}/{job.pk}-series_standings_xlsx.xlsx"
    book = workbook(job.file.read())
    assert book.sheetnames == ["Standings", "Results"]
    assert rows(book["Standings"]) == STANDINGS
    results = rows(book["Results"])
    assert results[0] == ["Name", "Event", "Date", "Rank", "Total", "Score", "Counts"]
    assert [row[:2] + row[3:] for row in results[1:]] == [
        ["Ben", "Spring Cup", 3, -8.4, -8.4, "no"],
        ["Ben", "Autumn Cup", 1, 30, 30, "yes"],
        ["Ana", "Spring Cup", 1, 22.4, 22.4, "yes"],
        ["Ana", "Autumn Cup", 3, -10, -10, "no"],
        ["Cho", "Spring Cup", 4, -20.1, -20.1, "no"],
        ["Cho", "Autumn Cup", 2, 10, 10, "yes"],
        ["Dai", "Spring Cup", 2, 6.1, 6.1, "yes"],
        ["Dai", "Autumn Cup", 4, -30, -30, "no"],
    ]
    assert str(results[1][2])[:10] == "2026-03-01" and str(results[2][2])[:10] == "2026-03-02"


@pytest.mark.django_db
def test_points_per_rank_as_csv_from_the_page_in_the_askers_language(
    season: Series, django_capture_on_commit_callbacks: Any
) -> None:
    season.rule, season.points = Series.Rule.POINTS_PER_RANK, ["10", "6", "3", "1"]
    season.save()
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    page = client.get("/series/season/").content.decode()
    assert 'href="/series/season/exports/"' in page
    exports_page = client.get("/series/season/exports/").content.decode()
    assert 'action="/series/season/exports/series_standings_csv/"' in exports_page
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post("/series/season/exports/series_standings_csv/", HTTP_ACCEPT="application/json")
    assert answer.status_code == 202
    status = client.get(answer.json()["status_url"]).json()
    assert status["state"] == "done" and status["filename"] == "season-series-standings-csv.zip"
    download = client.get(status["download_url"])
    assert download.status_code == 200 and download["Cache-Control"] == "private, no-store"
    members = zip_members(b"".join(download.streaming_content))
    assert sorted(members) == ["season-series-standings-results.csv", "season-series-standings-standings.csv"]
    # Points 10, 6, 3, 1: Spring Ana 10, Dai 6, Ben 3, Cho 1; Autumn (its first hanchan) Ben 10, Cho 6,
    # Ana 3, Dai 1. Ana and Ben 13 share the 1st place (by name within it), Cho and Dai 7 the 3rd.
    table = csv_rows(members["season-series-standings-standings.csv"])
    assert table[1:] == [
        ["1", "Ana", "", "13", "2", "10", "3"],
        ["1", "Ben", "", "13", "2", "3", "10"],
        ["3", "Cho", "", "7", "2", "1", "6"],
        ["3", "Dai", "", "7", "2", "6", "1"],
    ]
    assert table[0][:5] == ["Rang", "Nom", "Nom dans son écriture", "Score", "Tournois"]
    results = csv_rows(members["season-series-standings-results.csv"])
    assert results[1] == ["Ana", "Spring Cup", "2026-03-01", "1", "22.4", "10", "oui"]


@pytest.mark.django_db
def test_a_tournament_name_that_would_start_a_formula_is_quoted_in_the_csv_header(season: Series) -> None:
    """The standings have a column per tournament, titled with its name: the header row goes through the
    same cell guard as every other row (a spreadsheet would read "=1+2 Evil Cup" as a formula)."""
    Tournament.objects.filter(slug="spring").update(name="=1+2 Evil Cup")
    exporter = get_series_exporter("series_standings_csv")
    assert exporter is not None
    members = zip_members(exporter.render(season).data)
    header = csv_rows(members["season-series-standings-standings.csv"])[0]
    assert header[5:] == ["'=1+2 Evil Cup", "Autumn Cup"]
    results = csv_rows(members["season-series-standings-results.csv"])
    assert "'=1+2 Evil Cup" in [row[1] for row in results[1:]]


@pytest.mark.django_db
def test_an_unknown_export_or_job_is_not_found(season: Series) -> None:
    client = Client()
    answer = client.post("/series/season/exports/standings_xlsx/", HTTP_ACCEPT="application/json")
    assert answer.status_code == 404
    assert answer.json()["errors"][0]["field"] == "exporter"
    assert answer.json()["errors"][0]["rule"] == "series-exporters"
    assert client.get("/series/season/exports/jobs/999999/").status_code == 404
    assert client.get("/series/season/exports/jobs/999999/download").status_code == 404
    assert client.get("/series/nothing/exports/").status_code == 404


@pytest.mark.django_db
def test_the_sweep_runs_a_series_job_never_picked_up_and_an_expired_file_is_gone(season: Series) -> None:
    """The job row is its own outbox, as a tournament's: queued long ago and never run (the broker was
    down), the sweep sends it again and it is produced; once expired, its file is deleted and the
    download answers 410."""
    long_ago = timezone.now() - timedelta(hours=1)
    job = SeriesExportJob.objects.create(
        series=season, exporter="series_standings_csv", heartbeat_at=long_ago
    )
    assert job.pk in export_services.requeue_stalled_jobs()
    job.refresh_from_db()
    assert job.state == State.DONE and job.attempt == 1 and job.file
    SeriesExportJob.objects.filter(pk=job.pk).update(expires_at=long_ago)
    answer = Client().get(f"/series/season/exports/jobs/{job.pk}/download")
    assert answer.status_code == 410
    job.refresh_from_db()
    assert not job.file
