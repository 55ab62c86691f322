"""Participation on the day: the missed-hanchan penalty booked as each hanchan is completed, never in
advance (WRCR 2015 §7.2; the rules are in ``tournament.core.participation``).

A hanchan is complete when every one of its tables has a signed sheet. ``book_missed`` runs inside the
action that completes it (signing its last sheet, or the organiser finishing it) and books the penalty
of every player of the field without a seat in it; ``book_late_arrival`` books those of a player who
checks in after hanchan they did not play are complete. Both are safe to run again: a player gets one
missed-hanchan penalty per hanchan at most.

A club session (``tournament.core.club``) has no schedule, so nobody misses its hanchan: neither books
anything there.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils import translation
from django.utils.translation import gettext as _

from penalties.models import Penalty
from penalties.services import book_missed_hanchan, withdraw_missed_hanchan
from tournament.core import participation
from tournament.models import Absence, Player, Round
from tournament.queries.participation_db import player_facts, tournament_facts


def is_complete(round_: Round) -> bool:
    """Every table of the hanchan has a signed sheet (and it has tables)."""
    tables = round_.tables.all()
    return tables.exists() and not tables.exclude(sheet__status="signed").exists()


def _reason(round_: Round, player: Player, absence: Absence | None) -> str:
    if absence is not None and absence.substitute is not None:
        return _("{reason}: replaced by {substitute} in hanchan {number}").format(
            reason=absence.get_reason_display(), substitute=absence.substitute.name, number=round_.number
        )
    if player.withdrawn_from is not None and player.withdrawn_from <= round_.number:
        return _("withdrawn from hanchan {withdrawn}: did not play hanchan {number}").format(
            withdrawn=player.withdrawn_from, number=round_.number
        )
    return _("did not play hanchan {number}").format(number=round_.number)


def book_missed(round_: Round, user: AbstractBaseUser | None) -> list[Penalty]:
    """The missed-hanchan penalties of a complete hanchan (none while a table is unsigned)."""
    if round_.tournament.is_club_session or not is_complete(round_):
        return []
    facts = tournament_facts(round_.tournament_id)
    missed = [pk for pk, known in facts.items() if participation.missed(known, round_.number)]
    if not missed:
        return []
    absences = {
        a.player_id: a for a in round_.absences.select_related("substitute").filter(player_id__in=missed)
    }
    players = Player.objects.filter(pk__in=missed).order_by("name")
    with translation.override(round_.tournament.record_language()):
        reasons = [(player, _reason(round_, player, absences.get(player.pk))) for player in players]
    return book_missed_hanchan(round_, reasons, user)


def complete_rounds(player: Player) -> list[Round]:
    rounds = Round.objects.filter(tournament_id=player.tournament_id).order_by("number")
    return [round_ for round_ in rounds.prefetch_related("tables__sheet") if _complete_prefetched(round_)]


def _complete_prefetched(round_: Round) -> bool:
    tables = list(round_.tables.all())
    return bool(tables) and all(getattr(t, "sheet", None) is not None and t.sheet.is_signed for t in tables)


def book_late_arrival(player: Player, user: AbstractBaseUser | None) -> list[Penalty]:
    """A player who checks in after hanchan they did not play are complete: their penalties, now."""
    if player.tournament.is_club_session:
        return []
    facts = player_facts(player)
    rounds = [r for r in complete_rounds(player) if participation.missed(facts, r.number)]
    given: list[Penalty] = []
    for round_ in rounds:
        with translation.override(player.tournament.record_language()):
            reason = _("arrived after hanchan {number}: did not play it").format(number=round_.number)
        given += book_missed_hanchan(round_, [(player, reason)], user)
    return given


def forget_late_arrival(player: Player, user: AbstractBaseUser | None) -> int:
    """A check-in taken back before the player was ever seated: they were never in the field, so the
    penalties their check-in booked are revoked."""
    facts = player_facts(player)
    if participation.in_field(facts):
        return 0
    with translation.override(player.tournament.record_language()):
        reason = _("check-in taken back: the player never started")
    return withdraw_missed_hanchan(player, complete_rounds(player), user, reason=reason)
