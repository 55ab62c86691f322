"""Background work of the tournament app: thin wrappers that call a service with primary keys."""

from __future__ import annotations

from celery import shared_task

from tournament import services


@shared_task(name="tournament.generate_seating", acks_late=True)
def generate_seating(job_id: int) -> dict[str, object]:
    return services.run_seating_job(job_id).as_dict()
