"""The tournament's skill ratings (``tournament.ratings.skill``, docs/ratings.md): a rating list of its
players from the hanchan the reader may see."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from tournament import access
from tournament.models import Player
from tournament.ratings_db import skill_of
from tournament.standings_db import reader_cutoff
from tournament.views.base import access_tournament, render_page


@require_GET
def ratings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    up_to = reader_cutoff(request.user, tournament)
    result = skill_of(tournament, up_to=up_to, rounds=access.public_rounds(request.user, tournament))
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
