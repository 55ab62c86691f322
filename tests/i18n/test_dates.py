"""One way per language to write a day, a moment and a time of day (config/formats/), on the 24-hour
clock and in the venue's time zone, on every page; and the seating report's sentences as a person
writes them."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import formats, translation
from django.utils.translation import gettext

from penalties.models import Penalty
from tournament.core.presentation import report_lines

MOMENT = datetime(2026, 11, 28, 13, 11)
WRITTEN = {
    "en": ("28 November 2026", "28 November 2026 13:11"),
    "ja": ("2026年11月28日", "2026年11月28日 13:11"),
    "ru": ("28 ноября 2026 г.", "28 ноября 2026 г. 13:11"),  # noqa: RUF001 (Cyrillic)
    "fr": ("28 novembre 2026", "28 novembre 2026 13:11"),
    "de": ("28. November 2026", "28. November 2026 13:11"),
    "zh-hans": ("2026年11月28日", "2026年11月28日 13:11"),
    "ko": ("2026년 11월 28일", "2026년 11월 28일 13:11"),
}


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_each_language_writes_a_day_a_moment_and_a_time_one_way(language: str) -> None:
    day, moment = WRITTEN[language]
    with translation.override(language):
        assert formats.date_format(MOMENT, "DATE_FORMAT") == day
        assert formats.date_format(MOMENT, "SHORT_DATE_FORMAT") == day
        assert formats.date_format(MOMENT, "DATETIME_FORMAT") == moment
        assert formats.date_format(MOMENT, "SHORT_DATETIME_FORMAT") == moment
        assert formats.time_format(MOMENT, "TIME_FORMAT") == "13:11"


# "T": the time zone's abbreviation; YEAR_MONTH_FORMAT: a month's heading (the calendar of coming events).
NAMED = {"DATE_FORMAT", "DATETIME_FORMAT", "TIME_FORMAT", "T", "YEAR_MONTH_FORMAT"}
FILTER = re.compile(r"\|(?:date|time):(\S+?)(?:\s|}|\|)")


def test_templates_write_dates_only_in_the_named_formats() -> None:
    """A template names the kind of date it writes; a format of its own (or one in the catalogue, per
    language) would be a fourth way on the page."""
    odd = []
    for template in Path(settings.BASE_DIR, "templates").rglob("*.html"):
        for argument in FILTER.findall(template.read_text()):
            if argument.strip("\"'") not in NAMED:
                odd.append(f"{template.name}: {argument}")
    assert odd == []


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_a_penalty_is_dated_in_the_venues_time_and_the_readers_language(
    seated_table: Any, head_referee: Any, language: str
) -> None:
    tournament = seated_table.round.tournament
    tournament.time_zone = "Europe/Paris"  # Lyon: 12:11 UTC is 13:11 there in November
    tournament.save()
    penalty = Penalty.objects.create(
        tournament=tournament,
        player=seated_table.seats.first().player,
        kind=Penalty.Kind.OTHER,
        points=Decimal(2),
        reason="late",
        given_by=head_referee,
    )
    Penalty.objects.filter(pk=penalty.pk).update(given_at=datetime(2026, 11, 28, 12, 11, tzinfo=UTC))
    client = Client(headers={"Accept-Language": language})
    client.force_login(head_referee)
    page = client.get(f"/t/{tournament.slug}/penalties/").content.decode()
    assert f"head, {WRITTEN[language][1]}" in page
    assert not re.search(r"\b[ap]\.m\.", page)


def wind_line(rounds: int, low: int, high: int, warnings: int = 0) -> str:
    report = {
        "players": 16,
        "rounds": rounds,
        "tables": 4,
        "valid": True,
        "repeat_pairs": 0,
        "excess_meetings": 0,
        "excess_meetings_lower_bound": 0,
        "max_pair_meetings": 1,
        "table_repeats": 0,
        "table_repeats_lower_bound": 0,
        "consecutive_table_repeats": 0,
        "wind_allowed_range": [low, high],
        "wind_warnings": warnings,
        "wind_imbalance": 0 if low == high else 1,
        "wind_imbalance_lower_bound": 0 if low == high else 1,
        "non_meeting_pairs": 0,
        "optimal": {"opponents": True, "tables": True, "winds": True, "indirect": True},
    }
    return next(line["text"] for line in report_lines(report) if line["topic"] == gettext("Winds"))


def test_the_report_says_exactly_once_not_one_to_one_times() -> None:
    assert wind_line(4, 1, 1).startswith("Every player sits each wind exactly once;")
    assert wind_line(8, 2, 2).startswith("Every player sits each wind exactly 2 times;")
    assert wind_line(5, 1, 2).startswith("Every player sits each wind 1 to 2 times;")
    with translation.override("de"):
        assert wind_line(4, 1, 1).startswith("Jeder Spieler sitzt genau einmal auf jedem Wind;")


def catalogue(language: str, domain: str = "django") -> dict[str, str]:
    import polib

    entries = polib.pofile(str(Path(settings.BASE_DIR, "locale", language, "LC_MESSAGES", f"{domain}.po")))
    return {entry.msgid: entry.msgstr for entry in entries if not entry.obsolete}


def test_the_terms_of_the_game_are_the_players_own() -> None:
    """Japanese counts hanchan as 半荘, not as hands (局); Korean as 반장, with the words its riichi players
    use (리치봉, 촌보, 유국, 본장, 친); German names the draw with the Japanese term its players use
    (Ryūkyoku), not chess's "Remis"."""
    for domain in ("django", "djangojs"):
        assert "半荘" in catalogue("ja", domain)["%(played)s played"]
        assert "반장" in catalogue("ko", domain)["%(played)s played"]
        german = catalogue("de", domain)
        assert not [msgstr for msgstr in german.values() if "Remis" in msgstr]
    scoring = Path(settings.BASE_DIR, "scoring", "locale", "de", "LC_MESSAGES", "django.po").read_text()
    assert "Remis" not in scoring
    korean = catalogue("ko")
    terms = (korean["Riichi sticks"], korean["Chombo"], korean["Honba"], korean["Dealer"])
    assert terms == ("리치봉", "촌보", "본장", "친")
    assert korean["Draw, all noten"] == "유국, 전원 노텐" and korean["Uma"] == "우마"
