"""Pages and endpoints of a tournament's exports: list, request (POST), poll (JSON), download.

Thin views: they find the tournament, call ``exports.services`` and turn its answers and refusals into
responses (403 without the permission, 404 for what the user may not see, 409 for a file not ready, 410
for an expired one); JSON refusals take the API's form, ``{"errors": [{"field", "rule", "message"}]}``.
The pages speak the reader's language (else the tournament's default), and an export is written in the
language its asker chose (``asked_language``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from exports import services as export_services
from exports.exporters.ema import missing_latin_names
from exports.exporters.printable import score_sheets_pdf, seating_cards_pdf
from exports.models import ExportJob
from tournament.core.refusal import NOT_FOUND, Refusal
from tournament.models import Series, SeriesExportJob, StaffRole, Tournament
from tournament.queries import access
from tournament.services import player_login
from tournament.views.base import reader_chose_language, refusal_response, render_page

Role = StaffRole.Role
Job = TypeVar("Job", ExportJob, SeriesExportJob)


def asked_language(request: HttpRequest) -> str:
    """The language an export asked for in this request is written in: the reader's own choice (the
    switcher's cookie, or the browser's Accept-Language), blank when they made none (the tournament's
    default language then, else the site's: ``exports.services.export_language``)."""
    return translation.get_language() if reader_chose_language(request) else ""


def asked_address(request: HttpRequest) -> str:
    """The site's address as this request reached it (scheme and host, ``https://club.example``): an
    export asked for here makes its absolute addresses on it when SITE_URL is not set."""
    return request.build_absolute_uri("/").rstrip("/")


def _tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not access.can_view(request.user, tournament):
        raise Http404(_("Tournament not found."))
    timezone.activate(tournament.zone())  # the venue's time (the middleware ends it with the request)
    if tournament.language and not reader_chose_language(request):
        translation.activate(tournament.language)  # as every tournament page (access_tournament)
        request.LANGUAGE_CODE = tournament.language
    return tournament


@require_GET
def index(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug)
    exporters = export_services.exporters_for(request.user, tournament)
    identifiers = [exporter.identifier for exporter in exporters]
    jobs = []
    if request.user.is_authenticated:
        recent = ExportJob.objects.filter(
            tournament=tournament, requested_by=request.user, exporter__in=identifiers
        ).order_by("-requested_at")[:10]
        jobs = [export_services.job_status(job, tournament) for job in recent]
    focus = None
    job_id = request.GET.get("job", "")
    if job_id.isdigit():
        try:
            focus = export_services.job_status(
                export_services.access_export_job(request.user, tournament, int(job_id)), tournament
            )
        except (Refusal, PermissionDenied):
            focus = None
    # The EMA results file needs every ranked player's Latin last and first names: those without them are
    # listed before the file is made.
    missing_names = (
        missing_latin_names(tournament) if any(i.startswith("ema_results") for i in identifiers) else []
    )
    context = {
        "exporters": exporters,
        "missing_names": missing_names,
        "jobs": jobs,
        "focus": focus,
        "expiry_hours": export_services.expiry_hours(),
    }
    return render_page(request, "exports/index.html", tournament, context)


# A tournament's and a series' exports follow one flow; each verb below takes the service call that finds
# (or queues) the job with its permission check, and the job's status as its page shows it.


def _queued(
    request: HttpRequest, ask: Callable[[], Job], status_of: Callable[[Job], dict[str, Any]], page: str
) -> HttpResponse:
    """An export asked for (``ask``: the service that checks who may and queues the job). JSON callers
    (the page's script) get the job's status (202), or the refusal; a plain form post is sent back to
    the exports ``page``, which shows that job, or a refusal as not found."""
    wants_json = "application/json" in request.headers.get("Accept", "")
    try:
        job = ask()
    except Refusal as exc:
        if wants_json:
            return refusal_response(exc)
        raise Http404(exc.message) from None
    if wants_json:
        return JsonResponse(status_of(job), status=202)
    return redirect(f"{page}?job={job.pk}")


def _followed(find: Callable[[], Job], status_of: Callable[[Job], dict[str, Any]]) -> JsonResponse:
    """A job's status for the page's poll (``find``: the service that looks it up for this user)."""
    try:
        job = find()
    except Refusal as exc:
        return refusal_response(exc)
    return JsonResponse(status_of(job))


def _downloaded(find: Callable[[], Job]) -> HttpResponse:
    """A job's file (``find``: the service that checks it is this user's to download, ready and not
    expired); a refusal as plain text with its status, or not found."""
    try:
        job = find()
    except Refusal as exc:
        if exc.status == NOT_FOUND:
            raise Http404(exc.message) from None
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain; charset=utf-8")
    response = FileResponse(
        job.file.open("rb"), as_attachment=True, filename=job.filename, content_type=job.content_type
    )
    response["Cache-Control"] = "private, no-store"
    return response


@require_POST
def request_export(request: HttpRequest, slug: str, identifier: str) -> HttpResponse:
    """Queue an export. JSON callers (the page's script) get the job's status (202); a plain form post
    is sent back to the page, which shows that job."""
    tournament = _tournament(request, slug)
    return _queued(
        request,
        lambda: export_services.request_export(
            tournament, request.user, identifier, asked_language(request), asked_address(request)
        ),
        lambda job: export_services.job_status(job, tournament),
        reverse("exports:index", kwargs={"slug": slug}),
    )


@require_GET
def status(request: HttpRequest, slug: str, job_id: int) -> JsonResponse:
    tournament = _tournament(request, slug)
    return _followed(
        lambda: export_services.access_export_job(request.user, tournament, job_id),
        lambda job: export_services.job_status(job, tournament),
    )


@require_GET
def download(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    tournament = _tournament(request, slug)
    return _downloaded(lambda: export_services.job_for_download(request.user, tournament, job_id))


PRINTS = ("score-sheets", "seating-cards")


@login_required
@require_http_methods(["GET", "POST"])
def print_hanchan(request: HttpRequest, slug: str, kind: str, number: int) -> HttpResponse:
    """The printable score sheets (``?table=`` for one table) or seating cards of one hanchan, at once:
    a hanchan's PDF takes a fraction of a second. For the tournament's referees.

    Reading the PDF (GET) changes nothing, however often a browser or its PDF viewer fetches it again.
    Seating cards with new sign-in codes (a PIN and a one-time link for each player, in either entry mode:
    the link signs the player in on their own page, where they follow their results and next seats, and
    enter their table's sheet when the players enter the results) are a POST, CSRF-protected, from the
    page that says what they void (``new_codes``, its ``confirmed`` field): a link on another site cannot
    make every player's card void, and nobody voids them without having read so."""
    tournament = _tournament(request, slug)
    if kind not in PRINTS:
        raise Http404(_("Print score-sheets or seating-cards."))
    if not access.has_role(request.user, tournament, Role.REFEREE):
        raise PermissionDenied(
            _("Printing is for the referees of {tournament}.").format(tournament=tournament.name)
        )
    if not tournament.rounds.filter(number=number).exists():
        raise Http404(_("Hanchan {number} is not seated.").format(number=number))
    if request.method == "POST" and kind != "seating-cards":
        return HttpResponse(
            # The rule's identifier, then why, in the reader's language.
            "issue-sign-in-codes: " + _("New sign-in codes are printed on seating cards."),
            status=405,
            headers={"Allow": "GET"},
            content_type="text/plain; charset=utf-8",
        )
    if request.method == "POST" and request.POST.get("confirmed") != "yes":
        # New codes void the cards already handed out: only after the page that says so (new_codes).
        return HttpResponse(
            "confirm-new-codes: "
            + _(
                "New sign-in codes void every earlier card of these players: confirm it on the page "
                "that says so first."
            ),
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    table_text = request.GET.get("table", "")
    if kind == "score-sheets":
        table = int(table_text) if table_text.isdigit() and len(table_text) < 5 else None
        base_url = request.build_absolute_uri("/")  # each sheet's QR code: its table's entry page
        result = score_sheets_pdf(tournament, hanchan=number, table=table, base_url=base_url)
    else:
        # With new sign-in codes (in either entry mode), each card carries its player's fresh PIN and
        # one-time link (the old ones stop working); otherwise the card's code is the player's public page.
        issued = (
            player_login.issue_for_hanchan(tournament, number, request.user)
            if request.method == "POST"
            else None
        )
        base_url = request.build_absolute_uri("/").rstrip("/")
        result = seating_cards_pdf(tournament, hanchan=number, base_url=base_url, credentials=issued)
    response = HttpResponse(result.data, content_type=result.content_type)
    response["Content-Disposition"] = f'inline; filename="{result.filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def new_codes(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Before seating cards with new sign-in codes are printed: whose codes change, and that every card
    these players already hold stops working (the PIN and the unused link printed on it)."""
    tournament = _tournament(request, slug)
    if not access.has_role(request.user, tournament, Role.REFEREE):
        raise PermissionDenied(
            _("Printing is for the referees of {tournament}.").format(tournament=tournament.name)
        )
    round_ = tournament.rounds.filter(number=number).first()
    if round_ is None:
        raise Http404(_("Hanchan {number} is not seated.").format(number=number))
    return render_page(
        request,
        "exports/new_codes.html",
        tournament,
        {"round": round_, "codes": player_login.hanchan_codes(round_)},
    )


# ---------------------------------------------------------------------------------------------------
# A series' exports (``/series/<slug>/exports/``): the same flow, for anyone who sees the series' page (the
# archive for whoever may change the series and organises each of its tournaments).


@require_GET
def series_index(request: HttpRequest, series_slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=series_slug)
    exporters = export_services.series_exporters_for(series, request.user)
    jobs = []
    if request.user.is_authenticated:
        recent = SeriesExportJob.objects.filter(
            series=series, requested_by=request.user, exporter__in=[e.identifier for e in exporters]
        )[:10]
        jobs = [export_services.series_job_status(job, series) for job in recent]
    focus = None
    job_id = request.GET.get("job", "")
    if job_id.isdigit():
        try:
            job = export_services.access_series_export_job(series, int(job_id), request.user)
        except (Refusal, PermissionDenied):
            focus = None
        else:
            focus = export_services.series_job_status(job, series)
    context = {
        "series": series,
        "exporters": exporters,
        "jobs": jobs,
        "focus": focus,
        "expiry_hours": export_services.expiry_hours(),
    }
    return render_page(request, "exports/series_index.html", None, context)


@require_POST
def series_request(request: HttpRequest, series_slug: str, identifier: str) -> HttpResponse:
    """Queue an export of a series: JSON callers get the job's status (202), a form post the page."""
    series = get_object_or_404(Series, slug=series_slug)
    return _queued(
        request,
        lambda: export_services.request_series_export(
            series, request.user, identifier, asked_language(request)
        ),
        lambda job: export_services.series_job_status(job, series),
        reverse("series_exports:index", kwargs={"series_slug": series_slug}),
    )


@require_GET
def series_status(request: HttpRequest, series_slug: str, job_id: int) -> JsonResponse:
    series = get_object_or_404(Series, slug=series_slug)
    return _followed(
        lambda: export_services.access_series_export_job(series, job_id, request.user),
        lambda job: export_services.series_job_status(job, series),
    )


@require_GET
def series_download(request: HttpRequest, series_slug: str, job_id: int) -> HttpResponse:
    series = get_object_or_404(Series, slug=series_slug)
    return _downloaded(lambda: export_services.series_job_for_download(series, job_id, request.user))
