"""Inviting an organiser from the site admins' page: the account (or the permission for an existing one,
as ``manage.py createorganiser`` gives it), a password-setting link shown once that works, and the new
organiser's first tournament; nobody else may invite, and a second invitation doubles nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from tournament.models import StaffRole, Tournament
from tournament.queries import access

PASSWORD = "lantern-harbour-1977"


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def superuser() -> Any:
    return get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)


@pytest.mark.django_db
def test_a_superuser_invites_and_the_new_organiser_sets_a_password_and_creates_a_tournament(
    superuser: Any,
) -> None:
    admin = signed_in(superuser)
    home = admin.get("/").content.decode()
    assert 'href="/organisers/invite/"' in home
    answer = admin.post("/organisers/invite/", {"name": "Mei Li", "email": "mei@example.org", "username": ""})
    assert answer.status_code == 200, answer.content[:500]
    invited = answer.context["invited"]
    assert invited["created"] and invited["username"] == "mei"
    assert invited["link"].startswith("http://testserver/accounts/set-password/")
    assert invited["link"] in answer.content.decode()
    assert "no-cache" in answer["Cache-Control"]  # the link is on this answer only
    mei = get_user_model().objects.get(username="mei")
    assert (mei.email, mei.first_name, mei.has_usable_password()) == ("mei@example.org", "Mei Li", False)
    assert access.can_create_tournament(mei) and not mei.is_staff

    newcomer = Client()
    form = newcomer.get(invited["link"], follow=True)
    assert form.status_code == 200 and form.context["validlink"]
    set_url = form.redirect_chain[-1][0]
    done = newcomer.post(set_url, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert done.status_code == 302 and done["Location"] == "/accounts/login/"
    assert newcomer.post("/accounts/login/", {"username": "mei", "password": PASSWORD}).status_code == 302
    created = newcomer.post(
        "/tournaments/new/",
        {"name": "Mei's Open", "slug": "meis-open", "starts_on": "2027-03-06", "ends_on": "2027-03-06"}
        | {"ruleset_preset": "WRC2015", "ruleset_overrides": "{}", "hanchan_count": "4"}
        | {"hanchan_minutes": "90"},
    )
    assert created.status_code == 302 and created["Location"] == "/t/meis-open/manage/"
    assert StaffRole.objects.get(tournament__slug="meis-open").user == mei
    # The link is one-time: once the password is set, it no longer works.
    again = Client().get(invited["link"], follow=True)
    assert not again.context["validlink"]


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["nobody", "organiser", "staff without the account permissions"])
def test_only_site_admins_may_invite(who: str, tournament: Tournament, organiser: Any) -> None:
    accounts = get_user_model()
    user = organiser if who == "organiser" else accounts.objects.create_user("someone", password=PASSWORD)
    if who.startswith("staff"):
        user.is_staff = True
        user.save()
    client = signed_in(user)
    assert client.get("/organisers/invite/").status_code == 403
    assert client.post("/organisers/invite/", {"email": "x@example.org"}).status_code == 403
    assert not accounts.objects.filter(email="x@example.org").exists()
    assert 'href="/organisers/invite/"' not in client.get("/").content.decode()
    assert Client().get("/organisers/invite/").status_code == 302  # to the sign-in page


@pytest.mark.django_db
def test_staff_with_the_account_permissions_may_invite() -> None:
    staff = get_user_model().objects.create_user("desk", password=PASSWORD, is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="auth", codename__in=["add_user", "change_user"])
    )
    assert signed_in(staff).post("/organisers/invite/", {"username": "kai"}).context["invited"]["created"]


@pytest.mark.django_db
def test_a_second_invitation_of_the_same_email_creates_no_duplicate(superuser: Any) -> None:
    admin = signed_in(superuser)
    first = admin.post("/organisers/invite/", {"email": "Mei@Example.org"}).context["invited"]
    second = admin.post("/organisers/invite/", {"email": "mei@example.org", "username": "mei-li"})
    assert second.context["invited"]["username"] == first["username"] == "Mei"
    assert not second.context["invited"]["created"]
    assert second.context["invited"]["link"]  # no password set yet: a fresh link
    assert get_user_model().objects.filter(email__iexact="mei@example.org").count() == 1


@pytest.mark.django_db
def test_an_existing_account_keeps_its_password_and_gets_no_link(superuser: Any) -> None:
    accounts = get_user_model()
    accounts.objects.create_user("ren", email="ren@example.org", password=PASSWORD)
    accounts.objects.create_user("mei", password=PASSWORD)
    admin = signed_in(superuser)
    answer = admin.post("/organisers/invite/", {"username": "REN"}).context["invited"]
    assert answer == {"username": "ren", "created": False, "link": ""}
    ren = accounts.objects.get(username="ren")
    assert ren.check_password(PASSWORD) and access.can_create_tournament(ren)
    # A new address whose name is taken: the next free name.
    assert admin.post("/organisers/invite/", {"email": "mei@elsewhere.org"}).context["invited"][
        "username"
    ] == ("mei-2")


@pytest.mark.django_db
def test_an_invitation_needs_an_email_or_a_name_and_a_valid_name(superuser: Any) -> None:
    admin = signed_in(superuser)
    empty = admin.post("/organisers/invite/", {"email": "", "username": ""})
    assert empty.context["form"].non_field_errors() == ["Give an e-mail address or a user name."]
    spaced = admin.post("/organisers/invite/", {"username": "mei li"})
    assert spaced.context["form"].errors["username"] == [
        "username: 1 to 150 letters, digits and @ . + - _ (no spaces)"
    ]
    assert get_user_model().objects.count() == 1
