"""Participation (WRCR 2015 §7.1-§7.2): the field, did-not-start, withdrawals, and the missed-hanchan
penalty booked as each hanchan is completed. Pure rules first, then the services on the database."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from penalties import services as penalties
from penalties.models import Penalty
from scoring import services as sheets
from tests.conftest import make_players, seat_table
from tournament import services
from tournament.core.participation import Facts, State, is_ranked, missed, state, unranked_reason
from tournament.core.refusal import Refusal
from tournament.models import Player, Round, Tournament
from tournament.queries.standings_db import load_standings

# -- The rules, pure ---------------------------------------------------------------------------------


def test_a_registered_player_never_checked_in_nor_seated_did_not_start() -> None:
    no_show = Facts()
    assert state(no_show, current=1, started=False) == State.REGISTERED
    assert state(no_show, current=2, started=True) == State.DID_NOT_START
    assert not is_ranked(no_show) and unranked_reason(no_show) == "Did not start"
    assert not missed(no_show, 1)  # never in the field: never penalised


def test_the_field_misses_the_hanchan_it_holds_no_seat_in() -> None:
    played_one = Facts(checked_in=True, seated=frozenset({1}), scheduled=frozenset({1, 2}))
    assert not missed(played_one, 1) and missed(played_one, 2)
    assert state(played_one, current=2, started=True) == State.ABSENT
    assert state(played_one, current=1, started=True) == State.PLAYING
    late = Facts(checked_in=True)  # arrived during or after hanchan 1, seated from hanchan 2
    assert missed(late, 1) and is_ranked(late)
    assert not missed(Facts(checked_in=True, disqualified=True), 1)  # disqualified: out of the ranking
    assert not missed(Facts(is_substitute=True, checked_in=True), 1)


def test_withdrawn_players_are_ranked_or_not_as_the_tournament_chooses() -> None:
    gone = Facts(checked_in=True, seated=frozenset({1, 2, 3}), withdrawn_from=4)
    assert state(gone, current=4, started=True) == State.WITHDRAWN
    assert missed(gone, 4) and not missed(gone, 3)
    assert is_ranked(gone, "ranked") and unranked_reason(gone, "ranked") == "Withdrawn"  # ranked, marked
    assert unranked_reason(Facts(checked_in=True, seated=frozenset({1})), "ranked") == ""
    assert not is_ranked(gone, "unranked") and unranked_reason(gone, "unranked") == "Withdrawn"


# -- On the database -----------------------------------------------------------------------------------


def final(table: Any, points: list[int]) -> dict[str, Any]:
    names = [seat.player.name for seat in table.seats.order_by("wind")]
    return {"form": "final", "riichi_sticks_left": 0, "final_points": dict(zip(names, points, strict=True))}


def play(table: Any, referee: Any, points: tuple[int, ...] = (40000, 30000, 30000, 20000)) -> None:
    sheets.sign_sheet(sheets.save_sheet(table, final(table, list(points)), referee, submit=True), referee)


def missed_penalties(player: Player) -> list[tuple[int, Decimal, bool]]:
    rows = Penalty.objects.filter(player=player, kind="missed_hanchan").order_by("round__number")
    return [(p.round.number, p.points, p.is_active) for p in rows]


@pytest.fixture
def field(tournament: Tournament) -> dict[str, Player]:
    """Eight checked-in players, one registered who never comes, and two substitutes."""
    players = make_players(tournament, 8, prefix="P", status=Player.Status.CHECKED_IN)
    players += make_players(tournament, 1, prefix="No show")
    players += make_players(tournament, 2, prefix="Sub", is_substitute=True)
    return {p.name: p for p in players}


def seat_round(
    tournament: Tournament, number: int, names: list[list[str]], field: dict[str, Player]
) -> list[Any]:
    round_ = Round.objects.create(tournament=tournament, number=number, status=Round.Status.STARTED)
    return [seat_table(round_, i + 1, [field[n] for n in table]) for i, table in enumerate(names)]


TABLES = [["P 001", "P 002", "P 003", "P 004"], ["P 005", "P 006", "P 007", "P 008"]]


@pytest.mark.django_db
def test_a_no_show_is_not_ranked_and_gets_no_penalty(
    tournament: Tournament, field: dict[str, Player], referee: Any
) -> None:
    for table in seat_round(tournament, 1, TABLES, field):
        play(table, referee)
    standings = load_standings(tournament.pk)
    no_show = standings.row_of(field["No show 001"].pk)
    assert (no_show.ranked, no_show.note, no_show.rank) == (False, "Did not start", None)
    assert [r.rank for r in standings.rows if r.ranked] == [1, 1, 3, 3, 3, 3, 7, 7]
    assert not Penalty.objects.exists()


@pytest.mark.django_db
def test_an_absent_players_penalty_is_booked_when_the_hanchan_is_complete(
    tournament: Tournament, field: dict[str, Player], organiser: Any, referee: Any
) -> None:
    first, second = seat_round(tournament, 1, TABLES, field)
    services.replace_with_substitute(first.round, field["P 001"], field["Sub 001"], organiser)
    assert missed_penalties(field["P 001"]) == []  # not in advance
    play(first, referee)
    assert missed_penalties(field["P 001"]) == []  # table 2 still plays
    play(second, referee)
    assert missed_penalties(field["P 001"]) == [(1, Decimal(30), True)]
    # Booked once: the last signature finished the hanchan, and a head referee's revocation stands when
    # the organiser tries to finish it again.
    assert Round.objects.get(pk=first.round.pk).status == Round.Status.FINISHED
    penalty = Penalty.objects.get(player=field["P 001"])
    penalties.revoke_penalty(penalty, organiser, reason="excused by the head referee")
    with pytest.raises(Refusal, match="hanchan 1 is finished"):
        services.finish_round(first.round, organiser)
    assert missed_penalties(field["P 001"]) == [(1, Decimal(30), False)]


@pytest.mark.django_db
def test_a_late_arrival_gets_the_penalty_of_the_hanchan_played_before_they_came(
    tournament: Tournament, field: dict[str, Player], organiser: Any, referee: Any
) -> None:
    for table in seat_round(tournament, 1, TABLES, field):
        play(table, referee)
    late = field["No show 001"]
    services.check_in(late, user=organiser)
    assert missed_penalties(late) == [(1, Decimal(30), True)]
    row = load_standings(tournament.pk).row_of(late.pk)
    assert (row.ranked, row.total) == (True, Decimal(-30))
    services.check_in(late, user=organiser, checked_in=False)  # a mistake: they never came
    assert missed_penalties(late) == [(1, Decimal(30), False)]
    assert load_standings(tournament.pk).row_of(late.pk).note == "Did not start"
    # They did come after all: checked in again, the penalty is booked again (the one the undo revoked
    # never blocks), once however often the door is undone and redone.
    services.check_in(late, user=organiser)
    assert missed_penalties(late) == [(1, Decimal(30), False), (1, Decimal(30), True)]
    assert load_standings(tournament.pk).row_of(late.pk).total == Decimal(-30)
    services.check_in(late, user=organiser, checked_in=False)
    services.check_in(late, user=organiser)
    assert sorted(missed_penalties(late)) == [(1, Decimal(30), False)] * 2 + [(1, Decimal(30), True)]
    # A head referee's revocation, unlike the door's, stands.
    penalties.revoke_penalty(
        Penalty.objects.get(player=late, revoked_at=None), organiser, reason="excused by the head referee"
    )
    services.check_in(late, user=organiser, checked_in=False)
    services.check_in(late, user=organiser)
    assert all(not active for _, _, active in missed_penalties(late))


@pytest.mark.django_db
def test_a_withdrawal_books_nothing_in_advance_and_each_hanchan_as_it_is_played(
    tournament: Tournament, field: dict[str, Player], organiser: Any, referee: Any
) -> None:
    for table in seat_round(tournament, 1, TABLES, field):
        play(table, referee)
    later = [seat_round(tournament, n, TABLES, field) for n in (2, 3)]
    for tables in later:
        Round.objects.filter(pk=tables[0].round_id).update(status=Round.Status.SEATED)
    gone = field["P 004"]
    absences = services.withdraw_player(gone, organiser, from_round=2, substitute=field["Sub 001"])
    assert [a.round.number for a in absences] == [2, 3]
    assert missed_penalties(gone) == []  # the issue's -150 at once: no more
    for table in later[0]:
        play(table, referee)
    assert missed_penalties(gone) == [(2, Decimal(30), True)]
    row = load_standings(tournament.pk).row_of(gone.pk)
    # Hanchan 1: 4th with 20,000, (20,000 - 30,000) / 1,000 - 15 uma = -25; hanchan 2 missed: -30.
    assert row.ranked and row.total == Decimal(-25 - 30)
    # Ranked, and marked as withdrawn in the ranking itself: on the page and in its live data.
    assert row.note == "Withdrawn"
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/t/{tournament.slug}/standings/").content.decode()
    ranked_row = page.split(f'<tr data-player="{gone.pk}"', 1)[1].split("</tr>", 1)[0]
    assert (
        '<td class="num rank" data-key="rank">' in ranked_row and "data-note>Withdrawn</span>" in ranked_row
    )
    rows = client.get(f"/t/{tournament.slug}/standings.json").json()["rows"]
    assert [r["note"] for r in rows if r["player"] == gone.pk] == ["Withdrawn"]
    Tournament.objects.filter(pk=tournament.pk).update(withdrawn_ranking="unranked")
    row = load_standings(tournament.pk).row_of(gone.pk)
    assert (row.ranked, row.note) == (False, "Withdrawn")


@pytest.mark.django_db
def test_each_players_state_is_shown_on_the_pages_and_in_the_api(
    tournament: Tournament, field: dict[str, Player], organiser: Any, referee: Any
) -> None:
    first, _ = seat_round(tournament, 1, TABLES, field)
    services.replace_with_substitute(first.round, field["P 001"], field["Sub 001"], organiser)
    data = Client().get(f"/api/tournaments/{tournament.pk}/players/?page_size=20").json()["results"]
    states = {row["name"]: row["participation"] for row in data}
    assert states["P 001"] == "absent" and states["P 002"] == "playing"
    assert states["No show 001"] == "did_not_start" and states["Sub 001"] == "substitute"
    page = Client().get(f"/t/{tournament.slug}/players/").content.decode()
    assert "did not start" in page and "absent" in page
