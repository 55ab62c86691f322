"""Creating a tournament and changing its settings."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournament.core.inputs import require_printable, require_printable_json
from tournament.core.refusal import Refusal
from tournament.models import TOURNAMENT_FIELDS, StaffRole, Tournament
from tournament.queries import access
from tournament.queries.live_tables import tables_changed_on_commit
from tournament.queries.standings_db import schedule_standings_refresh
from tournament.services import audit
from tournament.services.addresses import TOURNAMENT_PREFIX, reserved_slugs

# WRCR 2015 §8.2 recommends 90 minutes a hanchan; a limit beyond five hours is no time limit at all.
MAX_HANCHAN_MINUTES = 300
SLUG_LENGTH = Tournament._meta.get_field("slug").max_length or 80


def free_slug(name: str) -> str:
    """The address of a new tournament whose organiser left it empty: its name in lower-case ASCII words
    joined by hyphens (``slugify``), ``tournament`` when no such word is left (a name in another script),
    with ``-2``, ``-3``… when another tournament has it already."""
    base = slugify(name)[:SLUG_LENGTH].strip("-") or "tournament"
    candidate, number = base, 1
    while Tournament.objects.filter(slug=candidate).exists():
        number += 1
        suffix = f"-{number}"
        candidate = base[: SLUG_LENGTH - len(suffix)].rstrip("-") + suffix
    return candidate


def check_fields(fields: dict[str, Any]) -> None:
    """Refuse unknown fields, names and custom rules that are not printable, an endless hanchan and an
    address a page of the site uses. The form, the API and the archive's import all check with it (the
    model's ``full_clean`` does the rest)."""
    unknown = sorted(set(fields) - set(TOURNAMENT_FIELDS))
    if unknown:
        raise Refusal(
            unknown[0], "tournament-fields", _("{field}: not a tournament field").format(field=unknown[0])
        )
    # Names are one line of printable text; the custom rules hold no control character either.
    require_printable("name", fields.get("name"))
    require_printable("venue", fields.get("venue"))
    require_printable_json("ruleset_overrides", fields.get("ruleset_overrides"))
    slug = fields.get("slug")
    if isinstance(slug, str) and slug in reserved_slugs(TOURNAMENT_PREFIX):
        raise Refusal(
            "slug",
            "reserved-slug",
            _("slug: {slug} is the address of a page of the site; choose another").format(slug=slug),
        )
    minutes = fields.get("hanchan_minutes")
    if isinstance(minutes, int) and minutes > MAX_HANCHAN_MINUTES:
        raise Refusal(
            "hanchan_minutes",
            "hanchan-time (WRCR 2015 §8.2)",
            _("hanchan_minutes: at most {limit} (WRCR 2015 §8.2 recommends 90)").format(
                limit=MAX_HANCHAN_MINUTES
            ),
        )


@transaction.atomic
def create_tournament(user: AbstractBaseUser, **fields: Any) -> Tournament:
    """A new tournament; its creator becomes its organiser. An empty ``slug`` is made from the name
    (``free_slug``). Only an account allowed to organise (``access.can_create_tournament``) may create
    one, whichever door it comes through."""
    access.require_create_tournament(user)
    check_fields(fields)
    if not fields.get("slug") and isinstance(fields.get("name"), str):
        fields["slug"] = free_slug(fields["name"])
    tournament = Tournament(created_by=user, **fields)
    tournament.full_clean()
    tournament.save()
    StaffRole.objects.create(tournament=tournament, user=user, role=StaffRole.Role.ORGANISER, granted_by=user)
    access.forget_role(user, tournament)
    return tournament


@transaction.atomic
def update_tournament(tournament: Tournament, user: AbstractBaseUser, **fields: Any) -> Tournament:
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    check_fields(fields)
    if "slug" in fields and not fields["slug"]:
        del fields["slug"]  # an address left empty keeps the tournament's: it never changes unasked
    phases = sum(tournament.phases.values_list("hanchan", flat=True))
    if "hanchan_count" in fields and phases and fields["hanchan_count"] != phases:
        raise Refusal(
            "hanchan_count",
            "phases",
            _("hanchan_count: the phases have {count} hanchan in all; change the phases instead").format(
                count=phases
            ),
        )
    # A club session's hanchan are its tables formed, with no number fixed in advance (tournament.club).
    club_session = fields.get("kind", tournament.kind) == Tournament.Kind.CLUB
    beyond = "hanchan_count" in fields and tournament.rounds.filter(number__gt=fields["hanchan_count"])
    if beyond and not club_session and beyond.exists():
        raise Refusal(
            "hanchan_count", "seated-rounds", _("hanchan_count: hanchan beyond it are already seated")
        )
    if "kind" in fields and fields["kind"] != tournament.kind and tournament.rounds.exists():
        raise Refusal(
            "kind",
            "kind-before-play",
            _("kind: hanchan are seated already; the kind of event stays as it is"),
        )
    for name, value in fields.items():
        setattr(tournament, name, value)
    tournament.full_clean()
    tournament.save()
    schedule_standings_refresh(tournament.pk)  # the tie-break or the rules may have changed
    tables_changed_on_commit(tournament.pk)  # the publication settings may have changed
    return tournament


@transaction.atomic
def reveal_standings(tournament: Tournament, user: AbstractBaseUser, *, revealed: bool = True) -> Tournament:
    """Show the public the ranking of the hidden last hanchan (``hidden_hanchan``), or hide it again;
    audited. The standings' caches follow at once (a new standings version)."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not tournament.hidden_hanchan:
        raise Refusal("revealed", "hidden-hanchan", _("revealed: this tournament hides no hanchan"))
    if tournament.standings_revealed == revealed:
        return tournament
    Tournament.objects.filter(pk=tournament.pk).update(standings_revealed=revealed)
    audit.record(tournament, user, "standings.reveal" if revealed else "standings.hide", "the hidden hanchan")
    schedule_standings_refresh(tournament.pk)
    tables_changed_on_commit(tournament.pk)  # the live tables of the hidden hanchan, shown or hidden again
    tournament.refresh_from_db()
    return tournament
