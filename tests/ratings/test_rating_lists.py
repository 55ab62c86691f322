"""The site's and a series' rating lists (``tournament.queries.ratings_db``), from signed sheets in the
database:
worked out by hand on four tournaments of Ana, Ben, Cho and Dai (tests/series/helpers.py), with what the
public may not see left out (a private tournament, a hidden hanchan), a registration without a person
counting alone, the person's page with its chart, and the API.

The tournaments, in the order of play (their first days 30, 20 and 10 days ago, and a private one):

* spring, a MERS event whose players had to qualify (weight 1 day + 1 = 2): Ana 1st, Dai 2nd, Ben 3rd,
  Cho 4th (tests/series/helpers.py, FIRST).
* autumn, a MERS event (weight 1): Ben 1st, Cho 2nd, Ana 3rd, Dai 4th (SECOND).
* winter, two hanchan, the last hidden from the public: only hanchan 1 (FIRST again) counts; Ana's
  registration there has no person, so it counts alone.
* closed, private, a MERS event: counts for nothing.

MERS (four ranked players: base ranks 1000, 667, 333, 0, the whole numbers nearest 1000 x 3/3, 2/3, 1/3
and 0), each with two results, filled up to five (Part A) and four (Part B) with zeros of weight 1:
  Ana: 1000 x 2 + 333 x 1 = 2333; Part A = 2333 / 6, Part B = 2333 / 5 (weights 2 + 1 and three zeros,
       or two); ranking = 2333 x (1/6 + 1/5) / 2 = 2333 x 11 / 60 = 25,663 / 60 = 427.716... -> 427.72
  Ben: 333 x 2 + 1000 = 1666: 1666 x 11 / 60 = 305.433... -> 305.43
  Dai: 667 x 2 + 0 = 1334: 1334 x 11 / 60 = 244.566... -> 244.57
  Cho: 0 x 2 + 667 = 667: 667 x 11 / 60 = 122.283... -> 122.28
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone

from tests.ratings.test_skill import expected_first_game
from tests.series.helpers import FIRST, SECOND, played
from tournament.models import Person, Player, Series, Tournament
from tournament.queries.ratings_db import series_list, site_list
from tournament.ratings.skill import Game, rate
from tournament.views import ratings as rating_views
from tournament.views import series as series_views

NAMES = ("Ana", "Ben", "Cho", "Dai")


def place_of(points: dict[str, int]) -> tuple[int, ...]:
    order = sorted(points.values(), reverse=True)
    return tuple(1 + order.index(points[name]) for name in NAMES)


@pytest.fixture(scope="module")
def shared(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """The tournaments built once for the tests that only read them; rolled back after the module."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build()
        transaction.set_rollback(True)


@pytest.fixture
def world(db: None, shared: dict[str, Any]) -> dict[str, Any]:
    return shared


def build() -> dict[str, Any]:
    today = timezone.localdate()
    spring, spring_organiser = played("spring", FIRST, mers_event=True, players_qualified=True)
    autumn, autumn_organiser = played("autumn", SECOND, mers_event=True)
    winter, winter_organiser = played("winter", FIRST, SECOND, hidden_hanchan=1)
    closed, _ = played("closed", SECOND, SECOND, mers_event=True, is_public=False)
    for tournament, days_ago in ((spring, 30), (autumn, 20), (winter, 10), (closed, 5)):
        day = today - timedelta(days=days_ago)
        Tournament.objects.filter(pk=tournament.pk).update(starts_on=day, ends_on=day)
    # Ana's registration in winter stands alone (no person).
    ana_winter = Player.objects.get(tournament=winter, name="Ana")
    Player.objects.filter(pk=ana_winter.pk).update(person=None)
    persons = {name: Person.objects.get(name=name) for name in NAMES}
    return {
        "spring": spring,
        "autumn": autumn,
        "winter": winter,
        "closed": closed,
        "spring_organiser": spring_organiser,
        "autumn_organiser": autumn_organiser,
        "winter_organiser": winter_organiser,
        "ana_winter": ana_winter,
        "persons": persons,
    }


def key(world: dict[str, Any], name: str) -> str:
    return f"person:{world['persons'][name].pk}"


def hundredths(value: float) -> Decimal:
    return Decimal(repr(value)).quantize(Decimal("0.01"), ROUND_HALF_UP)


@pytest.mark.django_db
def test_the_site_list_counts_what_the_public_sees_in_the_order_of_play(world: dict[str, Any]) -> None:
    ratings = site_list()
    assert [event["slug"] for event in ratings.events] == ["spring", "autumn", "winter"]
    seats = [key(world, name) for name in NAMES]
    winter_seats = [f"player:{world['ana_winter'].pk}", *seats[1:]]
    # Spring, autumn, winter's hanchan 1; not winter's hidden hanchan 2, nor the private tournament.
    expected = rate(
        [
            Game("spring", tuple(seats), place_of(FIRST)),
            Game("autumn", tuple(seats), place_of(SECOND)),
            Game("winter", tuple(winter_seats), place_of(FIRST)),
        ]
    )
    got = {who: (mu, sigma, hanchan) for who, mu, sigma, hanchan in ratings.skill}
    assert got == {
        who: (skill.mu, skill.sigma, len(expected.history[who])) for who, skill in expected.skills.items()
    }
    assert got[key(world, "Ana")][2] == 2 and got[f"player:{world['ana_winter'].pk}"][2] == 1
    assert got[key(world, "Ben")][2] == 3
    ordinals = [mu - 3 * sigma for _who, mu, sigma, _n in ratings.skill]
    assert ordinals == sorted(ordinals, reverse=True)
    # The hidden hanchan would have changed every rating: the list can tell.
    with_hidden = rate(
        [
            Game("spring", tuple(seats), place_of(FIRST)),
            Game("autumn", tuple(seats), place_of(SECOND)),
            Game("winter", tuple(winter_seats), place_of(FIRST)),
            Game("winter-2", tuple(winter_seats), place_of(SECOND)),
        ]
    )
    assert with_hidden.skills[key(world, "Ben")].mu != got[key(world, "Ben")][0]


@pytest.mark.django_db
def test_the_mers_ranking_over_the_public_mers_events_as_worked_out(world: dict[str, Any]) -> None:
    ratings = site_list()
    assert [(event["slug"], event["mers_weight"]) for event in ratings.events] == [
        ("spring", "2.00"),
        ("autumn", "1.00"),
        ("winter", None),
    ]
    assert ratings.mers == [
        (key(world, "Ana"), Decimal("427.72"), 2),
        (key(world, "Ben"), Decimal("305.43"), 2),
        (key(world, "Dai"), Decimal("244.57"), 2),
        (key(world, "Cho"), Decimal("122.28"), 2),
    ]


@pytest.mark.django_db
def test_a_series_list_counts_only_its_public_tournaments(world: dict[str, Any]) -> None:
    series = Series.objects.create(name="Season", slug="season")
    series.tournaments.set([world["spring"], world["closed"]])
    ratings = series_list(series)
    assert [event["slug"] for event in ratings.events] == ["spring"]
    # One hanchan of four new players: the first game by the published formulas (tests/ratings/test_skill.py).
    shares = [Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), Fraction(1)]
    by_place = {place: name for name, place in zip(NAMES, place_of(FIRST), strict=True)}
    assert [who for who, *_rest in ratings.skill] == [key(world, by_place[place]) for place in (1, 2, 3, 4)]
    for place, (_who, mu, sigma, hanchan) in enumerate(ratings.skill, start=1):
        want_mu, want_sigma = expected_first_game(place, shares)
        assert mu == pytest.approx(want_mu, abs=1e-9) and sigma == pytest.approx(want_sigma, abs=1e-9)
        assert hanchan == 1
    assert ratings.skill[0][1] == pytest.approx(27.795, abs=1e-3)
    assert ratings.mers == []  # one MERS result each: not ranked
    # The page and the API say the same.
    page = Client().get("/series/season/ratings/").content.decode()
    assert re.findall(r'<tr data-name="(\w+)">', page) == ["Ana", "Dai", "Ben", "Cho"]
    ana_mu = hundredths(ratings.skill[0][1])
    assert f'<td class="num">{ana_mu}</td>' in page
    body = Client().get(f"/api/series/{series.pk}/ratings/").json()
    assert body["count"] == 4 and [row["name"] for row in body["results"]] == ["Ana", "Dai", "Ben", "Cho"]
    assert body["results"][0]["mu"] == str(ana_mu) and body["results"][0]["place"] == 1
    assert body["results"][0]["person"] == world["persons"]["Ana"].pk
    assert Client().get(f"/api/series/{series.pk}/ratings/?list=mers").json()["results"] == []


@pytest.mark.django_db
def test_pages_api_and_the_persons_chart(world: dict[str, Any]) -> None:
    client = Client()
    skill_page = client.get("/ratings/").content.decode()
    ratings = site_list()
    assert len(re.findall(r"<tr data-name=", skill_page)) == len(ratings.skill) == 5
    mers_page = client.get("/ratings/?list=mers").content.decode()
    assert re.findall(r'<tr data-name="(\w+)">', mers_page) == ["Ana", "Ben", "Dai", "Cho"]
    assert "<b>427.72</b>" in mers_page
    body = client.get("/api/ratings/?list=mers").json()
    assert [(row["name"], row["ranking"], row["results"]) for row in body["results"]] == [
        ("Ana", "427.72", 2),
        ("Ben", "305.43", 2),
        ("Dai", "244.57", 2),
        ("Cho", "122.28", 2),
    ]
    assert body["list"] == "mers" and [event["slug"] for event in body["events"]] == [
        "spring",
        "autumn",
        "winter",
    ]
    skill_body = client.get("/api/ratings/?page_size=2").json()
    assert skill_body["count"] == 5 and len(skill_body["results"]) == 2 and skill_body["next"]
    # Ben's page: three hanchan rated, a point of the chart after each.
    ben = world["persons"]["Ben"]
    page = client.get(f"/persons/{ben.pk}/").content.decode()
    assert 'data-points="3"' in page
    line = re.search(r'<polyline class="line" data-rating-line points="([^"]+)"', page)
    assert line is not None and len(line.group(1).split()) == 3
    _place, skill, hanchan = ratings.skill_of(key(world, "Ben")) or (0, None, 0)
    assert skill is not None and hanchan == 3
    assert f'<dd data-stat="mu">{hundredths(skill.mu)}</dd>' in page
    assert f'<dd data-stat="sigma">{hundredths(skill.sigma)}</dd>' in page
    assert f"<b>{hundredths(skill.ordinal)}</b>" in page
    assert "<b>305.43</b>" in page
    # Ana's person played two hanchan (her winter registration counts alone).
    ana_page = client.get(f"/persons/{world['persons']['Ana'].pk}/").content.decode()
    assert 'data-points="2"' in ana_page


@pytest.mark.django_db
def test_the_lists_and_a_series_standings_come_a_page_at_a_time(
    world: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rating_views, "PAGE_SIZE", 2)
    monkeypatch.setattr(series_views, "PAGE_SIZE", 2)
    series = Series.objects.create(name="Spring only", slug="spring-only")
    series.tournaments.set([world["spring"]])
    client = Client()
    names = re.compile(r'<tr data-name="(\w+)">')
    # Spring: Ana 22.4, Dai 6.1, Ben -8.4, Cho -20.1.
    assert names.findall(client.get("/series/spring-only/").content.decode()) == ["Ana", "Dai"]
    second = client.get("/series/spring-only/?page=2").content.decode()
    assert names.findall(second) == ["Ben", "Cho"] and 'rel="prev"' in second
    mers = [names.findall(client.get(f"/ratings/?list=mers&page={n}").content.decode()) for n in (1, 2)]
    assert mers == [["Ana", "Ben"], ["Dai", "Cho"]]
    assert '<td class="num">3</td>' in client.get("/ratings/?list=mers&page=2").content.decode()
