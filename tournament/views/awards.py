"""The awards (``tournament.core.awards``, docs/awards.md): the public page, the projector's screen and the
organisers' choice. What the public sees of them follows the publication settings: a hanchan hidden from
the public standings, or whose seating is not yet published, is left out of the awards until it is
shown (``awards_db``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from scoring.rules.sheet import ROUND_LABELS, round_name
from tournament import services
from tournament.core.awards import (
    AWARDS,
    BEST_COMEBACK,
    BEST_HAND,
    FEWEST_DEAL_INS,
    LONGEST_DEALER_STREAK,
    MOST_RIICHI,
    MOST_WINS,
    MOST_YAKUMAN,
    Awards,
    Feat,
)
from tournament.core.refusal import Refusal
from tournament.core.statistics import rate
from tournament.forms.organiser import AwardsForm
from tournament.models import Player, StaffRole, Tournament
from tournament.queries import access
from tournament.queries.awards_db import SeriesEntrant, awards_of, winners_of
from tournament.queries.standings_db import public_cutoff, reader_cutoff, remember_live
from tournament.views.base import access_tournament, add_refusal, render_page

Role = StaffRole.Role

# What each award means, in short (docs/awards.md has the full definitions).
DEFINITIONS = {
    BEST_HAND: gettext_lazy(
        "The win of the highest value on the payment table (without honba and riichi sticks)."
    ),
    MOST_WINS: gettext_lazy("The most hands won; in a multiple ron, each winner wins."),
    FEWEST_DEAL_INS: gettext_lazy(
        "The lowest share of hands played in which the player dealt in, among the players who played at "
        "least half as many hands as the player who played most."
    ),
    MOST_RIICHI: gettext_lazy("The most riichi declared."),
    LONGEST_DEALER_STREAK: gettext_lazy(
        "The most renchan in a row: hands dealt again by the same dealer after a win or tenpai."
    ),
    BEST_COMEBACK: gettext_lazy(
        "The largest rise from a player's lowest points during a hanchan, below the starting points, to "
        "the final points, for a player who finished that hanchan first."
    ),
    MOST_YAKUMAN: gettext_lazy("The most yakuman won."),
}


def _points(value: int) -> str:
    return number_format(value, force_grouping=True)


def _round(label: str) -> str:
    """A hand's round ("East 1", as the sheet stores it) in the reader's language."""
    return round_name(ROUND_LABELS.index(label)) if label in ROUND_LABELS else label


def _feat_text(key: str, feat: Feat) -> str:
    """What the winner did, in a sentence of the reader's language."""
    value = int(feat.value) if not isinstance(feat.value, Fraction) else 0
    if key == BEST_HAND:
        return _("{value} points: hanchan {hanchan}, table {table}, {round} (hand {number})").format(
            value=_points(value),
            hanchan=feat.hanchan,
            table=feat.table,
            round=_round(feat.round),
            number=feat.number,
        )
    if key == MOST_WINS:
        return ngettext("{count} win", "{count} wins", value).format(count=value)
    if key == MOST_RIICHI:
        return ngettext("{count} riichi", "{count} riichi", value).format(count=value)
    if key == MOST_YAKUMAN:
        return ngettext("{count} yakuman", "{count} yakuman", value).format(count=value)
    if key == FEWEST_DEAL_INS:
        count, hands = feat.count or 0, feat.hands or 0
        return ngettext(
            "{count} deal-in in {hands} hands ({percent} %)",
            "{count} deal-ins in {hands} hands ({percent} %)",
            count,
        ).format(count=count, hands=hands, percent=number_format(rate(count, hands) or 0, 1))
    if key == LONGEST_DEALER_STREAK:
        return ngettext(
            "{count} renchan in a row: hanchan {hanchan}, table {table}, from {round}",
            "{count} renchan in a row: hanchan {hanchan}, table {table}, from {round}",
            value,
        ).format(count=value, hanchan=feat.hanchan, table=feat.table, round=_round(feat.round))
    return _(
        "+{rise} points: from {low} after {round} (hand {number}) to {final}, first in hanchan {hanchan}, "
        "table {table}"
    ).format(
        rise=_points(value),
        low=_points(feat.low or 0),
        round=_round(feat.round),
        number=feat.number,
        final=_points(feat.final or 0),
        hanchan=feat.hanchan,
        table=feat.table,
    )


def award_rows(tournament: Tournament, awards: Awards) -> list[dict[str, Any]]:
    """Each chosen award with its label, definition and winners (player, sentence), for the templates."""
    labels = dict(Tournament.Award.choices)
    players: dict[int, Player] = winners_of(tournament, awards)
    return [
        {
            "key": award.key,
            "label": labels[award.key],
            "definition": DEFINITIONS[award.key],
            "winners": [
                {"player": players[feat.player], "text": _feat_text(award.key, feat)}
                for feat in award.winners
                if feat.player in players
            ],
        }
        for award in awards.awards
    ]


def series_award_rows(
    awards: Awards, entrants: dict[int, SeriesEntrant], events: dict[int, str]
) -> list[dict[str, Any]]:
    """A series' chosen awards as ``award_rows`` gives a tournament's: each winner an entrant of the
    series, a hand or a hanchan preceded by its event's name."""
    labels = dict(Tournament.Award.choices)
    return [
        {
            "key": award.key,
            "label": labels[award.key],
            "definition": DEFINITIONS[award.key],
            "winners": [
                {
                    "player": entrants[feat.player],
                    "text": _feat_text(award.key, feat)
                    if feat.event is None
                    else _("{event}: {feat}").format(
                        event=events.get(feat.event, ""), feat=_feat_text(award.key, feat)
                    ),
                }
                for feat in award.winners
                if feat.player in entrants
            ],
        }
        for award in awards.awards
    ]


@require_GET
def awards(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    up_to = reader_cutoff(request.user, tournament)
    rounds = access.public_rounds(request.user, tournament)

    def page() -> HttpResponse:
        result = awards_of(tournament, up_to=up_to, rounds=rounds)
        return render_page(
            request,
            "tournament/awards.html",
            tournament,
            {"awards": award_rows(tournament, result), "result": result, "as_of": up_to},
        )

    # A page the players open on their phones: a visitor without a session gets the copy every other
    # gets, computed once per change of the results or of the settings (the standings' version, which
    # the awards' choice, a signed sheet and a reveal all move) and per language.
    if request.user.is_authenticated or request.COOKIES.keys() & {settings.SESSION_COOKIE_NAME, "messages"}:
        return page()
    shown = "all" if rounds is None else ",".join(str(number) for number in sorted(rounds))
    part = f"awards-html:{up_to}:{shown}:{translation.get_language()}"
    return HttpResponse(remember_live(tournament, part, lambda: {"body": page().content.decode()})["body"])


@require_GET
def projector_awards(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    # The room's screen: what the public sees, whoever is signed in on it.
    up_to = public_cutoff(tournament)
    result = awards_of(tournament, up_to=up_to, rounds=access.public_rounds(None, tournament))
    return render_page(
        request,
        "tournament/awards_projector.html",
        tournament,
        {"awards": award_rows(tournament, result), "result": result, "as_of": up_to},
    )


@login_required
@require_http_methods(["GET", "POST"])
def awards_manage(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.ORGANISER)
    form = AwardsForm(request.POST or None, initial={"awards": tournament.awards})
    if request.method == "POST" and form.is_valid():
        chosen = set(form.cleaned_data["awards"])
        try:
            services.update_tournament(
                tournament, request.user, awards=[key for key in AWARDS if key in chosen]
            )
        except (Refusal, ValidationError) as error:
            add_refusal(form, error)
        else:
            messages.success(request, _("Saved."))
            return redirect("tournament:awards_manage", slug=tournament.slug)
    return render_page(request, "tournament/awards_manage.html", tournament, {"form": form})
