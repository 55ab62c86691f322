"""The site admins' page: inviting organisers, each new account with a password-setting link shown once."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.contrib.auth.tokens import default_token_generator
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournament import services
from tournament.core.refusal import Refusal
from tournament.forms.organiser import InviteOrganiserForm
from tournament.queries import access
from tournament.views.base import add_refusal, render_page


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def invite_organiser(request: HttpRequest) -> HttpResponse:
    """Invite an organiser (``services.invite_organiser``); a new account's password-setting link, made
    with Django's password-reset tokens, is on this answer only."""
    access.require_invite_organisers(request.user)
    form = InviteOrganiserForm(request.POST or None)
    invited = None
    if request.method == "POST" and form.is_valid():
        try:
            account, created = services.invite_organiser(request.user, **form.cleaned_data)
        except Refusal as error:
            add_refusal(form, error)
        else:
            link = ""
            if not account.has_usable_password():
                path = reverse(
                    "password_set",
                    kwargs={
                        "uidb64": urlsafe_base64_encode(force_bytes(account.pk)),
                        "token": default_token_generator.make_token(account),
                    },
                )
                link = request.build_absolute_uri(path)
            invited = {"username": account.get_username(), "created": created, "link": link}
            form = InviteOrganiserForm()
    return render_page(request, "tournament/invite_organiser.html", None, {"form": form, "invited": invited})
