"""Creating a tournament and changing its settings."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from tournament import access
from tournament.models import TOURNAMENT_FIELDS, StaffRole, Tournament
from tournament.refusal import Refusal
from tournament.standings_db import schedule_standings_refresh


def _known_fields(fields: dict[str, Any]) -> None:
    unknown = sorted(set(fields) - set(TOURNAMENT_FIELDS))
    if unknown:
        raise Refusal(unknown[0], "tournament-fields", f"{unknown[0]}: not a tournament field")


@transaction.atomic
def create_tournament(user: AbstractBaseUser, **fields: Any) -> Tournament:
    """A new tournament; its creator becomes its organiser. Only an account allowed to organise
    (``access.can_create_tournament``) may create one, whichever door it comes through."""
    access.require_create_tournament(user)
    _known_fields(fields)
    tournament = Tournament(created_by=user, **fields)
    tournament.full_clean()
    tournament.save()
    StaffRole.objects.create(tournament=tournament, user=user, role=StaffRole.Role.ORGANISER, granted_by=user)
    access.forget_role(user, tournament)
    return tournament


@transaction.atomic
def update_tournament(tournament: Tournament, user: AbstractBaseUser, **fields: Any) -> Tournament:
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    _known_fields(fields)
    if "hanchan_count" in fields and tournament.rounds.filter(number__gt=fields["hanchan_count"]).exists():
        raise Refusal("hanchan_count", "seated-rounds", "hanchan_count: hanchan beyond it are already seated")
    for name, value in fields.items():
        setattr(tournament, name, value)
    tournament.full_clean()
    tournament.save()
    schedule_standings_refresh(tournament.pk)  # the tie-break or the rules may have changed
    return tournament
