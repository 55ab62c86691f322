"""The live standings cache: computed once per change, shared, and never a stampede of recomputations."""

from __future__ import annotations

from django.core.cache import cache

from tournament.models import Tournament
from tournament.standings_db import forget_live, live_key, remember_live

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
