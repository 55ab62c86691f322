"""Fixtures of the API tests: a tournament in play, with a user of every role, each with a token.

``world``: "Test Open" (public, 2 hanchan), 12 checked-in players and 2 substitutes; hanchan 1 started
with three tables (table 1 signed, table 2 submitted, table 3 without a sheet), hanchan 2 seated the
same way; a phone penalty on Ben; a finished seating job. "Closed Cup" is private, with the same staff
and one seated table. "Other Cup" has the outsider referee.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.db import transaction
from django.test import override_settings
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from exports.models import ExportJob
from penalties import services as penalties
from scoring import services as sheets
from tests.conftest import make_players, make_user, seat_table
from tests.scoring import hanchan
from tournament.models import (
    Person,
    Player,
    RegistrationSettings,
    Round,
    SeatingJob,
    Series,
    StaffRole,
    Table,
    Tournament,
)
from tournament.services import signups

PASSWORD = "pw-for-tests-only"  # tests.conftest.make_user's
ROLES = ("anonymous", "player", "referee", "head_referee", "organiser", "admin", "other_referee")


def final_entry(
    names: list[str], points: tuple[int, int, int, int] = (40000, 32000, 28000, 20000)
) -> dict[str, Any]:
    return {"form": "final", "final_points": dict(zip(names, points, strict=True)), "riichi_sticks_left": 0}


@dataclass
class World:
    tournament: Tournament
    private: Tournament
    other: Tournament
    users: dict[str, Any]
    tokens: dict[str, str]
    players: dict[str, Player]
    tables: dict[str, Table]
    ids: dict[str, int] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)  # sign-ups' tokens, as their emailed links hold

    def client(self, role: str) -> APIClient:
        """An API client authenticated by the role's token (none for "anonymous")."""
        client = APIClient()
        if role != "anonymous":
            client.credentials(HTTP_AUTHORIZATION=f"Token {self.tokens[role]}")
        return client

    def names(self, table: str) -> list[str]:
        return [
            seat.player.name for seat in self.tables[table].seats.select_related("player").order_by("wind")
        ]


def new_tournament(name: str, slug: str, **fields: Any) -> Tournament:
    return Tournament.objects.create(
        name=name, slug=slug, starts_on=date(2026, 5, 1), ends_on=date(2026, 5, 2), hanchan_count=2, **fields
    )


@pytest.fixture(autouse=True)
def quick_passwords(settings: Any) -> None:
    """Real password checks, with a hasher fast enough for dozens of users per test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db: None) -> World:
    return build_world()


@pytest.fixture(scope="module")
def shared_world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """The world built once for a module whose tests only read it, or change it inside a savepoint they
    roll back (each test still runs in a transaction of its own, nested in this one): set-up paid once,
    not per test. Rolled back when the module is done."""
    quick = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    with django_db_blocker.unblock(), transaction.atomic():
        with quick:  # the hasher the tests check the passwords with (quick_passwords)
            world = build_world()
        yield world
        transaction.set_rollback(True)


def build_world() -> World:
    tournament = new_tournament("Test Open", "test-open")
    private = new_tournament("Closed Cup", "closed-cup", is_public=False)
    other = new_tournament("Other Cup", "other-cup")
    users = {
        "player": make_user("player"),
        "referee": make_user("referee", tournament, StaffRole.Role.REFEREE),
        "head_referee": make_user("head", tournament, StaffRole.Role.HEAD_REFEREE),
        "organiser": make_user("organiser", tournament, StaffRole.Role.ORGANISER),
        "other_referee": make_user("outsider", other, StaffRole.Role.REFEREE),
    }
    admin = make_user("admin")
    admin.is_superuser = admin.is_staff = True
    admin.save()
    users["admin"] = admin
    for role in ("referee", "head_referee", "organiser"):
        StaffRole.objects.create(tournament=private, user=users[role], role=role)
    tokens = {role: Token.objects.create(user=user).key for role, user in users.items()}

    named = [
        Player.objects.create(tournament=tournament, name=name, status=Player.Status.CHECKED_IN)
        for name in ("Ana", "Ben", "Cho", "Dai")
    ]
    field_players = named + make_players(tournament, 8, prefix="Player", status=Player.Status.CHECKED_IN)
    substitutes = make_players(tournament, 2, prefix="Sub", is_substitute=True)
    round1 = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    round2 = Round.objects.create(tournament=tournament, number=2, status=Round.Status.SEATED)
    groups = [field_players[0:4], field_players[4:8], field_players[8:12]]
    tables = {f"t{n}": seat_table(round1, n, group) for n, group in enumerate(groups, start=1)}
    for n, group in enumerate(groups, start=1):
        tables[f"r2t{n}"] = seat_table(round2, n, group)

    referee, head = users["referee"], users["head_referee"]
    signed = sheets.save_sheet(tables["t1"], hanchan.entry("final"), referee, submit=True)
    sheets.sign_sheet(signed, referee)
    second = [p.name for p in groups[1]]
    sheets.save_sheet(tables["t2"], final_entry(second), referee, submit=True)
    penalty = penalties.give_penalty(named[1], "phone", head, points=3, reason="ringing")
    job = SeatingJob.objects.create(
        tournament=tournament, requested_by=users["organiser"], state=SeatingJob.State.DONE, progress=1.0
    )

    export = ExportJob.objects.create(
        tournament=tournament,
        exporter="standings_csv",
        requested_by=users["organiser"],
        state=ExportJob.State.DONE,
        progress=1.0,
        filename="test-open-standings.csv",
        content_type="text/csv; charset=utf-8",
        expires_at=timezone.now() + timedelta(hours=1),
    )
    export.file.save("standings_csv.csv", ContentFile(b"Rank,Name\r\n"))

    private_players = make_players(private, 4, prefix="Closed")
    private_round = Round.objects.create(tournament=private, number=1, status=Round.Status.SEATED)
    tables["private_table"] = seat_table(private_round, 1, private_players)

    players = {p.name: p for p in [*field_players, *substitutes]}
    # A person (Ana) with a registration in Test Open, another only in the private Closed Cup, and a
    # series of both tournaments made by the organiser.
    person = Person.objects.create(name="Ana")
    Player.objects.filter(pk=named[0].pk).update(person=person)
    private_person = Person.objects.create(name=private_players[0].name)
    Player.objects.filter(pk=private_players[0].pk).update(person=private_person)
    series = Series.objects.create(name="Season", slug="season", created_by=users["organiser"])
    series.tournaments.set([tournament, private])
    signed_up, links = sign_ups(tournament, users["organiser"])
    world = World(tournament, private, other, users, tokens, players, tables, links=links)
    world.ids = {
        "t": tournament.pk,
        "private": private.pk,
        "penalty": penalty.pk,
        "job": job.pk,
        "export": export.pk,
        "referee_role": StaffRole.objects.get(tournament=tournament, user=referee).pk,
        **{name: table.pk for name, table in tables.items()},
        "ana": players["Ana"].pk,
        "ben": players["Ben"].pk,
        "dai": players["Dai"].pk,
        "t3_player": players["Player 005"].pk,  # East at table 3 of each hanchan
        "sub1": players["Sub 001"].pk,
        "sub2": players["Sub 002"].pk,
        "person": person.pk,
        "private_person": private_person.pk,
        "series": series.pk,
        **{f"signup_{name}": signup.pk for name, signup in signed_up.items()},
    }
    return world


def sign_ups(tournament: Tournament, organiser: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """Test Open's registration, open with 2 places, the organiser's approval and a waiting list: Sara
    registered, Ava awaiting approval, Wes on the waiting list, Uma unconfirmed (each through the
    services, as the page makes them), with the tokens of their links."""
    RegistrationSettings.objects.create(
        tournament=tournament,
        opens_at=timezone.now() - timedelta(days=1),
        closes_at=timezone.now() + timedelta(days=30),
        capacity=2,
        needs_approval=True,
        waiting_list=True,
    )
    made = {}
    for name in ("sara", "ava", "wes", "uma"):
        fields = {"last_name": "Silva", "first_name": name.capitalize(), "country": "PT", "consent": True}
        signup = signups.sign_up(
            tournament, {**fields, "email": f"{name}@example.org"}, address="192.0.2.1", language="en"
        )
        assert signup is not None
        if name != "uma":
            signups.confirm(tournament, signups.confirm_token(signup))
        made[name] = signup
    signups.approve(made["sara"], organiser)
    links = {
        **{f"{name}_me": signups.manage_token(signup) for name, signup in made.items()},
        "uma_confirm": signups.confirm_token(made["uma"]),
    }
    return made, links
