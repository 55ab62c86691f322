"""A sheet entered with yaku, signed: its read-only hands show each win's value, yaku (named as the yaku
statistics name them, in the reader's language) and dora under the hand, and the score sheets workbook
has them in its Yaku column. The hands are those of tests/rules/test_yaku_statistics.py (worked there)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from exports.exporters import get_exporter
from scoring import services as sheets
from scoring.rules.replay import replay
from scoring.rules.ruleset import get_ruleset
from tests.conftest import seat_table
from tests.exports.helpers import rows, workbook
from tests.rules.test_yaku_statistics import HANDS, NAMES
from tournament.models import Player, Round, Tournament


@pytest.fixture
def signed(tournament: Tournament, referee: Any) -> Tournament:
    players = [Player.objects.create(tournament=tournament, name=name) for name in NAMES]
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    table = seat_table(round_, 1, players)
    final = replay({"players": NAMES, "hands": HANDS}, get_ruleset("WRC2015")).final_points
    hands = [dict(hand) for hand in HANDS]
    entry = {"form": "hands", "hands": hands, "final_points": final, "ended_by_time": True}
    sheet = sheets.save_sheet(table, entry, referee, submit=True)
    sheets.sign_sheet(sheet, referee)
    return tournament


def shown_wins(html: str) -> list[str]:
    rows_ = re.findall(r"<tr class=\"hand-yaku\" data-hand-yaku>(.*?)</tr>", html, re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", row)).strip() for row in rows_]


@pytest.mark.django_db
def test_the_signed_sheets_hands_show_each_wins_yaku_and_dora(signed: Tournament, referee: Any) -> None:
    client = Client()
    client.force_login(referee)
    html = client.get("/t/test-open/sheet/1/1/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "data-hands-table" in html
    # Three wins with yaku; the fourth (han and fu only) has no line.
    assert shown_wins(html) == [
        "Ben 4 han 30 fu: Riichi, Pinfu, All Simples; dora 1",
        "Ana 1 han 30 fu: All Simples",
        "Cho 1 han 40 fu: Yakuhai (White Dragon)",
    ]
    # In the reader's language, named as the yaku statistics name them.
    japanese = client.get("/t/test-open/sheet/1/1/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    wins = shown_wins(japanese)
    assert "断幺九" in wins[1] and "役牌 白" in wins[2] and "All Simples" not in japanese


@pytest.mark.django_db
def test_the_score_sheets_workbook_has_a_yaku_column(signed: Tournament) -> None:
    exporter = get_exporter("score_sheets_xlsx")
    assert exporter is not None
    sheet = rows(workbook(exporter.render(signed).data)["Hanchan 1"])
    assert sheet[0][-1] == "Yaku"
    hands = [row for row in sheet if row and isinstance(row[1], int)]
    assert [row[-1] for row in hands] == [
        "Ben: 4 han 30 fu: Riichi, Pinfu, All Simples; dora 1",
        "Ana: 1 han 30 fu: All Simples",
        "Cho: 1 han 40 fu: Yakuhai (White Dragon)",
        None,
    ]
