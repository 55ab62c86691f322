"""A tournament in phases, in plain Python (no Django): qualifying, then cuts to a semifinal and a final.

A tournament is one or more phases, played one after the other. Each phase has its hanchan (the
tournament's hanchan numbers run on across the phases), its seating method and, from the second on:

- **the cut**: the best ``advance`` players of the previous phase's standings play it. Equal totals are
  separated by the tournament's tie-breaks (``tournament.core.standings``); players still equal across the
  line are the organiser's choice (the cut names them, and the organiser picks who advances), since no
  rule of the game can decide between them. Withdrawn and disqualified players never advance: the next
  in the ranking takes the place, and a player who leaves before the phase starts is replaced by the
  next one not yet in it (``next_in_line``).
- **the carry-over**: what each player brings from the previous phase, as ``CARRY_OVERS``:
  ``keep`` the total, ``halve`` it, ``reset`` to zero, or keep only the ``rank``: everyone starts from
  zero and equal totals in the phase are separated first by the rank brought from the previous phase.

The seating methods (``SEATINGS``): ``optimised`` (the seating generator's schedule for the phase's
hanchan), ``swiss`` (each hanchan from the standings), or ``by_rank``: fixed tables by the rank brought
into the phase, the best four at table 1 and so on, the same tables every hanchan of the phase with the
seat winds turning one place each hanchan, so that over four hanchan each player sits each wind once.

The final ranking puts the players of the last phase reached first, in that phase's order, then those
who left at each earlier cut in the order of the phase they left from, and so on down to the first
phase (e.g. the final table 1 to 4, the semifinalists 5 to 16, the rest from 17 by the qualifying).
A semifinal/final structure is one configuration: qualifying (optimised, 8 hanchan), semifinal
(advance 16, by rank, 2 hanchan, keep), final (advance 4, by rank, 2 hanchan, halve).

Penalties count in the phase of the hanchan they are given for; one given for no hanchan counts in the
first phase (and moves on with the carry-over).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Literal

from scoring.rules.i18n import _
from tournament.core.standings import (
    ZERO,
    Entrant,
    HanchanResult,
    PenaltyEntry,
    StandingRow,
    Standings,
    TieBreak,
    compute_standings,
)

Seating = Literal["optimised", "swiss", "by_rank"]
CarryOver = Literal["keep", "halve", "reset", "rank"]
SEATINGS: tuple[Seating, ...] = ("optimised", "swiss", "by_rank")
CARRY_OVERS: tuple[CarryOver, ...] = ("keep", "halve", "reset", "rank")
MAX_PHASES = 6
MAX_HANCHAN = 40
MAX_NAME = 80


@dataclass(frozen=True, slots=True)
class PhasePlan:
    """One phase as the organiser sets it. ``advance`` and ``carry_over`` apply from the second phase."""

    name: str
    hanchan: int
    seating: Seating = "optimised"
    carry_over: CarryOver = "keep"
    advance: int | None = None


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a plan cannot be: the field it is about (``phases[1].advance``) and the rule."""

    field: str
    rule: str
    message: str


def plan_problem(plans: Sequence[PhasePlan]) -> Problem | None:
    """The first reason ``plans`` is not a tournament's phases, or None. Each message names its field
    (``{field}: ...``) and is in the reader's language (``scoring.rules.i18n``); field and rule never
    change."""
    if not 1 <= len(plans) <= MAX_PHASES:
        message = _("{field}: 1 to {most} phases").format(field="phases", most=MAX_PHASES)
        return Problem("phases", "phase-count", message)
    total = 0
    previous_field: int | None = None
    for index, plan in enumerate(plans):
        where = f"phases[{index}]"
        name = plan.name.strip()
        if not name or len(name) > MAX_NAME:
            message = _("{field}: 1 to {most} characters").format(field=f"{where}.name", most=MAX_NAME)
            return Problem(f"{where}.name", "phase-name", message)
        if not isinstance(plan.hanchan, int) or not 1 <= plan.hanchan <= MAX_HANCHAN:
            message = _("{field}: 1 to {most}").format(field=f"{where}.hanchan", most=MAX_HANCHAN)
            return Problem(f"{where}.hanchan", "hanchan-range", message)
        if plan.seating not in SEATINGS:
            shown = plan.seating if isinstance(plan.seating, str) and len(plan.seating) <= 20 else "this"
            message = _("{field}: {value} is not one of {choices}").format(
                field=f"{where}.seating", value=repr(shown), choices=", ".join(SEATINGS)
            )
            return Problem(f"{where}.seating", "phase-seating", message)
        if plan.carry_over not in CARRY_OVERS:
            given = (
                plan.carry_over if isinstance(plan.carry_over, str) and len(plan.carry_over) <= 20 else "this"
            )
            message = _("{field}: {value} is not one of {choices}").format(
                field=f"{where}.carry_over", value=repr(given), choices=", ".join(CARRY_OVERS)
            )
            return Problem(f"{where}.carry_over", "phase-carry-over", message)
        total += plan.hanchan
        if index == 0:
            if plan.advance is not None:
                message = _("{field}: the first phase has no cut before it").format(field=f"{where}.advance")
                return Problem(f"{where}.advance", "phase-cut", message)
            continue
        if not isinstance(plan.advance, int) or plan.advance < 4 or plan.advance % 4:
            message = _("{field}: how many players the cut keeps, a multiple of 4 (whole tables)").format(
                field=f"{where}.advance"
            )
            return Problem(f"{where}.advance", "phase-cut", message)
        if previous_field is not None and plan.advance >= previous_field:
            message = _("{field}: a cut keeps fewer players than the phase before it ({before})").format(
                field=f"{where}.advance", before=previous_field
            )
            return Problem(f"{where}.advance", "phase-cut", message)
        previous_field = plan.advance
    if total > MAX_HANCHAN:
        message = _("{field}: {total} hanchan in all; at most {most}").format(
            field="phases", total=total, most=MAX_HANCHAN
        )
        return Problem("phases", "hanchan-range", message)
    return None


def first_hanchan(plans: Sequence[PhasePlan], number: int) -> int:
    """The first hanchan of phase ``number`` (phases count from 1)."""
    return 1 + sum(plan.hanchan for plan in plans[: number - 1])


def hanchan_of(plans: Sequence[PhasePlan], number: int) -> range:
    """The hanchan numbers of phase ``number``."""
    first = first_hanchan(plans, number)
    return range(first, first + plans[number - 1].hanchan)


def phase_of(plans: Sequence[PhasePlan], hanchan: int) -> int:
    """The phase that hanchan ``hanchan`` belongs to (the last phase for a number beyond them all)."""
    last = 0
    for number, plan in enumerate(plans, start=1):
        last += plan.hanchan
        if hanchan <= last:
            return number
    return len(plans)


def carried_score(carry_over: CarryOver, total: Decimal) -> Decimal:
    """What a player's total of the previous phase is worth at the start of the next."""
    if carry_over == "keep":
        return total
    if carry_over == "halve":
        return total / 2
    return ZERO


@dataclass(frozen=True, slots=True)
class Member:
    """A player of a phase after the cut: the rank they brought (``seed``, 1 the best) and whether they
    still play it (a player who left keeps their place in the previous phase's order)."""

    player: Hashable
    seed: int
    active: bool = True


@dataclass(frozen=True, slots=True)
class PhaseStandings:
    number: int
    plan: PhasePlan
    standings: Standings
    reached: bool  # the cut into it is made (always, for the first phase)


@dataclass(frozen=True, slots=True)
class PhasedStandings:
    phases: list[PhaseStandings]
    overall: Standings  # the final ranking: the last phase reached first, then each earlier one


def phased_standings(
    entrants: Iterable[Entrant],
    results: Iterable[HanchanResult],
    penalties: Iterable[PenaltyEntry],
    plans: Sequence[PhasePlan],
    members: Mapping[int, Sequence[Member]],
    *,
    tie_breaks: Sequence[TieBreak] = (),
    up_to: int | None = None,
) -> PhasedStandings:
    """The standings of each phase and the final ranking.

    ``members`` gives the players of each phase after its cut (phase number -> members); a phase from
    the second on without members is not reached yet. With ``up_to``, only the hanchan up to it count
    and a phase starting after it is not reached."""
    entrants = list(entrants)
    results = [r for r in results if up_to is None or r.round <= up_to]
    penalties = [p for p in penalties if up_to is None or p.round is None or p.round <= up_to]
    by_phase_results: dict[int, list[HanchanResult]] = {}
    for result in results:
        by_phase_results.setdefault(phase_of(plans, result.round), []).append(result)
    by_phase_penalties: dict[int, list[PenaltyEntry]] = {}
    for penalty in penalties:
        number = 1 if penalty.round is None else phase_of(plans, penalty.round)
        by_phase_penalties.setdefault(number, []).append(penalty)

    phases: list[PhaseStandings] = []
    previous: Standings | None = None
    for number, plan in enumerate(plans, start=1):
        rounds = hanchan_of(plans, number)
        reached = number == 1 or bool(members.get(number))
        if reached and up_to is not None and number > 1 and rounds.start > up_to:
            reached = False
        last = rounds.stop - 1 if up_to is None else min(rounds.stop - 1, up_to)
        if number == 1:
            phase_entrants = entrants
            carried: dict[Hashable, Decimal] = {}
            seeds: dict[Hashable, int] | None = None
        else:
            playing = {m.player: m for m in members.get(number, ()) if m.active} if reached else {}
            phase_entrants = [e for e in entrants if e.id in playing]
            totals = {row.player: row.total for row in previous.rows} if previous is not None else {}
            carried = {pk: carried_score(plan.carry_over, totals.get(pk, ZERO)) for pk in playing}
            seeds = {pk: m.seed for pk, m in playing.items()}
        ids = {e.id for e in phase_entrants}
        standings = compute_standings(
            phase_entrants,
            [r for r in by_phase_results.get(number, ()) if r.player in ids],
            [p for p in by_phase_penalties.get(number, ()) if p.player in ids],
            tie_breaks=tie_breaks,
            # The rank history runs to the last hanchan with a signed sheet (or ``up_to``), as without phases.
            rounds=last if up_to is not None and reached else None,
            first_round=rounds.start,
            carried=carried,
            seeds=seeds,
            seeds_break_ties=plan.carry_over == "rank",
        )
        phases.append(PhaseStandings(number, plan, standings, reached))
        if not reached:
            break
        previous = standings
    return PhasedStandings(phases, _overall(entrants, results, penalties, phases, up_to))


def _overall(
    entrants: Sequence[Entrant],
    results: Sequence[HanchanResult],
    penalties: Sequence[PenaltyEntry],
    phases: Sequence[PhaseStandings],
    up_to: int | None,
) -> Standings:
    """The final ranking (see the module's doc): each player's row from the last phase they reached,
    with every hanchan they played and every penalty they were given."""
    reached = [phase for phase in phases if phase.reached]
    everyone = compute_standings(entrants, results, penalties, rounds=up_to)  # each player's whole record
    record = {row.player: row for row in everyone.rows}
    placed: set[Hashable] = set()
    ranked: list[StandingRow] = []
    history: dict[Hashable, list[int | None]] = {}
    for phase in reached:
        for row in phase.standings.rows:
            if row.ranked:
                history.setdefault(row.player, []).extend(row.rank_history)
    for phase in reversed(reached):
        group = [row for row in phase.standings.rows if row.ranked and row.player not in placed]
        offset = len(ranked)
        first_of_rank: dict[int | None, int] = {}
        for position, row in enumerate(group):
            first_of_rank.setdefault(row.rank, position)
            whole = record[row.player]
            ranked.append(
                replace(
                    row,
                    rank=offset + first_of_rank[row.rank] + 1,
                    phase=phase.number,
                    by_round=whole.by_round,
                    played=whole.played,
                    firsts=whole.firsts,
                    places=whole.places,
                    best=whole.best,
                    penalties_by_round=whole.penalties_by_round,
                    rank_history=history.get(row.player, []),
                )
            )
            placed.add(row.player)
    unranked = [row for row in everyone.rows if not row.ranked]
    return Standings(rows=ranked + unranked, rounds=everyone.rounds, penalty_round=everyone.penalty_round)


@dataclass(frozen=True, slots=True)
class Cut:
    """Who advances: ``advancing`` in the order of the previous phase (their seeds), or, when players
    are still equal across the line, ``tied`` (those equal players) and ``places`` (how many of them
    advance), for the organiser to choose."""

    advancing: list[Hashable]
    tied: list[Hashable] = field(default_factory=list)
    places: int = 0


def make_cut(
    standings: Standings,
    advance: int,
    *,
    eligible: Iterable[Hashable],
    chosen: Iterable[Hashable] = (),
) -> Cut:
    """The best ``advance`` eligible players of a phase's standings (withdrawn and disqualified players
    are not eligible: the next one takes the place). Players equal across the line after every
    tie-break are listed in ``tied`` unless ``chosen`` names which of them advance."""
    allowed = set(eligible)
    order = [row for row in standings.rows if row.ranked and row.player in allowed]
    if len(order) <= advance:
        return Cut([row.player for row in order])
    line_rank = order[advance - 1].rank
    if order[advance].rank != line_rank:
        return Cut([row.player for row in order[:advance]])
    above = [row.player for row in order if row.rank is not None and row.rank < (line_rank or 0)]
    tied = [row.player for row in order if row.rank == line_rank]
    places = advance - len(above)
    picked = [pk for pk in tied if pk in set(chosen)]
    if len(picked) == places and len(set(chosen)) == places:
        return Cut(above + picked)
    return Cut(above, tied, places)


def next_in_line(
    standings: Standings, taken: Iterable[Hashable], eligible: Iterable[Hashable]
) -> Hashable | None:
    """The best eligible player of a phase's standings not ``taken`` (in the next phase already, or
    having left it): who is called up in place of a player who leaves before the phase starts."""
    skip, allowed = set(taken), set(eligible)
    for row in standings.rows:
        if row.ranked and row.player in allowed and row.player not in skip:
            return row.player
    return None


def tables_by_rank(seeded: Sequence[Hashable], hanchan_index: int) -> list[list[Hashable]]:
    """Fixed tables by rank: the best four at table 1 and so on, East to North; in the phase's hanchan
    ``hanchan_index`` (0 the first) each player moves on one wind per hanchan, so the best-seeded
    player is East in the first hanchan, South in the second, West in the third, North in the fourth."""
    if len(seeded) < 4 or len(seeded) % 4:
        raise ValueError(f"fixed tables need a multiple of 4 players, got {len(seeded)}")
    turn = hanchan_index % 4
    tables = []
    for start in range(0, len(seeded), 4):
        four = list(seeded[start : start + 4])
        tables.append(four[-turn:] + four[:-turn] if turn else four)
    return tables
