"""A hanchan's status follows its score sheets, with or without its clock: seated, then being played
once a table submits, then finished when its last table is signed; the current hanchan (home, standings,
projector, clock, "my tables") is the first not finished. Two last tables signed at once still finish it."""

from __future__ import annotations

import threading
import time
from importlib import import_module
from typing import Any

import pytest
from django.apps import apps
from django.db import connection, connections, transaction
from django.test import Client

from scoring import services as sheets
from tests.conftest import make_players, seat_table
from tournament import services
from tournament.models import Player, Round, Tournament

Status = Round.Status


def entry(table: Any) -> dict[str, Any]:
    names = [seat.player.name for seat in table.seats.order_by("wind")]
    points = (40000, 30000, 30000, 20000)
    return {"form": "final", "final_points": dict(zip(names, points, strict=True)), "riichi_sticks_left": 0}


def seated(tournament: Tournament, number: int, players: list[Player]) -> list[Any]:
    round_ = Round.objects.create(tournament=tournament, number=number, status=Status.SEATED)
    return [seat_table(round_, i + 1, players[4 * i : 4 * i + 4]) for i in range(len(players) // 4)]


def status(number: int) -> str:
    return Round.objects.get(number=number).status


@pytest.mark.django_db
def test_a_hanchan_played_without_its_clock_starts_with_a_submission_and_ends_with_the_last_signature(
    tournament: Tournament, referee: Any
) -> None:
    players = make_players(tournament, 8, status=Player.Status.CHECKED_IN)
    first = seated(tournament, 1, players)
    seated(tournament, 2, players[::-1])
    draft = sheets.save_sheet(first[0], entry(first[0]), referee)
    assert status(1) == Status.SEATED  # a draft says nothing: the table may not have played yet
    sheets.save_sheet(first[0], entry(first[0]), referee, submit=True, expected_version=draft.version)
    assert status(1) == Status.STARTED
    assert services.current_round(tournament).number == 1
    sheets.sign_sheet(first[0].sheet, referee)
    assert status(1) == Status.STARTED  # table 2 still plays
    sheets.sign_sheet(sheets.save_sheet(first[1], entry(first[1]), referee, submit=True), referee)
    assert status(1) == Status.FINISHED and status(2) == Status.SEATED
    assert services.current_round(tournament).number == 2

    # What the public sees: the next hanchan, not the one whose clock nobody started.
    home = Client().get(f"/t/{tournament.slug}/").content.decode()
    assert "<b>Hanchan 2</b> of 5" in home and "seated, not started" in home
    clock = Client().get(f"/t/{tournament.slug}/clock.json").json()
    assert (clock["round"], clock["round_status"], clock["state"]) == (2, "seated", "stopped")
    assert [t.round.number for t in services.tables_of_referee(referee, tournament)] == [2, 2]


@pytest.mark.django_db
def test_the_clock_page_says_the_hanchan_ends_by_itself_and_a_started_clock_changes_nothing(
    tournament: Tournament, organiser: Any, referee: Any
) -> None:
    players = make_players(tournament, 4, status=Player.Status.CHECKED_IN)
    (table,) = seated(tournament, 1, players)
    services.operate_clock(Round.objects.get(number=1), organiser, "start")
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/t/{tournament.slug}/clock/").content.decode()
    assert "finishes by itself when its last table" in page and "Start the hanchan first" not in page
    sheets.sign_sheet(sheets.save_sheet(table, entry(table), referee, submit=True), referee)
    assert status(1) == Status.FINISHED and services.current_round(tournament) is None


@pytest.mark.django_db(transaction=True)
def test_the_last_two_tables_signed_at_the_same_moment_finish_the_hanchan(
    tournament: Tournament, referee: Any
) -> None:
    """The second signature waits for the first one's lock on the hanchan, so it counts the first one's
    table as signed. Without that lock each would count the other's table as unsigned (neither has
    committed) and the hanchan would never finish."""
    assert connection.vendor == "postgresql", "this test needs PostgreSQL's row locks"
    players = make_players(tournament, 8, status=Player.Status.CHECKED_IN)
    tables = seated(tournament, 1, players)
    submitted = [sheets.save_sheet(table, entry(table), referee, submit=True) for table in tables]
    first_signed, may_commit = threading.Event(), threading.Event()
    second_pid: list[int] = []
    failures: list[BaseException] = []

    def first() -> None:
        try:
            with transaction.atomic():
                sheets.sign_sheet(submitted[0], referee)
                first_signed.set()
                may_commit.wait(30)  # until the second signature waits for this transaction's locks
        except BaseException as error:  # reported by the test
            failures.append(error)
            first_signed.set()
        finally:
            connections.close_all()

    def second() -> None:
        try:
            first_signed.wait(30)
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                second_pid.append(cursor.fetchone()[0])
            sheets.sign_sheet(submitted[1], referee)
        except BaseException as error:  # reported by the test
            failures.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 20
    while not waiting_for_a_lock(second_pid):
        assert time.monotonic() < deadline and not failures, failures or "the second never waited"
        time.sleep(0.02)
    may_commit.set()
    for thread in threads:
        thread.join(30)
    assert not failures, failures
    assert status(1) == Status.FINISHED


def waiting_for_a_lock(pids: list[int]) -> bool:
    if not pids:
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pids[0]])
        row = cursor.fetchone()
    return row is not None and row[0] == "Lock"


@pytest.mark.django_db
def test_the_migration_brings_existing_hanchan_to_where_their_sheets_say(
    tournament: Tournament, referee: Any
) -> None:
    """Tournaments played before: a hanchan fully signed but never finished by hand is finished, one with
    a submitted sheet but no clock is being played, one with only a draft stays seated."""
    migration = import_module("tournament.migrations.0024_hanchan_follow_play")
    players = make_players(tournament, 4, status=Player.Status.CHECKED_IN)
    tables = {number: seated(tournament, number, players)[0] for number in (1, 2, 3, 4)}
    for number in (1, 2):  # signed, as before: the sheets' signatures left the hanchan as they were
        sheets.sign_sheet(
            sheets.save_sheet(tables[number], entry(tables[number]), referee, submit=True), referee
        )
    sheets.save_sheet(tables[3], entry(tables[3]), referee, submit=True)
    sheets.save_sheet(tables[4], entry(tables[4]), referee)
    Round.objects.filter(number=1).update(status=Status.STARTED)
    Round.objects.filter(number__in=[2, 3, 4]).update(status=Status.SEATED)
    Round.objects.create(tournament=tournament, number=5, status=Status.SEATED)  # no table yet
    migration.follow_play(apps, None)
    assert [status(n) for n in (1, 2, 3, 4, 5)] == ["finished", "finished", "started", "seated", "seated"]
