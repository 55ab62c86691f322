"""The live standings cache: computed once per change, shared, and never a stampede of recomputations."""

from __future__ import annotations

from django.core.cache import cache

from tournament.standings_db import forget_live, live_key, remember_live


def test_computed_once_until_something_changes() -> None:
    calls: list[int] = []

    def compute() -> dict[str, int]:
        calls.append(1)
        return {"n": len(calls)}

    assert remember_live(7, "page", compute) == {"n": 1}
    assert remember_live(7, "page", compute) == {"n": 1}
    forget_live(7)
    assert remember_live(7, "page", compute) == {"n": 2}
    assert len(calls) == 2


def test_while_one_process_recomputes_the_others_answer_with_the_previous_copy() -> None:
    remember_live(8, "api", lambda: {"n": 1})
    forget_live(8)
    # Another process has taken the recomputation of the new version.
    assert cache.add(f"{live_key(8, 'api')}:computing:1", 1, 10)
    assert remember_live(8, "api", lambda: {"n": 2}) == {"n": 1}
