"""What the score-sheet pages share: the table and who may open its sheet (a referee, or a seated
player when the players enter the results), and the sheet page itself, with the editor's settings
(the outcomes and yaku the tournament's rules allow), the hands, results, penalties and the players'
confirmation it shows."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import services
from scoring.forms import CorrectionForm, SignForm
from scoring.models import ScoreSheet
from scoring.rules.legal import most_ron_winners
from scoring.rules.replay import RESULT_NAMES
from scoring.rules.ruleset import ABORTIVE_DRAWS, entry_outcomes
from scoring.rules.sheet import ROUND_LABELS, round_name
from scoring.rules.tenhou import RESEAT_LABEL
from scoring.rules.yaku import CATALOGUE, hand_wins
from tournament.core.refusal import Refusal
from tournament.models import Player, Seat, StaffRole, Table, Tournament
from tournament.queries import access
from tournament.views.base import access_tournament, render_page

Role = StaffRole.Role
WIND_NAMES = dict(Seat.Wind.choices)
CONFLICT_HINT = gettext_lazy(
    "Reload the sheet to see the saved version; your entry is still below, not saved."
)
UNREADABLE = {
    "hand": None,
    "message": gettext_lazy("the sheet could not be read: each player is named by a text"),
}


def table_at(tournament: Tournament, round_number: int, table_number: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament=tournament,
        round__number=round_number,
        number=table_number,
    )


def _sheet_of(table: Table) -> ScoreSheet | None:
    return ScoreSheet.objects.filter(table=table).select_related("signed_by", "submitted_by").first()


def sheet_page(
    request: HttpRequest,
    tournament: Tournament,
    table: Table,
    *,
    entry: dict[str, Any] | None = None,
    errors: list[dict[str, Any]] | None = None,
    correcting: bool = False,
    correction_form: CorrectionForm | None = None,
    status: int = 200,
) -> HttpResponse:
    sheet = _sheet_of(table)
    seats = list(table.seats.select_related("player", "replaces").order_by("wind"))
    editable = correcting or sheet is None or not sheet.is_signed
    player = (
        access.player_of(request, tournament)
        if not access.has_role(request.user, tournament, Role.REFEREE)
        else None
    )
    if player is not None:  # a seated player (players' entry): until a referee has the last word
        editable = sheet is None or (not sheet.is_signed and sheet.disputed_at is None)
    # A seated player asked to confirm a submitted version reads it first; changing it is a choice.
    confirming = (
        player is not None
        and sheet is not None
        and sheet.status == ScoreSheet.Status.SUBMITTED
        and sheet.disputed_at is None
    )
    if entry is None and sheet is not None:
        entry = sheet.entry
    return render_page(
        request,
        "scoring/sheet.html",
        tournament,
        {
            "table": table,
            "sheet": sheet,
            "seats": seats,
            "editable": editable,
            "confirming": confirming,
            "correcting": correcting,
            "errors": errors or [],
            "editor": {
                "players": [seat.player.name for seat in seats],
                "winds": [WIND_NAMES[seat.wind] for seat in seats],
                "entry": entry,
                "editable": editable,
                "version": sheet.version if sheet else None,  # what a phone's unsent entry is compared with
                "status": sheet.status if sheet else None,  # what the save status says of that version
                # the badge's words for the status a save answers (a first draft: "no sheet yet" no more)
                "status_labels": dict(ScoreSheet.Status.choices),
                # whose entries this phone keeps: the signed-in referee, or the seated player
                "user": f"player-{player.pk}" if player else request.user.get_username(),
                # the outcomes the tournament's rules allow beyond ron, tsumo, draw and chombo
                "outcomes": _outcomes(tournament),
                **_yaku_choices(tournament),
            },
            "correction_form": correction_form,
            # the findings of the game log the current version was read from (None: entered by hand)
            "log_findings": services.log_findings(sheet) if sheet and not correcting else None,
            "may_reseat": access.has_role(request.user, tournament, Role.HEAD_REFEREE),
            "reseat_label": _(RESEAT_LABEL),
            "sign_form": SignForm(initial={"expected_version": sheet.version}) if sheet else None,
            "versions": sheet.versions.select_related("author").order_by("-at", "-pk") if sheet else [],
            "hands": _hands(sheet, seats) if sheet and (confirming or not editable) else [],
            "results": _results(sheet, seats) if sheet and sheet.replay.get("final_points") else [],
            "penalties": _penalties(sheet, seats) if sheet else [],
            **_confirmation(tournament, sheet, seats, player),
        },
        status=status,
    )


def _outcomes(tournament: Tournament) -> dict[str, Any]:
    """The abortive draws (kind and name, in the reader's language) and nagashi mangan the editor offers:
    those the tournament's ruleset allows (the online presets), none under WRCR 2015 and EMA."""
    allowed = entry_outcomes(tournament.ruleset())
    return {
        "abortive": [[kind, _(ABORTIVE_DRAWS[kind])] for kind in allowed["abortive"]],
        "nagashi": allowed["nagashi"],
    }


def _points(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else ""


def _shown_round(label: str) -> str:
    """A replay's round (stored as English data, ``East 1``) in the reader's language."""
    return round_name(ROUND_LABELS.index(label)) if label in ROUND_LABELS else label


def _shown_result(result: str) -> str:
    """A replay's result (stored as the engine's identifier, ``ron``) in the reader's language."""
    return _(result) if result in RESULT_NAMES else result


def _yaku_choices(tournament: Tournament) -> dict[str, Any]:
    """What the editor offers for a win entered by its yaku: the yaku list (identifiers, names in the
    reader's language and in English, romaji, han closed and open, which are one tap away), the
    ruleset's red fives and Blessing of Man (scoring/rules/yaku.py), and how many players may win on
    one discard (1 under the head bump; 2 or 3 with multiple ron: each winner's yaku of his own)."""
    ruleset = tournament.ruleset()
    return {
        "yaku": [
            {
                "id": yaku.id,
                "name": _(yaku.name),
                "english": yaku.name,
                "romaji": yaku.romaji,
                "han": yaku.han,
                "open_han": yaku.open_han,
                "yakuman": yaku.yakuman,
                "common": yaku.common,
            }
            for yaku in CATALOGUE
        ],
        "red_fives": ruleset.red_fives,
        "renho_mangan": ruleset.renho_mangan,
        "most_ron_winners": most_ron_winners(ruleset),
    }


def _hands(sheet: ScoreSheet, seats: list[Seat]) -> list[dict[str, Any]]:
    """The replay's hands for display: the points after each hand in seat order."""
    return [
        {
            "round": _shown_round(hand.get("round", "")),
            "honba": hand.get("honba", 0),
            "result": _shown_result(hand.get("result", "")),
            "points": [_points(hand.get("points", {}).get(seat.player.name)) for seat in seats],
            "wins": hand_wins(hand),
        }
        for hand in sheet.replay.get("hands") or []
    ]


def _results(sheet: ScoreSheet, seats: list[Seat]) -> list[dict[str, Any]]:
    replay = sheet.replay
    return [
        {
            "wind": WIND_NAMES[seat.wind],
            "name": seat.player.name,
            "points": _points(replay["final_points"].get(seat.player.name)),
            "rank": (replay.get("ranks") or {}).get(seat.player.name),
            "score": (replay.get("scores") or {}).get(seat.player.name),
        }
        for seat in seats
    ]


def _penalties(sheet: ScoreSheet, seats: list[Seat]) -> list[dict[str, Any]]:
    """The chombo penalties the sheet gives (the replay's ``chombo``), for its results summary: who, in
    which hand (None on a final-points sheet) and the points off the overall score (negative)."""
    winds = {seat.player.name: WIND_NAMES[seat.wind] for seat in seats}
    return [
        {"name": chombo["player"], "wind": winds.get(chombo["player"], ""), **chombo}
        for chombo in sheet.replay.get("chombo") or []
        if isinstance(chombo, dict) and "player" in chombo and "points" in chombo
    ]


def sheet_access(
    request: HttpRequest, slug: str, round_number: int, table_number: int
) -> tuple[Tournament, Table, Player | None] | HttpResponse:
    """Who may open a table's sheet: a referee of the tournament (player None), or, when the players enter
    the results, a player seated at that table, signed in with their PIN or link (``access.player_of``).
    Anyone else: the login page, or 403 naming the rule that refuses them."""
    if not request.user.is_authenticated and not request.session.get(access.PLAYER_SESSION_KEY):
        return redirect_to_login(request.get_full_path())
    tournament = access_tournament(request, slug)
    if access.has_role(request.user, tournament, Role.REFEREE):
        return tournament, table_at(tournament, round_number, table_number), None
    player = access.player_of(request, tournament)
    if player is None:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(
            _("This page is for the referees of {tournament}.").format(tournament=tournament.name)
        )
    table = table_at(tournament, round_number, table_number)
    try:
        access.require_table_player(player, table, list(table.seats.all()))
    except Refusal as refused:
        raise PermissionDenied(f"{refused.message} ({refused.rule})") from None
    return tournament, table, player


def _confirmation(
    tournament: Tournament, sheet: ScoreSheet | None, seats: list[Seat], player: Player | None
) -> dict[str, Any]:
    """What ``scoring/_confirmation.html`` shows: each seated player's answer to the current version, and
    whether the player of this browser may answer it now."""
    if tournament.entry_mode != Tournament.EntryMode.PLAYERS or sheet is None:
        return {"confirmation": None}
    answers = services.confirmations(sheet)
    may_answer = (
        player is not None
        and sheet.status == ScoreSheet.Status.SUBMITTED
        and sheet.disputed_at is None
        and player.pk not in answers
    )
    return {
        "confirmation": {
            "rows": [
                {
                    "wind": WIND_NAMES[seat.wind],
                    "name": seat.player.name,
                    "answer": answers.get(seat.player_id),
                }
                for seat in seats
            ],
            "me": player,
            "may_answer": may_answer,
        }
    }
