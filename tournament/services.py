"""Actions on tournaments, players and seating: one verb per change, each one transaction."""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django_countries import countries

from tournament import access, registration
from tournament.clock import ClockError
from tournament.models import Absence, Player, Round, Seat, SeatingJob, StaffRole, Table, Tournament
from tournament.standings_db import forget_live, schedule_standings_refresh


@cache
def country_lookup() -> dict[str, str]:
    """Upper-cased ISO 3166 alpha-2 codes, alpha-3 codes and English names, each to its alpha-2 code."""
    lookup: dict[str, str] = {}
    for code, name in countries:
        lookup[code.upper()] = code
        lookup[str(name).upper()] = code
        alpha3 = countries.alpha3(code)
        if alpha3:
            lookup[alpha3.upper()] = code
    return lookup


def preview_player_file(
    tournament: Tournament, data: bytes, filename: str, *, user: AbstractBaseUser
) -> registration.ImportPreview:
    """Read and check a player list without storing anything (organisers only)."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    rows = registration.parse_rows(registration.read_table(data, filename))
    existing = tournament.players.all()
    return registration.validate_rows(
        rows,
        countries=country_lookup(),
        existing_ema_ids={p.ema_id: p.name for p in existing if p.ema_id},
        existing_names=[p.name for p in existing],
    )


@transaction.atomic
def import_players(
    tournament: Tournament, data: bytes, filename: str, *, user: AbstractBaseUser
) -> registration.ImportPreview:
    """Store every player of the file, or none: a file with one bad row imports nothing."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # one import at a time per tournament
    preview = preview_player_file(tournament, data, filename, user=user)
    if preview.ok:
        Player.objects.bulk_create(
            Player(
                tournament=tournament,
                name=row.name,
                country=row.country,
                club=row.club,
                ema_id=row.ema_id,
                team=row.team,
                is_substitute=row.is_substitute,
            )
            for row in preview.rows
        )
        schedule_standings_refresh(tournament.pk)
    return preview


@transaction.atomic
def check_in(player: Player, *, user: AbstractBaseUser, checked_in: bool = True) -> Player:
    access.require_role(user, player.tournament, StaffRole.Role.ORGANISER)
    if player.status == Player.Status.WITHDRAWN:
        raise SeatingError(
            "status", "withdrawn-players", f"status: {player.name} has withdrawn and cannot check in"
        )
    player.status = Player.Status.CHECKED_IN if checked_in else Player.Status.REGISTERED
    player.checked_in_at = timezone.now() if checked_in else None
    player.save(update_fields=["status", "checked_in_at"])
    return player


@dataclass(frozen=True)
class CheckInPlan:
    """How the checked-in field becomes full tables (a multiple of four players)."""

    checked_in: int
    tables: int
    substitutes_needed: int
    substitutes_available: int
    # With prefer="sit_out": the players who sit out, the last to check in first.
    sitting_out: tuple[Player, ...]

    @property
    def short_of_substitutes(self) -> int:
        return max(0, self.substitutes_needed - self.substitutes_available)


def check_in_plan(tournament: Tournament, *, prefer: str = "substitutes") -> CheckInPlan:
    players = list(
        tournament.players.filter(status=Player.Status.CHECKED_IN, is_substitute=False).order_by(
            "checked_in_at", "pk"
        )
    )
    available = tournament.players.filter(is_substitute=True).exclude(status=Player.Status.WITHDRAWN).count()
    count = len(players)
    if prefer == "sit_out":
        out = registration.sitting_out(count)
        return CheckInPlan(count, count // 4, 0, available, tuple(players[count - out :]) if out else ())
    if prefer != "substitutes":
        raise ValueError(f"prefer: {prefer!r} is neither 'substitutes' nor 'sit_out'")
    needed = registration.substitutes_needed(count)
    return CheckInPlan(count, (count + needed) // 4, needed, available, ())


class SeatingError(ValueError):
    def __init__(self, field: str, rule: str, message: str) -> None:
        super().__init__(message)
        self.field, self.rule, self.message = field, rule, message

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "rule": self.rule, "message": self.message}


def _seat_substitute(round_: Round, player: Player, substitute: Player) -> Seat:
    if round_.has_started or round_.status == Round.Status.FINISHED:
        sheet_signed = Seat.objects.filter(
            round=round_, player=player, table__sheet__status="signed"
        ).exists()
        if sheet_signed:
            raise SeatingError(
                "round", "signed-table", f"hanchan {round_.number}: the table's sheet is signed"
            )
    if not substitute.is_substitute or substitute.tournament_id != round_.tournament_id:
        raise SeatingError(
            "substitute",
            "substitute-pool (WRCR 2015 §7.2)",
            f"substitute: {substitute.name} is not a substitute of this tournament",
        )
    if Seat.objects.filter(round=round_, player=substitute).exists():
        raise SeatingError(
            "substitute",
            "one-seat-per-hanchan",
            f"substitute: {substitute.name} already plays hanchan {round_.number}",
        )
    try:
        seat = Seat.objects.select_for_update().get(round=round_, player=player)
    except Seat.DoesNotExist:
        raise SeatingError(
            "player", "seated-player", f"player: {player.name} is not seated in hanchan {round_.number}"
        ) from None
    seat.player, seat.replaces = substitute, player
    seat.save(update_fields=["player", "replaces"])
    return seat


@transaction.atomic
def replace_with_substitute(
    round_: Round,
    player: Player,
    substitute: Player,
    user: AbstractBaseUser,
    *,
    reason: str = Absence.Reason.ABSENT,
) -> Absence:
    """Seat a substitute in an absent player's seat for one hanchan (WRCR 2015 §7.2).

    The substitute is scored normally at the table and never ranked; the absent player gets no hanchan
    score for that round and the missed-hanchan penalty (30 points), which replaces any lateness penalty.
    """
    from penalties.services import give_penalty

    access.require_role(user, round_.tournament, StaffRole.Role.ORGANISER)
    if reason not in Absence.Reason.values:
        raise SeatingError(
            "reason", "absence-reason", f"reason: {reason!r} is not one of {Absence.Reason.values}"
        )
    _seat_substitute(round_, player, substitute)
    absence = Absence.objects.create(
        round=round_, player=player, reason=reason, substitute=substitute, recorded_by=user
    )
    give_penalty(
        player,
        "missed_hanchan",
        user,
        round=round_,
        reason=f"{absence.get_reason_display()}: replaced by {substitute.name} in hanchan {round_.number}",
    )
    return absence


@transaction.atomic
def withdraw_player(
    player: Player, user: AbstractBaseUser, *, from_round: int, substitute: Player | None = None
) -> list[Absence]:
    """The player leaves the tournament from ``from_round`` on.

    With a ``substitute``, the substitute takes the player's seat in every seated hanchan not yet started
    (each a missed hanchan for the player, WRCR 2015 §7.2). Without one, the organiser re-seats the rounds
    not yet started with ``generate_seating`` (``from_round``), which seats only the remaining field.
    """
    access.require_role(user, player.tournament, StaffRole.Role.ORGANISER)
    player.status = Player.Status.WITHDRAWN
    player.save(update_fields=["status"])
    if substitute is None:
        return []
    rounds = Round.objects.filter(
        tournament=player.tournament, number__gte=from_round, seats__player=player
    ).exclude(status__in=[Round.Status.STARTED, Round.Status.FINISHED])
    return [
        replace_with_substitute(round_, player, substitute, user, reason=Absence.Reason.WITHDRAWN)
        for round_ in rounds.order_by("number")
    ]


def seating_field(tournament: Tournament) -> list[Player]:
    """Who is seated: the checked-in players (everyone registered while nobody has checked in), with
    as many substitutes as complete the last table (WRCR 2015 §7.2: substitutes are never ranked)."""
    players = tournament.players.filter(is_substitute=False).exclude(status=Player.Status.WITHDRAWN)
    if players.filter(status=Player.Status.CHECKED_IN).exists():
        players = players.filter(status=Player.Status.CHECKED_IN)
    field = list(players.order_by("pk"))
    needed = registration.substitutes_needed(len(field))
    substitutes = list(
        tournament.players.filter(is_substitute=True)
        .exclude(status=Player.Status.WITHDRAWN)
        .order_by("-status", "pk")[:needed]  # checked-in substitutes first
    )
    if len(substitutes) < needed:
        raise SeatingError(
            "players",
            "full-tables",
            f"{len(field)} players need {needed} substitute(s) to fill {(len(field) + needed) // 4} tables; "
            f"only {len(substitutes)} available. Register substitutes, or let players sit out.",
        )
    return field + substitutes


@transaction.atomic
def request_seating(
    tournament: Tournament, user: AbstractBaseUser, *, from_round: int = 1, seed: int = 0
) -> SeatingJob:
    """Queue the generation of hanchan ``from_round`` to the last; it runs in a Celery task."""
    from tournament.tasks import generate_seating

    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    if not 1 <= from_round <= tournament.hanchan_count:
        raise SeatingError("from_round", "hanchan-range", f"from_round: 1 to {tournament.hanchan_count}")
    started = tournament.rounds.filter(
        number__gte=from_round, status__in=[Round.Status.STARTED, Round.Status.FINISHED]
    ).first()
    if started is not None:
        raise SeatingError(
            "from_round",
            "played-rounds-are-kept",
            f"from_round: hanchan {started.number} has started; re-seat from hanchan {started.number + 1}",
        )
    seating_field(tournament)  # refuse at once when the field cannot fill its tables
    job = SeatingJob.objects.create(
        tournament=tournament, requested_by=user, from_round=from_round, seed=seed
    )
    transaction.on_commit(lambda: generate_seating.delay(job.pk))
    return job


def run_seating_job(job_id: int) -> SeatingJob:
    """Generate and store the seating of a job; safe to run twice (a finished job is left alone)."""
    from tournament import seating

    job = SeatingJob.objects.select_related("tournament").get(pk=job_id)
    if job.state == SeatingJob.State.DONE:
        return job
    SeatingJob.objects.filter(pk=job.pk).update(state=SeatingJob.State.RUNNING, progress=0.0)
    tournament = job.tournament
    last_saved = [0.0]

    def progress(fraction: float) -> None:
        now = time.monotonic()
        if now - last_saved[0] >= 0.5:
            last_saved[0] = now
            SeatingJob.objects.filter(pk=job.pk).update(progress=min(fraction, 0.99))

    try:
        field = seating_field(tournament)
        fixed = _played_rounds(tournament, job.from_round)
        schedule = seating.generate(
            [
                seating.PlayerInfo(
                    p.pk, team=p.team or None, club=p.club or None, country=p.country.code or None
                )
                for p in field
            ],
            tournament.hanchan_count,
            seed=job.seed,
            fixed_rounds=fixed,
            separate=separation_rule(tournament),
            progress=progress,
        )
        with transaction.atomic():
            _store_schedule(tournament, schedule, job.from_round)
            job.report = seating.quality_report(schedule)
            job.state, job.progress, job.finished_at = SeatingJob.State.DONE, 1.0, timezone.now()
            job.save(update_fields=["report", "state", "progress", "finished_at"])
    except (SeatingError, seating.SeatingError) as exc:
        job.state, job.error, job.finished_at = SeatingJob.State.FAILED, str(exc), timezone.now()
        job.save(update_fields=["state", "error", "finished_at"])
    return job


def separation_rule(tournament: Tournament) -> Any:
    """The tournament's separation settings as the seating generator's rule (0 means never)."""
    from tournament import seating

    rule = {name: (seating.NEVER if value == 0 else value) for name, value in tournament.separation().items()}
    if all(value is None for value in rule.values()):
        return None
    return seating.SeparationRule(**rule)


def _played_rounds(tournament: Tournament, before: int) -> list[list[list[int]]]:
    """The seating of hanchan 1 to ``before - 1`` as the generator's fixed rounds (table order kept)."""
    rounds: list[list[list[int]]] = []
    seats = Seat.objects.filter(round__tournament=tournament, round__number__lt=before).values_list(
        "round__number", "table__number", "player_id"
    )
    by_round: dict[int, dict[int, list[int]]] = {}
    for round_number, table_number, player_id in seats.order_by("round__number", "table__number", "wind"):
        by_round.setdefault(round_number, {}).setdefault(table_number, []).append(player_id)
    for round_number in range(1, before):
        tables = by_round.get(round_number)
        if not tables:
            raise SeatingError(
                "from_round",
                "played-rounds-are-kept",
                f"from_round: hanchan {round_number} has no seating; generate from hanchan {round_number}",
            )
        rounds.append([tables[number] for number in sorted(tables)])
    return rounds


def _store_schedule(tournament: Tournament, schedule: Any, from_round: int) -> None:
    for number in range(from_round, tournament.hanchan_count + 1):
        _store_round(tournament, number, schedule.rounds[number - 1], Round.Mode.GENERATED)


def _store_round(tournament: Tournament, number: int, tables: Any, mode: str) -> Round:
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
    from tournament import seating
    from tournament.standings_db import load_standings

    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    if not 1 <= number <= tournament.hanchan_count:
        raise SeatingError("round", "hanchan-range", f"round: 1 to {tournament.hanchan_count}")
    existing = tournament.rounds.filter(number=number).first()
    if existing is not None and existing.has_started:
        raise SeatingError("round", "played-rounds-are-kept", f"round: hanchan {number} has started")
    field = {player.pk for player in seating_field(tournament)}
    # Best first by overall score (signed sheets only); substitutes take the place their score gives them.
    order = [
        row.player for row in sorted(load_standings(tournament.pk).rows, key=lambda r: (-r.total, r.name))
    ]
    ranking = [pk for pk in order if pk in field]
    try:
        tables = seating.swiss_round(ranking, _played_rounds(tournament, number), seed=seed)
    except seating.SeatingError as exc:
        raise SeatingError("round", "swiss", str(exc)) from None
    round_ = _store_round(tournament, number, tables, Round.Mode.SWISS)
    transaction.on_commit(lambda: forget_live(tournament.pk))
    return round_


MAX_CLOCK_MINUTES = 24 * 60
MAX_TABLE_EXTRA_MINUTES = 120


@transaction.atomic
def operate_clock(round_: Round, user: AbstractBaseUser, action: str, *, minutes: int = 0) -> Round:
    """Start, pause or extend the hanchan clock (WRCR 2015 §8.2). Starting it starts the hanchan."""
    access.require_role(user, round_.tournament, StaffRole.Role.ORGANISER)
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    clock, now = round_.clock(), timezone.now()
    try:
        if action == "start":
            clock = clock.start(now)
            if round_.status in {Round.Status.PLANNED, Round.Status.SEATED}:
                playing = (
                    round_.tournament.rounds.filter(status=Round.Status.STARTED).exclude(pk=round_.pk).first()
                )
                if playing is not None:
                    raise SeatingError(
                        "round",
                        "one-hanchan-at-a-time",
                        f"hanchan {playing.number} is in play: finish it first",
                    )
                round_.status = Round.Status.STARTED
        elif action == "pause":
            clock = clock.pause(now)
        elif action == "extend":
            if not -MAX_CLOCK_MINUTES <= minutes <= MAX_CLOCK_MINUTES:
                raise SeatingError(
                    "minutes", "clock-range", f"minutes: between -{MAX_CLOCK_MINUTES} and {MAX_CLOCK_MINUTES}"
                )
            clock = clock.extend(minutes)
        else:
            raise SeatingError("action", "clock-action", f"action: {action!r} is not start, pause or extend")
    except ClockError as exc:
        raise SeatingError("clock", "hanchan-clock (WRCR 2015 §8.2)", str(exc)) from None
    round_.set_clock(clock)
    round_.save(update_fields=["clock_state", "clock_ends_at", "clock_remaining", "status"])
    return round_


@transaction.atomic
def give_table_extra_time(table: Table, user: AbstractBaseUser, minutes: int) -> Table:
    access.require_role(user, table.round.tournament, StaffRole.Role.HEAD_REFEREE)
    if not 0 <= minutes <= MAX_TABLE_EXTRA_MINUTES:
        raise SeatingError("minutes", "clock-range", f"minutes: between 0 and {MAX_TABLE_EXTRA_MINUTES}")
    table.extra_minutes = minutes
    table.save(update_fields=["extra_minutes"])
    return table


TOURNAMENT_FIELDS = (
    "name",
    "slug",
    "starts_on",
    "ends_on",
    "venue",
    "ruleset_preset",
    "ruleset_overrides",
    "hanchan_count",
    "hanchan_minutes",
    "tie_break",
    "is_public",
    "separate_teams",
    "separate_clubs",
    "separate_countries",
)


@transaction.atomic
def create_tournament(user: AbstractBaseUser, **fields: Any) -> Tournament:
    """A new tournament; its creator becomes its organiser."""
    unknown = set(fields) - set(TOURNAMENT_FIELDS)
    if unknown:
        raise SeatingError(
            sorted(unknown)[0], "tournament-fields", f"{sorted(unknown)[0]}: not a tournament field"
        )
    tournament = Tournament(created_by=user, **fields)
    tournament.full_clean()
    tournament.save()
    StaffRole.objects.create(tournament=tournament, user=user, role=StaffRole.Role.ORGANISER, granted_by=user)
    return tournament


@transaction.atomic
def update_tournament(tournament: Tournament, user: AbstractBaseUser, **fields: Any) -> Tournament:
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    unknown = set(fields) - set(TOURNAMENT_FIELDS)
    if unknown:
        raise SeatingError(
            sorted(unknown)[0], "tournament-fields", f"{sorted(unknown)[0]}: not a tournament field"
        )
    if "hanchan_count" in fields and tournament.rounds.filter(number__gt=fields["hanchan_count"]).exists():
        raise SeatingError(
            "hanchan_count", "seated-rounds", "hanchan_count: hanchan beyond it are already seated"
        )
    for name, value in fields.items():
        setattr(tournament, name, value)
    tournament.full_clean()
    tournament.save()
    schedule_standings_refresh(tournament.pk)  # the tie-break or the rules may have changed
    return tournament


@transaction.atomic
def register_player(tournament: Tournament, user: AbstractBaseUser, **fields: Any) -> Player:
    """Register one player by hand (the same checks as a file import)."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    row = {"line": 1, **{k: str(v) for k, v in fields.items() if k != "is_substitute"}}
    row["substitute"] = "yes" if fields.get("is_substitute") else "no"
    existing = list(tournament.players.all())
    preview = registration.validate_rows(
        [row],
        countries=country_lookup(),
        existing_ema_ids={p.ema_id: p.name for p in existing if p.ema_id},
        existing_names=[p.name for p in existing],
    )
    if not preview.ok:
        error = preview.errors[0]
        raise SeatingError(error.field, "registration", error.message)
    data = preview.rows[0]
    schedule_standings_refresh(tournament.pk)
    return Player.objects.create(
        tournament=tournament,
        name=data.name,
        country=data.country,
        club=data.club,
        ema_id=data.ema_id,
        team=data.team,
        is_substitute=data.is_substitute,
    )


@transaction.atomic
def grant_role(
    tournament: Tournament, user: AbstractBaseUser, grantee: AbstractBaseUser, role: str
) -> StaffRole:
    """Organisers grant (or change) a user's role in their tournament; ``role`` "" removes it."""
    access.require_role(user, tournament, StaffRole.Role.ORGANISER)
    if role == "":
        if grantee.pk == user.pk:
            raise SeatingError("user", "keep-an-organiser", "user: organisers cannot remove their own role")
        StaffRole.objects.filter(tournament=tournament, user=grantee).delete()
        return StaffRole(tournament=tournament, user=grantee, role="")
    if role not in StaffRole.Role.values:
        raise SeatingError(
            "role", "staff-roles", f"role: {role!r} is not one of {', '.join(StaffRole.Role.values)}"
        )
    if grantee.pk == user.pk and role != StaffRole.Role.ORGANISER:
        raise SeatingError("role", "keep-an-organiser", "role: organisers cannot lower their own role")
    staff, _ = StaffRole.objects.update_or_create(
        tournament=tournament, user=grantee, defaults={"role": role, "granted_by": user}
    )
    return staff


def tables_of_referee(user: AbstractBaseUser, tournament: Tournament) -> list[Table]:
    """The tables of the current hanchan (the first not finished) for a referee's "my tables"."""
    access.require_role(user, tournament, StaffRole.Role.REFEREE)
    current = tournament.rounds.exclude(status=Round.Status.FINISHED).order_by("number").first()
    if current is None:
        return []
    return list(
        Table.objects.filter(round=current).select_related("round", "sheet").prefetch_related("seats__player")
    )


# ---------------------------------------------------------------------------------------------------
# Added for the pages: which hanchan is in play, and closing one so that the next becomes current.


def current_round(tournament: Tournament) -> Round | None:
    """The hanchan in play: the first not finished (the same one ``tables_of_referee`` lists)."""
    return tournament.rounds.exclude(status=Round.Status.FINISHED).order_by("number").first()


@transaction.atomic
def finish_round(round_: Round, user: AbstractBaseUser) -> Round:
    """The organiser closes a hanchan once every table's sheet is signed; the next one becomes current."""
    access.require_role(user, round_.tournament, StaffRole.Role.ORGANISER)
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.status != Round.Status.STARTED:
        raise SeatingError(
            "round", "finish-started-hanchan", f"hanchan {round_.number} is {round_.get_status_display()}"
        )
    pending = list(
        round_.tables.exclude(sheet__status="signed").order_by("number").values_list("number", flat=True)
    )
    if pending:
        raise SeatingError(
            "round",
            "signed-sheets-first",
            f"hanchan {round_.number}: table(s) {', '.join(map(str, pending))} have no signed sheet yet",
        )
    round_.status = Round.Status.FINISHED
    round_.save(update_fields=["status"])
    return round_
