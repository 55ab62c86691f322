"""How a page's language is chosen (docs/languages.md): the switcher's cookie, then the browser's
Accept-Language, then the tournament's default language, then English; and the switcher on every page."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.conftest import make_user
from tournament.models import TOURNAMENT_FIELDS, AccountLanguage, Tournament


def page_language(response: object) -> str:
    return response["Content-Language"]  # type: ignore[index]


@pytest.mark.django_db
def test_the_product_offers_seven_languages_named_in_themselves() -> None:
    assert dict(settings.LANGUAGES) == {
        "en": "English",
        "ja": "日本語",
        "ru": "Русский",
        "fr": "Français",
        "de": "Deutsch",
        "zh-hans": "中文（简体）",  # noqa: RUF001
        "ko": "한국어",
    }


@pytest.mark.django_db
def test_every_page_has_the_switcher_and_says_its_language(tournament: Tournament) -> None:
    for path in ("/", f"/t/{tournament.slug}/", f"/t/{tournament.slug}/standings/", "/accounts/login/"):
        page = Client().get(path).content.decode()
        assert '<html lang="en">' in page, path
        assert 'action="/i18n/setlang/"' in page and '<option value="ja" lang="ja">日本語</option>' in page


@pytest.mark.django_db
def test_the_switcher_names_each_language_in_itself_whatever_the_page_language() -> None:
    page = Client(headers={"Accept-Language": "ja"}).get("/").content.decode()
    assert '<html lang="ja">' in page
    assert '<option value="en" lang="en">English</option>' in page
    assert '<option value="ru" lang="ru">Русский</option>' in page
    assert '<option value="ko" lang="ko">한국어</option>' in page
    assert '<option value="ja" lang="ja" selected>日本語</option>' in page


@pytest.mark.django_db
def test_the_switcher_remembers_the_choice_in_the_language_cookie(tournament: Tournament) -> None:
    client = Client()
    home = f"/t/{tournament.slug}/"
    response = client.post("/i18n/setlang/", {"language": "ru", "next": home})
    assert response.status_code == 302 and response["Location"] == home
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    assert page_language(client.get(home)) == "ru"


@pytest.mark.django_db
def test_the_switcher_needs_no_csrf_token(tournament: Tournament) -> None:
    """The public pages' shared copies carry no token: the switcher works without one."""
    client = Client(enforce_csrf_checks=True)
    response = client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"


@pytest.mark.django_db
def test_the_browser_language_is_used_when_the_reader_chose_none(tournament: Tournament) -> None:
    response = Client().get(f"/t/{tournament.slug}/", headers={"Accept-Language": "ja-JP,ja;q=0.9"})
    assert page_language(response) == "ja" and '<html lang="ja">' in response.content.decode()
    chinese = Client().get("/", headers={"Accept-Language": "zh-CN"})
    assert page_language(chinese) == "zh-hans"
    korean = Client().get("/", headers={"Accept-Language": "ko-KR,ko;q=0.9,en;q=0.8"})
    assert page_language(korean) == "ko" and '<html lang="ko">' in korean.content.decode()


@pytest.mark.django_db
def test_the_tournament_default_applies_when_neither_reader_nor_browser_chose(tournament: Tournament) -> None:
    tournament.language = "fr"
    tournament.save()
    home = f"/t/{tournament.slug}/"
    assert page_language(Client().get(home)) == "fr"
    # A browser asking only for a language the product lacks: the tournament's default too.
    assert page_language(Client().get(home, headers={"Accept-Language": "it-IT,it;q=0.9"})) == "fr"
    # The browser's own choice among the product's languages wins over the tournament's default.
    assert page_language(Client().get(home, headers={"Accept-Language": "de-DE"})) == "de"
    # And the reader's explicit choice wins over both.
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    assert page_language(client.get(home, headers={"Accept-Language": "de-DE"})) == "ja"
    # Pages of no tournament know no tournament default.
    assert page_language(Client().get("/")) == "en"


@pytest.mark.django_db
def test_the_tournament_language_is_an_organiser_setting(tournament: Tournament) -> None:
    assert "language" in TOURNAMENT_FIELDS  # the organiser's form, the API and the archive
    tournament.language = "xx"
    with pytest.raises(Exception, match="language"):
        tournament.full_clean()


def sign_in(client: Client, username: str) -> None:
    response = client.post("/accounts/login/", {"username": username, "password": "pw-for-tests-only"})
    assert response.status_code == 302, response.content[:300]


@pytest.mark.django_db
def test_a_signed_in_choice_follows_the_person_to_another_device(tournament: Tournament) -> None:
    make_user("ines", tournament, "referee")
    laptop = Client()
    sign_in(laptop, "ines")
    laptop.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert AccountLanguage.objects.get(user__username="ines").language == "fr"

    phone = Client(headers={"Accept-Language": "de"})  # a new device, whose browser says German
    assert page_language(phone.get(f"/t/{tournament.slug}/")) == "de"
    sign_in(phone, "ines")
    answer = phone.get(f"/t/{tournament.slug}/referee/")
    assert page_language(answer) == "fr" and "Mes tables" in answer.content.decode()
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"  # looked up once per device
    with CaptureQueriesContext(connection) as queries:
        phone.get(f"/t/{tournament.slug}/referee/")
    assert not [q for q in queries.captured_queries if "accountlanguage" in q["sql"]]

    # A tournament's default language does not override the person's choice.
    Tournament.objects.filter(pk=tournament.pk).update(language="ja")
    tablet = Client()
    sign_in(tablet, "ines")
    assert page_language(tablet.get(f"/t/{tournament.slug}/")) == "fr"


@pytest.mark.django_db
def test_signing_in_keeps_the_devices_choice_for_an_account_without_one(tournament: Tournament) -> None:
    make_user("omar", tournament, "organiser")
    client = Client()
    client.post("/i18n/setlang/", {"language": "ru", "next": "/"})  # chosen before signing in
    assert not AccountLanguage.objects.exists()  # an anonymous choice stays with the browser
    sign_in(client, "omar")
    assert AccountLanguage.objects.get(user__username="omar").language == "ru"
    # An account's own choice is not replaced by the language of the device it signs in on.
    other = Client()
    other.post("/i18n/setlang/", {"language": "ja", "next": "/"})
    sign_in(other, "omar")
    assert AccountLanguage.objects.get(user__username="omar").language == "ru"
    assert page_language(other.get(f"/t/{tournament.slug}/")) == "ja"  # this device's cookie still rules here
