"""Every exporter's file, opened and read back: cells, rows, pages and text."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from django.test import Client

from exports.exporters import ListExporter, all_exporters, get_exporter
from exports.exporters.base import PDF, XLSX, ZIP_TIME
from exports.exporters.ema import latin_names
from exports.exporters.pdf_text import unicode_font
from exports.exporters.printable import (
    CARD_PADDING,
    CARD_QR_SIZE,
    CARD_TABLE_TOP,
    card_row_height,
)
from tests.exports.conftest import H2_TABLE_1_CORRECTED, TABLE_2_POINTS
from tests.exports.helpers import csv_rows, pdf, rows, workbook, zip_members
from tests.scoring import hanchan
from tournament.models import StaffRole, Tournament

PRODUCT_EXPORTERS = [
    "standings_xlsx",
    "standings_csv",
    "seating_xlsx",
    "seating_csv",
    "score_sheets_xlsx",
    "ema_results_xlsx",
    "ema_results_csv",
    "signups_xlsx",
    "signups_csv",
    "score_sheets_pdf",
    "seating_cards_pdf",
    "archive_json",
]


def render(identifier: str, tournament: Tournament) -> Any:
    exporter = get_exporter(identifier)
    assert exporter is not None, identifier
    return exporter.render(tournament)


def test_the_registry_lists_every_exporter_in_order_with_its_permission() -> None:
    identifiers = [exporter.identifier for exporter in all_exporters()]
    assert [i for i in identifiers if i in PRODUCT_EXPORTERS] == PRODUCT_EXPORTERS
    permissions = {exporter.identifier: exporter.permission for exporter in all_exporters()}
    assert permissions["seating_xlsx"] == permissions["seating_csv"] == "public"
    assert permissions["standings_xlsx"] == permissions["standings_csv"] == StaffRole.Role.REFEREE
    assert permissions["score_sheets_xlsx"] == permissions["score_sheets_pdf"] == StaffRole.Role.REFEREE
    assert permissions["ema_results_csv"] == permissions["archive_json"] == StaffRole.Role.ORGANISER
    assert permissions["signups_xlsx"] == permissions["signups_csv"] == StaffRole.Role.ORGANISER
    standings = get_exporter("standings_csv")
    assert isinstance(standings, ListExporter) and standings.verbose_name == "Standings (CSV)"


@pytest.mark.django_db
def test_standings_workbook_has_the_ranking_results_by_hanchan_and_penalties(played: Tournament) -> None:
    result = render("standings_xlsx", played)
    assert (result.filename, result.content_type) == ("test-open-standings.xlsx", XLSX)
    book = workbook(result.data)
    assert book.sheetnames == ["Standings", "By hanchan", "Penalties"]
    sheet = book["Standings"]
    assert sheet.freeze_panes == "A2"
    table = rows(sheet)
    header = table[0]
    assert header[:5] == ["Rank", "Name", "Country", "EMA id", "Total"]
    assert header[5:12] == ["H1", "H2", "H3", "H4", "H5", "Penalties", "Played"]
    by_name = {row[1]: row for row in table[1:]}
    ana = by_name["Ana"]
    # Hanchan 1: 22.4 (tests/scoring/hanchan.py); hanchan 2: 36,000 in first place: 6 + 15 uma = 21.
    assert ana[:5] == [1, "Ana", "Japan", "10000001", 43.4]
    assert ana[5:7] == [22.4, 21] and ana[10:12] == [0, 2]
    cho = by_name["Cho"]
    assert cho[10] == -20 and cho[4] == pytest.approx(-20.1 - 20 - 20)  # chombo; 25,000 fourth: -5 - 15
    assert sheet.cell(row=2, column=5).number_format == "0.0#"
    assert sheet.column_dimensions["B"].width == 28
    note = header.index("Note")
    assert by_name["Dai"][0] is None and by_name["Dai"][note] == "Disqualified"
    assert by_name["Sam Sub"][0] is None and by_name["Sam Sub"][note] == "Substitute"
    assert header[-3:] == ["First name", "Last name", "Native name"]
    ranked = [row[0] for row in table[1:] if row[0] is not None]
    assert ranked == sorted(ranked) and len(ranked) == 7
    by_hanchan = rows(book["By hanchan"])
    assert by_hanchan[0] == ["Hanchan", "Table", "Wind", "Name", "Points", "Place", "Score"]
    assert by_hanchan[1] == [1, 1, "East", "Ana", 37400, 1, 22.4]
    assert len(by_hanchan) == 1 + 12  # three signed tables
    penalties = rows(book["Penalties"])
    assert [(row[0], row[2], row[3]) for row in penalties[1:]] == [
        ("Cho", "Chombo", -20),
        ("Eve", "Missed hanchan", -30),
    ]  # Ben's revoked lateness is not there


@pytest.mark.django_db
def test_standings_csv_is_a_zip_of_one_file_per_sheet_with_exact_decimals(played: Tournament) -> None:
    result = render("standings_csv", played)
    assert (result.filename, result.content_type) == ("test-open-standings-csv.zip", "application/zip")
    members = zip_members(result.data)
    assert sorted(members) == [
        "test-open-standings-by-hanchan.csv",
        "test-open-standings-penalties.csv",
        "test-open-standings-standings.csv",
    ]
    table = csv_rows(members["test-open-standings-standings.csv"])
    assert table[0][:5] == ["Rank", "Name", "Country", "EMA id", "Total"]
    ana = next(row for row in table if row[1] == "Ana")
    assert ana[:7] == ["1", "Ana", "Japan", "10000001", "43.4", "22.4", "21"]


@pytest.mark.django_db
def test_seating_by_table_and_by_player_in_excel_and_csv(played: Tournament) -> None:
    book = workbook(render("seating_xlsx", played).data)
    assert book.sheetnames == ["By table", "By player"]
    by_table = rows(book["By table"])
    assert by_table[0] == ["Hanchan", "Table", "East", "South", "West", "North", "Note"]
    assert by_table[1] == [1, 1, "Ana", "Ben", "Cho", "Dai", None]
    assert by_table[3] == [2, 1, "Ana", "Pieter de Vries", "Sam Sub", "Cho", "Sam Sub sits in for Eve"]
    by_player = {row[0]: row for row in rows(book["By player"])}
    assert by_player["Name"][:7] == ["Name", "Country", "Note", "H1 table", "H1 wind", "H2 table", "H2 wind"]
    assert by_player["Ana"][3:7] == [1, "East", 1, "East"]
    assert by_player["Eve"][3:7] == [2, "North", None, None]
    assert by_player["Sam Sub"][2:7] == ["Substitute", None, None, 1, "West"]
    members = zip_members(render("seating_csv", played).data)
    by_player_csv = {row[0]: row for row in csv_rows(members["test-open-seating-by-player.csv"])}
    assert by_player_csv["Łukasz Nowak"][:7] == ["Łukasz Nowak", "Poland", "", "2", "South", "2", "South"]


@pytest.mark.django_db
def test_score_sheets_workbook_has_a_worksheet_per_hanchan_hand_by_hand(played: Tournament) -> None:
    book = workbook(render("score_sheets_xlsx", played).data)
    assert book.sheetnames == ["Hanchan 1", "Hanchan 2"]
    first = rows(book["Hanchan 1"])
    assert first[0][:6] == ["Table", "Hand", "Round", "Dealer", "Honba", "Result"]
    assert first[1][5:10] == ["Seats", "Ana", "Ben", "Cho", "Dai"]
    hands = [row for row in first if row and row[0] == 1 and isinstance(row[1], int)]
    assert len(hands) == len(hanchan.OUTCOMES)
    assert hands[0][1:10] == [1, "East 1", "Ana", 0, "Ron: Ben", 0, 2000, -2000, 0]
    assert hands[1][10] == "Cho"  # riichi
    assert hands[6][5] == "Chombo: Cho"
    final = next(row for row in first if row and row[5] == "Final points")
    assert final[6:10] == [hanchan.FINAL_POINTS[name] for name in ("Ana", "Ben", "Cho", "Dai")]
    score = next(row for row in first if row and row[5] == "Score")
    assert score[6:10] == [22.4, -8.4, -20.1, 6.1]
    signed = [row[5] for row in first if row and isinstance(row[5], str) and row[5].startswith("Signed by")]
    assert len(signed) == 2 and signed[0].startswith("Signed by referee at ")
    table_2 = next(row for row in first if row and row[0] == 2 and row[5] == "Final points")
    assert table_2[6:10] == TABLE_2_POINTS
    second = rows(book["Hanchan 2"])
    corrected = next(row for row in second if row and row[0] == 1 and row[5] == "Final points")
    assert corrected[6:10] == H2_TABLE_1_CORRECTED
    assert any(row and row[5] == "Draft, not signed (version 1)" for row in second)
    assert any(row and isinstance(row[5], str) and "(version 2)" in row[5] for row in second)


def test_ema_names_are_the_registered_latin_ones_or_a_certain_split() -> None:
    # Never a guess (the "Briain / Dunlaith O"), never a name in another script (山田 太郎 came out
    # as last name 太郎): the registered parts, else a certain split, else empty (listed on the exports page).
    assert latin_names("Pieter de Vries") == ("Pieter", "de Vries")
    assert latin_names("Seán Ó Briain") == ("Seán", "Ó Briain")
    assert latin_names("Pieter de Vries", "Pieter", "de Vries") == ("Pieter", "de Vries")
    assert latin_names("Dunlaith O Briain", "Dunlaith", "O Briain") == ("Dunlaith", "O Briain")
    assert latin_names("Ana") == ("", "Ana")
    assert latin_names("José García López") == ("", "")
    assert latin_names("山田 太郎") == ("", "")
    assert latin_names("山田 太郎", "太郎", "山田") == ("", "")
    assert latin_names(" Chloé  Martin ") == ("Chloé", "Martin")


@pytest.mark.django_db
def test_ema_results_one_row_per_ranked_player_in_excel_and_csv(played: Tournament) -> None:
    played.players.filter(name="Pieter de Vries").update(first_name="Pieter", last_name="de Vries")
    table = rows(workbook(render("ema_results_xlsx", played).data)["Results"])
    assert table[0] == [
        "Rank",
        "EMA number",
        "Last name",
        "First name",
        "Country",
        "Tournament points",
        "Table points",
    ]
    assert len(table) == 1 + 7  # the disqualified player and the substitute are not ranked
    assert table[1] == [1, "10000001", "Ana", None, "JPN", 43.4, 37400 + 36000]
    pieter = next(row for row in table if row[2] == "de Vries")  # the registered parts, not a guess
    assert pieter[1:5] == ["10000005", "de Vries", "Pieter", "NLD"]
    assert [row[0] for row in table[1:]] == sorted(row[0] for row in table[1:])
    csv_table = csv_rows(render("ema_results_csv", played).data)
    assert csv_table[1] == ["1", "10000001", "Ana", "", "JPN", "43.4", "73400"]
    eve = next(row for row in csv_table if row[2] == "Eve")
    assert eve[5:] == ["-56", "19000"]  # 19,000 fourth: -11 - 15 uma, and 30 for the missed hanchan


@pytest.mark.django_db
def test_every_file_name_joins_its_words_with_hyphens(played: Tournament) -> None:
    """One style whatever the format: the score sheets' workbook beside their PDF, the EMA results."""
    names = {
        identifier: render(identifier, played).filename
        for identifier in ("score_sheets_xlsx", "score_sheets_pdf", "ema_results_csv")
    }
    assert names == {
        "score_sheets_xlsx": "test-open-score-sheets.xlsx",
        "score_sheets_pdf": "test-open-score-sheets.pdf",
        "ema_results_csv": "test-open-ema-results.csv",
    }
    assert all("_" not in exporter_file for exporter_file in names.values())


@pytest.mark.django_db
def test_printable_score_sheets_one_page_per_table_with_the_seats(played: Tournament) -> None:
    result = render("score_sheets_pdf", played)
    assert result.content_type == "application/pdf" and result.filename == "test-open-score-sheets.pdf"
    pages, texts = pdf(result.data)
    assert pages == 4
    assert "Hanchan 1" in texts[0] and "Table 1" in texts[0]
    for name in ("Ana", "Ben", "Cho", "Dai", "EAST", "NORTH", "Final points", "Signatures", "Referee"):
        assert name in texts[0]
    assert "Chloé Martin" in texts[1]  # in DejaVu Sans like the whole document: Łukasz Nowak needs it
    # Beyond Windows-1252 the system's DejaVu Sans writes the name; without it the Ł prints as a box.
    assert ("Łukasz Nowak" if unicode_font() else "ukasz Nowak") in texts[1]
    assert "Hanchan 2" in texts[2] and "Sam Sub" in texts[2]


@pytest.mark.django_db
def test_seating_cards_four_to_a_page_with_every_hanchan(played: Tournament) -> None:
    pages, texts = pdf(render("seating_cards_pdf", played).data)
    assert pages == 3  # nine players with a seat
    text = "\n".join(texts)
    for name in ("Ana", "Chloé Martin", "ukasz Nowak", "Sam Sub", "Hanchan", "Table", "Seat"):
        assert name in text
    ana = next(page for page in texts if "Ana" in page)
    assert "East" in ana


@pytest.mark.django_db
def test_every_export_gives_the_same_bytes_twice(played: Tournament) -> None:
    for identifier in PRODUCT_EXPORTERS:
        data = render(identifier, played).data
        assert data == render(identifier, played).data, identifier
        if data.startswith(b"PK"):  # workbooks and zips: no member carries the time it was written
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                assert {info.date_time for info in archive.infolist()} == {ZIP_TIME}, identifier


@pytest.mark.django_db
def test_every_export_of_an_empty_tournament_renders(tournament: Tournament) -> None:
    for identifier in PRODUCT_EXPORTERS:
        assert render(identifier, tournament).data, identifier
    assert rows(workbook(render("standings_xlsx", tournament).data)["Standings"])[1:] == []


@pytest.mark.django_db
def test_printing_one_hanchan_or_one_table(played: Tournament, referee: Any) -> None:
    client = Client()
    client.force_login(referee)
    base = f"/t/{played.slug}/exports/print"
    sheets = client.get(f"{base}/score-sheets/1/")
    assert sheets["Content-Type"] == PDF
    pages, texts = pdf(sheets.content)
    assert pages == 2 and all("Hanchan 1" in text for text in texts)
    pages, texts = pdf(client.get(f"{base}/score-sheets/2/?table=2").content)
    assert pages == 1 and "Table 2" in texts[0] and "Hanchan 2" in texts[0]
    pages, texts = pdf(client.get(f"{base}/seating-cards/2/").content)
    assert pages == 2  # eight players of hanchan 2, four cards to a page
    assert Client().get(f"{base}/score-sheets/1/").status_code in {302, 403}  # referees only
    assert client.get(f"{base}/score-sheets/9/").status_code == 404


@pytest.mark.django_db
def test_a_hanchans_cards_carry_the_players_later_public_seats(played: Tournament, referee: Any) -> None:
    """The cards of hanchan 1 are each player's schedule as it stands: hanchan 1, then the later hanchan
    the players may see (hanchan 2 here); a hanchan whose seating is not published yet stays off."""
    client = Client()
    client.force_login(referee)
    address = f"/t/{played.slug}/exports/print/seating-cards/1/"
    page = next(text for text in pdf(client.get(address).content)[1] if "Ana" in text)
    # The card's form lists the hanchan; Ana's card fills in a table and a seat for each.
    assert "Hanchan\nTable\nSeat\n1\n2\nTest Open" in page
    assert cards(page)["Ana"] == ["1", "East", "1", "East"]  # table 1, East in both
    played.seating_publication = Tournament.SeatingPublication.BY_HANCHAN
    played.save()
    played.rounds.filter(number=2).update(published_at=None)
    page = next(text for text in pdf(client.get(address).content)[1] if "Ana" in text)
    assert "Hanchan\nTable\nSeat\n1\nTest Open" in page
    assert cards(page)["Ana"] == ["1", "East"]


def cards(page: str) -> dict[str, list[str]]:
    """Each card's places (table, seat, table, seat...) by player, from a page's text."""
    found = {}
    for card in page.split("Test Open\n")[1:]:
        name, _country, *places = card.split("\n")
        found[name] = places[: places.index("Your results and next seats:")]
    return found


def test_a_cards_rows_end_above_its_sign_in_block_for_every_length() -> None:
    for count in range(1, 25):
        rounds = list(range(1, count + 1))
        last_line = CARD_TABLE_TOP - (len(rounds) + 1) * card_row_height(rounds, signed=True)
        assert last_line >= CARD_PADDING + CARD_QR_SIZE, count
