"""The QR code on each printed score sheet: rendered from the PDF (PDFium, as a printer would see the page)
and read back by zbarimg, it is the absolute address of that table's entry page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pypdfium2
import pytest
from django.test import Client

from exports import services as export_services
from exports.exporters import get_exporter
from exports.exporters.printable import score_sheets_pdf
from exports.models import ExportJob
from tests.qr_reader import read_codes
from tournament.models import Tournament


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
