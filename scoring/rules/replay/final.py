"""The final-points form: the verdict on a sheet that gives the final points only, not the hands."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rules.i18n import _
from scoring.rules.replay.chombo import Chombo
from scoring.rules.replay.end import final_points_errors
from scoring.rules.replay.verdict import Verdict
from scoring.rules.ruleset import Ruleset
from scoring.rules.scores import hanchan_scores
from scoring.rules.sheet import Error, is_int, read_sheet

RULE_FINAL_FORMAT = "format"


RULE_FINAL_PLAYERS = "players"


def check_final(sheet: Mapping[str, Any], ruleset: Ruleset) -> Verdict:
    """The verdict on a sheet that gives the final points only, not the hands:
    ``{"players": [4 names], "final_points": {name: points}, "riichi_sticks_left": n, "chombo": [name]}``.

    The points must be those of the table's four players, each a multiple of 100, adding up to the
    starting points less the riichi sticks left (WRCR 2015 §5.9); each chombo named is a penalty of the
    ruleset (§7.1). Every error names the input field it is about.
    """
    parsed, read_errors = read_sheet(sheet, ruleset)
    if parsed is None:
        return Verdict.refused(read_errors)
    names = parsed.players
    points = sheet.get("final_points")
    sticks = sheet.get("riichi_sticks_left", 0)
    chombo = sheet.get("chombo", [])
    errors: list[Error] = []
    if not isinstance(points, dict):
        errors.append(
            Error(
                None,
                RULE_FINAL_FORMAT,
                _("final_points must map each player's name to points"),
                "final_points",
            )
        )
    else:
        unknown = sorted(set(points) - set(names))
        missing = [name for name in names if name not in points]
        for name in unknown:
            text = _("{player} is not at this table").format(player=name)
            errors.append(Error(None, RULE_FINAL_PLAYERS, text, "final_points"))
        for name in missing:
            text = _("final points of {player} are missing").format(player=name)
            errors.append(Error(None, RULE_FINAL_PLAYERS, text, "final_points"))
    if not is_int(sticks) or sticks < 0:
        errors.append(
            Error(
                None,
                RULE_FINAL_FORMAT,
                _("riichi_sticks_left must be a whole number, 0 or more"),
                "riichi_sticks_left",
            )
        )
    if not isinstance(chombo, list) or any(name not in names for name in chombo):
        errors.append(Error(None, RULE_FINAL_PLAYERS, _("chombo must list players of this table"), "chombo"))
    if errors:
        return Verdict.refused(errors)
    assert isinstance(points, dict) and is_int(sticks) and isinstance(chombo, list)
    ordered = {name: points[name] for name in names}
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
        chombo=tuple(Chombo(name, None, -ruleset.chombo_penalty) for name in chombo),
    )
