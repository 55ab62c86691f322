"""The REST API under ``/api/``: its routes, the token login, the OpenAPI schema and docs, and the one
error format every refusal takes (docs/api.md).

Errors, whatever raised them (a serializer, ``tournament.queries.access``, a service, the throttle), answer::

    {"errors": [{"field": "country", "rule": "registration", "message": "..."}, ...]}

``field`` is null when the error is not about one input field; score-sheet errors also carry ``hand``
(the hand's number on the sheet, or null) and player-file errors ``line``. Status codes: 400 invalid
input or a rule refused, 401 not logged in, 403 logged in without the role, 404 not found (or a private
tournament the user has no role in), 409 a score-sheet conflict or a signed (locked) sheet, 429 too many
login attempts.

Messages follow the reader's language (Accept-Language, or the language cookie): the product's own
through its catalogues, DRF's (not authenticated, throttled, invalid input...) through DRF's; ``rule``
and ``field`` never change with the language.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import path
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import defaults
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework import exceptions, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.response import Response
from rest_framework.routers import DefaultRouter
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from config import auth
from exports.api import ExporterViewSet, ExportJobViewSet
from penalties.api import DisqualificationViewSet, PenaltyViewSet
from scoring import api as sheets
from tournament.api.phases import phase_call_up_view, phase_cut_view, phase_seat_by_rank_view, phases_view
from tournament.api.players import PlayerViewSet
from tournament.api.rounds import RoundViewSet, SeatingJobViewSet, TableViewSet
from tournament.api.series import PersonViewSet, RatingListViewSet, SeriesViewSet
from tournament.api.signups import (
    SignUpViewSet,
    accept_own_view,
    cancel_own_view,
    confirm_view,
    own_signup_view,
    registered_view,
    registration_view,
    sign_up_view,
)
from tournament.api.staff import StaffViewSet
from tournament.api.tournaments import TournamentViewSet
from tournament.core.inputs import RULE_SIZE, encodable
from tournament.core.refusal import Refusal

# -- The error format ----------------------------------------------------------------------------------

Error = dict[str, Any]


def error(field: str | None, rule: str, message: str) -> Error:
    return {"field": field, "rule": rule, "message": message}


def drf_errors(detail: Any, field: str | None = None) -> Iterator[Error]:
    """A DRF error detail (dicts of lists of ``ErrorDetail``, nested as the input) as flat errors; nested
    fields are named with dots (``entry.form``, ``rows.2.name``)."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if key in {api_settings.NON_FIELD_ERRORS_KEY, NON_FIELD_ERRORS}:
                yield from drf_errors(value, field)
            else:
                yield from drf_errors(value, f"{field}.{key}" if field else str(key))
    elif isinstance(detail, list):
        for index, item in enumerate(detail):
            nested = isinstance(item, dict | list)
            yield from drf_errors(item, (f"{field}.{index}" if field else str(index)) if nested else field)
    else:
        yield error(field, str(getattr(detail, "code", None) or "invalid"), str(detail))


def django_errors(exc: DjangoValidationError) -> Iterator[Error]:
    """A model's ``full_clean`` refusal, field by field."""
    by_field = exc.error_dict if hasattr(exc, "error_dict") else {NON_FIELD_ERRORS: exc.error_list}
    for field, items in by_field.items():
        for item in items:
            for message in item:
                yield error(
                    None if field == NON_FIELD_ERRORS else field, item.code or "invalid", str(message)
                )


def domain_refusal(exc: Exception) -> tuple[int, list[Error]] | None:
    """The status and errors of a refusal by a service or the rules engine; None for anything else."""
    if isinstance(exc, Refusal):
        return exc.status, exc.as_dicts()
    if isinstance(exc, DjangoValidationError):
        return status.HTTP_400_BAD_REQUEST, list(django_errors(exc))
    return None


def encodable_errors(errors: list[Error]) -> list[Error]:
    """The errors with every text made encodable: a message may quote the input, and a lone surrogate in
    it (``"\\ud800"`` sent as a choice) would make the response fail to render."""
    return [
        {key: encodable(value) if isinstance(value, str) else value for key, value in item.items()}
        for item in errors
    ]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Every refusal in one shape, ``{"errors": [...]}`` (the REST_FRAMEWORK ``EXCEPTION_HANDLER``)."""
    refusal = domain_refusal(exc)
    if refusal is not None:
        set_rollback()
        code, errors = refusal
        return Response({"errors": encodable_errors(errors)}, status=code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    request, view = context.get("request"), context.get("view")
    if isinstance(exc, DjangoPermissionDenied):
        # tournament.access refused. Not logged in: 401 and how to log in, rather than 403 (logged in,
        # without the role). DRF's own refusals (a CSRF failure, say) keep their status.
        if request is not None and not request.user.is_authenticated:
            exc = exceptions.NotAuthenticated()
            if view is not None:
                exc.auth_header = view.get_authenticate_header(request)  # type: ignore[attr-defined]
        else:
            exc = exceptions.PermissionDenied(*exc.args)
    response = drf_exception_handler(exc, context)  # status, WWW-Authenticate, Retry-After
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # not a refusal: a server error, raised as such
    response.data = {"errors": encodable_errors(list(drf_errors(exc.detail)))}
    return response


def outside_a_view(
    request: HttpRequest, exception: Exception | None, status: int, rule: str, field: str | None = None
) -> JsonResponse:
    message = encodable(str(exception.args[0])) if exception is not None and exception.args else rule
    if status == 404:
        message = _("No such address: {path}").format(path=encodable(request.path)[:200])
    return JsonResponse({"errors": [error(field, rule, message)]}, status=status)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler404``: under ``/api/`` an address that matches no route answers in the error format too."""
    if request.path.startswith("/api/"):
        return outside_a_view(request, exception, 404, "not_found")
    return defaults.page_not_found(request, exception)  # type: ignore[arg-type]


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler400``: a request Django refuses before any view (a body over DATA_UPLOAD_MAX_MEMORY_SIZE,
    too many fields, a bad host) answers in the error format under ``/api/``."""
    if request.path.startswith("/api/"):
        if isinstance(exception, RequestDataTooBig | TooManyFieldsSent | TooManyFilesSent):
            return outside_a_view(request, exception, 400, RULE_SIZE, "body")
        return outside_a_view(request, exception, 400, "bad_request")
    return defaults.bad_request(request, exception)  # type: ignore[arg-type]


ERRORS_SCHEMA = {
    "type": "object",
    "description": "Every refusal: one or more errors.",
    "properties": {
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "field": {
                        "type": "string",
                        "nullable": True,
                        "description": "The input field, dotted when nested; null when not about one field.",
                    },
                    "rule": {
                        "type": "string",
                        "description": "The rule refused, e.g. required, stale-version.",
                    },
                    "message": {"type": "string"},
                    "hand": {
                        "type": "integer",
                        "nullable": True,
                        "description": "Score-sheet errors: the hand's number on the sheet, or null.",
                    },
                    "line": {"type": "integer", "description": "Player-file errors: the line in the file."},
                },
                "required": ["field", "rule", "message"],
            },
        }
    },
    "required": ["errors"],
}
ERROR_DESCRIPTIONS = {
    "400": "Invalid input, or a rule refused it.",
    "401": "Not logged in: send a token (Authorization: Token ...) or a session cookie.",
    "403": "Logged in, without the role this needs.",
    "404": "Not found, or a private tournament the user has no role in.",
    "429": "Too many attempts: wait for the time in Retry-After.",
}


def error_responses(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: every operation's error responses, in the one error format."""
    result.setdefault("components", {}).setdefault("schemas", {})["Errors"] = ERRORS_SCHEMA
    content = {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}}
    for url, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            codes = ["401", "403"]
            if method != "get":
                codes.append("400")
            if "{" in url:
                codes.append("404")
            if url == "/api/auth/token/":
                codes.append("429")
            for code in codes:
                responses.setdefault(code, {"description": ERROR_DESCRIPTIONS[code]})
            for code, response in responses.items():
                if code.startswith("4"):
                    response["content"] = content
    return result


# -- Token login ---------------------------------------------------------------------------------------


class LoginRateThrottle(ScopedRateThrottle):
    """The ``login`` rate per client address, read as the login limits read it (never a header the
    client may have written, unless ``TRUSTED_PROXY_COUNT`` says a proxy of ours did)."""

    def get_ident(self, request: Any) -> str:
        return auth.client_address(request)


class LoginLimited(exceptions.Throttled):
    default_code = auth.TOO_MANY

    def __init__(self, block: auth.Block) -> None:
        super().__init__(wait=block.seconds)
        self.detail = exceptions.ErrorDetail(block.message, code=auth.TOO_MANY)


class TokenLoginView(ObtainAuthToken):
    """``POST username, password`` -> ``{"token": "..."}``; send it as ``Authorization: Token ...``.

    Ten attempts a minute per address (the ``login`` throttle rate), right or wrong, then 429; and the
    failed attempts limited as on every login door (``config.auth``): 429 with Retry-After.
    """

    throttle_classes = [LoginRateThrottle]
    throttle_scope = "login"
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # the bounded JSON parser, not DRF's own

    def post(self, request: Any, *args: Any, **kwargs: Any) -> Response:
        data = request.data if isinstance(request.data, Mapping) else {}
        username, password = data.get("username"), data.get("password")
        username = username if isinstance(username, str) else ""
        attempt = auth.reserve(request, username)
        if attempt.block is not None:
            raise LoginLimited(attempt.block)
        try:
            serializer = self.get_serializer(data=request.data)
            valid = serializer.is_valid()
        except BaseException:
            attempt.abandoned()
            raise
        if not valid:
            if username and password:  # a wrong password, not a missing field
                attempt.failed()
            else:
                attempt.abandoned()
            raise exceptions.ValidationError(serializer.errors)
        attempt.succeeded()
        token, _created = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema (drf-spectacular's view), generated once per process and language: it is the
    same for every caller (``SERVE_PUBLIC``) and changes only with the code, while generating it walks
    every view and serializer (over a second)."""

    generated: dict[tuple[str, str | None], Any] = {}

    def _get_schema_response(self, request: Any) -> Response:
        version = self.api_version or request.version or self._get_version_parameter(request)
        key = (translation.get_language() or "", version)
        if key not in self.generated:
            self.generated[key] = super()._get_schema_response(request).data
        filename = self._get_filename(request, version)
        return Response(
            self.generated[key], headers={"Content-Disposition": f'inline; filename="{filename}"'}
        )


class SwaggerView(SpectacularSwaggerSplitView):
    """Swagger UI: an HTML page, with no OPTIONS description of its own (405, not a renderer's 500)."""

    metadata_class = None


class RedocView(SpectacularRedocView):
    """ReDoc: an HTML page, with no OPTIONS description of its own (405, not a renderer's 500)."""

    metadata_class = None


# -- Routes --------------------------------------------------------------------------------------------


class Router(DefaultRouter):
    include_format_suffixes = False


router = Router(use_regex_path=False)
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("tournaments/<int:tournament_pk>/players", PlayerViewSet, basename="player")
router.register("tournaments/<int:tournament_pk>/staff", StaffViewSet, basename="staff")
router.register("tournaments/<int:tournament_pk>/rounds", RoundViewSet, basename="round")
router.register("tournaments/<int:tournament_pk>/seating-jobs", SeatingJobViewSet, basename="seating-job")
router.register("tournaments/<int:tournament_pk>/penalties", PenaltyViewSet, basename="penalty")
router.register(
    "tournaments/<int:tournament_pk>/disqualifications", DisqualificationViewSet, basename="disqualification"
)
router.register("tournaments/<int:tournament_pk>/exporters", ExporterViewSet, basename="exporter")
router.register("tournaments/<int:tournament_pk>/exports", ExportJobViewSet, basename="export")
router.register("tournaments/<int:tournament_pk>/signups", SignUpViewSet, basename="signup")
router.register("tables", TableViewSet, basename="table")
router.register("series", SeriesViewSet, basename="series")
router.register("persons", PersonViewSet, basename="person")
router.register("ratings", RatingListViewSet, basename="ratings")

app_name = "api"
urlpatterns = [
    path("auth/token/", TokenLoginView.as_view(), name="token"),
    path("schema/", SchemaView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file (config.security: no inline script).
    path("docs/", SwaggerView.as_view(url_name="api:schema"), name="docs"),
    path(
        "redoc/",
        RedocView.as_view(url_name="api:schema", template_name="api/redoc.html"),
        name="redoc",
    ),
    path("tournaments/<int:tournament_pk>/phases/", phases_view, name="phases"),
    path("tournaments/<int:tournament_pk>/phases/<int:number>/cut/", phase_cut_view, name="phase-cut"),
    path(
        "tournaments/<int:tournament_pk>/phases/<int:number>/call-up/",
        phase_call_up_view,
        name="phase-call-up",
    ),
    path(
        "tournaments/<int:tournament_pk>/phases/<int:number>/seat-by-rank/",
        phase_seat_by_rank_view,
        name="phase-seat-by-rank",
    ),
    path(
        "tournaments/<int:tournament_pk>/rounds/<int:number>/sheets/from-links/",
        sheets.from_links_view,
        name="sheets-from-links",
    ),
    # Players' registration (tournament.api.signups): the public doors and a player's own sign-up.
    path("tournaments/<int:tournament_pk>/registration/", registration_view, name="registration"),
    path(
        "tournaments/<int:tournament_pk>/registration/registered/",
        registered_view,
        name="registration-registered",
    ),
    path("tournaments/<int:tournament_pk>/registration/sign-up/", sign_up_view, name="registration-sign-up"),
    path(
        "tournaments/<int:tournament_pk>/registration/confirm/<str:token>/",
        confirm_view,
        name="registration-confirm",
    ),
    path(
        "tournaments/<int:tournament_pk>/registration/me/<str:token>/",
        own_signup_view,
        name="registration-me",
    ),
    path(
        "tournaments/<int:tournament_pk>/registration/me/<str:token>/cancel/",
        cancel_own_view,
        name="registration-me-cancel",
    ),
    path(
        "tournaments/<int:tournament_pk>/registration/me/<str:token>/accept/",
        accept_own_view,
        name="registration-me-accept",
    ),
    path("tables/<int:table_pk>/sheet/", sheets.sheet_view, name="sheet"),
    path("tables/<int:table_pk>/sheet/check/", sheets.check_view, name="sheet-check"),
    path("tables/<int:table_pk>/sheet/from-log/", sheets.from_log_view, name="sheet-from-log"),
    path("tables/<int:table_pk>/sheet/sign/", sheets.sign_view, name="sheet-sign"),
    path("tables/<int:table_pk>/sheet/correct/", sheets.correct_view, name="sheet-correct"),
    path("tables/<int:table_pk>/sheet/confirm/", sheets.confirm_view, name="sheet-confirm"),
    path("tables/<int:table_pk>/sheet/dispute/", sheets.dispute_view, name="sheet-dispute"),
    *router.urls,
]
