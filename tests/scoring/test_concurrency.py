"""Two referees submitting the same table at the same moment end with one sheet, not two (PostgreSQL)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from scoring import services
from scoring.models import ScoreSheet, SheetVersion
from tests.conftest import make_user
from tests.scoring import hanchan
from tournament.core.refusal import CONFLICT, Refusal


@pytest.mark.django_db(transaction=True)
def test_simultaneous_submissions_leave_exactly_one_sheet(seated_table: Any, referee: Any) -> None:
    assert connection.vendor == "postgresql", "this test needs real row locks and unique indexes"
    second_referee = make_user("referee2", seated_table.round.tournament, "referee")
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def submit(user: Any, form: str) -> None:
        try:
            barrier.wait()
            outcomes.append(services.save_sheet(seated_table, hanchan.entry(form), user, submit=True))
        except Exception as exc:  # the test inspects whatever each submission ended with
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=submit, args=args)
        for args in ((referee, "final"), (second_referee, "deltas"))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(type(o).__name__ for o in outcomes) == ["Refusal", "ScoreSheet"]
    conflict = next(o for o in outcomes if isinstance(o, Refusal))
    assert (conflict.status, conflict.rule) == (CONFLICT, "one-sheet-per-table")
    assert "already has a score sheet" in str(conflict)
    assert ScoreSheet.objects.count() == 1
    assert SheetVersion.objects.count() == 1
