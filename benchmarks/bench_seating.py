"""Seating generator benchmark: wall-clock time and quality figures of the speed targets.

    .venv/bin/python benchmarks/bench_seating.py

Targets (organisers' issue): 16 x 5 perfect in under 1 s, 172 players x 15 hanchan in under 10 s,
1,000 players x 12 hanchan in under 60 s. Each schedule is measured with the project's quality report
(``tournament.seating.report.quality_report``, the figures of the organisers' tool ``seating_eval.py``) and
printed next to the counting lower bounds.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournament.seating import generate, quality_report  # noqa: E402

CASES = [(16, 5, 1.0), (172, 15, 10.0), (1000, 12, 60.0), (64, 21, None), (40, 13, None), (32, 8, None)]


def main() -> int:
    failed = False
    for n, rounds, target in CASES:
        start = time.perf_counter()
        schedule = generate(n, rounds, seed=0)
        seconds = time.perf_counter() - start
        report = quality_report(schedule)
        verdict = ""
        if target is not None:
            ok = seconds < target
            failed |= not ok
            verdict = f" (target < {target:g} s: {'ok' if ok else 'MISSED'})"
        print(f"{n} players x {rounds} hanchan: {seconds:.2f} s{verdict}, method {schedule.method}")
        print(
            f"    valid {report['valid']}; excess meetings {report['excess_meetings']} "
            f"(bound {report['excess_meetings_lower_bound']}), repeat pairs {report['repeat_pairs']} "
            f"(bound {report['repeat_pairs_lower_bound']}), max meetings {report['max_pair_meetings']}"
        )
        print(
            f"    table repeats {report['table_repeats']} (bound {report['table_repeats_lower_bound']}), "
            f"table warnings {report['table_warnings']}; wind imbalance {report['wind_imbalance']} "
            f"(bound {report['wind_imbalance_lower_bound']}), wind warnings {report['wind_warnings']}"
        )
        print(
            f"    min common opponents {report['min_indirect']}, indirect warnings "
            f"{report['indirect_warnings']} of {report['non_meeting_pairs']} non-meeting pairs, "
            f"opponent graph components {report['opponent_graph_components']}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
