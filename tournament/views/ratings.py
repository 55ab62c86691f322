"""The tournament's skill ratings (``tournament.ratings.skill``, docs/ratings.md): a rating list of its
players from the hanchan the reader may see."""

from __future__ import annotations

from collections.abc import Collection

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_GET

from tournament import access
from tournament.models import Player, Tournament
from tournament.ratings_db import skill_of
from tournament.standings_db import reader_cutoff, remember_live
from tournament.views.base import access_tournament, render_page


@require_GET
def ratings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    up_to = reader_cutoff(request.user, tournament)
    rounds = access.public_rounds(request.user, tournament)
    # Every hanchan is rated again for the page (about 150 us a table): a visitor without a session gets
    # the copy every other gets, computed once per change of the results (the standings' version) and per
    # language, as the awards page does.
    if request.user.is_authenticated or request.COOKIES.keys() & {settings.SESSION_COOKIE_NAME, "messages"}:
        return _page(request, tournament, up_to, rounds)
    shown = "all" if rounds is None else ",".join(str(number) for number in sorted(rounds))
    part = f"ratings-html:{up_to}:{shown}:{translation.get_language()}"
    body = remember_live(
        tournament, part, lambda: {"body": _page(request, tournament, up_to, rounds).content.decode()}
    )["body"]
    return HttpResponse(body)


def _page(
    request: HttpRequest, tournament: Tournament, up_to: int | None, rounds: Collection[int] | None
) -> HttpResponse:
    result = skill_of(tournament, up_to=up_to, rounds=rounds)
    # The ranked field only: substitutes' and disqualified players' games rate the others, but they are
    # not listed (WRCR 2015 §7.1, §7.2).
    players = {
        player.pk: player
        for player in Player.objects.filter(tournament=tournament, is_substitute=False, disqualified=False)
    }
    rows = []
    for player, skill, games in result.table():
        if player in players:
            rating, mu, sigma = skill.shown()
            rows.append(
                {"player": players[player], "rating": rating, "mu": mu, "sigma": sigma, "games": games}
            )
    return render_page(request, "tournament/ratings.html", tournament, {"rows": rows, "as_of": up_to})
