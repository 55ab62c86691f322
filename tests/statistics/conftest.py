"""A tournament with two signed hanchan entered hand by hand, built through the services.

Hanchan 1, table 1: the sheet of ``tests/scoring/hanchan.py`` (outcomes form), worked out in its docstring.
Hanchan 2, table 1, the same four players in the same seats: one hand, then the time limit.
 1 E1 Ana (dealer) tsumo yakuman: 16,000 all, value 48,000 (WRCR 2015 §6.1). Ana 78,000, the others 14,000.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services as sheets
from tests.conftest import seat_table
from tests.scoring import hanchan
from tournament.models import Player, Round, Tournament

SECOND = {
    "form": "hands",
    "hands": [{"result": "tsumo", "winner": "Ana", "yakuman": 1, "riichi": []}],
    "ended_by_time": True,
}


@pytest.fixture
def played(tournament: Tournament, seated_table: Any, referee: Any) -> Tournament:
    first = sheets.save_sheet(seated_table, hanchan.entry("outcomes"), referee, submit=True)
    sheets.sign_sheet(first, referee)
    seated_table.round.status = Round.Status.FINISHED
    seated_table.round.save()
    players = [Player.objects.get(tournament=tournament, name=name) for name in ("Ana", "Ben", "Cho", "Dai")]
    second_round = Round.objects.create(tournament=tournament, number=2, status=Round.Status.STARTED)
    table = seat_table(second_round, 1, players)
    sheets.sign_sheet(sheets.save_sheet(table, dict(SECOND), referee, submit=True), referee)
    return tournament
