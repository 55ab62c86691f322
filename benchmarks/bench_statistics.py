"""Statistics benchmark: the tournament's figures and one player's, from replayed hand-by-hand sheets.

Run as ``.venv/bin/python benchmarks/bench_statistics.py``. 1,000 players over 12 hanchan are 3,000 sheets
(random legal hanchan of ``bench_rules``, each replayed once, as the stored replay JSON). Targets: the
tournament's statistics in under 0.5 s, a player's page figures (his 12 sheets) in under 5 ms. The
pure part only; loading the sheets is two queries (``tournament/queries/statistics_db.py``).
"""

from __future__ import annotations

import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_rules import random_sheets  # noqa: E402

from scoring.rules.replay import replay  # noqa: E402
from scoring.rules.ruleset import get_ruleset  # noqa: E402
from tournament.core.statistics import SheetRecord, player_statistics, tournament_statistics  # noqa: E402

PLAYERS, HANCHAN = 1000, 12
TABLES = PLAYERS // 4
ROUNDS = 3


def records() -> list[SheetRecord]:
    sheets = random_sheets(TABLES * HANCHAN, seed=18)
    out = []
    for index, sheet in enumerate(sheets):
        hanchan, table = divmod(index, TABLES)
        verdict = replay(sheet)
        names = tuple(sheet["players"])
        # Player ids: table t of hanchan h seats players 4t..4t+3 shifted by h tables (a simple rotation).
        ids = tuple((4 * ((table + hanchan) % TABLES) + seat) for seat in range(4))
        out.append(
            SheetRecord(
                hanchan=hanchan + 1,
                table=table + 1,
                players=names,
                player_ids=ids,
                ranks=verdict.ranks or dict.fromkeys(names, 1),
                points=verdict.final_points or dict.fromkeys(names, 30000),
                scores=verdict.scores or dict.fromkeys(names, Decimal(0)),
                replay=verdict.as_json(),
            )
        )
    return out


def best(function: object, *args: object) -> float:
    times = []
    for _ in range(ROUNDS):
        start = time.process_time()
        function(*args)  # type: ignore[operator]
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    ruleset = get_ruleset("WRC2015")
    sheets = records()
    hands = sum(len(sheet.replay["hands"]) for sheet in sheets)
    whole = best(tournament_statistics, sheets, ruleset)
    mine = [sheet for sheet in sheets if 0 in sheet.player_ids]
    one = best(player_statistics, 0, mine, ruleset)
    stats = tournament_statistics(sheets, ruleset)
    print(
        f"tournament: {len(sheets)} sheets, {hands} hands ({stats.wins} wins, {stats.yakuman} yakuman) in "
        f"{whole:.3f} s CPU (best of {ROUNDS}; {'under' if whole < 0.5 else 'OVER'} the 0.5 s target)"
    )
    print(
        f"player: {len(mine)} sheets in {one * 1000:.2f} ms CPU "
        f"({'under' if one < 0.005 else 'OVER'} the 5 ms target)"
    )


if __name__ == "__main__":
    main()
