"""Yaku figures on the player page, the statistics page and in the API, from a signed sheet entered with
yaku through the services (the hands of ``tests/rules/test_yaku_statistics.py``, worked out there: All
Simples in 2 of the 3 wins with known yaku, 9,100 points; Ben's one win Riichi, Pinfu, All Simples,
8,000)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring import services as sheets
from tests.rules.test_yaku_statistics import HANDS
from tournament.models import Round, Tournament


@pytest.fixture
def with_yaku(tournament: Tournament, seated_table: Any, referee: Any) -> Tournament:
    entry = {"form": "hands", "hands": [dict(hand) for hand in HANDS], "ended_by_time": True}
    sheets.sign_sheet(sheets.save_sheet(seated_table, entry, referee, submit=True), referee)
    seated_table.round.status = Round.Status.FINISHED
    seated_table.round.save()
    return tournament


@pytest.mark.django_db
def test_the_api_answers_the_tournaments_and_a_players_yaku(with_yaku: Tournament, organiser: Any) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    yaku = client.get(f"/api/tournaments/{with_yaku.pk}/statistics/").json()["yaku"]
    assert yaku["wins"] == 3
    assert yaku["yaku"][0] == {
        "yaku": "tanyao", "wins": 2, "percent": "66.7", "han": 2, "average_value": 4550, "points": 9100,
    }  # fmt: skip
    ben = with_yaku.players.get(name="Ben")
    answer = APIClient().get(f"/api/tournaments/{with_yaku.pk}/players/{ben.pk}/statistics/").json()
    assert answer["wins"] == 1
    assert [(row["yaku"], row["points"]) for row in answer["yaku"]["yaku"]] == [
        ("riichi", 8000),
        ("pinfu", 8000),
        ("tanyao", 8000),
    ]


@pytest.mark.django_db
def test_the_pages_show_the_yaku(with_yaku: Tournament, organiser: Any) -> None:
    staff = Client()
    staff.force_login(organiser)
    page = staff.get(f"/t/{with_yaku.slug}/manage/statistics/").content.decode()
    row = (
        '<tr data-yaku="tanyao"><td>All Simples</td><td class="num">2<br><span class="muted small">66.7 %'
        '</span></td><td class="num">9,100<br><span class="muted small">average 4,550</span></td></tr>'
    )
    assert row in page
    ben = with_yaku.players.get(name="Ben")
    html = Client().get(f"/t/{with_yaku.slug}/players/{ben.pk}/").content.decode()
    pinfu = '<tr data-yaku="pinfu"><td>Pinfu</td><td class="num">1<br><span class="muted small">100.0 %'
    assert pinfu in html
    japanese = Client(headers={"accept-language": "ja"}).get(f"/t/{with_yaku.slug}/players/{ben.pk}/")
    assert 'data-yaku="tanyao"' in japanese.content.decode()
