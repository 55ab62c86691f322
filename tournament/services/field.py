"""Who is seated in a hanchan: the players present with the substitutes that complete the last table
(WRCR 2015 §7.2), or, when the organiser prefers it, the players who sit out; in a phase after a cut, the
players the cut kept; and the field a re-seating rotates the sit-outs through. ``seating`` reads it when it
queues, generates and applies a schedule.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.core import player_files
from tournament.core.refusal import Refusal
from tournament.models import Player, Tournament
from tournament.queries import phases_db


def seating_field(tournament: Tournament, prefer: str = "substitutes", hanchan: int = 1) -> list[Player]:
    """Who is seated in ``hanchan``: the checked-in players (everyone registered while nobody has checked
    in), with as many substitutes as complete the last table (WRCR 2015 §7.2: substitutes are never
    ranked). Once check-in is in use, a substitute must have checked in too: only those present are
    seated. With ``prefer`` "sit_out", no substitute: the last players to check in sit out
    (``sitting_out``). In a phase after a cut (``tournament.core.phases``), the players the cut kept."""
    span = phases_db.span_of(tournament.pk, tournament.hanchan_count, hanchan)
    if span.members is not None:
        return phase_field(tournament, span)
    field = _players_present(tournament)
    if prefer == "sit_out":
        out = {player.pk for player in sitting_out(tournament)}
        return [player for player in field if player.pk not in out]
    checking_in = tournament.players.filter(
        status=Player.Status.CHECKED_IN, is_substitute=False, disqualified=False
    ).exists()
    needed = player_files.substitutes_needed(len(field))
    pool = tournament.players.filter(is_substitute=True, disqualified=False).exclude(
        status=Player.Status.WITHDRAWN
    )
    if checking_in:
        pool = pool.filter(status=Player.Status.CHECKED_IN)
    substitutes = list(pool.order_by("checked_in_at", "pk")[:needed])
    if len(substitutes) < needed:
        if checking_in:
            message = ngettext(
                "{players} players need {needed} substitute to fill {tables}; only {available} "
                "checked in available. Check substitutes in, register more, or let players sit out.",
                "{players} players need {needed} substitutes to fill {tables}; only {available} "
                "checked in available. Check substitutes in, register more, or let players sit out.",
                needed,
            )
        else:
            message = ngettext(
                "{players} players need {needed} substitute to fill {tables}; only {available} "
                "available. Check substitutes in, register more, or let players sit out.",
                "{players} players need {needed} substitutes to fill {tables}; only {available} "
                "available. Check substitutes in, register more, or let players sit out.",
                needed,
            )
        raise Refusal(
            "players",
            "full-tables",
            message.format(
                players=len(field),
                needed=needed,
                tables=_tables((len(field) + needed) // 4),
                available=len(substitutes),
            ),
        )
    return field + substitutes


def _tables(count: int) -> str:
    """A number of tables in words, in the plural form its count takes ("1 table", "4 tables")."""
    return ngettext("{count} table", "{count} tables", count).format(count=count)


def seated_here(tournament: Tournament, number: int, field: str) -> phases_db.Span:
    """The phase of hanchan ``number``, refused when the phase is seated by rank (the phases page does
    that), not by the optimised schedule or Swiss."""
    span = phases_db.span_of(tournament.pk, tournament.hanchan_count, number)
    if span.seating == "by_rank":
        raise Refusal(
            field,
            "phase-seating",
            _("{field}: hanchan {number} is in {phase}, seated by rank (the phases page)").format(
                field=field, number=number, phase=span.name
            ),
        )
    return span


def phase_field(tournament: Tournament, span: phases_db.Span) -> list[Player]:
    """The players of a phase after its cut who still play (neither withdrawn nor disqualified): whole
    tables only, since no substitute is ranked in a phase's place (call up the next in line instead)."""
    if not span.members:
        raise Refusal(
            "from_round",
            "phase-cut",
            _("{phase}: make the cut into it first (the phases page)").format(phase=span.name),
            status=409,
        )
    players = list(
        tournament.players.filter(pk__in=span.members, disqualified=False)
        .exclude(status=Player.Status.WITHDRAWN)
        .order_by("pk")
    )
    if len(players) % 4:
        raise Refusal(
            "players",
            "phase-field",
            _(
                "{phase}: {count} players still play it, not whole tables; call up the next in line in "
                "place of each player who left (the phases page)"
            ).format(phase=span.name, count=len(players)),
            status=409,
        )
    return players


def _players_present(tournament: Tournament) -> list[Player]:
    """The players to seat: checked in (or registered, while nobody has checked in), neither withdrawn
    nor disqualified (WRCR 2015 §7.1: a disqualified player plays no more)."""
    players = tournament.players.filter(is_substitute=False, disqualified=False).exclude(
        status=Player.Status.WITHDRAWN
    )
    if players.filter(status=Player.Status.CHECKED_IN).exists():
        players = players.filter(status=Player.Status.CHECKED_IN)
    return list(players.order_by("pk"))


def sitting_out(tournament: Tournament) -> list[Player]:
    """The players who sit out when the organiser prefers that to substitutes: the last to check in,
    as many as the field is beyond a multiple of four."""
    field = sorted(
        _players_present(tournament), key=lambda p: (p.checked_in_at is None, p.checked_in_at, p.pk)
    )
    out = player_files.sitting_out(len(field))
    return field[len(field) - out :] if out else []


def reseat_field(tournament: Tournament, prefer: str, hanchan: int) -> list[Player]:
    """Everyone who plays or sits out hanchan ``hanchan`` on: the seated field, and with ``prefer``
    "sit_out" the players present in the order of check-in (the last to check in sit out first among
    those who have sat out as often: ``tournament.seating.reseat.choose_sit_outs``)."""
    span = phases_db.span_of(tournament.pk, tournament.hanchan_count, hanchan)
    if prefer != "sit_out" or span.members is not None:
        return seating_field(tournament, prefer, hanchan)
    return sorted(
        _players_present(tournament), key=lambda p: (p.checked_in_at is None, p.checked_in_at, p.pk)
    )
