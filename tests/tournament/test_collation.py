"""Names in the order of the Unicode Collation Algorithm: accents next to their letters, not after Z."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client

from tournament.core.collation import by_name
from tournament.core.standings import Entrant, compute_standings
from tournament.models import Player, Tournament

NAMES = ["Zoe", "Émile", "Eve", "Łukasz", "Lars", "Ángel", "Ana", "Öztürk", "Otto"]
IN_ORDER = ["Ana", "Ángel", "Émile", "Eve", "Lars", "Łukasz", "Otto", "Öztürk", "Zoe"]


def test_accented_names_sort_next_to_their_letters() -> None:
    assert sorted(NAMES) != IN_ORDER  # code points put Á, É, Ł and Ö after Z
    assert by_name(NAMES, str) == IN_ORDER


def test_equal_scores_and_the_unranked_are_listed_by_collated_name() -> None:
    entrants = [Entrant(name, name, ranked=name != "Zoe") for name in NAMES]
    standings = compute_standings(entrants, [])
    assert [row.name for row in standings.rows] == [n for n in IN_ORDER if n != "Zoe"] + ["Zoe"]
    assert {row.rank for row in standings.rows if row.ranked} == {1}
    assert standings.rows[0].total == Decimal(0)


@pytest.mark.django_db
def test_the_players_page_lists_names_in_collated_order(tournament: Tournament) -> None:
    Player.objects.bulk_create(Player(tournament=tournament, name=name) for name in NAMES)
    page = Client().get(f"/t/{tournament.slug}/players/").content.decode()
    positions = [page.index(f">{name}<") for name in IN_ORDER]
    assert positions == sorted(positions)
