"""A player's two names (tournament.names): which one a reader sees, and the search that matches
either, ignoring case and accents; the pages and the API that use them."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from tournament.core.collation import by_name, language_collation_available
from tournament.core.names import fold, matches, readable_in, shown_name
from tournament.models import Player, Tournament

SATO = ("Taro Sato", "佐藤 太郎")
WANG = ("Wang Xiaoming", "王小明")
ZHUKOV = ("Aleksei Zhukov", "Алексей Жуков")
HANAKO = ("Hanako Yamada", "やまだ はなこ")
KIM = ("Kim Minjun", "김민준")


@pytest.mark.parametrize(
    ("names", "language", "seen"),
    [
        (SATO, "ja", "佐藤 太郎"),
        (SATO, "zh-hans", "佐藤 太郎"),  # Han only: Chinese readers read it too
        (SATO, "en", "Taro Sato"),
        (SATO, "ru", "Taro Sato"),
        (WANG, "zh-hans", "王小明"),
        (WANG, "ja", "王小明"),
        (WANG, "fr", "Wang Xiaoming"),
        (ZHUKOV, "ru", "Алексей Жуков"),
        (ZHUKOV, "ja", "Aleksei Zhukov"),
        (ZHUKOV, "de", "Aleksei Zhukov"),
        (HANAKO, "ja", "やまだ はなこ"),
        (HANAKO, "zh-hans", "Hanako Yamada"),  # kana: Japanese readers only
        (KIM, "ko", "김민준"),
        (KIM, "ja", "Kim Minjun"),  # Hangul: Korean readers only
        (KIM, "en", "Kim Minjun"),
        (SATO, "ko", "Taro Sato"),  # Korean readers are not shown kanji names
        (("Łukasz Ćwik", "Łukasz Ćwik"), "ru", "Łukasz Ćwik"),
        (("Ana", ""), "ja", "Ana"),
    ],
)
def test_the_reader_sees_the_native_name_in_a_script_of_their_language(
    names: tuple[str, str], language: str, seen: str
) -> None:
    assert shown_name(*names, language) == seen


def test_a_reader_reads_the_scripts_of_their_language() -> None:
    assert readable_in("佐藤 太郎", "ja") and readable_in("佐藤 太郎", "zh-hans")
    assert not readable_in("やまだ", "zh-hans") and not readable_in("Жуков", "ja")
    assert not readable_in("", "ru") and not readable_in("佐藤", "xx")
    assert readable_in("김민준", "ko") and not readable_in("김민준", "zh-hans")
    assert not readable_in("佐藤", "ko")


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("lukasz", ("Łukasz Ćwik", "")),
        ("CWIK", ("Łukasz Ćwik", "")),
        ("chloe", ("Chloé Dubois", "")),
        ("ozturk", ("Öztürk", "")),
        ("strasse", ("Anna Straße", "")),
        ("жуков", ZHUKOV),
        ("ЖУКОВ", ZHUKOV),
        ("佐藤", SATO),
        ("sato taro", SATO),
        ("ｔａｒｏ", SATO),  # noqa: RUF001 (full-width letters, as a Japanese keyboard types them)
        ("王", WANG),
        ("민준", KIM),
        ("kim", KIM),
    ],
)
def test_a_search_matches_either_name_ignoring_case_and_accents(query: str, names: tuple[str, str]) -> None:
    assert matches(query, names)


def test_a_search_still_tells_names_apart() -> None:
    assert not matches("lukas z", ("Lars",))
    assert not matches("жуко в", ("Aleksei Zhukov", ""))
    assert not matches("佐藤", WANG)
    assert fold("  Ǆemal ") == "dzemal"


def test_names_sort_by_the_readers_language_when_icu_is_here() -> None:
    names = ["Zoë", "Анна", "Ärger", "Alex"]
    assert by_name(names, str) == ["Alex", "Ärger", "Zoë", "Анна"]  # the root collation: Latin first
    if not language_collation_available():
        pytest.skip("PyICU is not installed: every language sorts by the root collation (the fallback)")
    assert by_name(names, str, "ru") == ["Анна", "Alex", "Ärger", "Zoë"]  # Cyrillic first for Russians
    assert by_name(["佐藤", "王"], str, "zh-hans") == ["王", "佐藤"]  # pinyin: wang before zuo
    assert by_name(["Öl", "Of", "Oz"], str, "de") == ["Of", "Öl", "Oz"]
    assert by_name(["최지우", "Alex", "김민준"], str, "ko") == ["김민준", "최지우", "Alex"]  # Hangul first


@pytest.mark.django_db
def test_the_pages_show_the_name_that_suits_the_reader(tournament: Tournament) -> None:
    sato = Player.objects.create(tournament=tournament, name=SATO[0], native_name=SATO[1])
    Player.objects.create(tournament=tournament, name=ZHUKOV[0], native_name=ZHUKOV[1])
    japanese = Client(headers={"Accept-Language": "ja"})
    players = japanese.get(f"/t/{tournament.slug}/players/").content.decode()
    assert ">佐藤 太郎</a>" in players and ">Aleksei Zhukov</a>" in players
    assert 'data-names="taro sato 佐藤 太郎"' in players  # the search reads both names
    russian = Client()
    russian.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    players = russian.get(f"/t/{tournament.slug}/players/").content.decode()
    assert ">Taro Sato</a>" in players and ">Алексей Жуков</a>" in players
    page = japanese.get(f"/t/{tournament.slug}/players/{sato.pk}/").content.decode()
    assert '<h1>佐藤 太郎 <span class="muted">Taro Sato</span></h1>' in page
    standings = japanese.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert '"shown-names"' in standings and "佐藤 太郎" in standings
    english = Client().get(f"/t/{tournament.slug}/standings/").content.decode()
    assert "佐藤 太郎" not in english.split('id="shown-names"')[0]
