"""The job rules shared by exports and seatings (tournament.services.jobs), in process: a dead job is
never handed back, the sweep sends stalled jobs again and leaves live ones alone, one attempt stores."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from exports import services as export_services
from exports.models import ExportJob
from tournament import services
from tournament.models import Player, SeatingJob, Tournament
from tournament.services import jobs

State = ExportJob.State


def ago(seconds: float) -> Any:
    return timezone.now() - timedelta(seconds=seconds)


@pytest.mark.django_db
def test_asking_again_hands_back_a_live_job_and_never_a_dead_one(played: Tournament, organiser: Any) -> None:
    first = export_services.request_export(played, organiser, "seating_csv")
    ExportJob.objects.filter(pk=first.pk).update(state=State.RUNNING, heartbeat_at=ago(100))
    assert export_services.request_export(played, organiser, "seating_csv").pk == first.pk  # beating

    ExportJob.objects.filter(pk=first.pk).update(heartbeat_at=ago(121))  # its worker died
    second = export_services.request_export(played, organiser, "seating_csv")
    assert second.pk != first.pk and second.state == State.QUEUED
    first.refresh_from_db()
    assert first.state == State.FAILED and f"job {second.pk} replaces it" in first.error

    ExportJob.objects.filter(pk=second.pk).update(heartbeat_at=ago(61))  # never picked up
    third = export_services.request_export(played, organiser, "seating_csv")
    assert third.pk not in {first.pk, second.pk}
    assert ExportJob.objects.get(pk=second.pk).state == State.FAILED


@pytest.mark.django_db(transaction=True)
def test_the_sweep_sends_stalled_jobs_again_and_leaves_the_others(played: Tournament, organiser: Any) -> None:
    def job(state: str, heartbeat: Any, attempt: int = 0) -> int:
        row = ExportJob.objects.create(
            tournament=played, exporter="seating_csv", state=state, heartbeat_at=heartbeat, attempt=attempt
        )
        return int(row.pk)

    lost = job(State.QUEUED, ago(61))  # the broker was down when it was asked for
    dead = job(State.RUNNING, ago(121), attempt=1)  # its worker died
    waiting, beating = job(State.QUEUED, ago(10)), job(State.RUNNING, ago(30), attempt=1)
    history = job(State.QUEUED, None)  # no heartbeat: from before heartbeats, or an archive
    hopeless = job(State.RUNNING, ago(121), attempt=3)  # killed its worker three times

    # Tasks run in process here: the jobs the sweep sends are produced at once.
    assert sorted(export_services.requeue_stalled_jobs()) == [lost, dead]
    states = dict(ExportJob.objects.values_list("pk", "state"))
    assert states[lost] == states[dead] == State.DONE
    assert ExportJob.objects.get(pk=dead).attempt == 2
    assert [states[pk] for pk in (waiting, beating, history)] == [State.QUEUED, State.RUNNING, State.QUEUED]
    assert states[hopeless] == State.FAILED
    assert "3 attempts" in ExportJob.objects.get(pk=hopeless).error
    assert export_services.requeue_stalled_jobs() == []


@pytest.mark.django_db
def test_only_the_latest_attempt_writes_progress_and_its_outcome(
    played: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = ExportJob.objects.create(tournament=played, exporter="seating_csv", heartbeat_at=timezone.now())
    first = jobs.claim(ExportJob, row.pk, "delivery-1")
    assert first == 1
    assert jobs.claim(ExportJob, row.pk, "delivery-2") is None  # running elsewhere, beating
    progress = jobs.progress_writer(ExportJob, row.pk, first)
    ExportJob.objects.filter(pk=row.pk).update(heartbeat_at=ago(121))
    second = jobs.claim(ExportJob, row.pk, "delivery-2")  # the first one's worker looks dead
    assert second == 2
    monkeypatch.setattr(jobs, "PROGRESS_INTERVAL_SECONDS", 0.0)  # every update written
    with pytest.raises(jobs.Superseded):
        progress(0.5)  # the first delivery was alive after all: it stops
    assert not jobs.finish(ExportJob, row.pk, first, state=State.DONE)
    assert jobs.finish(ExportJob, row.pk, second, state=State.DONE)
    assert ExportJob.objects.get(pk=row.pk).state == State.DONE
    assert jobs.claim(ExportJob, row.pk, "delivery-1") is None  # done: left alone


@pytest.mark.django_db(transaction=True)
def test_a_seating_job_whose_worker_died_is_generated_again_by_the_sweep(
    tournament: Tournament, sixteen_players: list[Player], organiser: Any
) -> None:
    job = SeatingJob.objects.create(
        tournament=tournament,
        requested_by=organiser,
        seed=3,
        state="running",
        attempt=1,
        heartbeat_at=ago(121),
    )
    assert services.requeue_stalled_seating() == [job.pk]
    job.refresh_from_db()
    assert job.state == SeatingJob.State.DONE and job.attempt == 2, job.error
    assert tournament.rounds.count() == tournament.hanchan_count
