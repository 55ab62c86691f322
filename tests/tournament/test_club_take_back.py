"""Taking back a club session's table formed by mistake, on PostgreSQL: who may, the refusals once
something is saved for it, the audit, the numbers of the next tables, the page, the API, and a table
taken back while its sheet is saved or while someone else takes it back."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test import Client
from django.utils import timezone

from penalties import services as penalty_services
from penalties.models import Penalty
from scoring import services as sheets
from scoring.models import ScoreSheet
from tests.conftest import make_user
from tests.tournament.test_club_sessions import Session, make_session, race, sign
from tournament import services
from tournament.core.refusal import CONFLICT, FORBIDDEN, Refusal
from tournament.models import AuditEntry, Player, Round, Seat, Table, Tournament
from tournament.services import club, player_login

FOUR = ("Ana", "Ben", "Cho", "Dai")
DRAFT = {"form": "final", "final_points": {"Ana": 45000, "Ben": 35000, "Cho": 25000, "Dai": 15000}}


@pytest.fixture
def session(db: None) -> Session:
    return make_session()


def form(session: Session, *names: str, player: Player | None = None) -> Table:
    """A table formed by the organiser, or by ``player`` signed in with their PIN (no account)."""
    user = session.organiser if player is None else AnonymousUser()
    return services.form_table(session.tournament, user, session.ids(*names), player=player)


def refused(call: Any) -> tuple[str | None, str, int, str]:
    with pytest.raises(Refusal) as refusal:
        call()
    value = refusal.value
    return value.field, value.rule, value.status, value.message


def signed_in(session: Session, name: str) -> Client:
    client = Client()
    link = player_login.issue_for_player(session.players[name], session.organiser).token
    assert client.get(f"/t/{session.tournament.slug}/in/{link}/").status_code == 302
    return client


def test_the_organiser_takes_back_a_table_and_its_players_are_free_again(session: Session) -> None:
    table = form(session, *FOUR)
    taken = services.take_back_table(table, session.organiser)
    assert (taken.hanchan, taken.players) == (1, list(FOUR))
    assert not Round.objects.filter(tournament=session.tournament).exists()
    assert not Table.objects.filter(pk=table.pk).exists()
    assert not Seat.objects.filter(round__tournament=session.tournament).exists()
    assert all(c.open_hanchan is None for c in club.candidates(session.tournament).values())
    entry = AuditEntry.objects.get(tournament=session.tournament, action="club.take_back_table")
    assert (entry.actor, entry.subject, entry.changes["players"]) == (
        session.organiser,
        "hanchan 1",
        list(FOUR),
    )
    assert entry.changes["taken_back_by_player"] is None and entry.changes["formed_at"]
    assert entry.action_label == "Table taken back" and entry.subject_label == "hanchan 1"
    # The four sit down again at once, at hanchan 1: the last number, taken back, is used again.
    assert form(session, *FOUR).round.number == 1


def test_an_earlier_table_taken_back_leaves_its_number_unused(session: Session) -> None:
    for name in ("Hal", "Ivy"):
        session.players[name] = Player.objects.create(
            tournament=session.tournament, name=name, status=Player.Status.CHECKED_IN
        )
    first = form(session, *FOUR)
    form(session, "Eve", "Fay", "Hal", "Ivy")
    services.take_back_table(first, session.organiser)
    assert form(session, *FOUR).round.number == 3
    numbers = Round.objects.filter(tournament=session.tournament).values_list("number", flat=True)
    assert sorted(numbers) == [2, 3]


def test_a_head_referee_takes_back_a_table_a_referee_does_not(session: Session) -> None:
    table = form(session, *FOUR)
    referee = make_user("referee-take-back", session.tournament, "referee")
    with pytest.raises(PermissionDenied):
        services.take_back_table(table, referee)
    head = make_user("head-take-back", session.tournament, "head_referee")
    assert services.take_back_table(table, head).hanchan == 1


def test_a_table_with_a_penalty_given_or_a_sheet_saved_stays(session: Session) -> None:
    table = form(session, *FOUR)
    penalty = Penalty.objects.create(
        tournament=session.tournament,
        player=session.players["Ana"],
        round=table.round,
        kind=Penalty.Kind.PHONE,
        points=Decimal(2),
        reason="ringing",
    )
    field, rule, status, _message = refused(lambda: services.take_back_table(table, session.organiser))
    assert (field, rule, status) == ("table", "penalty-given", CONFLICT)
    penalty.delete()
    sheets.save_sheet(table, DRAFT, session.organiser)  # a draft is a sheet saved
    assert refused(lambda: services.take_back_table(table, session.organiser)) == (
        "table",
        "sheet-saved",
        CONFLICT,
        "table: a score sheet has been saved for the table of hanchan 1; a referee corrects it instead",
    )
    assert Table.objects.filter(pk=table.pk).exists()
    assert not AuditEntry.objects.filter(action="club.take_back_table").exists()


def test_a_signed_table_is_not_taken_back(session: Session) -> None:
    table = form(session, *FOUR)
    sign(table, session.organiser, DRAFT["final_points"])
    assert refused(lambda: services.take_back_table(table, session.organiser))[1] == "sheet-saved"


def test_a_tournament_takes_back_no_table(tournament: Tournament, organiser: Any) -> None:
    round_ = Round.objects.create(tournament=tournament, number=1)
    table = Table.objects.create(round=round_, number=1)
    field, rule, status, _message = refused(lambda: services.take_back_table(table, organiser))
    assert (field, rule, status) == ("table", "club-session", CONFLICT)


def test_the_player_who_formed_a_table_takes_it_back_for_a_while(session: Session) -> None:
    Tournament.objects.filter(pk=session.tournament.pk).update(players_form_tables=True)
    session.tournament.refresh_from_db()
    ana, ben = session.players["Ana"], session.players["Ben"]
    referee = make_user("referee-player", session.tournament, "referee")
    table = form(session, *FOUR, player=ana)
    assert table.formed_by == ana
    # Another player of the table: not theirs to take back.
    assert refused(lambda: services.take_back_table(table, referee, player=ben))[1:3] == (
        "formed-by-the-player",
        FORBIDDEN,
    )
    # Ana, too late.
    late = timezone.now() + timedelta(minutes=11)
    assert refused(lambda: services.take_back_table(table, referee, player=ana, now=late))[1:3] == (
        "take-back-time",
        FORBIDDEN,
    )
    taken = services.take_back_table(table, referee, player=ana)
    assert taken.players == list(FOUR)
    entry = AuditEntry.objects.get(action="club.take_back_table")
    assert entry.changes["taken_back_by_player"] == "Ana"
    # A table the organisers formed is theirs; and a session whose organisers form the tables refuses her.
    by_organiser = form(session, *FOUR)
    assert refused(lambda: services.take_back_table(by_organiser, referee, player=ana))[1] == (
        "formed-by-the-player"
    )
    Tournament.objects.filter(pk=session.tournament.pk).update(players_form_tables=False)
    by_organiser.round.tournament.refresh_from_db()
    assert refused(lambda: services.take_back_table(by_organiser, referee, player=ana))[1:3] == (
        "players-form-tables",
        FORBIDDEN,
    )


def test_a_sheet_is_not_saved_for_a_table_taken_back(session: Session) -> None:
    table = form(session, *FOUR)
    services.take_back_table(table, session.organiser)
    field, rule, status, message = refused(lambda: sheets.save_sheet(table, DRAFT, session.organiser))
    assert (field, rule, status) == ("table", "table-taken-back", CONFLICT)
    assert message == "table: the table of hanchan 1 was taken back; it has no sheet to enter"


def test_the_page_takes_a_table_back(session: Session) -> None:
    slug = session.tournament.slug
    client = Client()
    client.force_login(session.organiser)
    table = form(session, *FOUR)
    page = client.get(f"/t/{slug}/club/").content.decode()
    assert "Take this table back" in page and f"/t/{slug}/club/tables/1/take-back/" in page
    response = client.post(f"/t/{slug}/club/tables/1/take-back/")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Hanchan 1 taken back: Ana, Ben, Cho, Dai are free again." in page
    assert "6 players present and free" in page and 'data-hanchan="1"' not in page
    assert client.post(f"/t/{slug}/club/tables/1/take-back/").status_code == 404  # gone
    # A table with a draft: no button, and a post is refused with why.
    table = form(session, *FOUR)
    sheets.save_sheet(table, DRAFT, session.organiser)
    page = client.get(f"/t/{slug}/club/").content.decode()
    assert "Take this table back" not in page
    response = client.post(f"/t/{slug}/club/tables/1/take-back/")
    assert response.status_code == 409
    assert "a score sheet has been saved for the table of hanchan 1" in response.content.decode()
    # Anyone else: the sign-in page, and no button.
    assert Client().post(f"/t/{slug}/club/tables/1/take-back/").status_code == 302
    assert "Take this table back" not in Client().get(f"/t/{slug}/club/").content.decode()


def test_a_signed_in_player_takes_back_the_table_they_formed_on_the_page(session: Session) -> None:
    Tournament.objects.filter(pk=session.tournament.pk).update(players_form_tables=True)
    session.tournament.refresh_from_db()
    slug = session.tournament.slug
    ana, ben = signed_in(session, "Ana"), signed_in(session, "Ben")
    seats = dict(zip(("east", "south", "west", "north"), session.ids(*FOUR), strict=True))
    assert ana.post(f"/t/{slug}/club/tables/", seats).status_code == 302
    assert "Take this table back" in ana.get(f"/t/{slug}/club/").content.decode()
    assert "Take this table back" not in ben.get(f"/t/{slug}/club/").content.decode()
    response = ben.post(f"/t/{slug}/club/tables/1/take-back/")
    assert response.status_code == 403
    assert "taken back by the player who formed it" in response.content.decode()
    assert ana.post(f"/t/{slug}/club/tables/1/take-back/").status_code == 302
    assert not Round.objects.filter(tournament=session.tournament).exists()


def test_the_api_takes_a_table_back(session: Session) -> None:
    client = Client()
    client.force_login(session.organiser)
    table = form(session, *FOUR)
    address = f"/api/tables/{table.pk}/take-back/"
    response = client.post(address)
    assert response.status_code == 200, response.content
    assert response.json() == {"round": 1, "players": list(FOUR)}
    assert client.post(address).status_code == 404
    table = form(session, *FOUR)
    sheets.save_sheet(table, DRAFT, session.organiser)
    response = client.post(f"/api/tables/{table.pk}/take-back/")
    assert response.status_code == 409
    assert [(e["field"], e["rule"]) for e in response.json()["errors"]] == [("table", "sheet-saved")]


@pytest.mark.django_db(transaction=True)
def test_a_table_taken_back_while_its_sheet_is_saved_ends_with_one_of_the_two() -> None:
    assert connection.vendor == "postgresql", "this test needs real row locks"
    for attempt in range(3):
        session = make_session(f"race-sheet-{attempt}")
        referee = make_user(f"referee-race-{attempt}", session.tournament, "referee")
        table = form(session, *FOUR)
        outcomes = race(
            [
                lambda: services.take_back_table(table, session.organiser),  # noqa: B023
                lambda: sheets.save_sheet(table, DRAFT, referee),  # noqa: B023
            ]
        )
        refusals = [o for o in outcomes if isinstance(o, Refusal)]
        assert len(refusals) == 1, outcomes
        won = next(o for o in outcomes if not isinstance(o, Refusal))
        if isinstance(won, ScoreSheet):
            assert refusals[0].rule == "sheet-saved"
            assert Table.objects.filter(pk=table.pk).exists()
        else:
            assert isinstance(won, club.TakenBack), outcomes
            assert refusals[0].rule == "table-taken-back"
            assert not ScoreSheet.objects.filter(table_id=table.pk).exists()
            assert not Table.objects.filter(pk=table.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_a_table_taken_back_by_two_at_once_is_taken_back_once() -> None:
    session = make_session("race-take-back")
    head = make_user("head-race", session.tournament, "head_referee")
    table = form(session, *FOUR)
    outcomes = race(
        [
            lambda: services.take_back_table(table, session.organiser),
            lambda: services.take_back_table(table, head),
        ]
    )
    taken = [o for o in outcomes if isinstance(o, club.TakenBack)]
    refusals = [o for o in outcomes if isinstance(o, Refusal)]
    assert len(taken) == 1 and len(refusals) == 1, outcomes
    assert (refusals[0].field, refusals[0].rule, refusals[0].status) == (
        "table",
        "table-taken-back",
        CONFLICT,
    )
    assert refusals[0].message == "table: the table of hanchan 1 has been taken back already"
    assert (
        AuditEntry.objects.filter(tournament=session.tournament, action="club.take_back_table").count() == 1
    )


@pytest.mark.django_db(transaction=True)
def test_a_table_taken_back_while_a_penalty_is_given_at_it_ends_with_one_of_the_two() -> None:
    """The penalty locks the table as the take-back does: one waits, and is refused (409) by its rule."""
    assert connection.vendor == "postgresql", "this test needs real row locks"
    for attempt in range(10):
        session = make_session(f"race-penalty-{attempt}")
        head = make_user(f"head-penalty-{attempt}", session.tournament, "head_referee")
        table = form(session, *FOUR)
        outcomes = race(
            [
                lambda: services.take_back_table(table, session.organiser),  # noqa: B023
                lambda: penalty_services.give_penalty(
                    session.players["Ana"],  # noqa: B023
                    Penalty.Kind.PHONE,
                    head,  # noqa: B023
                    round=table.round,  # noqa: B023
                    points=2,
                    reason="ringing",
                ),
            ]
        )
        refusals = [o for o in outcomes if isinstance(o, Refusal)]
        assert len(refusals) == 1 and refusals[0].status == CONFLICT, outcomes
        won = next(o for o in outcomes if not isinstance(o, Refusal))
        if isinstance(won, Penalty):
            assert (refusals[0].field, refusals[0].rule) == ("table", "penalty-given")
            assert Table.objects.filter(pk=table.pk).exists()
        else:
            assert isinstance(won, club.TakenBack), outcomes
            assert (refusals[0].field, refusals[0].rule) == ("round", "table-taken-back")
            assert not Penalty.objects.filter(tournament=session.tournament).exists()
            assert not Table.objects.filter(pk=table.pk).exists()
