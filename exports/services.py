"""Exports of a tournament: request one, produce it in a Celery task, hand out the file.

As pretix does it, the task ``run_export`` lives beside the service it runs. ``request_export`` checks
the exporter's permission, creates an ``ExportJob`` and queues the task once the transaction commits.
``run_export_job`` (the task's body) re-checks the permission of whoever asked, renders the file,
stores it under MEDIA_ROOT and sets it to expire after ``EXPORT_EXPIRY_HOURS``. The job row is its own
outbox (``tournament.services.jobs``): a request succeeds even when the broker is down, and the sweep
``requeue_stalled_jobs`` (a beat task beside it) sends again a job never picked up or whose worker died.
It is safe to run twice: a delivery runs only a job it claims (queued, or running with a stale
heartbeat, or its own lost delivery), a finished job is left alone, and a job produced again starts
from the start, to the same file name with the same bytes; only the latest attempt stores its result.
``job_for_download`` checks the same permission again for whoever downloads. Expired files are refused
and deleted; the next request deletes any others that have expired. Refusals are ``Refusal``s: 404 for
an exporter or job that does not exist for the user, 409 for a file not ready, 410 for an expired one;
``PermissionDenied`` for an export the user may not have.

A file is written in its asker's language (``ExportJob.language``: the language they chose, by the
switcher or their browser, when they asked), else in the tournament's default language, else in the
site's; the task activates it (``export_language``), since no request's language is active in a worker.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import PurePosixPath
from typing import Any, TypeVar

from celery import shared_task
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from exports.exporters import PUBLIC, Exporter, ExportFile, all_exporters, get_exporter
from exports.exporters.base import asked_from
from exports.exporters.series import SeriesExporter, get_series_exporter, series_exporters
from exports.models import ExportJob
from tournament.core.refusal import CONFLICT, GONE, NOT_FOUND, Refusal
from tournament.models import Series, SeriesExportJob, Tournament
from tournament.queries import access
from tournament.queries.access import AnyUser
from tournament.services import jobs

logger = logging.getLogger(__name__)
State = ExportJob.State


def expiry_hours() -> float:
    return float(getattr(settings, "EXPORT_EXPIRY_HOURS", 24))


def is_allowed(user: AnyUser | None, tournament: Tournament, exporter: Exporter) -> bool:
    """Whether ``user`` may request and download this export of this tournament."""
    if exporter.permission == PUBLIC:
        return access.can_view(user, tournament)
    return access.has_role(user, tournament, exporter.permission)


def exporters_for(user: AnyUser | None, tournament: Tournament) -> list[Exporter]:
    return [exporter for exporter in all_exporters() if is_allowed(user, tournament, exporter)]


def exporter_of(identifier: str) -> Exporter:
    exporter = get_exporter(identifier)
    if exporter is None:
        raise Refusal(
            "exporter",
            "exporters",
            _("{identifier} is not an export of this site.").format(identifier=repr(identifier)),
            status=NOT_FOUND,
        )
    return exporter


def requester(user: AnyUser | None) -> Any:
    return user if user is not None and user.is_authenticated else None


def tournament_not_found() -> Refusal:
    return Refusal("tournament", "visible-tournaments", _("Tournament not found."), status=NOT_FOUND)


def not_open_to_you(tournament: Tournament, exporter: Exporter) -> PermissionDenied:
    return PermissionDenied(
        _("The export {export} is not open to you in {tournament}.").format(
            export=exporter.verbose_name, tournament=tournament.name
        )
    )


def language_of(code: str | None) -> str:
    """One of the site's languages for ``code`` (``de-AT`` -> ``de``), or blank for none of them."""
    if not code:
        return ""
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return ""


def export_language(job: ExportJob) -> str:
    """The language a job's file is written in: its asker's, else the tournament's, else the site's."""
    return language_of(job.language) or language_of(job.tournament.language) or settings.LANGUAGE_CODE


def request_export(
    tournament: Tournament,
    user: AnyUser | None,
    exporter_id: str,
    language: str = "",
    site_address: str = "",
) -> ExportJob:
    """Queue an export of ``tournament`` by ``user``, written in ``language`` (the asker's choice; blank:
    the tournament's default), its absolute addresses on ``site_address`` (the scheme and host of the
    asking request) unless SITE_URL is set; the same export still under way is handed back, in the
    language it was asked in."""
    exporter = exporter_of(exporter_id)
    if not is_allowed(user, tournament, exporter):
        if not access.can_view(user, tournament):
            raise tournament_not_found()
        raise not_open_to_you(tournament, exporter)
    delete_expired_exports()  # files are not transactional: before, not inside, the transaction below
    return _queue(tournament, requester(user), exporter, language_of(language), site_address)


@transaction.atomic
def _queue(
    tournament: Tournament, asked_by: Any, exporter: Exporter, language: str = "", site_address: str = ""
) -> ExportJob:
    same = ExportJob.objects.filter(
        tournament=tournament, exporter=exporter.identifier, requested_by=asked_by
    )
    pending = same.filter(jobs.alive()).order_by("-requested_at").first()
    if pending is not None:  # still under way: handed back, not queued twice
        return pending
    job = ExportJob.objects.create(
        tournament=tournament,
        exporter=exporter.identifier,
        requested_by=asked_by,
        heartbeat_at=timezone.now(),
        language=language,
        site_address=site_address.rstrip("/")[: ExportJob._meta.get_field("site_address").max_length],
    )
    jobs.give_up_stalled(same.exclude(pk=job.pk), superseded_by=job.pk)  # a dead one is never handed back
    jobs.send_on_commit(run_export, job.pk)
    return job


# No result is stored: the job row holds the outcome, and sending a task then needs the broker only.
@shared_task(
    name="exports.run_export", bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def run_export(self: Any, job_id: int) -> dict[str, object]:
    """Produce one export (``run_export_job``); safe to run twice."""
    job = run_export_job(job_id, task_id=self.request.id)
    return {"id": job.pk, "state": job.state, "error": job.error}


def requeue_stalled_jobs() -> list[int]:
    """Send again the exports never picked up or whose worker died (``tournament.services.jobs``), a
    tournament's and a series'."""
    return jobs.requeue_stalled(ExportJob, run_export) + jobs.requeue_stalled(
        SeriesExportJob, run_series_export
    )


@shared_task(name="exports.requeue_stalled_jobs", ignore_result=True)
def requeue_stalled_exports() -> list[int]:
    """The sweep, sent by Celery beat every ``JOB_SWEEP_SECONDS``."""
    return requeue_stalled_jobs()


def _fail(job: ExportJob, attempt: int, message: str) -> ExportJob:
    jobs.finish(ExportJob, job.pk, attempt, state=State.FAILED, error=message)
    job.refresh_from_db()
    return job


def run_export_job(job_id: int, task_id: str | None = None) -> ExportJob:
    """Produce and store the file of a job, if this delivery (``task_id``) claims it. Safe to run twice:
    a finished job or one running elsewhere is left alone; a queued one, or a running one whose worker
    died, is produced from the start, and only the latest attempt stores its file and outcome."""
    attempt = jobs.claim(ExportJob, job_id, task_id)
    job = ExportJob.objects.select_related("tournament", "requested_by").get(pk=job_id)
    if attempt is None:
        return job
    # Every word in the file, and the job's error, in the asker's language; every time, the venue's; every
    # address on the site the asker used, unless SITE_URL names it.
    with (
        translation.override(export_language(job)),
        timezone.override(job.tournament.zone()),
        asked_from(job.site_address),
    ):
        return _produce(job, attempt)


def _produce(job: ExportJob, attempt: int) -> ExportJob:
    exporter = get_exporter(job.exporter)
    if exporter is None:
        message = _("{identifier} is not an export of this site.").format(identifier=repr(job.exporter))
        return _fail(job, attempt, message)
    if not is_allowed(job.requested_by, job.tournament, exporter):
        return _fail(job, attempt, _("Whoever asked for this export no longer has the permission for it."))
    try:
        result = exporter.render(job.tournament, jobs.progress_writer(ExportJob, job.pk, attempt))
    except jobs.Superseded:
        logger.warning("export job %s: attempt %s superseded, stopped", job.pk, attempt)
        job.refresh_from_db()
        return job
    except Exception:  # the job records the failure; the worker goes on with the next task
        logger.exception("export %s of job %s failed", job.exporter, job.pk)
        message = _(
            "This export failed: an error of the site, logged for its administrators (job {job})."
        ).format(job=job.pk)
        return _fail(job, attempt, message)
    return _store(ExportJob, job, attempt, result)


def _store(model: Any, job: Any, attempt: int, result: ExportFile) -> Any:
    """Store the file of a job (an ``ExportJob`` or a ``SeriesExportJob``) and mark it done, if
    ``attempt`` is still the job's."""
    # Stored as exports/<tournament>/<job>-<exporter>.<extension> (exports/series/<series>/... for a
    # series), short whatever the slug; the download carries the full file name. A second run (after a
    # lost worker) replaces the file.
    stored = f"{job.exporter}{PurePosixPath(result.filename).suffix}"
    if job.file:
        job.file.delete(save=False)
    name = job.file.field.generate_filename(job, stored)
    if job.file.storage.exists(name):
        job.file.storage.delete(name)
    job.file.save(stored, ContentFile(result.data), save=False)
    # Stored only if this is still the job's attempt; a superseded attempt wrote the same name and bytes.
    now = timezone.now()
    jobs.finish(
        model,
        job.pk,
        attempt,
        file=job.file.name,
        filename=result.filename,
        content_type=result.content_type,
        state=State.DONE,
        progress=1.0,
        error="",
        finished_at=now,
        expires_at=now + timedelta(hours=expiry_hours()),
    )
    job.refresh_from_db()
    return job


def is_expired(job: ExportJob | SeriesExportJob, now: Any = None) -> bool:
    return job.expires_at is not None and job.expires_at <= (now or timezone.now())


def delete_expired_exports(now: Any = None) -> int:
    """Delete the files of every expired export (the jobs stay, without a file); returns how many."""
    now = now or timezone.now()
    count = 0
    for model in (ExportJob, SeriesExportJob):
        for job in model.objects.filter(expires_at__lte=now).exclude(file=""):
            job.file.delete(save=False)
            model.objects.filter(pk=job.pk).update(file="")
            count += 1
    return count


def access_export_job(user: AnyUser | None, tournament: Tournament, job_id: int) -> ExportJob:
    """The job, if ``user`` may see it: a job of this tournament whose exporter ``user`` may use."""
    if not access.can_view(user, tournament):
        raise tournament_not_found()
    job = ExportJob.objects.filter(pk=job_id, tournament=tournament).first()
    if job is None:
        raise Refusal("export", "export-jobs", _("Export not found."), status=NOT_FOUND)
    exporter = exporter_of(job.exporter)
    if not is_allowed(user, tournament, exporter):
        raise not_open_to_you(tournament, exporter)
    return job


def job_for_download(user: AnyUser | None, tournament: Tournament, job_id: int) -> ExportJob:
    """The job whose file ``user`` downloads: done, not expired, and allowed to ``user``."""
    job = access_export_job(user, tournament, job_id)
    return downloadable(job)


_Job = TypeVar("_Job", ExportJob, SeriesExportJob)


def downloadable(job: _Job) -> _Job:
    """``job`` if its file can be downloaded: refused while it is not done (409), and once its file has
    expired or gone (410, the file row emptied), a tournament's job or a series' alike."""
    if job.state != State.DONE:
        raise Refusal(
            "export",
            "export-ready",
            _("This export is not ready ({state}).").format(state=job.get_state_display()),
            status=CONFLICT,
        )
    if is_expired(job) or not job.file or not job.file.storage.exists(job.file.name):
        if job.file:
            job.file.delete(save=False)
            type(job).objects.filter(pk=job.pk).update(file="")
        raise Refusal("export", "export-expiry", _("This export has expired; ask for it again."), status=GONE)
    return job


def is_ready(job: ExportJob | SeriesExportJob) -> bool:
    """Whether the job's file can be downloaded now (done, with a file, not expired)."""
    return job.state == State.DONE and bool(job.file) and not is_expired(job)


def job_status(job: ExportJob, tournament: Tournament | None = None) -> dict[str, Any]:
    """A job as JSON for the page that polls it."""
    tournament = tournament or job.tournament
    exporter = get_exporter(job.exporter)
    ready = is_ready(job)
    slug = tournament.slug
    return {
        "id": job.pk,
        "exporter": job.exporter,
        "name": exporter.verbose_name if exporter else job.exporter,
        "state": job.state,
        "state_label": job.get_state_display(),
        "progress": round(job.progress, 3),
        "error": job.error,
        "filename": job.filename,
        "expires_at": job.expires_at.isoformat() if job.expires_at else None,
        "status_url": reverse("exports:status", kwargs={"slug": slug, "job_id": job.pk}),
        "download_url": reverse("exports:download", kwargs={"slug": slug, "job_id": job.pk})
        if ready
        else None,
    }


# ---------------------------------------------------------------------------------------------------
# A series' exports: its standings as the public sees them, for anyone who sees the series' page (every
# series is public, and its standings hold only what the public sees of each tournament); its archive for
# whoever may change it and organises each of its tournaments (``access.can_archive_series``). The same
# mechanism: a job row that is its own outbox, a task that claims it, the same expiry and download.


def series_exporter_of(identifier: str) -> SeriesExporter:
    exporter = get_series_exporter(identifier)
    if exporter is None:
        raise Refusal(
            "exporter",
            "series-exporters",
            _("{identifier} is not an export of a series.").format(identifier=repr(identifier)),
            status=NOT_FOUND,
        )
    return exporter


def series_is_allowed(user: AnyUser | None, series: Series, exporter: SeriesExporter) -> bool:
    """Whether ``user`` may request, follow and download this export of ``series``: a public one, anyone
    (the series' page is public); the archive, whoever ``access.can_archive_series`` allows."""
    return exporter.permission == PUBLIC or access.can_archive_series(user, series)


def series_exporters_for(series: Series, user: AnyUser | None = None) -> list[SeriesExporter]:
    """The exports of a series open to ``user``: the public ones for everyone, the archive for its
    organisers."""
    return [exporter for exporter in series_exporters() if series_is_allowed(user, series, exporter)]


def series_not_open_to_you(series: Series, exporter: SeriesExporter) -> PermissionDenied:
    return PermissionDenied(
        _("The export {export} of {series} is not open to you.").format(
            export=exporter.verbose_name, series=series.name
        )
    )


def request_series_export(
    series: Series, user: AnyUser | None, exporter_id: str, language: str = ""
) -> SeriesExportJob:
    """Queue an export of ``series`` by ``user``, written in ``language`` (blank: the site's); the same
    export still under way for the same asker is handed back. ``PermissionDenied`` for an export not open
    to ``user`` (``series_is_allowed``)."""
    exporter = series_exporter_of(exporter_id)
    if not series_is_allowed(user, series, exporter):
        raise series_not_open_to_you(series, exporter)
    delete_expired_exports()  # files are not transactional: before, not inside, the transaction below
    return _queue_series(series, requester(user), exporter, language_of(language))


@transaction.atomic
def _queue_series(series: Series, asked_by: Any, exporter: SeriesExporter, language: str) -> SeriesExportJob:
    same = SeriesExportJob.objects.filter(series=series, exporter=exporter.identifier, requested_by=asked_by)
    pending = same.filter(jobs.alive()).order_by("-requested_at").first()
    if pending is not None:
        return pending
    job = SeriesExportJob.objects.create(
        series=series,
        exporter=exporter.identifier,
        requested_by=asked_by,
        heartbeat_at=timezone.now(),
        language=language,
    )
    jobs.give_up_stalled(same.exclude(pk=job.pk), superseded_by=job.pk)
    jobs.send_on_commit(run_series_export, job.pk)
    return job


@shared_task(
    name="exports.run_series_export",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def run_series_export(self: Any, job_id: int) -> dict[str, object]:
    """Produce one export of a series (``run_series_export_job``); safe to run twice."""
    job = run_series_export_job(job_id, task_id=self.request.id)
    return {"id": job.pk, "state": job.state, "error": job.error}


def run_series_export_job(job_id: int, task_id: str | None = None) -> SeriesExportJob:
    """Produce and store the file of a series' job, if this delivery claims it (as ``run_export_job``)."""
    attempt = jobs.claim(SeriesExportJob, job_id, task_id)
    job = SeriesExportJob.objects.select_related("series", "requested_by").get(pk=job_id)
    if attempt is None:
        return job
    with translation.override(language_of(job.language) or settings.LANGUAGE_CODE):
        exporter = get_series_exporter(job.exporter)
        if exporter is None:
            message = _("{identifier} is not an export of a series.").format(identifier=repr(job.exporter))
            jobs.finish(SeriesExportJob, job.pk, attempt, state=State.FAILED, error=message)
            job.refresh_from_db()
            return job
        if not series_is_allowed(job.requested_by, job.series, exporter):  # the role may have gone since
            message = _("Whoever asked for this export no longer has the permission for it.")
            jobs.finish(SeriesExportJob, job.pk, attempt, state=State.FAILED, error=message)
            job.refresh_from_db()
            return job
        try:
            result = exporter.render(job.series, jobs.progress_writer(SeriesExportJob, job.pk, attempt))
        except jobs.Superseded:
            logger.warning("series export job %s: attempt %s superseded, stopped", job.pk, attempt)
            job.refresh_from_db()
            return job
        except Exception:  # the job records the failure; the worker goes on with the next task
            logger.exception("series export %s of job %s failed", job.exporter, job.pk)
            message = _(
                "This export failed: an error of the site, logged for its administrators (job {job})."
            ).format(job=job.pk)
            jobs.finish(SeriesExportJob, job.pk, attempt, state=State.FAILED, error=message)
            job.refresh_from_db()
            return job
    return _store(SeriesExportJob, job, attempt, result)


def access_series_export_job(series: Series, job_id: int, user: AnyUser | None = None) -> SeriesExportJob:
    """A job of this series whose export ``user`` may have (anyone who sees the series' page may follow
    and download its public exports; the archive only ``series_is_allowed`` lets through)."""
    job = SeriesExportJob.objects.filter(pk=job_id, series=series).first()
    if job is None:
        raise Refusal("export", "export-jobs", _("Export not found."), status=NOT_FOUND)
    exporter = series_exporter_of(job.exporter)
    if not series_is_allowed(user, series, exporter):
        raise series_not_open_to_you(series, exporter)
    return job


def series_job_for_download(series: Series, job_id: int, user: AnyUser | None = None) -> SeriesExportJob:
    """The series' job whose file ``user`` downloads: allowed to them, done and not expired."""
    job = access_series_export_job(series, job_id, user)
    return downloadable(job)


def series_job_status(job: SeriesExportJob, series: Series) -> dict[str, Any]:
    """A series' job as JSON for the page that polls it (the same keys as ``job_status``)."""
    exporter = get_series_exporter(job.exporter)
    ready = is_ready(job)
    kwargs = {"series_slug": series.slug, "job_id": job.pk}
    return {
        "id": job.pk,
        "exporter": job.exporter,
        "name": str(exporter.verbose_name) if exporter else job.exporter,
        "state": job.state,
        "state_label": job.get_state_display(),
        "progress": round(job.progress, 3),
        "error": job.error,
        "filename": job.filename,
        "expires_at": job.expires_at.isoformat() if job.expires_at else None,
        "status_url": reverse("series_exports:status", kwargs=kwargs),
        "download_url": reverse("series_exports:download", kwargs=kwargs) if ready else None,
    }
