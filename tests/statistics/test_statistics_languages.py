"""The organisers' statistics in the reader's language, on ``conftest.played``: the page in Japanese and
the API in French (labels, rounds and numbers), with the same figures and order as in English."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tournament.models import Tournament


@pytest.mark.django_db
def test_the_page_in_japanese(played: Tournament, organiser: Any) -> None:
    client = Client(headers={"Accept-Language": "ja"})
    client.force_login(organiser)
    html = client.get(f"/t/{played.slug}/manage/statistics/").content.decode()
    for words in ("成績データ", "<td>ロン</td>", "<td>ツモ</td>", "子ロン 1,000", "<h2>高い手</h2>"):
        assert words in html, words
    # Ana's dealer tsumo yakuman: the dealer, the result and the round in Japanese.
    assert "Ana（親）, ツモ" in html  # noqa: RUF001
    assert "第2半荘、1番卓、東1局（通算1局目）" in html  # noqa: RUF001


@pytest.mark.django_db
def test_the_api_in_french_keeps_the_figures_and_their_order(played: Tournament, organiser: Any) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    url = f"/api/tournaments/{played.pk}/statistics/"
    english = client.get(url).json()
    french = client.get(url, headers={"Accept-Language": "fr"}).json()
    assert french["totals"] == english["totals"]
    assert [(o["count"], o["percent"]) for o in french["outcomes"]] == [
        (o["count"], o["percent"]) for o in english["outcomes"]
    ]
    assert [o["label"] for o in french["outcomes"][:2]] == ["Ron", "Tsumo"]
    assert [(w["label"], w["count"]) for w in french["common_wins"][:2]] == [
        ("ron d'un non-donneur 1\xa0000", 2),
        ("ron d'un non-donneur 2\xa0000", 2),
    ]
    assert french["biggest_hands"][0]["round"] == "East 1"  # data as the sheet stores it, in every language
