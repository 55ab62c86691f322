"""Fixtures of the page tests: a tournament with a signed table and an open one, and a user of each kind."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest
from django.test import Client

from scoring import services as sheets
from tests.conftest import make_user, seat_table
from tests.scoring import hanchan
from tournament.models import Player, SeatingJob, Tournament

PASSWORD = "pw-for-tests-only"


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    """The tests create many users: a fast hasher instead of the real one's deliberate slowness."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@dataclass
class Site:
    tournament: Tournament
    table_1: Any  # hanchan 1, table 1: Ana, Ben, Cho, Dai; a signed sheet
    table_2: Any  # hanchan 1, table 2: Eve, Fay, Gus, Hal; no sheet
    job: SeatingJob
    users: dict[str, Any]

    def player(self, name: str) -> Player:
        return self.tournament.players.get(name=name)


@pytest.fixture
def site(tournament: Tournament, seated_table: Any, referee: Any, head_referee: Any, organiser: Any) -> Site:
    round_ = seated_table.round
    others = [Player.objects.create(tournament=tournament, name=n) for n in ("Eve", "Fay", "Gus", "Hal")]
    table_2 = seat_table(round_, 2, others)
    signed = sheets.save_sheet(seated_table, hanchan.entry("final"), referee, submit=True)
    sheets.sign_sheet(signed, referee)
    job = SeatingJob.objects.create(tournament=tournament, state=SeatingJob.State.DONE, progress=1.0)
    elsewhere = Tournament.objects.create(
        name="Elsewhere Cup",
        slug="elsewhere",
        starts_on=date(2026, 6, 1),
        ends_on=date(2026, 6, 1),
        hanchan_count=4,
    )
    admin = make_user("admin")
    admin.is_superuser = admin.is_staff = True
    admin.save()
    users = {
        "anonymous": None,
        "nobody": make_user("nobody"),
        "other_referee": make_user("other-referee", elsewhere, "referee"),
        "referee": referee,
        "head_referee": head_referee,
        "organiser": organiser,
        "admin": admin,
    }
    return Site(tournament, seated_table, table_2, job, users)


def client_for(user: Any, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client
