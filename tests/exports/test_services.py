"""Requesting, producing and handing out exports: permissions, the task, idempotence, expiry."""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from exports import services as export_services
from exports.exporters import Exporter, ExportFile, register, unregister
from exports.models import ExportJob
from tests.conftest import make_user
from tests.exports.helpers import rows, workbook
from tournament.core.refusal import Refusal
from tournament.models import StaffRole, Tournament

State = ExportJob.State


class BrokenExporter(Exporter):
    identifier = "broken_test"
    verbose_name = "Broken (tests)"
    permission = StaffRole.Role.ORGANISER

    def render(self, tournament: Tournament, progress: Any = None) -> ExportFile:
        raise ValueError("the printer is on fire")


@pytest.fixture
def broken_exporter() -> Any:
    register(BrokenExporter)
    yield BrokenExporter
    unregister(BrokenExporter.identifier)


def run(job: ExportJob, task_id: str | None = None) -> ExportJob:
    export_services.run_export_job(job.pk, task_id)
    job.refresh_from_db()
    return job


@pytest.mark.django_db
def test_a_request_queues_the_task_on_commit_which_stores_the_file(
    played: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        job = export_services.request_export(played, organiser, "standings_xlsx")
    assert len(callbacks) == 1
    job.refresh_from_db()
    assert job.state == State.DONE and job.progress == 1.0 and job.error == ""
    assert job.filename == "test-open-standings.xlsx"
    assert job.file.name == f"exports/{played.pk}/{job.pk}-standings_xlsx.xlsx"
    assert job.expires_at is not None
    hours = (job.expires_at - job.finished_at).total_seconds() / 3600
    assert hours == 24
    with job.file.open("rb") as handle:
        assert rows(workbook(handle.read())["Standings"])[1][1] == "Ana"


@pytest.mark.django_db
def test_the_same_export_still_under_way_is_handed_back_not_queued_twice(
    played: Tournament, organiser: Any
) -> None:
    first = export_services.request_export(played, organiser, "seating_xlsx")
    again = export_services.request_export(played, organiser, "seating_xlsx")
    assert again.pk == first.pk and first.state == State.QUEUED
    other = export_services.request_export(played, organiser, "seating_csv")
    assert other.pk != first.pk


@pytest.mark.django_db
def test_a_done_job_is_not_redone_and_a_rerun_gives_the_same_file(played: Tournament, organiser: Any) -> None:
    job = run(export_services.request_export(played, organiser, "archive_json"))
    name, finished = job.file.name, job.finished_at
    with job.file.open("rb") as handle:
        content = handle.read()
    assert run(job).finished_at == finished  # done: left alone
    # Running in another delivery whose heartbeat is fresh: left alone.
    ExportJob.objects.filter(pk=job.pk).update(state=State.RUNNING, progress=0.4, task_id="first")
    assert run(job, "second").state == State.RUNNING and job.attempt == 1
    # A worker lost mid-export: the broker delivers the same message again, which runs it from the start.
    job = run(job, "first")
    assert job.state == State.DONE and job.file.name == name and job.finished_at != finished
    assert job.attempt == 2
    with job.file.open("rb") as handle:
        assert handle.read() == content
    folder = os.path.dirname(job.file.path)
    assert os.listdir(folder) == [os.path.basename(name)]  # one file, written over, no copy beside it


@pytest.mark.django_db
def test_permissions_by_role_for_requests(played: Tournament, referee: Any, organiser: Any) -> None:
    anonymous = AnonymousUser()
    assert export_services.request_export(played, anonymous, "seating_xlsx").requested_by is None
    with pytest.raises(PermissionDenied):
        export_services.request_export(played, anonymous, "standings_xlsx")  # EMA ids: staff only
    with pytest.raises(PermissionDenied):
        export_services.request_export(played, anonymous, "score_sheets_pdf")
    with pytest.raises(PermissionDenied):
        export_services.request_export(played, referee, "ema_results_xlsx")
    with pytest.raises(PermissionDenied):
        export_services.request_export(played, make_user("stranger"), "archive_json")
    assert export_services.request_export(played, referee, "score_sheets_pdf").requested_by == referee
    with pytest.raises(Refusal, match="not an export of this site"):
        export_services.request_export(played, organiser, "nothing_such")
    visible = {e.identifier for e in export_services.exporters_for(anonymous, played)}
    assert visible == {"seating_xlsx", "seating_csv"}
    played.is_public = False
    played.save()
    with pytest.raises(Refusal, match="not found"):
        export_services.request_export(played, anonymous, "seating_xlsx")
    assert export_services.exporters_for(anonymous, played) == []


@pytest.mark.django_db
def test_the_task_checks_the_permission_again(played: Tournament) -> None:
    user = make_user("leaving", played, StaffRole.Role.ORGANISER)
    job = export_services.request_export(played, user, "ema_results_csv")
    StaffRole.objects.filter(user=user).delete()
    job = run(job)
    assert job.state == State.FAILED and "permission" in job.error and not job.file


@pytest.mark.django_db
def test_a_failing_render_fails_the_job_with_the_reason(
    played: Tournament, organiser: Any, broken_exporter: Any, caplog: Any
) -> None:
    job = run(export_services.request_export(played, organiser, "broken_test"))
    # The person reads a sentence; the exception goes to the log, for the site's administrators.
    assert job.state == State.FAILED and job.error.startswith("This export failed")
    assert "ValueError" not in job.error and "the printer is on fire" in caplog.text
    assert run(job).state == State.FAILED  # failed is final too


@pytest.mark.django_db
def test_expired_files_are_refused_and_deleted(played: Tournament, organiser: Any) -> None:
    job = run(export_services.request_export(played, organiser, "seating_csv"))
    path = job.file.path
    assert export_services.job_for_download(organiser, played, job.pk) == job
    ExportJob.objects.filter(pk=job.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(Refusal, match="expired") as caught:
        export_services.job_for_download(organiser, played, job.pk)
    assert caught.value.status == 410
    job.refresh_from_db()
    assert not job.file
    assert not os.path.exists(path)


@pytest.mark.django_db
def test_the_next_request_deletes_every_expired_file(played: Tournament, organiser: Any) -> None:
    old = run(export_services.request_export(played, organiser, "seating_csv"))
    ExportJob.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(hours=1))
    export_services.request_export(played, organiser, "standings_csv")
    old.refresh_from_db()
    assert not old.file and old.state == State.DONE
    status = export_services.job_status(old)
    assert status["download_url"] is None and status["state"] == "done"


@pytest.mark.django_db
def test_download_checks_the_exporter_permission_not_who_asked(
    played: Tournament, organiser: Any, referee: Any, head_referee: Any
) -> None:
    job = run(export_services.request_export(played, organiser, "score_sheets_xlsx"))
    assert export_services.job_for_download(head_referee, played, job.pk) == job
    ema = run(export_services.request_export(played, organiser, "ema_results_xlsx"))
    with pytest.raises(PermissionDenied):
        export_services.job_for_download(referee, played, ema.pk)
    with pytest.raises(PermissionDenied):
        export_services.job_for_download(AnonymousUser(), played, job.pk)
    pending = export_services.request_export(played, organiser, "seating_xlsx")
    with pytest.raises(Refusal, match="not ready"):
        export_services.job_for_download(organiser, played, pending.pk)
    with pytest.raises(Refusal, match="not found"):
        export_services.job_for_download(organiser, played, 10**9)
