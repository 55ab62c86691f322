"""Exports in their reader's language: the file is written in the language its asker chose (stored on the
job, since the task runs where no request's language is active), else in the tournament's default
language, else in English; the page, its JSON and the refusals follow the reader's language, with the same
``rule`` and ``field`` in every language. Files another program reads keep their English headers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pypdfium2
import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from exports.exporters import get_exporter
from exports.models import ExportJob
from tests.exports.helpers import csv_rows, rows, workbook, zip_members
from tests.exports.test_exporters import PRODUCT_EXPORTERS
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_after_each_test() -> Iterator[None]:
    """A request through the test client leaves its language active in the test's thread (LocaleMiddleware
    activates each request's afresh, so a server never notices): the tests after these run in English."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


def logged_in(user: Any, **headers: str) -> Client:
    client = Client(headers=headers)
    client.force_login(user)
    return client


def pdf_text(data: bytes) -> str:
    document = pypdfium2.PdfDocument(data)
    try:
        return "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    finally:
        document.close()


def export(
    client: Client, tournament: Tournament, identifier: str, capture: Any
) -> tuple[dict[str, Any], bytes]:
    """Ask for an export as the page's script does; its status and its file."""
    with capture(execute=True):
        response = client.post(
            f"/t/{tournament.slug}/exports/{identifier}/", headers={"Accept": "application/json"}
        )
    assert response.status_code == 202, response.content
    status = client.get(response.json()["status_url"]).json()
    download = client.get(status["download_url"])
    assert download.status_code == 200
    return status, b"".join(download.streaming_content)


def test_a_standings_workbook_asked_for_in_german_has_german_words(
    played: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = logged_in(organiser, accept_language="de-DE,de;q=0.9")
    status, data = export(client, played, "standings_xlsx", django_capture_on_commit_callbacks)
    assert ExportJob.objects.get().language == "de"
    assert status["name"] == "Rangliste (Excel)" and status["state"] == "done"
    assert status["state_label"] == "Fertig"
    book = workbook(data)
    assert book.sheetnames[0] == "Rangliste" and "Nach Hanchan" in book.sheetnames
    assert "Strafen" in book.sheetnames
    header = rows(book["Rangliste"])[0]
    assert header[:5] == ["Rang", "Name", "Land", "EMA-ID", "Gesamt"] and "H1" in header
    by_name = {row[1]: row for row in rows(book["Rangliste"])[1:]}
    assert by_name["Ben"][2] == "Deutschland"  # the country's name in German
    winds = {row[2] for row in rows(book["Nach Hanchan"])[1:]}
    assert winds == {"Ost", "Süd", "West", "Nord"}
    assert book.properties.title == "Test Open: Rangliste"


def test_the_csv_files_of_a_translated_export_keep_their_english_file_names(
    played: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _status, english = export(
        logged_in(organiser), played, "standings_csv", django_capture_on_commit_callbacks
    )
    client = logged_in(organiser, accept_language="ja")
    _status, japanese = export(client, played, "standings_csv", django_capture_on_commit_callbacks)
    assert sorted(zip_members(japanese)) == sorted(zip_members(english))
    standings = zip_members(japanese)["test-open-standings-standings.csv"]
    assert csv_rows(standings)[0][:3] == ["順位", "名前", "国"]


def test_seating_cards_printed_in_japanese_have_japanese_words(played: Tournament, referee: Any) -> None:
    client = logged_in(referee, accept_language="ja")
    response = client.get(f"/t/{played.slug}/exports/print/seating-cards/1/")
    assert response.status_code == 200
    text = pdf_text(response.content)
    for word in ("半荘", "卓", "席", "東", "北", "成績"):
        assert word in text, word
    english = pdf_text(logged_in(referee).get(f"/t/{played.slug}/exports/print/seating-cards/1/").content)
    assert "Hanchan" in english and "半荘" not in english


def test_seating_cards_printed_in_korean_have_korean_words(played: Tournament, referee: Any) -> None:
    text = pdf_text(
        logged_in(referee, accept_language="ko")
        .get(f"/t/{played.slug}/exports/print/seating-cards/1/")
        .content
    )
    for word in ("반장", "탁", "자리", "동", "북", "내 결과"):
        assert word in text, word


def test_score_sheets_exported_in_russian_have_russian_words(
    played: Tournament, referee: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = logged_in(referee)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"  # the language switcher's choice
    status, data = export(client, played, "score_sheets_pdf", django_capture_on_commit_callbacks)
    assert status["name"] == "Протоколы для печати (PDF)"
    text = pdf_text(data)
    assert "Ханчан 1" in text and "Стол 1" in text and "Подписи" in text and "Восток" in text


def test_an_export_without_a_language_choice_is_written_in_the_tournament_language(
    played: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    played.language = "fr"
    played.save()
    client = logged_in(organiser)  # no cookie, no Accept-Language
    page = client.get(f"/t/{played.slug}/exports/").content.decode()
    assert "Exports de Test Open" in page and "Exporter" in page
    status, data = export(client, played, "seating_xlsx", django_capture_on_commit_callbacks)
    assert ExportJob.objects.get().language == ""
    assert status["name"] == "Placement (Excel)"
    assert workbook(data).sheetnames == ["Par table", "Par joueur"]
    # A reader who chose German gets German, whatever the tournament's language.
    german = logged_in(organiser, accept_language="de")
    assert "Exporte von Test Open" in german.get(f"/t/{played.slug}/exports/").content.decode()


def test_the_ema_results_keep_their_english_headers_in_every_language(
    played: Tournament, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = logged_in(organiser, accept_language="fr")
    status, data = export(client, played, "ema_results_csv", django_capture_on_commit_callbacks)
    assert status["name"] == "Résultats EMA (CSV)"
    assert csv_rows(data)[0] == [
        "Rank",
        "EMA number",
        "Last name",
        "First name",
        "Country",
        "Tournament points",
        "Table points",
    ]


def test_an_export_refusal_through_the_api_is_in_the_readers_language_with_the_same_rule(
    played: Tournament, organiser: Any
) -> None:
    url = f"/api/tournaments/{played.pk}/exports/"
    english = logged_in(organiser).post(url, {"exporter": "nothing_such"}, content_type="application/json")
    japanese = logged_in(organiser, accept_language="ja").post(
        url, {"exporter": "nothing_such"}, content_type="application/json"
    )
    assert english.status_code == japanese.status_code == 404
    [in_english], [in_japanese] = english.json()["errors"], japanese.json()["errors"]
    assert (in_japanese["field"], in_japanese["rule"]) == (in_english["field"], in_english["rule"])
    assert (in_japanese["field"], in_japanese["rule"]) == ("exporter", "exporters")
    assert in_english["message"] == "'nothing_such' is not an export of this site."
    assert in_japanese["message"] == "'nothing_such' はこのサイトの出力形式ではありません。"
    job = ExportJob.objects.create(tournament=played, exporter="seating_xlsx", requested_by=organiser)
    refused = logged_in(organiser, accept_language="de").get(f"{url}{job.pk}/download/")
    assert refused.status_code == 409
    assert refused.json()["errors"] == [
        {
            "field": "export",
            "rule": "export-ready",
            "message": "Dieser Export ist noch nicht fertig (In der Warteschlange).",
        }
    ]


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_every_export_renders_in_every_language(played: Tournament, language: str) -> None:
    """Every message of every file exists and keeps its placeholders in each language."""
    for identifier in PRODUCT_EXPORTERS:
        exporter = get_exporter(identifier)
        assert exporter is not None
        with translation.override(language):
            result = exporter.render(played)
        assert result.data, identifier
