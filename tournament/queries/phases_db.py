"""The phases of a tournament read from the database, as ``tournament.core.phases`` takes them."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.core.phases import Member, PhasePlan, first_hanchan, hanchan_of, phase_of
from tournament.models import Phase, PhaseEntry


def plans_of(tournament_id: int) -> list[PhasePlan]:
    """The tournament's phases in order; empty for a tournament in one phase."""
    return [phase.plan() for phase in Phase.objects.filter(tournament_id=tournament_id).order_by("number")]


def phase_names(tournament_id: int) -> dict[int, str]:
    """Phase number -> name, for a tournament in phases; empty for a tournament in one phase."""
    names = dict(Phase.objects.filter(tournament_id=tournament_id).values_list("number", "name"))
    return names if len(names) > 1 else {}


def members_of(tournament_id: int) -> dict[int, list[Member]]:
    """The players of each phase after its cut (phase number -> members, best seed first)."""
    members: dict[int, list[Member]] = {}
    entries = (
        PhaseEntry.objects.filter(phase__tournament_id=tournament_id)
        .order_by("phase__number", "seed", "left_at")
        .values_list("phase__number", "player_id", "seed", "left_at")
    )
    for number, player_id, seed, left_at in entries:
        members.setdefault(number, []).append(Member(player_id, seed, active=left_at is None))
    return members


def out_from(tournament_id: int, player_ids: list[int]) -> dict[int, int]:
    """For the players left out by a cut (or who left a phase), the first hanchan they no longer play."""
    plans = plans_of(tournament_id)
    if len(plans) < 2:
        return {}
    members = members_of(tournament_id)
    out: dict[int, int] = {}
    for number in range(2, len(plans) + 1):
        if number not in members:
            break
        playing = {member.player for member in members[number] if member.active}
        for pk in player_ids:
            if pk not in playing and pk not in out:
                out[pk] = first_hanchan(plans, number)
    return out


@dataclass(frozen=True)
class Span:
    """The phase a hanchan belongs to: its number and name, its hanchan, its seating method, and its
    players after the cut (None for the first phase, or a tournament in one phase: the whole field)."""

    number: int
    name: str
    hanchan: range
    seating: str
    members: list[int] | None


def span_of(tournament_id: int, hanchan_count: int, number: int) -> Span:
    """The phase of hanchan ``number`` (a tournament in one phase: every hanchan, optimised)."""
    plans = plans_of(tournament_id)
    if len(plans) < 2:
        return Span(1, "", range(1, hanchan_count + 1), "optimised", None)
    phase = phase_of(plans, number)
    plan = plans[phase - 1]
    members = None
    if phase > 1:
        members = [member.player for member in members_of(tournament_id).get(phase, []) if member.active]
    return Span(phase, plan.name, hanchan_of(plans, phase), plan.seating, members)
