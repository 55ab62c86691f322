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
from tournament.presentation import report_lines

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
