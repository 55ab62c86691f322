"""The QR codes of the printed score sheets and seating cards: rendered from the PDF (PDFium, as a printer
would see the page) and read back by zbarimg. A sheet's is the absolute address of that table's entry
page; a card's is the player's one-time sign-in link when new sign-in codes are printed (in either entry
mode), else their public page. A background export makes them on SITE_URL, else on the address of the
request that asked for it; the card's sign-in address prints at 8 points, 7 at the least, and fits."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pypdfium2
import pytest
from django.test import Client
from pypdf import PdfReader
from reportlab.pdfbase import pdfmetrics

from exports import services as export_services
from exports.exporters import get_exporter
from exports.exporters.pdf_text import unicode_font
from exports.exporters.printable import (
    CARD_PADDING,
    CARD_QR_SIZE,
    CARD_WIDTH,
    score_sheets_pdf,
    wrap_address,
)
from exports.models import ExportJob
from tests.exports.helpers import pdf
from tests.qr_reader import read_codes
from tournament.models import Player, Tournament


def exporter(identifier: str) -> Any:
    found = get_exporter(identifier)
    assert found is not None
    return found


def page_codes(data: bytes, folder: Path) -> list[list[str]]:
    """The codes zbarimg reads on each page, rendered at 200 dpi."""
    document = pypdfium2.PdfDocument(data)
    codes = []
    for index in range(len(document)):
        path = folder / f"page-{index + 1}.png"
        document[index].render(scale=200 / 72).to_pil().convert("L").save(path)
        codes.append(read_codes(path))
    document.close()
    return codes


@pytest.mark.django_db
def test_each_printed_sheet_carries_its_tables_entry_address(
    played: Tournament, referee: Any, tmp_path: Path, settings: Any
) -> None:
    settings.ALLOWED_HOSTS = ["testserver", "club.example"]
    client = Client()
    client.force_login(referee)
    response = client.get(f"/t/{played.slug}/exports/print/score-sheets/2/")
    assert response.status_code == 200
    assert page_codes(response.content, tmp_path) == [
        [f"http://testserver/t/{played.slug}/sheet/2/1/"],
        [f"http://testserver/t/{played.slug}/sheet/2/2/"],
    ]
    one = client.get(f"/t/{played.slug}/exports/print/score-sheets/1/?table=2", HTTP_HOST="club.example")
    assert page_codes(one.content, tmp_path) == [[f"http://club.example/t/{played.slug}/sheet/1/2/"]]


@pytest.mark.django_db
def test_without_the_sites_address_no_code(played: Tournament, tmp_path: Path) -> None:
    # Drawn without the site's address (no SITE_URL, no asking request): the sheets carry no code.
    assert page_codes(score_sheets_pdf(played, hanchan=1).data, tmp_path) == [[], []]


@pytest.mark.django_db
def test_the_background_exports_take_the_sites_address_from_site_url(
    played: Tournament, tmp_path: Path, settings: Any
) -> None:
    settings.SITE_URL = "https://mahjong.example.org"
    sheets = exporter("score_sheets_pdf").render(played)
    assert page_codes(sheets.data, tmp_path)[:2] == [
        [f"https://mahjong.example.org/t/{played.slug}/sheet/1/1/"],
        [f"https://mahjong.example.org/t/{played.slug}/sheet/1/2/"],
    ]
    cards = page_codes(exporter("seating_cards_pdf").render(played).data, tmp_path)
    players = {
        f"https://mahjong.example.org/t/{played.slug}/players/{pk}/"
        for pk in played.players.values_list("pk", flat=True)
    }
    assert {code for page in cards for code in page} == players


COLUMN = CARD_WIDTH - 3 * CARD_PADDING - CARD_QR_SIZE + 10  # the card's text beside its QR code, points


def text_sizes(data: bytes) -> list[tuple[str, float]]:
    """Every run of text of the PDF's first page with its font size."""
    runs: list[tuple[str, float]] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: float) -> None:
        if text.strip():
            runs.append((text.strip(), size))

    PdfReader(io.BytesIO(data)).pages[0].extract_text(visitor_text=visit)
    return runs


@pytest.mark.django_db
def test_in_referees_mode_cards_with_new_codes_sign_the_player_in_on_their_page(
    played: Tournament, referee: Any, tmp_path: Path
) -> None:
    assert played.entry_mode == Tournament.EntryMode.REFEREES
    staff = Client()
    staff.force_login(referee)
    assert (
        "seating cards with new sign-in codes" in staff.get(f"/t/{played.slug}/seating/1/").content.decode()
    )
    assert staff.get(f"/t/{played.slug}/exports/print/seating-cards/1/new-codes/").status_code == 200
    response = staff.post(f"/t/{played.slug}/exports/print/seating-cards/1/", {"confirmed": "yes"})
    assert response.status_code == 200
    codes = [code for page in page_codes(response.content, tmp_path) for code in page]
    assert len(codes) == 8 and all(c.startswith(f"http://testserver/t/{played.slug}/in/") for c in codes)
    _, pages = pdf(response.content)
    text = "\n".join(pages)
    # The same card as when the players enter: the link, the address to sign in at and the PIN, headed
    # by what the sign-in is for in this mode.
    assert text.count("Your results and next seats:") == 8 and "Enter and confirm" not in text
    assert len(re.findall(r"^PIN \d{6}$", text, re.MULTILINE)) == 8
    # The address wraps where a line may break, before a slash (the card is in DejaVu: Łukasz Nowak).
    assert re.sub(r"\n(?=[/.-])", "", text).count(f"http://testserver/t/{played.slug}/me/") == 8

    phone = Client()
    landed = phone.get(codes[0].removeprefix("http://testserver"))
    assert landed.status_code == 302
    assert re.fullmatch(rf"/t/{played.slug}/players/\d+/", landed["Location"])
    player = Player.objects.get(pk=int(landed["Location"].split("/")[-2]))
    assert f"Signed in as {player.name}." in phone.get(landed["Location"]).content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_background_export_makes_its_addresses_on_the_host_that_asked(
    played: Tournament, organiser: Any, tmp_path: Path, settings: Any
) -> None:
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["testserver", "club.example"]
    client = Client()
    client.force_login(organiser)
    asked = client.post(
        f"/t/{played.slug}/exports/seating_cards_pdf/",
        HTTP_HOST="club.example",
        HTTP_ACCEPT="application/json",
    )
    assert asked.status_code == 202
    job = ExportJob.objects.get(pk=asked.json()["id"])
    assert job.site_address == "http://club.example" and job.state == ExportJob.State.DONE
    cards = page_codes(job.file.read(), tmp_path)
    players = {
        f"http://club.example/t/{played.slug}/players/{pk}/"
        for pk in played.players.values_list("pk", flat=True)
    }
    assert {code for page in cards for code in page} == players

    # SITE_URL, when set, wins over the asking request's address.
    settings.SITE_URL = "https://mahjong.example.org"
    again = export_services.request_export(
        played, organiser, "score_sheets_pdf", site_address="http://club.example"
    )
    again.refresh_from_db()
    sheets = page_codes(again.file.read(), tmp_path)
    assert sheets[0] == [f"https://mahjong.example.org/t/{played.slug}/sheet/1/1/"]


def sign_in_lines(data: bytes) -> list[tuple[str, float]]:
    """The first card's lines between "or sign in at" and its PIN: the sign-in address, with their sizes."""
    runs = text_sizes(data)
    start = next(i for i, (text, _) in enumerate(runs) if text.endswith("or sign in at")) + 1
    end = next(i for i, (text, _) in enumerate(runs) if text.startswith("PIN "))
    return runs[start:end]


@pytest.mark.django_db
def test_the_cards_sign_in_address_prints_at_8_points_and_a_long_one_wraps(
    played: Tournament, referee: Any, settings: Any
) -> None:
    played.entry_mode = Tournament.EntryMode.PLAYERS  # the card players enter their sheets with
    played.save()
    host = "tournaments.riichi-club-lyon-rhone-alpes.example.org"
    settings.ALLOWED_HOSTS = ["testserver", host]
    staff = Client()
    staff.force_login(referee)
    address = f"/t/{played.slug}/exports/print/seating-cards/1/"
    short = sign_in_lines(staff.post(address, {"confirmed": "yes"}).content)
    # At 8 points; on two lines, as DejaVu Sans (the cards' font: Łukasz Nowak) is wider than Helvetica.
    assert "".join(text for text, _ in short) == f"http://testserver/t/{played.slug}/me/"
    assert all(size == 8.0 for _, size in short) and len(short) == (2 if unicode_font() else 1)

    lines = sign_in_lines(staff.post(address, {"confirmed": "yes"}, HTTP_HOST=host).content)
    assert "".join(text for text, _ in lines) == f"http://{host}/t/{played.slug}/me/"
    assert len(lines) > 1 and all(size >= 7 for _, size in lines)
    font = "DejaVuSans" if unicode_font() else "Helvetica"
    assert all(pdfmetrics.stringWidth(text, font, size) <= COLUMN for text, size in lines)


def test_an_address_wraps_within_its_width_and_never_under_7_points() -> None:
    assert wrap_address("https://mahjong.example.org/t/wrcr-lyon/me/", COLUMN, 3)[0] == 8.0
    for address in (
        "https://mahjong.example.org/t/wrcr-lyon-2026-open-championship-international/me/",
        "https://" + "x" * 120 + ".example/t/a/me/",
    ):
        size, lines = wrap_address(address, COLUMN, 3)
        assert size >= 7 and "".join(lines) == address
        assert all(pdfmetrics.stringWidth(line, "Helvetica", size) <= COLUMN for line in lines)
