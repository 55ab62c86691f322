"""Quality grid of the seating generator against the counting lower bounds.

Runs the command line (the organisers' contract) for 16..172 players in steps of 4 and 1..15 hanchan,
plus 200, 500 and 1000 players x 12 hanchan, evaluates every schedule with the project's quality report
(``tournament.seating.report.quality_report``, the figures of the organisers' tool ``seating_eval.py``) and
writes ``benchmarks/seating_sweep.json`` plus a Markdown summary on stdout.

    .venv/bin/python benchmarks/seating_sweep.py [--jobs 2] [--time-limit SECONDS] [--only 16x5 ...]
        [--published DIR] [--seed S --out FILE]

``--only`` re-measures some sizes and keeps the other rows of the JSON file. ``--published DIR`` compares
with the statistics of the World Riichi tournament app's precomputed schedules (``meet.csv`` and
``tables.csv``, ``indirects.csv`` from ApplySci/aim, ``server/seating/stats/``, fetched by you: they are
not part of this repository) and lists every size where theirs is better on some figure. ``--seed``
runs the command line with another seed (every seed should give the same figures: the seed relabels the
players of a fresh schedule).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournament.seating import quality_report  # noqa: E402


def grid() -> list[tuple[int, int]]:
    sizes = [(n, r) for n in range(16, 173, 4) for r in range(1, 16)]
    return [*sizes, (200, 12), (500, 12), (1000, 12)]


def run_one(job: tuple[int, int, float | None, int]) -> dict[str, Any]:
    n, r, limit, seed = job
    cmd = [sys.executable, "-m", "tournament.seating", "--players", str(n), "--rounds", str(r)]
    cmd += ["--seed", str(seed)]
    if limit is not None:
        cmd += ["--time-limit", str(limit)]
    start = time.monotonic()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
    seconds = time.monotonic() - start
    report = quality_report(json.loads(done.stdout)["rounds"])
    keep = [
        "valid",
        "excess_meetings",
        "excess_meetings_lower_bound",
        "repeat_pairs",
        "repeat_pairs_lower_bound",
        "max_pair_meetings",
        "table_repeats",
        "table_repeats_lower_bound",
        "table_warnings",
        "wind_imbalance",
        "wind_imbalance_lower_bound",
        "wind_warnings",
        "min_indirect",
        "indirect_warnings",
        "non_meeting_pairs",
        "opponent_graph_components",
    ]
    row = {key: report.get(key) for key in keep}
    # Strangers at the fewest common opponents: the next figure of criterion 4 after the fewest itself.
    histogram = report.get("indirect_histogram") or {}
    low = report.get("min_indirect")
    row["indirect_at_min"] = histogram.get(str(low), 0) if low is not None else 0
    row.update(
        players=n,
        rounds=r,
        seed=seed,
        seconds=round(seconds, 2),
        consecutive_table_repeats=report["consecutive_table_repeats"],
    )
    return row


def summary(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| players | hanchan at all bounds | excess > bound (excess/bound) | table repeats > bound "
        "(repeats/bound) | wind warnings | consecutive tables | slowest (s) |",
        "|---|---|---|---|---|---|---|",
    ]
    by_n: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        by_n.setdefault(row["players"], []).append(row)
    for n in sorted(by_n):
        group = sorted(by_n[n], key=lambda row: row["rounds"])
        optimal = [
            row["rounds"]
            for row in group
            if row["excess_meetings"] == row["excess_meetings_lower_bound"]
            and row["table_repeats"] == row["table_repeats_lower_bound"]
            and row["wind_imbalance"] == row["wind_imbalance_lower_bound"]
            and row["consecutive_table_repeats"] == 0
        ]
        excess = [
            f"{row['rounds']}:{row['excess_meetings']}/{row['excess_meetings_lower_bound']}"
            for row in group
            if row["excess_meetings"] > row["excess_meetings_lower_bound"]
        ]
        tables = [
            f"{row['rounds']}:{row['table_repeats']}/{row['table_repeats_lower_bound']}"
            for row in group
            if row["table_repeats"] > row["table_repeats_lower_bound"]
        ]
        winds = sum(row["wind_warnings"] for row in group)
        consecutive = [
            f"{row['rounds']}:{row['consecutive_table_repeats']}"
            for row in group
            if row["consecutive_table_repeats"]
        ]
        slowest = max(row["seconds"] for row in group)
        lines.append(
            f"| {n} | {_ranges(optimal)} | {' '.join(excess) or '-'} | {' '.join(tables) or '-'} | {winds} | "
            f"{' '.join(consecutive) or '-'} | {slowest} |"
        )
    return "\n".join(lines)


def published(folder: Path) -> dict[tuple[int, int], dict[str, int]]:
    """Figures of the published schedules from their histogram files: ``meet.csv`` (pairs meeting 0, 1,
    2, ... times) gives the excess meetings, ``tables.csv`` ((player, table) visited 0, 1, 2, ... times)
    the table repeats, ``indirects.csv`` (pairs who never meet, by their number of common opponents)
    the minimum common opponents and, from 5 hanchan on, the pairs below ``floor(sqrt(N))``."""
    out: dict[tuple[int, int], dict[str, int]] = {}
    for name in ("meet.csv", "tables.csv", "indirects.csv"):
        path = folder / name
        if not path.exists():
            continue
        with open(path, encoding="utf-8") as fh:
            reader = csv.reader(fh)
            header = next(reader)
            first = header.index("0")
            for row in reader:
                n, r = (int(v) for v in row[0].split("x"))
                counts = [int(v) for v in row[first:] if v != ""]
                figures = out.setdefault((n, r), {})
                if name == "indirects.csv":
                    figures["indirect_warnings"] = 0  # no stranger at all: nobody below the bar
                    figures["indirect_at_min"] = 0
                    if any(counts):
                        figures["min_indirect"] = next(k for k, c in enumerate(counts) if c)
                        figures["indirect_at_min"] = counts[figures["min_indirect"]]
                        floor = math.isqrt(n)
                        figures["indirect_warnings"] = sum(counts[:floor]) if r > 4 else 0
                    continue
                key = "excess_meetings" if name == "meet.csv" else "table_repeats"
                figures[key] = sum(max(0, times - 1) * c for times, c in enumerate(counts))
    return out


def comparison(rows: list[dict[str, Any]], theirs: dict[tuple[int, int], dict[str, int]]) -> str:
    """Every size where the published schedule is better on some figure (fewer excess meetings, fewer
    table repeats, more common opponents, fewer pairs below the common-opponent threshold)."""
    lines = [
        "| size | excess meetings | table repeats | min common opponents | strangers at the min "
        "| pairs below sqrt(N) |",
        "|---|---|---|---|---|---|",
    ]
    compared = 0
    verdicts = {"better": 0, "equal": 0, "worse": []}
    for row in sorted(rows, key=lambda row: (row["players"], row["rounds"])):
        other = theirs.get((row["players"], row["rounds"]))
        if other is None:
            continue
        compared += 1
        ours, published_key = _criteria(row), _criteria(other)
        if ours < published_key:
            verdicts["better"] += 1
        elif ours == published_key:
            verdicts["equal"] += 1
        else:
            verdicts["worse"].append(f"{row['players']}x{row['rounds']}")
        worse = [
            other.get("excess_meetings", 1 << 30) < row["excess_meetings"],
            other.get("table_repeats", 1 << 30) < row["table_repeats"],
            row["min_indirect"] is not None and other.get("min_indirect", -1) > row["min_indirect"],
            other.get("min_indirect") == row["min_indirect"]
            and other.get("indirect_at_min", 1 << 30) < row.get("indirect_at_min", 0),
            other.get("indirect_warnings", 1 << 30) < row["indirect_warnings"],
        ]
        if any(worse):
            keys = ("excess_meetings", "table_repeats", "min_indirect", "indirect_at_min")
            keys += ("indirect_warnings",)
            cells = [f"{other.get(key, '-')} / {row.get(key, '-')}" for key in keys]
            lines.append(f"| {row['players']}x{row['rounds']} | " + " | ".join(cells) + " |")
    lines.append(
        f"\n{compared} sizes compared (theirs / ours); the rows above are those where the published "
        "schedule is better on some figure."
    )
    worse = verdicts["worse"]
    lines.append(
        "In the order of the criteria (excess meetings, table repeats, then the fewest common opponents "
        "and the strangers that have so few, then pairs below sqrt(N)) ours are better in "
        f"{verdicts['better']} sizes, equal in {verdicts['equal']}, worse in {len(worse)}: "
        f"{', '.join(worse) or '-'}."
    )
    return "\n".join(lines)


# Figures the published statistics do not give: ours is "not worse" on them only where it is at the best
# value any schedule can have (no consecutive table repeat, wind imbalance at its counting bound, one
# connected field); anywhere else the comparison cannot tell and says so.
UNPUBLISHED_BEST = {
    "consecutive table repeats": lambda row: row["consecutive_table_repeats"] == _fewest_consecutive(row),
    "wind imbalance": lambda row: row["wind_imbalance"] <= row["wind_imbalance_lower_bound"],
    "connectedness": lambda row: row["opponent_graph_components"] == 1,
}


def _fewest_consecutive(row: dict[str, Any]) -> int:
    """The fewest consecutive table repeats any schedule with these excess meetings can have: with 16
    players and no repeat meeting, each table of a hanchan holds one player from every table of the
    hanchan before (two from one table would meet again), so whatever the table numbers, four players
    per hanchan after the first sit at the table they just left. Else 0."""
    if row["players"] == 16 and row["excess_meetings"] == 0:
        return 4 * (row["rounds"] - 1)
    return 0


def pareto_worse(row: dict[str, Any], other: dict[str, int]) -> tuple[list[str], list[str]]:
    """The criteria on which ours is worse than the published schedule of the same size, and those the
    published statistics cannot decide. Size by size and every criterion at once ("no criterion worse"):
    excess meetings, table repeats, the worst strangers (the fewest common opponents of two players who
    never meet, then how many strangers sit that low; no stranger at all is the best), then consecutive
    table repeats, wind imbalance and connectedness, known for theirs only through ours being at best.
    Strangers below ``floor(sqrt(N))`` are not a criterion here: the order of the criteria puts an even,
    connected field before that count (see docs/seating.md, Known limits)."""
    worse = []
    if other.get("excess_meetings", 1 << 30) < row["excess_meetings"]:
        worse.append("excess meetings")
    if other.get("table_repeats", 1 << 30) < row["table_repeats"]:
        worse.append("table repeats")
    if _worst_strangers(other) < _worst_strangers(row):
        worse.append("worst strangers")
    unknown = [name for name, best in UNPUBLISHED_BEST.items() if not best(row)]
    return worse, unknown


def _worst_strangers(figures: dict[str, Any]) -> tuple[float, int]:
    """The worst strangers, smaller is better: minus the fewest common opponents, then how many sit so low."""
    low = figures.get("min_indirect")
    if low is None:
        return (-math.inf, 0)
    return (-low, figures.get("indirect_at_min", 1 << 30))


def pareto(rows: list[dict[str, Any]], theirs: dict[tuple[int, int], dict[str, int]]) -> str:
    """The size-by-size comparison on every criterion at once: how many sizes have no criterion worse
    than the published schedule, and every other size with the figures of both."""
    lines = [
        "| size | worse on | excess meetings | table repeats | min common opponents | strangers at the min |",
        "|---|---|---|---|---|---|",
    ]
    compared = 0
    fine = 0
    undecided: list[str] = []
    for row in sorted(rows, key=lambda row: (row["players"], row["rounds"])):
        other = theirs.get((row["players"], row["rounds"]))
        if other is None:
            continue
        compared += 1
        worse, unknown = pareto_worse(row, other)
        if not worse:
            fine += 1
            if unknown:
                undecided.append(f"{row['players']}x{row['rounds']} ({', '.join(unknown)})")
            continue
        keys = ("excess_meetings", "table_repeats", "min_indirect", "indirect_at_min")
        cells = [f"{other.get(key, '-')} / {row.get(key, '-')}" for key in keys]
        lines.append(f"| {row['players']}x{row['rounds']} | {', '.join(worse)} | " + " | ".join(cells) + " |")
    lines.append(
        f"\nNo criterion worse (theirs / ours above): {fine} of {compared} sizes. Of these, figures the "
        "published statistics do not give, where ours is not at the best possible: "
        f"{'; '.join(undecided) or '-'}."
    )
    return "\n".join(lines)


def _criteria(figures: dict[str, Any]) -> tuple[int, int, float, int, int]:
    """Figures in the order of the criteria, smaller is better: excess meetings, table repeats, then
    common opponents worst pair first (the fewest, then how many strangers have that few; no stranger
    at all is the best), then strangers below ``floor(sqrt(N))``."""
    low = figures.get("min_indirect")
    return (
        figures.get("excess_meetings", 1 << 30),
        figures.get("table_repeats", 1 << 30),
        -math.inf if low is None else -low,
        figures.get("indirect_at_min", 1 << 30),
        figures.get("indirect_warnings", 1 << 30),
    )


def _ranges(values: list[int]) -> str:
    if not values:
        return "-"
    parts: list[str] = []
    start = prev = values[0]
    for v in [*values[1:], None]:  # type: ignore[list-item]
        if v is not None and v == prev + 1:
            prev = v
            continue
        parts.append(f"{start}" if start == prev else f"{start}-{prev}")
        if v is not None:
            start = prev = v
    return ",".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=None)
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the command line's seed (with another --out to keep the seed-0 file)",
    )
    parser.add_argument("--only", nargs="*", default=None, help="sizes like 16x5")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "seating_sweep.json"))
    parser.add_argument(
        "--published", type=Path, default=None, help="folder holding aim's meet.csv, tables.csv"
    )
    parser.add_argument("--no-run", action="store_true", help="only summarise the JSON file")
    args = parser.parse_args()
    sizes = grid()
    if args.only:
        wanted = {tuple(map(int, s.split("x"))) for s in args.only}
        sizes = [s for s in sizes if s in wanted]
    out = Path(args.out)
    rows: list[dict[str, Any]] = json.loads(out.read_text(encoding="utf-8")) if out.exists() else []
    if not args.no_run:
        jobs = [(n, r, args.time_limit, args.seed) for n, r in sizes]
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            fresh = list(pool.map(run_one, jobs))
        measured = {(row["players"], row["rounds"]) for row in fresh}
        rows = [row for row in rows if (row["players"], row["rounds"]) not in measured] + fresh
        rows.sort(key=lambda row: (row["players"], row["rounds"]))
        out.write_text(json.dumps(rows, indent=0) + "\n", encoding="utf-8")
    print(summary(rows))
    if args.published is not None:
        print()
        theirs = published(args.published)
        print(comparison(rows, theirs))
        print()
        print(pareto(rows, theirs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
