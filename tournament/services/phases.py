"""A tournament in phases (``tournament.core.phases``): setting the phases, making the cut into a phase,
calling up the next in line for a player who leaves, and seating a phase by rank.

Each verb is one transaction, refused with ``Refusal``, audited, and moves the standings version (the
final ranking depends on who is in which phase). The refusals' messages are in the reader's language;
their field and rule never change. The audit log's words stay English (a record, not a message).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.core import phases
from tournament.core.phases import PhasePlan
from tournament.core.refusal import CONFLICT, Problem, Refusal
from tournament.models import Absence, Phase, PhaseEntry, Player, Round, StaffRole, Tournament
from tournament.queries import access, live, phases_db
from tournament.queries.standings_db import (
    forget_live,
    last_complete_hanchan,
    load_phases,
    schedule_standings_refresh,
)
from tournament.services import audit
from tournament.services.seating import STARTED, store_round


def _locked(phase: Phase) -> bool:
    """A phase under way: its cut is made, or (the first phase) one of its hanchan has started. Only its
    name may change then."""
    if phase.number > 1:
        return phase.entries.exists()
    return phase.tournament.rounds.filter(number__lte=phase.hanchan, status__in=STARTED).exists()


@transaction.atomic
def set_phases(tournament: Tournament, user: AbstractBaseUser, plans: Sequence[PhasePlan]) -> list[Phase]:
    """The tournament's phases, all at once (an empty list: one phase, as without phases). The
    tournament's hanchan count becomes their sum. A phase under way keeps everything but its name."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if plans:
        problem = phases.plan_problem(plans)
        if problem is not None:
            raise Refusal(problem.field, problem.rule, problem.message)
    existing = list(tournament.phases.order_by("number"))
    for index, phase in enumerate(existing):
        if not _locked(phase):
            continue
        kept = index < len(plans) and phase.plan() == PhasePlan(
            phase.name,
            *(getattr(plans[index], name) for name in ("hanchan", "seating", "carry_over", "advance")),
        )
        if not kept:
            message = _(
                "{field}: {phase} is under way (its cut is made or its play has begun): only its name can "
                "change"
            ).format(field=f"phases[{index}]", phase=phase.name)
            raise Refusal(f"phases[{index}]", "phase-under-way", message, status=CONFLICT)
    total = sum(plan.hanchan for plan in plans) if plans else tournament.hanchan_count
    if tournament.rounds.filter(number__gt=total).exclude(tables=None).exists():
        message = _("{field}: {total} hanchan in all, but hanchan beyond are seated").format(
            field="phases", total=total
        )
        raise Refusal("phases", "seated-rounds", message)
    before = [phase.plan() for phase in existing]
    locked = {phase.number for phase in existing if _locked(phase)}
    tournament.phases.exclude(number__in=locked).delete()
    stored = []
    for number, plan in enumerate(plans, start=1):
        fields = {
            "name": plan.name.strip(),
            "hanchan": plan.hanchan,
            "seating": plan.seating,
            "carry_over": plan.carry_over,
            "advance": plan.advance,
        }
        phase, _created = Phase.objects.update_or_create(
            tournament=tournament, number=number, defaults=fields
        )
        stored.append(phase)
    if total != tournament.hanchan_count:
        tournament.hanchan_count = total
        tournament.save(update_fields=["hanchan_count"])
    audit.record(
        tournament,
        user,
        "phases.set",
        "the phases",
        {"before": [_described(p) for p in before], "after": [_described(p) for p in plans]},
    )
    schedule_standings_refresh(tournament.pk)
    return stored


def _described(plan: PhasePlan) -> str:
    cut = f", top {plan.advance}, {plan.carry_over}" if plan.advance else ""
    return f"{plan.name}: {plan.hanchan} hanchan, {plan.seating}{cut}"


def _phase(tournament: Tournament, number: int) -> Phase:
    phase = tournament.phases.select_for_update().filter(number=number).first()
    if phase is None:
        message = _("{field}: this tournament has no phase {number}").format(field="phase", number=number)
        raise Refusal("phase", "phase-number", message, status=404)
    return phase


def _hanchan(tournament: Tournament, number: int) -> range:
    """The hanchan numbers of phase ``number``."""
    return phases.hanchan_of(phases_db.plans_of(tournament.pk), number)


def incomplete_before(tournament: Tournament, number: int) -> int | None:
    """The first hanchan of the phases before phase ``number`` that is not complete (every table
    signed), or None once they all are: the cut into the phase waits for it."""
    complete = last_complete_hanchan(tournament.pk)
    return complete + 1 if complete < _hanchan(tournament, number).start - 1 else None


def preview_cut(tournament: Tournament, number: int) -> tuple[phases.Cut, dict[int, str]]:
    """Who the cut into phase ``number`` keeps now (the organiser sees it before making it), with the
    names of the previous phase's players; refused as the cut would be until the phase before is over."""
    phase = tournament.phases.get(number=number)
    previous = _previous_standings(tournament, phase)
    cut = phases.make_cut(previous.standings, phase.advance or 0, eligible=eligible(tournament))
    return cut, {row.player: row.name for row in previous.standings.rows}


def _previous_standings(tournament: Tournament, phase: Phase) -> phases.PhaseStandings:
    """The standings of the phase before ``phase``, once every hanchan of it is complete."""
    previous_last = _hanchan(tournament, phase.number).start - 1
    waiting = incomplete_before(tournament, phase.number)
    if waiting is not None:
        message = _(
            "{field}: hanchan {hanchan} of the phase before {phase} is not complete (every table signed) yet"
        ).format(field="phase", hanchan=waiting, phase=phase.name)
        raise Refusal("phase", "phase-complete", message, status=CONFLICT)
    phased = load_phases(tournament.pk, up_to=previous_last)
    if phased is None or len(phased.phases) < phase.number - 1 or not phased.phases[phase.number - 2].reached:
        message = _("{field}: make the cut into the phase before {phase} first").format(
            field="phase", phase=phase.name
        )
        raise Refusal("phase", "phase-cut", message, status=CONFLICT)
    return phased.phases[phase.number - 2]


def eligible(tournament: Tournament) -> set[int]:
    """Who may advance: not withdrawn, not disqualified, not a substitute (WRCR 2015 §7.1, §7.2)."""
    return set(
        tournament.players.filter(is_substitute=False, disqualified=False)
        .exclude(status=Player.Status.WITHDRAWN)
        .values_list("pk", flat=True)
    )


def _phase_started(tournament: Tournament, phase: Phase) -> Round | None:
    span = _hanchan(tournament, phase.number)
    return (
        tournament.rounds.filter(number__gte=span.start, number__lt=span.stop, status__in=STARTED)
        .order_by("number")
        .first()
    )


@transaction.atomic
def make_cut(
    tournament: Tournament, number: int, user: AbstractBaseUser, *, chosen: Iterable[int] = ()
) -> list[PhaseEntry]:
    """The cut into phase ``number``: its ``advance`` best players of the previous phase, once that
    phase is complete. Players equal across the line after every tie-break are refused by name, for
    the organiser to choose (``chosen``). Made again (say, after a correction) while no hanchan of the
    phase is seated."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    phase = _phase(tournament, number)
    if number < 2 or phase.advance is None:
        message = _("{field}: {phase} has no cut before it").format(field="phase", phase=phase.name)
        raise Refusal("phase", "phase-cut", message)
    span = _hanchan(tournament, number)
    if tournament.rounds.filter(number__gte=span.start, number__lt=span.stop).exclude(tables=None).exists():
        message = _("{field}: {phase} is seated: its cut stays as made").format(
            field="phase", phase=phase.name
        )
        raise Refusal("phase", "phase-seated", message, status=CONFLICT)
    previous = _previous_standings(tournament, phase)
    cut = phases.make_cut(previous.standings, phase.advance, eligible=eligible(tournament), chosen=chosen)
    if cut.tied:
        names = dict(tournament.players.filter(pk__in=cut.tied).values_list("pk", "name"))
        tied = ", ".join(names[pk] for pk in cut.tied)
        raise Refusal.of(
            [
                Problem(
                    "chosen",
                    "cut-tie",
                    _(
                        "{field}: {players} are equal at the line after every tie-break; choose {places} of "
                        "them to advance"
                    ).format(field="chosen", players=tied, places=cut.places),
                    extra={"tied": list(cut.tied), "places": cut.places},
                )
            ],
            status=CONFLICT,
        )
    if len(cut.advancing) < phase.advance:
        message = _("{field}: only {count} players can advance to {phase}, which takes {advance}").format(
            field="phase", count=len(cut.advancing), phase=phase.name, advance=phase.advance
        )
        raise Refusal("phase", "phase-cut", message, status=CONFLICT)
    phase.entries.all().delete()
    entries = PhaseEntry.objects.bulk_create(
        PhaseEntry(phase=phase, player_id=pk, seed=seed) for seed, pk in enumerate(cut.advancing, start=1)
    )
    phase.cut_at = timezone.now()
    phase.save(update_fields=["cut_at"])
    names = dict(tournament.players.filter(pk__in=cut.advancing).values_list("pk", "name"))
    audit.record(
        tournament,
        user,
        "phases.cut",
        f"the cut into {phase.name}",
        {"advancing": [names[pk] for pk in cut.advancing]},
    )
    _changed(tournament)
    return entries


@transaction.atomic
def call_up(tournament: Tournament, number: int, leaver: Player, user: AbstractBaseUser) -> PhaseEntry:
    """A player of phase ``number`` leaves it before it starts: the best eligible player of the
    previous phase not in it yet takes their place (their seed, and their seats in the hanchan already
    seated). The leaver keeps their place in the previous phase's ranking."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    phase = _phase(tournament, number)
    entry = phase.entries.filter(player=leaver, left_at=None).first()
    if entry is None:
        message = _("{field}: {player} does not play {phase}").format(
            field="player", player=leaver.name, phase=phase.name
        )
        raise Refusal("player", "phase-member", message)
    started = _phase_started(tournament, phase)
    if started is not None:
        message = _(
            "{field}: hanchan {hanchan} of {phase} has started; a substitute takes the seat for a hanchan "
            "(the absences page, WRCR 2015 §7.2)"
        ).format(field="player", hanchan=started.number, phase=phase.name)
        raise Refusal("player", "phase-started", message, status=CONFLICT)
    previous = _previous_standings(tournament, phase)
    taken = set(phase.entries.values_list("player_id", flat=True))
    called = phases.next_in_line(previous.standings, taken, eligible(tournament))
    if called is None:
        message = _("{field}: nobody is left to call up to {phase}").format(field="player", phase=phase.name)
        raise Refusal("player", "phase-cut", message, status=CONFLICT)
    entry.left_at = timezone.now()
    entry.save(update_fields=["left_at"])
    replacement = PhaseEntry.objects.create(phase=phase, player_id=called, seed=entry.seed, replaces=leaver)
    span = _hanchan(tournament, number)
    seats = leaver.seats.filter(
        round__tournament=tournament, round__number__gte=span.start, round__number__lt=span.stop
    )
    seats.update(player_id=called)
    Absence.objects.filter(
        round__tournament=tournament,
        round__number__gte=span.start,
        round__number__lt=span.stop,
        player=leaver,
    ).delete()
    audit.record(
        tournament,
        user,
        "phases.call_up",
        f"{phase.name}: {replacement.player.name} in place of {leaver.name}",
    )
    _changed(tournament, seating=True)
    return replacement


@transaction.atomic
def seat_by_rank(tournament: Tournament, number: int, user: AbstractBaseUser) -> list[Round]:
    """Seat every hanchan of phase ``number`` at fixed tables by rank
    (``tournament.core.phases.tables_by_rank``):
    the best four seeds at table 1 and so on, the winds turning each hanchan."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    phase = _phase(tournament, number)
    if phase.seating != Phase.Seating.BY_RANK:
        message = _("{field}: {phase} is not seated by rank (its seating: {seating})").format(
            field="phase", phase=phase.name, seating=phase.get_seating_display()
        )
        raise Refusal("phase", "phase-seating", message)
    if number < 2:
        message = _("{field}: the first phase has no rank to seat by yet").format(field="phase")
        raise Refusal("phase", "phase-seating", message)
    started = _phase_started(tournament, phase)
    if started is not None:
        message = _("{field}: hanchan {hanchan} has started").format(field="phase", hanchan=started.number)
        raise Refusal("phase", "played-rounds-are-kept", message, status=CONFLICT)
    entries = list(phase.entries.filter(left_at=None).select_related("player").order_by("seed"))
    if not entries:
        message = _("{field}: make the cut into {phase} first").format(field="phase", phase=phase.name)
        raise Refusal("phase", "phase-cut", message, status=CONFLICT)
    playing = [
        e.player_id
        for e in entries
        if e.player.status != Player.Status.WITHDRAWN and not e.player.disqualified
    ]
    if len(playing) % 4:
        message = _(
            "{field}: {count} players still play {phase}, not whole tables; call up the next in line in "
            "place of each player who left"
        ).format(field="phase", count=len(playing), phase=phase.name)
        raise Refusal("phase", "phase-field", message, status=CONFLICT)
    span = _hanchan(tournament, number)
    rounds = [
        store_round(tournament, hanchan, phases.tables_by_rank(playing, index), Round.Mode.BY_RANK)
        for index, hanchan in enumerate(span)
    ]
    Absence.objects.filter(round__in=rounds).delete()
    audit.record(
        tournament, user, "phases.seat_by_rank", f"{phase.name}: hanchan {span.start} to {span.stop - 1}"
    )
    _changed(tournament, seating=True)
    return rounds


def _changed(tournament: Tournament, *, seating: bool = False) -> None:
    schedule_standings_refresh(tournament.pk)
    transaction.on_commit(lambda: forget_live(tournament.pk))
    if seating:
        live.announce_on_commit(tournament.pk, "seating")
