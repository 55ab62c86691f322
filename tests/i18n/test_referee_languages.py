"""The referees' pages and the penalties in the reader's language (docs/languages.md): the sheet page, my
tables, the sheet editor's words (the JavaScript catalogue), the penalties page, its form errors and the
API's penalty refusals, whose ``rule`` and ``field`` stay the same in every language."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from penalties import services as penalties
from penalties.models import Penalty
from scoring import services as sheets
from tests.scoring import hanchan
from tournament.models import Player, Tournament


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """The test client leaves the last request's language active in the thread: back to English, which
    the other tests read."""
    yield
    translation.activate("en")


def client_for(user: Any, language: str) -> Client:
    client = Client(headers={"Accept-Language": language})
    client.force_login(user)
    return client


def signed_hands_sheet(table: Any, referee: Any) -> None:
    sheets.sign_sheet(sheets.save_sheet(table, hanchan.entry("outcomes"), referee, submit=True), referee)


@pytest.mark.django_db
def test_the_sheet_editor_page_in_japanese(tournament: Tournament, seated_table: Any, referee: Any) -> None:
    page = client_for(referee, "ja").get(f"/t/{tournament.slug}/sheet/1/1/").content.decode()
    assert "<h1>第1半荘、卓1</h1>" in page
    for words in ("一局ずつ", "最終持ち点のみ", "卓に残った立直棒", "下書きを保存", "提出", "確認中…"):
        assert words in page, words
    assert "Hand by hand" not in page and "Save draft" not in page


@pytest.mark.django_db
def test_a_signed_sheet_in_german_names_rounds_and_results_in_german(
    tournament: Tournament, seated_table: Any, referee: Any
) -> None:
    signed_hands_sheet(seated_table, referee)
    page = client_for(referee, "de").get(f"/t/{tournament.slug}/sheet/1/1/").content.decode()
    assert "Hanchan 1, Tisch 1" in page and "Unterschrieben" in page
    assert "<h2>Ergebnisse</h2>" in page and '<th data-key="name">Spieler</th>' in page
    assert "Verlauf (2 Versionen)" in page  # submitted, then signed
    assert "Ost 1 ron" not in page and "East 1" not in page  # the replay's data, shown in German
    assert "Süd 1-1 Chombo" in page


@pytest.mark.django_db
def test_my_tables_in_japanese_and_german(tournament: Tournament, seated_table: Any, referee: Any) -> None:
    path = f"/t/{tournament.slug}/referee/"
    japanese = client_for(referee, "ja").get(path).content.decode()
    assert "担当卓：第1半荘" in japanese and "点数表を入力" in japanese  # noqa: RUF001
    german = client_for(referee, "de").get(path).content.decode()
    assert "Meine Tische: Hanchan 1" in german and "Tisch 1" in german and "Bogen eingeben" in german


@pytest.mark.django_db
def test_the_sheet_editor_words_are_in_the_javascript_catalogue() -> None:
    catalogue = Client(headers={"Accept-Language": "ja"}).get("/jsi18n/").content.decode()
    assert "\\u30eb\\u30fc\\u30eb\\u30a8\\u30f3\\u30b8\\u30f3" in catalogue or "ルールエンジン" in catalogue
    french = Client(headers={"Accept-Language": "fr"}).get("/jsi18n/").content.decode()
    assert "Enregistr" in french and "sur ce t" in french  # "Enregistrée sur ce téléphone, non envoyée"


@pytest.mark.django_db
def test_a_penalty_refusal_through_the_api_in_french_keeps_its_rule_and_field(
    tournament: Tournament, seated_table: Any, head_referee: Any
) -> None:
    ana = Player.objects.get(name="Ana")
    body = {"player": ana.pk, "kind": "lateness", "round": 1, "minutes_late": 12}
    path = f"/api/tournaments/{tournament.pk}/penalties/"
    english = client_for(head_referee, "en").post(path, body, content_type="application/json")
    french = client_for(head_referee, "fr").post(path, body, content_type="application/json")
    assert english.status_code == french.status_code == 400
    [refused_en], [refused_fr] = english.json()["errors"], french.json()["errors"]
    assert (refused_fr["field"], refused_fr["rule"]) == (refused_en["field"], refused_en["rule"])
    assert refused_fr["field"] == "minutes_late" and refused_fr["rule"].startswith("lateness (")
    assert refused_en["message"].startswith("minutes_late: 12 is more than 10")
    assert refused_fr["message"].startswith("minutes_late : 12 dépasse 10 ; le joueur est remplacé")


@pytest.mark.django_db
def test_a_penalty_form_error_in_russian(
    tournament: Tournament, seated_table: Any, head_referee: Any
) -> None:
    ana = Player.objects.get(name="Ana")
    client = client_for(head_referee, "ru")
    response = client.post(
        f"/t/{tournament.slug}/penalties/", {"player": ana.pk, "kind": "phone", "points": "5"}
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "reason: укажите, за что дан этот штраф" in page
    assert "Вид штрафа" in page and "Назначить штраф" in page and "Штрафы" in page


@pytest.mark.django_db
def test_the_penalties_page_in_japanese_shows_dates_and_kinds_in_japanese(
    tournament: Tournament, seated_table: Any, head_referee: Any
) -> None:
    ana = Player.objects.get(name="Ana")
    penalties.give_penalty(ana, "lateness", head_referee, round=seated_table.round, minutes_late=3)
    page = client_for(head_referee, "ja").get(f"/t/{tournament.slug}/penalties/").content.decode()
    assert "遅刻 (3分)" in page and "取り消す" in page
    assert "月" in page.split("<tbody>")[1]  # the date written the Japanese way (n月j日)


@pytest.mark.django_db
def test_a_written_reason_is_in_the_tournaments_language_whoever_signs(
    tournament: Tournament, seated_table: Any, referee: Any
) -> None:
    """A chombo penalty's reason is written once for every reader: in the tournament's language, not in
    that of the referee who signed (Tournament.record_language)."""
    Tournament.objects.filter(pk=tournament.pk).update(language="de")
    with translation.override("ja"):
        signed_hands_sheet(seated_table, referee)
    chombo = Penalty.objects.get(kind="chombo")
    assert chombo.reason == "Chombo in Hand 7 an Tisch 1, Hanchan 1"


@pytest.mark.django_db
def test_without_a_tournament_language_a_written_reason_is_in_the_sites(
    tournament: Tournament, seated_table: Any, referee: Any
) -> None:
    with translation.override("ja"):
        signed_hands_sheet(seated_table, referee)
    assert Penalty.objects.get(kind="chombo").reason == "chombo on hand 7 of table 1, hanchan 1"
