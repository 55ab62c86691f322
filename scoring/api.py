"""The REST API over score sheets: one sheet per table, under ``/api/tables/{table_pk}/sheet/``.

Referees of the tournament check, enter, submit and sign; head referees and organisers correct a
signed sheet. When the tournament's players enter the results, a player seated at the table and signed in
with their PIN or link (a session: ``tournament.queries.access.player_of``) checks, enters and submits it
too, and
agrees with or disputes the submitted version (``confirm``, ``dispute``). Anyone who can see the
tournament reads a signed sheet; drafts, submitted sheets and every sheet's history are for its staff.
``scoring.services`` refuses with ``tournament.core.refusal.Refusal``, which ``config.api`` renders with its
status: 400 an invalid entry, 403 a player not allowed at this table (the rule named), 409 a conflict or
a signed (locked) sheet.
"""

from __future__ import annotations

import json
from functools import cached_property
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import NotFound
from rest_framework.metadata import SimpleMetadata
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from scoring import services
from scoring.models import ScoreSheet, SheetVersion
from scoring.rules import tenhou
from scoring.serializers import (
    AnswerSheetSerializer,
    CorrectSheetSerializer,
    DisputeSheetSerializer,
    PlayerSheetSerializer,
    PublicSheetSerializer,
    SheetCheckSerializer,
    SheetEntrySerializer,
    SheetFromLogSerializer,
    SheetSerializer,
    SheetsFromLinksSerializer,
    SheetUpdateSerializer,
    SheetVerdictSerializer,
    SignSheetSerializer,
)
from tournament.api.base import is_staff
from tournament.models import Player, StaffRole, Table, Tournament
from tournament.queries import access
from tournament.queries.standings_db import reader_cutoff, shows_hanchan

Role = StaffRole.Role

CONFLICT = OpenApiResponse(
    description="Conflict: the table has a sheet already, the sheet changed since the version sent, or it "
    "is signed (locked). The error names which."
)


class SheetMetadata(SimpleMetadata):
    """``OPTIONS``: the view's name, description and formats, without DRF's per-method actions (which
    build a serializer from a queryset this one-sheet-per-table view does not have)."""

    def determine_metadata(self, request: Request, view: Any) -> dict[str, Any]:
        return {
            "name": view.get_view_name(),
            "description": view.get_view_description(),
            "renders": [renderer.media_type for renderer in view.renderer_classes],
            "parses": [parser.media_type for parser in view.parser_classes],
        }


@extend_schema(tags=["score sheets"])
class SheetViewSet(viewsets.GenericViewSet):  # type: ignore[type-arg]
    """The score sheet of one table."""

    serializer_class = SheetSerializer
    metadata_class = SheetMetadata
    # Every action checks who may do it (``require``, ``require_player``): a player signed in with a PIN
    # has a session but no user, which DRF's default (authenticated users only write) would turn away.
    permission_classes = [AllowAny]
    table: Table

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        table = Table.objects.select_related("round__tournament").filter(pk=kwargs["table_pk"]).first()
        if table is None or not access.can_view(request.user, table.round.tournament):
            raise NotFound(_("no table {table}").format(table=kwargs["table_pk"]))
        self.table = table

    def require(self, role: str) -> None:
        access.require_role(self.request.user, self.table.round.tournament, role)

    @cached_property
    def staff(self) -> bool:
        """Whether this user is on the tournament's staff (and so sees drafts and history)."""
        return is_staff(self.request, self.table.round.tournament)

    @cached_property
    def player(self) -> Player | None:
        """The seated player of this table signed in on this session, when the tournament's players enter
        the results and the hanchan's seating is public (not staff: they act as staff)."""
        tournament = self.table.round.tournament
        if self.staff or tournament.entry_mode != Tournament.EntryMode.PLAYERS:
            return None
        player = access.player_of(self.request._request, tournament)
        if player is None or not self.table.round.seating_is_public:
            return None
        return player if self.table.seats.filter(player=player).exists() else None

    def require_player(self) -> Player:
        """The player of the session, for a player's action: refused with the rule when not seated here.
        A player's session carries no user, so DRF's session authentication does not check CSRF: it is
        checked here."""
        tournament = self.table.round.tournament
        player = access.player_of(self.request._request, tournament)
        if player is None:
            raise PermissionDenied(
                _("this needs a referee, or a player of the table signed in with their PIN")
            )
        SessionAuthentication().enforce_csrf(self.request._request)
        access.require_table_player(player, self.table, list(self.table.seats.all()))
        return player

    def sheet(self) -> ScoreSheet:
        """The table's sheet, as the user may see it: staff every sheet, others a signed one only."""
        sheet = (
            ScoreSheet.objects.select_related("table__round", "created_by", "submitted_by", "signed_by")
            .prefetch_related(Prefetch("versions", queryset=SheetVersion.objects.select_related("author")))
            .filter(table=self.table)
            .first()
        )
        public = not self.staff and self.player is None
        hidden = public and not shows_hanchan(
            reader_cutoff(self.request.user, self.table.round.tournament), self.table.round.number
        )
        if sheet is None or hidden or not (sheet.is_signed or not public):
            raise NotFound(
                _("table {table} of hanchan {hanchan} has no sheet yet").format(
                    table=self.table.number, hanchan=self.table.round.number
                )
            )
        return sheet

    def respond(self, sheet: ScoreSheet, code: int = status.HTTP_200_OK) -> Response:
        if self.staff:
            return Response(SheetSerializer(sheet).data, status=code)
        if self.player is not None:
            return Response(PlayerSheetSerializer(sheet).data, status=code)
        return Response(PublicSheetSerializer(sheet).data, status=code)

    @extend_schema(summary="The table's sheet (staff: with every version)", responses=SheetSerializer)
    def retrieve(self, request: Request, table_pk: int) -> Response:
        return self.respond(self.sheet())

    @extend_schema(
        summary="Enter the table's sheet, as a draft or submitted (referee)",
        request=SheetEntrySerializer,
        responses={201: SheetSerializer, 409: CONFLICT},
    )
    def create(self, request: Request, table_pk: int) -> Response:
        player = None if self.staff else self.require_player()
        if player is None:
            self.require(Role.REFEREE)
        serializer = SheetEntrySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if player is not None:
            services.player_save_sheet(self.table, data["entry"], player, submit=data["submit"])
        else:
            services.save_sheet(self.table, data["entry"], request.user, submit=data["submit"])
        return self.respond(self.sheet(), status.HTTP_201_CREATED)

    @extend_schema(
        summary="Change the draft or submitted sheet, naming the version edited (referee)",
        request=SheetUpdateSerializer,
        responses={200: SheetSerializer, 409: CONFLICT},
    )
    def update(self, request: Request, table_pk: int) -> Response:
        player = None if self.staff else self.require_player()
        if player is None:
            self.require(Role.REFEREE)
        self.sheet()  # 404 when there is none yet: POST creates it
        serializer = SheetUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if player is not None:
            services.player_save_sheet(
                self.table,
                data["entry"],
                player,
                submit=data["submit"],
                expected_version=data["expected_version"],
            )
            return self.respond(self.sheet())
        services.save_sheet(
            self.table,
            data["entry"],
            request.user,
            submit=data["submit"],
            expected_version=data["expected_version"],
        )
        return self.respond(self.sheet())

    @extend_schema(
        summary="Check an entry against the rules without saving it (referee)",
        description="200 either way: valid true with the replay, or valid false with every error.",
        request=SheetCheckSerializer,
        responses={200: SheetVerdictSerializer},
    )
    def check(self, request: Request, table_pk: int) -> Response:
        if self.staff or self.require_player() is None:
            self.require(Role.REFEREE)
        serializer = SheetCheckSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(services.check_entry(self.table, serializer.validated_data["entry"]).as_json())

    @extend_schema(
        summary="A draft sheet read from an online game's log (tenhou.net/6 JSON or Tenhou's mjlog XML), "
        "with findings and the format read (referee; re-seating the winds as the log sat: head referee)",
        request=SheetFromLogSerializer,
        responses={201: SheetSerializer, 200: SheetSerializer, 409: CONFLICT},
    )
    def from_log(self, request: Request, table_pk: int) -> Response:
        self.require(Role.REFEREE)
        serializer = SheetFromLogSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if data["reseat_winds"]:
            self.require(Role.HEAD_REFEREE)
        if "link" in data:
            text: str | bytes = services.fetch_log(data["link"])  # before the transaction: Tenhou is slow
        else:
            log = data["log"]
            text = log if isinstance(log, str) else json.dumps(log, ensure_ascii=False)
        _saved, findings = services.sheet_from_log(
            self.table,
            text,
            request.user,
            mapping=data["mapping"],
            expected_version=data["expected_version"],
            reseat_winds=data["reseat_winds"],
        )
        body = {
            "sheet": SheetSerializer(self.sheet()).data,
            "findings": [f.as_json() for f in findings],
            "format": tenhou.log_format(text),  # which of the two formats the log was read as
        }
        created = data["expected_version"] is None
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)

    @extend_schema(
        summary="Sign the submitted sheet, which locks it (referee)",
        request=SignSheetSerializer,
        responses={200: SheetSerializer, 409: CONFLICT},
    )
    def sign(self, request: Request, table_pk: int) -> Response:
        self.require(Role.REFEREE)
        sheet = self.sheet()
        serializer = SignSheetSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.sign_sheet(
            sheet, request.user, expected_version=serializer.validated_data["expected_version"]
        )
        return self.respond(self.sheet())

    @extend_schema(
        summary="Correct a signed sheet, with a reason (head referee)",
        request=CorrectSheetSerializer,
        responses={200: SheetSerializer, 409: CONFLICT},
    )
    def correct(self, request: Request, table_pk: int) -> Response:
        self.require(Role.HEAD_REFEREE)
        sheet = self.sheet()
        serializer = CorrectSheetSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.correct_sheet(
            sheet,
            data["entry"],
            request.user,
            reason=data["reason"],
            expected_version=data["expected_version"],
        )
        return self.respond(self.sheet())

    @extend_schema(
        summary="Agree with the submitted sheet's version (a player seated at the table)",
        description="The fourth agreement with the current version signs the sheet for the table.",
        request=AnswerSheetSerializer,
        responses={200: PlayerSheetSerializer, 409: CONFLICT},
    )
    def confirm(self, request: Request, table_pk: int) -> Response:
        player = self.require_player()
        serializer = AnswerSheetSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.confirm_sheet(self.table, player, version=serializer.validated_data["version"])
        return self.respond(self.sheet())

    @extend_schema(
        summary="Dispute the submitted sheet's version, with a reason (a player seated at the table)",
        description="The sheet goes to the referees (status disputed); the players no longer change it.",
        request=DisputeSheetSerializer,
        responses={200: PlayerSheetSerializer, 409: CONFLICT},
    )
    def dispute(self, request: Request, table_pk: int) -> Response:
        player = self.require_player()
        serializer = DisputeSheetSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.dispute_sheet(self.table, player, version=data["version"], reason=data["reason"])
        return self.respond(self.sheet())


class RoundLinksView(SheetViewSet):
    """Several Tenhou games of one hanchan by their replay links (a head referee)."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        viewsets.GenericViewSet.initial(self, request, *args, **kwargs)
        tournament = Tournament.objects.filter(pk=kwargs["tournament_pk"]).first()
        if tournament is None or not access.can_view(request.user, tournament):
            raise NotFound(_("no tournament {tournament}").format(tournament=kwargs["tournament_pk"]))
        round_ = tournament.rounds.filter(number=kwargs["number"]).first()
        if round_ is None:
            raise NotFound(_("no hanchan {number}").format(number=kwargs["number"]))
        self.round = round_

    @extend_schema(
        summary="Sheets from several Tenhou replay links of one hanchan: each game goes to the table its "
        "four nicknames are seated at (head referee)",
        request=SheetsFromLinksSerializer,
        responses={
            200: OpenApiResponse(
                description="placed: [{link, game, table, version, findings}], "
                "unplaced: [{link, game, reason}]"
            )
        },
    )
    def from_links(self, request: Request, tournament_pk: int, number: int) -> Response:
        serializer = SheetsFromLinksSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        answer = services.sheets_from_links(self.round, serializer.validated_data["links"], request.user)
        return Response(answer)


# The routes, mapped by hand: a table has one sheet, so there is no list and no sheet id in the URL.
sheet_view = SheetViewSet.as_view({"get": "retrieve", "post": "create", "put": "update"})
check_view = SheetViewSet.as_view({"post": "check"})
from_log_view = SheetViewSet.as_view({"post": "from_log"})
sign_view = SheetViewSet.as_view({"post": "sign"})
correct_view = SheetViewSet.as_view({"post": "correct"})
confirm_view = SheetViewSet.as_view({"post": "confirm"})
dispute_view = SheetViewSet.as_view({"post": "dispute"})
from_links_view = RoundLinksView.as_view({"post": "from_links"})
