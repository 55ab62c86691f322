"""A club session on PostgreSQL: forming tables from the players present, the refusals, two tables formed
at once, the standings of players with different numbers of hanchan, and the session's page."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test import Client

from penalties.models import Penalty
from scoring import services as sheets
from tests.conftest import make_user
from tournament import services
from tournament.core.refusal import CONFLICT, FORBIDDEN, Refusal
from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.queries.standings_db import load_standings
from tournament.services import club, player_login

NAMES = ("Ana", "Ben", "Cho", "Dai", "Eve", "Fay")


@dataclass
class Session:
    tournament: Tournament
    organiser: Any
    players: dict[str, Player]

    def ids(self, *names: str) -> list[int | None]:
        return [self.players[name].pk for name in names]


def make_session(slug: str = "club-night", **fields: Any) -> Session:
    """Ana to Fay checked in; Gus registered, not checked in."""
    tournament = Tournament.objects.create(
        name="Thursday Club Night",
        slug=slug,
        kind=Tournament.Kind.CLUB,
        starts_on=date(2026, 11, 26),
        ends_on=date(2026, 11, 26),
        hanchan_count=1,
        **fields,
    )
    organiser = make_user(f"organiser-{slug}", tournament, "organiser")
    players = {
        name: Player.objects.create(tournament=tournament, name=name, status=Player.Status.CHECKED_IN)
        for name in NAMES
    }
    players["Gus"] = Player.objects.create(tournament=tournament, name="Gus")
    return Session(tournament, organiser, players)


@pytest.fixture
def session(db: None) -> Session:
    return make_session()


def sign(table: Table, user: Any, points: dict[str, int]) -> None:
    entry = {"form": "final", "final_points": points, "riichi_sticks_left": 0}
    sheets.sign_sheet(sheets.save_sheet(table, entry, user, submit=True), user)


def seated(table: Table) -> list[str]:
    return [seat.player.name for seat in table.seats.order_by("wind").select_related("player")]


def refusal_of(session: Session, names: list[int | None]) -> list[tuple[str | None, str]]:
    with pytest.raises(Refusal) as refused:
        services.form_table(session.tournament, session.organiser, names)
    return [(problem.field, problem.rule) for problem in refused.value.problems]


def test_the_organiser_forms_a_table_of_four_present_players(session: Session) -> None:
    table = services.form_table(
        session.tournament, session.organiser, session.ids("Cho", "Ana", "Dai", "Ben")
    )
    assert seated(table) == ["Cho", "Ana", "Dai", "Ben"]  # East to North, as chosen
    round_ = table.round
    assert (round_.number, round_.status, round_.mode, table.number) == (1, "started", "club", 1)
    assert round_.published_at is not None  # its players enter their sheet at once, where they may
    assert [t.round.number for t in club.open_tables(session.tournament)] == [1]


def test_the_winds_drawn_seat_the_four_chosen(session: Session) -> None:
    chosen = session.ids("Ana", "Ben", "Cho", "Dai")
    table = services.form_table(
        session.tournament, session.organiser, chosen, draw_winds=True, rng=random.Random(3)
    )
    order = [seat.player_id for seat in table.seats.order_by("wind")]
    expected = list(chosen)
    random.Random(3).shuffle(expected)
    assert order == expected
    assert sorted(order) == sorted(chosen)  # type: ignore[type-var]


def test_refusals_name_the_seat_and_the_rule(session: Session) -> None:
    services.form_table(session.tournament, session.organiser, session.ids("Ana", "Ben", "Cho", "Dai"))
    assert refusal_of(session, session.ids("Eve", "Fay", "Ana")) == [("players", "four-players")]
    assert refusal_of(session, session.ids("Eve", "Fay", "Eve", "Ben")) == [
        ("west", "player-once"),
        ("north", "player-free"),
    ]
    assert refusal_of(session, session.ids("Eve", "Fay", "Gus", "Ana")) == [
        ("west", "player-present"),
        ("north", "player-free"),
    ]
    assert refusal_of(session, [*session.ids("Eve", "Fay", "Gus"), None]) == [
        ("west", "player-present"),
        ("north", "four-players"),
    ]
    with pytest.raises(Refusal) as refused:
        services.form_table(session.tournament, session.organiser, session.ids("Eve", "Fay", "Cho", "Gus"))
    assert "west: Cho is still playing at the table of hanchan 1" in str(refused.value)
    assert Round.objects.filter(tournament=session.tournament).count() == 1  # nothing written


def test_signing_the_sheet_frees_the_players_and_nobody_misses_a_hanchan(session: Session) -> None:
    """Ana and Ben finish two hanchan, Cho, Dai, Eve and Fay one, Gus none (a third table is still
    playing). WRC 2015 rules: score = (points - 30,000) / 1,000 + uma 15 / 5 / -5 / -15; the standings are
    the sums: Eve 25, Ana 30 - 7 = 23, Fay 7, Cho -10, Ben 10 - 25 = -15, Dai -30."""
    first = services.form_table(
        session.tournament, session.organiser, session.ids("Ana", "Ben", "Cho", "Dai")
    )
    # Ana 1st 45,000 (+30), Ben 2nd 35,000 (+10), Cho 3rd 25,000 (-10), Dai 4th 15,000 (-30).
    sign(first, session.organiser, {"Ana": 45000, "Ben": 35000, "Cho": 25000, "Dai": 15000})
    assert Round.objects.get(pk=first.round_id).status == Round.Status.FINISHED
    second = services.form_table(
        session.tournament, session.organiser, session.ids("Eve", "Fay", "Ana", "Ben")
    )
    # Eve 1st 40,000 (+25), Fay 2nd 32,000 (+7), Ana 3rd 28,000 (-7), Ben 4th 20,000 (-25).
    sign(second, session.organiser, {"Eve": 40000, "Fay": 32000, "Ana": 28000, "Ben": 20000})
    third = services.form_table(
        session.tournament, session.organiser, session.ids("Ana", "Cho", "Dai", "Eve")
    )
    # Open: it counts for nobody yet.
    assert [t.pk for t in club.open_tables(session.tournament)] == [third.pk]
    assert not Penalty.objects.filter(tournament=session.tournament).exists()  # WRCR §7.2 does not apply
    rows = [(r.name, r.rank, r.total, r.played, r.note) for r in load_standings(session.tournament.pk).rows]
    assert rows == [
        ("Eve", 1, Decimal("25.0"), 1, ""),
        ("Ana", 2, Decimal("23.0"), 2, ""),
        ("Fay", 3, Decimal("7.0"), 1, ""),
        ("Cho", 4, Decimal("-10.0"), 1, ""),
        ("Ben", 5, Decimal("-15.0"), 2, ""),
        ("Dai", 6, Decimal("-30.0"), 1, ""),
        ("Gus", None, Decimal(0), 0, "Did not start"),
    ]


def test_the_session_computes_no_seating(session: Session) -> None:
    with pytest.raises(Refusal) as refused:
        services.request_seating(session.tournament, session.organiser)
    assert (refused.value.field, refused.value.rule, refused.value.status) == (
        "tournament",
        "club-session",
        CONFLICT,
    )


def test_a_tournament_forms_no_table_at_the_venue(tournament: Tournament, organiser: Any) -> None:
    with pytest.raises(Refusal) as refused:
        services.form_table(tournament, organiser, [1, 2, 3, 4])
    assert (refused.value.rule, refused.value.status) == ("club-session", CONFLICT)


def test_who_forms_a_table(session: Session) -> None:
    ana, four = session.players["Ana"], session.ids("Ana", "Ben", "Cho", "Dai")
    referee = make_user("referee-club", session.tournament, "referee")
    with pytest.raises(PermissionDenied):
        services.form_table(session.tournament, referee, four)
    # A player, only when the session lets its players form tables.
    with pytest.raises(Refusal) as refused:
        services.form_table(session.tournament, referee, four, player=ana)
    assert (refused.value.rule, refused.value.status) == ("players-form-tables", FORBIDDEN)
    Tournament.objects.filter(pk=session.tournament.pk).update(players_form_tables=True)
    session.tournament.refresh_from_db()
    with pytest.raises(Refusal) as refused:  # a table they sit at
        services.form_table(session.tournament, referee, session.ids("Ben", "Cho", "Dai", "Eve"), player=ana)
    assert refused.value.rule == "own-table"
    table = services.form_table(session.tournament, referee, four, player=ana)
    assert seated(table) == ["Ana", "Ben", "Cho", "Dai"]


def test_the_kind_stays_once_a_hanchan_is_seated(session: Session) -> None:
    services.form_table(session.tournament, session.organiser, session.ids("Ana", "Ben", "Cho", "Dai"))
    with pytest.raises(Refusal) as refused:
        services.update_tournament(session.tournament, session.organiser, kind="tournament")
    assert (refused.value.field, refused.value.rule) == ("kind", "kind-before-play")
    # Its other settings change as before, whatever hanchan it has played.
    services.update_tournament(
        session.tournament, session.organiser, hanchan_count=1, name="Friday Club Night"
    )


def race(calls: list[Any]) -> list[object]:
    """Run each call in a thread of its own (its own connection), all released at once."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[object] = []

    def run(call: Any) -> None:
        try:
            barrier.wait()
            outcomes.append(call())
        except Exception as exc:  # the test inspects whatever each call ended with
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_two_tables_formed_at_once_with_a_player_in_common_end_with_one() -> None:
    assert connection.vendor == "postgresql", "this test needs real row locks"
    session = make_session()
    tournament, organiser = session.tournament, session.organiser
    second = make_user("second-organiser", tournament, "organiser")
    outcomes = race(
        [
            lambda: services.form_table(tournament, organiser, session.ids("Ana", "Ben", "Cho", "Dai")),
            lambda: services.form_table(tournament, second, session.ids("Eve", "Fay", "Ana", "Gus")),
            lambda: services.form_table(tournament, second, session.ids("Dai", "Eve", "Fay", "Cho")),
        ]
    )
    tables = [o for o in outcomes if isinstance(o, Table)]
    refusals = [o for o in outcomes if isinstance(o, Refusal)]
    assert len(tables) == 1 and len(refusals) == 2, outcomes
    assert {refusal.rule for refusal in refusals} <= {"player-free", "player-present"}
    assert Seat.objects.filter(round__tournament=tournament).count() == 4
    assert Round.objects.get(tournament=tournament).number == 1


@pytest.mark.django_db(transaction=True)
def test_two_tables_formed_at_once_without_a_player_in_common_both_sit_down() -> None:
    session = make_session()
    tournament, organiser = session.tournament, session.organiser
    Player.objects.filter(pk=session.players["Gus"].pk).update(status=Player.Status.CHECKED_IN)
    extra = Player.objects.create(tournament=tournament, name="Hal", status=Player.Status.CHECKED_IN)
    outcomes = race(
        [
            lambda: services.form_table(tournament, organiser, session.ids("Ana", "Ben", "Cho", "Dai")),
            lambda: services.form_table(tournament, organiser, [*session.ids("Eve", "Fay", "Gus"), extra.pk]),
        ]
    )
    assert all(isinstance(o, Table) for o in outcomes), outcomes
    numbers = sorted(Round.objects.filter(tournament=tournament).values_list("number", flat=True))
    assert numbers == [1, 2]


def test_the_page_forms_a_table_and_shows_it(session: Session) -> None:
    slug = session.tournament.slug
    client = Client()
    client.force_login(session.organiser)
    page = client.get(f"/t/{slug}/club/").content.decode()
    assert "Form a table" in page and "6 players present and free" in page
    seats = dict(
        zip(("east", "south", "west", "north"), session.ids("Ana", "Ben", "Cho", "Dai"), strict=True)
    )
    response = client.post(f"/t/{slug}/club/tables/", seats)
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Hanchan 1: Ana, Ben, Cho, Dai sit down." in page
    assert 'data-hanchan="1"' in page and "2 players present and free" in page
    # The same players again: refused beside the seat, nothing written.
    refused = client.post(f"/t/{slug}/club/tables/", seats)
    assert refused.status_code == 400
    assert "east: Ana is still playing at the table of hanchan 1" in refused.content.decode()
    assert Round.objects.filter(tournament=session.tournament).count() == 1
    # Everyone sees the page, without the form; a tournament has none.
    public = Client().get(f"/t/{slug}/club/").content.decode()
    assert 'data-hanchan="1"' in public and "Form a table" not in public
    assert Client().post(f"/t/{slug}/club/tables/", seats).status_code == 302  # to the sign-in page
    other = Tournament.objects.create(
        name="Open", slug="open", starts_on=date(2026, 1, 1), ends_on=date(2026, 1, 1), hanchan_count=4
    )
    assert Client().get(f"/t/{other.slug}/club/").status_code == 404


def test_the_tournament_pages_serve_a_session_without_its_schedule(session: Session) -> None:
    """The pages that assume a schedule still serve a session: no seating to generate (the seating page
    leads to the session's), no clock for the room; each open table is its hanchan in "my tables"."""
    first = services.form_table(
        session.tournament, session.organiser, session.ids("Ana", "Ben", "Cho", "Dai")
    )
    sign(first, session.organiser, {"Ana": 45000, "Ben": 35000, "Cho": 25000, "Dai": 15000})
    services.form_table(session.tournament, session.organiser, session.ids("Eve", "Fay", "Ana", "Ben"))
    client = Client()
    client.force_login(session.organiser)
    slug = session.tournament.slug
    for page in (
        "",
        "standings/",
        "players/",
        f"players/{session.players['Ana'].pk}/",
        "manage/",
        "referee/",
    ):
        response = client.get(f"/t/{slug}/{page}")
        assert response.status_code == 200, page
        assert "data-clock-url" not in response.content.decode(), page
    assert client.get(f"/t/{slug}/manage/seating/")["Location"] == f"/t/{slug}/club/"
    mine = client.get(f"/t/{slug}/referee/").content.decode()
    assert "Hanchan 2" in mine and "Hanchan 1" not in mine
    assert client.get(f"/t/{slug}/manage/edit/").status_code == 200
    # A player's page lists the hanchan they sat at, whatever their numbers: Eve's is hanchan 2.
    eve = client.get(f"/t/{slug}/players/{session.players['Eve'].pk}/").content.decode()
    assert '<td class="num" data-key="hanchan">2</td>' in eve


def test_a_session_is_created_from_the_form_without_a_number_of_hanchan(session: Session) -> None:
    client = Client()
    client.force_login(session.organiser)
    body = {"name": "Friday Night", "slug": "friday", "kind": "club", "starts_on": "2026-12-04"}
    body |= {"ends_on": "2026-12-04", "ruleset_preset": "WRC2015", "ruleset_overrides": "{}"}
    body |= {"hanchan_minutes": "90", "players_form_tables": "on"}
    response = client.post("/tournaments/new/", body)
    assert response.status_code == 302, response.content.decode()[:2000]
    friday = Tournament.objects.get(slug="friday")
    assert (friday.kind, friday.players_form_tables, friday.hanchan_count) == ("club", True, 1)
    # A tournament still needs its number.
    refused = client.post("/tournaments/new/", body | {"kind": "tournament", "slug": "friday-cup"})
    assert refused.status_code == 200 and "a tournament needs its number" in refused.content.decode()


def test_the_api_forms_a_table_and_refuses_naming_the_field(session: Session) -> None:
    client = Client()
    client.force_login(session.organiser)
    address = f"/api/tournaments/{session.tournament.pk}/club-tables/"
    created = client.post(
        address, {"players": session.ids("Ana", "Ben", "Cho", "Dai")}, content_type="application/json"
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert (body["round"], body["number"]) == (1, 1)
    assert [seat["player"]["id"] for seat in body["seats"]] == session.ids("Ana", "Ben", "Cho", "Dai")
    refused = client.post(
        address, {"players": session.ids("Eve", "Fay", "Ana")}, content_type="application/json"
    )
    assert refused.status_code == 400
    assert [(e["field"], e["rule"]) for e in refused.json()["errors"]] == [("players", "four-players")]


def test_a_signed_in_player_forms_a_table_where_the_session_allows_it(session: Session) -> None:
    Tournament.objects.filter(pk=session.tournament.pk).update(players_form_tables=True)
    slug = session.tournament.slug

    def signed_in(name: str) -> Client:
        client = Client()
        link = player_login.issue_for_player(session.players[name], session.organiser).token
        assert client.get(f"/t/{slug}/in/{link}/").status_code == 302
        return client

    ana = signed_in("Ana")
    assert "Form a table" in ana.get(f"/t/{slug}/club/").content.decode()
    seats = dict(
        zip(("east", "south", "west", "north"), session.ids("Ben", "Ana", "Cho", "Dai"), strict=True)
    )
    assert ana.post(f"/t/{slug}/club/tables/", seats).status_code == 302
    assert [r.number for r in Round.objects.filter(tournament=session.tournament)] == [1]
    gus = signed_in("Gus")  # registered, not checked in: forms nothing
    assert "Form a table" not in gus.get(f"/t/{slug}/club/").content.decode()
    assert gus.post(f"/t/{slug}/club/tables/", seats).status_code == 403


def test_a_club_sessions_manage_page_says_to_form_a_table_not_to_generate_a_seating(
    session: Session,
) -> None:
    client = Client()
    client.force_login(session.organiser)
    page = " ".join(client.get(f"/t/{session.tournament.slug}/manage/").content.decode().split())
    hint = page.split("data-no-hanchan>", 1)[1].split("</p>", 1)[0]
    assert "seating" not in hint
    assert f'<a href="/t/{session.tournament.slug}/club/">form a table</a> of four players present' in hint
