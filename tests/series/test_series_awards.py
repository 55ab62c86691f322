"""A series' awards from the database, across two tournaments entered hand by hand, through the pages:
worked out by hand, holding only what the public sees.

Spring Cup, hanchan 1: the sheet of ``tests/scoring/hanchan.py`` (worked out in its docstring): wins Ana 3
(hands 5, 6, 11), Ben 2, Cho 2, Dai 2; riichi Cho 1 (hand 2), Dai 1 (hand 3); best hand Ana's dealer
mangan tsumo, 12,000 (South 1, hand 6).
Autumn Cup, hanchan 1: Ana (dealer) tsumo yakuman, 48,000 (East 1, hand 1), then the time limit.
Autumn Cup, hanchan 2, hidden from the public: the Spring sheet again (Ana 3 more wins, Cho and Dai one
more riichi each).

The series (Ana, Ben, Cho and Dai each one person, by their EMA ids): best hand Ana's yakuman in Autumn;
most wins Ana 3 + 1 = 4 (with the hidden hanchan it would be 7); most riichi Cho and Dai, 1 each, a tie
(2 each with it); most yakuman Ana 1.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.scoring import hanchan
from tests.series.helpers import played
from tournament.models import Series

YAKUMAN = {
    "form": "hands",
    "hands": [{"result": "tsumo", "winner": "Ana", "yakuman": 1, "riichi": []}],
    "ended_by_time": True,
}


def section(html: str, key: str) -> str:
    start = html.index(f'data-award="{key}"')
    return html[start : html.index("</section>", start)]


@pytest.fixture
def season() -> Series:
    spring, _ = played("spring", hanchan.entry("outcomes"))
    autumn, _ = played("autumn", YAKUMAN, hanchan.entry("outcomes"), day=2, hidden_hanchan=1)
    series = Series.objects.create(name="Season", slug="season")
    series.tournaments.set([spring, autumn])
    return series


@pytest.mark.django_db
def test_series_awards_add_up_what_the_public_sees_of_each_event(season: Series) -> None:
    client = Client()
    assert "data-no-awards" in client.get("/series/season/awards/").content.decode()
    assert 'href="/series/season/awards/"' not in client.get("/series/season/").content.decode()
    season.awards = ["best_hand", "most_wins", "most_riichi", "most_yakuman"]
    season.save()
    assert 'href="/series/season/awards/"' in client.get("/series/season/").content.decode()
    for url in ("/series/season/awards/", "/series/season/projector/awards/"):
        html = client.get(url).content.decode()
        best = section(html, "best_hand")
        assert "<strong>Ana</strong>" in best
        assert "Autumn Cup: 48,000 points: hanchan 1, table 1, East 1 (hand 1)" in best
        wins = section(html, "most_wins")
        assert "<strong>Ana</strong> <span>4 wins</span>" in wins and wins.count("<li") == 1
        riichi = section(html, "most_riichi")
        assert riichi.count("<li") == 2 and "<strong>Cho</strong> <span>1 riichi</span>" in riichi
        assert "<strong>Dai</strong> <span>1 riichi</span>" in riichi
        assert "<strong>Ana</strong> <span>1 yakuman</span>" in section(html, "most_yakuman")
        assert 'data-award="best_comeback"' not in html  # not chosen
    # Revealed, the hidden hanchan counts: Ana 3 + 1 + 3 = 7 wins, Cho and Dai 2 riichi each.
    autumn = season.tournaments.get(slug="autumn")
    autumn.standings_revealed = True
    autumn.save()
    html = client.get("/series/season/awards/").content.decode()
    assert "<strong>Ana</strong> <span>7 wins</span>" in section(html, "most_wins")
    assert "<strong>Cho</strong> <span>2 riichi</span>" in section(html, "most_riichi")


@pytest.mark.django_db
def test_the_series_organiser_chooses_its_awards(season: Series, django_user_model: Any) -> None:
    creator = django_user_model.objects.get(username="organiser-spring")
    season.created_by = creator
    season.save()
    client = Client()
    client.force_login(creator)
    form = client.get("/series/season/edit/").content.decode()
    assert 'name="awards" value="most_wins"' in form
    posted = client.post(
        "/series/season/edit/",
        {
            "name": "Season",
            "slug": "season",
            "rule": "sum",
            "tournaments": [t.pk for t in season.tournaments.all()],
            "awards": ["most_wins", "best_hand"],
        },
    )
    assert posted.status_code == 302
    season.refresh_from_db()
    assert season.awards == ["best_hand", "most_wins"]
    # The API sets them too, and refuses an award that does not exist, naming the field.
    api = Client()
    api.force_login(creator)
    refused = api.patch(
        f"/api/series/{season.pk}/", {"awards": ["prettiest_tiles"]}, content_type="application/json"
    )
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"].startswith("awards")
    changed = api.patch(
        f"/api/series/{season.pk}/", {"awards": ["most_riichi"]}, content_type="application/json"
    )
    assert changed.status_code == 200 and changed.json()["awards"] == ["most_riichi"]
