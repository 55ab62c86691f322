"""Issue 51, item 13: players of one name in two events told apart on the lists across tournaments
(country and club beside each name), and the demonstration tournament counted in none of them."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client

from tests.series.helpers import FIRST, SECOND, played
from tournament.models import Player, Series, Tournament
from tournament.queries.ratings_db import series_list, site_list
from tournament.queries.series_db import public_events


@pytest.mark.django_db
def test_the_demo_counts_in_no_list_across_tournaments() -> None:
    demo, _ = played("demo", FIRST, is_demo=True)
    spring, _ = played("spring", SECOND, day=2)
    assert [event["slug"] for event in site_list().events] == ["spring"]
    series = Series.objects.create(name="Season", slug="season")
    series.tournaments.set([demo, spring])
    assert public_events(series) == [spring]
    assert [event["slug"] for event in series_list(series).events] == ["spring"]
    assert Tournament.objects.get(pk=demo.pk).is_public  # still shown as a tournament of its own


@pytest.mark.django_db
def test_load_demo_marks_its_tournament() -> None:
    call_command("load_demo", "--force", verbosity=0)
    assert Tournament.objects.get(slug="demo-open").is_demo


@pytest.mark.django_db
def test_namesakes_show_their_country_and_club_on_the_ratings_and_series_pages() -> None:
    spring, _ = played("spring", FIRST)
    autumn, _ = played("autumn", SECOND, day=2)
    # Ana of autumn is another Ana: no EMA id, another country.
    Player.objects.filter(tournament=autumn, name="Ana").update(person=None, ema_id="", country="FR", club="")
    Player.objects.filter(tournament=spring, name="Ana").update(country="JP", club="Osaka Riichi")
    series = Series.objects.create(name="Season", slug="season")
    series.tournaments.set([spring, autumn])
    for address in ("/ratings/", "/series/season/ratings/", "/series/season/"):
        page = Client().get(address).content.decode()
        anas = re.findall(r'<tr data-name="Ana">.*?</tr>', page, re.S)
        assert len(anas) == 2, address
        wheres = sorted(re.search(r"data-entrant-where>\((.*?)\)<", row).group(1) for row in anas)  # type: ignore[union-attr]
        assert wheres == ["France", "Japan, Osaka Riichi"], address
