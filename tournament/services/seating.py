"""Seating: the generation of a schedule in a Celery task, its confirmation, and Swiss hanchan. Who is
seated is ``field``; what a re-seating proposes, ``reseating``.

``request_seating`` queues a ``SeatingJob``; the task ``generate_seating`` beside it runs
``run_seating_job``, which calls the pure generator (``tournament.seating``) and stores its schedule.
The job row is its own outbox, swept by ``requeue_stalled_seating_jobs`` (``tournament.services.jobs``):
a request succeeds with the broker down, and a job whose worker died is run again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from celery import shared_task
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournament import seating
from tournament.core.refusal import Refusal
from tournament.models import Absence, Player, Round, Seat, SeatingJob, StaffRole, Table, Tournament
from tournament.queries import access, live, phases_db
from tournament.queries.standings_db import forget_live, load_standings
from tournament.services import audit, club, jobs
from tournament.services.field import reseat_field, seated_here, seating_field, sitting_out
from tournament.services.reseating import alternative, offered

logger = logging.getLogger(__name__)
STARTED = [Round.Status.STARTED, Round.Status.FINISHED]


PREFERENCES = ("substitutes", "sit_out")
#: The two proposals of a re-seating, the first the default (``SeatingJob.PROPOSALS``).
CHOICES = SeatingJob.PROPOSALS
#: Seconds for the re-seat that keeps seats (``tournament.seating.reseat``); the sit-outs' rotation of a
#: fresh schedule needs less.
RESEAT_SECONDS = 4.0
ROTATION_SECONDS = 1.0


def _sat_out(tournament: Tournament, first: int, before: int) -> dict[int, int]:
    """How many of hanchan ``first`` to ``before - 1`` each player sat out by the organiser's choice."""
    counts: dict[int, int] = {}
    rows = Absence.objects.filter(
        round__tournament=tournament,
        reason=Absence.Reason.SITS_OUT,
        round__number__gte=first,
        round__number__lt=before,
    ).values_list("player_id", flat=True)
    for pk in rows:
        counts[pk] = counts.get(pk, 0) + 1
    return counts


def _stored_rounds(tournament: Tournament, first: int, stop: int) -> dict[int, list[list[int]]]:
    """The seating stored for hanchan ``first`` to ``stop - 1``, by hanchan number (those seated only)."""
    seats = Seat.objects.filter(
        round__tournament=tournament, round__number__gte=first, round__number__lt=stop
    ).values_list("round__number", "table__number", "player_id")
    by_round: dict[int, dict[int, list[int]]] = {}
    for number, table, pk in seats.order_by("round__number", "table__number", "wind"):
        by_round.setdefault(number, {}).setdefault(table, []).append(pk)
    return {number: [tables[t] for t in sorted(tables)] for number, tables in by_round.items()}


def _player_infos(players: Sequence[Player]) -> list[seating.PlayerInfo]:
    return [
        seating.PlayerInfo(p.pk, team=p.team or None, club=p.club or None, country=p.country.code or None)
        for p in players
    ]


@transaction.atomic
def request_seating(
    tournament: Tournament,
    user: AbstractBaseUser,
    *,
    from_round: int = 1,
    seed: int = 0,
    prefer: str = "substitutes",
) -> SeatingJob:
    """Queue the generation of hanchan ``from_round`` to the last; it runs in a Celery task. A first
    seating is stored when it is done; a re-seating of hanchan already seated waits for the organiser to
    confirm it (``apply_seating``), after seeing what changes."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    club.refuse_seating(tournament)
    if prefer not in PREFERENCES:
        raise Refusal(
            "prefer",
            "full-tables",
            _("prefer: {value} is neither 'substitutes' nor 'sit_out'").format(value=repr(prefer)),
        )
    if not 1 <= from_round <= tournament.hanchan_count:
        raise Refusal(
            "from_round",
            "hanchan-range",
            _("from_round: 1 to {last}").format(last=tournament.hanchan_count),
        )
    span = seated_here(tournament, from_round, "from_round")
    started = tournament.rounds.filter(
        number__gte=from_round, number__lt=span.hanchan.stop, status__in=STARTED
    ).first()
    if started is not None:
        raise Refusal(
            "from_round",
            "played-rounds-are-kept",
            _("from_round: hanchan {number} has started; re-seat from hanchan {next}").format(
                number=started.number, next=started.number + 1
            ),
        )
    seating_field(tournament, prefer, from_round)  # refuse at once when the field cannot fill its tables
    job = SeatingJob.objects.create(
        tournament=tournament,
        requested_by=user,
        from_round=from_round,
        seed=seed,
        prefer=prefer,
        heartbeat_at=timezone.now(),
    )
    jobs.send_on_commit(generate_seating, job.pk)
    return job


# No result is stored: the job row holds the outcome, and sending a task then needs the broker only.
@shared_task(
    name="tournament.generate_seating",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def generate_seating(self: Any, job_id: int) -> dict[str, object]:
    return run_seating_job(job_id, task_id=self.request.id).as_dict()


def requeue_stalled_seating() -> list[int]:
    """Send again the seating jobs never picked up or whose worker died (``tournament.services.jobs``)."""
    return jobs.requeue_stalled(SeatingJob, generate_seating)


@shared_task(name="tournament.requeue_stalled_seating_jobs", ignore_result=True)
def requeue_stalled_seating_jobs() -> list[int]:
    """The sweep, sent by Celery beat every ``JOB_SWEEP_SECONDS``."""
    return requeue_stalled_seating()


def run_seating_job(job_id: int, task_id: str | None = None) -> SeatingJob:
    """Generate and store the seating of a job, if this delivery (``task_id``) claims it. Safe to run
    twice: a finished job or one running elsewhere is left alone, and only the latest attempt stores."""
    attempt = jobs.claim(SeatingJob, job_id, task_id)
    job = SeatingJob.objects.select_related("tournament").get(pk=job_id)
    if attempt is None:
        return job
    tournament = job.tournament
    progress = jobs.progress_writer(SeatingJob, job.pk, attempt)
    # What the job stores (its error) is written once: in the tournament's language, whichever worker
    # runs it; the report's sentences are worded when shown, in each reader's.
    with translation.override(tournament.record_language()):
        try:
            # A tournament in phases: the schedule of the phase of ``from_round`` (tournament.phases).
            span = phases_db.span_of(tournament.pk, tournament.hanchan_count, job.from_round)
            field = seating_field(tournament, job.prefer, job.from_round)
            fixed = played_rounds(tournament, job.from_round, first=span.hanchan.start)
            rule = separation_rule(tournament)
            schedule = seating.generate(
                _player_infos(field),
                len(span.hanchan),
                seed=job.seed,
                fixed_rounds=fixed,
                separate=rule,
                progress=progress,
            )
            names = {player.pk: player.name for player in tournament.players.all()}

            def name_of(pk: int) -> str:
                return names.get(pk, str(pk))

            field_changes = job.from_round > span.hanchan.start  # the hanchan played may hold others
            later = schedule.as_lists()[job.from_round - span.hanchan.start :]
            everyone = reseat_field(tournament, job.prefer, job.from_round)
            ids = [p.pk for p in everyone]
            sat_out = _sat_out(tournament, span.hanchan.start, job.from_round)
            out: list[list[int]] = [[] for _ in later]
            if len(everyone) > len(field):
                # Some sit out: in rotation, hanchan by hanchan, moving as few of the generated seats.
                rotated = seating.reseat(
                    later,
                    _player_infos(everyone),
                    played=fixed,
                    separate=rule,
                    sat_out=sat_out,
                    seed=job.seed,
                    time_limit=ROTATION_SECONDS,
                )
                later, out = rotated.as_lists(), [list(o) for o in rotated.sitting_out]
                field_changes = True  # who plays changes from hanchan to hanchan
            stored = _stored_rounds(tournament, job.from_round, span.hanchan.stop)
            alternatives: dict[str, Any] = {}
            if stored:
                before = current_report(tournament, names)
                # A hanchan not seated yet takes the best schedule's tables as its published ones.
                published = [stored.get(job.from_round + h, hanchan) for h, hanchan in enumerate(later)]
                # The generated schedule with its tables numbered to keep the most published seats.
                best = alternative(
                    seating.renumbered(later, published), published, fixed, ids, out, name_of, field_changes
                )
                cap = max(best["report"]["excess_meetings"], before.get("excess_meetings", 0))
                kept = seating.reseat(
                    published,
                    _player_infos(everyone),
                    played=fixed,
                    separate=rule,
                    sat_out=sat_out,
                    max_excess=cap,
                    max_meetings=max(best["report"]["max_pair_meetings"], before.get("max_pair_meetings", 0)),
                    seed=job.seed,
                    time_limit=RESEAT_SECONDS,
                )
                fewest = alternative(
                    kept.as_lists(), published, fixed, ids, kept.sitting_out, name_of, field_changes
                )
                in_field = set(ids)
                alternatives = {
                    **offered(fewest, best),
                    "lower_bound": kept.lower_bound,
                    "lower_bounds": list(kept.lower_bounds),
                    "left": [
                        sorted(p for t in hanchan for p in t if p not in in_field) for hanchan in published
                    ],
                }
            with transaction.atomic():
                if not jobs.is_current(SeatingJob, job.pk, attempt):  # locked: one attempt stores
                    raise jobs.Superseded(f"seating job {job.pk}: attempt {attempt} was superseded")
                if alternatives:
                    # A re-seating: two proposals, shown with what they change, until the organiser
                    # confirms one (fewest moves by default).
                    jobs.finish(
                        SeatingJob,
                        job.pk,
                        attempt,
                        report=alternatives["fewest_moves"]["report"],
                        proposal=alternatives["fewest_moves"]["rounds"],
                        alternatives=alternatives,
                        before_report=before,
                        state=SeatingJob.State.DONE,
                        progress=1.0,
                    )
                else:
                    report = seating.quality_report(
                        [*fixed, *later], n_players=len(field), name_of=name_of, field_changes=field_changes
                    )
                    _apply(tournament, job.from_round, later, job.prefer, span.members, out)
                    jobs.finish(
                        SeatingJob,
                        job.pk,
                        attempt,
                        report=report,
                        applied_at=timezone.now(),
                        state=SeatingJob.State.DONE,
                        progress=1.0,
                    )
        except jobs.Superseded:
            logger.warning("seating job %s: attempt %s superseded, stopped", job.pk, attempt)
        except (Refusal, seating.SeatingError) as exc:
            jobs.finish(SeatingJob, job.pk, attempt, state=SeatingJob.State.FAILED, error=str(exc))
    job.refresh_from_db()
    return job


def separation_rule(tournament: Tournament) -> seating.SeparationRule | None:
    """The tournament's separation settings as the seating generator's rule (0 means never)."""
    rule = {name: (seating.NEVER if value == 0 else value) for name, value in tournament.separation().items()}
    if all(value is None for value in rule.values()):
        return None
    return seating.SeparationRule(**rule)


def played_rounds(tournament: Tournament, before: int, *, first: int = 1) -> list[list[list[int]]]:
    """The seating of hanchan ``first`` to ``before - 1`` as the generator's fixed rounds (table order
    kept)."""
    stored = _stored_rounds(tournament, first, before)
    for round_number in range(first, before):
        if round_number not in stored:
            raise Refusal(
                "from_round",
                "played-rounds-are-kept",
                _("from_round: hanchan {number} has no seating; generate from hanchan {number}").format(
                    number=round_number
                ),
            )
    return [stored[number] for number in range(first, before)]


def current_report(tournament: Tournament, names: dict[int, str]) -> dict[str, Any]:
    """The quality report of the seating stored now (every hanchan seated so far), for a comparison."""
    seated = tournament.rounds.filter(tables__isnull=False).distinct().count()
    rounds = played_rounds(tournament, seated + 1)
    if not rounds:
        return {}
    return seating.quality_report(rounds, name_of=lambda pk: names.get(pk, str(pk)), field_changes=True)


def _apply(
    tournament: Tournament,
    from_round: int,
    later: Sequence[Sequence[Sequence[int]]],
    prefer: str,
    members: list[int] | None = None,
    sitting_out_by_hanchan: Sequence[Sequence[int]] | None = None,
) -> None:
    """Store hanchan ``from_round`` on, and make the absences of those hanchan agree with it: a withdrawn
    player is absent (withdrawn), a player sitting out by the organiser's choice sits out (those of
    ``sitting_out_by_hanchan``, hanchan by hanchan, else the last to check in), and nothing else is an
    absence there (a substitute placed in an old seat is gone with that seat). In a phase after a cut,
    only its ``members`` can be absent, and nobody sits out."""
    for offset, tables in enumerate(later):
        store_round(tournament, from_round + offset, tables, Round.Mode.GENERATED)
    numbers = range(from_round, from_round + len(later))
    Absence.objects.filter(round__tournament=tournament, round__number__in=numbers).delete()
    out: list[set[int]] = [set() for _ in numbers]
    if prefer == "sit_out" and members is None:
        if sitting_out_by_hanchan is not None:
            out = [set(pks) for pks in sitting_out_by_hanchan]
        else:
            out = [{player.pk for player in sitting_out(tournament)} for _ in numbers]
    withdrawn = tournament.players.filter(status=Player.Status.WITHDRAWN, is_substitute=False)
    if members is not None:
        withdrawn = withdrawn.filter(pk__in=members)
    rounds = {r.number: r for r in tournament.rounds.filter(number__in=numbers)}
    records = [
        Absence(round=rounds[number], player=player, reason=Absence.Reason.WITHDRAWN)
        for player in withdrawn
        if player.seats.exists() or player.replaced_in_seats.exists()  # they played: not a no-show
        for number in numbers
        if number >= (player.withdrawn_from or 1)
    ]
    records += [
        Absence(round=rounds[number], player_id=pk, reason=Absence.Reason.SITS_OUT)
        for number, pks in zip(numbers, out, strict=True)
        for pk in sorted(pks)
    ]
    Absence.objects.bulk_create(records)
    transaction.on_commit(lambda: forget_live(tournament.pk))
    live.announce_on_commit(tournament.pk, "seating")  # public at once where the seating is published whole


@transaction.atomic
def apply_seating(job: SeatingJob, user: AbstractBaseUser, choice: str = "fewest_moves") -> SeatingJob:
    """The organiser confirms a re-seating, choosing one of its proposals (``CHOICES``: fewest moves by
    default, or the best schedule): its hanchan are stored and published as the tournament publishes
    seating, with the absences agreeing. Refused when a hanchan it re-seats has started since, or when
    the field changed since it was computed (generate again)."""
    tournament = job.tournament
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    if choice not in CHOICES:
        raise Refusal(
            "choice",
            "reseat-choice",
            _("choice: {value} is neither 'fewest_moves' nor 'best_schedule'").format(value=repr(choice)),
        )
    job = SeatingJob.objects.select_for_update().get(pk=job.pk)
    if not job.awaiting_confirmation:
        raise Refusal("job", "reseat-confirmation", _("job: this seating is not waiting for a confirmation"))
    chosen = job.alternatives.get(choice) if job.alternatives else None
    if chosen is None and job.alternatives:
        raise Refusal("choice", "reseat-choice", _("choice: this re-seating has no such proposal"))
    rounds = chosen["rounds"] if chosen is not None else job.proposal
    out = chosen["sitting_out"] if chosen is not None else None
    span = phases_db.span_of(tournament.pk, tournament.hanchan_count, job.from_round)
    started = tournament.rounds.filter(
        number__gte=job.from_round, number__lt=span.hanchan.stop, status__in=STARTED
    ).first()
    if started is not None:
        raise Refusal(
            "job",
            "played-rounds-are-kept",
            _("job: hanchan {number} has started since").format(number=started.number),
        )
    proposed = {pk for table in rounds[0] for pk in table} if rounds else set()
    if out is not None:
        proposed |= set(out[0]) if out else set()
        present = reseat_field(tournament, job.prefer, job.from_round)
    else:
        present = seating_field(tournament, job.prefer, job.from_round)
    if proposed != {player.pk for player in present}:
        raise Refusal(
            "job",
            "field-changed",
            _("job: the players present changed since this seating was made; generate again"),
        )
    _apply(tournament, job.from_round, rounds, job.prefer, span.members, out)
    job.applied_at = timezone.now()
    job.choice = choice if chosen is not None else ""
    if chosen is not None:
        job.proposal, job.report = rounds, chosen["report"]
    job.save(update_fields=["applied_at", "choice", "proposal", "report"])
    last = job.from_round + len(rounds) - 1
    audit.record(tournament, user, "seating.apply", f"hanchan {job.from_round} to {last} ({choice})")
    return job


def store_round(tournament: Tournament, number: int, tables: Sequence[Sequence[int]], mode: str) -> Round:
    """Seat one hanchan: ``tables`` lists each table's players (ids) in seat order East to North."""
    Seat.objects.filter(round__tournament=tournament, round__number=number).delete()
    Table.objects.filter(round__tournament=tournament, round__number=number).delete()
    round_, _ = Round.objects.update_or_create(
        tournament=tournament, number=number, defaults={"status": Round.Status.SEATED, "mode": mode}
    )
    stored = Table.objects.bulk_create(Table(round=round_, number=index + 1) for index in range(len(tables)))
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, wind=wind, player_id=player_id)
        for table, players in zip(stored, tables, strict=True)
        for wind, player_id in enumerate(players)
    )
    return round_


@transaction.atomic
def seat_swiss_round(tournament: Tournament, number: int, user: AbstractBaseUser, *, seed: int = 0) -> Round:
    """Seat hanchan ``number`` from the current standings (Swiss): the top four together, and so on,
    avoiding repeat meetings with the hanchan already seated before it where a small move allows."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    club.refuse_seating(tournament)
    if not 1 <= number <= tournament.hanchan_count:
        raise Refusal("round", "hanchan-range", _("round: 1 to {last}").format(last=tournament.hanchan_count))
    existing = tournament.rounds.filter(number=number).first()
    if existing is not None and existing.has_started:
        raise Refusal(
            "round", "played-rounds-are-kept", _("round: hanchan {number} has started").format(number=number)
        )
    seated_here(tournament, number, "round")
    field = {player.pk for player in seating_field(tournament, hanchan=number)}
    # Best first by overall score (signed sheets only); substitutes take the place their score gives them.
    order = [
        row.player for row in sorted(load_standings(tournament.pk).rows, key=lambda r: (-r.total, r.name))
    ]
    ranking = [pk for pk in order if pk in field]
    try:
        tables = seating.swiss_round(ranking, played_rounds(tournament, number), seed=seed)
    except seating.SeatingError as exc:
        raise Refusal("round", "swiss", str(exc)) from None
    round_ = store_round(tournament, number, tables, Round.Mode.SWISS)
    transaction.on_commit(lambda: forget_live(tournament.pk))
    live.announce_on_commit(tournament.pk, "seating")
    return round_
