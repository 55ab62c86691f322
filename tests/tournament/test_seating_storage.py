"""Seating generation for a tournament: queued as a Celery task, stored as rounds, tables and seats."""

from __future__ import annotations

import time
from itertools import combinations
from typing import Any

import pytest
from django.test import Client

from tests.conftest import make_players
from tournament import services
from tournament.core.refusal import Refusal
from tournament.models import Player, Round, Seat, SeatingJob, Tournament


def meetings(tournament: Tournament) -> dict[frozenset[int], int]:
    count: dict[frozenset[int], int] = {}
    tables: dict[int, list[int]] = {}
    seats = Seat.objects.filter(round__tournament=tournament)
    for table_id, player_id in seats.values_list("table_id", "player_id"):
        tables.setdefault(table_id, []).append(player_id)
    for players in tables.values():
        for pair in combinations(players, 2):
            count[frozenset(pair)] = count.get(frozenset(pair), 0) + 1
    return count


@pytest.mark.django_db(transaction=True)
def test_sixteen_players_five_hanchan_everyone_meets_everyone_once(
    tournament: Tournament, sixteen_players: list[Player], organiser: Any
) -> None:
    job = services.request_seating(tournament, organiser, seed=7)
    job.refresh_from_db()
    assert job.state == SeatingJob.State.DONE, job.error
    assert job.report["repeat_pairs"] == 0
    assert Round.objects.filter(tournament=tournament, status="seated").count() == 5
    pairs = meetings(tournament)
    assert len(pairs) == 16 * 15 // 2 and set(pairs.values()) == {1}


@pytest.mark.django_db(transaction=True)
def test_reseating_keeps_played_rounds_and_seats_the_remaining_field(
    tournament: Tournament, sixteen_players: list[Player], organiser: Any
) -> None:
    services.request_seating(tournament, organiser, seed=1)
    played = Round.objects.get(tournament=tournament, number=1)
    played.status = Round.Status.STARTED
    played.save()

    def seating_of_played() -> list[int]:
        seats = Seat.objects.filter(round=played).order_by("table__number", "wind")
        return list(seats.values_list("player_id", flat=True))

    before = seating_of_played()
    leaver = sixteen_players[0]
    make_players(tournament, 1, prefix="Sub", is_substitute=True, status=Player.Status.CHECKED_IN)
    services.withdraw_player(leaver, organiser, from_round=2)
    with pytest.raises(Refusal, match="hanchan 1 has started"):
        services.request_seating(tournament, organiser, from_round=1)
    job = services.request_seating(tournament, organiser, from_round=2, seed=2)
    job.refresh_from_db()
    assert job.state == "done", job.error
    assert job.awaiting_confirmation  # a re-seating waits for the organiser's confirmation
    assert Seat.objects.filter(round__tournament=tournament, round__number__gte=2, player=leaver).exists()
    services.apply_seating(job, organiser)
    assert seating_of_played() == before
    later = Seat.objects.filter(round__tournament=tournament, round__number__gte=2)
    assert not later.filter(player=leaver).exists()
    assert later.filter(player__is_substitute=True).count() == 4  # one substitute, hanchan 2 to 5


@pytest.mark.django_db
def test_a_field_short_of_substitutes_is_refused_before_queueing(
    tournament: Tournament, organiser: Any
) -> None:
    make_players(tournament, 6, status=Player.Status.CHECKED_IN)
    with pytest.raises(Refusal, match="6 players need 2 substitute"):
        services.request_seating(tournament, organiser)
    assert SeatingJob.objects.count() == 0


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_generation_runs_on_a_real_worker(
    tournament: Tournament, sixteen_players: list[Player], organiser: Any
) -> None:
    import time

    job = services.request_seating(tournament, organiser, seed=3)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.state in {"done", "failed"}:
            break
        time.sleep(0.2)
    assert job.state == "done", job.error
    assert Seat.objects.filter(round__tournament=tournament).count() == 16 * 5


@pytest.mark.django_db(transaction=True)
def test_a_substitute_is_seated_only_once_checked_in_and_is_marked_as_one(
    tournament: Tournament, organiser: Any
) -> None:
    make_players(tournament, 15, status=Player.Status.CHECKED_IN)
    (substitute,) = make_players(tournament, 1, prefix="Sub", is_substitute=True)
    with pytest.raises(Refusal, match="only 0 checked in available"):
        services.request_seating(tournament, organiser, seed=1)
    services.check_in(substitute, user=organiser)
    job = services.request_seating(tournament, organiser, seed=1)
    job.refresh_from_db()
    assert job.state == "done", job.error
    assert Seat.objects.filter(player=substitute).count() == tournament.hanchan_count
    page = Client().get(f"/t/{tournament.slug}/seating/1/").content.decode()
    assert 'Sub 001</a> <span class="badge">substitute</span>' in page


@pytest.mark.django_db(transaction=True)
def test_without_a_broker_the_page_answers_at_once_and_follows_the_job(
    tournament: Tournament, organiser: Any, settings: Any
) -> None:
    """The local default (tasks in process): the seating runs in a thread, the organiser sees its page and
    its progress at once instead of a blank page until it is done (64 players, 12 hanchan: about 1 s)."""
    settings.JOBS_IN_THREAD = True
    make_players(tournament, 64, status=Player.Status.CHECKED_IN)
    Tournament.objects.filter(pk=tournament.pk).update(hanchan_count=12)
    tournament.refresh_from_db()
    client = Client()
    client.force_login(organiser)
    response = client.post(f"/t/{tournament.slug}/manage/seating/", {"from_round": 1, "seed": 1})
    assert response.status_code == 302 and "/manage/seating/jobs/" in response["Location"]
    job = SeatingJob.objects.get()
    assert job.state in {"queued", "running"}  # the answer came before the job was done
    assert client.get(response["Location"]).status_code == 200
    deadline = time.monotonic() + 60
    while job.state not in {"done", "failed"} and time.monotonic() < deadline:
        time.sleep(0.2)
        job.refresh_from_db()
    assert job.state == "done", job.error
    assert Round.objects.filter(tournament=tournament).count() == tournament.hanchan_count
