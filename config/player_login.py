"""A player signs in without an account, for one tournament: with the one-time link of the seating card's
QR code (``/t/<slug>/in/<token>/``) or with their 6-digit PIN (``/t/<slug>/me/``), both issued by
``tournament.services.player_login``. The browser's session then holds the player
(``tournament.queries.access.player_of``), who may enter and confirm their table's sheet when the tournament's
players enter the results. Wrong PINs are limited by ``config.auth`` (per address and player, per address,
and per player from every address).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from config import auth
from tournament.core.collation import name_key
from tournament.core.refusal import Refusal
from tournament.models import Player, Tournament
from tournament.queries import access
from tournament.services import player_login
from tournament.views.base import access_tournament, render_page


def _sign_in(request: HttpRequest, tournament: Tournament, player: Player) -> HttpResponse:
    """The session now holds this player for this tournament (a new session key: no fixation)."""
    request.session.cycle_key()
    signed_in = request.session.get(access.PLAYER_SESSION_KEY)
    signed_in = dict(signed_in) if isinstance(signed_in, dict) else {}
    signed_in[str(tournament.pk)] = player.pk
    request.session[access.PLAYER_SESSION_KEY] = signed_in
    messages.success(request, gettext("Signed in as {name}.").format(name=player.name))
    return redirect("tournament:player", slug=tournament.slug, player_id=player.pk)


class PinForm(forms.Form):
    player = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Your name"))
    pin = forms.CharField(
        label=gettext_lazy("PIN"),
        min_length=player_login.PIN_DIGITS,
        max_length=player_login.PIN_DIGITS,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "one-time-code"}),
        help_text=gettext_lazy("The 6 digits on your seating card."),
    )

    def __init__(self, players: list[Player], *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["player"].choices = [("", "—"), *((p.pk, p.name) for p in players)]  # type: ignore[attr-defined]


@require_http_methods(["GET", "POST"])
def pin_login(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug)
    players = sorted(tournament.players.all(), key=lambda p: name_key(p.name))
    form = PinForm(players, request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        player = next(p for p in players if p.pk == form.cleaned_data["player"])
        attempt = auth.reserve_player(request, tournament.pk, player.pk)
        if attempt.block is not None:
            form.add_error(None, attempt.block.message)
            response = render_page(
                request, "tournament/player_login.html", tournament, {"form": form}, status=429
            )
            response["Retry-After"] = str(attempt.block.seconds)
            return response
        try:
            matches = player_login.pin_matches(player, form.cleaned_data["pin"])
        except BaseException:
            attempt.abandoned()
            raise
        if matches:
            attempt.succeeded()
            return _sign_in(request, tournament, player)
        attempt.failed()
        form.add_error("pin", gettext("This is not the PIN of this player."))
        status = 400
    elif request.method == "POST":
        status = 400
    return render_page(
        request,
        "tournament/player_login.html",
        tournament,
        {"form": form, "me": access.player_of(request, tournament)},
        status=status,
    )


@require_http_methods(["GET"])
def link_login(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The seating card's QR code: signs this browser in once, then lands on the player's own page."""
    tournament = access_tournament(request, slug)
    try:
        player = player_login.use_link(tournament, token)
    except Refusal as refused:
        return render_page(
            request,
            "tournament/player_login.html",
            tournament,
            {"form": PinForm(list(tournament.players.all())), "link_refusal": refused},
            status=refused.status,
        )
    return _sign_in(request, tournament, player)


@require_POST
def player_logout(request: HttpRequest, slug: str) -> HttpResponse:
    """This browser is no longer the player of this tournament (a staff login stays)."""
    tournament = access_tournament(request, slug)
    signed_in = request.session.get(access.PLAYER_SESSION_KEY)
    if isinstance(signed_in, dict) and signed_in.pop(str(tournament.pk), None) is not None:
        request.session[access.PLAYER_SESSION_KEY] = signed_in
        request.session.cycle_key()
        messages.success(request, gettext("Signed out."))
    return redirect("player_login", slug=tournament.slug)
