"""The referees' pages: the tables of the current hanchan and the score-sheet editor.

The editor (``static/js/sheet.js``) asks ``check`` for the rules engine's verdict as the referee types
(nothing is stored); saving, submitting, signing and correcting post forms to the views below, each of
which calls one service of ``scoring.services``.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring import services
from scoring.forms import AnswerForm, CorrectionForm, GameLogForm, SheetForm, SignForm
from scoring.models import ScoreSheet, open_disputes
from scoring.rules import tenhou
from scoring.rules.legal import most_ron_winners
from scoring.rules.replay import RESULT_NAMES
from scoring.rules.ruleset import ABORTIVE_DRAWS, entry_outcomes
from scoring.rules.sheet import ROUND_LABELS, round_name
from scoring.rules.tenhou import RESEAT_LABEL
from scoring.rules.yaku import CATALOGUE, hand_wins
from tournament import services as tournament_services
from tournament.core.inputs import read_json
from tournament.core.refusal import CONFLICT, Refusal
from tournament.models import Player, Seat, StaffRole, Table, Tournament
from tournament.queries import access
from tournament.views.base import access_tournament, refusal_response, render_page

Role = StaffRole.Role
WIND_NAMES = dict(Seat.Wind.choices)
CONFLICT_HINT = gettext_lazy(
    "Reload the sheet to see the saved version; your entry is still below, not saved."
)
UNREADABLE = {
    "hand": None,
    "message": gettext_lazy("the sheet could not be read: each player is named by a text"),
}
# A saved sheet is a few kilobytes (a long hanchan of 30 hands is under 10 KB): a save reads at most this.
MAX_SAVE_BYTES = 262_144
SAVE_ACTIONS = ("draft", "submit")
SAVE_CONFLICT_HINT = gettext_lazy(
    "This phone keeps your entry, not sent: save it over the saved version, or use the saved version."
)


def _table(tournament: Tournament, round_number: int, table_number: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament=tournament,
        round__number=round_number,
        number=table_number,
    )


def _sheet_of(table: Table) -> ScoreSheet | None:
    return ScoreSheet.objects.filter(table=table).select_related("signed_by", "submitted_by").first()


def _sheet_page(
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


def _sheet_access(
    request: HttpRequest, slug: str, round_number: int, table_number: int
) -> tuple[Tournament, Table, Player | None] | HttpResponse:
    """Who may open a table's sheet: a referee of the tournament (player None), or, when the players enter
    the results, a player seated at that table, signed in with their PIN or link (``access.player_of``).
    Anyone else: the login page, or 403 naming the rule that refuses them."""
    if not request.user.is_authenticated and not request.session.get(access.PLAYER_SESSION_KEY):
        return redirect_to_login(request.get_full_path())
    tournament = access_tournament(request, slug)
    if access.has_role(request.user, tournament, Role.REFEREE):
        return tournament, _table(tournament, round_number, table_number), None
    player = access.player_of(request, tournament)
    if player is None:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(
            _("This page is for the referees of {tournament}.").format(tournament=tournament.name)
        )
    table = _table(tournament, round_number, table_number)
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


@login_required
@require_GET
def my_tables(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.REFEREE)
    tables = tournament_services.tables_of_referee(request.user, tournament)  # disputed sheets first
    disputes = open_disputes(getattr(table, "sheet", None) for table in tables)
    rows = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda seat: seat.wind)
        sheet = getattr(table, "sheet", None)
        rows.append(
            {
                "table": table,
                "sheet": sheet,
                "dispute": disputes.get(sheet.pk) if sheet is not None else None,
                "players": [(WIND_NAMES[seat.wind], seat.player.name) for seat in seats],
            }
        )
    return render_page(
        request,
        "scoring/my_tables.html",
        tournament,
        {"rows": rows, "round": tables[0].round if tables else None},
    )


@require_http_methods(["GET", "POST"])
def sheet(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    found = _sheet_access(request, slug, round_number, table_number)
    if isinstance(found, HttpResponse):
        return found
    tournament, table, player = found
    if request.method == "GET":
        return _sheet_page(request, tournament, table)
    form = SheetForm(request.POST)
    if not form.is_valid():
        errors = [{"hand": None, "message": f"{name}: {'; '.join(e)}"} for name, e in form.errors.items()]
        entry = form.cleaned_data.get("entry")
        return _sheet_page(request, tournament, table, entry=entry, errors=errors, status=400)
    submit = form.cleaned_data["action"] == "submit"
    entry = form.cleaned_data["entry"]
    try:
        if player is not None:
            saved = services.player_save_sheet(
                table, entry, player, submit=submit, expected_version=form.cleaned_data["expected_version"]
            )
        else:
            saved = services.save_sheet(
                table,
                entry,
                request.user,
                submit=submit,
                expected_version=form.cleaned_data["expected_version"],
            )
    except Refusal as refused:
        errors = refused.as_dicts()
        if refused.status == CONFLICT:
            errors.append({"hand": None, "message": CONFLICT_HINT})
        return _sheet_page(request, tournament, table, entry=entry, errors=errors, status=refused.status)
    except TypeError:  # see ``check``
        return _sheet_page(request, tournament, table, errors=[UNREADABLE], status=400)
    if submit and player is not None:
        text = _("Submitted (version {version}). The other players of the table confirm it next.")
        messages.success(request, text.format(version=saved.version))
    elif submit:
        text = _("Submitted (version {version}). A referee signs it next.")
        messages.success(request, text.format(version=saved.version))
    else:
        messages.success(request, _("Draft saved (version {version}).").format(version=saved.version))
    return redirect(
        "scoring:sheet", slug=tournament.slug, round_number=round_number, table_number=table_number
    )


@login_required
@require_POST
def from_log(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    """A draft sheet read from an online game's log (not signed); the sheet page shows the findings beside
    it for as long as that version is the current one. With ``reseat_winds`` (a head referee) the table's
    winds become the log's."""
    tournament = access_tournament(request, slug, Role.REFEREE)
    table = _table(tournament, round_number, table_number)
    form = GameLogForm(request.POST, request.FILES)
    if not form.is_valid():
        errors = [{"hand": None, "message": "; ".join(e)} for e in form.errors.values()]
        return _sheet_page(request, tournament, table, errors=errors, status=400)
    links = form.cleaned_data["links"]
    if len(links) > 1:
        return _from_links(request, tournament, table, links)
    try:
        if links:  # one link: this table's game, fetched from Tenhou before the transaction
            form.cleaned_data["log"] = services.fetch_log(links[0], "log_links")
        saved, findings = services.sheet_from_log(
            table,
            form.cleaned_data["log"],
            request.user,
            mapping=form.cleaned_data["mapping"],
            expected_version=form.cleaned_data["expected_version"],
            reseat_winds=form.cleaned_data["reseat_winds"],
        )
    except Refusal as refused:
        return _sheet_page(request, tournament, table, errors=refused.as_dicts(), status=refused.status)
    text = ngettext(
        "Draft read from the game log (version {version}, {count} finding): check it, submit it.",
        "Draft read from the game log (version {version}, {count} findings): check it, submit it.",
        len(findings),
    ).format(version=saved.version, count=len(findings))
    text = _("{message} Read as {format}.").format(
        message=text, format=tenhou.log_format(form.cleaned_data["log"])
    )
    if form.cleaned_data["reseat_winds"]:
        text = _("{message} The table's winds are as in the log.").format(message=text)
    messages.success(request, text)
    return redirect(
        "scoring:sheet", slug=tournament.slug, round_number=round_number, table_number=table_number
    )


def _from_links(request: HttpRequest, tournament: Any, table: Any, links: list[str]) -> HttpResponse:
    """Several Tenhou links pasted at once (a head referee): each game goes to the table of this hanchan
    its nicknames sit at; the message names the tables filled and the games not placed, with why."""
    try:
        answer = services.sheets_from_links(table.round, links, request.user)
    except Refusal as refused:
        return _sheet_page(request, tournament, table, errors=refused.as_dicts(), status=refused.status)
    placed = [
        _("table {table} ({game})").format(table=game["table"], game=game["game"])
        for game in answer["placed"]
    ]
    if placed:
        messages.success(request, _("Drafts read from Tenhou: {tables}.").format(tables=", ".join(placed)))
    for game in answer["unplaced"]:
        messages.warning(
            request, _("Not placed: {link}: {reason}").format(link=game["link"], reason=game["reason"])
        )
    return redirect(
        "scoring:sheet", slug=tournament.slug, round_number=table.round.number, table_number=table.number
    )


@login_required
@require_POST
def sign(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.REFEREE)
    table = _table(tournament, round_number, table_number)
    current = get_object_or_404(ScoreSheet, table=table)
    form = SignForm(request.POST)
    if form.is_valid():
        try:
            services.sign_sheet(current, request.user, expected_version=form.cleaned_data["expected_version"])
        except Refusal as refused:
            for problem in refused.problems:
                messages.error(request, problem.message)
        else:
            messages.success(request, _("Signed. The standings are updated."))
    return redirect(
        "scoring:sheet", slug=tournament.slug, round_number=round_number, table_number=table_number
    )


@login_required
@require_http_methods(["GET", "POST"])
def correct(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    tournament = access_tournament(request, slug, Role.HEAD_REFEREE)
    table = _table(tournament, round_number, table_number)
    current = get_object_or_404(ScoreSheet, table=table, status=ScoreSheet.Status.SIGNED)
    if request.method == "GET":
        form = CorrectionForm(initial={"expected_version": current.version})
        return _sheet_page(request, tournament, table, correcting=True, correction_form=form)
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        return _sheet_page(
            request,
            tournament,
            table,
            entry=form.cleaned_data.get("entry"),  # what the head referee typed, if it was readable
            correcting=True,
            correction_form=form,
            status=400,
        )
    entry = form.cleaned_data["entry"]
    try:
        services.correct_sheet(
            current,
            entry,
            request.user,
            reason=form.cleaned_data["reason"],
            expected_version=form.cleaned_data["expected_version"],
        )
    except Refusal as refused:
        status = refused.status
        errors = refused.as_dicts()
        if status == CONFLICT:
            errors.append({"hand": None, "message": CONFLICT_HINT})
        return _sheet_page(
            request,
            tournament,
            table,
            entry=entry,
            errors=errors,
            correcting=True,
            correction_form=form,
            status=status,
        )
    messages.success(
        request, _("Corrected. The standings are updated; the old version stays in the history.")
    )
    return redirect(
        "scoring:sheet", slug=tournament.slug, round_number=round_number, table_number=table_number
    )


@require_POST
def check(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    """The rules engine's verdict on an entry as the referee (or the seated player) types: errors by
    hand, or the replay."""
    found = _sheet_access(request, slug, round_number, table_number)
    if isinstance(found, HttpResponse):
        return found
    table = found[1]
    try:
        body = read_json(request.body or b"null")
    except Refusal as refused:  # too deep, too large, not JSON: the verdict says so, as for any sheet
        return JsonResponse({"valid": False, "errors": [{**e, "hand": None} for e in refused.as_dicts()]})
    entry = body.get("entry") if isinstance(body, dict) else None
    try:
        verdict = services.check_entry(table, entry).as_json()  # type: ignore[arg-type]
    except Refusal as refused:
        verdict = {"valid": False, "errors": refused.as_dicts()}
    except TypeError:  # the engine does not yet read a player given as a list or object
        verdict = {"valid": False, "errors": [UNREADABLE]}
    return JsonResponse(verdict)


def _answer(
    request: HttpRequest, slug: str, round_number: int, table_number: int, *, agree: bool
) -> HttpResponse:
    found = _sheet_access(request, slug, round_number, table_number)
    if isinstance(found, HttpResponse):
        return found
    tournament, table, player = found
    if player is None:
        raise PermissionDenied(_("Only the players seated at the table confirm or dispute its sheet."))
    form = AnswerForm(request.POST)
    if not form.is_valid():
        for name, errors in form.errors.items():
            messages.error(request, f"{name}: {'; '.join(errors)}")
    else:
        version = form.cleaned_data["version"]
        try:
            if agree:
                answered = services.confirm_sheet(table, player, version=version)
            else:
                answered = services.dispute_sheet(
                    table, player, version=version, reason=form.cleaned_data["reason"]
                )
        except Refusal as refused:
            for problem in refused.problems:
                messages.error(request, problem.message)
        else:
            if answered.is_signed:
                messages.success(
                    request, _("All four players agree: the sheet is signed and the standings count it.")
                )
            elif agree:
                messages.success(request, _("You agree with version {version}.").format(version=version))
            else:
                messages.success(request, _("Disputed: a referee comes to the table."))
    return redirect(
        "scoring:sheet", slug=tournament.slug, round_number=round_number, table_number=table_number
    )


@require_POST
def confirm(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    """A seated player agrees with the submitted sheet's version."""
    return _answer(request, slug, round_number, table_number, agree=True)


@require_POST
def dispute(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    """A seated player disputes the submitted sheet's version, with a reason."""
    return _answer(request, slug, round_number, table_number, agree=False)


def _save_request(request: HttpRequest) -> tuple[dict[str, Any], bool, int | None]:
    """The entry, whether to submit, and the version edited, read from a save's JSON body, or a refusal
    naming the field."""
    body = read_json(request.body or b"null", max_bytes=MAX_SAVE_BYTES)
    if not isinstance(body, dict):
        raise Refusal("body", "format", _("the body must be a JSON object: entry, action, expected_version"))
    entry = body.get("entry")
    if not isinstance(entry, dict):
        raise Refusal("entry", "format", _("entry: the sheet must be a JSON object"))
    action = body.get("action")
    if action not in SAVE_ACTIONS:
        raise Refusal("action", "format", _("action must be 'draft' (save a draft) or 'submit'"))
    expected = body.get("expected_version")
    if expected is not None and (type(expected) is not int or not 1 <= expected <= 1_000_000):
        raise Refusal(
            "expected_version", "format", _("expected_version must be null or the version edited (1 or more)")
        )
    return entry, action == "submit", expected


@require_POST
def save(request: HttpRequest, slug: str, round_number: int, table_number: int) -> HttpResponse:
    """The sheet editor's save and submit, as JSON, under the ``Idempotency-Key`` header: a phone that
    never saw the answer sends the same request again and gets the first answer; nothing is saved
    twice (``services.save_sheet_once``). A referee, or a seated player when the players enter the
    results (as the sheet page). Answers ``{"version", "status"}`` or ``{"errors": [...]}`` (a conflict
    adds ``current_version``)."""
    found = _sheet_access(request, slug, round_number, table_number)
    if isinstance(found, HttpResponse):
        return found
    _tournament, table, player = found
    try:
        entry, submit, expected = _save_request(request)
        answer = services.save_sheet_once(
            table,
            entry,
            None if player is not None else request.user,  # type: ignore[arg-type]
            key=request.headers.get("Idempotency-Key", ""),
            submit=submit,
            expected_version=expected,
            player=player,
        )
    except Refusal as refused:
        return refusal_response(refused)
    except TypeError:  # see ``check``
        unreadable = {**UNREADABLE, "message": str(UNREADABLE["message"]), "field": "entry", "rule": "format"}
        return JsonResponse({"errors": [unreadable]}, status=400)
    body = dict(answer.body)
    if answer.status == CONFLICT:
        body["errors"] = [
            *body["errors"],
            {"hand": None, "field": None, "rule": "stale-version", "message": str(SAVE_CONFLICT_HINT)},
        ]
    if answer.status == 200 and submit and not answer.replayed:
        if player:
            text = _("Submitted (version {version}). The other players of the table confirm it next.")
        else:
            text = _("Submitted (version {version}). A referee signs it next.")
        messages.success(request, text.format(version=answer.body["version"]))
    return JsonResponse(body, status=answer.status)
