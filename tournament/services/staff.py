"""The tournament's staff: organisers grant, change and remove the roles of referees, head referees and
fellow organisers."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from tournament import access
from tournament.models import StaffRole, Tournament
from tournament.refusal import Refusal


@transaction.atomic
def grant_role(
    tournament: Tournament, user: AbstractBaseUser, grantee: AbstractBaseUser, role: str
) -> StaffRole:
    """Organisers grant (or change) a user's role in their tournament; ``role`` "" removes it."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    if role == "":
        if grantee.pk == user.pk:
            raise Refusal("user", "keep-an-organiser", "user: organisers cannot remove their own role")
        StaffRole.objects.filter(tournament=tournament, user=grantee).delete()
        access.forget_role(grantee, tournament)
        return StaffRole(tournament=tournament, user=grantee, role="")
    if role not in StaffRole.Role.values:
        raise Refusal(
            "role", "staff-roles", f"role: {role!r} is not one of {', '.join(StaffRole.Role.values)}"
        )
    if grantee.pk == user.pk and role != StaffRole.Role.ORGANISER:
        raise Refusal("role", "keep-an-organiser", "role: organisers cannot lower their own role")
    staff, _ = StaffRole.objects.update_or_create(
        tournament=tournament, user=grantee, defaults={"role": role, "granted_by": user}
    )
    access.forget_role(grantee, tournament)
    return staff
