"""Sheets read from online games' logs: a draft from one log (tenhou.net/6 JSON or Tenhou's mjlog XML),
with the findings where the online game's rules differ from the tournament's and, for a head referee,
the table re-seated as the log sat; a Tenhou game fetched by its replay link; and several links of one
hanchan pasted at once, each game placed at the table its nicknames sit at.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from scoring import tenhou_links
from scoring.models import ScoreSheet
from scoring.rules import tenhou
from scoring.services.checks import Role, checked, refusal, seated_players
from scoring.services.versions import lock_table, write_entry
from tournament.core.refusal import CONFLICT, Refusal
from tournament.models import Round, Seat, Table
from tournament.queries import access, live
from tournament.services import audit


@transaction.atomic
def sheet_from_log(
    table: Table,
    log: bytes | str,
    user: AbstractBaseUser,
    *,
    mapping: dict[str, str] | None = None,
    expected_version: int | None = None,
    reseat_winds: bool = False,
) -> tuple[ScoreSheet, tuple[tenhou.Finding, ...]]:
    """A draft sheet read from an online game's log (tenhou.net/6 JSON or Tenhou's mjlog XML,
    ``scoring.rules.tenhou.read_game_log``): the
    log's players mapped to the seated four (``mapping``: log name -> player name, where the names
    differ), checked by the rules engine as any sheet and saved as a draft (nothing is signed), with the
    findings where the online game's rules differ from the tournament's, stored with the version.

    The log's seats must be the table's winds, unless ``reseat_winds``: the table sat as in the log (an
    online client draws the seats), and a head referee re-seats its four players' winds as the log's, in
    this transaction (``_reseat_as_log``)."""
    access.require_role(user, table.round.tournament, Role.HEAD_REFEREE if reseat_winds else Role.REFEREE)
    table = lock_table(table)
    seats = seated_players(table)
    read = tenhou.read_game_log(log)
    seated = [seat.player.name for seat in seats]
    players = tenhou.match_players(read.names, seated, mapping, reseat=reseat_winds)
    if reseat_winds and list(players) != seated:
        seats = _reseat_as_log(table, seats, players, user)
    converted = tenhou.log_sheet(read, players, table.round.tournament.ruleset())
    replayed = checked(table, converted.entry, seats, complete=False).as_json()
    sheet = write_entry(
        table,
        converted.entry,
        replayed,
        seats,
        submit=False,
        expected_version=expected_version,
        user=user,
        findings=[finding.as_json() for finding in converted.findings],
    )
    return sheet, converted.findings


MAX_LINKS = 64  # the games of one hanchan pasted at once: a table each


def fetch_log(link: str, field: str = "link") -> bytes:
    """The mjlog XML of the Tenhou game of a replay link or id (``scoring.tenhou_links``), fetched before
    any transaction; a ``Refusal`` naming ``field`` otherwise."""
    return tenhou_links.fetch(tenhou_links.game_id(link, field), field)


def sheets_from_links(round_: Round, links: Sequence[str], user: AbstractBaseUser) -> dict[str, Any]:
    """Several Tenhou games of one hanchan by their replay links (a head referee): each game is fetched and
    read, and goes to the table of ``round_`` its four nicknames are seated at (names compared without
    case and accents), as a draft read from its log with the log's winds (``sheet_from_log`` with
    ``reseat_winds``, one transaction per table). The answer: ``placed`` (link, game, table, version,
    findings) and ``unplaced`` (link, game or None, the reason: not a link, Tenhou's answer, a log that
    cannot be read, nicknames seated at no table, a second game for one table, a refused sheet)."""
    access.require_role(user, round_.tournament, Role.HEAD_REFEREE)
    if not isinstance(links, (list, tuple)) or not 0 < len(links) <= MAX_LINKS:
        raise refusal(
            "links", "game-log-link", _("links: 1 to {limit} Tenhou links or ids").format(limit=MAX_LINKS)
        )
    tables: dict[frozenset[str], Table] = {}
    for table in Table.objects.filter(round=round_).prefetch_related("seats__player"):
        names = frozenset(tenhou.fold(seat.player.name) for seat in table.seats.all())
        if len(names) == 4:
            tables[names] = table
    placed: list[dict[str, Any]] = []
    unplaced: list[dict[str, Any]] = []
    taken: set[int] = set()
    for index, link in enumerate(links):
        field = f"links[{index}]"
        game: str | None = None
        try:
            game = tenhou_links.game_id(str(link), field)
            raw = tenhou_links.fetch(game, field)
            read = tenhou.read_game_log(raw)
        except Refusal as refused:
            unplaced.append({"link": str(link)[:200], "game": game, "reason": refused.message})
            continue
        table = tables.get(frozenset(tenhou.fold(name) for name in read.names))
        if table is None or table.pk in taken:
            reason = (
                _("its players {names} sit together at no table of hanchan {round}")
                if table is None
                else _("a second game of {names} in hanchan {round}; the first was taken")
            ).format(names=", ".join(read.names), round=round_.number)
            unplaced.append({"link": str(link)[:200], "game": game, "reason": reason})
            continue
        current = ScoreSheet.objects.filter(table=table).values_list("version", flat=True).first()
        try:
            sheet, findings = sheet_from_log(table, raw, user, expected_version=current, reseat_winds=True)
        except Refusal as refused:
            unplaced.append({"link": str(link)[:200], "game": game, "reason": refused.message})
            continue
        taken.add(table.pk)
        placed.append(
            {
                "link": str(link)[:200],
                "game": game,
                "table": table.number,
                "version": sheet.version,
                "findings": [finding.as_json() for finding in findings],
            }
        )
    return {"placed": placed, "unplaced": unplaced}


def _reseat_as_log(
    table: Table, seats: Sequence[Seat], players: Sequence[str], user: AbstractBaseUser
) -> list[Seat]:
    """The table's four seats given the winds of the log (``players``: East, South, West, North by name;
    the same four players, only their winds change, each keeping whom they replace), with an audit
    entry naming each moved player's old and new wind. Refused once the table's sheet is signed: its
    results belong to the seats it was signed with (a correction changes it). The new seats, East
    first."""
    sheet = ScoreSheet.objects.filter(table=table).only("status").first()
    if sheet is not None and sheet.is_signed:
        raise refusal(
            "reseat_winds",
            "signed-sheets-are-locked (WRCR 2015 §8.2)",
            _("table {table}'s sheet is signed with its seats; it is not re-seated").format(
                table=table.number
            ),
            status=CONFLICT,
        )
    by_name = {seat.player.name: seat for seat in seats}  # the log's four are these (match_players)
    # The audit keeps the winds in English whatever the language of the request (the labels are lazy).
    winds = {wind.value: wind.name.title() for wind in Seat.Wind}
    before = {name: winds[seat.wind] for name, seat in by_name.items()}
    moved = [by_name[name] for name in players]
    # Out of the way first: the database holds one seat per wind at a table at every moment.
    Seat.objects.filter(pk__in=[seat.pk for seat in moved]).update(wind=F("wind") + len(moved))
    for wind, seat in enumerate(moved):
        seat.wind = wind
    Seat.objects.bulk_update(moved, ["wind"])
    audit.record(
        table.round.tournament,
        user,
        "seating.reseat_winds",
        f"hanchan {table.round.number}, table {table.number}, as the game log sat",
        {
            name: [before[name], winds[seat.wind]]
            for name, seat in zip(players, moved, strict=True)
            if before[name] != winds[seat.wind]
        },
    )
    live.announce_on_commit(table.round.tournament_id, "seating")  # seating pages and projectors reload
    return moved
