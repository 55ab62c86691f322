"""Fixtures of the export tests: a small tournament that has everything an export can show."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from penalties import services as penalties
from scoring import services as sheets
from tests.conftest import make_user, seat_table
from tests.scoring import hanchan
from tournament import services
from tournament.models import Player, Round, SeatingJob, Tournament

TABLE_2_POINTS = [41200, 33500, 26300, 19000]
H2_TABLE_1_POINTS = [35000, 32000, 28000, 25000]
H2_TABLE_1_CORRECTED = [36000, 31000, 28000, 25000]
PLAYERS = [
    ("Ana", "JP", "10000001"),
    ("Ben", "DE", "10000002"),
    ("Cho", "FR", ""),
    ("Dai", "NL", "10000004"),
    ("Pieter de Vries", "NL", "10000005"),
    ("Łukasz Nowak", "PL", "10000006"),
    ("Chloé Martin", "FR", ""),
    ("Eve", "GB", "10000008"),
]


@pytest.fixture(autouse=True)
def media_root(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[None]:
    """Files of in-process exports go to a temporary folder. Integration tests keep the settings'
    folder (one per test session), which the worker process writes to as well."""
    settings_fixture = request.getfixturevalue("settings")
    # The staff users of the fixtures need no strong password hashing (it takes half a second a user).
    settings_fixture.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    if request.node.get_closest_marker("integration") is None:
        settings_fixture.MEDIA_ROOT = tmp_path / "media"
    yield


@pytest.fixture(scope="session", autouse=True)
def session_media() -> Iterator[None]:
    yield
    root = Path(settings.MEDIA_ROOT)
    if settings.TEST_RUN_ID and root.name == f"test-{settings.TEST_NAMESPACE}":
        shutil.rmtree(root, ignore_errors=True)


def final(names: list[str], points: list[int]) -> dict[str, Any]:
    return {"form": "final", "final_points": dict(zip(names, points, strict=True)), "riichi_sticks_left": 0}


@pytest.fixture
def played(tournament: Tournament, organiser: Any, head_referee: Any, referee: Any) -> Tournament:
    """Two hanchan of two tables, with every kind of record an archive holds.

    Hanchan 1: table 1 Ana, Ben, Cho, Dai hand by hand (tests/scoring/hanchan.py, a chombo of Cho);
    table 2 final points. Hanchan 2: Eve absent, replaced by the substitute Sam Sub; table 1 signed then
    corrected; table 2 a draft. Ben's lateness penalty revoked; Dai disqualified.
    """
    players = {
        name: Player.objects.create(tournament=tournament, name=name, country=country, ema_id=ema_id)
        for name, country, ema_id in PLAYERS
    }
    players["Ana"].user = make_user("ana")
    players["Ana"].save()
    services.check_in(players["Ben"], user=organiser)
    substitute = Player.objects.create(tournament=tournament, name="Sam Sub", is_substitute=True)
    p = players
    first = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    table_11 = seat_table(first, 1, [p["Ana"], p["Ben"], p["Cho"], p["Dai"]])
    table_12 = seat_table(first, 2, [p["Pieter de Vries"], p["Łukasz Nowak"], p["Chloé Martin"], p["Eve"]])
    second = Round.objects.create(tournament=tournament, number=2, status=Round.Status.SEATED)
    table_21 = seat_table(second, 1, [p["Ana"], p["Pieter de Vries"], p["Eve"], p["Cho"]])
    table_22 = seat_table(second, 2, [p["Ben"], p["Łukasz Nowak"], p["Dai"], p["Chloé Martin"]])
    services.operate_clock(first, organiser, "start")

    sheet = sheets.save_sheet(table_11, hanchan.entry("outcomes"), referee, submit=True)
    sheets.sign_sheet(sheet, referee)
    names = ["Pieter de Vries", "Łukasz Nowak", "Chloé Martin", "Eve"]
    sheet = sheets.save_sheet(table_12, final(names, TABLE_2_POINTS), referee, submit=True)
    sheets.sign_sheet(sheet, referee)

    services.replace_with_substitute(second, p["Eve"], substitute, organiser)
    # Booked by hand before the hanchan is complete (it would be booked when its last sheet is signed).
    penalties.give_penalty(
        p["Eve"], "missed_hanchan", organiser, round=second, reason="Absent: replaced by Sam Sub in hanchan 2"
    )
    late = penalties.give_penalty(p["Ben"], "lateness", head_referee, round=second, minutes_late=4)
    penalties.revoke_penalty(late, head_referee, reason="the clock had not started")
    second.status = Round.Status.STARTED
    second.save()
    names = ["Ana", "Pieter de Vries", "Sam Sub", "Cho"]
    sheet = sheets.save_sheet(table_21, final(names, H2_TABLE_1_POINTS), referee, submit=True)
    sheet = sheets.sign_sheet(sheet, referee)
    sheets.correct_sheet(sheet, final(names, H2_TABLE_1_CORRECTED), head_referee, reason="misread a stick")
    names = ["Ben", "Łukasz Nowak", "Dai", "Chloé Martin"]
    sheets.save_sheet(table_22, final(names, [30000, 30000, 30000, 30000]), referee)
    penalties.disqualify(p["Dai"], head_referee, reason="left without notice")
    services.update_player(p["Eve"], organiser, team="Owls")  # an audited change
    SeatingJob.objects.create(
        tournament=tournament,
        requested_by=organiser,
        seed=7,
        state=SeatingJob.State.DONE,
        progress=1.0,
        report={"repeat_pairs": 0, "wind_balance": 0.25},
    )
    tournament.refresh_from_db()
    return tournament
