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

from tournament.core.refusal import Refusal
from tournament.models import StaffRole, Tournament
from tournament.queries import access
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


def grant_organiser_permission(account: AbstractBaseUser) -> None:
    """Let ``account`` create tournaments: Django's ``tournament.add_tournament`` permission, which
    ``access.can_create_tournament`` reads. Shared by ``make_organiser`` and ``invite_organiser``."""
    account.user_permissions.add(  # type: ignore[attr-defined]
        Permission.objects.get(codename="add_tournament", content_type__app_label="tournament")
    )


@transaction.atomic
def make_organiser(
    username: str, *, email: str = "", password: str | None = None
) -> tuple[AbstractBaseUser, bool]:
    """An account that may create tournaments (``grant_organiser_permission``): a new one with
    ``password`` (checked by the site's password rules), or an existing one given the permission, its
    password unchanged. Returns the account and whether it was created. For the operator's
    ``manage.py createorganiser``."""
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
    grant_organiser_permission(account)
    return account, created


def _free_username(wanted: str) -> str:
    """``wanted``, or ``wanted-2``, ``wanted-3``… when an account has that name already."""
    accounts = get_user_model()
    candidate, number = wanted, 1
    while accounts.objects.filter(username__iexact=candidate).exists():
        number += 1
        suffix = f"-{number}"
        candidate = wanted[: 150 - len(suffix)] + suffix
    return candidate


def _username_from_email(email: str) -> str:
    """A user name made of an e-mail address's part before the @, kept to the allowed characters."""
    local = re.sub(r"[^\w.@+-]", "", email.split("@", 1)[0])[:150]
    return local or "organiser"


@transaction.atomic
def invite_organiser(
    user: AbstractBaseUser, *, username: str = "", email: str = "", name: str = ""
) -> tuple[AbstractBaseUser, bool]:
    """A site admin (``access.can_invite_organisers``) invites an organiser: the account named by
    ``username``, else the one with this ``email``, is given the organiser's permission
    (``grant_organiser_permission``, as ``manage.py createorganiser`` does), its password unchanged; when
    there is none, a new account is created without a usable password, which its owner sets through a
    password-setting link; ``name`` is its first name. A second invitation of the same name or e-mail
    finds the same account. Returns the account and whether it was created."""
    access.require_invite_organisers(user)
    username, email = username.strip(), email.strip()
    if not username and not email:
        raise Refusal("email", "organiser-invitation", _("email: give an e-mail address or a user name"))
    if username:
        username = checked_username(username)
    accounts = get_user_model()
    account = None
    if username:
        account = accounts.objects.filter(username__iexact=username).first()
    if account is None and email:
        account = accounts.objects.filter(email__iexact=email).order_by("pk").first()
    created = account is None
    if account is None:
        account = accounts.objects.create_user(
            username=username or _free_username(checked_username(_username_from_email(email))),
            email=email,
            password=None,
            first_name=name.strip()[:150],
        )
    elif email and not account.email:  # type: ignore[attr-defined]
        account.email = email  # type: ignore[attr-defined]
        account.save(update_fields=["email"])
    grant_organiser_permission(account)
    return account, created


def account_exists(username: str) -> bool:
    return get_user_model().objects.filter(username__iexact=username.strip()).exists()
