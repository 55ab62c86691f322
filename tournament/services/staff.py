"""The tournament's staff: organisers invite referees, head referees and fellow organisers (an account
created with a password shown once), grant, change and remove their roles. Every change is audited."""

from __future__ import annotations

import re
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Permission
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament import access
from tournament.models import StaffRole, Tournament
from tournament.refusal import Refusal
from tournament.services import audit

USERNAME = re.compile(r"^[\w.@+-]{1,150}$")


def checked_username(username: str) -> str:
    """The name of a new account, stripped, or the refusal that names the rule."""
    username = username.strip()
    if not USERNAME.fullmatch(username):
        raise Refusal(
            "username", "user-names", _("username: 1 to 150 letters, digits and @ . + - _ (no spaces)")
        )
    return username


def _unknown_role(role: str) -> str:
    """The refusal of a role that is none of the roles (named by their identifiers, which the API takes)."""
    return _("role: {role} is not one of {roles}").format(
        role=repr(role), roles=", ".join(StaffRole.Role.values)
    )


@transaction.atomic
def grant_role(
    tournament: Tournament, user: AbstractBaseUser, grantee: AbstractBaseUser, role: str
) -> StaffRole:
    """Organisers grant (or change) a user's role in their tournament; ``role`` "" removes it."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    if role == "":
        return remove_role(tournament, user, grantee)
    if role not in StaffRole.Role.values:
        raise Refusal("role", "staff-roles", _unknown_role(role))
    if grantee.pk == user.pk and role != StaffRole.Role.ORGANISER:
        raise Refusal("role", "keep-an-organiser", _("role: organisers cannot lower their own role"))
    before = (
        StaffRole.objects.filter(tournament=tournament, user=grantee).values_list("role", flat=True).first()
    )
    staff, _created = StaffRole.objects.update_or_create(
        tournament=tournament, user=grantee, defaults={"role": role, "granted_by": user}
    )
    if before != role:
        audit.record(
            tournament, user, "staff.grant", f"user {grantee.get_username()}", {"role": [before, role]}
        )
    access.forget_role(grantee, tournament)
    return staff


@transaction.atomic
def remove_role(tournament: Tournament, user: AbstractBaseUser, grantee: AbstractBaseUser) -> StaffRole:
    """Take a user's role away; refused for one's own role and for a user without a role."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    if grantee.pk == user.pk:
        raise Refusal("user", "keep-an-organiser", _("user: organisers cannot remove their own role"))
    staff = StaffRole.objects.filter(tournament=tournament, user=grantee).first()
    if staff is None:
        message = _("user: {name} has no role in {tournament}").format(
            name=grantee.get_username(), tournament=tournament.name
        )
        raise Refusal("user", "staff-roles", message)
    staff.delete()
    audit.record(
        tournament, user, "staff.remove", f"user {grantee.get_username()}", {"role": [staff.role, None]}
    )
    access.forget_role(grantee, tournament)
    return StaffRole(tournament=tournament, user=grantee, role="")


@transaction.atomic
def invite_staff(
    tournament: Tournament, user: AbstractBaseUser, username: str, role: str, *, email: str = ""
) -> tuple[StaffRole, str]:
    """A new account with a role in the tournament, and its password, generated here and shown once
    (only its hash is stored): the organiser hands it to the new referee, who can change it."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    username = checked_username(username)
    if role not in StaffRole.Role.values:
        raise Refusal("role", "staff-roles", _unknown_role(role))
    accounts = get_user_model()
    if accounts.objects.filter(username__iexact=username).exists():
        message = _("username: {name} exists already; give that account a role instead").format(name=username)
        raise Refusal("username", "user-names", message)
    password = secrets.token_urlsafe(12)
    grantee = accounts.objects.create_user(username=username, email=email.strip(), password=password)
    staff = StaffRole.objects.create(tournament=tournament, user=grantee, role=role, granted_by=user)
    audit.record(
        tournament, user, "staff.invite", f"user {username}", {"role": [None, role], "account": "created"}
    )
    return staff, password


@transaction.atomic
def make_organiser(
    username: str, *, email: str = "", password: str | None = None
) -> tuple[AbstractBaseUser, bool]:
    """An account that may create tournaments (Django's ``tournament.add_tournament`` permission, which
    ``access.can_create_tournament`` reads): a new one with ``password`` (checked by the site's password
    rules), or an existing one given the permission, its password unchanged. Returns the account and
    whether it was created. For the operator's ``manage.py createorganiser``."""
    username = checked_username(username)
    accounts = get_user_model()
    account = accounts.objects.filter(username__iexact=username).first()
    created = account is None
    if account is None:
        if not password:
            raise Refusal("password", "password-rules", _("password: a new account needs one"))
        candidate = accounts(username=username, email=email.strip())
        try:
            validate_password(password, candidate)
        except ValidationError as refused:
            raise Refusal("password", "password-rules", "password: " + " ".join(refused.messages)) from None
        account = accounts.objects.create_user(username=username, email=email.strip(), password=password)
    account.user_permissions.add(
        Permission.objects.get(codename="add_tournament", content_type__app_label="tournament")
    )
    return account, created


def account_exists(username: str) -> bool:
    return get_user_model().objects.filter(username__iexact=username.strip()).exists()
