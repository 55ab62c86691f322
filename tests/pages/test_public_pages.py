"""The players' pages: home, live standings JSON, seating, player page with its chart, projector, clock;
and no private data on any of them."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from tests.pages.conftest import Site, client_for
from tournament import services


@pytest.mark.django_db
def test_home_shows_the_facts_and_the_next_hanchan(site: Site) -> None:
    page = Client().get(f"/t/{site.tournament.slug}/").content.decode()
    assert "Test Open" in page and "World Riichi Championship Rules 2015" in page
    assert "Hanchan 1</b> of 5" in page
    assert "being played" in page


@pytest.mark.django_db
def test_standings_json_has_the_ranked_rows_and_the_pending_tables(site: Site) -> None:
    data = Client().get(f"/t/{site.tournament.slug}/standings.json").json()
    top = data["rows"][0]
    assert (top["name"], top["rank"], top["total"]) == ("Ana", 1, "22.4")
    cho = next(r for r in data["rows"] if r["name"] == "Cho")
    assert cho["penalties"] == "20" and cho["total"] == "-40.1"
    assert data["pending"] == [{"table": 2, "status": "none"}]
    assert data["current_round"] == 1


@pytest.mark.django_db
def test_standings_json_answers_304_when_nothing_changed(site: Site) -> None:
    client = Client()
    first = client.get(f"/t/{site.tournament.slug}/standings.json")
    again = client.get(f"/t/{site.tournament.slug}/standings.json", headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304


@pytest.mark.django_db
def test_standings_page_renders_rows_and_the_live_poll_address(site: Site) -> None:
    page = Client().get(f"/t/{site.tournament.slug}/standings/").content.decode()
    assert 'data-url="/t/test-open/standings.json"' in page
    assert "Ana" in page and "22.4" in page
    assert "waiting for table 2" in page


@pytest.mark.django_db
def test_seating_shows_every_table_with_winds(site: Site) -> None:
    page = Client().get(f"/t/{site.tournament.slug}/seating/1/").content.decode()
    assert 'data-seat-name="Ana"' in page and 'data-wind="East"' in page
    assert "Table 2" in page and "Find my table" in page
    assert Client().get(f"/t/{site.tournament.slug}/seating/9/").status_code == 404


@pytest.mark.django_db
def test_player_page_lists_each_hanchan_and_draws_the_rank_chart(site: Site) -> None:
    ana = site.player("Ana")
    page = Client().get(f"/t/{site.tournament.slug}/players/{ana.pk}/").content.decode()
    assert "37,400" in page and "22.4" in page
    assert '<svg class="chart"' in page and "After hanchan 1: rank 1" in page
    cho = site.player("Cho")
    page = Client().get(f"/t/{site.tournament.slug}/players/{cho.pk}/").content.decode()
    assert "Chombo, \u221220" in page


@pytest.mark.django_db
def test_projector_has_the_big_clock_the_standings_in_columns_and_a_qr_code(site: Site) -> None:
    page = Client().get(f"/t/{site.tournament.slug}/projector/").content.decode()
    assert "data-projector" in page and "data-columns" in page and "data-clock-time" in page
    assert '<svg viewBox="0 0' in page and "<title>Live standings</title>" in page


@pytest.mark.django_db
def test_clock_json_counts_down_once_started(site: Site) -> None:
    client = Client()
    stopped = client.get(f"/t/{site.tournament.slug}/clock.json").json()
    assert (stopped["round"], stopped["state"], stopped["seconds_left"]) == (1, "stopped", 5400.0)
    services.operate_clock(site.table_1.round, site.users["organiser"], "start")
    running = client.get(f"/t/{site.tournament.slug}/clock.json").json()
    assert running["state"] == "running" and 5390 < running["seconds_left"] <= 5400
    assert running["ends_at"]


@pytest.mark.django_db
def test_every_tournament_page_shows_the_clock_bar(site: Site) -> None:
    for address in ("", "standings/", "seating/", "players/"):
        page = Client().get(f"/t/{site.tournament.slug}/{address}").content.decode()
        assert "data-clock-url" in page and "1:30:00" in page, address


@pytest.mark.django_db
def test_no_private_data_on_public_pages(site: Site) -> None:
    organiser = site.users["organiser"]
    organiser.email = "organiser@example.org"
    organiser.save()
    services.register_player(site.tournament, organiser, name="Ivy Ito", ema_id="04000123", country="JP")
    ivy = site.player("Ivy Ito")
    slug = site.tournament.slug
    for address in (
        f"/t/{slug}/",
        f"/t/{slug}/standings/",
        f"/t/{slug}/standings.json",
        f"/t/{slug}/players/",
        f"/t/{slug}/players/{ivy.pk}/",
        f"/t/{slug}/seating/",
        f"/t/{slug}/projector/",
    ):
        content = client_for(None).get(address).content.decode()
        assert "04000123" not in content and "@example.org" not in content, address
    assert "04000123" in client_for(organiser).get(f"/t/{slug}/manage/players/").content.decode()


@pytest.mark.django_db
def test_the_demo_tournament_pages_render() -> None:
    call_command("load_demo", "--force", stdout=StringIO())  # the tests run with DEBUG off
    client = Client()
    assert client.get("/t/demo-open/").status_code == 200
    assert b"Ines Garc" in client.get("/t/demo-open/standings/").content
    client.login(username="referee", password="mahjong-demo")
    assert b"Enter the sheet" in client.get("/t/demo-open/referee/").content
