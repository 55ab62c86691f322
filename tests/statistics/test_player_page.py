"""The statistics on a player's page: figures worked out by hand, and nothing of a hidden hanchan for the
public (the standings' hidden hanchan, WRCR-independent publication rules) while staff see all."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tournament.models import Tournament


def stats_of(client: Client, tournament: Tournament, name: str) -> dict[str, str]:
    player = tournament.players.get(name=name)
    page = client.get(f"/t/{tournament.slug}/players/{player.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    return {
        key: re.sub(r"\s+", " ", value).strip()
        for key, value in re.findall(r'<dd data-stat="(\w+)">(.*?)</dd>', html, re.S)
    }


@pytest.mark.django_db
def test_the_figures_of_two_hanchan(played: Tournament, referee: Any) -> None:
    staff = Client()
    staff.force_login(referee)
    ana = stats_of(staff, played, "Ana")
    # Hanchan 1 (10 hands played: 11 entries less the chombo): Ana wins hands 5 (1,000), 6 (tsumo 12,000)
    # and 11 (1,000), deals in on hands 4 and 8, never declares riichi; first with 37,400 (22.4).
    # Hanchan 2 (1 hand): Ana wins a tsumo yakuman (48,000); first with 78,000: (78,000 - 30,000) / 1,000
    # + 15 uma = 63.0.
    assert ana["placements"] == "1st 2 · 2nd 0 · 3rd 0 · 4th 0"
    assert ana["average_score"] == "42.70"  # (22.4 + 63.0) / 2
    assert ana["average_points"] == "57,700"  # (37,400 + 78,000) / 2
    assert ana["hands"] == "11 in 2 hanchan entered hand by hand"
    assert ana["win_rate"] == "36.4 % (4)"  # 4 / 11
    assert ana["deal_in_rate"] == "18.2 % (2)"  # 2 / 11
    assert ana["riichi_rate"] == "0.0 % (0)"
    assert ana["tsumo_share"] == "50.0 % of wins (2)"  # 2 / 4
    assert ana["average_win_value"] == "15,500"  # (1,000 + 12,000 + 1,000 + 48,000) / 4
    assert ana["yakuman"] == "1" and ana["chombo"] == "0"
    cho = stats_of(staff, played, "Cho")
    assert cho["chombo"] == "1" and cho["riichi_rate"] == "9.1 % (1)"  # hanchan 1, hand 2


@pytest.mark.django_db
def test_a_hidden_hanchan_does_not_leak(played: Tournament, referee: Any) -> None:
    played.hidden_hanchan = 3  # of 5: the public sees the standings after hanchan 2 at most
    played.save()
    public = Client()
    assert stats_of(public, played, "Ana")["yakuman"] == "1"
    played.hidden_hanchan = 4  # now hanchan 2 is hidden from the public
    played.save()
    ana = stats_of(public, played, "Ana")
    assert ana["yakuman"] == "0"
    assert ana["hands"] == "10 in 1 hanchan entered hand by hand"
    assert ana["placements"] == "1st 1 · 2nd 0 · 3rd 0 · 4th 0"
    assert ana["win_rate"] == "30.0 % (3)"
    html = public.get(f"/t/{played.slug}/players/{played.players.get(name='Ana').pk}/").content.decode()
    assert "78,000" not in html and "Hanchan 2: 78000" not in html
    staff = Client()
    staff.force_login(referee)
    assert stats_of(staff, played, "Ana")["yakuman"] == "1"


@pytest.mark.django_db
def test_unpublished_seating_hides_its_hanchan(played: Tournament, organiser: Any) -> None:
    played.seating_publication = Tournament.SeatingPublication.BY_HANCHAN
    played.save()
    played.rounds.filter(number=1).update(published_at="2026-05-01T09:00:00Z")
    ana = stats_of(Client(), played, "Ana")
    assert ana["yakuman"] == "0" and ana["hands"].startswith("10 in 1 ")


@pytest.mark.django_db
def test_the_points_chart_is_drawn_without_inline_style(played: Tournament) -> None:
    ana = played.players.get(name="Ana")
    html = Client().get(f"/t/{played.slug}/players/{ana.pk}/").content.decode()
    chart = re.search(r'<svg class="chart points-chart".*?</svg>', html, re.S)
    assert chart is not None
    assert "hanchan 1 ends with 37400; hanchan 2 ends with 78000" in chart.group(0)
    assert chart.group(0).count("<polyline") == 2 and "style=" not in chart.group(0)
    # Hanchan 1: the start and 11 points after each entry (the chombo re-deal too).
    first = re.findall(r'<polyline class="line" points="([^"]+)"', chart.group(0))[0]
    assert len(first.split()) == 12


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["de", "fr", "ru"])
def test_the_charts_coordinates_are_numbers_in_every_language(played: Tournament, language: str) -> None:
    """A language that writes 156,0 must not reach the SVG's coordinates: the charts draw in any language."""
    ana = played.players.get(name="Ana")
    client = Client(headers={"accept-language": language})
    html = client.get(f"/t/{played.slug}/players/{ana.pk}/").content.decode()
    charts = re.findall(r'<svg class="chart.*?</svg>', html, re.S)
    assert len(charts) == 2
    for chart in charts:
        coordinates = re.findall(r'\s(?:x|y|x1|y1|x2|y2|cx|cy|dx|dy)="([^"]*)"', chart)
        coordinates += " ".join(re.findall(r'points="([^"]+)"', chart)).replace(",", " ").split()
        assert coordinates and all(re.fullmatch(r"-?\d+(\.\d+)?", value) for value in coordinates), chart
