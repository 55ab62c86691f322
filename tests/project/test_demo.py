"""`make run` loads the demo with `manage.py load_demo`; running it twice must not duplicate anything, and
it never runs unasked on a production site nor resets a password."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tournament.management.commands.load_demo import DEMO_PASSWORD


def row_counts() -> dict[str, int]:
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.app_label in {"auth", "tournament", "scoring", "penalties"}
    }


@pytest.fixture
def local(settings: Any) -> None:
    settings.DEBUG = True  # as `make run`


@pytest.mark.django_db
def test_demo_is_idempotent(local: None) -> None:
    first = StringIO()
    call_command("load_demo", stdout=first)
    counts = row_counts()
    assert counts["auth.User"] >= 1
    second = StringIO()
    call_command("load_demo", stdout=second)
    assert row_counts() == counts
    assert f"Demo site admin: admin / {DEMO_PASSWORD}" in second.getvalue()
    assert get_user_model().objects.get(username="referee").check_password(DEMO_PASSWORD)


@pytest.mark.django_db
def test_with_debug_off_the_demo_needs_force(settings: Any) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("load_demo", stdout=StringIO())
    assert row_counts()["auth.User"] == 0 and row_counts()["tournament.Tournament"] == 0
    call_command("load_demo", "--force", stdout=StringIO())
    assert row_counts()["tournament.Tournament"] == 1


@pytest.mark.django_db
def test_an_existing_account_keeps_its_password(local: None) -> None:
    users = get_user_model().objects
    users.create_superuser("admin", password="the-real-admins-own-password")
    out = StringIO()
    call_command("load_demo", stdout=out)
    admin = users.get(username="admin")
    assert admin.check_password("the-real-admins-own-password") and not admin.check_password(DEMO_PASSWORD)
    assert "Demo site admin: admin (an existing account: its password is left as it is)" in out.getvalue()
    # The missing demo accounts were created with the demo password.
    assert users.get(username="organiser").check_password(DEMO_PASSWORD)
    assert f"Demo organiser: organiser / {DEMO_PASSWORD}" in out.getvalue()
