"""The product's words for numbers: the seating quality report in sentences, the clock as it reads,
the geometry of a player's rank and points charts. Plain Python, no Django: the pages call it."""

from __future__ import annotations

import math
from typing import Any

# The rules engine's translation hook: English when imported alone, the reader's language under Django.
# "1st" is only marked here (gettext_noop): the page translates it (``{% translate label.label %}``).
from scoring.rules.i18n import _, gettext_noop, ngettext


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


def report_summary(report: dict[str, Any]) -> str:
    """The size of the schedule the report measures, in words, and how to read its figures."""
    if not report:
        return ""
    players, rounds, tables = report["players"], report["rounds"], report["tables"]
    return _(
        "{players}, {hanchan}, {tables}. Each figure beside the best any schedule can reach "
        "(its lower bound)."
    ).format(
        players=ngettext("{count} player", "{count} players", players).format(count=players),
        hanchan=ngettext("{count} hanchan", "{count} hanchan", rounds).format(count=rounds),
        tables=ngettext("{count} table", "{count} tables", tables).format(count=tables),
    )


def table_repeats_text(report: dict[str, Any]) -> str:
    """The returns to a table in whole sentences: none, or how many beside the fewest possible (a bound of
    none said as such, not "at least 0"), then the times a player stays at a table two hanchan in a row."""
    repeats, bound = report["table_repeats"], report["table_repeats_lower_bound"]
    consecutive = report["consecutive_table_repeats"]
    tables = ngettext("{count} table", "{count} tables", report["tables"]).format(count=report["tables"])
    if repeats == 0:
        return _("No player comes back to a table they already sat at.")
    if bound == 0:
        first = ngettext(
            "Players come back to a table they already sat at {repeats} time; with {tables} a schedule "
            "can have none.",
            "Players come back to a table they already sat at {repeats} times; with {tables} a schedule "
            "can have none.",
            repeats,
        ).format(repeats=repeats, tables=tables)
    else:
        first = ngettext(
            "Players come back to a table they already sat at {repeats} time; with {tables} no schedule "
            "can have fewer than {bound}.",
            "Players come back to a table they already sat at {repeats} times; with {tables} no schedule "
            "can have fewer than {bound}.",
            repeats,
        ).format(repeats=repeats, tables=tables, bound=bound)
    if consecutive == 0:
        second = _("Nobody sits at the same table two hanchan in a row.")
    else:
        second = ngettext(
            "{count} time a player sits at the same table two hanchan in a row.",
            "{count} times a player sits at the same table two hanchan in a row.",
            consecutive,
        ).format(count=consecutive)
    return f"{first} {second}"


def report_lines(report: dict[str, Any]) -> list[dict[str, Any]]:
    """The seating quality report in plain words, in the reader's language: each figure beside the
    best any schedule can do. Each sentence is one message, so that a translation may reorder it."""
    if not report:
        return []
    n, rounds = report["players"], report["rounds"]
    lines = []

    def line(topic: str, ok: bool, text: str) -> None:
        lines.append({"topic": topic, "ok": ok, "text": text})

    bound = report["excess_meetings_lower_bound"]
    excess = report["excess_meetings"]
    if excess == 0:
        text = _("No two players meet more than once.")
    elif bound == 0:
        # Nothing proves a repeat meeting unavoidable: no "fewer than 0" to cite.
        text = ngettext(
            "{pairs} pair of players meets more than once ({excess} meetings beyond the first; at most "
            "{most} meetings for one pair).",
            "{pairs} pairs of players meet more than once ({excess} meetings beyond the first; at most "
            "{most} meetings for one pair).",
            report["repeat_pairs"],
        ).format(pairs=report["repeat_pairs"], excess=excess, most=report["max_pair_meetings"])
    else:
        text = ngettext(
            "{pairs} pair of players meets more than once ({excess} meetings beyond the first; at most "
            "{most} meetings for one pair). With {players} players over {rounds} hanchan no schedule can "
            "have fewer than {bound}.",
            "{pairs} pairs of players meet more than once ({excess} meetings beyond the first; at most "
            "{most} meetings for one pair). With {players} players over {rounds} hanchan no schedule can "
            "have fewer than {bound}.",
            report["repeat_pairs"],
        ).format(
            pairs=report["repeat_pairs"],
            excess=excess,
            most=report["max_pair_meetings"],
            players=n,
            rounds=rounds,
            bound=bound,
        )
    line(_("Opponents"), excess == bound, text)
    line(_("Tables"), report["optimal"]["tables"], table_repeats_text(report))
    low, high = report["wind_allowed_range"]
    warnings = report["wind_warnings"]
    if warnings == 0 and low == high:
        text = ngettext(
            "Every player sits each wind exactly once; the largest difference between a player's most "
            "and least frequent wind is {imbalance} (the best possible is {best}).",
            "Every player sits each wind exactly {low} times; the largest difference between a "
            "player's most and least frequent wind is {imbalance} (the best possible is {best}).",
            low,
        )
    elif warnings == 0:
        text = _(
            "Every player sits each wind {low} to {high} times; the largest difference between a "
            "player's most and least frequent wind is {imbalance} (the best possible is {best})."
        )
    else:
        text = ngettext(
            "{warnings} player sits a wind fewer than {low} or more than {high} times; the largest "
            "difference between a player's most and least frequent wind is {imbalance} (the best "
            "possible is {best}).",
            "{warnings} players sit a wind fewer than {low} or more than {high} times; the largest "
            "difference between a player's most and least frequent wind is {imbalance} (the best "
            "possible is {best}).",
            warnings,
        )
    text = text.format(
        warnings=warnings,
        low=low,
        high=high,
        imbalance=report["wind_imbalance"],
        best=report["wind_imbalance_lower_bound"],
    )
    line(_("Winds"), report["optimal"]["winds"], text)
    if report.get("non_meeting_pairs") == 0:
        text = _("Every pair of players meets at a table at least once.")
    elif report["indirect_checked"]:
        text = ngettext(
            "Players who never meet have at least {least} opponents in common (the aim is {aim}, the "
            "square root of the field); {below} pair is below that.",
            "Players who never meet have at least {least} opponents in common (the aim is {aim}, the "
            "square root of the field); {below} pairs are below that.",
            report["indirect_warnings"],
        ).format(
            least=report["min_indirect"], aim=report["indirect_threshold"], below=report["indirect_warnings"]
        )
    else:
        text = _(
            "Not measured for {rounds} hanchan or fewer: most pairs cannot have common opponents yet."
        ).format(rounds=rounds)
    line(_("Common opponents"), report["optimal"]["indirect"], text)
    if report.get("errors"):
        line(_("Validity"), False, "; ".join(report["errors"]))
    return lines


def reseat_changes(
    before: dict[int, dict[int, int]], after: dict[int, dict[int, int]], names: dict[int, str]
) -> list[str]:
    """What a re-seating changes, hanchan by hanchan, in players' names and the reader's language: who
    joins, who leaves, who moves to another table. ``before`` and ``after`` map a hanchan to each
    player's table number."""
    lines = []
    for number in sorted(set(before) | set(after)):
        old, new = before.get(number, {}), after.get(number, {})
        joins = sorted(names.get(p, str(p)) for p in set(new) - set(old))
        leaves = sorted(names.get(p, str(p)) for p in set(old) - set(new))
        moves = sum(1 for p in set(old) & set(new) if old[p] != new[p])
        parts = []
        if joins:
            parts.append(_("joins: {names}").format(names=", ".join(joins)))
        if leaves:
            parts.append(_("leaves: {names}").format(names=", ".join(leaves)))
        parts.append(
            ngettext("{count} player changes table", "{count} players change table", moves).format(
                count=moves
            )
        )
        lines.append(_("Hanchan {number}: {changes}.").format(number=number, changes="; ".join(parts)))
    return lines


def proposal_changes(
    proposal: dict[str, Any], left: list[list[int]], names: dict[int, str], first: int
) -> list[str]:
    """One re-seating proposal, hanchan by hanchan from hanchan ``first``, in players' names and the
    reader's language: who moves (to another table or wind than the published one), grouped by the table
    they go to, who joins without a published seat, who leaves (``left``), who sits out."""

    def named(pks: list[int]) -> str:
        return ", ".join(sorted(names.get(pk, str(pk)) for pk in pks))

    rounds = proposal.get("rounds", [])
    lines = []
    for offset, moved in enumerate(proposal.get("moved", [])):
        parts = []
        if moved:
            tables = rounds[offset] if offset < len(rounds) else []
            table_of = {pk: number for number, table in enumerate(tables, start=1) for pk in table}
            by_table: dict[int, list[int]] = {}
            for pk in moved:
                by_table.setdefault(table_of.get(pk, 0), []).append(pk)
            grouped = "; ".join(
                _("to table {table}: {names}").format(table=number, names=named(pks))
                if number
                else named(pks)
                for number, pks in sorted(by_table.items())
            )
            parts.append(
                ngettext("{count} player moves: {names}", "{count} players move: {names}", len(moved)).format(
                    count=len(moved), names=grouped
                )
            )
        else:
            parts.append(_("nobody moves"))
        joined = proposal.get("joined", [])
        if offset < len(joined) and joined[offset]:
            parts.append(_("joins: {names}").format(names=named(joined[offset])))
        if offset < len(left) and left[offset]:
            parts.append(_("leaves: {names}").format(names=named(left[offset])))
        out = proposal.get("sitting_out", [])
        if offset < len(out) and out[offset]:
            parts.append(_("sits out: {names}").format(names=named(out[offset])))
        changes = "; ".join(parts)
        lines.append(_("Hanchan {number}: {changes}.").format(number=first + offset, changes=changes))
    return lines


def proposal_summary(
    proposal: dict[str, Any], lower_bound: int, best_excess: int | None, *, best: bool = False
) -> str:
    """The figures of a re-seating proposal beside what is possible: the players moved in all beside the
    fewest any re-seating can move (proven), and why a proposal moves more (``best``: it is the best
    schedule's; else the fewest moves were traded to meet no pair more often than the best schedule
    does); its repeat meetings beside the best schedule's."""
    moves = proposal.get("moves", 0)
    if best:
        reason = _("to seat the best schedule for the hanchan left")
    else:
        reason = _("so that no pair meets more often, nor more repeat meetings, than in the best schedule")
    if moves == 0:
        text = _("Nobody moves: every published seat is kept.")
    elif moves <= lower_bound:
        text = ngettext(
            "{moves} player moves in all: the fewest possible (proven).",
            "{moves} players move in all: the fewest possible (proven).",
            moves,
        ).format(moves=moves)
    elif lower_bound == 0:
        text = ngettext(
            "{moves} player moves in all where nobody has to, {reason}.",
            "{moves} players move in all where nobody has to, {reason}.",
            moves,
        ).format(moves=moves, reason=reason)
    else:
        text = ngettext(
            "{moves} player moves in all; the fewest possible is {bound}, {reason}.",
            "{moves} players move in all; the fewest possible is {bound}, {reason}.",
            moves,
        ).format(moves=moves, bound=lower_bound, reason=reason)
    excess = proposal.get("report", {}).get("excess_meetings")
    if best_excess is not None and excess is not None and excess > best_excess:
        more = excess - best_excess
        text += " " + ngettext(
            "{count} repeat meeting more than the best schedule.",
            "{count} repeat meetings more than the best schedule.",
            more,
        ).format(count=more)
    return text


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


def rating_chart(steps: list[tuple[float, float]]) -> dict[str, Any] | None:
    """Geometry of the chart of a player's skill rating after each hanchan (``steps``: mu and sigma after
    each, in the order of play), for an inline SVG drawn on the server: the rating shown (mu - 3 sigma)
    as a line, the skill mu dashed above it, one column per hanchan."""
    if not steps:
        return None
    width, height, left, right, top, bottom = 320, 170, 36, 10, 12, 24
    ordinals = [mu - 3 * sigma for mu, sigma in steps]
    mus = [mu for mu, _sigma in steps]
    low = 5 * math.floor(min(ordinals + mus) / 5)
    high = 5 * math.ceil(max(ordinals + mus) / 5)
    if high == low:
        high += 5
    count = len(steps)

    def x(index: int) -> float:
        if count == 1:
            return round((left + width - right) / 2, 1)
        return round(left + index * (width - left - right) / (count - 1), 1)

    def y(value: float) -> float:
        return round(top + (high - value) * (height - top - bottom) / (high - low), 1)

    rating = [(x(i), y(value)) for i, value in enumerate(ordinals)]
    skill = [(x(i), y(value)) for i, value in enumerate(mus)]
    labels = sorted({high, low, *([0] if low < 0 < high else [])}, reverse=True)
    return {
        "width": width,
        "height": height,
        "left": left,
        "right": width - right,
        "top": top,
        "bottom": height - bottom,
        "count": count,
        "rating": " ".join(f"{px},{py}" for px, py in rating),
        "skill": " ".join(f"{px},{py}" for px, py in skill),
        "last": {"x": rating[-1][0], "y": rating[-1][1]},
        "first_rating": f"{ordinals[0]:.2f}",
        "last_rating": f"{ordinals[-1]:.2f}",
        "y_labels": [
            {"y": y(value), "label": str(value)}
            for value in labels
            # Zero only where it does not overlap the highest's or the lowest's label.
            if value in (high, low) or min(y(value) - y(high), y(low) - y(value)) >= 13
        ],
        "x_labels": [{"x": x(0), "label": 1}, *([{"x": x(count - 1), "label": count}] if count > 1 else [])],
    }
