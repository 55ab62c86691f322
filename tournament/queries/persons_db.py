"""The persons a reader may know of, and the suggested matches of a tournament's registrations
(``tournament.core.persons``), from the database."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from tournament.core.persons import Identity, Suggestion, ema_match, suggestions
from tournament.models import Person, Player, Tournament
from tournament.queries import access


def known_persons(user: Any) -> QuerySet[Person]:
    """The persons with a registration in a tournament this user may see: no one learns of a person
    from a private tournament of which they are not staff."""
    return Person.objects.filter(registrations__tournament__in=access.visible_tournaments(user)).distinct()


def matchable_persons(user: Any) -> QuerySet[Person]:
    """The persons a registration may be linked to: those ``known_persons`` gives, less the demo
    tournament's made-up players (``Tournament.is_demo``), whom a real "Ana Alves" is not."""
    real = access.visible_tournaments(user).filter(is_demo=False)
    return Person.objects.filter(registrations__tournament__in=real).distinct()


def identity(item: Player | Person) -> Identity:
    return Identity(item.pk, item.name, item.native_name, str(item.country or ""), item.ema_id)


def match_candidates(tournament: Tournament, user: Any) -> list[tuple[Player, list[Suggestion]]]:
    """Each registration of the tournament with the persons it may be, best first: for a registration
    without a person, every suggestion; for one with a person, the other persons it may also be (a
    merge). Persons this user may not know of are left out, and so are the demo's and the persons
    already registered in this tournament (one person plays once in a tournament)."""
    players = list(tournament.players.select_related("person").order_by("name"))
    here = {player.person_id for player in players if player.person_id is not None}
    persons = [identity(p) for p in matchable_persons(user).exclude(pk__in=here)]
    by_key = {p.key: p for p in persons}
    found = []
    for player in players:
        own = identity(player)
        offered = suggestions(own, persons)
        exact = ema_match(own, persons) if player.person_id is None else None
        if exact is not None and all(s.person.key != exact.key for s in offered):
            offered.insert(0, Suggestion(by_key[exact.key], same_country=True))
        found.append((player, offered))
    return found
