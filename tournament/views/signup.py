"""The players' own sign-up pages: the form, the confirmation and the player's own page by the emailed
links, and the public list of the registered (``tournament.services.signups`` does every change)."""

from __future__ import annotations

from collections import Counter

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_http_methods

from tournament.core.refusal import Refusal
from tournament.core.signups import EDITABLE, LIVE, STAFF_ORDER
from tournament.forms.signup import AnnouncementForm, RegistrationSettingsForm, SignUpEditForm, SignUpForm
from tournament.models import RegistrationSettings, SignUp, StaffRole
from tournament.queries import access, signups_db
from tournament.services import announcements, signups
from tournament.views.base import access_tournament, add_refusal, render_page
from tournament.views.shared import saw_change, share_until, shared_by_visitors


def _base_url(request: HttpRequest) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def _context(tournament: object) -> dict[str, object]:
    row = RegistrationSettings.objects.filter(tournament=tournament).first()
    now = timezone.now()
    rules = signups_db.settings_from_row(row)
    return {
        "registration": row,
        # When the page turns by itself (the registration opening or closing): a shared copy ends then.
        "turns_at": min(
            (moment for moment in (rules.opens_at, rules.closes_at) if moment and moment > now), default=None
        ),
        "is_open": rules.is_open(now),
        "is_closed": rules.is_closed(now),
        "counts": signups_db.counts(tournament, rules),  # type: ignore[arg-type]
    }


@require_http_methods(["GET", "POST"])
@shared_by_visitors
def signup_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    form = SignUpForm(request.POST or None)
    sent = False
    if request.method == "POST" and form.is_valid():
        try:
            signups.sign_up(
                tournament,
                form.cleaned_data,
                address=access.client_address(request),
                language=get_language() or "en",
                base_url=_base_url(request),
            )
            sent = True
        except Refusal as refusal:
            add_refusal(form, refusal)
    context = {"form": form, "sent": sent, **_context(tournament)}
    response = render_page(
        request, "tournament/signup.html", tournament, context, status=400 if form.errors else 200
    )
    return share_until(response, context["turns_at"])  # type: ignore[arg-type]


@require_http_methods(["GET", "POST"])
def confirm(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The link of the confirmation message shows a button; the confirmation is its POST (a mail
    scanner that fetches the link confirms nothing)."""
    tournament = access_tournament(request, slug)
    signup = None
    refusal = None
    if request.method == "POST":
        try:
            signup = signups.confirm(tournament, token, base_url=_base_url(request))
        except Refusal as error:
            refusal = error
    context = {"signup": signup, "refusal": refusal, "token": token}
    response = render_page(
        request,
        "tournament/signup_confirm.html",
        tournament,
        context,
        status=refusal.status if refusal else 200,
    )
    return saw_change(response) if signup is not None else response


@require_http_methods(["GET", "POST"])
def manage(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    try:
        if request.method == "POST" and request.POST.get("action") == "accept":
            signup = signups.accept_offer(tournament, token, base_url=_base_url(request))
        elif request.method == "POST":
            signup = signups.cancel_by_player(tournament, token, base_url=_base_url(request))
        else:
            signup = signups.find_by_manage_token(tournament, token)
    except Refusal as refusal:
        context = {"refusal": refusal}
        return render_page(
            request, "tournament/signup_manage.html", tournament, context, status=refusal.status
        )
    context = {
        "signup": signup,
        "position": signups_db.waiting_position(signup),
        "can_cancel": signup.state in LIVE,
    }
    response = render_page(request, "tournament/signup_manage.html", tournament, context)
    return saw_change(response) if request.method == "POST" else response


@require_GET
@shared_by_visitors
def registered_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The registered players (every sign-up consented to its name being published), and the counts."""
    tournament = access_tournament(request, slug)
    registered = SignUp.objects.filter(tournament=tournament, state=SignUp.State.REGISTERED).order_by(
        "last_name", "first_name"
    )
    context = {"registered": registered, **_context(tournament)}
    response = render_page(request, "tournament/signup_list.html", tournament, context)
    return share_until(response, context["turns_at"])  # type: ignore[arg-type]


STAFF_ACTIONS = ("approve", "reject", "cancel", "paid", "unpaid", "registered", "waiting_list", "players")


@require_http_methods(["GET", "POST"])
def staff_signups(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's registration page: the sign-ups with their counts by state and by country, and
    the staff's actions (one service each)."""
    tournament = access_tournament(request, slug, StaffRole.Role.ORGANISER)
    refusal = None
    done = ""
    status = 200
    editing, edit_form = _editing(request, tournament)
    edited = None
    row = RegistrationSettings.objects.filter(tournament=tournament).first()
    posted_settings = request.method == "POST" and request.POST.get("action") == "settings"
    settings_form = RegistrationSettingsForm(request.POST if posted_settings else None, instance=row)
    settings_saved = False
    posted_announcement = request.method == "POST" and request.POST.get("action") == "announce"
    announcement_form = AnnouncementForm(request.POST if posted_announcement else None)
    announced = None
    if request.method == "POST":
        action = request.POST.get("action", "")
        base = _base_url(request)
        try:
            if action == "announce":
                if announcement_form.is_valid():
                    announced = announcements.announce(
                        tournament,
                        request.user,  # type: ignore[arg-type]
                        announcement_form.cleaned_data,
                        base_url=base,
                    )
                    announcement_form = AnnouncementForm()
                else:
                    status = 400
            elif action == "settings":
                if settings_form.is_valid():
                    signups.configure(tournament, request.user, settings_form.cleaned_data, base_url=base)  # type: ignore[arg-type]
                    settings_saved = True
                    row = RegistrationSettings.objects.get(tournament=tournament)
                    settings_form = RegistrationSettingsForm(instance=row)
                else:
                    status = 400
            elif action == "edit" and editing is not None and edit_form is not None:
                if edit_form.is_valid():
                    edited = signups.edit(editing, request.user, edit_form.cleaned_data)  # type: ignore[arg-type]
                    editing = edit_form = None
            elif action == "players":
                done = str(len(signups.turn_into_players(tournament, request.user)))  # type: ignore[arg-type]
            elif action in STAFF_ACTIONS:
                signup = get_object_or_404(SignUp, tournament=tournament, pk=request.POST.get("signup") or 0)
                user = request.user
                if action == "approve":
                    signups.approve(signup, user, base_url=base)  # type: ignore[arg-type]
                elif action == "reject":
                    signups.reject(signup, user, base_url=base)  # type: ignore[arg-type]
                elif action == "cancel":
                    signups.cancel_by_staff(signup, user, base_url=base)  # type: ignore[arg-type]
                elif action in ("paid", "unpaid"):
                    signups.mark_paid(signup, user, action == "paid")  # type: ignore[arg-type]
                else:
                    signups.move(signup, action, user, base_url=base)  # type: ignore[arg-type]
        except Refusal as error:
            if action == "announce":
                add_refusal(announcement_form, error)
                status = error.status
            elif action == "settings":
                add_refusal(settings_form, error)
                status = error.status
            elif edit_form is not None:
                add_refusal(edit_form, error)
                status = error.status
            else:
                refusal = error
    rows = sorted(
        SignUp.objects.filter(tournament=tournament).order_by("confirmed_at", "pk"),
        key=lambda row: STAFF_ORDER.index(row.state),
    )
    by_country = Counter(str(row.country.name) if row.country else "" for row in rows if row.state in LIVE)
    context = {
        "rows": rows,
        "by_country": sorted(by_country.items()),
        "refusal": refusal,
        "done": done,
        "editing": editing,
        "edit_form": edit_form,
        "edited": edited,
        "settings_form": settings_form,
        "settings_saved": settings_saved,
        "announcement_form": announcement_form,
        "announced": announced,
        "announcements": announcements.announcements(tournament),
        **_context(tournament),
    }
    if refusal is not None:
        status = refusal.status
    elif edit_form is not None and edit_form.errors and status == 200:
        status = 400
    return render_page(request, "tournament/signup_staff.html", tournament, context, status=status)


def _editing(request: HttpRequest, tournament: object) -> tuple[SignUp | None, SignUpEditForm | None]:
    """The sign-up the page corrects (``?edit=<id>`` to show its form, ``action=edit`` to save it) and its
    form, filled with what was posted or else with the sign-up's fields."""
    if request.method == "POST":
        pk = request.POST.get("signup") if request.POST.get("action") == "edit" else None
    else:
        pk = request.GET.get("edit")
    if not pk:
        return None, None
    signup = get_object_or_404(SignUp, tournament=tournament, pk=pk if str(pk).isdigit() else 0)
    if request.method == "POST":
        return signup, SignUpEditForm(request.POST)
    initial = {name: getattr(signup, name) for name in EDITABLE}
    initial["country"] = signup.country.code or ""
    return signup, SignUpEditForm(initial=initial)
