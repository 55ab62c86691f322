"""The live standings cache: computed once per change, shared, and never a stampede of recomputations;
a live stream never sends the copy from before the change it announces."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.core.cache import cache

from scoring import services as sheets
from tests.scoring import hanchan
from tournament.models import Tournament
from tournament.queries import standings_db
from tournament.queries.live_standings import live_standings
from tournament.queries.standings_db import cached_summary, forget_live, live_key, remember_live

# Unsaved rows: the live cache reads only their id and standings version.
SEVEN, EIGHT = Tournament(pk=7), Tournament(pk=8)


def test_computed_once_until_something_changes() -> None:
    calls: list[int] = []

    def compute() -> dict[str, int]:
        calls.append(1)
        return {"n": len(calls)}

    assert remember_live(SEVEN, "page", compute) == {"n": 1}
    assert remember_live(SEVEN, "page", compute) == {"n": 1}
    forget_live(7)
    assert remember_live(SEVEN, "page", compute) == {"n": 2}
    assert len(calls) == 2


def test_while_one_process_recomputes_the_others_answer_with_the_previous_copy() -> None:
    remember_live(EIGHT, "api", lambda: {"n": 1})
    forget_live(8)
    # Another process has taken the recomputation of the new version.
    assert cache.add(f"{live_key(8, 'api')}:computing:0:1", 1, 10)
    assert remember_live(EIGHT, "api", lambda: {"n": 2}) == {"n": 1}


def test_a_new_standings_version_is_computed_without_any_bump_in_the_cache() -> None:
    # The standings version comes from the tournament's row: a change whose bump of the cache's
    # counter was lost (the cache was unreachable) still shows on the next request.
    nine = Tournament(pk=9, standings_version=4)
    assert remember_live(nine, "page", lambda: {"n": 1}) == {"n": 1}
    assert remember_live(nine, "page", lambda: {"n": 2}) == {"n": 1}
    nine.standings_version = 5
    assert remember_live(nine, "page", lambda: {"n": 3}) == {"n": 3}


def test_a_stream_waits_for_the_copy_of_the_change_another_process_computes() -> None:
    ten = Tournament(pk=10, standings_version=1)
    remember_live(ten, "page:None", lambda: {"n": 1})
    ten.standings_version = 2  # a change committed; another process is computing its copy
    assert cache.add(f"{live_key(10, 'page:None')}:computing:2:0", 1, 10)

    def other_process() -> None:
        time.sleep(0.05)
        cache.set(live_key(10, "page:None"), ((2, 0), {"n": 2}), 10)

    thread = threading.Thread(target=other_process)
    thread.start()
    try:
        # A page takes the previous copy for the moment; a stream, sending the change, waits for its copy
        # and does not compute it a second time.
        assert remember_live(ten, "page:None", lambda: {"n": "page computed"}) == {"n": 1}
        assert remember_live(ten, "page:None", lambda: {"n": "computed twice"}, fresh=True) == {"n": 2}
    finally:
        thread.join()


def test_a_stream_computes_the_copy_itself_when_the_other_process_never_delivers(monkeypatch: Any) -> None:
    monkeypatch.setattr(standings_db, "FRESH_WAIT_SECONDS", 0.05)
    eleven = Tournament(pk=11, standings_version=1)
    remember_live(eleven, "page:None", lambda: {"n": 1})
    eleven.standings_version = 2
    assert cache.add(f"{live_key(11, 'page:None')}:computing:2:0", 1, 10)  # and then it died
    assert remember_live(eleven, "page:None", lambda: {"n": 2}, fresh=True) == {"n": 2}


def test_readers_of_a_new_standings_version_wait_for_the_one_computing_it(monkeypatch: Any) -> None:
    twelve = Tournament(pk=12, standings_version=3)
    summary = {"rounds": [], "rows": [{"name": "Ana"}]}
    assert cache.add(standings_db._refreshing_key(12, 3), 1, 10)  # the change's own process refreshes

    def refreshing_process() -> None:
        time.sleep(0.05)
        cache.set(standings_db.summary_key(12, 3), summary, 10)

    def computed_here(tournament_id: int) -> Any:
        raise AssertionError("a second computation of the same standings version")

    monkeypatch.setattr(standings_db, "_refresh", computed_here)
    thread = threading.Thread(target=refreshing_process)
    thread.start()
    try:
        assert cached_summary(twelve) == summary
    finally:
        thread.join()


@pytest.mark.django_db(transaction=True)
def test_a_signature_computes_the_public_standings_once_before_its_notice(
    tournament: Tournament, seated_table: Any, referee: Any
) -> None:
    sheets.sign_sheet(sheets.save_sheet(seated_table, hanchan.entry("final"), referee, submit=True), referee)
    tournament.refresh_from_db()
    # The live streams and pages find the change's public standings in the cache: nobody computes them.
    payload = remember_live(tournament, "page:None", lambda: pytest.fail("computed again"), fresh=True)
    assert payload["rows"][0]["name"] == "Ana" and payload["rows"][0]["total"] == "22.4"
    assert payload == live_standings(tournament)


def test_nobody_waits_for_a_computation_that_no_process_holds(monkeypatch: Any) -> None:
    # The flag expired, or the cache cannot be reached (its add fails as a miss): nothing is coming.
    monkeypatch.setattr(standings_db.time, "sleep", lambda seconds: pytest.fail("waited for nothing"))
    assert standings_db._computed_elsewhere("standings:none", "none:computing", lambda found: True) is None
