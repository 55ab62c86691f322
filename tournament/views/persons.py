"""A person's page across tournaments (public: what each tournament shows this reader), and the
organisers' page that links a tournament's registrations to persons."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournament.core.names import shown_name
from tournament.core.presentation import rating_chart
from tournament.core.refusal import Refusal
from tournament.models import AuditEntry, Person, Player, StaffRole
from tournament.queries.persons_db import match_candidates
from tournament.queries.ratings_db import history
from tournament.queries.series_db import person_events
from tournament.ratings.lists import entrant
from tournament.services import persons as person_services
from tournament.services.ratings import served_site_list
from tournament.views.base import access_tournament, render_page

Role = StaffRole.Role


@require_GET
def person(request: HttpRequest, person_id: int) -> HttpResponse:
    """Their events, rank, total and hanchan in each, and their figures across them: only the events
    the reader may see, as the reader sees them; not found when the reader sees none."""
    found = get_object_or_404(Person, pk=person_id)
    events, figures = person_events(found, request.user)
    if not events:
        raise Http404("No such person")
    latest = events[0]["player"]
    language = translation.get_language() or ""
    # The site's ratings: what the public sees of every public tournament, the same for every reader.
    ratings = served_site_list()
    key = entrant(found.pk, 0)
    skill = ratings.skill_of(key)
    shown_skill = None
    if skill is not None:
        place, rating, hanchan = skill
        ordinal, mu, sigma = rating.shown()
        steps = history(ratings, key)
        shown_skill = {
            "place": place,
            "of": len(ratings.skill),
            "rating": ordinal,
            "mu": mu,
            "sigma": sigma,
            "hanchan": hanchan,
            "chart": rating_chart([(step[3], step[4]) for step in steps]),
        }
    mers = ratings.mers_of(key)
    return render_page(
        request,
        "tournament/person.html",
        None,
        {
            "person": found,
            "shown": shown_name(latest.name, latest.native_name, language),
            "latest": latest,
            "events": events,
            "figures": figures,
            "skill": shown_skill,
            "ratings_stale": ratings.stale,
            "ratings_updated_at": ratings.updated_at,
            "ratings_failing": ratings.failing,
            "mers": None
            if mers is None
            else {"place": mers[0], "of": len(ratings.mers), "ranking": mers[1], "results": mers[2]},
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def persons_manage(request: HttpRequest, slug: str) -> HttpResponse:
    """Each registration with its person, or the persons it may be: confirm one, make it a new person,
    split it off its person, or undo a merge of this tournament (each audited)."""
    tournament = access_tournament(request, slug, Role.ORGANISER)
    if request.method == "POST" and request.POST.get("action") == "undo":
        entry = get_object_or_404(
            AuditEntry, tournament=tournament, action="person.merge", pk=_number(request.POST.get("entry"))
        )
        try:
            person_services.undo_merge(entry, request.user)
            messages.success(request, _("The merge is undone."))
        except Refusal as refusal:
            messages.error(request, refusal.message)
        return redirect("tournament:persons_manage", slug=tournament.slug)
    if request.method == "POST":
        action = request.POST.get("action", "")
        player = get_object_or_404(Player, tournament=tournament, pk=_number(request.POST.get("player")))
        try:
            if action == "confirm":
                # A person merged away a moment ago is still named by the page: the service says so.
                chosen = Person(pk=_number(request.POST.get("person")))
                person_services.confirm_match(player, chosen, request.user)
                messages.success(request, _("{name}: person confirmed.").format(name=player.name))
            elif action == "new":
                person_services.new_person(player, request.user)
                messages.success(request, _("{name}: a person of their own.").format(name=player.name))
            elif action == "split":
                person_services.split_registration(player, request.user)
                messages.success(request, _("{name}: split off the person.").format(name=player.name))
            else:
                messages.error(request, _("Choose an action."))
        except Refusal as refusal:
            messages.error(request, refusal.message)
        return redirect("tournament:persons_manage", slug=tournament.slug)
    language = translation.get_language() or ""
    rows = [
        {
            "player": player,
            "shown": shown_name(player.name, player.native_name, language),
            "suggestions": offered,
        }
        for player, offered in match_candidates(tournament, request.user)
    ]
    undone = set(
        tournament.audit_entries.filter(action="person.unmerge").values_list("changes__undone", flat=True)
    )
    merges = [
        entry
        for entry in tournament.audit_entries.filter(action="person.merge").order_by("-at", "-pk")[:50]
        if entry.pk not in undone and "removed_person" in entry.changes.get("merged", {})
    ]
    context = {"rows": rows, "merges": merges}
    return render_page(request, "tournament/persons_manage.html", tournament, context)


def _number(value: str | None) -> int:
    return int(value) if value is not None and value.isdigit() and len(value) < 12 else 0
