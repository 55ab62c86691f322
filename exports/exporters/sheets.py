"""All score sheets: one worksheet per hanchan, each table's sheet hand by hand where it was entered so."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from django.utils import timezone

from exports.exporters.base import (
    POINTS_FORMAT,
    SCORE_FORMAT,
    Column,
    Formatted,
    ListExporter,
    Progress,
    Sheet,
    register,
)
from scoring.models import ScoreSheet
from tournament.models import Round, Seat, StaffRole, Tournament

WIND_NAMES = ("East", "South", "West", "North")
COLUMNS = [
    Column("Table", 7),
    Column("Hand", 6),
    Column("Round", 9),
    Column("Dealer", 18),
    Column("Honba", 7),
    Column("Result", 30),
    *(Column(wind, 18, POINTS_FORMAT) for wind in WIND_NAMES),
    Column("Riichi", 24),
]


def describe(hand: dict[str, Any]) -> str:
    """A hand's result in words, from the rules engine's replay record."""
    result = hand.get("result", "")
    if result in {"ron", "tsumo"}:
        return f"{result.capitalize()}: {', '.join(hand.get('winners', []))}"
    if result == "draw":
        tenpai = hand.get("tenpai", [])
        return f"Draw, tenpai: {', '.join(tenpai)}" if tenpai else "Draw, all noten"
    if result == "chombo":
        return f"Chombo: {', '.join(hand.get('offenders', []))}"
    return str(result)


def local(moment: Any) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M") if moment else ""


def table_rows(number: int, names: list[str], sheet: ScoreSheet | None) -> Iterator[list[Any]]:
    """The rows of one table: its seats, its hands, its final points, places and scores, its signature."""
    yield [number, None, None, None, None, "Seats", *names, None]
    if sheet is None:
        yield [number, None, None, None, None, "No score sheet", None, None, None, None, None]
        yield []
        return
    replay = sheet.replay or {}
    # The replay names the players as they were when the sheet was entered, in seat order.
    players = replay.get("players") or names
    for index, hand in enumerate(replay.get("hands", []), 1):
        deltas = hand.get("deltas", {})
        yield [
            number,
            index,
            hand.get("round", ""),
            hand.get("dealer", ""),
            hand.get("honba"),
            describe(hand),
            *(deltas.get(name) for name in players),
            ", ".join(hand.get("riichi", [])),
        ]
    final = replay.get("final_points", {})
    ranks = replay.get("ranks", {})
    scores = replay.get("scores", {})
    sticks = replay.get("riichi_sticks_left", 0)
    left = f"{sticks} riichi stick{'s' if sticks != 1 else ''} left" if sticks else None
    yield [number, None, None, None, None, "Final points", *(final.get(name) for name in players), left]
    yield [number, None, None, None, None, "Place", *(ranks.get(name) for name in players), None]
    yield [
        number,
        None,
        None,
        None,
        None,
        "Score",
        *(Formatted(Decimal(scores[name]), SCORE_FORMAT) if name in scores else None for name in players),
        None,
    ]
    for chombo in replay.get("chombo", []):
        hand_text = f" in hand {chombo['hand']}" if chombo.get("hand") else ""
        yield [number, None, None, None, None, f"Chombo{hand_text}: {chombo.get('player', '')}"]
    if sheet.status == ScoreSheet.Status.SIGNED:
        signer = sheet.signed_by.get_username() if sheet.signed_by else "(deleted user)"
        status = f"Signed by {signer} at {local(sheet.signed_at)} (version {sheet.version})"
    else:
        status = f"{sheet.get_status_display()}, not signed (version {sheet.version})"
    yield [number, None, None, None, None, status]
    yield []


@register
class ScoreSheetsExporter(ListExporter):
    name = "score_sheets"
    title = "Score sheets"
    position = 30
    formats = ("xlsx",)
    permission = StaffRole.Role.REFEREE
    description = "One worksheet per hanchan: each table hand by hand, final points, signer and time."

    def sheets(self, tournament: Tournament, progress: Progress) -> Iterator[Sheet]:
        rounds = list(Round.objects.filter(tournament=tournament, tables__isnull=False).distinct())
        names: dict[int, list[str]] = {}
        for table_id, wind, name in Seat.objects.filter(round__tournament=tournament).values_list(
            "table_id", "wind", "player__name"
        ):
            names.setdefault(table_id, ["", "", "", ""])[wind] = name
        sheets = {
            sheet.table_id: sheet
            for sheet in ScoreSheet.objects.filter(table__round__tournament=tournament).select_related(
                "signed_by"
            )
        }
        for index, round_ in enumerate(rounds):

            def rows(round_: Round = round_) -> Iterator[list[Any]]:
                for table_id, number in round_.tables.order_by("number").values_list("pk", "number"):
                    yield from table_rows(number, names.get(table_id, ["", "", "", ""]), sheets.get(table_id))

            yield Sheet(f"Hanchan {round_.number}", COLUMNS, rows())
            progress((index + 1) / len(rounds))
