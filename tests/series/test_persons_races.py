"""Persons changed at the same moment, on PostgreSQL (real row locks, each call in a thread of its own
connection): every change ends done or refused with 409 and its rule, never in a deadlock or a
constraint's error, and what is stored is one consistent state."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.conftest import make_user
from tests.series.test_persons_services import cup
from tests.tournament.test_club_sessions import race
from tournament import services
from tournament.core.refusal import CONFLICT, Refusal
from tournament.models import Person, Player
from tournament.services import persons

ATTEMPTS = 12


def ended_well(outcomes: list[object]) -> list[Refusal]:
    """The refusals among the outcomes, once every other outcome is known to be a result."""
    for outcome in outcomes:
        if isinstance(outcome, Exception):
            assert isinstance(outcome, Refusal) and outcome.status == CONFLICT, outcomes
    return [outcome for outcome in outcomes if isinstance(outcome, Refusal)]


@pytest.mark.django_db(transaction=True)
def test_a_registration_with_an_ema_id_while_its_person_is_merged_away_joins_the_person_kept() -> None:
    assert connection.vendor == "postgresql", "this test needs real row locks"
    for attempt in range(ATTEMPTS):
        older, organiser = cup(f"older-{attempt}")
        newer, newer_organiser = cup(f"newer-{attempt}")
        newer.staff.create(user=organiser, role="organiser")
        third, third_organiser = cup(f"third-{attempt}")
        ema_id = f"1099{attempt:04d}"
        kept = persons.new_person(Player.objects.create(tournament=older, name="Ana Alves"), organiser)
        newer_player = services.register_player(newer, newer_organiser, name="Ana Alves", ema_id=ema_id)
        outcomes = race(
            [
                lambda: persons.confirm_match(newer_player, kept, organiser),  # noqa: B023
                lambda: services.register_player(third, third_organiser, name="Ana Alves", ema_id=ema_id),  # noqa: B023
            ]
        )
        refusals = ended_well(outcomes)
        assert {refusal.rule for refusal in refusals} <= {"person-changed"}, outcomes
        registered = Player.objects.get(tournament=third)
        assert registered.person is not None and registered.person.ema_id == ema_id
        assert Person.objects.filter(ema_id=ema_id).count() == 1
        if not refusals:  # the merge done: one person, with the three registrations
            assert Player.objects.filter(person=registered.person).count() == 3
            assert Person.objects.filter(pk__in=[kept.pk, newer_player.person_id]).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_merges_of_the_same_two_persons_in_opposite_directions_make_one_person() -> None:
    assert connection.vendor == "postgresql", "this test needs real row locks"
    for attempt in range(ATTEMPTS):
        spring, organiser = cup(f"spring-{attempt}")
        autumn, _autumn_organiser = cup(f"autumn-{attempt}")
        autumn.staff.create(user=organiser, role="organiser")
        second = make_user(f"second-{attempt}")
        for tournament in (spring, autumn):
            tournament.staff.create(user=second, role="organiser")
        first_player = Player.objects.create(tournament=spring, name="Ana Alves")
        second_player = Player.objects.create(tournament=autumn, name="Ana Alves")
        first = persons.new_person(first_player, organiser)
        other = persons.new_person(second_player, organiser)
        outcomes = race(
            [
                lambda: persons.confirm_match(first_player, other, organiser),  # noqa: B023
                lambda: persons.confirm_match(second_player, first, second),  # noqa: B023
            ]
        )
        refusals = ended_well(outcomes)
        assert {refusal.rule for refusal in refusals} <= {"person-changed"}, outcomes
        assert len(refusals) < 2, outcomes
        assert not Person.objects.filter(pk=other.pk).exists()
        assert set(Player.objects.filter(person=first).values_list("pk", flat=True)) == {
            first_player.pk,
            second_player.pk,
        }
