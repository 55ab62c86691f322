"""Re-seating after the field changes: a proposal with what it changes and its quality before and after,
put in place only when the organiser confirms it; absences that agree with the seating; sitting out."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from penalties.models import Penalty
from scoring import services as sheets
from tests.conftest import make_players
from tournament import services
from tournament.models import Absence, Player, Round, Seat, SeatingJob, Tournament
from tournament.refusal import Refusal


def seated(tournament: Tournament, number: int) -> set[int]:
    return set(
        Seat.objects.filter(round__tournament=tournament, round__number=number).values_list(
            "player_id", flat=True
        )
    )


@pytest.fixture
def started(tournament: Tournament, organiser: Any) -> Tournament:
    """Sixteen players checked in and two substitutes; five hanchan seated; hanchan 1 started."""
    make_players(tournament, 16, status=Player.Status.CHECKED_IN)
    make_players(tournament, 2, prefix="Sub", is_substitute=True, status=Player.Status.CHECKED_IN)
    job = services.request_seating(tournament, organiser, seed=3)
    job.refresh_from_db()
    assert job.state == SeatingJob.State.DONE and not job.awaiting_confirmation  # a first seating: in place
    services.operate_clock(tournament.rounds.get(number=1), organiser, "start")
    return tournament


@pytest.mark.django_db(transaction=True)
def test_a_withdrawal_is_re_seated_after_a_confirmation_in_players_names(
    started: Tournament, organiser: Any
) -> None:
    gone = started.players.get(name="Player 005")
    services.withdraw_player(gone, organiser, from_round=2)
    before = {n: seated(started, n) for n in range(1, 6)}
    job = services.request_seating(started, organiser, from_round=2, seed=4)
    job.refresh_from_db()
    assert job.awaiting_confirmation and job.report.get("errors") is None
    assert {n: seated(started, n) for n in range(1, 6)} == before  # nothing changed yet

    client = Client()
    client.force_login(organiser)
    page = client.get(f"/t/{started.slug}/manage/seating/jobs/{job.pk}/").content.decode()
    assert "Confirm the new seating from hanchan 2" in page
    assert "leaves: Player 005" in page and "joins: Sub 001" in page
    assert f"[{gone.pk}]" not in page and "players missing" not in page  # names, never ids
    assert client.post(f"/t/{started.slug}/manage/seating/jobs/{job.pk}/apply/").status_code == 302

    assert seated(started, 1) == before[1]  # the hanchan played is kept
    for number in range(2, 6):
        assert gone.pk not in seated(started, number)
        assert len(seated(started, number)) == 16
    absences = Absence.objects.filter(player=gone).order_by("round__number")
    assert [(a.round.number, a.reason, a.substitute) for a in absences] == [
        (n, "withdrawn", None) for n in range(2, 6)
    ]
    job.refresh_from_db()
    assert job.applied_at is not None and not job.awaiting_confirmation


@pytest.mark.django_db(transaction=True)
def test_a_proposal_is_refused_once_the_field_has_changed(started: Tournament, organiser: Any) -> None:
    services.withdraw_player(started.players.get(name="Player 005"), organiser, from_round=2)
    job = services.request_seating(started, organiser, from_round=2, seed=4)
    job.refresh_from_db()
    services.withdraw_player(started.players.get(name="Player 006"), organiser, from_round=2)
    with pytest.raises(Refusal, match="changed since this seating was made"):
        services.apply_seating(job, organiser)


@pytest.mark.django_db(transaction=True)
def test_the_last_to_check_in_sit_out_without_a_penalty(
    tournament: Tournament, organiser: Any, referee: Any
) -> None:
    players = make_players(tournament, 17)
    for player in players:
        services.check_in(player, user=organiser)
    tournament.hanchan_count = 2
    tournament.save()
    job = services.request_seating(tournament, organiser, seed=1, prefer="sit_out")
    job.refresh_from_db()
    assert job.state == "done", job.error
    late = players[-1]  # the last to check in
    assert late.pk not in seated(tournament, 1) and len(seated(tournament, 1)) == 16
    assert set(Absence.objects.filter(player=late).values_list("reason", flat=True)) == {"sits_out"}
    first = tournament.rounds.get(number=1)
    services.operate_clock(first, organiser, "start")
    for table in first.tables.all():
        names = [seat.player.name for seat in table.seats.order_by("wind")]
        entry = {
            "form": "final",
            "riichi_sticks_left": 0,
            "final_points": dict(zip(names, [40000, 30000, 30000, 20000], strict=True)),
        }
        sheets.sign_sheet(sheets.save_sheet(table, entry, referee, submit=True), referee)
    assert Round.objects.get(pk=first.pk).tables.count() == 4
    assert not Penalty.objects.filter(player=late).exists()  # sitting out by the organiser's choice
