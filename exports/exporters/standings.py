"""Standings: overall ranking with every hanchan's score, the teams and the phases (when the tournament
has them), results by hanchan, and the penalties; in the reader's language (sheet names, headers, winds,
penalty kinds, countries)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from django_countries import countries

from exports.exporters.base import (
    DATETIME_FORMAT,
    POINTS_FORMAT,
    SCORE_FORMAT,
    Column,
    ListExporter,
    Progress,
    Sheet,
    register,
)
from penalties.models import Penalty
from scoring.rules.scores import format_score
from tournament.core.teams import TeamRow, compute_team_standings
from tournament.models import Player, Seat, StaffRole, Tournament
from tournament.queries.standings_db import load_phases, load_standings
from tournament.queries.teams_db import memberships

WINDS = dict(Seat.Wind.choices)


def player_details(tournament: Tournament) -> dict[int, tuple[str, str, str, str, str]]:
    """Each player's country (its name in the reader's language), EMA id, first, last and native-script
    name."""
    names = dict(countries)
    rows = Player.objects.filter(tournament=tournament).values_list(
        "pk", "country", "ema_id", "first_name", "last_name", "native_name"
    )
    return {
        pk: (str(names.get(code, code)) if code else "", ema_id, first, last, native)
        for pk, code, ema_id, first, last, native in rows
    }


def team_cells(row: TeamRow) -> list[Any]:
    """A team's row of the Teams sheet: its members as one text, a member whose scores do not count
    marked so."""
    members = ", ".join(
        ("{name} {score}" if m.counted else _("{name} {score} (not counted)")).format(
            name=m.name, score=format_score(m.contribution)
        )
        for m in row.members
    )
    penalties = -row.penalty_total if row.penalty_total else Decimal(0)
    return [row.rank, row.name, row.total, penalties, row.counted, row.played, members]


@register
class StandingsExporter(ListExporter):
    """The standings as computed now from the signed sheets and active penalties (not the cache).

    For the tournament's staff: the file has the players' EMA ids, which the product shows to staff only
    (the public see the standings pages).
    """

    name = "standings"
    title = gettext_lazy("Standings")
    position = 10
    permission = StaffRole.Role.REFEREE
    description = gettext_lazy(
        "Ranking with every hanchan's score and the penalties; results by hanchan; penalties; the teams "
        "when the tournament has team standings."
    )

    def sheets(self, tournament: Tournament, progress: Progress) -> Iterator[Sheet]:
        standings = load_standings(tournament.pk)
        progress(0.3)
        rounds = max(standings.rounds, tournament.hanchan_count)
        details = player_details(tournament)
        columns = [
            Column(_("Rank"), 6),
            Column(_("Name"), 28),
            Column(_("Country"), 16),
            Column(_("EMA id"), 10),
            Column(_("Total"), 9, SCORE_FORMAT),
            # "H1": the score of hanchan 1, in a narrow column.
            *(Column(_("H{number}").format(number=n), 7, SCORE_FORMAT) for n in range(1, rounds + 1)),
            Column(_("Penalties"), 9, SCORE_FORMAT),
            Column(_("Played"), 7),
            Column(_("Note"), 14),
            Column(_("First name"), 16),
            Column(_("Last name"), 18),
            Column(_("Native name"), 18),
        ]

        def overall() -> Iterator[list[Any]]:
            for row in standings.rows:
                country, ema_id, first, last, native = details.get(row.player, ("", "", "", "", ""))
                by_round = row.by_round
                yield [
                    row.rank,
                    row.name,
                    country,
                    ema_id,
                    row.total,
                    *(by_round[n].score if n in by_round else None for n in range(1, rounds + 1)),
                    -row.penalty_total if row.penalty_total else Decimal(0),
                    row.played,
                    _(row.note) if row.note else "",  # why not ranked (tournament.participation)
                    first,
                    last,
                    native,
                ]

        yield Sheet(_("Standings"), columns, overall(), key="standings")
        progress(0.5)
        rule = tournament.team_rule()
        if rule.ranking != "none":
            teams = compute_team_standings(standings, memberships(tournament.pk), rule)
            yield Sheet(
                _("Teams"),
                [
                    Column(_("Rank"), 6),
                    Column(_("Team"), 28),
                    Column(_("Total"), 9, SCORE_FORMAT),
                    Column(_("Penalties"), 9, SCORE_FORMAT),
                    Column(_("Counted"), 8),
                    Column(_("Played"), 7),
                    Column(_("Members (what each adds)"), 60),
                ],
                (team_cells(row) for row in teams.rows),
                key="teams",
            )
        phased = load_phases(tournament.pk)
        if phased is not None:
            yield Sheet(
                _("Phases"),
                [
                    Column(_("Phase"), 16),
                    Column(_("Rank"), 6),
                    Column(_("Name"), 28),
                    Column(_("Seed"), 6),
                    Column(_("Carried"), 9, SCORE_FORMAT),
                    Column(_("Total"), 9, SCORE_FORMAT),
                    Column(_("Played"), 7),
                ],
                (
                    [phase.plan.name, row.rank, row.name, row.seed, row.carried, row.total, row.played]
                    for phase in phased.phases
                    if phase.reached
                    for row in phase.standings.rows
                    if row.ranked
                ),
                key="phases",
            )
        progress(0.6)

        def by_hanchan() -> Iterator[list[Any]]:
            results = sorted(
                (result.round, result.table, result.seat, row.name, result)
                for row in standings.rows
                for result in row.by_round.values()
            )
            for round_number, table, seat, name, result in results:
                yield [
                    round_number,
                    table,
                    str(WINDS.get(seat, "")),
                    name,
                    result.points,
                    result.rank,
                    result.score,
                ]

        yield Sheet(
            _("By hanchan"),
            [
                Column(_("Hanchan"), 9),
                Column(_("Table"), 7),
                Column(_("Wind"), 7),
                Column(_("Name"), 28),
                Column(_("Points"), 10, POINTS_FORMAT),
                Column(_("Place"), 7),
                Column(_("Score"), 9, SCORE_FORMAT),
            ],
            by_hanchan(),
            key="by hanchan",
        )
        progress(0.9)
        penalties = (
            Penalty.objects.filter(tournament=tournament, revoked_at=None)
            .order_by("given_at", "pk")
            .values_list("player__name", "round__number", "kind", "points", "given_at")
        )
        kinds = dict(Penalty.Kind.choices)
        yield Sheet(
            _("Penalties"),
            [
                Column(_("Name"), 28),
                Column(_("Hanchan"), 9),
                Column(pgettext("penalty", "Kind"), 20),
                Column(_("Points"), 9, SCORE_FORMAT),
                Column(_("Given at"), 18, DATETIME_FORMAT),
            ],
            (
                [name, round_number, str(kinds.get(kind, kind)), -points, given_at]
                for name, round_number, kind, points, given_at in penalties
            ),
            key="penalties",
        )
