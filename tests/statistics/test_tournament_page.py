"""The organisers' statistics of a tournament, page and API, on the two hanchan of ``conftest.played``:
hanchan 1 is the sheet worked out in ``tests/scoring/hanchan.py``, hanchan 2 one dealer tsumo yakuman."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tournament.models import Tournament


@pytest.mark.django_db
def test_the_api_answers_the_figures(played: Tournament, organiser: Any) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    data = client.get(f"/api/tournaments/{played.pk}/statistics/").json()
    # Hanchan 1: 10 hands (the chombo re-deal is none): ron on hands 1, 4, 5, 8, 9, 10, 11, tsumo on 2 and
    # 6, a draw on 3; riichi by Cho (hand 2) and Dai (hand 3); Cho's chombo. Hanchan 2: Ana's tsumo yakuman.
    assert data["totals"] == {
        "hanchan": 2,
        "hand_by_hand_hanchan": 2,
        "hands": 11,
        "wins": 10,
        "ron": 7,
        "tsumo": 3,
        "multiple_ron": 0,
        "draws": 1,
        "chombo": 1,
        "riichi": 2,
        "yakuman": 1,
    }
    assert data["outcomes"][:2] == [
        {"label": "Ron", "count": 7, "percent": "63.6"},  # 7 / 11
        {"label": "Tsumo", "count": 3, "percent": "27.3"},
    ]
    assert data["longest_hanchan"] == [
        {"hanchan": 1, "table": 1, "players": ["Ana", "Ben", "Cho", "Dai"], "hands": 10},
        {"hanchan": 2, "table": 1, "players": ["Ana", "Ben", "Cho", "Dai"], "hands": 1},
    ]
    biggest = data["biggest_hands"][0]
    assert (biggest["value"], biggest["winner"], biggest["dealer"], biggest["yakuman"]) == (
        48000,
        "Ana",
        True,
        True,
    )
    assert (biggest["hanchan"], biggest["table"], biggest["round"], biggest["hand"]) == (2, 1, "East 1", 1)
    assert data["biggest_hands"][1]["value"] == 12000  # hanchan 1, hand 6: Ana's dealer mangan tsumo
    # Non-dealer ron 2,000 (hands 1 and 10) and 1,000 (hands 5 and 11) are the most common wins.
    assert [(w["label"], w["count"]) for w in data["common_wins"][:2]] == [
        ("non-dealer ron 1,000", 2),
        ("non-dealer ron 2,000", 2),
    ]


@pytest.mark.django_db
def test_the_page_is_for_organisers(played: Tournament, organiser: Any, referee: Any) -> None:
    url = f"/t/{played.slug}/manage/statistics/"
    assert Client().get(url).status_code == 302  # to the login
    staff = Client()
    staff.force_login(referee)
    assert staff.get(url).status_code == 403
    staff.force_login(organiser)
    html = staff.get(url).content.decode()
    assert re.search(r'data-total="hands">11<', html) and re.search(r'data-total="yakuman">1<', html)
    assert "48,000" in html and "hanchan 2, table 1, East 1 (hand 1)" in html
    assert "Ana, Ben, Cho, Dai" in html
