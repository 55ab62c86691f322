"""A club session's home page and standings follow every table in play, not one current hanchan: each
table is a hanchan of its own (``tournament.core.club``), so the tables still waiting for a signed sheet are
every open one, and a player's seat is their own open table. Through the pages, their JSON and the API,
with Django's test client."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client

from scoring import services as sheets
from scoring.models import ScoreSheet
from tests.tournament.test_club_sessions import Session, make_session, sign
from tournament import services
from tournament.models import Player, Table, Tournament
from tournament.services import club, player_login

MORE = ("Hal", "Ivy", "Jon", "Kim", "Lea", "Max")
POINTS = (45000, 35000, 25000, 15000)


def final(names: tuple[str, ...]) -> dict[str, Any]:
    return {"form": "final", "final_points": dict(zip(names, POINTS, strict=True)), "riichi_sticks_left": 0}


def evening(slug: str, **fields: Any) -> tuple[Session, dict[int, Table]]:
    """Hanchan 1 signed (Ana, Ben, Cho, Dai); three tables in play: hanchan 2 without a sheet (Eve, Fay,
    Hal, Ivy), hanchan 3 with a draft (Dai, Ana, Cho, Ben: Ana's second hanchan) and hanchan 4 with a
    submitted sheet (Jon, Kim, Lea, Max)."""
    session = make_session(slug, **fields)
    for name in MORE:
        session.players[name] = Player.objects.create(
            tournament=session.tournament, name=name, status=Player.Status.CHECKED_IN
        )
    tournament, organiser = session.tournament, session.organiser
    first = services.form_table(tournament, organiser, session.ids("Ana", "Ben", "Cho", "Dai"))
    sign(first, organiser, {"Ana": 45000, "Ben": 35000, "Cho": 25000, "Dai": 15000})
    tables = {
        2: services.form_table(tournament, organiser, session.ids("Eve", "Fay", "Hal", "Ivy")),
        3: services.form_table(tournament, organiser, session.ids("Dai", "Ana", "Cho", "Ben")),
        4: services.form_table(tournament, organiser, session.ids("Jon", "Kim", "Lea", "Max")),
    }
    sheets.save_sheet(tables[3], final(("Dai", "Ana", "Cho", "Ben")), organiser)
    sheets.save_sheet(tables[4], final(("Jon", "Kim", "Lea", "Max")), organiser, submit=True)
    return session, tables


def finish(table: Table, user: Any) -> None:
    """The table's sheet submitted, if it is not yet, then signed: its hanchan finishes."""
    seated = tuple(seat.player.name for seat in table.seats.order_by("wind").select_related("player"))
    sheet = ScoreSheet.objects.filter(table=table).first()
    if sheet is None or sheet.status != ScoreSheet.Status.SUBMITTED:
        version = sheet.version if sheet is not None else None
        sheet = sheets.save_sheet(table, final(seated), user, submit=True, expected_version=version)
    sheets.sign_sheet(sheet, user)


def next_seats(page: str) -> dict[str, Any]:
    found = re.search(r'<script id="next-seats" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None, "no next seats on the page"
    seats: dict[str, Any] = json.loads(found.group(1))
    return seats


@pytest.mark.django_db
def test_the_standings_wait_for_every_open_table_of_the_session(
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        session, tables = evening("club-waiting")
    slug = session.tournament.slug
    data = Client().get(f"/t/{slug}/standings.json").json()
    assert (data["club"], data["current_round"], data["current_round_status"]) == (True, None, None)
    assert data["tables"] == 3
    assert data["pending"] == [
        {"round": 2, "table": 1, "status": "none"},
        {"round": 3, "table": 1, "status": "draft"},
        {"round": 4, "table": 1, "status": "submitted"},
    ]
    for path in ("standings/", "projector/"):
        page = Client().get(f"/t/{slug}/{path}").content.decode()
        assert "waiting for the tables of hanchan 2, 3, 4" in page, path
    # The API's tables still without a signed sheet: the same three, never the signed hanchan 1.
    api = Client()
    api.force_login(session.organiser)
    pending = api.get(f"/api/tournaments/{session.tournament.pk}/standings/").json()["pending_tables"]
    assert [(p["round"], p["table"], p["sheet_status"]) for p in pending] == [
        (2, 1, None),
        (3, 1, "draft"),
        (4, 1, "submitted"),
    ]
    # Hanchan 3 signed, hanchan 2 taken back: only hanchan 4 is waiting, on a page computed afresh.
    with django_capture_on_commit_callbacks(execute=True):
        finish(tables[3], session.organiser)
        services.take_back_table(tables[2], session.organiser)
    data = Client().get(f"/t/{slug}/standings.json").json()
    assert (data["tables"], data["pending"]) == (1, [{"round": 4, "table": 1, "status": "submitted"}])
    page = Client().get(f"/t/{slug}/standings/").content.decode()
    assert "waiting for the table of hanchan 4" in page
    assert "waiting for the tables of hanchan" not in page


@pytest.mark.django_db
def test_the_home_page_shows_every_open_table_and_each_players_own() -> None:
    session, _tables = evening("club-home")
    page = Client().get(f"/t/{session.tournament.slug}/").content.decode()
    assert "3 tables playing" in page
    assert re.findall(r'<li data-hanchan="(\d+)">', page) == ["2", "3", "4"]  # not the signed hanchan 1
    assert "Dai, Ana, Cho, Ben" in page  # East to North
    seats = next_seats(page)
    by_name = {name: seats.get(str(player.pk)) for name, player in session.players.items()}
    assert by_name["Eve"] == {"table": 1, "wind": "East", "hanchan": 2}
    assert by_name["Ana"] == {"table": 1, "wind": "South", "hanchan": 3}  # her own open table, not hanchan 1
    assert by_name["Max"] == {"table": 1, "wind": "North", "hanchan": 4}
    assert by_name["Gus"] is None  # not checked in, at no table
    # Every table signed: none playing, nobody's seat.
    for table in club.open_tables(session.tournament):
        finish(table, session.organiser)
    page = Client().get(f"/t/{session.tournament.slug}/").content.decode()
    assert "0 tables playing" in page and "data-hanchan" not in page
    assert next_seats(page) == {}


@pytest.mark.django_db
def test_a_signed_in_player_is_sent_to_their_own_open_table() -> None:
    session, _tables = evening("club-mine", entry_mode=Tournament.EntryMode.PLAYERS)
    slug, ana = session.tournament.slug, session.players["Ana"]
    client = Client()
    link = player_login.issue_for_player(ana, session.organiser).token
    assert client.get(f"/t/{slug}/in/{link}/").status_code == 302
    page = client.get(f"/t/{slug}/players/{ana.pk}/").content.decode()
    assert "Hanchan 3, table 1 (South)." in page
    assert f'href="/t/{slug}/sheet/3/1/"' in page


@pytest.mark.django_db
def test_a_tournament_still_follows_its_current_hanchan(seated_table: Table) -> None:
    """A tournament's standings and home page name one current hanchan, its tables by number."""
    slug = seated_table.round.tournament.slug
    data = Client().get(f"/t/{slug}/standings.json").json()
    assert (data["club"], data["current_round"], data["current_round_status"]) == (False, 1, "started")
    assert (data["tables"], data["pending"]) == (1, [{"table": 1, "status": "none"}])
    page = Client().get(f"/t/{slug}/").content.decode()
    assert "Hanchan 1</b> of 5" in page and "tables playing" not in page
    seats = next_seats(page)
    assert sorted(seat["wind"] for seat in seats.values()) == ["East", "North", "South", "West"]
    assert all(seat == {"table": 1, "wind": seat["wind"]} for seat in seats.values())


def test_the_summary_names_the_hanchan_of_a_few_tables_and_counts_many() -> None:
    def summary(**standings: Any) -> str:
        s = {"rounds": 2, "current_round": None, "current_round_status": None, "club": True} | standings
        return " ".join(render_to_string("tournament/_standings_summary.html", {"s": s}).split())

    one = [{"round": 5, "table": 1, "status": "none"}]
    assert summary(pending=one, tables=1) == "After hanchan 2 · waiting for the table of hanchan 5"
    many = [{"round": n, "table": 1, "status": "none"} for n in range(3, 10)]
    assert summary(pending=many, tables=7) == "After hanchan 2 · waiting for 7 tables"
    assert summary(pending=[], tables=0) == "After hanchan 2"
    # A tournament's summary is its current hanchan's, as before.
    tournament = {"club": False, "current_round": 3, "current_round_status": "started", "tables": 4}
    waiting = [{"table": 1, "status": "none"}, {"table": 3, "status": "draft"}]
    assert summary(**tournament, pending=waiting) == "After hanchan 2 · hanchan 3: waiting for tables 1, 3"
