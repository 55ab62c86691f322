"""Sign-ups changed at the same moment, on PostgreSQL (real row locks, each call in a thread of its own
connection): two cancellations at once promote two people, never the same place twice; two confirmations
for the last place give it once. Both fail with the tournament's row lock
(``services.signups.locked_tournament``) taken out: the one guard, as each sign-up row is locked alone."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import psycopg
import pytest
from django.db import connection
from django.utils import timezone

from tests.tournament.test_club_sessions import race
from tournament.core.refusal import Refusal
from tournament.models import AuditEntry, RegistrationSettings, SignUp, Tournament
from tournament.services import signups

pytestmark = pytest.mark.django_db(transaction=True)
ATTEMPTS = 3


def held(calls: list[object], hold: str, params: list[object]) -> list[object]:
    """Run the calls at once while another connection holds a lock (``hold``), until every call waits
    for a lock, then let go: each call has then read what it reads before that point, so without the
    tournament's row lock both would count the places with the other's change not yet committed."""
    db = connection.settings_dict
    outcomes: list[object] = []
    with psycopg.connect(
        host=db["HOST"],
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db["PASSWORD"] or None,
        dbname=db["NAME"],
    ) as holder:
        holder.execute(hold, params)  # type: ignore[arg-type]
        runner = threading.Thread(target=lambda: outcomes.extend(race(calls)))  # type: ignore[arg-type]
        runner.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with psycopg.connect(
                host=db["HOST"],
                port=db["PORT"] or 5432,
                user=db["USER"],
                password=db["PASSWORD"] or None,
                dbname=db["NAME"],
            ) as watcher:
                row = watcher.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
                    [db["NAME"]],
                ).fetchone()
            if row is not None and row[0] >= len(calls):
                break
            time.sleep(0.05)
        holder.rollback()
    runner.join(30)
    return outcomes


def confirmed(tournament: Tournament, name: str) -> SignUp:
    signup = signups.sign_up(
        tournament,
        {"last_name": "Alves", "first_name": name, "email": f"{name.lower()}@example.org", "consent": "on"},
        address=f"10.0.0.{len(name)}",
        language="en",
    )
    assert signup is not None
    return signups.confirm(tournament, signups.confirm_token(signup))


def test_two_cancellations_at_once_promote_the_first_two_waiting_each_once(tournament: Tournament) -> None:
    assert connection.vendor == "postgresql", "this test needs real row locks"
    RegistrationSettings.objects.create(
        tournament=tournament, opens_at=timezone.now() - timedelta(days=1), capacity=2, waiting_list=True
    )
    for attempt in range(ATTEMPTS):
        SignUp.objects.all().delete()
        ana, ben, cho, dai, eve = (
            confirmed(tournament, f"{n}{'x' * attempt}") for n in ("Ana", "Ben", "Cho", "Dai", "Eve")
        )
        outcomes = held(
            [
                lambda: signups.cancel_by_player(tournament, signups.manage_token(ana)),  # noqa: B023
                lambda: signups.cancel_by_player(tournament, signups.manage_token(ben)),  # noqa: B023
            ],
            "SELECT 1 FROM tournament_signup WHERE id = %s FOR UPDATE",  # the first waiting's row
            [cho.pk],
        )
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        states = dict(SignUp.objects.values_list("pk", "state"))
        assert states == {
            ana.pk: "cancelled",
            ben.pk: "cancelled",
            cho.pk: "registered",
            dai.pk: "registered",
            eve.pk: "waiting_list",
        }
        promotions = AuditEntry.objects.filter(
            action="signup.promote", subject__in=[f"sign-up {s.name}" for s in (cho, dai)]
        )
        assert promotions.count() == 2


def test_two_confirmations_for_the_last_place_give_it_once(tournament: Tournament) -> None:
    assert connection.vendor == "postgresql", "this test needs real row locks"
    RegistrationSettings.objects.create(
        tournament=tournament, opens_at=timezone.now() - timedelta(days=1), capacity=1, waiting_list=False
    )
    for attempt in range(ATTEMPTS):
        SignUp.objects.all().delete()
        rows = []
        for name in ("Ana", "Ben"):
            row = signups.sign_up(
                tournament,
                {
                    "last_name": "Alves",
                    "first_name": name,
                    "email": f"{name}{attempt}@example.org",
                    "consent": "on",
                },
                address=f"10.1.{attempt}.{len(rows)}",
                language="en",
            )
            assert row is not None
            rows.append(row)
        outcomes = held(
            [lambda s=s: signups.confirm(tournament, signups.confirm_token(s)) for s in rows],  # type: ignore[misc]
            "LOCK TABLE tournament_auditentry IN EXCLUSIVE MODE",
            [],
        )
        refused = [o for o in outcomes if isinstance(o, Refusal)]
        assert len(refused) == 1 and refused[0].rule == "registration-full", outcomes
        assert SignUp.objects.filter(state="registered").count() == 1


def test_a_sign_up_does_not_wait_for_a_confirmation_holding_the_places(tournament: Tournament) -> None:
    """While a confirmation holds the tournament's row (``locked_tournament``), a sign-up goes through:
    its rows refer to the tournament (``FOR KEY SHARE``), which the lock must not block, or every sign-up
    of an opening rush queues behind every confirmation. Under ``FOR UPDATE`` the insert waits for the
    lock and ends at the lock timeout."""
    from django.db import close_old_connections, transaction

    assert connection.vendor == "postgresql", "this test needs real row locks"
    RegistrationSettings.objects.create(
        tournament=tournament, opens_at=timezone.now() - timedelta(days=1), capacity=10, waiting_list=True
    )
    locked, release = threading.Event(), threading.Event()

    def confirmation_in_progress() -> None:
        try:
            with transaction.atomic():
                signups.locked_tournament(tournament)
                locked.set()
                release.wait(30)
        finally:
            close_old_connections()
            connection.close()

    holder = threading.Thread(target=confirmation_in_progress)
    holder.start()
    try:
        assert locked.wait(30)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '3s'")  # a wait for the lock fails instead of hanging
        signup = signups.sign_up(
            tournament,
            {"last_name": "Alves", "first_name": "Ana", "email": "ana@example.org", "consent": "on"},
            address="10.2.0.1",
            language="en",
        )
    finally:
        release.set()
        holder.join(30)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")
    assert signup is not None and SignUp.objects.filter(pk=signup.pk, state="unconfirmed").exists()
