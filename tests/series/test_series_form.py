"""Creating and changing a series, through the page and the API: one service, its refusals naming the
field and the rule, nothing stored half-way."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.conftest import make_user
from tests.series.helpers import FIRST, played
from tournament.models import Series
from tournament.services.addresses import SERIES_PREFIX, TOURNAMENT_PREFIX, reserved_slugs


@pytest.mark.django_db
def test_an_organiser_creates_a_series_on_its_page_and_a_rule_without_its_n_is_refused() -> None:
    spring, organiser = played("spring", FIRST)
    client = Client()
    client.force_login(organiser)
    body = {"name": "Season 2026", "slug": "", "rule": "best_n", "points": "", "tournaments": [spring.pk]}
    refused = client.post("/series/new/", body)
    assert refused.status_code == 200 and not Series.objects.exists()
    assert "the best-N rule counts the best N events" in refused.content.decode()
    made = client.post("/series/new/", {**body, "best_n": "2"})
    series = Series.objects.get()
    assert made["Location"] == "/series/season-2026/"
    assert (series.rule, series.best_n, list(series.tournaments.all())) == ("best_n", 2, [spring])
    changed = client.post(
        "/series/season-2026/edit/",
        {**body, "rule": "points_per_rank", "points": "10, 6, 3.5, 1", "slug": "season-2026"},
    )
    assert changed.status_code == 302
    assert Series.objects.get().points == ["10", "6", "3.5", "1"]
    other = Client()
    other.force_login(make_user("someone-else", spring, "organiser"))
    assert other.get("/series/season-2026/edit/").status_code == 403  # its creator's, and the admins'


@pytest.mark.django_db
def test_the_api_refuses_a_bad_points_table_and_a_tournament_it_cannot_see() -> None:
    spring, organiser = played("spring", FIRST)
    closed, _ = played("closed", FIRST, is_public=False)
    api = APIClient()
    api.force_authenticate(organiser)
    bad = api.post(
        "/api/series/", {"name": "S", "rule": "points_per_rank", "points": ["10", "ten"]}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "points"
    hidden = api.post("/api/series/", {"name": "S", "rule": "sum", "tournaments": [closed.pk]}, format="json")
    assert hidden.status_code == 404 and hidden.json()["errors"][0]["field"] == "tournaments"
    assert not Series.objects.exists()
    made = api.post("/api/series/", {"name": "S", "rule": "sum", "tournaments": [spring.pk]}, format="json")
    assert (
        made.status_code == 201 and made.json()["slug"] == "s" and made.json()["tournaments"] == [spring.pk]
    )


def test_the_reserved_slugs_are_the_fixed_words_of_the_url_patterns() -> None:
    """/series/new/ is the form of a new series: "new" is reserved; no fixed word follows /t/."""
    assert reserved_slugs(SERIES_PREFIX) == frozenset({"new"})
    assert reserved_slugs(TOURNAMENT_PREFIX) == frozenset()


@pytest.mark.django_db
def test_the_api_refuses_a_series_at_the_address_of_the_new_series_form() -> None:
    _, organiser = played("spring", FIRST)
    api = APIClient()
    api.force_authenticate(organiser)
    refused = api.post("/api/series/", {"name": "New", "rule": "sum"}, format="json")
    assert refused.status_code == 400
    error = refused.json()["errors"][0]
    assert (error["field"], error["rule"]) == ("slug", "series-slug")
    assert not Series.objects.exists()
