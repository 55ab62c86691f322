"""Linking registrations to persons: the organiser's confirmation of a suggestion, the merge of two
persons and the split of a registration, each audited and each refused whole when it cannot be."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client

from tests.conftest import make_user
from tournament import services
from tournament.core.refusal import Refusal
from tournament.models import AuditEntry, Person, Player, Tournament
from tournament.queries.persons_db import match_candidates
from tournament.services import persons


def cup(slug: str, *, public: bool = True) -> tuple[Tournament, object]:
    tournament = Tournament.objects.create(
        name=f"{slug} cup",
        slug=slug,
        starts_on=date(2026, 4, 1),
        ends_on=date(2026, 4, 1),
        hanchan_count=4,
        is_public=public,
    )
    return tournament, make_user(f"org-{slug}", tournament, "organiser")


def actions(tournament: Tournament) -> list[str]:
    return list(
        AuditEntry.objects.filter(tournament=tournament).order_by("pk").values_list("action", flat=True)
    )


@pytest.mark.django_db
def test_the_organiser_confirms_a_suggestion_across_scripts_and_it_is_audited() -> None:
    spring, spring_organiser = cup("spring")
    autumn, organiser = cup("autumn")
    first = Player.objects.create(
        tournament=spring, name="Aleksei Zhukov", native_name="Алексей Жуков", country="RU"
    )
    person = persons.new_person(first, spring_organiser)
    second = Player.objects.create(tournament=autumn, name="Alexey Zhukov", country="RU")
    other = Player.objects.create(tournament=autumn, name="Someone Else", country="RU")
    offered = dict(match_candidates(autumn, organiser))
    assert [s.person.key for s in offered[second]] == [person.pk] and offered[other] == []
    persons.confirm_match(second, person, organiser)
    assert Player.objects.get(pk=second.pk).person == person
    entry = AuditEntry.objects.get(tournament=autumn)
    assert (entry.action, entry.subject, entry.changes) == (
        "person.link",
        "player Alexey Zhukov",
        {"person": [None, person.pk]},
    )
    assert actions(spring) == ["person.link"]


@pytest.mark.django_db
def test_confirming_a_registration_that_has_a_person_merges_the_two_into_the_older() -> None:
    spring, spring_organiser = cup("spring")
    autumn, organiser = cup("autumn")
    old = persons.new_person(
        Player.objects.create(tournament=spring, name="Taro Sato", country="JP"), spring_organiser
    )
    newer_player = Player.objects.create(
        tournament=autumn, name="Sato Taro", native_name="佐藤 太郎", ema_id="10990001"
    )
    newer = Person.objects.create(name="Sato Taro", native_name="佐藤 太郎", ema_id="10990001")
    Player.objects.filter(pk=newer_player.pk).update(person=newer)
    kept = persons.confirm_match(newer_player, old, organiser)
    assert kept.pk == old.pk and not Person.objects.filter(pk=newer.pk).exists()
    assert (kept.ema_id, kept.native_name, kept.country.code) == ("10990001", "佐藤 太郎", "JP")
    assert set(kept.registrations.values_list("tournament__slug", flat=True)) == {"spring", "autumn"}
    assert actions(autumn) == ["person.merge"] and actions(spring) == ["person.link", "person.merge"]
    merged = AuditEntry.objects.get(tournament=autumn)
    assert merged.changes["person"] == [newer.pk, old.pk]
    assert merged.changes["merged"]["registrations"] == [newer_player.pk]


@pytest.mark.django_db
def test_a_merge_of_two_countries_is_refused_and_nothing_changes() -> None:
    spring, spring_organiser = cup("spring")
    autumn, organiser = cup("autumn")
    person = persons.new_person(
        Player.objects.create(tournament=spring, name="Taro Sato", country="JP"), spring_organiser
    )
    player = Player.objects.create(tournament=autumn, name="Taro Sato", country="BR")
    with pytest.raises(Refusal) as refused:
        persons.confirm_match(player, person, organiser)
    assert (refused.value.field, refused.value.rule) == ("person", "person-distinct")
    assert Player.objects.get(pk=player.pk).person is None and actions(autumn) == []


@pytest.mark.django_db
def test_a_split_leaves_the_registration_alone_and_an_ema_link_is_not_split() -> None:
    spring, organiser = cup("spring")
    player = Player.objects.create(tournament=spring, name="Ana")
    person = persons.new_person(player, organiser)
    persons.split_registration(player, organiser)
    assert (
        Player.objects.get(pk=player.pk).person is None and not Person.objects.filter(pk=person.pk).exists()
    )
    assert actions(spring) == ["person.link", "person.split"]
    linked = Player.objects.create(tournament=spring, name="Ben", ema_id="10990002")
    persons.link_by_ema([linked])
    with pytest.raises(Refusal) as refused:
        persons.split_registration(linked, organiser)
    assert refused.value.rule == "person-ema" and Player.objects.get(pk=linked.pk).person is not None


@pytest.mark.django_db
def test_only_the_tournaments_organiser_links_and_private_persons_are_neither_offered_nor_linkable() -> None:
    spring, organiser = cup("spring")
    closed, closed_organiser = cup("closed", public=False)
    hidden = persons.new_person(
        Player.objects.create(tournament=closed, name="Ana", country="PT"), closed_organiser
    )
    player = Player.objects.create(tournament=spring, name="Ana", country="PT")
    assert dict(match_candidates(spring, organiser))[player] == []
    with pytest.raises(Refusal) as refused:
        persons.confirm_match(player, hidden, organiser)
    assert refused.value.status == 404
    with pytest.raises(PermissionDenied):
        persons.new_person(player, closed_organiser)
    assert Player.objects.get(pk=player.pk).person is None


@pytest.mark.django_db
def test_the_organisers_page_confirms_a_suggestion() -> None:
    spring, spring_organiser = cup("spring")
    autumn, organiser = cup("autumn")
    person = persons.new_person(
        Player.objects.create(tournament=spring, name="Łukasz Nowak"), spring_organiser
    )
    player = Player.objects.create(tournament=autumn, name="Lukasz Nowak", country="PL")
    client = Client()
    client.force_login(organiser)
    page = client.get("/t/autumn/manage/persons/").content.decode()
    assert "Same person as Łukasz Nowak" in page
    answer = client.post(
        "/t/autumn/manage/persons/", {"action": "confirm", "player": player.pk, "person": person.pk}
    )
    assert answer.status_code == 302 and Player.objects.get(pk=player.pk).person == person


@pytest.mark.django_db
def test_a_corrected_ema_id_moves_the_registration_to_the_person_of_the_new_id() -> None:
    spring, organiser = cup("spring")
    autumn, autumn_organiser = cup("autumn")
    right = services.register_player(spring, organiser, name="Ana Alves", ema_id="10990001")
    wrong = services.register_player(autumn, autumn_organiser, name="Ana Alves", ema_id="10990002")
    mistaken = Person.objects.get(ema_id="10990002")
    services.update_player(wrong, autumn_organiser, ema_id="10990001")
    assert Player.objects.get(pk=wrong.pk).person == Player.objects.get(pk=right.pk).person
    assert not Person.objects.filter(pk=mistaken.pk).exists()  # it had no other registration


@pytest.mark.django_db
def test_the_demos_made_up_players_are_not_suggested_for_a_real_registration() -> None:
    demo, demo_organiser = cup("demo")
    Tournament.objects.filter(pk=demo.pk).update(is_demo=True)
    spring, spring_organiser = cup("spring")
    autumn, organiser = cup("autumn")
    made_up = persons.new_person(Player.objects.create(tournament=demo, name="Ana Alves"), demo_organiser)
    real = persons.new_person(Player.objects.create(tournament=spring, name="Ana Alves"), spring_organiser)
    ana = Player.objects.create(tournament=autumn, name="Ana Alves")
    offered = [s.person.key for s in dict(match_candidates(autumn, organiser))[ana]]
    assert offered == [real.pk] and made_up.pk not in offered
