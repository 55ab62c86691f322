"""All score sheets: one worksheet per hanchan, each table's sheet hand by hand where it was entered so
(with each win's value, yaku and dora where they were entered),
in the reader's language (the replay record stores English words and labels: they are translated here)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

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
from scoring.models import ScoreSheet, prefetch_signatures
from scoring.rules.ruleset import ABORTIVE_DRAWS
from scoring.rules.sheet import ROUND_LABELS, round_name
from scoring.rules.yaku import hand_wins
from tournament.models import Round, Seat, StaffRole, Tournament


def columns() -> list[Column]:
    """The columns, in the reader's language."""
    return [
        Column(_("Table"), 7),
        Column(_("Hand"), 6),
        Column(pgettext("hand of a hanchan", "Round"), 9),
        Column(_("Dealer"), 18),
        Column(_("Honba"), 7),
        Column(_("Result"), 30),
        *(Column(str(wind), 18, POINTS_FORMAT) for wind in Seat.Wind.labels),
        Column(_("Riichi"), 24),
        Column(_("Yaku"), 48),
    ]


def describe(hand: dict[str, Any]) -> str:
    """A hand's result in words, from the rules engine's replay record."""
    result = hand.get("result", "")
    if result == "ron":
        return _("Ron: {winners}").format(winners=", ".join(hand.get("winners", [])))
    if result == "tsumo":
        return _("Tsumo: {winners}").format(winners=", ".join(hand.get("winners", [])))
    if result == "draw":
        tenpai = hand.get("tenpai", [])
        if tenpai:
            return _("Draw, tenpai: {players}").format(players=", ".join(tenpai))
        return _("Draw, all noten")
    if result == "chombo":
        return _("Chombo: {players}").format(players=", ".join(hand.get("offenders", [])))
    if result == "abortive":  # the online presets (scoring.rules.ruleset.ABORTIVE_DRAWS)
        kind = hand.get("kind", "")
        return _("Abortive draw: {kind}").format(
            kind=_(ABORTIVE_DRAWS[kind]) if kind in ABORTIVE_DRAWS else kind
        )
    if result == "nagashi":
        return _("Nagashi mangan: {players}").format(players=", ".join(hand.get("nagashi", [])))
    return str(result)


def round_label(label: str) -> str:
    """A hand's round ("East 1", as the replay stores it) in the reader's language."""
    return round_name(ROUND_LABELS.index(label)) if label in ROUND_LABELS else label


def local(moment: Any) -> str:
    """A time of the venue, as the reader's language writes a date and time."""
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT") if moment else ""


def table_rows(number: int, names: list[str], sheet: ScoreSheet | None) -> Iterator[list[Any]]:
    """The rows of one table: its seats, its hands, its final points, places and scores, its signature."""
    yield [number, None, None, None, None, _("Seats"), *names, None]
    if sheet is None:
        yield [number, None, None, None, None, _("No score sheet"), None, None, None, None, None]
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
            round_label(hand.get("round", "")),
            hand.get("dealer", ""),
            hand.get("honba"),
            describe(hand),
            *(deltas.get(name) for name in players),
            ", ".join(hand.get("riichi", [])),
            "; ".join(f"{winner}: {summary}" for winner, summary in hand_wins(hand)) or None,
        ]
    final = replay.get("final_points", {})
    ranks = replay.get("ranks", {})
    scores = replay.get("scores", {})
    sticks = replay.get("riichi_sticks_left", 0)
    left = (
        ngettext("{count} riichi stick left", "{count} riichi sticks left", sticks).format(count=sticks)
        if sticks
        else None
    )
    yield [number, None, None, None, None, _("Final points"), *(final.get(name) for name in players), left]
    yield [number, None, None, None, None, _("Place"), *(ranks.get(name) for name in players), None]
    yield [
        number,
        None,
        None,
        None,
        None,
        _("Score"),
        *(Formatted(Decimal(scores[name]), SCORE_FORMAT) if name in scores else None for name in players),
        None,
    ]
    for chombo in replay.get("chombo", []):
        player = chombo.get("player", "")
        if chombo.get("hand"):
            text = _("Chombo in hand {hand}: {player}").format(hand=chombo["hand"], player=player)
        else:
            text = _("Chombo: {players}").format(players=player)
        yield [number, None, None, None, None, text]
    signature = sheet.signature
    if signature is None:
        status = _("{status}, not signed (version {version})").format(
            status=sheet.get_status_display(), version=sheet.version
        )
    elif signature.by_table:
        status = _("Agreed by the four players at {time} (version {version})").format(
            time=local(signature.at), version=signature.version
        )
    else:
        text = (
            _("Corrected by {user} at {time} (version {version})")
            if signature.is_correction
            else _("Signed by {user} at {time} (version {version})")
        )
        status = text.format(
            user=signature.author_name or _("(deleted user)"),
            time=local(signature.at),
            version=signature.version,
        )
    yield [number, None, None, None, None, status]
    yield []


@register
class ScoreSheetsExporter(ListExporter):
    name = "score_sheets"
    title = gettext_lazy("Score sheets")
    position = 30
    formats = ("xlsx",)
    permission = StaffRole.Role.REFEREE
    description = gettext_lazy(
        "One worksheet per hanchan: each table hand by hand, final points, signer and time."
    )

    def sheets(self, tournament: Tournament, progress: Progress) -> Iterator[Sheet]:
        rounds = list(Round.objects.filter(tournament=tournament, tables__isnull=False).distinct())
        names: dict[int, list[str]] = {}
        for table_id, wind, name in Seat.objects.filter(round__tournament=tournament).values_list(
            "table_id", "wind", "player__name"
        ):
            names.setdefault(table_id, ["", "", "", ""])[wind] = name
        stored = list(ScoreSheet.objects.filter(table__round__tournament=tournament))
        prefetch_signatures(stored)  # who signed each current version, from the history
        sheets = {sheet.table_id: sheet for sheet in stored}
        titles = columns()
        for index, round_ in enumerate(rounds):

            def rows(round_: Round = round_) -> Iterator[list[Any]]:
                for table_id, number in round_.tables.order_by("number").values_list("pk", "number"):
                    yield from table_rows(number, names.get(table_id, ["", "", "", ""]), sheets.get(table_id))

            name = _("Hanchan {number}").format(number=round_.number)
            yield Sheet(name, titles, rows(), key=f"hanchan {round_.number}")
            progress((index + 1) / len(rounds))
