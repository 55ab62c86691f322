"""The audit of changes to a tournament's people: one ``AuditEntry`` per change, written inside the
change's own transaction (so an entry exists exactly when its change does)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from tournament.models import AuditEntry, Tournament


def record(
    tournament: Tournament,
    user: AbstractBaseUser | None,
    action: str,
    subject: str,
    changes: dict[str, Any] | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        tournament=tournament,
        actor=user if user is not None and user.is_authenticated else None,
        action=action,
        subject=subject[:200],
        changes=changes or {},
    )
