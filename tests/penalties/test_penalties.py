"""Point penalties (WRCR 2015 §7), substitutes for absent players, disqualification, and the standings."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.core.cache import cache
from django.core.exceptions import PermissionDenied

from penalties import services as penalties
from penalties.models import Penalty
from scoring import services as sheets
from tests.conftest import make_players, seat_table
from tests.scoring import hanchan
from tournament import services
from tournament.core.refusal import Refusal
from tournament.models import Absence, Player, Round
from tournament.queries.standings_db import cache_key, cached_standings, load_standings


@pytest.fixture
def ana(seated_table: Any) -> Player:
    return Player.objects.get(name="Ana")


@pytest.mark.django_db
def test_late_four_minutes_is_four_points(ana: Player, seated_table: Any, head_referee: Any) -> None:
    penalty = penalties.give_penalty(ana, "lateness", head_referee, round=seated_table.round, minutes_late=4)
    assert penalty.points == Decimal(4)


@pytest.mark.django_db
def test_late_twelve_minutes_means_a_substitute_and_thirty_not_forty(
    ana: Player, seated_table: Any, organiser: Any
) -> None:
    round_ = seated_table.round
    with pytest.raises(Refusal, match="more than 10; the player is replaced by a substitute"):
        penalties.give_penalty(ana, "lateness", organiser, round=round_, minutes_late=12)
    # The referee first noted 5 minutes; at 12 the player is replaced.
    penalties.give_penalty(ana, "lateness", organiser, round=round_, minutes_late=5)
    substitute = Player.objects.create(tournament=round_.tournament, name="Sub One", is_substitute=True)
    absence = services.replace_with_substitute(round_, ana, substitute, organiser, reason=Absence.Reason.LATE)
    # Booked once the hanchan is played, not in advance: until its sheet is signed, the lateness stands.
    active = Penalty.objects.filter(player=ana, revoked_at=None)
    assert [(p.kind, p.points) for p in active] == [("lateness", Decimal(5))]
    names = [seat.player.name for seat in seated_table.seats.order_by("wind")]
    entry = {
        "form": "final",
        "riichi_sticks_left": 0,
        "final_points": dict(zip(names, [40000, 30000, 30000, 20000], strict=True)),
    }
    sheets.sign_sheet(sheets.save_sheet(seated_table, entry, organiser, submit=True), organiser)
    assert [(p.kind, p.points) for p in active.all()] == [("missed_hanchan", Decimal(30))]
    assert Penalty.objects.get(player=ana, kind="lateness").revoke_reason.startswith("replaced by the missed")
    seat = seated_table.seats.get(wind=0)
    assert (seat.player, seat.replaces, absence.substitute) == (substitute, ana, substitute)


@pytest.mark.django_db
def test_discretionary_penalties_need_a_reason_and_a_positive_amount(ana: Player, head_referee: Any) -> None:
    with pytest.raises(Refusal, match="reason"):
        penalties.give_penalty(ana, "phone", head_referee, points=5)
    with pytest.raises(Refusal, match="positive amount"):
        penalties.give_penalty(ana, "obstruction", head_referee, points="-3", reason="slow play")
    penalty = penalties.give_penalty(ana, "information", head_referee, points="2.5", reason="showed tiles")
    assert penalty.points == Decimal("2.5")


@pytest.mark.django_db
@pytest.mark.parametrize("points", [None, "", "  "])
def test_a_discretionary_penalty_without_points_says_they_are_required(
    ana: Player, head_referee: Any, points: object
) -> None:
    with pytest.raises(Refusal) as refused:
        penalties.give_penalty(ana, "phone", head_referee, points=points, reason="rang")
    (problem,) = refused.value.problems
    assert (problem.field, problem.rule) == ("points", "penalty-amount")
    assert problem.message == "points: required, the amount this penalty takes off"
    assert not Penalty.objects.exists()


@pytest.mark.django_db
def test_a_penalty_of_the_hanchan_in_play_is_named_in_the_standings_heading(
    client: Any,
    tournament: Any,
    seated_table: Any,
    referee: Any,
    head_referee: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Hanchan 1 signed, hanchan 2 in play: its penalty counts at once, and the heading says so rather
    than let "After hanchan 1" hold a penalty of hanchan 2."""
    with django_capture_on_commit_callbacks(execute=True):
        sheets.sign_sheet(
            sheets.save_sheet(seated_table, hanchan.entry("final"), referee, submit=True), referee
        )
    players = list(Player.objects.filter(tournament=tournament).order_by("name"))
    second = Round.objects.create(tournament=tournament, number=2, status=Round.Status.STARTED)
    seat_table(second, 1, players)
    ana = players[0]
    client.force_login(head_referee)
    page = " ".join(client.get(f"/t/{tournament.slug}/standings/").content.decode().split())
    assert "After hanchan 1 " in page and "with the penalties" not in page
    with django_capture_on_commit_callbacks(execute=True):
        penalties.give_penalty(ana, "phone", head_referee, round=second, points=5, reason="rang")
    standings = load_standings(tournament.pk)
    assert (standings.rounds, standings.penalty_round) == (1, 2)
    page = " ".join(client.get(f"/t/{tournament.slug}/standings/").content.decode().split())
    assert "After hanchan 1, with the penalties of hanchan 2" in page
    assert client.get(f"/t/{tournament.slug}/standings.json").json()["penalty_round"] == 2


@pytest.mark.django_db
def test_a_referee_cannot_give_penalties(ana: Player, referee: Any) -> None:
    with pytest.raises(PermissionDenied):
        penalties.give_penalty(ana, "phone", referee, points=5, reason="ringing")


@pytest.mark.django_db
def test_standings_with_ties_substitute_disqualified_and_revoked_penalty(
    tournament: Any, seated_table: Any, referee: Any, head_referee: Any
) -> None:
    # Table 1: the hand-worked hanchan (Cho's chombo: 20 points). Table 2: a 3-way tie for second.
    round_ = seated_table.round
    others = make_players(tournament, 3, prefix="Tied")
    substitute = Player.objects.create(tournament=tournament, name="Sub Two", is_substitute=True)
    table2 = seat_table(round_, 2, [substitute, *others])
    sheets.sign_sheet(
        sheets.save_sheet(seated_table, hanchan.entry("outcomes"), referee, submit=True), referee
    )
    tie = {
        "form": "final",
        "riichi_sticks_left": 0,
        "final_points": {"Sub Two": 45000, "Tied 001": 25000, "Tied 002": 25000, "Tied 003": 25000},
    }
    sheets.sign_sheet(sheets.save_sheet(table2, tie, referee, submit=True), referee)
    # A 2-way tie in the overall ranking: two tied players (score -5 - 5 + ... equal), and a revoked penalty.
    tied = Player.objects.get(name="Tied 001")
    wrong = penalties.give_penalty(tied, "phone", head_referee, points=3, round=round_, reason="ringing")
    penalties.revoke_penalty(wrong, head_referee, reason="it was the neighbour's phone")
    penalties.disqualify(Player.objects.get(name="Dai"), head_referee, reason="collusion")
    standings = load_standings(tournament.pk)
    ranked = [(r.name, r.rank, r.total) for r in standings.rows if r.ranked]
    # Tied players share 2nd-4th place: -5 + (5 - 5 - 15)/3 = -10 each (WRCR 2015 §5.9.2).
    assert ranked == [
        ("Ana", 1, Decimal("22.4")),
        ("Ben", 2, Decimal("-8.4")),
        ("Tied 001", 3, Decimal("-10")),
        ("Tied 002", 3, Decimal("-10")),
        ("Tied 003", 3, Decimal("-10")),
        ("Cho", 6, Decimal("-40.1")),
    ]
    unranked = {r.name: r.total for r in standings.rows if not r.ranked}
    assert unranked == {"Dai": Decimal("6.1"), "Sub Two": Decimal("30")}


@pytest.mark.django_db(transaction=True)
def test_signing_refreshes_the_cached_standings_on_commit(
    tournament: Any, seated_table: Any, referee: Any
) -> None:
    before = cached_standings(tournament)
    assert all(row["played"] == 0 for row in before["rows"])
    sheets.sign_sheet(sheets.save_sheet(seated_table, hanchan.entry("final"), referee, submit=True), referee)
    tournament.refresh_from_db()
    # The signing's transaction gave a new standings version, whose standings wait in the cache.
    assert cache.get(cache_key(tournament.pk, tournament.standings_version)) is not None
    after = cached_standings(tournament)
    assert after["rows"][0]["name"] == "Ana" and after["rows"][0]["total"] == "22.4"


@pytest.mark.django_db
def test_withdrawn_player_is_replaced_in_later_rounds_not_started(
    tournament: Any, seated_table: Any, organiser: Any
) -> None:
    ana = Player.objects.get(name="Ana")
    players = list(Player.objects.filter(name__in=["Ana", "Ben", "Cho", "Dai"]).order_by("name"))
    round2 = Round.objects.create(tournament=tournament, number=2, status=Round.Status.SEATED)
    seat_table(round2, 1, players)
    substitute = Player.objects.create(tournament=tournament, name="Sub Three", is_substitute=True)
    absences = services.withdraw_player(ana, organiser, from_round=2, substitute=substitute)
    assert [(a.round.number, a.reason) for a in absences] == [(2, "withdrawn")]
    assert round2.seats.filter(player=substitute).exists()
    assert seated_table.seats.filter(player=ana).exists()  # hanchan 1 has started: unchanged
