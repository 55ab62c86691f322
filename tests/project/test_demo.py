"""`make run` loads the demo with `manage.py load_demo`; running it twice must not duplicate anything."""

from __future__ import annotations

from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command


def row_counts() -> dict[str, int]:
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.app_label in {"auth", "tournament", "scoring", "penalties"}
    }


@pytest.mark.django_db
def test_demo_is_idempotent() -> None:
    first = StringIO()
    call_command("load_demo", stdout=first)
    counts = row_counts()
    assert counts["auth.User"] >= 1
    second = StringIO()
    call_command("load_demo", stdout=second)
    assert row_counts() == counts
    assert "Demo site admin: admin / " in second.getvalue()
