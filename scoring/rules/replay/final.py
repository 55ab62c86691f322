"""The final-points form: the verdict on a sheet that gives the final points only, not the hands."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rules.entry import read_final
from scoring.rules.replay.chombo import Chombo
from scoring.rules.replay.end import final_points_errors
from scoring.rules.replay.verdict import Verdict
from scoring.rules.ruleset import Ruleset
from scoring.rules.scores import hanchan_scores


def check_final(sheet: Mapping[str, Any], ruleset: Ruleset) -> Verdict:
    """The verdict on a sheet that gives the final points only, not the hands:
    ``{"players": [4 names], "final_points": {name: points}, "riichi_sticks_left": n, "chombo": [name]}``.

    The points must be those of the table's four players, each a multiple of 100, adding up to the
    starting points less the riichi sticks left (WRCR 2015 §5.9); each chombo named is a penalty of the
    ruleset (§7.1). Every error names the input field it is about.
    """
    final, errors = read_final(sheet, ruleset)
    if final is None:
        return Verdict.refused(errors)
    ordered = dict(final.points)
    sticks = final.sticks_left
    problems = final_points_errors(ordered, sticks, ruleset, "final_points")
    if problems:
        return Verdict.refused(problems)
    ranks, uma, scores = hanchan_scores(ordered, ruleset, sticks)
    return Verdict(
        valid=True,
        final_points=ordered,
        riichi_sticks_left=sticks,
        finished=True,
        ranks=ranks,
        uma=uma,
        scores=scores,
        chombo=tuple(Chombo(name, None, -ruleset.chombo_penalty) for name in final.chombo),
    )
