"""Background work of the tournament app: thin wrappers that call a service with primary keys."""

from __future__ import annotations

from celery import shared_task

from tournament import export_services, services


@shared_task(name="tournament.generate_seating", acks_late=True)
def generate_seating(job_id: int) -> dict[str, object]:
    return services.run_seating_job(job_id).as_dict()


@shared_task(name="tournament.run_export", acks_late=True, reject_on_worker_lost=True)
def run_export(job_id: int) -> dict[str, object]:
    """Produce one export (``tournament.export_services.run_export_job``); safe to run twice."""
    job = export_services.run_export_job(job_id)
    return {"id": job.pk, "state": job.state, "error": job.error}
