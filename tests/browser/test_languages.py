"""The main public pages in each of the seven languages, in Chromium: the browser's language chooses the
page's (Accept-Language), a translated word is on each page, names show in the reader's script, the
switcher changes the language without JavaScript's help being needed, and nothing breaks the content
security policy. Screenshots go to tests/artifacts/i18n/ (not committed) for people to look at."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext

from scoring import services as sheets
from tests.browser.conftest import DESKTOP, PHONE, drawn_after, log_in, shoot
from tests.browser.test_content_security import watch
from tests.conftest import make_user, seat_table
from tournament import services
from tournament.models import Player, Round, Tournament

SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "i18n"

PLAYERS = [
    ("Taro Sato", "佐藤 太郎"),
    ("Wang Xiaoming", "王小明"),
    ("Aleksei Zhukov", "Алексей Жуков"),
    ("Łukasz Ćwik", ""),
    ("Chloé Martin", ""),
    ("Ben Fischer", ""),
    ("Ana Alves", ""),
    ("Kim Minjun", "김민준"),
]
POINTS = [41000, 33000, 26000, 20000]

# The browser's locale (its Accept-Language), and a word each page shows in that language.
LANGUAGES = {
    "en": (
        "en-GB",
        {
            "seating": "Find my table",
            "home": "Next hanchan",
            "standings": "Standings",
            "player": "Rank",
            "projector": "Live",
        },
    ),
    "ja": (
        "ja-JP",
        {
            "seating": "自分の卓を探す",
            "home": "次の半荘",
            "standings": "順位",
            "player": "順位",
            "projector": "順位表",
        },
    ),
    "ru": (
        "ru-RU",
        {
            "seating": "Найти мой стол",
            "home": "Следующий ханчан",
            "standings": "Таблица",
            "player": "Место",
            "projector": "Игрок",
        },
    ),
    "fr": (
        "fr-FR",
        {
            "seating": "Trouver ma table",
            "home": "Prochain hanchan",
            "standings": "Classement",
            "player": "Rang",
            "projector": "Joueur",
        },
    ),
    "de": (
        "de-DE",
        {
            "seating": "Meinen Tisch finden",
            "home": "Nächste Hanchan",
            "standings": "Rangliste",
            "player": "Rang",
            "projector": "Spieler",
        },
    ),
    "zh-hans": (
        "zh-CN",
        {
            "seating": "查找我的牌桌",
            "home": "下一个半庄",
            "standings": "排名",
            "player": "顺位",
            "projector": "选手",
        },
    ),
    "ko": (
        "ko-KR",
        {
            "seating": "내 탁 찾기",
            "home": "다음 반장",
            "standings": "순위표",
            "player": "순위",
            "projector": "실시간 순위표",
        },
    ),
}
# The name of Taro Sato as each language's reader sees it.
SATO = {"ja": "佐藤 太郎", "zh-hans": "佐藤 太郎"}
# Kim Minjun's name, in Hangul for Korean readers only.
KIM = {"ko": "김민준"}


@pytest.fixture
def spring_open(transactional_db: None) -> Tournament:
    """Hanchan 1 of a small tournament: two tables, the first signed."""
    tournament = Tournament.objects.create(
        name="Spring Open",
        slug="spring-open",
        starts_on=date(2026, 4, 11),
        ends_on=date(2026, 4, 12),
        hanchan_count=4,
        venue="Harbour Hall",
    )
    players = [
        Player.objects.create(tournament=tournament, name=name, native_name=native)
        for name, native in PLAYERS
    ]
    organiser = make_user("organiser", tournament, "organiser")
    referee = make_user("referee", tournament, "referee")
    first = Round.objects.create(tournament=tournament, number=1, status=Round.Status.SEATED)
    table = seat_table(first, 1, players[:4])
    seat_table(first, 2, players[4:])
    services.operate_clock(first, organiser, "start")
    entry = {
        "form": "final",
        "final_points": {player.name: points for player, points in zip(players[:4], POINTS, strict=True)},
        "riichi_sticks_left": 0,
    }
    sheets.sign_sheet(sheets.save_sheet(table, entry, referee, submit=True), referee)
    return tournament


# The pages whose rows the live scripts draw (standings.js) from the data they fetch at once.
PAINTED = {"standings", "projector"}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_main_pages_in_each_language(
    new_context: Any, live_server: Any, spring_open: Tournament, language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    locale, words = LANGUAGES[language]
    sato = spring_open.players.get(name="Taro Sato")
    pages = {
        "home": "/t/spring-open/",
        "standings": "/t/spring-open/standings/",
        "seating": "/t/spring-open/seating/1/",
        "player": f"/t/spring-open/players/{sato.pk}/",
        "projector": "/t/spring-open/projector/",
    }
    # One page per screen size, which goes from page to page as a reader does.
    phone = new_context(viewport=PHONE, locale=locale).new_page()
    desktop = new_context(viewport=DESKTOP, locale=locale).new_page()
    seen = {phone: watch(phone), desktop: watch(desktop)}
    for name, path in pages.items():
        page = desktop if name == "projector" else phone
        violations = seen[page]
        if name in PAINTED:  # the picture is taken once the live scripts have drawn the fetched rows
            response = drawn_after(page, "/standings.json", page.goto, live_server.url + path)
        else:
            response = page.goto(live_server.url + path)
        assert response.status == 200 and response.headers["content-language"] == language, (language, path)
        assert page.locator("html").get_attribute("lang") == language
        text = page.locator("body").inner_text()
        assert words[name].lower() in text.lower(), (language, name)  # headings may be upper-cased
        if name in {"player", "standings", "seating"}:
            assert SATO.get(language, "Taro Sato") in text, (language, name)
        if name in {"standings", "seating"}:
            assert KIM.get(language, "Kim Minjun") in text, (language, name)
        shoot(page, SHOTS / f"{language}-{name}.png", language=language, full_page=name != "projector")
        assert violations == [], (language, name, violations)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_switcher_changes_the_language_and_keeps_it(
    new_context: Any, live_server: Any, spring_open: Tournament
) -> None:
    context = new_context(viewport=PHONE, locale="en-GB")
    page = context.new_page()
    violations = watch(page)
    page.goto(f"{live_server.url}/t/spring-open/standings/")
    assert page.locator("h1").inner_text() == "Standings"
    assert not page.locator("[data-language-submit]").is_visible()  # with JavaScript, choosing is enough
    page.get_by_role("button", name="Menu").click()  # a phone: the switcher is in the header's menu
    with page.expect_navigation():
        page.select_option("[data-language-select]", "ja")
    assert page.url.endswith("/t/spring-open/standings/")
    assert page.locator("html").get_attribute("lang") == "ja"
    assert page.locator("h1").inner_text() == "順位表"
    page.goto(f"{live_server.url}/t/spring-open/")  # remembered: the language cookie
    assert "次の半荘" in page.locator("body").inner_text()
    assert violations == []

    # Without JavaScript the form's own button does it.
    plain = new_context(viewport=PHONE, locale="en-GB", java_script_enabled=False).new_page()
    plain.goto(f"{live_server.url}/t/spring-open/")
    plain.select_option("[data-language-select]", "de")
    with plain.expect_navigation():
        plain.click("[data-language-submit]")
    assert plain.locator("html").get_attribute("lang") == "de"
    assert "Nächste Hanchan" in plain.locator("body").inner_text()


# The staff's main pages, each with a heading of its own (its English msgid): the page shows the
# catalogue's words for it in the browser's language (%(name)s: the tournament's), and never the English
# in another language. An organiser may open the referees' pages too.
STAFF_PAGES = {
    "manage": ("/t/spring-open/manage/", "Manage %(name)s"),
    "seating-manage": ("/t/spring-open/manage/seating/", "Seating generation"),
    "penalties": ("/t/spring-open/penalties/", "Give a penalty"),
    "exports": ("/t/spring-open/exports/", "Exports of %(name)s"),
    "clock": ("/t/spring-open/clock/", "Hanchan clock"),
    "my-tables": ("/t/spring-open/referee/", "My tables"),
    "sheet": ("/t/spring-open/sheet/1/2/", "Final points"),
}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_staff_pages_in_each_language(
    new_context: Any, live_server: Any, spring_open: Tournament, language: str
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    locale, _words = LANGUAGES[language]
    page = new_context(viewport=DESKTOP, locale=locale).new_page()
    violations = watch(page)
    log_in(page, live_server, "organiser", "pw-for-tests-only", "/t/spring-open/")
    for name, (path, heading) in STAFF_PAGES.items():
        response = page.goto(live_server.url + path)
        assert response.status == 200 and response.headers["content-language"] == language, (language, path)
        text = page.locator("main").inner_text()
        with translation.override(language):
            wanted = gettext(heading) % {"name": "Spring Open"}
        heading %= {"name": "Spring Open"}
        assert wanted.lower() in text.lower(), (language, name, wanted)
        if wanted != heading:
            assert heading not in text, (language, name)
        shoot(page, SHOTS / f"{language}-{name}.png", language=language, full_page=True)
    assert violations == [], (language, violations)
