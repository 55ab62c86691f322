"""One person across tournaments: linking registrations to persons, merging two persons, splitting a
registration off its person (``tournament.persons`` decides which may be the same person).

A registration with an EMA id links at once to the person with that id, made from it when there is none
(``link_by_ema``, called by registration). Otherwise the organiser of the registration's tournament
confirms a suggestion (``confirm_match``), makes it a person of its own (``new_person``), or splits it off
(``split_registration``). Each confirmation, merge and split is written to the audit of every tournament
whose registrations it moves, in the change's own transaction, and moves the standings version of each
(``standings_db.schedule_standings_refresh``): a series' standings and the rating lists, cached under
those versions, count the registration as its new person from the next request.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from tournament import access
from tournament.models import Person, Player, StaffRole
from tournament.persons import same_person_possible
from tournament.persons_db import identity, known_persons
from tournament.refusal import CONFLICT, NOT_FOUND, Refusal
from tournament.services import audit
from tournament.standings_db import schedule_standings_refresh

Role = StaffRole.Role


def _person_from(player: Player) -> Person:
    return Person.objects.create(
        name=player.name, native_name=player.native_name, country=player.country, ema_id=player.ema_id
    )


def link_by_ema(players: Iterable[Player]) -> None:
    """Each registration with an EMA id and no person yet joins the person with that id (EMA ranking
    rules: one id per player), made from the registration when there is none: three queries for a whole
    player file, in the caller's transaction (registration's). Two registrations racing to make the same
    person make one (the unique EMA id, conflicts ignored, then read back)."""
    waiting = [player for player in players if player.ema_id and player.person_id is None]
    if not waiting:
        return
    ids = {player.ema_id for player in waiting}
    missing: dict[str, Person] = {}
    for player in waiting:
        missing.setdefault(
            player.ema_id,
            Person(
                name=player.name, native_name=player.native_name, country=player.country, ema_id=player.ema_id
            ),
        )
    Person.objects.bulk_create(missing.values(), ignore_conflicts=True)
    known = {person.ema_id: person for person in Person.objects.filter(ema_id__in=ids)}
    for player in waiting:
        player.person = known[player.ema_id]
    Player.objects.bulk_update(waiting, ["person"])


def follow_ema_id(player: Player) -> None:
    """A registration whose EMA id was corrected follows it: off the person of its old EMA id (deleted
    when left without registrations), onto the person of its new one (``link_by_ema``). Runs in the
    caller's transaction (the correction's, audited there)."""
    person = player.person
    if person is not None and person.ema_id and person.ema_id != player.ema_id:
        Player.objects.filter(pk=player.pk).update(person=None)
        player.person = None
        if not person.registrations.exists():
            person.delete()
    link_by_ema([player])


def _locked(player: Player, user: AbstractBaseUser) -> Player:
    """The registration, locked for the change, once its tournament's organiser is known to ask."""
    access.require_role(user, player.tournament, Role.ORGANISER)
    return (
        Player.objects.select_for_update(of=("self",))
        .select_related("tournament", "person")
        .get(pk=player.pk)
    )


@transaction.atomic
def new_person(player: Player, user: AbstractBaseUser) -> Person:
    """The registration is a person of its own (no other registration is theirs yet)."""
    player = _locked(player, user)
    if player.person is not None:
        message = _("{name} is already linked to a person: split it off first").format(name=player.name)
        raise Refusal("player", "person-linked", message, status=CONFLICT)
    if player.ema_id and Person.objects.filter(ema_id=player.ema_id).exists():
        message = _("{name}: another person has the EMA id {ema_id}; confirm that person instead").format(
            name=player.name, ema_id=player.ema_id
        )
        raise Refusal("ema_id", "person-ema", message, status=CONFLICT)
    person = _person_from(player)
    Player.objects.filter(pk=player.pk).update(person=person)
    audit.record(
        player.tournament, user, "person.link", f"player {player.name}", {"person": [None, person.pk]}
    )
    schedule_standings_refresh(player.tournament_id)
    return person


@transaction.atomic
def confirm_match(player: Player, person: Person, user: AbstractBaseUser) -> Person:
    """The organiser confirms that the registration is ``person``: a registration without a person links
    to it; one with a person has the two persons merged (``_merge``). Refused when their EMA ids
    or countries differ (``tournament.persons.same_person_possible``)."""
    player = _locked(player, user)
    person = Person.objects.select_for_update().get(pk=person.pk)
    if not known_persons(user).filter(pk=person.pk).exists():
        raise Refusal("person", "person-unknown", _("no person {id}").format(id=person.pk), status=NOT_FOUND)
    if not same_person_possible(identity(player), identity(person)):
        message = _("{name} and {person} have different EMA ids or countries: not one person").format(
            name=player.name, person=person.name
        )
        raise Refusal("person", "person-distinct", message)
    if player.person is None:
        Player.objects.filter(pk=player.pk).update(person=person)
        changes = {"person": [None, person.pk]}
        audit.record(player.tournament, user, "person.link", f"player {player.name}", changes)
        schedule_standings_refresh(player.tournament_id)
        return person
    if player.person.pk == person.pk:
        return person
    return _merge(player.person, person, user)


def _merge(first: Person, second: Person, user: AbstractBaseUser) -> Person:
    """The older person keeps every registration of both; the other is deleted. Its EMA id, name in its
    own script and country fill the kept person's where empty."""
    keep, gone = sorted([first, second], key=lambda p: p.pk)
    if keep.ema_id and gone.ema_id and keep.ema_id != gone.ema_id:
        message = _("{first} and {second} have different EMA ids: not one person").format(
            first=keep.name, second=gone.name
        )
        raise Refusal("person", "person-distinct", message)
    moved = list(
        Player.objects.select_for_update(of=("self",)).filter(person=gone).select_related("tournament")
    )
    kept = list(Player.objects.filter(person=keep).select_related("tournament"))
    snapshot: dict[str, Any] = {"kept": keep.pk, "removed": gone.pk, "name": gone.name, "ema_id": gone.ema_id}
    snapshot["registrations"] = [p.pk for p in moved]
    Player.objects.filter(person=gone).update(person=keep)
    gone_pk, ema_id = gone.pk, keep.ema_id or gone.ema_id
    keep.native_name = keep.native_name or gone.native_name
    keep.country = keep.country or gone.country
    gone.delete()
    keep.ema_id = ema_id
    keep.save()
    tournaments = {}
    for player in moved + kept:
        tournaments.setdefault(player.tournament_id, player)
    for player in tournaments.values():
        changes = {"person": [gone_pk if player in moved else keep.pk, keep.pk], "merged": snapshot}
        audit.record(player.tournament, user, "person.merge", f"player {player.name}", changes)
        schedule_standings_refresh(player.tournament_id)
    return keep


@transaction.atomic
def split_registration(player: Player, user: AbstractBaseUser) -> None:
    """The registration is not its person's: it stands alone again (a person left without registrations
    is deleted). A registration whose EMA id is its person's cannot be split: correct the EMA id."""
    player = _locked(player, user)
    person = player.person
    if person is None:
        return
    if player.ema_id and player.ema_id == person.ema_id:
        message = _("{name} is linked by the EMA id {ema_id}: correct the registration's EMA id").format(
            name=player.name, ema_id=player.ema_id
        )
        raise Refusal("ema_id", "person-ema", message, status=CONFLICT)
    Player.objects.filter(pk=player.pk).update(person=None)
    changes = {"person": [person.pk, None], "removed": {"name": person.name, "ema_id": person.ema_id}}
    audit.record(player.tournament, user, "person.split", f"player {player.name}", changes)
    schedule_standings_refresh(player.tournament_id)
    if not person.registrations.exists():
        person.delete()
