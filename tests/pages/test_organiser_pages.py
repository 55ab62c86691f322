"""The organisers' and head referees' pages: creating and editing, registration and the two-step import,
check-in, seating generation and its report, the clock, absences, staff roles, penalties."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from penalties.models import Penalty
from scoring import services as sheets
from tests.conftest import make_players
from tests.pages.conftest import Site, client_for
from tournament.models import Absence, Player, Round, SeatingJob, StaffRole, Tournament


@pytest.mark.django_db
def test_an_organiser_creates_a_tournament_and_becomes_its_organiser(site: Site) -> None:
    client = client_for(site.users["organiser"])
    response = client.post(
        "/tournaments/new/",
        {
            "name": "Spring Open",
            "slug": "spring-open",
            "starts_on": "2027-04-03",
            "ends_on": "2027-04-04",
            "venue": "Town Hall",
            "ruleset_preset": "EMA2025",
            "ruleset_overrides": "{}",
            "hanchan_count": 6,
            "hanchan_minutes": 90,
            "is_public": "on",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/t/spring-open/manage/"
    spring = Tournament.objects.get(slug="spring-open")
    assert StaffRole.objects.get(tournament=spring).user == site.users["organiser"]


@pytest.mark.django_db
def test_editing_refuses_what_the_model_refuses(site: Site) -> None:
    client = client_for(site.users["organiser"])
    page = client.get("/t/test-open/manage/edit/")
    assert page.status_code == 200
    data = {k: v for k, v in page.context["form"].initial.items() if v is not None}
    data.update(ends_on="2026-04-01", ruleset_overrides="{}", is_public="on")
    response = client.post("/t/test-open/manage/edit/", data)
    assert response.status_code == 200
    assert response.context["form"].errors
    data.update(ends_on="2026-05-02", venue="Big Hall")
    assert client.post("/t/test-open/manage/edit/", data).status_code == 302
    assert Tournament.objects.get(slug="test-open").venue == "Big Hall"


@pytest.mark.django_db
def test_registering_a_player_by_hand_shows_the_services_refusal(site: Site) -> None:
    client = client_for(site.users["organiser"])
    assert (
        client.post("/t/test-open/manage/players/", {"name": "Zoe Zhang", "country": "CN"}).status_code == 302
    )
    again = client.post("/t/test-open/manage/players/", {"name": "Zoe Zhang"})
    assert again.status_code == 200 and b"already registered" in again.content


def upload(text: str, name: str = "players.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


@pytest.mark.django_db
def test_import_preview_names_every_bad_row_and_imports_nothing(site: Site) -> None:
    client = client_for(site.users["organiser"])
    before = Player.objects.count()
    text = "name;country;ema id\nKai Kato;JP;04000001\n;FR;\nLea Laurent;Narnia;123\n"
    response = client.post("/t/test-open/manage/players/import/", {"file": upload(text)})
    page = response.content.decode()
    assert "line 3" not in page  # the table shows lines and fields in columns
    assert "missing name" in page
    assert "&#x27;Narnia&#x27; is not an ISO 3166 country code or name" in page
    assert "EMA id &#x27;123&#x27; is not 8 digits" in page
    assert "Import 1 players" not in page and "nothing is imported" in page
    assert Player.objects.count() == before


@pytest.mark.django_db
def test_import_preview_says_which_columns_it_read_and_which_it_ignored(site: Site) -> None:
    client = client_for(site.users["organiser"])
    text = "Name,Native Name,Country,Rating,name in script\nKai Kato,加藤 海,JP,1500,x\n"
    page = client.post("/t/test-open/manage/players/import/", {"file": upload(text)}).content.decode()
    assert "Columns read: name, native name, country." in page
    assert "Columns ignored, not known to the import: Rating, name in script." in page
    assert "<td>加藤 海</td>" in page  # the native name read is shown beside the name
    plain = client.post("/t/test-open/manage/players/import/", {"file": upload("name\nLea\n")}).content
    assert b"Columns read: name." in plain and b"data-import-ignored" not in plain


@pytest.mark.django_db
def test_import_preview_then_confirm_imports_every_row(site: Site) -> None:
    client = client_for(site.users["organiser"])
    text = "first name,last name,country,substitute\nKai,Kato,Japan,no\nLea,Laurent,FR,yes\n"
    preview = client.post("/t/test-open/manage/players/import/", {"file": upload(text)})
    assert preview.status_code == 200 and b"Import 2 players" in preview.content
    assert not Player.objects.filter(name="Kai Kato").exists()
    token = preview.context["confirm_form"].initial["token"]
    done = client.post("/t/test-open/manage/players/import/confirm/", {"token": token})
    assert done.status_code == 302
    assert Player.objects.get(name="Lea Laurent").is_substitute
    again = client.post("/t/test-open/manage/players/import/confirm/", {"token": token}, follow=True)
    assert b"upload the file again" in again.content  # one confirmation, one import


@pytest.mark.django_db
def test_an_unreadable_file_is_refused_beside_the_field(site: Site) -> None:
    client = client_for(site.users["organiser"])
    response = client.post("/t/test-open/manage/players/import/", {"file": upload("x", "players.pdf")})
    assert response.status_code == 400 and b"neither .csv nor .xlsx" in response.content
    too_big = upload("name\n" + "x" * 2 * 1024 * 1024, "players.csv")
    response = client.post("/t/test-open/manage/players/import/", {"file": too_big})
    assert response.status_code == 400 and b"a player list is at most 2,097,152" in response.content


@pytest.mark.django_db
def test_check_in_toggle_and_plan(tournament: Tournament, organiser: Any) -> None:
    players = make_players(tournament, 5)
    # A substitute is available once checked in too.
    make_players(tournament, 1, prefix="Sub", is_substitute=True, status=Player.Status.CHECKED_IN)
    client = client_for(organiser)
    for player in players:
        assert (
            client.post(f"/t/test-open/manage/check-in/{player.pk}/", {"checked_in": "on"}).status_code == 302
        )
    page = client.get("/t/test-open/manage/check-in/").content.decode()
    assert "5 players checked in" in page
    assert "3 substitutes complete the last table" in page and "3 short" not in page
    assert "2 short" in page
    assert "Player 005" in page.split("sits out")[1].split("</p>")[0]
    client.post(f"/t/test-open/manage/check-in/{players[0].pk}/", {})
    players[0].refresh_from_db()
    assert players[0].status == Player.Status.REGISTERED


@pytest.mark.django_db
def test_seating_generation_shows_progress_then_the_report_in_plain_words(
    tournament: Tournament, organiser: Any, sixteen_players: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = client_for(organiser)
    with django_capture_on_commit_callbacks(execute=True):  # the task is queued when the request commits
        response = client.post("/t/test-open/manage/seating/", {"from_round": 1, "seed": 3})
    assert response.status_code == 302
    job = SeatingJob.objects.get(tournament=tournament)
    assert response["Location"] == f"/t/test-open/manage/seating/jobs/{job.pk}/"
    state = client.get(f"/t/test-open/manage/seating/jobs/{job.pk}.json").json()
    assert state["state"] == "done" and state["progress"] == 1.0  # tasks run in process here
    page = client.get(response["Location"]).content.decode()
    assert "Quality of the schedule" in page
    assert "No two players meet more than once." in page
    assert "Opponents: as good as possible" in page
    assert tournament.rounds.count() == 5


@pytest.mark.django_db
def test_seating_refusal_is_shown_on_the_form(tournament: Tournament, organiser: Any) -> None:
    make_players(tournament, 6)
    response = client_for(organiser).post("/t/test-open/manage/seating/", {"from_round": 1, "seed": 0})
    assert response.status_code == 200
    assert b"need 2 substitutes" in response.content


@pytest.mark.django_db
def test_clock_controls_for_organisers_and_extra_time_for_head_referees(site: Site) -> None:
    organiser = client_for(site.users["organiser"])
    assert organiser.post("/t/test-open/clock/", {"form": "clock", "action": "start"}).status_code == 302
    assert organiser.get("/t/test-open/clock.json").json()["state"] == "running"
    organiser.post("/t/test-open/clock/", {"form": "clock", "action": "extend", "minutes": 5})
    assert organiser.get("/t/test-open/clock.json").json()["seconds_left"] > 90 * 60
    organiser.post("/t/test-open/clock/", {"form": "clock", "action": "pause"})
    assert organiser.get("/t/test-open/clock.json").json()["state"] == "paused"
    head = client_for(site.users["head_referee"])
    assert b"Start the clock" not in head.get("/t/test-open/clock/").content  # organisers only
    # The clock itself is the organisers' (the service refuses a head referee).
    assert head.post("/t/test-open/clock/", {"form": "clock", "action": "start"}).status_code == 403
    assert head.post("/t/test-open/clock/", {"form": "table", "table": 2, "minutes": 4}).status_code == 302
    assert head.get("/t/test-open/clock.json").json()["tables"] == {"2": 4}


@pytest.mark.django_db
def test_a_hanchan_finishes_with_its_last_signed_sheet_and_the_next_one_is_current(site: Site) -> None:
    client = client_for(site.users["organiser"])
    refused = client.post("/t/test-open/clock/", {"form": "finish"}, follow=True)
    assert b"table 2 has no signed sheet yet" in refused.content
    page = client.get("/t/test-open/clock/").content.decode()
    assert "finishes by itself when its last table" in page and 'value="finish"' not in page
    Round.objects.create(tournament=site.tournament, number=2, status=Round.Status.SEATED)
    points = {"form": "final", "final_points": {"Eve": 40000, "Fay": 30000, "Gus": 25000, "Hal": 25000}}
    sheets.sign_sheet(
        sheets.save_sheet(site.table_2, points, site.users["referee"], submit=True), site.users["referee"]
    )
    assert Round.objects.get(tournament=site.tournament, number=1).status == Round.Status.FINISHED
    assert client.get("/t/test-open/clock.json").json()["round"] == 2
    assert "Hanchan 2" in client.get("/t/test-open/").content.decode()


@pytest.mark.django_db
def test_a_substitute_takes_an_absent_players_seat(site: Site) -> None:
    substitute = Player.objects.create(tournament=site.tournament, name="Sam Sub", is_substitute=True)
    client = client_for(site.users["organiser"])
    response = client.post(
        "/t/test-open/manage/absences/",
        {
            "form": "substitute",
            "round": site.table_2.round.pk,
            "player": site.player("Eve").pk,
            "substitute": substitute.pk,
            "reason": "absent",
        },
    )
    assert response.status_code == 302
    absence = Absence.objects.get()
    assert (absence.player.name, absence.substitute) == ("Eve", substitute)
    # WRCR 2015 §7.2: the missed-hanchan penalty is booked when the hanchan is played, not in advance.
    assert not Penalty.objects.filter(player__name="Eve").exists()
    names = [seat.player.name for seat in site.table_2.seats.order_by("wind")]
    entry = {
        "form": "final",
        "riichi_sticks_left": 0,
        "final_points": dict(zip(names, [40000, 30000, 30000, 20000], strict=True)),
    }
    referee = site.users["referee"]
    sheets.sign_sheet(sheets.save_sheet(site.table_2, entry, referee, submit=True), referee)
    assert Penalty.objects.get(player__name="Eve").kind == "missed_hanchan"
    page = client.get("/t/test-open/seating/1/").content.decode()
    assert "Sam Sub" in page and "substitute for Eve" in page


@pytest.mark.django_db
def test_withdrawing_a_player(site: Site) -> None:
    client = client_for(site.users["organiser"])
    response = client.post(
        "/t/test-open/manage/absences/",
        {"form": "withdraw", "player": site.player("Hal").pk, "from_round": 2},
    )
    # First what it will do, nothing stored; then the confirmation withdraws.
    assert (
        response.status_code == 200 and "Confirm: Hal withdraws from hanchan 2" in response.content.decode()
    )
    assert site.player("Hal").status == Player.Status.REGISTERED
    response = client.post(
        "/t/test-open/manage/absences/",
        {"form": "withdraw", "player": site.player("Hal").pk, "from_round": 2, "confirmed": "on"},
    )
    assert response.status_code == 302
    assert site.player("Hal").status == Player.Status.WITHDRAWN
    assert site.player("Hal").withdrawn_from == 2


@pytest.mark.django_db
def test_staff_roles_are_granted_by_user_name(site: Site) -> None:
    client = client_for(site.users["organiser"])
    grant = {"form": "grant", "username": "nobody", "role": "referee"}
    assert client.post("/t/test-open/manage/staff/", grant).status_code == 302
    assert StaffRole.objects.get(user=site.users["nobody"], tournament=site.tournament).role == "referee"
    unknown = client.post("/t/test-open/manage/staff/", {**grant, "username": "ghost"})
    assert b"No account has this user name" in unknown.content
    # The role form never removes: removing is its own button, and says so only for a real role.
    assert client.post("/t/test-open/manage/staff/", {**grant, "role": ""}).status_code == 200
    assert StaffRole.objects.filter(user=site.users["nobody"], tournament=site.tournament).exists()
    remove = {"form": "remove", "username": "nobody"}
    removed = client.post("/t/test-open/manage/staff/", remove, follow=True)
    assert "nobody: role removed." in removed.content.decode()
    assert not StaffRole.objects.filter(user=site.users["nobody"], tournament=site.tournament).exists()
    again = client.post("/t/test-open/manage/staff/", remove, follow=True).content.decode()
    assert "nobody has no role in Test Open" in again and "role removed" not in again


@pytest.mark.django_db
def test_penalties_give_revoke_and_disqualify(site: Site) -> None:
    client = client_for(site.users["head_referee"])
    eve = site.player("Eve")
    late = client.post(
        "/t/test-open/penalties/",
        {"player": eve.pk, "kind": "lateness", "round": site.table_2.round.pk, "minutes_late": 12},
    )
    assert late.status_code == 400 and b"12 is more than 10" in late.content
    given = client.post(
        "/t/test-open/penalties/",
        {"player": eve.pk, "kind": "phone", "points": "5", "reason": "phone rang at the table"},
    )
    assert given.status_code == 302
    penalty = Penalty.objects.get(player=eve)
    assert (
        client.post(f"/t/test-open/penalties/{penalty.pk}/revoke/", {"reason": "it was not hers"}).status_code
        == 302
    )
    penalty.refresh_from_db()
    assert penalty.revoke_reason == "it was not hers"
    assert (
        client.post(
            "/t/test-open/penalties/disqualify/", {"player": eve.pk, "reason": "cheating"}
        ).status_code
        == 302
    )
    assert site.player("Eve").disqualified
    rows = client.get("/t/test-open/standings.json").json()["rows"]
    assert next(r for r in rows if r["name"] == "Eve")["ranked"] is False


@pytest.mark.django_db
def test_manage_page_links_the_exports(site: Site) -> None:
    client = client_for(site.users["organiser"])
    page = client.get("/t/test-open/manage/").content.decode()
    exports = page.split("<h2>Exports</h2>")[1].split("</section>")[0]
    assert 'href="/t/test-open/exports/"' in exports
    assert client.get("/t/test-open/exports/").status_code == 200


@pytest.mark.django_db
def test_swiss_hanchan_from_the_seating_page(site: Site) -> None:
    # Hanchan 1 (started): Ana's table signed (Ana first, Dai second); hanchan 2 seated by standings.
    referee = client_for(site.users["referee"])
    assert referee.post("/t/test-open/manage/seating/swiss/", {"number": 2}).status_code == 403
    organiser = client_for(site.users["organiser"])
    response = organiser.post("/t/test-open/manage/seating/swiss/", {"number": 2, "seed": 0})
    assert response.status_code == 302 and response["Location"] == "/t/test-open/seating/2/"
    second = site.tournament.rounds.get(number=2)
    assert second.mode == "swiss"
    tables = [{s.player.name for s in table.seats.all()} for table in second.tables.order_by("number")]
    # The leader sits at table 1; with two tables some players meet again, and no more than needed:
    # each table takes two of each hanchan 1 table.
    assert "Ana" in tables[0]
    assert [len(t & {"Ana", "Ben", "Cho", "Dai"}) for t in tables] == [2, 2]
    refused = organiser.post("/t/test-open/manage/seating/swiss/", {"number": 1}, follow=True)
    assert "has started" in refused.content.decode()
