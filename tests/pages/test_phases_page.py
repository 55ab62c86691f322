"""The organisers' phases page: setting the phases, the cut seen before it is made, the cut, a call-up
and the seating of the final by rank, through the page's forms."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.standings.test_phase_event import play_qualifying
from tournament.models import PhaseEntry, Round, Tournament


@pytest.fixture
def qualified(tournament: Tournament, organiser: Any, referee: Any) -> Tournament:
    return play_qualifying(tournament, organiser, referee)


def rows(*phases: tuple[str, str, str, str, str]) -> dict[str, str]:
    data = {
        "action": "set",
        "phase-TOTAL_FORMS": str(len(phases)),
        "phase-INITIAL_FORMS": "0",
        "phase-MIN_NUM_FORMS": "0",
        "phase-MAX_NUM_FORMS": "6",
    }
    for index, (name, hanchan, seating, advance, carry_over) in enumerate(phases):
        data |= {
            f"phase-{index}-name": name,
            f"phase-{index}-hanchan": hanchan,
            f"phase-{index}-seating": seating,
            f"phase-{index}-advance": advance,
            f"phase-{index}-carry_over": carry_over,
        }
    return data


@pytest.mark.django_db
def test_the_organiser_sets_the_phases_and_sees_a_refusal_beside_its_field(
    tournament: Tournament, organiser: Any
) -> None:
    client = Client()
    client.force_login(organiser)
    page = f"/t/{tournament.slug}/manage/phases/"
    assert client.get(page).status_code == 200
    bad = rows(
        ("Qualifying", "8", "optimised", "", "keep"),
        ("Final", "2", "by_rank", "6", "halve"),
        ("", "", "optimised", "", "keep"),
    )
    response = client.post(page, bad)
    assert response.status_code == 200
    assert "phases[1].advance: how many players the cut keeps, a multiple of 4" in response.content.decode()
    good = rows(
        ("Qualifying", "8", "optimised", "", "keep"),
        ("Final", "2", "by_rank", "4", "halve"),
        ("", "", "optimised", "", "keep"),
    )
    response = client.post(page, good)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.hanchan_count == 10
    assert [p.name for p in tournament.phases.order_by("number")] == ["Qualifying", "Final"]


@pytest.mark.django_db
def test_the_cut_is_shown_made_and_the_final_seated_from_the_page(
    qualified: Tournament, organiser: Any
) -> None:
    client = Client()
    client.force_login(organiser)
    page = f"/t/{qualified.slug}/manage/phases/"
    shown = client.get(page).content.decode()
    assert "The cut keeps the best 4" in shown
    assert "<li>Ann</li><li>Ben</li><li>Eve</li><li>Gus</li>" in shown
    assert client.post(page, {"action": "cut", "phase": "2"}).status_code == 302
    assert list(
        PhaseEntry.objects.filter(phase__tournament=qualified)
        .values_list("player__name", flat=True)
        .order_by("seed")
    ) == ["Ann", "Ben", "Eve", "Gus"]
    eve = qualified.players.get(name="Eve")
    assert client.post(page, {"action": "call_up", "phase": "2", "player": str(eve.pk)}).status_code == 302
    assert client.post(page, {"action": "seat_by_rank", "phase": "2"}).status_code == 302
    seats = Round.objects.get(tournament=qualified, number=3).tables.get().seats.order_by("wind")
    assert [seat.player.name for seat in seats] == ["Ann", "Ben", "Fay", "Gus"]
    # The seating page says that a generation seats one phase.
    assert "data-in-phases" in client.get(f"/t/{qualified.slug}/manage/seating/").content.decode()
    # A refusal comes back as a message on the page.
    response = client.post(page, {"action": "cut", "phase": "2"}, follow=True)
    assert "is seated: its cut stays as made" in response.content.decode()
