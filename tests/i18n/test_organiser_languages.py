"""The organiser's side in the reader's language (docs/languages.md): registration, the player file's
import and its refusals, check-in, staff, the settings form and the audit. Pages and API alike: the
message changes with the language, the refusal's ``field`` and ``rule`` never do."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from tests.conftest import make_players
from tournament.core import player_files
from tournament.models import Player, Tournament
from tournament.services import country_lookup, player_login


def page_client(user: Any, language: str) -> Client:
    client = Client(headers={"Accept-Language": language})
    client.force_login(user)
    return client


def api_client(user: Any, language: str) -> APIClient:
    client = APIClient(headers={"Accept-Language": language})
    client.force_authenticate(user)
    return client


BAD_FILE = b"name,country,ema id,substitute\nAna,Atlantis,123,maybe\n,JP,,\n"


@pytest.mark.django_db
def test_the_registration_page_speaks_japanese(tournament: Tournament, organiser: Any) -> None:
    make_players(tournament, 2)
    page = page_client(organiser, "ja").get(f"/t/{tournament.slug}/manage/players/").content.decode()
    assert '<html lang="ja">' in page
    for words in ("参加登録", "選手リストを取り込む", "選手を追加", "自国の文字での名前", "登録済み 2 人"):
        assert words in page, words
    assert 'placeholder="名前を検索"' in page
    assert "Add a player" not in page and "Import a player list" not in page


@pytest.mark.django_db
def test_an_import_refusal_on_the_page_in_german(tournament: Tournament, organiser: Any) -> None:
    client = page_client(organiser, "de")
    upload = SimpleUploadedFile("players.csv", BAD_FILE)
    response = client.post(f"/t/{tournament.slug}/manage/players/import/", {"file": upload})
    page = response.content.decode()
    assert response.status_code == 200
    assert "4 Probleme gefunden; nichts wird importiert." in page
    assert "&#x27;Atlantis&#x27; ist kein Ländercode oder Ländername nach ISO 3166" in page
    assert "EMA-ID &#x27;123&#x27; hat nicht 8 Ziffern" in page
    assert "<td>Name fehlt</td>" in page
    # The field column names the field in German; the file's own column headers stay as they are.
    assert "<td>Land</td>" in page and "<td>EMA-ID</td>" in page


@pytest.mark.django_db
def test_an_import_refusal_through_the_api_keeps_its_fields_and_rules(
    tournament: Tournament, organiser: Any
) -> None:
    url = f"/api/tournaments/{tournament.pk}/players/import/"

    def errors(language: str) -> list[dict[str, Any]]:
        upload = SimpleUploadedFile("players.csv", BAD_FILE)
        response = api_client(organiser, language).post(url, {"file": upload}, format="multipart")
        assert response.status_code == 400, response.content
        return list(response.json()["errors"])

    english, german, japanese = errors("en"), errors("de"), errors("ja")
    where = [(e["line"], e["field"], e["rule"]) for e in english]
    assert where == [
        (2, "country", "registration"),
        (2, "ema_id", "registration"),
        (2, "substitute", "registration"),
        (3, "name", "registration"),
    ]
    assert [(e["line"], e["field"], e["rule"]) for e in german] == where
    assert [(e["line"], e["field"], e["rule"]) for e in japanese] == where
    assert english[1]["message"] == "EMA id '123' is not 8 digits"
    assert german[1]["message"] == "EMA-ID '123' hat nicht 8 Ziffern"
    assert japanese[1]["message"] == "EMA ID '123' が8桁の数字ではありません"
    assert japanese[3]["message"] == "名前がありません"


@pytest.mark.django_db
def test_a_whole_file_refusal_in_russian(tournament: Tournament, organiser: Any) -> None:
    url = f"/api/tournaments/{tournament.pk}/players/import/"
    upload = SimpleUploadedFile("players.pdf", b"%PDF")
    response = api_client(organiser, "ru").post(url, {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "file", "rule": "player-file", "message": "'players.pdf' — не .csv и не .xlsx"}
    ]


@pytest.mark.django_db
def test_a_form_error_in_french(tournament: Tournament, organiser: Any) -> None:
    client = page_client(organiser, "fr")
    response = client.post(f"/t/{tournament.slug}/manage/players/", {"name": "Ana", "ema_id": "123"})
    page = response.content.decode()
    assert response.status_code == 200 and not Player.objects.exists()
    assert "le n° EMA &#x27;123&#x27; ne fait pas 8 chiffres" in page
    assert "Remplaçant (joue si besoin, jamais classé)" in page
    # A form's own check, on the settings form: the same tie-break twice.
    page = client.get(f"/t/{tournament.slug}/manage/edit/")
    data = {k: v for k, v in page.context["form"].initial.items() if v is not None}
    data.update(ruleset_overrides="{}", tie_break_1="most_firsts", tie_break_2="most_firsts")
    form = client.post(f"/t/{tournament.slug}/manage/edit/", data).context["form"]
    assert form.errors["tie_break_2"] == [
        "Départages : chaque critère au plus une fois (celui-ci est déjà choisi plus haut)."
    ]
    assert str(form.fields["time_zone"].label) == "Fuseau horaire du lieu"


@pytest.mark.django_db
def test_a_staff_refusal_through_the_api_in_russian(tournament: Tournament, organiser: Any) -> None:
    url = f"/api/tournaments/{tournament.pk}/staff/"
    body = {"username": organiser.get_username(), "role": "referee"}
    english = APIClient()
    english.force_authenticate(organiser)
    found = english.post(url, body, format="json").json()["errors"]
    russian = api_client(organiser, "ru").post(url, body, format="json").json()["errors"]
    assert [(e["field"], e["rule"]) for e in russian] == [(e["field"], e["rule"]) for e in found]
    assert [(e["field"], e["rule"]) for e in found] == [("role", "keep-an-organiser")]
    assert russian[0]["message"] == "role: организатор не может понизить собственную роль"


@pytest.mark.django_db
def test_check_in_in_chinese_with_its_plurals_and_script(tournament: Tournament, organiser: Any) -> None:
    make_players(tournament, 5, status=Player.Status.CHECKED_IN)
    client = page_client(organiser, "zh-hans")
    page = client.get(f"/t/{tournament.slug}/manage/check-in/").content.decode()
    assert "已签到 5 人" in page and "使用替补" in page and "撤销签到" in page
    script = client.get("/jsi18n/").content.decode()
    assert "\\u64a4\\u9500\\u7b7e\\u5230" in script  # the script's "Undo check-in", 撤销签到, escaped


@pytest.mark.django_db
def test_the_audit_and_the_staff_page_in_japanese(tournament: Tournament, organiser: Any) -> None:
    ana = Player.objects.create(tournament=tournament, name="Ana")
    client = page_client(organiser, "ja")
    client.post(f"/t/{tournament.slug}/manage/players/{ana.pk}/", {"form": "edit", "name": "Ana Alves"})
    page = client.get(f"/t/{tournament.slug}/manage/players/{ana.pk}/").content.decode()
    assert "変更履歴" in page and "登録を修正: 選手 Ana Alves" in page and "名前: Ana → Ana Alves" in page
    page = client.get(f"/t/{tournament.slug}/manage/staff/").content.decode()
    assert "新しい審判員を招待" in page and "主催者" in page


@pytest.mark.django_db
def test_the_manage_page_in_russian(tournament: Tournament, organiser: Any) -> None:
    make_players(tournament, 21)
    page = page_client(organiser, "ru").get(f"/t/{tournament.slug}/manage/").content.decode()
    assert "Управление: Test Open" in page and "21 игрок, 0 запасных" in page


def test_the_pure_player_file_check_follows_the_active_language() -> None:
    """The pure core's messages go through scoring.rules.i18n, which Django's gettext serves: the language
    active in the thread (a request's) decides; field and rule stay."""
    rows = [{"line": 2, "name": "", "ema_id": "12"}]
    with translation.override("en"):
        english = player_files.validate_rows(rows, countries={}).errors
    with translation.override("ja"):
        japanese = player_files.validate_rows(rows, countries={}).errors
    assert [(e.field, e.rule) for e in japanese] == [(e.field, e.rule) for e in english]
    assert [e.message for e in english] == ["missing name", "EMA id '12' is not 8 digits"]
    assert [e.message for e in japanese] == ["名前がありません", "EMA ID '12' が8桁の数字ではありません"]
    with translation.override("de"):
        assert [e.field_label for e in japanese] == ["Name", "EMA-ID"]


@pytest.mark.django_db
def test_the_player_sign_in_form_in_german(tournament: Tournament, organiser: Any) -> None:
    ana = Player.objects.create(tournament=tournament, name="Ana")
    issued = player_login.issue_for_player(ana, organiser)
    wrong = "000000" if issued.pin != "000000" else "111111"
    client = Client(headers={"Accept-Language": "de"})
    response = client.post(f"/t/{tournament.slug}/me/", {"player": ana.pk, "pin": wrong})
    page = response.content.decode()
    assert response.status_code == 400
    assert "Das ist nicht die PIN dieses Spielers." in page and "Die 6 Ziffern auf Ihrer Sitzkarte." in page
    response = client.post(f"/t/{tournament.slug}/me/", {"player": ana.pk, "pin": issued.pin}, follow=True)
    assert "Angemeldet als Ana." in response.content.decode()


def test_country_names_in_a_file_are_english_whatever_the_first_reader_speaks() -> None:
    """The lookup is built once per process: built during a German request, it still reads "Germany"."""
    country_lookup.cache_clear()
    try:
        with translation.override("de"):
            lookup = country_lookup()
        assert lookup["GERMANY"] == "DE" and lookup["JAPAN"] == "JP" and "DEUTSCHLAND" not in lookup
    finally:
        country_lookup.cache_clear()
