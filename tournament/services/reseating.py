"""A re-seating's proposals: each one as the seating job stores it (tables, quality report, who moves,
who joins, who sits out), how two schedules compare, and which of the fewest moves and the best schedule
are offered to the organiser (``seating.run_seating_job``, then ``seating.apply_seating``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tournament import seating


def alternative(
    rounds: Sequence[Sequence[Sequence[int]]],
    published: Sequence[Sequence[Sequence[int]]] | None,
    fixed: Sequence[Sequence[Sequence[int]]],
    field: Sequence[int],
    out: Sequence[Sequence[int]],
    name_of: Any,
    field_changes: bool,
) -> dict[str, Any]:
    """One proposal as the job stores it: tables, quality report, and per hanchan who moves (from the
    ``published`` seating), who joins without a published seat, who sits out."""
    lists = [[list(table) for table in hanchan] for hanchan in rounds]
    seated = sum(len(table) for table in lists[0]) if lists else len(field)
    report = seating.quality_report(
        [*fixed, *lists], n_players=seated, name_of=name_of, field_changes=field_changes
    )
    moved: list[list[int]] = []
    joined: list[list[int]] = []
    for h, hanchan in enumerate(lists):
        before = published[h] if published is not None else []
        moved.append(list(seating.moved_players(before, hanchan, field)))
        had = {p for table in before for p in table}
        joined.append([p for p in field if p not in had and any(p in table for table in hanchan)])
    return {
        "rounds": lists,
        "report": report,
        "moved": moved,
        "joined": joined,
        "sitting_out": [list(o) for o in out],
        "moves": sum(len(m) for m in moved),
    }


def schedule_quality(proposal: dict[str, Any]) -> tuple[int, int, int]:
    """What makes one schedule better than another, in order: the most meetings of a pair, the repeat
    meetings, the table repeats (a table again, and again in a row)."""
    report = proposal["report"]
    return (
        report["max_pair_meetings"],
        report["excess_meetings"],
        report["table_repeats"] + report["consecutive_table_repeats"],
    )


def offered(fewest: dict[str, Any], generated: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The proposals of a re-seating: the fewest moves, and the best schedule, which is the better of the
    generated schedule and the fewest moves on the schedule's quality (then on moves). A proposal that the
    other beats or equals on every figure (moves and quality) is not offered: the one left is then
    stored as the fewest moves, the default."""
    best = min((generated, fewest), key=lambda p: (schedule_quality(p), p["moves"]))

    def at_most(a: dict[str, Any], b: dict[str, Any]) -> bool:
        return a["moves"] <= b["moves"] and all(
            x <= y for x, y in zip(schedule_quality(a), schedule_quality(b), strict=True)
        )

    if best is fewest or at_most(fewest, best):
        return {"fewest_moves": fewest}
    if at_most(best, fewest):
        return {"fewest_moves": best}
    return {"fewest_moves": fewest, "best_schedule": best}
