"""The tournament's skill ratings page (``tournament.views.ratings``, ``tournament.queries.ratings_db``) on
the two
hanchan of ``conftest.played``. Hanchan 1 (``tests/scoring/hanchan.py``): Ana 37,400 (1st), Dai 31,100
(2nd), Ben 26,600 (3rd), Cho 24,900 (4th). Hanchan 2: Ana 78,000 (1st), the other three 14,000 each,
sharing the 2nd place. The page must rate exactly these games, in this order, with these places."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tournament.models import Player, Tournament
from tournament.ratings.skill import Game, rate


def shown_rows(html: str) -> list[tuple[int, str, str, str]]:
    """(player id, rating, mu, sigma) of each row, in the page's order."""
    rows = re.findall(
        r'<tr data-player="(\d+)"><td class="num">\d+</td><td>[^<]*</td><td class="num">([^<]+)</td>'
        r'<td class="num">([^<]+)</td><td class="num">([^<]+)</td>',
        html,
    )
    return [(int(player), rating, mu, sigma) for player, rating, mu, sigma in rows]


def expected(games: list[Game]) -> list[tuple[int, str, str, str]]:
    rows = []
    for player, skill, _games in rate(games).table():
        rating, mu, sigma = skill.shown()
        rows.append((int(player), str(rating), str(mu), str(sigma)))
    return rows


@pytest.mark.django_db
def test_the_ratings_follow_the_places_in_the_order_of_play(played: Tournament, organiser: Any) -> None:
    ana, ben, cho, dai = (
        Player.objects.get(tournament=played, name=name).pk for name in ("Ana", "Ben", "Cho", "Dai")
    )
    first = Game((1, 1), (ana, ben, cho, dai), (1, 3, 4, 2))
    second = Game((2, 1), (ana, ben, cho, dai), (1, 2, 2, 2))
    html = Client().get(f"/t/{played.slug}/ratings/").content.decode()
    rows = shown_rows(html)
    assert rows == expected([first, second])
    assert rows[0][0] == ana  # two first places
    # Hanchan 2 hidden from the public (the last 4 of 5): the public's ratings are hanchan 1's alone; the
    # staff still see both.
    played.hidden_hanchan = 4
    played.save()
    assert shown_rows(Client().get(f"/t/{played.slug}/ratings/").content.decode()) == expected([first])
    staff = Client()
    staff.force_login(organiser)
    assert shown_rows(staff.get(f"/t/{played.slug}/ratings/").content.decode()) == expected([first, second])


@pytest.mark.django_db
def test_substitutes_and_disqualified_players_are_not_listed(played: Tournament) -> None:
    Player.objects.filter(tournament=played, name="Cho").update(disqualified=True)
    html = Client().get(f"/t/{played.slug}/ratings/").content.decode()
    cho = Player.objects.get(tournament=played, name="Cho").pk
    assert len(shown_rows(html)) == 3 and cho not in [row[0] for row in shown_rows(html)]
