"""A club session in a series: its results count under the series' rule as a tournament's do, each
player's total the sum of the hanchan they played there, worked out by hand."""

from __future__ import annotations

from datetime import date

import pytest

from scoring import services as sheets
from tests.conftest import make_user
from tests.series.helpers import EMA, FIRST, played
from tournament import services
from tournament.models import Player, Series, Tournament
from tournament.queries.series_db import series_table


def standings(series: Series) -> list[tuple[int | None, str, str, int]]:
    return [(row["rank"], row["name"], row["score"], row["events"]) for row in series_table(series)["rows"]]


def club_night() -> Tournament:
    """Ana, Ben, Cho and Dai (their EMA ids: the persons of the spring cup), Eve (no EMA id: a registration
    alone) and Gus (checked in, plays nothing). WRC 2015 rules: (points - 30,000) / 1,000 + uma 15/5.

    Hanchan 1: Ana 45,000 (+30), Ben 35,000 (+10), Cho 25,000 (-10), Eve 15,000 (-30).
    Hanchan 2: Eve 40,000 (+25), Dai 32,000 (+7), Ana 28,000 (-7), Cho 20,000 (-25).
    The session: Ana 23 (1st), Ben 10 (2nd), Dai 7 (3rd), Eve -5 (4th), Cho -35 (5th); Gus unranked."""
    tournament = Tournament.objects.create(
        name="Club Night",
        slug="club-night",
        kind=Tournament.Kind.CLUB,
        starts_on=date(2026, 3, 5),
        ends_on=date(2026, 3, 5),
        hanchan_count=1,
    )
    organiser = make_user("organiser-club-night", tournament, "organiser")
    players = {
        name: services.register_player(tournament, organiser, name=name, ema_id=EMA.get(name, ""))
        for name in ("Ana", "Ben", "Cho", "Dai", "Eve", "Gus")
    }
    services.check_in_many(list(players.values()), user=organiser)
    for names, points in (
        (("Ana", "Ben", "Cho", "Eve"), (45000, 35000, 25000, 15000)),
        (("Eve", "Dai", "Ana", "Cho"), (40000, 32000, 28000, 20000)),
    ):
        table = services.form_table(tournament, organiser, [players[name].pk for name in names])
        entry = {
            "form": "final",
            "final_points": dict(zip(names, points, strict=True)),
            "riichi_sticks_left": 0,
        }
        sheets.sign_sheet(sheets.save_sheet(table, entry, organiser, submit=True), organiser)
    assert Player.objects.get(tournament=tournament, name="Gus").status == Player.Status.CHECKED_IN
    return tournament


@pytest.mark.django_db
def test_a_club_session_counts_in_a_series_like_a_tournament() -> None:
    spring, _ = played("spring", FIRST)  # Ana 22.4 (1st), Dai 6.1 (2nd), Ben -8.4 (3rd), Cho -20.1 (4th)
    series = Series.objects.create(name="Season", slug="season")
    series.tournaments.set([spring, club_night()])
    # Sum: Ana 22.4 + 23 = 45.4, Dai 6.1 + 7 = 13.1, Ben -8.4 + 10 = 1.6, Eve -5, Cho -20.1 - 35 = -55.1.
    assert standings(series) == [
        (1, "Ana", "45.4", 2),
        (2, "Dai", "13.1", 2),
        (3, "Ben", "1.6", 2),
        (4, "Eve", "-5", 1),
        (5, "Cho", "-55.1", 2),
    ]
    # Points 10, 6, 3, 1: spring Ana 10, Dai 6, Ben 3, Cho 1; the session Ana 10, Ben 6, Dai 3, Eve 1,
    # Cho 0 (5th, beyond the table).
    series.rule, series.points = Series.Rule.POINTS_PER_RANK, ["10", "6", "3", "1"]
    assert standings(series) == [
        (1, "Ana", "20", 2),
        (2, "Ben", "9", 2),
        (2, "Dai", "9", 2),
        (4, "Cho", "1", 2),
        (4, "Eve", "1", 1),
    ]
