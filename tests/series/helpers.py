"""Tournaments played by Ana, Ben, Cho and Dai (EMA ids, so that each registration links to its person),
each hanchan at one table with its final points, signed (WRC 2015 rules: 30,000 returned, uma 15/5)."""

from __future__ import annotations

from datetime import date
from typing import Any

from scoring import services as sheets
from tests.conftest import make_user, seat_table
from tournament import services
from tournament.models import Round, Tournament

EMA = {"Ana": "10990001", "Ben": "10990002", "Cho": "10990003", "Dai": "10990004"}
# Scores 22.4, -8.4, -20.1, 6.1: Ana 1st, Dai 2nd, Ben 3rd, Cho 4th.
FIRST = {"Ana": 37400, "Ben": 26600, "Cho": 24900, "Dai": 31100}
# Scores -10, 30, 10, -30: Ben 1st, Cho 2nd, Ana 3rd, Dai 4th.
SECOND = {"Ana": 25000, "Ben": 45000, "Cho": 35000, "Dai": 15000}


def played(slug: str, *hanchan: dict[str, Any], day: int = 1, **fields: Any) -> tuple[Tournament, Any]:
    """A tournament of ``len(hanchan)`` hanchan (or ``hanchan_count``), each signed with those points
    (or that sheet entry); returns it and its organiser."""
    tournament = Tournament.objects.create(
        name=f"{slug.title()} Cup",
        slug=slug,
        starts_on=date(2026, 3, day),
        ends_on=date(2026, 3, day),
        hanchan_count=fields.pop("hanchan_count", len(hanchan)),
        **fields,
    )
    organiser = make_user(f"organiser-{slug}", tournament, "organiser")
    players = [
        services.register_player(tournament, organiser, name=name, ema_id=ema_id)
        for name, ema_id in EMA.items()
    ]
    for number, points in enumerate(hanchan, start=1):
        round_ = Round.objects.create(tournament=tournament, number=number, status=Round.Status.STARTED)
        table = seat_table(round_, 1, players)
        # A sheet entry as it is (hand by hand), or the final points of each player.
        entry = (
            dict(points)
            if "form" in points
            else {"form": "final", "final_points": dict(points), "riichi_sticks_left": 0}
        )
        sheets.sign_sheet(sheets.save_sheet(table, entry, organiser, submit=True), organiser)
    tournament.refresh_from_db()
    return tournament, organiser
