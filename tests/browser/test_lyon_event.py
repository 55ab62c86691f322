"""A real 40-player WRCR event, end to end on phones (390 px): the organiser imports 42 international names
(40 players and 2 substitutes) with their Latin and native-script names, checks in 38 of the 40 and both
substitutes at the door, seats 10 hanchan; a referee enters and signs a sheet on a phone; the organiser
gives a penalty, takes a withdrawal from hanchan 5 and re-seats; two players open their own pages from
their cards; every export is read back, and the EMA file needs no hand edit.

The other 99 sheets are signed through the rules engine's service (what the sheet page calls): the test is
of the event's flow, not of typing a hundred sheets.
"""

from __future__ import annotations

import json
import random
import re
from datetime import date
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from exports.archive.load import import_archive
from scoring import services as sheets
from scoring.models import ScoreSheet
from tests.browser.conftest import PHONE, log_in, wait_for_path
from tests.conftest import make_user
from tests.exports.helpers import csv_rows, pdf, rows, workbook, zip_members
from tournament import services
from tournament.models import Player, Round, Seat, Table, Tournament
from tournament.services import player_login

PASSWORD = "pw-for-tests-only"
# (last name, first name, name in its own script, country): as an organiser's sign-up sheet has them.
FIELD = [
    ("Yamada", "Taro", "山田 太郎", "JP"),
    ("de Vries", "Daan", "", "NL"),
    ("Ó Briain", "Seán", "", "IE"),
    ("Wiśniewski", "Łukasz", "", "PL"),
    ("Konstantinopolsky", "Aleksandr", "Александр Константинопольский", "RU"),
    ("Ismail", "Nurul Aisyah binti", "", "MY"),
    ("van der Heijden-de Vries", "Pieter", "", "NL"),
    ("Kim", "Min-jun", "김민준", "KR"),
    ("Chen", "Wei", "陈伟", "CN"),
    ("Müller", "Jürgen", "", "DE"),
    ("García Márquez", "Inés", "", "ES"),
    ("Dubois", "Amélie", "", "FR"),
    ("Rossi", "Giulia", "", "IT"),
    ("Novák", "Jan", "", "CZ"),
    ("Nilsson", "Greta", "", "SE"),
    ("Larsen", "Finn", "", "DK"),
    ("Silva", "João", "", "PT"),
    ("Petrova", "Olga", "Ольга Петрова", "RU"),
    ("Tanaka", "Aiko", "田中 愛子", "JP"),
    ("Smith", "Noah", "", "GB"),
    ("Kowalczyk", "Zofia", "", "PL"),
    ("Horváth", "Bence", "", "HU"),
    ("Popescu", "Andrei", "", "RO"),
    ("Jensen", "Mette", "", "DK"),
    ("O'Connor", "Aoife", "", "IE"),
    ("Lefèvre", "Théo", "", "FR"),
    ("Bauer", "Lena", "", "DE"),
    ("Fernández", "Lucía", "", "ES"),
    ("Virtanen", "Aino", "", "FI"),
    ("Hansen", "Ole", "", "NO"),
    ("Ivanenko", "Oksana", "Оксана Іваненко", "UA"),
    ("Sato", "Haruto", "佐藤 陽翔", "JP"),
    ("Lin", "Yu-ting", "林雨婷", "TW"),
    ("Nguyen", "Thi Mai", "", "VN"),
    ("Schneider", "Felix", "", "AT"),
    ("Meier", "Nina", "", "CH"),
    ("Janssens", "Lotte", "", "BE"),
    ("Costa", "Marco", "", "IT"),
    ("Berg", "Lars", "", "SE"),
    ("Moreau", "Camille", "", "FR"),
]
SUBSTITUTES = [("Durand", "Hugo", "", "FR"), ("Lambert", "Chloé", "", "FR")]
NO_SHOWS = {("Hansen", "Ole"), ("Costa", "Marco")}
HANCHAN = 10


def players_file() -> dict[str, Any]:
    lines = ["last name;first name;native name;country;club;substitute"]
    lines += [f"{last};{first};{native};{country};;no" for last, first, native, country in FIELD]
    lines += [
        f"{last};{first};{native};{country};Lyon Riichi;yes" for last, first, native, country in SUBSTITUTES
    ]
    return {"name": "lyon.csv", "mimeType": "text/csv", "buffer": ("\n".join(lines) + "\n").encode()}


@pytest.fixture
def lyon(transactional_db: None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Lyon Riichi Open",
        slug="lyon-open",
        starts_on=date(2027, 3, 13),
        ends_on=date(2027, 3, 14),
        hanchan_count=HANCHAN,
        time_zone="Europe/Paris",
    )
    make_user("organiser", tournament, "organiser")
    make_user("referee", tournament, "referee")
    return tournament


def final_points(names: list[str], chance: random.Random) -> dict[str, Any]:
    """A final-points sheet for the four: random hundreds adding up to 120,000."""
    cuts = sorted(chance.sample(range(1, 1200), 3))
    points = [a * 100 for a in (cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 1200 - cuts[2])]
    return {"form": "final", "final_points": dict(zip(names, points, strict=True)), "riichi_sticks_left": 0}


def sign_hanchan(tournament: Tournament, number: int, referee: Any, *, skip: set[int] = frozenset()) -> None:  # type: ignore[assignment]
    round_ = tournament.rounds.get(number=number)
    chance = random.Random(number)
    for table in Table.objects.filter(round=round_).order_by("number"):
        if table.number in skip:
            continue
        names = [
            seat.player.name for seat in sorted(table.seats.select_related("player"), key=lambda s: s.wind)
        ]
        sheet = sheets.save_sheet(table, final_points(names, chance), referee, submit=True)
        sheets.sign_sheet(sheet, referee)


def csv_files(data: bytes) -> dict[str, list[list[str]]]:
    """A CSV export's tables by file name: one file, or each member of its ZIP."""
    if data.startswith(b"PK"):
        return {name: csv_rows(member) for name, member in zip_members(data).items()}
    return {"": csv_rows(data)}


def export(client: Client, identifier: str) -> bytes:
    response = client.post(
        reverse("exports:request", kwargs={"slug": "lyon-open", "identifier": identifier}),
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 202, (identifier, response.content)
    status = client.get(response.json()["status_url"]).json()
    assert status["state"] == "done", (identifier, status)
    download = client.get(status["download_url"])
    assert download.status_code == 200, identifier
    return b"".join(download.streaming_content)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_lyon_event_from_the_players_file_to_the_ema_file_on_phones(
    new_context: Any, live_server: Any, lyon: Tournament, screenshot: Any
) -> None:
    base = f"{live_server.url}/t/lyon-open"
    organiser = new_context(viewport=PHONE, has_touch=True).new_page()
    log_in(organiser, live_server, "organiser", PASSWORD, "/t/lyon-open/manage/players/")

    # The players' file: 42 names, read column by column, nothing to confirm.
    organiser.set_input_files("input[type=file]", players_file())
    organiser.get_by_role("button", name="Check the file").first.click()
    expect(organiser.locator(".notice")).to_contain_text("All 42 rows are fine.")
    organiser.get_by_role("button", name="Import 42 players").click()
    expect(organiser.locator(".messages")).to_contain_text("Imported 42 players from lyon.csv.")
    yamada = Player.objects.get(tournament=lyon, last_name="Yamada")
    assert (yamada.first_name, yamada.native_name, yamada.country) == ("Taro", "山田 太郎", "JP")
    assert Player.objects.get(tournament=lyon, first_name="Daan").last_name == "de Vries"
    assert Player.objects.filter(tournament=lyon, is_substitute=True).count() == 2

    # The door: the search leaves one row on a phone; 38 players and both substitutes checked in.
    organiser.goto(f"{base}/manage/check-in/")
    organiser.get_by_label("Search a name").fill("lukasz")
    expect(organiser.locator("tr[data-name]:visible")).to_have_count(1)
    organiser.get_by_label("Search a name").fill("")
    present = Player.objects.filter(tournament=lyon).exclude(
        pk__in=[
            p.pk for p in Player.objects.filter(tournament=lyon) if (p.last_name, p.first_name) in NO_SHOWS
        ]
    )
    for player in present:
        organiser.locator(f"tr[data-player='{player.pk}'] input[type=checkbox]").check()
    organiser.get_by_role("button", name="Check in the ticked players").click()
    expect(organiser.locator("[data-plan-heading]")).to_have_text(
        "38 players checked in"
    )  # and 2 substitutes
    assert Player.objects.filter(tournament=lyon, status=Player.Status.CHECKED_IN).count() == 40
    screenshot(organiser, "lyon-check-in")

    # Ten hanchan seated for the forty present.
    organiser.goto(f"{base}/manage/seating/")
    organiser.get_by_role("button", name="Generate the seating").click()
    wait_for_path(organiser, "*/manage/seating/jobs/*/")
    expect(organiser.locator("[data-report]")).to_contain_text("40 players, 10 hanchan, 10 tables")
    assert Seat.objects.filter(round__tournament=lyon).count() == 40 * HANCHAN

    # Hanchan 1: the referee enters table 1 by its final points on a phone; the other tables are signed.
    organiser_user = lyon.staff.get(role="organiser").user
    referee_user = lyon.staff.get(role="referee").user
    services.operate_clock(lyon.rounds.get(number=1), organiser_user, "start")
    sign_hanchan(lyon, 1, referee_user, skip={1})
    referee = new_context(viewport=PHONE, has_touch=True).new_page()
    log_in(referee, live_server, "referee", PASSWORD, "/t/lyon-open/sheet/1/1/")
    table_one = Table.objects.get(round__tournament=lyon, round__number=1, number=1)
    names = [
        seat.player.name for seat in sorted(table_one.seats.select_related("player"), key=lambda s: s.wind)
    ]
    referee.get_by_label("Final points only").check()
    for seat, points in enumerate((41_000, 31_000, 26_000, 22_000)):
        referee.locator(f"#final-{seat}").fill(str(points))
    expect(referee.locator("[data-verdict]")).to_have_text("The rules engine accepts this sheet.")
    referee.get_by_role("button", name="Submit", exact=True).click()
    expect(referee.locator(".messages")).to_contain_text("Submitted (version 1)")
    referee.get_by_role("button", name="Sign version 1").click()
    expect(referee.locator(".messages")).to_contain_text("Signed. The standings are updated.")
    screenshot(referee, "lyon-referee-signed")
    for number in range(2, 5):
        sign_hanchan(lyon, number, referee_user)

    # A penalty in hanchan 4, given on the organiser's phone.
    organiser.goto(f"{base}/penalties/")
    give = organiser.locator("section", has_text="Give a penalty")
    give.get_by_label("Player").select_option(label=names[2])
    give.get_by_label("Kind of penalty").select_option(value="phone")
    give.get_by_label("Hanchan").select_option(value=str(lyon.rounds.get(number=4).pk))
    give.get_by_label("Points").fill("10")
    give.get_by_label("Reason").fill("Phone at the table")
    organiser.get_by_role("button", name="Give the penalty").click()
    expect(organiser.locator(".messages")).to_contain_text(names[2])
    assert lyon.penalties.get().round.number == 4

    # A withdrawal from hanchan 5 and the re-seat: the proposals read as sentences.
    leaving = Player.objects.get(tournament=lyon, last_name="Smith")
    organiser.goto(f"{base}/manage/absences/")
    withdraw = organiser.locator("section", has_text="Withdraw a player")
    withdraw.get_by_label("Player").select_option(label=leaving.name)
    withdraw.get_by_label("From hanchan").fill("5")
    withdraw.get_by_role("button", name="Withdraw…").click()
    organiser.get_by_role("button", name="Confirm the withdrawal").click()
    expect(organiser.get_by_text(f"{leaving.name} has withdrawn.")).to_be_visible()
    # Someone must take the place: a substitute registered on the day, at the door.
    newcomer = services.register_player(
        lyon, organiser_user, name="Rémi Girard", first_name="Rémi", last_name="Girard", country="FR",
        is_substitute=True,
    )  # fmt: skip
    services.check_in(newcomer, user=organiser_user)
    organiser.goto(f"{base}/manage/seating/")
    organiser.get_by_label("Seat from hanchan").fill("5")
    organiser.get_by_role("button", name="Generate the seating").click()
    expect(organiser.get_by_role("heading", name="Confirm the new seating from hanchan 5")).to_be_visible()
    proposals = organiser.locator("#confirm-reseat").inner_text()
    assert "fewer than 0" not in proposals and "(1 tables)" not in proposals
    screenshot(organiser, "lyon-reseat")
    organiser.get_by_role("button", name="Put the chosen seating in place").click()
    expect(organiser.get_by_text("The seating from hanchan 5 is in place.")).to_be_visible()
    assert not Seat.objects.filter(round__number__gte=5, player=leaving).exists()
    for number in range(5, HANCHAN + 1):
        sign_hanchan(lyon, number, referee_user)
    assert ScoreSheet.objects.filter(table__round__tournament=lyon, status="signed").count() == 10 * HANCHAN

    # Two players open their own pages from their cards' links.
    for last in ("Yamada", "Wiśniewski"):
        player = Player.objects.get(tournament=lyon, last_name=last)
        token = player_login.issue_for_player(player, organiser_user).token
        phone = new_context(viewport=PHONE).new_page()
        phone.goto(f"{base}/in/{token}/")
        expect(phone.locator("h1")).to_contain_text(player.name)
        expect(phone.locator("body")).to_contain_text("10")  # ten hanchan played
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(phone, "lyon-player-page")

    # Every export, read back.
    client = Client()
    client.force_login(organiser_user)
    standings = csv_files(export(client, "standings_csv"))
    overall = standings["lyon-open-standings-standings.csv"]
    assert len(overall) == 1 + 43  # every registered player who played, the header first
    assert len(rows(workbook(export(client, "standings_xlsx")).active)) >= 41
    seating = csv_files(export(client, "seating_csv"))
    assert len(seating["lyon-open-seating-by-table.csv"]) == 1 + 10 * HANCHAN  # a row a table
    assert len(seating["lyon-open-seating-by-player.csv"]) == 1 + 43
    workbook(export(client, "seating_xlsx"))
    score_sheets = workbook(export(client, "score_sheets_xlsx"))
    assert any("referee" in str(cell) for row in rows(score_sheets.active) for cell in row)
    pages, texts = pdf(export(client, "score_sheets_pdf"))
    assert pages >= 10 * HANCHAN and any("Wiśniewski" in text for text in texts)
    pages, texts = pdf(export(client, "seating_cards_pdf"))
    assert pages >= 1 and any("Wiśniewski" in text for text in texts)

    # The EMA file: Latin last and first names, particles with the last name, no native script.
    (ema,) = csv_files(export(client, "ema_results_csv")).values()
    by_first = {row[3]: row for row in ema[1:]}
    assert by_first["Daan"][2] == "de Vries"
    assert by_first["Seán"][2] == "Ó Briain"
    assert by_first["Pieter"][2] == "van der Heijden-de Vries"
    assert by_first["Taro"][2] == "Yamada"
    native = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u0400-\u04ff]")
    assert not [row for row in ema if native.search(" ".join(row))]
    workbook(export(client, "ema_results_xlsx"))

    archive = export(client, "archive_json")
    copy = import_archive(archive, slug="lyon-open-copy")
    assert copy.players.count() == Player.objects.filter(tournament=lyon).count()
    assert json.loads(archive)["tournament"]["name"] == "Lyon Riichi Open"
    assert Round.objects.filter(tournament=copy).count() == HANCHAN
