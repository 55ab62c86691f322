"""The end of the game: the chosen path turned into the ``Verdict`` (hand records, chombo penalties,
riichi sticks left, final points, ranks and scores) with the errors of a hanchan that ended wrong or
whose written final points disagree."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from scoring.rules.entry import Ending
from scoring.rules.i18n import _
from scoring.rules.legal import ABORTIVE, DRAW, NAGASHI
from scoring.rules.payments import format_points
from scoring.rules.replay.chombo import Chombo
from scoring.rules.replay.state import Node
from scoring.rules.replay.verdict import HandRecord, Verdict
from scoring.rules.ruleset import Ruleset
from scoring.rules.scores import RULE_RANGE, check_final_points, final_points_limit, table_scores
from scoring.rules.sheet import (
    ROUND_LABELS,
    RULE_FINAL_POINTS,
    RULE_FORMAT,
    RULE_NOT_FINISHED,
    RULE_PLAYER,
    RULE_STICKS_LEFT,
    Error,
    HandState,
    Sheet,
    as_changes,
    is_int,
    sheet_error,
)
from scoring.rules.yaku import WinYaku


def _path(node: Node) -> list[Node]:
    nodes = []
    current: Node | None = node
    while current is not None and current.outcome is not None:
        nodes.append(current)
        current = current.parent
    nodes.reverse()
    return nodes


def final_verdict(sheet: Sheet, ending: Ending, node: Node, errors: list[Error]) -> Verdict:
    players = sheet.players
    hands: list[HandRecord] = []
    chombo: list[Chombo] = []
    for number, step in enumerate(_path(node), 1):
        if step.errors:
            errors.extend(step.errors)
        hands.append(_hand_record(players, step, _known_yaku(sheet, number, step)))
        if step.outcome is not None and step.outcome.offenders:
            chombo.extend(
                Chombo(players[seat], number, -sheet.ruleset.chombo_penalty)
                for seat in step.outcome.offenders
            )
    state = _collect_sticks_left(node.state, sheet.ruleset)
    final = dict(zip(players, state.points, strict=True))
    errors.extend(_end_errors(sheet, ending, state, final))
    ranks: dict[str, int] | None = None
    uma: dict[str, Decimal] | None = None
    scores: dict[str, Decimal] | None = None
    if sum(state.points) == 4 * sheet.ruleset.starting_points - sheet.ruleset.riichi_stick * state.sticks:
        ranks, uma, scores = table_scores(final, sheet.ruleset)
    return Verdict(
        valid=not errors,
        errors=tuple(errors),
        ruleset=sheet.ruleset.name,
        players=players,
        hands=tuple(hands),
        final_points=final,
        riichi_sticks_left=state.sticks,
        finished=state.may_end,
        ranks=ranks,
        uma=uma,
        scores=scores,
        chombo=tuple(chombo),
    )


def _collect_sticks_left(state: HandState, ruleset: Ruleset) -> HandState:
    """The table at the end: sticks left stay on the table (WRCR 2015 §5.9), unless the ruleset gives
    them to the first-placed player (the earlier starting seat on a tie)."""
    if not ruleset.sticks_left_to_first or not state.sticks:
        return state
    first = max(range(4), key=lambda seat: (state.points[seat], -seat))
    points = list(state.points)
    points[first] += ruleset.riichi_stick * state.sticks
    return state._replace(sticks=0, points=as_changes(points))


def _known_yaku(sheet: Sheet, number: int, step: Node) -> dict[str, WinYaku] | None:
    """The yaku of the hand's winners that were entered or scored from tiles."""
    if not sheet.yaku or step.outcome is None:
        return None
    found = {
        sheet.players[seat]: sheet.yaku[(number, seat)]
        for seat in step.outcome.winners
        if (number, seat) in sheet.yaku
    }
    return found or None


def _hand_record(
    players: tuple[str, str, str, str], step: Node, yaku: dict[str, WinYaku] | None = None
) -> HandRecord:
    before, outcome, points, riichi = step.before, step.outcome, step.state.points, step.riichi
    assert before is not None and outcome is not None
    east, south, west, north = players
    changes, kind = outcome.changes, outcome.kind
    return HandRecord(
        round=ROUND_LABELS[before.round_index % 16],
        dealer=players[before.round_index % 4],
        honba=before.honba,
        sticks=before.sticks,
        result=kind,
        riichi=tuple([players[seat] for seat in sorted(riichi)]) if riichi else (),
        deltas={east: changes[0], south: changes[1], west: changes[2], north: changes[3]},
        points={east: points[0], south: points[1], west: points[2], north: points[3]},
        winners=() if kind == NAGASHI else _names(players, outcome.winners),
        tenpai=_names(players, outcome.tenpai) if kind in (DRAW, NAGASHI) else None,
        offenders=_names(players, outcome.offenders),
        abortive=outcome.value if kind == ABORTIVE else "",
        nagashi=_names(players, outcome.winners) if kind == NAGASHI else (),
        yaku=yaku,
    )


def _names(players: tuple[str, str, str, str], seats: tuple[int, ...]) -> tuple[str, ...]:
    if not seats:
        return ()
    if len(seats) == 1:
        return (players[seats[0]],)
    return tuple([players[seat] for seat in seats])


def _end_errors(sheet: Sheet, ending: Ending, state: HandState, final: dict[str, int]) -> list[Error]:
    errors: list[Error] = []
    if ending.ended_by_time is False and not state.may_end:
        errors.append(
            sheet_error(
                RULE_NOT_FINISHED,
                _(
                    "the sheet stops before the end of the hanchan ({round}, {honba} honba is still to be "
                    "played) but does not say the time limit ended it"
                ).format(round=state.round_name(), honba=state.honba),
            )
        )
    sticks_left = ending.sticks_left
    if sticks_left is not None and sticks_left != state.sticks:
        errors.append(
            sheet_error(
                RULE_STICKS_LEFT,
                _("the sheet leaves {written} riichi sticks on the table, the hands leave {sticks}").format(
                    written=sticks_left, sticks=state.sticks
                ),
            )
        )
    written = ending.final_points
    if written is None:
        limit = final_points_limit(sheet.ruleset)
        beyond = [(player, points) for player, points in final.items() if abs(points) > limit]
        for player, points in beyond:
            errors.append(
                sheet_error(
                    RULE_RANGE,
                    _(
                        "{player} ends with {points} by the hands, beyond ten times the table's points "
                        "({limit}) either way"
                    ).format(player=player, points=format_points(points), limit=format_points(limit)),
                )
            )
        return errors
    if written == final and sum(state.points) == sum(final.values()) and not errors:
        return final_points_errors(written, state.sticks, sheet.ruleset)
    if not isinstance(written, dict):
        return [*errors, sheet_error(RULE_FORMAT, _("final_points maps each player to their points"))]
    unknown = sorted(set(written) - set(final))
    if unknown:
        text = _("final points of unknown player(s) {names}").format(names=", ".join(map(repr, unknown)))
        errors.append(sheet_error(RULE_PLAYER, text))
    errors.extend(
        final_points_errors(written, sticks_left if is_int(sticks_left) else state.sticks, sheet.ruleset)
    )
    for player, points in final.items():
        if player in written and written[player] != points:
            shown = format_points(written[player]) if is_int(written[player]) else repr(written[player])
            errors.append(
                sheet_error(
                    RULE_FINAL_POINTS,
                    _("{player} ends with {points} by the hands, the sheet says {shown}").format(
                        player=player, points=format_points(points), shown=shown
                    ),
                )
            )
        elif player not in written:
            text = _("the final points of {player} are missing").format(player=player)
            errors.append(sheet_error(RULE_FINAL_POINTS, text))
    return errors


def final_points_errors(
    points: Mapping[str, int], sticks_left: int, ruleset: Ruleset, field: str | None = None
) -> list[Error]:
    """``scores.check_final_points`` as typed errors of the sheet as a whole."""
    return [
        Error(None, str(problem["rule"]), str(problem["message"]), field)
        for problem in check_final_points(points, sticks_left, ruleset)
    ]
