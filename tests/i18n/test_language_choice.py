"""How a page's language is chosen (README, Languages): the switcher's cookie, then the browser's
Accept-Language, then the tournament's default language, then English; and the switcher on every page."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from tournament.models import TOURNAMENT_FIELDS, Tournament


def page_language(response: object) -> str:
    return response["Content-Language"]  # type: ignore[index]


@pytest.mark.django_db
def test_the_product_offers_six_languages_named_in_themselves() -> None:
    assert dict(settings.LANGUAGES) == {
        "en": "English",
        "ja": "日本語",
        "ru": "Русский",
        "fr": "Français",
        "de": "Deutsch",
        "zh-hans": "中文（简体）",  # noqa: RUF001
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
