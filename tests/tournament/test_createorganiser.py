"""``manage.py createorganiser``: an organiser's own account without the Django admin, named in the README's
first screen; the site's password rules apply, an existing account keeps its password, and the new
organiser creates a tournament and becomes its organiser."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tournament import services
from tournament.models import StaffRole
from tournament.queries import access

PASSWORD = "lantern-harbour-1977"


@pytest.mark.django_db
def test_a_new_organiser_signs_in_and_creates_a_tournament(
    monkeypatch: Any, client: Any, capsys: Any
) -> None:
    monkeypatch.setenv("ORGANISER_PASSWORD", PASSWORD)
    call_command("createorganiser", "mei", "--email", "mei@example.org", "--noinput")
    assert 'sign in at /accounts/login/, then choose "Create a tournament"' in capsys.readouterr().out
    mei = get_user_model().objects.get(username="mei")
    assert mei.email == "mei@example.org" and not mei.is_staff and not mei.is_superuser
    assert access.can_create_tournament(mei)
    assert client.login(username="mei", password=PASSWORD)
    assert b"Create a tournament" in client.get("/").content
    open_ = services.create_tournament(
        mei,
        name="Mei's Open",
        slug="meis-open",
        starts_on=date(2027, 3, 6),
        ends_on=date(2027, 3, 6),
        hanchan_count=4,
    )
    assert StaffRole.objects.get(tournament=open_, user=mei).role == StaffRole.Role.ORGANISER


@pytest.mark.django_db
def test_an_existing_account_keeps_its_password(monkeypatch: Any, capsys: Any) -> None:
    accounts = get_user_model()
    accounts.objects.create_user(username="ren", password=PASSWORD)
    assert not access.can_create_tournament(accounts.objects.get(username="ren"))
    monkeypatch.setenv("ORGANISER_PASSWORD", "something-else-entirely-42")
    call_command("createorganiser", "REN", "--noinput")  # names are matched whatever their case
    assert "ren may now create tournaments (password unchanged)" in capsys.readouterr().out
    ren = accounts.objects.get(username="ren")
    assert access.can_create_tournament(ren) and ren.check_password(PASSWORD)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "password", "message"),
    [
        ("mei", "", "password: a new account needs one [password-rules]"),
        ("mei", "12345678", "password: This password is too common."),
        ("mei", "short", "This password is too short."),
        ("mei li", PASSWORD, "username: 1 to 150 letters, digits and @ . + - _ (no spaces) [user-names]"),
    ],
)
def test_a_bad_name_or_password_is_refused_and_nothing_is_stored(
    monkeypatch: Any, username: str, password: str, message: str
) -> None:
    monkeypatch.setenv("ORGANISER_PASSWORD", password)
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command("createorganiser", username, "--noinput")
    assert not get_user_model().objects.exists()
