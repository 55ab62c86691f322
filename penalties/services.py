"""Giving and revoking point penalties, and disqualification (WRCR 2015 §7). Each is one transaction.

Amounts (WRCR 2015 §7.1-§7.2): chombo 20 points (the ruleset's ``chombo_penalty``); lateness 1 point a
minute, up to 10 minutes (later than that, the player is replaced by a substitute for the hanchan and the
missed-hanchan penalty applies instead); missing a hanchan 30 points, not cumulative with a lateness
penalty for the same hanchan (giving it revokes that one); referee-discretion penalties a free amount
with a reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from penalties.models import Disqualification, Penalty, chombo_reason
from scoring.rules.citations import cite
from tournament.core.inputs import require_printable
from tournament.core.refusal import CONFLICT, Refusal
from tournament.models import Player, Round, StaffRole, Table, Tournament
from tournament.queries import access
from tournament.queries.standings_db import schedule_standings_refresh

if TYPE_CHECKING:  # for the annotation only: scoring builds on penalties, not the other way round
    from scoring.models import ScoreSheet

Kind = Penalty.Kind
MISSED_HANCHAN_POINTS = Decimal(30)
LATENESS_LIMIT_MINUTES = 10


# WRCR 2015 §7.1 leaves the amount of a discretionary penalty to the referee; its largest fixed penalty
# is 30 points (a missed hanchan) and a hanchan is worth about ±100 points, so 1,000 points already
# outweighs any player's whole tournament. Beyond it is a typing error (and beyond the stored
# DECIMAL(7,2), 99,999.99).
MAX_PENALTY_POINTS = Decimal(1000)
# The rule of a penalty for a club session's hanchan whose table was taken back meanwhile (the rule of
# ``tournament.services.club`` for a table taken back).
RULE_TAKEN_BACK = "table-taken-back"


def _amount(value: object) -> Decimal:
    if value is None or (isinstance(value, str) and not value.strip()):
        # A discretionary penalty has no amount of its own (WRCR 2015 §7.1): the referee gives one.
        raise Refusal("points", "penalty-amount", _("points: required, the amount this penalty takes off"))
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        message = _("points: {value} is not a number").format(value=repr(value))
        raise Refusal("points", "penalty-amount", message) from None
    if not amount.is_finite() or amount <= 0:
        raise Refusal("points", "penalty-amount", _("points: a positive amount, at most two decimals"))
    if amount > MAX_PENALTY_POINTS:
        raise Refusal(
            "points",
            "penalty-amount (WRCR 2015 §7.1)",
            _("points: at most {limit} points, more than any player's whole tournament").format(
                limit=formats.number_format(MAX_PENALTY_POINTS, force_grouping=True)
            ),
        )
    if amount != amount.quantize(Decimal("0.01")):
        raise Refusal("points", "penalty-amount", _("points: a positive amount, at most two decimals"))
    return amount


@transaction.atomic
def give_penalty(
    player: Player,
    kind: str,
    user: AbstractBaseUser | None,
    *,
    round: Round | None = None,
    points: object = None,
    minutes_late: int | None = None,
    reason: str = "",
) -> Penalty:
    tournament = player.tournament
    if user is not None:
        access.require_role(user, tournament, StaffRole.Role.HEAD_REFEREE)
    if round is not None and round.tournament_id != tournament.pk:
        raise Refusal("round", "same-tournament", _("round: not a hanchan of the player's tournament"))
    if round is not None and round.mode == Round.Mode.CLUB:
        _lock_club_hanchan(round)
    require_printable("reason", reason, multiline=True)
    if kind not in Kind.values:
        message = _("kind: {kind} is not one of {kinds}").format(
            kind=repr(kind), kinds=", ".join(Kind.values)
        )
        raise Refusal("kind", "penalty-kind", message)
    if kind == Kind.CHOMBO:
        amount = Decimal(tournament.ruleset().chombo_penalty)
    elif kind == Kind.LATENESS:
        amount = _lateness(player, round, minutes_late)
    elif kind == Kind.MISSED_HANCHAN:
        if round is None:
            rule = f"missed-hanchan ({cite(tournament.ruleset_preset, 'missed_hanchan')})"
            raise Refusal("round", rule, _("round: which hanchan was missed?"))
        amount = MISSED_HANCHAN_POINTS
        # WRCR 2015 §7.2: not cumulative with the lateness penalty of that hanchan.
        for late in Penalty.objects.filter(player=player, round=round, kind=Kind.LATENESS, revoked_at=None):
            _revoke(late, user, not_cumulative(tournament))
    else:
        if not reason.strip():
            rule = f"penalty-reason ({cite(tournament.ruleset_preset, 'penalties')})"
            raise Refusal("reason", rule, _("reason: say why this penalty is given"))
        amount = _amount(points)
    penalty = Penalty.objects.create(
        tournament=tournament,
        player=player,
        round=round,
        kind=kind,
        points=amount,
        minutes_late=minutes_late if kind == Kind.LATENESS else None,
        reason=reason.strip(),
        given_by=user,
    )
    schedule_standings_refresh(tournament.pk)
    return penalty


def _lock_club_hanchan(round_: Round) -> None:
    """Lock the club hanchan's table, as its take-back does before it looks for a penalty
    (``tournament.services.club``: the table, then the penalty), and refuse (409) a hanchan taken back
    meanwhile: of a penalty and a take-back at once, one waits for the other, and the second is refused
    (the take-back by its rule ``penalty-given``, the penalty by ``table-taken-back``)."""
    list(Table.objects.select_for_update(of=("self",)).filter(round=round_).order_by("pk").values_list("pk"))
    if not Round.objects.filter(pk=round_.pk).exists():
        message = _("round: hanchan {number} was taken back (its table with it); no penalty is given for it")
        raise Refusal("round", RULE_TAKEN_BACK, message.format(number=round_.number), status=CONFLICT)


def not_cumulative(tournament: Tournament) -> str:
    """The reason a lateness penalty is revoked for the missed-hanchan one. Like every reason the product
    writes into a penalty, it is in the tournament's language (``Tournament.record_language``), whoever's
    action wrote it."""
    source = cite(tournament.ruleset_preset, "missed_hanchan")
    with translation.override(tournament.record_language()):
        return _("replaced by the missed-hanchan penalty ({source}: not cumulative)").format(source=source)


def _lateness(player: Player, round: Round | None, minutes_late: int | None) -> Decimal:
    rule = f"lateness ({cite(player.tournament.ruleset_preset, 'lateness')})"
    if round is None:
        raise Refusal("round", rule, _("round: for which hanchan was the player late?"))
    if minutes_late is None or minutes_late < 1:
        raise Refusal("minutes_late", rule, _("minutes_late: at least 1 minute"))
    if minutes_late > LATENESS_LIMIT_MINUTES:
        raise Refusal(
            "minutes_late",
            rule,
            _(
                "minutes_late: {minutes} is more than {limit}; the player is replaced by a substitute for "
                "this hanchan and gets the missed-hanchan penalty ({points}) instead"
            ).format(minutes=minutes_late, limit=LATENESS_LIMIT_MINUTES, points=MISSED_HANCHAN_POINTS),
        )
    if Penalty.objects.filter(player=player, round=round, kind=Kind.MISSED_HANCHAN, revoked_at=None).exists():
        raise Refusal(
            "kind",
            rule,
            _("kind: the player already has the missed-hanchan penalty for this hanchan"),
        )
    return Decimal(minutes_late)


def _revoke(
    penalty: Penalty, user: AbstractBaseUser | None, reason: str, *, with_check_in: bool = False
) -> None:
    penalty.revoked_by, penalty.revoked_at, penalty.revoke_reason = user, timezone.now(), reason
    penalty.revoked_with_check_in = with_check_in
    penalty.save(update_fields=["revoked_by", "revoked_at", "revoke_reason", "revoked_with_check_in"])


def sync_sheet_chombo(
    sheet: ScoreSheet, wanted: Sequence[tuple[Player, int | None]], user: AbstractBaseUser | None
) -> None:
    """WRCR 2015 §7.1: the chombo penalties of a score sheet follow the sheet. ``wanted`` lists each chombo
    on it as (player, hand number; None on a final-points sheet): a missing one is given, linked to the
    sheet and its hand; an active one no longer wanted is revoked (kept, with the sheet's version in the
    reason).

    An internal service of the score-sheet actions: ``scoring.services`` calls it inside the transaction
    that signs or corrects the sheet, after checking that ``user`` is a referee (signing) or head referee
    (correcting) of the tournament. It trusts that check and makes none of its own: a referee who signs a
    sheet gives its chombo penalties, although only a head referee gives a penalty by hand
    (``give_penalty``). The caller refreshes the standings.
    """
    table = sheet.table
    tournament = table.round.tournament
    wanted_keys = {(player.pk, hand) for player, hand in wanted}
    players = {player.pk: player for player, _hand in wanted}
    active = {
        (penalty.player_id, penalty.hand): penalty
        for penalty in Penalty.objects.filter(sheet=sheet, kind=Kind.CHOMBO, revoked_at=None)
    }
    language = tournament.record_language()
    for key, penalty in active.items():
        if key not in wanted_keys:
            with translation.override(language):
                reason = _("no longer on the sheet (version {version})").format(version=sheet.version)
            _revoke(penalty, user, reason)
    missing = sorted(wanted_keys - set(active), key=lambda item: (item[1] or 0, players[item[0]].name))
    for player_pk, hand in missing:
        with translation.override(language):
            reason = chombo_reason(hand, table.number, table.round.number)
        Penalty.objects.create(
            tournament=tournament,
            player=players[player_pk],
            round=table.round,
            kind=Kind.CHOMBO,
            points=tournament.ruleset().chombo_penalty,
            sheet=sheet,
            hand=hand,
            given_by=user,
            reason=reason,
        )


@transaction.atomic
def revoke_penalty(penalty: Penalty, user: AbstractBaseUser, *, reason: str) -> Penalty:
    access.require_role(user, penalty.tournament, StaffRole.Role.HEAD_REFEREE)
    penalty = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if not penalty.is_active:
        assert penalty.revoked_at is not None
        when = timezone.localtime(penalty.revoked_at, penalty.tournament.zone())
        message = _("already revoked on {when}").format(when=formats.date_format(when, "DATETIME_FORMAT"))
        raise Refusal("penalty", "already-revoked", message)
    if not reason.strip():
        raise Refusal("reason", "revocation-reason", _("reason: say why the penalty is revoked"))
    require_printable("reason", reason, multiline=True)
    _revoke(penalty, user, reason.strip())
    schedule_standings_refresh(penalty.tournament_id)
    return penalty


@transaction.atomic
def disqualify(player: Player, user: AbstractBaseUser, *, reason: str) -> Disqualification:
    """WRCR 2015 §7.1: off the ranking; the tables already played keep their results."""
    access.require_role(user, player.tournament, StaffRole.Role.HEAD_REFEREE)
    if not reason.strip():
        raise Refusal("reason", "disqualification-reason", _("reason: say why the player is disqualified"))
    require_printable("reason", reason, multiline=True)
    if Disqualification.objects.filter(player=player).exists():
        message = _("{player} is already disqualified").format(player=player.name)
        raise Refusal("player", "already-disqualified", message)
    record = Disqualification.objects.create(player=player, reason=reason.strip(), given_by=user)
    Player.objects.filter(pk=player.pk).update(disqualified=True)
    schedule_standings_refresh(player.tournament_id)
    return record


def book_missed_hanchan(
    round_: Round, missed: Sequence[tuple[Player, str]], user: AbstractBaseUser | None
) -> list[Penalty]:
    """WRCR 2015 §7.2: the missed-hanchan penalty of each player of ``missed`` (with its reason), for a
    hanchan that is complete. Never twice for one player and hanchan: a penalty a head referee revoked
    stays revoked; one revoked with the check-in that booked it (``withdraw_missed_hanchan``) is booked
    again when the player is checked in again. It replaces an active lateness penalty of that hanchan
    (not cumulative).

    An internal service of ``tournament.services.participation``, which decides who missed the hanchan
    (``tournament.core.participation``) inside the action that completed it (signing its last sheet, finishing
    it, a late check-in) and has checked that action's role; it makes no check of its own.
    """
    booked = set(
        Penalty.objects.filter(
            round=round_, kind=Kind.MISSED_HANCHAN, revoked_with_check_in=False
        ).values_list("player_id", flat=True)
    )
    given = []
    for player, reason in missed:
        if player.pk in booked:
            continue
        late = Penalty.objects.filter(player=player, round=round_, kind=Kind.LATENESS, revoked_at=None)
        for penalty in late:
            _revoke(penalty, user, not_cumulative(round_.tournament))
        given.append(
            Penalty.objects.create(
                tournament_id=round_.tournament_id,
                player=player,
                round=round_,
                kind=Kind.MISSED_HANCHAN,
                points=MISSED_HANCHAN_POINTS,
                reason=reason,
                given_by=user,
            )
        )
    if given:
        schedule_standings_refresh(round_.tournament_id)
    return given


def withdraw_missed_hanchan(
    player: Player, rounds: Sequence[Round], user: AbstractBaseUser | None, *, reason: str
) -> int:
    """Revoke the player's active missed-hanchan penalties of ``rounds`` (a check-in taken back: the
    player was never in the field). Internal, like ``book_missed_hanchan``; returns how many."""
    penalties = Penalty.objects.filter(
        player=player, round__in=rounds, kind=Kind.MISSED_HANCHAN, revoked_at=None
    )
    count = 0
    for penalty in penalties:
        _revoke(penalty, user, reason, with_check_in=True)
        count += 1
    if count:
        schedule_standings_refresh(player.tournament_id)
    return count
