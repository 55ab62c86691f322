"""Hanchan ranks, uma and scores from final table points (WRCR 2015 §5.9.2), exact in Decimal.

Hanchan score = (points - return points) / 1,000 + uma, without rounding. Tied players share the places
they occupy and split the uma of those places equally (two tied first under WRCR: +10 each). Where the
return points exceed the starting points (the online rules: 25,000 and 30,000), first place also takes
the difference of the four players, the oka (+20), split like the uma on a tie for first.

Tenhou's rules (``ties_by_seat``) place equal points by starting seat, the earlier first. Tenhou's older
scores (``round_to_thousand``, no longer the preset's: Tenhou scores to the tenth now) count the points
rounded to thousands, the first place taking what the others' rounding leaves (``counted_points``).

Rounding rule for uma shares that are not exact decimals (three players tied with a custom uma whose
share is a third, e.g. 20 / 3): **hundredths, remainder to the earlier seat**. Each tied player gets the
share rounded down to 0.01 and the hundredths left over go, one each, to the tied players in starting seat
order, so the uma of a table always adds up exactly. Halves and quarters are exact and never rounded.

Scores are formatted by ``format_score``: plain decimal notation without exponent, without trailing
zeros and without a plus sign ("23.2", "-15", "0.5", "0").
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_FLOOR, Decimal
from fractions import Fraction

from scoring.rules.i18n import _, ngettext
from scoring.rules.payments import format_points
from scoring.rules.ruleset import Ruleset

HUNDREDTH = Decimal("0.01")
THOUSAND = Decimal(1000)


RULE_RANGE = "final-points-range (WRCR 2015 §4.1, §5.9)"
FINAL_POINTS_TABLES = 10


def final_points_limit(ruleset: Ruleset) -> int:
    """The most points a player may end a hanchan with, either way: ten times the whole table's points
    (WRCR 2015 §4.1: 4 x 30,000, so 1,200,000).

    Points only move between the four players (and the riichi sticks on the table), so together they
    always make 4 x starting points; but WRCR 2015 has no bust, so one player may go below zero and
    another above the table's total, and a dealer may repeat without end (§5.7.7). No hanchan has a
    strict bound, then; ten tables' worth is 25 dealer yakuman paid by one player, far beyond any hanchan
    played in 90 minutes (§8.2), and a typing error is far likelier. It also keeps the hanchan score,
    (points - return points) / 1,000 + uma, well within what is stored (DECIMAL(7,2))."""
    return FINAL_POINTS_TABLES * 4 * ruleset.starting_points


def check_final_points(
    points: Mapping[str, int], sticks_left: int, ruleset: Ruleset
) -> list[dict[str, object]]:
    """Sheet-level errors in a table's final points: each a multiple of 100, within the table's points
    either way (``final_points_limit``), and together the starting points of four players less the riichi
    sticks left on the table (WRCR 2015 §4.1, §5.7.4, §5.9)."""
    expected = 4 * ruleset.starting_points - ruleset.riichi_stick * sticks_left
    limit = final_points_limit(ruleset)
    values = list(points.values())
    whole = len(values) == 4 and all(type(value) is int and not value % 100 for value in values)
    if whole and sum(values) == expected and all(abs(value) <= limit for value in values):
        return []
    errors: list[dict[str, object]] = []
    for player, value in points.items():
        if not isinstance(value, int) or isinstance(value, bool):
            errors.append(
                _error(
                    "final-points (WRCR 2015 §5.9)",
                    _("final points of {player} must be a whole number").format(player=player),
                )
            )
        elif abs(value) > limit:
            errors.append(
                _error(
                    RULE_RANGE,
                    _(
                        "final points of {player} ({points}) are beyond ten times the table's points "
                        "({limit}) either way"
                    ).format(player=player, points=format_points(value), limit=format_points(limit)),
                )
            )
        elif value % 100:
            errors.append(
                _error(
                    "points-multiple (WRCR 2015 §6.1)",
                    _("final points of {player} ({points}) are not a multiple of 100").format(
                        player=player, points=format_points(value)
                    ),
                )
            )
    if len(points) != 4:
        text = _("a table has 4 players, not {count}").format(count=len(points))
        errors.append(_error("final-points (WRCR 2015 §5.9)", text))
    if errors:
        return errors
    total = sum(points.values())
    if total != expected:
        text = _("final points add up to {total}, not {expected}")
        if sticks_left:
            text = ngettext(
                "final points add up to {total}, not {expected} ({start} less {sticks} riichi stick left)",
                "final points add up to {total}, not {expected} ({start} less {sticks} riichi sticks left)",
                sticks_left,
            )
        start = format_points(4 * ruleset.starting_points)
        text = text.format(
            total=format_points(total), expected=format_points(expected), start=start, sticks=sticks_left
        )
        errors.append(_error("points-total (WRCR 2015 §5.7.4, §5.9)", text))
    return errors


def _error(rule: str, message: str) -> dict[str, object]:
    return {"hand": None, "rule": rule, "message": message}


def ranks_of(points: Mapping[str, int], *, by_seat: bool = False) -> dict[str, int]:
    """Places with ties shared: 1, 2, 2, 4 (WRCR 2015 §5.9: ties may occur); ``by_seat`` (Tenhou): equal
    points placed by starting seat, the earlier seat first (``points`` is in starting seat order)."""
    if by_seat:
        order = sorted(points, key=lambda player: -points[player])  # stable: equal points keep seat order
        return {player: order.index(player) + 1 for player in points}
    ordered = sorted(points.values(), reverse=True)
    return {player: ordered.index(value) + 1 for player, value in points.items()}


def counted_points(points: Mapping[str, int], ranks: Mapping[str, int]) -> dict[str, int]:
    """The final points as a score counts them when they are rounded to thousands (Tenhou: "rounded to
    the closest thousand, '4 down, 5 up'"): every player but the first to the nearest 1,000, a half
    thousand upwards (14,500 -> 15,000; -1,500 -> -1,000), and the first place (the earliest seat among
    tied firsts) the table's points less the others', so that the table still adds up. The places stay
    those of the points as played."""
    first = next(player for player in points if ranks[player] == 1)
    counted = {player: (value + 500) // 1000 * 1000 for player, value in points.items() if player != first}
    counted[first] = sum(points.values()) - sum(counted.values())
    return {player: counted[player] for player in points}


def _uma(ranks: dict[str, int], ruleset: Ruleset) -> dict[str, Decimal]:
    return _by_place(ranks, ruleset.uma)


def _by_place(ranks: dict[str, int], values: tuple[int, ...]) -> dict[str, Decimal]:
    """``values`` (one per place) to the players by rank, tied players splitting those of their places."""
    places = list(ranks.values())
    if len(set(places)) == len(places):
        return {player: Decimal(values[place - 1]) for player, place in ranks.items()}
    shares: dict[str, Decimal] = {}
    for player, place in ranks.items():
        if player in shares:
            continue
        tied = [other for other, other_place in ranks.items() if other_place == place]
        total = sum(values[place - 1 : place - 1 + len(tied)])
        shares.update(zip(tied, _split(total, len(tied)), strict=True))
    return shares


def _split(total: int, count: int) -> list[Decimal]:
    """``total`` in ``count`` equal shares; hundredths, remainder to the earlier seat when not exact."""
    share = Decimal(total) / count
    if _is_finite_decimal(Fraction(total, count)):
        return [share] * count
    floor = share.quantize(HUNDREDTH, rounding=ROUND_FLOOR)
    extra = int((total - floor * count) / HUNDREDTH)
    return [floor + HUNDREDTH if index < extra else floor for index in range(count)]


def _is_finite_decimal(value: Fraction) -> bool:
    denominator = value.denominator
    for factor in (2, 5):
        while denominator % factor == 0:
            denominator //= factor
    return denominator == 1


def hanchan_scores(
    points: Mapping[str, int], ruleset: Ruleset, sticks_left: int = 0
) -> tuple[dict[str, int], dict[str, Decimal], dict[str, Decimal]]:
    """(ranks, uma, scores) of a table's final points, players in starting seat order.

    Raises ValueError when the points are not a possible end of a hanchan (see ``check_final_points``).
    """
    problems = check_final_points(points, sticks_left, ruleset)
    if problems:
        raise ValueError("; ".join(str(problem["message"]) for problem in problems))
    return table_scores(points, ruleset)


def table_scores(
    points: Mapping[str, int], ruleset: Ruleset
) -> tuple[dict[str, int], dict[str, Decimal], dict[str, Decimal]]:
    """``hanchan_scores`` of points already known to be a possible end of a hanchan."""
    ranks = ranks_of(points, by_seat=ruleset.ties_by_seat)
    uma = _uma(ranks, ruleset)
    counted = counted_points(points, ranks) if ruleset.round_to_thousand else points
    scores = {
        player: Decimal(value - ruleset.return_points) / THOUSAND + uma[player]
        for player, value in counted.items()
    }
    if ruleset.oka:
        # The oka to first place, split like the uma when several share it (in points, then thousands).
        oka = _by_place(ranks, (ruleset.oka, 0, 0, 0))
        for player in scores:
            scores[player] += oka[player] / THOUSAND
    return ranks, uma, scores


def format_score(score: Decimal) -> str:
    """A score as an exact decimal string: "23.2", "-15", "0.5", "0"."""
    text = str(score)
    if "E" in text or text == "-0" or ("." in text and text.endswith("0")):
        text = format(score.normalize(), "f")
    return "0" if text == "-0" else text
