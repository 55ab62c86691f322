"""The product's words for numbers: the seating quality report in sentences, the clock as it reads,
the geometry of a player's rank and points charts. Plain Python, no Django: the pages call it."""

from __future__ import annotations

import math
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks ``message`` for the translation catalogues (makemessages finds this name); the page
    translates it (``{% translate label.label %}``); this module stays pure."""
    return message


def format_seconds(seconds: float) -> str:
    """1:29:05, 4:05: the clock as it shows before the browser takes over the counting."""
    whole = max(0, math.ceil(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def rank_chart(history: list[int | None], field: int, hanchan_count: int) -> dict[str, Any] | None:
    """Geometry of the small rank-after-each-hanchan chart (1st at the top, one column per hanchan of
    the tournament), for an inline SVG drawn on the server."""
    known = [(index, rank) for index, rank in enumerate(history) if rank is not None]
    if not known or field < 1:
        return None
    width, height, left, right, top, bottom = 320, 150, 34, 14, 16, 26
    columns = max(hanchan_count, len(history), 2)

    def x(index: int) -> float:
        return round(left + index * (width - left - right) / (columns - 1), 1)

    def y(rank: int) -> float:
        return round(top + (rank - 1) * (height - top - bottom) / max(field - 1, 1), 1)

    points = [{"x": x(i), "y": y(rank), "rank": rank, "hanchan": i + 1} for i, rank in known]
    return {
        "width": width,
        "height": height,
        "points": points,
        "polyline": " ".join(f"{p['x']},{p['y']}" for p in points),
        "x_labels": [{"x": x(i), "label": i + 1} for i in range(columns)],
        "y_labels": [{"y": y(1), "label": gettext_noop("1st")}, {"y": y(field), "label": str(field)}],
        "bottom": height - bottom,
        "left": left,
        "right": width - right,
        "top": top,
    }


def report_lines(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The seating quality report in plain words: each figure beside the best any schedule can do."""
    if not report:
        return []
    n, rounds = report["players"], report["rounds"]
    lines = []

    def line(topic: str, ok: bool, text: str) -> None:
        lines.append({"topic": topic, "ok": ok, "text": text})

    bound = report["excess_meetings_lower_bound"]
    excess = report["excess_meetings"]
    if excess == 0:
        text = "No two players meet more than once."
    else:
        text = (
            f"{report['repeat_pairs']} pairs of players meet more than once ({excess} meetings beyond the "
            f"first; at most {report['max_pair_meetings']} meetings for one pair). "
            f"With {n} players over {rounds} hanchan no schedule can have fewer than {bound}."
        )
    line("Opponents", excess == bound, text)
    table_bound = report["table_repeats_lower_bound"]
    consecutive = report["consecutive_table_repeats"]
    text = (
        f"Players come back to a table they already sat at {report['table_repeats']} times "
        f"(at least {table_bound} with {report['tables']} tables); "
        + (
            "never at the same table two hanchan in a row."
            if consecutive == 0
            else f"{consecutive} times at the same table two hanchan in a row."
        )
    )
    line("Tables", report["optimal"]["tables"], text)
    low, high = report["wind_allowed_range"]
    text = (
        f"Every player sits each wind {low} to {high} times"
        if report["wind_warnings"] == 0
        else f"{report['wind_warnings']} players sit a wind fewer than {low} or more than {high} times"
    ) + (
        f"; the largest difference between a player's most and least frequent wind is "
        f"{report['wind_imbalance']} (the best possible is {report['wind_imbalance_lower_bound']})."
    )
    line("Winds", report["optimal"]["winds"], text)
    if report.get("non_meeting_pairs") == 0:
        text = "Every pair of players meets at a table at least once."
    elif report["indirect_checked"]:
        text = (
            f"Players who never meet have at least {report['min_indirect']} opponents in common "
            f"(the aim is {report['indirect_threshold']}, the square root of the field); "
            f"{report['indirect_warnings']} pairs are below that."
        )
    else:
        text = f"Not measured for {rounds} hanchan or fewer: most pairs cannot have common opponents yet."
    line("Common opponents", report["optimal"]["indirect"], text)
    if report.get("errors"):
        line("Validity", False, "; ".join(report["errors"]))
    return lines


def reseat_changes(
    before: dict[int, dict[int, int]], after: dict[int, dict[int, int]], names: dict[int, str]
) -> list[str]:
    """What a re-seating changes, hanchan by hanchan, in players' names: who joins, who leaves, who
    moves to another table. ``before`` and ``after`` map a hanchan to each player's table number."""
    lines = []
    for number in sorted(set(before) | set(after)):
        old, new = before.get(number, {}), after.get(number, {})
        joins = sorted(names.get(p, str(p)) for p in set(new) - set(old))
        leaves = sorted(names.get(p, str(p)) for p in set(old) - set(new))
        moves = sum(1 for p in set(old) & set(new) if old[p] != new[p])
        parts = []
        if joins:
            parts.append("joins: " + ", ".join(joins))
        if leaves:
            parts.append("leaves: " + ", ".join(leaves))
        parts.append(f"{moves} player{'s' if moves != 1 else ''} change table")
        lines.append(f"Hanchan {number}: " + "; ".join(parts) + ".")
    return lines


def points_chart(series: list[tuple[int, tuple[int, ...]]], start: int) -> dict[str, Any] | None:
    """Geometry of the chart of a player's points through each hanchan, for an inline SVG drawn on the
    server: one slot per hanchan side by side, in each the points from the start of the hanchan to its
    end hand by hand (or straight to the final points for a sheet of final points), and a dashed line at
    the starting points. ``series``: (hanchan, points) in hanchan order."""
    known = [(number, points) for number, points in series if len(points) >= 2]
    if not known:
        return None
    width, height, left, right, top, bottom = 400, 180, 48, 8, 12, 24
    every = [value for _, points in known for value in points] + [start]
    low, high = min(every), max(every)
    if high == low:
        high, low = high + 1000, low - 1000
    slot = (width - left - right) / len(known)

    def y(value: int) -> float:
        return round(top + (high - value) * (height - top - bottom) / (high - low), 1)

    segments = []
    for index, (number, points) in enumerate(known):
        x0 = left + index * slot + 4
        step = (slot - 8) / (len(points) - 1)
        coords = [(round(x0 + i * step, 1), y(value)) for i, value in enumerate(points)]
        segments.append(
            {
                "hanchan": number,
                "polyline": " ".join(f"{x},{yy}" for x, yy in coords),
                "label_x": round(left + (index + 0.5) * slot, 1),
                "separator_x": round(left + index * slot, 1),
                "end": {"x": coords[-1][0], "y": coords[-1][1], "points": points[-1]},
                "hands": len(points) - 1,
                "hand_by_hand": len(points) > 2,
            }
        )
    return {
        "width": width,
        "height": height,
        "left": left,
        "right": width - right,
        "top": top,
        "bottom": height - bottom,
        "segments": segments,
        "start_y": y(start),
        "y_labels": [
            {"y": y(value), "label": f"{value:,}"}
            for value in sorted({high, start, low}, reverse=True)
            # The starting points' label only where it does not overlap the highest's or the lowest's.
            if value in (high, low) or min(y(value) - y(high), y(low) - y(value)) >= 13
        ],
    }
