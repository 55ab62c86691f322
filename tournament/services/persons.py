"""One person across tournaments: linking registrations to persons, merging two persons, splitting a
registration off its person, and undoing a merge (``tournament.core.persons`` decides which may be the same
person).

A registration with an EMA id links at once to the person with that id, made from it when there is none
(``link_by_ema``, called by registration). Otherwise the organiser of the registration's tournament
confirms a suggestion (``confirm_match``), makes it a person of its own (``new_person``), or splits it off
(``split_registration``). Each confirmation, merge, split and undone merge is written to the audit of
every tournament whose registrations it moves, in the change's own transaction, and moves the standings
version of each (``standings_db.schedule_standings_refresh``): a series' standings and the rating lists,
cached under those versions, count the registration as its new person from the next request.

Who may: an organiser links their registration only to a person suggested for it
(``tournament.core.persons.is_suggested``), and merges away only a person all of whose registrations are in
events they organise; a site admin may do both for any person. One person is never registered twice in
one event (a database constraint too).

Locks, always in this order, so that two changes at once end with one waiting for the other (or refused),
never in a deadlock: the registrations that move (by id; every change of a registration, a check-in or a
correction, takes its row before its tournament's), then their tournaments (by id; their standings
version moves), then the persons (by id). A change that finds, once it holds its locks, that what it
read before has changed (a person merged away meanwhile, a registration joined) is refused with 409
rather than guessed at.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.core.persons import is_suggested, same_person_possible
from tournament.core.refusal import CONFLICT, FORBIDDEN, NOT_FOUND, Refusal
from tournament.models import AuditEntry, Person, Player, StaffRole, Tournament
from tournament.queries import access
from tournament.queries.persons_db import identity, known_persons
from tournament.queries.standings_db import schedule_standings_refresh
from tournament.services import audit

Role = StaffRole.Role
PERSON_FIELDS = ("name", "native_name", "country", "ema_id")
# How many times a registration reads the persons of its EMA ids again when one was merged away while it
# waited for its lock (each merge leaves the id on the person kept, which the next read finds).
EMA_READS = 3

RULE_CHANGED = "person-changed"
RULE_ONCE = "person-once-per-event"


def _person_from(player: Player) -> Person:
    return Person.objects.create(
        name=player.name, native_name=player.native_name, country=player.country, ema_id=player.ema_id
    )


def _is_site_admin(user: AbstractBaseUser) -> bool:
    return bool(getattr(user, "is_superuser", False))


def _changed(name: str) -> Refusal:
    message = _("{name}: its person changed meanwhile (merged, linked or split); reload and try again")
    return Refusal("person", RULE_CHANGED, message.format(name=name), status=CONFLICT)


def _once_per_event(person: Person, other: str) -> Refusal:
    message = _(
        "{person} is already registered in this tournament, as {other}: one person plays once"
    ).format(person=person.name, other=other)
    return Refusal("person", RULE_ONCE, message, status=CONFLICT)


def _lock_tournaments(ids: Iterable[int]) -> None:
    """Lock the tournaments by id (the first of the locks; their standings version moves)."""
    list(
        Tournament.objects.select_for_update(no_key=True)
        .filter(pk__in=set(ids))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _lock_persons(ids: Iterable[int | None]) -> dict[int, Person]:
    """Lock the persons by id (after the tournaments, before the registrations); those that no longer
    exist are not in the answer."""
    wanted = {pk for pk in ids if pk is not None}
    return {
        person.pk: person
        for person in Person.objects.select_for_update().filter(pk__in=wanted).order_by("pk")
    }


def link_by_ema(players: Iterable[Player]) -> None:
    """Each registration with an EMA id and no person yet joins the person with that id (EMA ranking
    rules: one id per player), made from the registration when there is none, in the caller's transaction
    (registration's, which has moved its tournament's standings version first: the lock order). Two
    registrations racing to make the same person make one (the unique EMA id, conflicts ignored, then
    read back). The persons are read back under lock: a person merged away meanwhile is read again, as
    the person kept, who now has the id. Refused (409) when the person is already registered in the
    registration's tournament under another registration."""
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
    known: dict[str, Person] = {}
    for _attempt in range(EMA_READS):
        Person.objects.bulk_create([missing[ema_id] for ema_id in ids - set(known)], ignore_conflicts=True)
        wanted = ids - set(known)
        for person in Person.objects.select_for_update().filter(ema_id__in=wanted).order_by("pk"):
            known[person.ema_id] = person
        if set(known) == ids:
            break
    else:
        raise _changed(next(player.name for player in waiting if player.ema_id not in known))
    _refuse_twice_in_an_event(waiting, known)
    for player in waiting:
        player.person = known[player.ema_id]
    Player.objects.bulk_update(waiting, ["person"])


def _refuse_twice_in_an_event(waiting: list[Player], known: dict[str, Person]) -> None:
    persons = {person.pk: person for person in known.values()}
    registered = Player.objects.filter(
        person__in=persons, tournament__in={player.tournament_id for player in waiting}
    ).exclude(pk__in=[player.pk for player in waiting])
    taken = {
        (tournament_id, person_id): name
        for tournament_id, person_id, name in registered.values_list("tournament_id", "person_id", "name")
    }
    for player in waiting:
        other = taken.get((player.tournament_id, known[player.ema_id].pk))
        if other is not None:
            raise Refusal(
                "ema_id",
                RULE_ONCE,
                _("ema_id: {ema_id} is {other}'s, already registered in this tournament").format(
                    ema_id=player.ema_id, other=other
                ),
                status=CONFLICT,
            )


def follow_ema_id(player: Player) -> None:
    """A registration whose EMA id was corrected follows it: off the person of its old EMA id (deleted
    when left without registrations), onto the person of its new one (``link_by_ema``). Runs in the
    caller's transaction (the correction's, audited there, which holds the tournament's lock first)."""
    person = player.person
    if person is not None and person.ema_id and person.ema_id != player.ema_id:
        Player.objects.filter(pk=player.pk).update(person=None)
        player.person = None
        if not person.registrations.exists():
            person.delete()
    link_by_ema([player])


def _lock_registrations(ids: Iterable[int]) -> set[int]:
    """Lock the registrations by id (the first of the locks, as every change of a registration takes
    its row before its tournament's); the ids of those that exist."""
    return set(
        Player.objects.select_for_update().filter(pk__in=set(ids)).order_by("pk").values_list("pk", flat=True)
    )


def _locked(player: Player, user: AbstractBaseUser, *, also: Iterable[int] = ()) -> tuple[Player, set[int]]:
    """The registration, locked for the change once its tournament's organiser is known to ask, in the
    lock order: the registrations of its person and of the persons ``also`` (itself among them), then
    their tournaments, then those persons; with the ids of the registrations locked. Refused (409) when
    its person changed between the first read and the lock."""
    access.require_role(user, player.tournament, Role.ORGANISER)
    person_id = Player.objects.filter(pk=player.pk).values_list("person_id", flat=True).first()
    persons = {person_id, *also} - {None}
    registrations = {player.pk, *Player.objects.filter(person__in=persons).values_list("pk", flat=True)}
    registrations = _lock_registrations(registrations)
    tournaments = Player.objects.filter(pk__in=registrations).values_list("tournament_id", flat=True)
    _lock_tournaments({player.tournament_id, *tournaments})
    _lock_persons(persons)
    locked = Player.objects.select_related("tournament", "person").filter(pk=player.pk).first()
    if locked is None:
        raise Refusal("player", "player-unknown", _("no player {id}").format(id=player.pk), status=NOT_FOUND)
    if locked.person_id != person_id:
        raise _changed(locked.name)
    return locked, registrations


@transaction.atomic
def new_person(player: Player, user: AbstractBaseUser) -> Person:
    """The registration is a person of its own (no other registration is theirs yet)."""
    player, _tournaments = _locked(player, user)
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
    to it; one with a person has the two persons merged (``_merge``). Refused when their EMA ids or
    countries differ (``tournament.core.persons.same_person_possible``), when the person is not one suggested
    for the registration (site admins excepted: ``tournament.core.persons.is_suggested``), and when the person
    is already registered in this tournament (one person plays once in an event)."""
    player, registrations = _locked(player, user, also=[person.pk])
    chosen = Person.objects.filter(pk=person.pk).first()
    if chosen is None or not known_persons(user).filter(pk=chosen.pk).exists():
        if (
            chosen is None
            and AuditEntry.objects.filter(action="person.merge", changes__merged__removed=person.pk).exists()
        ):
            raise _changed(player.name)
        raise Refusal("person", "person-unknown", _("no person {id}").format(id=person.pk), status=NOT_FOUND)
    if player.person_id == chosen.pk:
        return chosen
    if not same_person_possible(identity(player), identity(chosen)):
        message = _("{name} and {person} have different EMA ids or countries: not one person").format(
            name=player.name, person=chosen.name
        )
        raise Refusal("person", "person-distinct", message)
    if not _is_site_admin(user) and not is_suggested(identity(player), identity(chosen)):
        message = _(
            "{person} is not a person suggested for {name} (neither their EMA id nor their name and "
            "country): only a site admin links them"
        ).format(person=chosen.name, name=player.name)
        raise Refusal("person", "person-not-suggested", message, status=FORBIDDEN)
    here = Player.objects.filter(tournament_id=player.tournament_id, person=chosen).exclude(pk=player.pk)
    other = here.values_list("name", flat=True).first()
    if other is not None:
        raise _once_per_event(chosen, other)
    if player.person is None:
        Player.objects.filter(pk=player.pk).update(person=chosen)
        changes = {"person": [None, chosen.pk]}
        audit.record(player.tournament, user, "person.link", f"player {player.name}", changes)
        schedule_standings_refresh(player.tournament_id)
        return chosen
    return _merge(player, chosen, user, registrations)


def _movable(person: Person, registrations: list[Player], user: AbstractBaseUser) -> bool:
    """Whether this user may merge ``person`` away: a site admin, or an organiser of every event of its
    registrations (a merge moves only registrations of events the caller organises)."""
    return _is_site_admin(user) or all(
        access.has_role(user, registration.tournament, Role.ORGANISER) for registration in registrations
    )


def _snapshot(person: Person) -> dict[str, Any]:
    return {
        "name": person.name,
        "native_name": person.native_name,
        "country": str(person.country or ""),
        "ema_id": person.ema_id,
    }


def _merge(player: Player, chosen: Person, user: AbstractBaseUser, locked: set[int]) -> Person:
    """One person keeps every registration of both; the other is deleted, its EMA id, name in its own
    script and country filling the kept person's where empty. The person removed is the newer of the
    two this user may merge away (``_movable``); refused when they may merge away neither, when both are
    registered in one event, and when a registration joined either since the locks were planned."""
    assert player.person is not None
    pair = {player.person.pk: player.person, chosen.pk: chosen}
    registrations = {
        pk: list(Player.objects.filter(person_id=pk).select_related("tournament").order_by("pk"))
        for pk in pair
    }
    if any(r.pk not in locked for regs in registrations.values() for r in regs):
        raise _changed(player.name)
    events = [{r.tournament_id: r.name for r in registrations[pk]} for pk in pair]
    shared = set(events[0]) & set(events[1])
    if shared:
        raise _once_per_event(chosen, events[1].get(min(shared)) or "")
    keep_first = sorted(pair.values(), key=lambda p: p.pk)
    if keep_first[0].ema_id and keep_first[1].ema_id and keep_first[0].ema_id != keep_first[1].ema_id:
        message = _("{first} and {second} have different EMA ids: not one person").format(
            first=keep_first[0].name, second=keep_first[1].name
        )
        raise Refusal("person", "person-distinct", message)
    removable = [p for p in reversed(keep_first) if _movable(p, registrations[p.pk], user)]
    if not removable:
        message = _(
            "{first} and {second} both have registrations in events you do not organise: only a site "
            "admin merges them (or split {name} off and confirm it as the other)"
        ).format(first=keep_first[0].name, second=keep_first[1].name, name=player.name)
        raise Refusal("person", "person-merge-organiser", message, status=FORBIDDEN)
    gone = removable[0]
    keep = next(p for p in keep_first if p.pk != gone.pk)
    moved, kept = registrations[gone.pk], registrations[keep.pk]
    snapshot: dict[str, Any] = {
        "kept": keep.pk,
        "removed": gone.pk,
        "name": gone.name,
        "ema_id": gone.ema_id,
        "removed_person": _snapshot(gone),
        "kept_before": _snapshot(keep),
        "registrations": [p.pk for p in moved],
    }
    Player.objects.filter(person=gone).update(person=keep)
    gone_pk, ema_id = gone.pk, keep.ema_id or gone.ema_id
    keep.native_name = keep.native_name or gone.native_name
    keep.country = keep.country or gone.country
    gone.delete()
    keep.ema_id = ema_id
    keep.save()
    _audit_each_tournament(
        moved,
        kept,
        user,
        "person.merge",
        lambda moving: {"person": [gone_pk if moving else keep.pk, keep.pk], "merged": snapshot},
    )
    return keep


def _audit_each_tournament(
    moved: list[Player], kept: list[Player], user: AbstractBaseUser, action: str, changes: Any
) -> None:
    """One entry of ``action`` in the audit of each tournament of the registrations, and its standings
    version moved."""
    tournaments: dict[int, tuple[Player, bool]] = {}
    for registration in moved:
        tournaments.setdefault(registration.tournament_id, (registration, True))
    for registration in kept:
        tournaments.setdefault(registration.tournament_id, (registration, False))
    for registration, moving in tournaments.values():
        audit.record(registration.tournament, user, action, f"player {registration.name}", changes(moving))
        schedule_standings_refresh(registration.tournament_id)


@transaction.atomic
def undo_merge(entry: AuditEntry, user: AbstractBaseUser) -> Person:
    """A merge undone: the person it removed is made again, as it was, with the registrations the merge
    moved that the kept person still has; the kept person's own name in its script, country and EMA id
    are what they were before. Whoever may merge the two away may undo it (a site admin, or an organiser
    of every event of those registrations); refused (409) when the kept person is gone, or when a moved
    registration has since left it."""
    if entry.action != "person.merge" or "merged" not in entry.changes:
        raise Refusal("entry", "person-undo", _("entry: not a merge of two persons"))
    merged = entry.changes["merged"]
    before = merged.get("removed_person")
    if before is None:
        raise Refusal("entry", "person-undo", _("entry: this merge predates the record an undo needs"))
    moving = list(
        Player.objects.filter(pk__in=merged["registrations"]).select_related("tournament").order_by("pk")
    )
    access.require_role(user, entry.tournament, Role.ORGANISER)
    if not _is_site_admin(user) and not all(
        access.has_role(user, registration.tournament, Role.ORGANISER) for registration in moving
    ):
        raise Refusal(
            "entry",
            "person-merge-organiser",
            _("entry: the merge moved registrations of events you do not organise: a site admin undoes it"),
            status=FORBIDDEN,
        )
    kept_registrations = list(Player.objects.filter(person_id=merged["kept"]).select_related("tournament"))
    _lock_registrations(r.pk for r in kept_registrations + moving)
    _lock_tournaments({r.tournament_id for r in kept_registrations + moving})
    keep = _lock_persons([merged["kept"]]).get(merged["kept"])
    if keep is None or Person.objects.filter(pk=merged["removed"]).exists():
        raise Refusal(
            "entry",
            "person-undo",
            _("entry: this merge was undone, or its person changed since"),
            status=CONFLICT,
        )
    still = [r for r in moving if Player.objects.filter(pk=r.pk, person=keep).exists()]
    if len(still) != len(moving):
        raise Refusal(
            "entry",
            "person-undo",
            _("entry: a registration the merge moved has left the person since"),
            status=CONFLICT,
        )
    restored_ema = before["ema_id"]
    if restored_ema and keep.ema_id == restored_ema:
        keep.ema_id = merged["kept_before"]["ema_id"]
    keep.native_name = merged["kept_before"]["native_name"]
    keep.country = merged["kept_before"]["country"]
    keep.save()
    gone = Person.objects.create(pk=merged["removed"], **before)
    Player.objects.filter(pk__in=[r.pk for r in moving]).update(person=gone)
    kept = [r for r in kept_registrations if r.pk not in merged["registrations"]]
    changes = {
        "undone": entry.pk,
        "kept": keep.pk,
        "restored": gone.pk,
        "registrations": merged["registrations"],
    }
    _audit_each_tournament(moving, kept, user, "person.unmerge", lambda _moving: changes)
    return gone


@transaction.atomic
def split_registration(player: Player, user: AbstractBaseUser) -> None:
    """The registration is not its person's: it stands alone again (a person left without registrations
    is deleted). A registration whose EMA id is its person's cannot be split: correct the EMA id."""
    player, _tournaments = _locked(player, user)
    person = player.person
    if person is None:
        return
    if player.ema_id and player.ema_id == person.ema_id:
        message = _("{name} is linked by the EMA id {ema_id}: correct the registration's EMA id").format(
            name=player.name, ema_id=player.ema_id
        )
        raise Refusal("ema_id", "person-ema", message, status=CONFLICT)
    Player.objects.filter(pk=player.pk).update(person=None)
    changes = {
        "person": [person.pk, None],
        "removed": {"name": person.name, "ema_id": person.ema_id},
        "person_before": _snapshot(person),
    }
    audit.record(player.tournament, user, "person.split", f"player {player.name}", changes)
    schedule_standings_refresh(player.tournament_id)
    if not person.registrations.exists():
        person.delete()
