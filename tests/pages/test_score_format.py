"""Scores in one format in every column that shows them: one decimal in the reader's language ("78.0" beside
"66.9", "-12.0", in German "78,0"), on the standings, the projector and the player's page; the JSON keeps
the machine string ("78")."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from scoring import services as sheets
from tournament.models import Tournament
from tournament.templatetags.scores import score

# Whole scores under the WRC rules (30,000 at the start and back, uma 15, 5, -5, -15): 93,000 is 78,
# 13,000 is -12.
FINAL = {"Ana": 93000, "Ben": 13000, "Cho": 10000, "Dai": 4000}


@pytest.fixture
def whole_scores(tournament: Tournament, seated_table: Any, referee: Any) -> Tournament:
    entry = {"form": "final", "final_points": FINAL, "riichi_sticks_left": 0}
    sheets.sign_sheet(sheets.save_sheet(seated_table, entry, referee, submit=True), referee)
    return tournament


def test_the_filter_writes_one_decimal_in_the_readers_language(settings: Any) -> None:
    from django.utils import translation

    with translation.override("en"):
        assert [score(v) for v in ("78", "-12", "66.9", "0", Decimal("-0.5"), "0.25")] == [
            "78.0",
            "-12.0",
            "66.9",
            "0.0",
            "-0.5",
            "0.25",
        ]
        assert score(None) is None and score("") == ""
    with translation.override("de"):
        assert [score(v) for v in ("78", "-12", "1234.5")] == ["78,0", "-12,0", "1234,5"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "whole", "negative"), [("en", "78.0", "-12.0"), ("de", "78,0", "-12,0")]
)
def test_whole_totals_show_one_decimal_on_the_pages(
    whole_scores: Tournament, language: str, whole: str, negative: str
) -> None:
    client = Client(headers={"Accept-Language": language})
    client.cookies["django_language"] = language
    slug = whole_scores.slug
    for address in ("standings/", "projector/"):
        page = client.get(f"/t/{slug}/{address}").content.decode()
        assert f">{whole}</td>" in page, address
        assert f">{negative}</td>" in page, address
    ana = whole_scores.players.get(name="Ana")
    page = client.get(f"/t/{slug}/players/{ana.pk}/").content.decode()
    assert f"<b>{whole}</b>" in page
    data = client.get(f"/t/{slug}/standings.json").json()
    assert {row["name"]: row["total"] for row in data["rows"]}["Ana"] == "78"


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "shown"), [("en", "\N{MINUS SIGN}38.2"), ("de", "\N{MINUS SIGN}38,2")])
def test_a_penalty_shows_in_the_same_format_as_the_scores(
    whole_scores: Tournament, seated_table: Any, head_referee: Any, language: str, shown: str
) -> None:
    """A penalty of 38.20 (stored with two decimals) reads "-38.2" (with a minus sign) on the player's page
    (its summary and its list of penalties) and in the standings' phone line, as a score does: never
    "38.20"."""
    from penalties import services as penalties

    ana = whole_scores.players.get(name="Ana")
    penalties.give_penalty(
        ana, "other", head_referee, round=seated_table.round, points="38.20", reason="Phone rang twice"
    )
    client = Client(headers={"Accept-Language": language})
    client.cookies["django_language"] = language
    page = client.get(f"/t/{whole_scores.slug}/players/{ana.pk}/").content.decode()
    assert page.count(shown) >= 3, page  # the summary, the hanchan's row, the list
    assert "38.20" not in page and "38,20" not in page
    standings = client.get(f"/t/{whole_scores.slug}/standings/").content.decode()
    assert shown in standings and "38.20" not in standings and "38,20" not in standings
