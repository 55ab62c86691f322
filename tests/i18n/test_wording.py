"""Words a reader stumbled on: a player of unknown gender, a bound of nothing, grammar, and French
draws named one way everywhere."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.utils import translation

from scoring.rules.replay import replay
from tests.rules.test_replay import ron, sheet
from tournament.core.presentation import report_lines

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = [
    ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po",
    ROOT / "locale" / "en" / "LC_MESSAGES" / "djangojs.po",
    ROOT / "scoring" / "locale" / "en" / "LC_MESSAGES" / "django.po",
]
FRENCH = [
    ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po",
    ROOT / "locale" / "fr" / "LC_MESSAGES" / "djangojs.po",
    ROOT / "scoring" / "locale" / "fr" / "LC_MESSAGES" / "django.po",
]


@pytest.mark.parametrize("path", ENGLISH, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_message_gives_a_player_a_gender(path: Path) -> None:
    gendered = re.compile(r"\b(he|she|him|her|his|hers|himself|herself)\b", re.IGNORECASE)
    found = [entry.msgid for entry in polib.pofile(str(path)) if gendered.search(entry.msgid)]
    assert found == []


def test_a_winner_on_their_own_discard_is_refused_in_neutral_words() -> None:
    errors = replay(sheet([ron("Ana", "Ana", 2, 30)])).as_json()["errors"]
    assert any(error["message"].endswith("Ana cannot win on their own discard") for error in errors), errors


def test_a_win_without_han_says_han_and_fu_are_whole_numbers() -> None:
    errors = replay(sheet([ron("Ben", "Ana", "two", 30)])).as_json()["errors"]
    messages = [error["message"] for error in errors]
    expected = "a win needs han and fu as whole numbers, or a count of yakuman"
    assert any(expected in message for message in messages), messages


def opponents_line(excess: int, bound: int) -> str:
    report = {
        "players": 16,
        "rounds": 6,
        "tables": 4,
        "valid": True,
        "repeat_pairs": excess,
        "excess_meetings": excess,
        "excess_meetings_lower_bound": bound,
        "max_pair_meetings": 2,
        "table_repeats": 0,
        "table_repeats_lower_bound": 0,
        "consecutive_table_repeats": 0,
        "wind_allowed_range": [1, 2],
        "wind_warnings": 0,
        "wind_imbalance": 1,
        "wind_imbalance_lower_bound": 1,
        "non_meeting_pairs": 0,
        "optimal": {"opponents": excess == bound, "tables": True, "winds": True, "indirect": True},
    }
    topic = translation.gettext("Opponents")
    return next(line["text"] for line in report_lines(report) if line["topic"] == topic)


def test_the_seating_report_cites_no_bound_of_nothing() -> None:
    assert opponents_line(3, 0) == (
        "3 pairs of players meet more than once (3 meetings beyond the first; "
        "at most 2 meetings for one pair)."
    )
    assert opponents_line(3, 2).endswith("With 16 players over 6 hanchan no schedule can have fewer than 2.")
    with translation.override("fr"):
        assert "moins de 0" not in opponents_line(3, 0)


@pytest.mark.parametrize("path", FRENCH, ids=lambda path: str(path.relative_to(ROOT)))
def test_french_names_a_draw_nul_never_egalite(path: Path) -> None:
    """Égalité is a tie in points; a draw (ryūkyoku) is a "nul", an exhaustive one "par épuisement du
    mur", the same in every catalogue."""
    for entry in polib.pofile(str(path)):
        if not re.search(r"\bdraws?\b", entry.msgid, re.IGNORECASE) or "self-draw" in entry.msgid:
            continue
        texts = [entry.msgstr, *entry.msgstr_plural.values()]
        assert not any("galit" in text for text in texts), entry.msgid
        if "exhaustive draw" in entry.msgid.lower():
            assert all("par épuisement du mur" in text for text in texts if text), (entry.msgid, texts)


def tables_line(repeats: int, bound: int, consecutive: int, tables: int = 4) -> str:
    report = {
        "players": 4 * tables,
        "rounds": 6,
        "tables": tables,
        "valid": True,
        "repeat_pairs": 0,
        "excess_meetings": 0,
        "excess_meetings_lower_bound": 0,
        "max_pair_meetings": 1,
        "table_repeats": repeats,
        "table_repeats_lower_bound": bound,
        "consecutive_table_repeats": consecutive,
        "wind_allowed_range": [1, 2],
        "wind_warnings": 0,
        "wind_imbalance": 1,
        "wind_imbalance_lower_bound": 1,
        "non_meeting_pairs": 0,
        "optimal": {"opponents": True, "tables": repeats == bound, "winds": True, "indirect": True},
    }
    topic = translation.gettext("Tables")
    return next(line["text"] for line in report_lines(report) if line["topic"] == topic)


def test_the_table_repeats_read_as_sentences_without_a_bound_of_nothing_or_one_tables() -> None:
    assert tables_line(0, 0, 0) == "No player comes back to a table they already sat at."
    assert tables_line(3, 0, 1, tables=1) == (
        "Players come back to a table they already sat at 3 times; with 1 table a schedule can have none. "
        "1 time a player sits at the same table two hanchan in a row."
    )
    assert tables_line(34, 34, 0) == (
        "Players come back to a table they already sat at 34 times; with 4 tables no schedule can have "
        "fewer than 34. Nobody sits at the same table two hanchan in a row."
    )
    for language in ("fr", "de", "ru", "ja"):
        with translation.override(language):
            for text in (tables_line(3, 0, 1, tables=1), tables_line(34, 34, 2)):
                assert "0" not in text.replace("34", ""), (language, text)
                assert "1 tables" not in text and "{" not in text, (language, text)
