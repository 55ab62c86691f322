"""Who may change persons: an organiser links their registration only to a person suggested for it,
merges away only a person all of whose registrations are in events they organise, never registers one
person twice in an event (a database constraint too, with the migration that splits rows breaking it),
and a merge is undone as it was. A series' archive carries EMA ids and countries only as its own events
give them."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.test import Client

from exports.archive.series import build_series_archive
from tests.conftest import make_user
from tests.series.test_persons_services import actions, cup
from tournament.core.refusal import CONFLICT, FORBIDDEN, Refusal
from tournament.models import AuditEntry, Person, Player, Series, Tournament
from tournament.services import persons


def refused(call: object) -> Refusal:
    with pytest.raises(Refusal) as refusal:
        call()  # type: ignore[operator]
    return refusal.value


def person_of(name: str, tournament: Tournament, organiser: object, **fields: object) -> Person:
    return persons.new_person(Player.objects.create(tournament=tournament, name=name, **fields), organiser)


@pytest.mark.django_db
def test_an_organiser_links_their_registration_only_to_a_person_suggested_for_it() -> None:
    victims, victims_organiser = cup("victims")
    own, intruder = cup("intruders")
    victim = person_of("Vera Victim", victims, victims_organiser, country="FR", ema_id="10990001")
    mine = Player.objects.create(tournament=own, name="Ivan Intruder")
    refusal = refused(lambda: persons.confirm_match(mine, victim, intruder))
    assert (refusal.field, refusal.rule, refusal.status) == ("person", "person-not-suggested", FORBIDDEN)
    # The page refuses it too: the registration stays alone, the person's page shows only their event.
    client = Client()
    client.force_login(intruder)
    answer = client.post(
        "/t/intruders/manage/persons/", {"action": "confirm", "player": mine.pk, "person": victim.pk}
    )
    assert answer.status_code == 302
    assert Player.objects.get(pk=mine.pk).person is None and actions(own) == []
    assert list(victim.registrations.values_list("name", flat=True)) == ["Vera Victim"]
    # A site admin links any person nothing tells apart (an account merged by hand, say).
    admin = get_user_model().objects.create_superuser("admin", password="pw-for-tests-only")
    assert persons.confirm_match(mine, victim, admin) == victim


@pytest.mark.django_db
def test_an_organiser_merges_no_person_of_another_organisers_events() -> None:
    victims, victims_organiser = cup("victims")
    later, later_organiser = cup("later")
    first = person_of("Ana Alves", victims, victims_organiser)
    second_victims = Player.objects.create(tournament=later, name="Ana Alves")
    second = persons.new_person(second_victims, later_organiser)
    own, intruder = cup("intruders")
    mine = Player.objects.create(tournament=own, name="Ana Alves")
    persons.confirm_match(mine, first, intruder)  # suggested: the same name, no country
    refusal = refused(lambda: persons.confirm_match(mine, second, intruder))
    assert (refusal.field, refusal.rule, refusal.status) == ("person", "person-merge-organiser", FORBIDDEN)
    assert Person.objects.filter(pk__in=[first.pk, second.pk]).count() == 2
    assert Player.objects.get(pk=second_victims.pk).person_id == second.pk


@pytest.mark.django_db
def test_one_person_is_registered_once_in_an_event() -> None:
    spring, organiser = cup("spring")
    autumn, autumn_organiser = cup("autumn")
    person = person_of("Ana Alves", spring, organiser)
    again = Player.objects.create(tournament=spring, name="Ana  Alves")
    refusal = refused(lambda: persons.confirm_match(again, person, organiser))
    assert (refusal.field, refusal.rule, refusal.status) == ("person", "person-once-per-event", CONFLICT)
    # Nor by a merge of a person with a registration in the same event.
    other = persons.new_person(again, organiser)
    autumn_ana = Player.objects.create(tournament=autumn, name="Ana Alves")
    persons.confirm_match(autumn_ana, other, autumn_organiser)
    staff = make_user("both")
    for tournament in (spring, autumn):
        tournament.staff.create(user=staff, role="organiser")
    refusal = refused(lambda: persons.confirm_match(autumn_ana, person, staff))
    assert (refusal.rule, refusal.status) == ("person-once-per-event", CONFLICT)
    assert Person.objects.filter(pk__in=[person.pk, other.pk]).count() == 2
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(pk=again.pk).update(person=person)


@pytest.mark.django_db
def test_a_merge_is_undone_as_it_was() -> None:
    spring, organiser = cup("spring")
    autumn, _autumn_organiser = cup("autumn")
    autumn.staff.create(user=organiser, role="organiser")
    old = person_of("Taro Sato", spring, organiser, country="JP")
    newer_player = Player.objects.create(
        tournament=autumn, name="Sato Taro", native_name="佐藤 太郎", ema_id="10990001"
    )
    persons.link_by_ema([newer_player])
    newer = Person.objects.get(ema_id="10990001")
    kept = persons.confirm_match(newer_player, old, organiser)
    assert (kept.pk, kept.ema_id, kept.native_name) == (old.pk, "10990001", "佐藤 太郎")
    entry = AuditEntry.objects.get(tournament=autumn, action="person.merge")
    client = Client()
    client.force_login(organiser)
    assert "Undo this merge" in client.get("/t/autumn/manage/persons/").content.decode()
    answer = client.post("/t/autumn/manage/persons/", {"action": "undo", "entry": entry.pk})
    assert answer.status_code == 302
    restored = Person.objects.get(pk=newer.pk)
    assert (restored.name, restored.native_name, restored.ema_id) == ("Sato Taro", "佐藤 太郎", "10990001")
    old.refresh_from_db()
    assert (old.ema_id, old.native_name, old.country.code) == ("", "", "JP")
    assert Player.objects.get(pk=newer_player.pk).person_id == newer.pk
    assert actions(autumn)[-1] == "person.unmerge" and actions(spring)[-1] == "person.unmerge"
    assert "Undo this merge" not in client.get("/t/autumn/manage/persons/").content.decode()
    refusal = refused(lambda: persons.undo_merge(entry, organiser))
    assert (refusal.rule, refusal.status) == ("person-undo", CONFLICT)


@pytest.mark.django_db
def test_a_series_archive_carries_only_the_ema_ids_and_countries_of_its_own_events() -> None:
    victims, victims_organiser = cup("victims")
    own, organiser = cup("intruders")
    victim = person_of("Ana Alves", victims, victims_organiser, country="PT", ema_id="10990001")
    mine = Player.objects.create(tournament=own, name="Ana Alves")
    persons.confirm_match(mine, victim, organiser)  # suggested: the same name, no country of its own
    series = Series.objects.create(name="Own season", slug="own-season", created_by=organiser)
    series.tournaments.add(own)
    (row,) = build_series_archive(series)["persons"]
    assert row["registrations"] == [["intruders", "Ana Alves"]]
    assert (row["name"], row["ema_id"], row["country"]) == ("Ana Alves", "", "")
    # The events' own EMA id and country are carried.
    Player.objects.filter(pk=mine.pk).update(country="PT")
    (row,) = build_series_archive(series)["persons"]
    assert (row["ema_id"], row["country"]) == ("", "PT")


@pytest.mark.django_db
def test_the_migration_splits_second_registrations_of_one_person_in_an_event() -> None:
    spring, organiser = cup("spring")
    person = person_of("Ana Alves", spring, organiser)
    with connection.schema_editor() as editor:
        constraint = next(
            c for c in Player._meta.constraints if c.name == "one_registration_per_person_per_tournament"
        )
        editor.remove_constraint(Player, constraint)
    Player.objects.create(tournament=spring, name="Ana Alves (2)", person=person)
    by_ema = Person.objects.create(name="Ben Berg", ema_id="10990002")
    Player.objects.create(tournament=spring, name="Ben Berg", person=by_ema)
    Player.objects.create(tournament=spring, name="Ben Berg (EMA)", ema_id="10990002", person=by_ema)
    migration = import_module("tournament.migrations.0035_split_second_registrations")
    migration.split_second_registrations(apps, None)
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with connection.schema_editor() as editor:
        editor.add_constraint(Player, constraint)
    linked = dict(Player.objects.filter(tournament=spring).values_list("name", "person_id"))
    assert linked == {
        "Ana Alves": person.pk,
        "Ana Alves (2)": None,
        "Ben Berg": None,
        "Ben Berg (EMA)": by_ema.pk,
    }
    assert sorted(
        AuditEntry.objects.filter(action="person.split", actor=None).values_list("subject", flat=True)
    ) == ["player Ana Alves (2)", "player Ben Berg"]
