"""Live tables: every table of the current hanchan as it stands (of a club session, every table in play,
each its own hanchan), from the drafts saved hand by hand
(``tournament.core.table_progress`` computes it; this module reads the database for it and decides who sees
what).

The public sees the tables of the current hanchan only where it sees that hanchan's results and
seating: a hanchan hidden by ``public_cutoff`` (the last ``hidden_hanchan``, or standings published per
completed hanchan) or whose seating is not published shows nothing at all, not even its tables'
numbers. The tournament's staff see every table, and the head referee's page flags the slow ones.

As the standings' (``tournament.queries.live_standings``), the public payload is computed once per change
where
the change is made (``share_public_tables``, after the commit, before the ``tables`` notice goes out) and
kept in the live cache for every web process; three queries whatever the number of tables.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Func, IntegerField
from django.db.models.fields.json import KeyTransform
from django.utils import timezone

from scoring.models import ScoreSheet
from tournament.core.table_progress import (
    SeatEntry,
    TableEntry,
    TableState,
    slow_tables,
    table_state,
    tables_playing,
)
from tournament.models import Round, Seat, Table, Tournament
from tournament.queries import live
from tournament.queries.live_standings import playing_rounds
from tournament.queries.standings_db import public_cutoff, remember_live, shows_hanchan, store_live

logger = logging.getLogger("tournament.live")

LIVE_PART = "tables"


def public_sees(tournament: Tournament, round_: Round) -> bool:
    """Whether the public sees the live tables of ``round_``: its seating is published and its results
    are not hidden (``public_cutoff``), in a public tournament."""
    return (
        tournament.is_public
        and round_.seating_is_public
        and shows_hanchan(public_cutoff(tournament), round_.number)
    )


def table_states(round_: Round, *, compact: bool | None = None) -> list[TableState]:
    """Every table of the hanchan as it stands, by number: three queries. ``compact``: read only what
    the live state needs of each replay (``_sheets``); by default on PostgreSQL only."""
    return [state for _number, state in hanchan_table_states([round_], compact=compact)]


def hanchan_table_states(
    rounds: Sequence[Round], *, compact: bool | None = None
) -> list[tuple[int, TableState]]:
    """Every table of these hanchan (of one tournament) as it stands, with its hanchan's number, by
    hanchan then table number: three queries whatever the number of hanchan and tables."""
    if not rounds:
        return []
    numbers = {round_.pk: round_.number for round_ in rounds}
    seats: dict[int, list[SeatEntry]] = defaultdict(list)
    for table_id, wind, player_id, name in (
        Seat.objects.filter(round__in=rounds)
        .order_by("table_id", "wind")
        .values_list("table_id", "wind", "player_id", "player__name")
    ):
        seats[table_id].append(SeatEntry(wind, player_id, name))
    sheets = _sheets(rounds, seats, connection.vendor == "postgresql" if compact is None else compact)
    ruleset = rounds[0].tournament.ruleset()
    states = []
    tables = Table.objects.filter(round__in=rounds).values_list("pk", "round_id", "number")
    for table_id, round_id, number in sorted(tables, key=lambda row: (numbers[row[1]], row[2])):
        entry = sheets.get(table_id) or TableEntry(number, seats.get(table_id, []))
        state = table_state(replace(entry, table=number), ruleset.starting_points, ruleset.riichi_stick)
        states.append((numbers[round_id], state))
    return states


def _sheets(
    rounds: Sequence[Round], seats: dict[int, list[SeatEntry]], compact: bool
) -> dict[int, TableEntry]:
    """The sheets of the hanchan, by table id. ``compact`` (PostgreSQL's JSON operators): only what the
    live state reads of each replay leaves the database (the number of hands, the last one, the end, the
    final points, the sticks left), a fraction of the whole replays' bytes to send and decode; otherwise
    (SQLite) the whole replay."""
    sheets = ScoreSheet.objects.filter(table__round__in=rounds)
    moments = ("table_id", "status", "created_at", "updated_at")
    if not compact:
        return {
            row["table_id"]: TableEntry.of_replay(
                0,
                seats.get(row["table_id"], []),
                row["status"],
                row["replay"],
                first_entry_at=row["created_at"],
                last_entry_at=row["updated_at"],
            )
            for row in sheets.values(*moments, "replay")
        }
    hands = KeyTransform("hands", "replay")
    rows = sheets.values(*moments).annotate(
        hands_played=Func(hands, function="jsonb_array_length", output_field=IntegerField()),
        last_hand=KeyTransform("-1", KeyTransform("hands", "replay")),
        finished=KeyTransform("finished", "replay"),
        final_points=KeyTransform("final_points", "replay"),
        sticks_left=KeyTransform("riichi_sticks_left", "replay"),
    )
    return {
        row["table_id"]: TableEntry(
            0,
            seats.get(row["table_id"], []),
            row["status"],
            first_entry_at=row["created_at"],
            last_entry_at=row["updated_at"],
            hands_played=row["hands_played"],
            last_hand=row["last_hand"],
            finished=bool(row["finished"]),
            final_points=row["final_points"],
            riichi_sticks_left=int(row["sticks_left"] or 0),
        )
        for row in rows
    }


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def table_json(state: TableState, hanchan: int) -> dict[str, Any]:
    """A table of the payload: each seat with its seat in the seating (``wind``) and its wind in the hand
    being played (``current_wind``; null once over), the dealer's marked."""
    return {
        "round": hanchan,
        "table": state.table,
        "status": state.status,
        "seats": [
            {
                "wind": seat.wind,
                "current_wind": current,
                "dealer": seat.wind == state.dealer,
                "player": seat.player,
                "name": seat.name,
                "points": points,
            }
            for seat, points, current in zip(state.seats, state.points, state.seat_winds(), strict=True)
        ],
        "riichi_sticks": state.riichi_sticks,
        "honba": state.honba,
        "hand": state.round_index,
        "hands_played": state.hands_played,
        "last_entry_at": _iso(state.last_entry_at),
    }


def begun(round_: Round) -> bool:
    """Whether play has begun in the hanchan, entries or not: its clock has been started (running or
    paused), a sheet of it was submitted (``Round.Status.STARTED``), or it is a club session's table,
    formed at the venue by the four players sitting down."""
    return (
        round_.mode == Round.Mode.CLUB
        or round_.status == Round.Status.STARTED
        or round_.clock_state != "stopped"
    )


def shown_rounds(tournament: Tournament, *, staff: bool) -> tuple[list[Round], bool]:
    """The hanchan whose tables the reader sees, and whether anything is hidden from them (``shown``
    false: there is a hanchan in play the reader may not see). A tournament's is its current hanchan; a
    club session's, every hanchan not finished, each a table formed at the venue."""
    playing = playing_rounds(tournament)
    seen = [round_ for round_ in playing if staff or public_sees(tournament, round_)]
    return seen, bool(seen) or not playing


def tables_payload(tournament: Tournament, *, staff: bool, now: datetime | None = None) -> dict[str, Any]:
    """The live tables of the current hanchan (of a club session, of every hanchan in play: one table
    each, by hanchan): as the public sees them, or whole with each slow table's flags (``staff``: the
    head referee's page)."""
    now = now or timezone.now()
    club = tournament.is_club_session
    rounds, shown = shown_rounds(tournament, staff=staff)
    payload: dict[str, Any] = {
        "round": rounds[0].number if rounds and not club else None,
        "club": club,
        "shown": shown,
        "now": now.isoformat(),
        "tables": [],
        "playing": 0,
    }
    if not rounds:
        return payload
    states = hanchan_table_states(rounds)
    payload["tables"] = [table_json(state, hanchan) for hanchan, state in states]
    payload["playing"] = sum(
        tables_playing(
            [state for number, state in states if number == round_.number], hanchan_begun=begun(round_)
        )
        for round_ in rounds
    )
    if staff:
        hands_behind, idle_minutes = settings.LIVE_TABLES_HANDS_BEHIND, settings.LIVE_TABLES_IDLE_MINUTES
        by_hanchan: dict[int, list[TableState]] = defaultdict(list)
        for hanchan, state in states:
            by_hanchan[hanchan].append(state)
        # Each hanchan's tables against each other: a club session's table, alone in its hanchan, is
        # never behind another, only idle.
        flags = {
            (hanchan, table): found
            for hanchan, tables in by_hanchan.items()
            for table, found in slow_tables(
                tables, now, hands_behind=hands_behind, idle_minutes=idle_minutes
            ).items()
        }
        for table in payload["tables"]:
            table["flags"] = [flag.as_json() for flag in flags.get((table["round"], table["table"]), ())]
        payload["hands_behind"], payload["idle_minutes"] = hands_behind, idle_minutes
    return payload


def public_tables(tournament: Tournament, *, fresh: bool = False) -> dict[str, Any]:
    """The public payload, computed once per change for the whole site (``remember_live``); ``fresh``:
    never the copy from before the latest change (what a live stream sends)."""
    return remember_live(tournament, LIVE_PART, lambda: tables_payload(tournament, staff=False), fresh=fresh)


def share_public_tables(tournament_id: int) -> None:
    """After a change of a table has committed: its public payload computed here, once for the site,
    then the ``tables`` notice. A failure to compute is logged; the notice goes out all the same."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return
    if tournament.is_public:
        try:
            store_live(tournament, LIVE_PART, tables_payload(tournament, staff=False))
        except Exception:
            logger.exception("live tables of tournament %s not computed", tournament_id)
    live.announce(tournament_id, "tables")


def tables_changed_on_commit(tournament_id: int) -> None:
    """A table's sheet changed in the current transaction: once it commits, the live tables' payload and
    notice (never if it rolls back)."""
    transaction.on_commit(lambda: share_public_tables(tournament_id), robust=True)
