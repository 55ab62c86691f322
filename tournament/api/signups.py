"""The REST API of players' sign-ups (docs/api.md, "Registration"): the public registration and its list,
signing up and confirming, a player's own sign-up by its link's token, and the organisers' sign-ups.

The same doors as the pages of ``tournament.views.signup``, through the same verbs of
``tournament.services.signups`` (one transaction each, audited, the messages sent once the change
commits): the rules, the rate limits, the hidden field and the same answer whether an email is known or
not are the service's, never repeated here. The organisers' routes are the organisers' page's, for the
tournament's organisers (and site admins) alone, as that page is.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.api.base import Pagination, TournamentScopedViewSet
from tournament.api.signup_serializers import (
    AnnouncementInputSerializer,
    AnnouncementSerializer,
    MadePlayersSerializer,
    MoveSerializer,
    OwnSignUpSerializer,
    PaidSerializer,
    PublicSignUpSerializer,
    RegistrationSerializer,
    RegistrationSettingsSerializer,
    SentSerializer,
    SignUpEditSerializer,
    SignUpInputSerializer,
    StaffCountsSerializer,
    StaffSignUpSerializer,
)
from tournament.models import RegistrationSettings, SignUp, StaffRole
from tournament.queries import access, signups_db
from tournament.services import announcements, signups

Role = StaffRole.Role


def _base_url(request: Request) -> str:
    """The site's address as the caller reached it: the links of the messages lead there."""
    return request.build_absolute_uri("/").rstrip("/")


# -- The public registration and a player's own sign-up -----------------------------------------------


@extend_schema(tags=["registration"])
class RegistrationViewSet(TournamentScopedViewSet):
    """A tournament's registration, for anyone who can see the tournament; a player's own sign-up by the
    token of the link in each of its messages."""

    # Each route is mapped by hand below (``as_view``), with the serializer it reads. Signing up, confirming
    # and cancelling by a link's token need no account: the token, or the email's link, is the proof.
    permission_classes = [AllowAny]
    serializer_class: type[serializers.Serializer[Any]] = RegistrationSerializer

    def own(self, signup: SignUp) -> Response:
        positions = {signup.pk: signups_db.waiting_position(signup)}
        return Response(OwnSignUpSerializer(signup, context={"positions": positions}).data)

    @extend_schema(
        summary="The registration: its moments, places, approval, waiting list, fee, consent text and "
        "counts (registered, places left, waiting list)",
        responses=RegistrationSerializer,
    )
    def state(self, request: Request, tournament_pk: int) -> Response:
        row = RegistrationSettings.objects.filter(tournament=self.tournament).first()
        rules = signups_db.settings_from_row(row)
        now = timezone.now()
        counts = signups_db.counts(self.tournament, rules)
        data = {
            "opens_at": rules.opens_at,
            "closes_at": rules.closes_at,
            "is_open": rules.is_open(now),
            "is_closed": rules.is_closed(now),
            "capacity": rules.capacity,
            "needs_approval": rules.needs_approval,
            "waiting_list": rules.waiting_list,
            "entry_fee": row.entry_fee if row else "",
            "consent_text": row.consent_text if row else "",
            "online": row.online if row else False,
            "accept_hours": row.accept_hours if row else None,
            "counts": {key: counts[key] for key in ("registered", "places_left", "waiting_list")},
        }
        return Response(RegistrationSerializer(data).data)

    @extend_schema(
        summary="Set the registration: its moments, places, approval, waiting list, fee, consent text and "
        "online play (organiser; audited)",
        description="Only the fields given change, all or none. A moment without its offset is the venue's "
        "time. 400 registration-closes-after-opens on closes_at. Places added while registration is open "
        "go at once to the first on the waiting list.",
        request=RegistrationSettingsSerializer,
        responses={200: RegistrationSerializer},
    )
    def configure(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.ORGANISER)
        serializer = RegistrationSettingsSerializer(data=request.data, partial=True)
        with timezone.override(self.tournament.zone()):  # a moment without its offset: the venue's time
            serializer.is_valid(raise_exception=True)
        signups.configure(
            self.tournament, request.user, serializer.validated_data, base_url=_base_url(request)
        )
        return self.state(request, tournament_pk)

    @extend_schema(
        summary="The registered players, by last and first name: name, country and club, as each "
        "consented to publish",
        responses=PublicSignUpSerializer(many=True),
    )
    def registered(self, request: Request, tournament_pk: int) -> Response:
        rows = SignUp.objects.filter(tournament=self.tournament, state=SignUp.State.REGISTERED)
        page = self.paginate_queryset(rows.order_by("last_name", "first_name", "pk"))
        return self.get_paginated_response(PublicSignUpSerializer(page, many=True).data)

    @extend_schema(
        summary="Sign up: the confirmation link goes to the email given (the same answer whether the "
        "email already has a sign-up)",
        description="Checked as the sign-up page checks it, each refusal naming its field and rule "
        "(signup-required, signup-latin-name, signup-ema-id, signup-email, signup-consent, "
        "registration-not-open and registration-closed on the field registration). 20 sign-ups an hour "
        "per client address and 3 per email and tournament, each attempt counted: then 429, "
        "signup-rate-limit. Nothing counts until the emailed link is followed (confirm).",
        request=SignUpInputSerializer,
        responses={
            202: SentSerializer,
            409: OpenApiResponse(description="Registration is not open, or closed."),
            429: OpenApiResponse(description="Too many sign-ups from this address or for this email."),
        },
    )
    def sign_up(self, request: Request, tournament_pk: int) -> Response:
        serializer = SignUpInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        signups.sign_up(
            self.tournament,
            serializer.validated_data,
            address=access.client_address(request),
            language=get_language() or "en",
            base_url=_base_url(request),
        )
        detail = _(
            "Thank you. We have sent a message to the email you gave: follow its link to confirm your "
            "sign-up. Nothing counts before."
        )
        return Response({"sent": True, "detail": detail}, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        summary="Confirm a sign-up with the token of its confirmation link (once)",
        description="Registered (or awaiting approval) while places are left, else on the waiting list; "
        "409 registration-closed, or registration-full when full without a waiting list; 404 signup-link "
        "for a token unknown or spent, 410 for one expired.",
        request=None,
        responses={
            200: OwnSignUpSerializer,
            409: OpenApiResponse(description="Registration closed, or full without a waiting list."),
            410: OpenApiResponse(description="The link has expired."),
        },
    )
    def confirm(self, request: Request, tournament_pk: int, token: str) -> Response:
        return self.own(signups.confirm(self.tournament, token, base_url=_base_url(request)))

    @extend_schema(
        summary="The player's own sign-up, by the token of the link in its messages",
        responses={
            200: OwnSignUpSerializer,
            410: OpenApiResponse(description="The link has expired."),
        },
    )
    def mine(self, request: Request, tournament_pk: int, token: str) -> Response:
        return self.own(signups.find_by_manage_token(self.tournament, token))

    @extend_schema(
        summary="The player cancels their own sign-up; the first on the waiting list takes the place",
        description="409 signup-state when it is already cancelled or rejected.",
        request=None,
        responses={
            200: OwnSignUpSerializer,
            409: OpenApiResponse(description="Already cancelled or rejected."),
            410: OpenApiResponse(description="The link has expired."),
        },
    )
    def cancel(self, request: Request, tournament_pk: int, token: str) -> Response:
        return self.own(signups.cancel_by_player(self.tournament, token, base_url=_base_url(request)))

    @extend_schema(
        summary="The player accepts the place offered to them, before its deadline",
        description="Registered (or awaiting approval) from now. 409 signup-state when no place is "
        "offered, 409 signup-offer-expired after the deadline (the place passes to the next).",
        request=None,
        responses={
            200: OwnSignUpSerializer,
            409: OpenApiResponse(description="No place offered, or the time to accept is over."),
            410: OpenApiResponse(description="The link has expired."),
        },
    )
    def accept(self, request: Request, tournament_pk: int, token: str) -> Response:
        return self.own(signups.accept_offer(self.tournament, token, base_url=_base_url(request)))


registration_view = RegistrationViewSet.as_view({"get": "state", "patch": "configure"})
registered_view = RegistrationViewSet.as_view({"get": "registered"}, serializer_class=PublicSignUpSerializer)
sign_up_view = RegistrationViewSet.as_view({"post": "sign_up"}, serializer_class=SignUpInputSerializer)
confirm_view = RegistrationViewSet.as_view({"post": "confirm"}, serializer_class=OwnSignUpSerializer)
own_signup_view = RegistrationViewSet.as_view({"get": "mine"}, serializer_class=OwnSignUpSerializer)
cancel_own_view = RegistrationViewSet.as_view({"post": "cancel"}, serializer_class=OwnSignUpSerializer)
accept_own_view = RegistrationViewSet.as_view({"post": "accept"}, serializer_class=OwnSignUpSerializer)


# -- The organisers' sign-ups ------------------------------------------------------------------------


@extend_schema(tags=["registration"])
class SignUpViewSet(TournamentScopedViewSet):
    """The tournament's sign-ups, for its organisers (and site admins), as the organisers' page has
    them: every sign-up with its email and state, the counts by state and by country, and the page's
    actions, each through its service."""

    serializer_class = StaffSignUpSerializer
    pagination_class = Pagination
    filter_backends = [DjangoFilterBackend]
    filterset_fields = ("state", "paid")

    def get_queryset(self) -> Any:
        if self.schema_only():
            return SignUp.objects.none()
        return SignUp.objects.filter(tournament=self.tournament).order_by("state", "confirmed_at", "pk")

    def get_serializer_class(self) -> type[serializers.Serializer[Any]]:
        method = self.request.method if self.request is not None else ""
        if self.action == "partial_update" or method == "PATCH":
            return SignUpEditSerializer
        serializers_ = {
            "move": MoveSerializer,
            "paid": PaidSerializer,
            "announce": AnnouncementInputSerializer,
        }
        return serializers_.get(self.action, StaffSignUpSerializer)

    def get_object(self) -> SignUp:
        """The organisers' only (DRF's ``OPTIONS`` asks too: a refusal leaves the writes undescribed)."""
        self.require(Role.ORGANISER)
        return get_object_or_404(SignUp, tournament=self.tournament, pk=self.kwargs["pk"])

    def answer(self, signup: SignUp) -> Response:
        signup.refresh_from_db()
        positions = signups_db.waiting_positions(self.tournament)
        return Response(StaffSignUpSerializer(signup, context={"positions": positions}).data)

    @extend_schema(
        summary="The sign-ups, by state and time of confirmation (organiser; filters: state, paid)",
        responses=StaffSignUpSerializer(many=True),
    )
    def list(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.ORGANISER)
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        context = {"positions": signups_db.waiting_positions(self.tournament)}
        return self.get_paginated_response(StaffSignUpSerializer(page, many=True, context=context).data)

    @extend_schema(summary="A sign-up (organiser)", responses=StaffSignUpSerializer)
    def retrieve(self, request: Request, tournament_pk: int, pk: int) -> Response:
        return self.answer(self.get_object())

    @extend_schema(
        summary="The sign-ups by state, the places left, and those still in the event by country (organiser)",
        responses=StaffCountsSerializer,
    )
    @action(detail=False, methods=["get"], pagination_class=None, filter_backends=[])
    def counts(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.ORGANISER)
        by_country = signups_db.country_counts(self.tournament)
        data = {
            **signups_db.counts(self.tournament),
            "by_country": [{"country": code, "count": count} for code, count in by_country],
        }
        return Response(StaffCountsSerializer(data).data)

    @extend_schema(
        summary="Correct a sign-up: any of its fields, checked as the sign-up form checks them "
        "(organiser; audited)",
        description="All or nothing; each refusal names its field. 409 signup-email-taken for an email "
        "another sign-up of the tournament has; 409 signup-is-player for a name, country, club or EMA "
        "number of a sign-up already made a player (corrected on the player).",
        request=SignUpEditSerializer,
        responses={
            200: StaffSignUpSerializer,
            409: OpenApiResponse(description="An email taken, or a field the player's registration holds."),
        },
    )
    def partial_update(self, request: Request, tournament_pk: int, pk: int) -> Response:
        signup = self.get_object()
        serializer = SignUpEditSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        return self.answer(signups.edit(signup, request.user, serializer.validated_data))

    @extend_schema(
        summary="Approve a sign-up awaiting approval (organiser)",
        request=None,
        responses={
            200: StaffSignUpSerializer,
            409: OpenApiResponse(description="The sign-up's state does not allow it."),
        },
    )
    @action(detail=True, methods=["post"])
    def approve(self, request: Request, tournament_pk: int, pk: int) -> Response:
        signup = self.get_object()
        return self.answer(signups.approve(signup, request.user, base_url=_base_url(request)))

    @extend_schema(
        summary="Reject a sign-up; the first on the waiting list takes its place (organiser)",
        request=None,
        responses={
            200: StaffSignUpSerializer,
            409: OpenApiResponse(description="The sign-up's state does not allow it."),
        },
    )
    @action(detail=True, methods=["post"])
    def reject(self, request: Request, tournament_pk: int, pk: int) -> Response:
        signup = self.get_object()
        return self.answer(signups.reject(signup, request.user, base_url=_base_url(request)))

    @extend_schema(
        summary="Cancel a sign-up; the first on the waiting list takes its place (organiser)",
        request=None,
        responses={
            200: StaffSignUpSerializer,
            409: OpenApiResponse(description="The sign-up's state does not allow it."),
        },
    )
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, tournament_pk: int, pk: int) -> Response:
        signup = self.get_object()
        return self.answer(signups.cancel_by_staff(signup, request.user, base_url=_base_url(request)))

    @extend_schema(
        summary="Move a confirmed sign-up to registered, awaiting approval or the waiting list (organiser)",
        description="409 registration-full when the move takes a place and none is left.",
        request=MoveSerializer,
        responses={
            200: StaffSignUpSerializer,
            409: OpenApiResponse(description="The sign-up's state does not allow it."),
        },
    )
    @action(detail=True, methods=["post"])
    def move(self, request: Request, tournament_pk: int, pk: int) -> Response:
        signup = self.get_object()
        serializer = MoveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        state = serializer.validated_data["state"]
        return self.answer(signups.move(signup, state, request.user, base_url=_base_url(request)))

    @extend_schema(
        summary="Mark a sign-up paid, or not paid with paid=false (organiser; audited)",
        request=PaidSerializer,
        responses={200: StaffSignUpSerializer},
    )
    @action(detail=True, methods=["post"])
    def paid(self, request: Request, tournament_pk: int, pk: int) -> Response:
        signup = self.get_object()
        serializer = PaidSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return self.answer(signups.mark_paid(signup, request.user, serializer.validated_data["paid"]))

    @extend_schema(
        summary="Turn every registered sign-up not yet a player into one, all or none (organiser)",
        request=None,
        responses={200: MadePlayersSerializer},
    )
    @action(detail=False, methods=["post"])
    def players(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.ORGANISER)
        made = signups.turn_into_players(self.tournament, request.user)
        return Response(MadePlayersSerializer({"players": [player.pk for player in made]}).data)

    @extend_schema(
        summary="Send an announcement to every registered sign-up, and the waiting list with "
        "waiting_list=true (organiser; audited)",
        description="One message per recipient, written in this request's transaction and sent in the "
        "background, each in the player's language around the text as written, with the player's own "
        "link. 400 announcement-required, announcement-length (subject 150, text 5,000 characters) or "
        "printable-text, naming subject or text; 409 announcement-no-recipient on waiting_list when "
        "nobody would receive it.",
        request=AnnouncementInputSerializer,
        responses={
            202: AnnouncementSerializer,
            409: OpenApiResponse(description="Nobody would receive it."),
        },
    )
    @action(detail=False, methods=["post"], pagination_class=None, filter_backends=[])
    def announce(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.ORGANISER)
        serializer = AnnouncementInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        row = announcements.announce(
            self.tournament, request.user, serializer.validated_data, base_url=_base_url(request)
        )
        return Response(_announcement(row), status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        summary="The announcements sent to the sign-ups, latest first, with how many are sent (organiser)",
        responses=AnnouncementSerializer(many=True),
    )
    @action(detail=False, methods=["get"], pagination_class=None, filter_backends=[])
    def announcements(self, request: Request, tournament_pk: int) -> Response:
        self.require(Role.ORGANISER)
        rows = announcements.announcements(self.tournament, limit=100)
        return Response([_announcement(item["announcement"], item) for item in rows])


def _announcement(row: Any, counts: dict[str, Any] | None = None) -> Any:
    if counts is None:
        counts = announcements.counts(row)
    data = {
        "id": row.pk,
        "subject": row.subject,
        "text": row.text,
        "waiting_list": row.waiting_list,
        "created_at": row.created_at,
        "recipients": counts["recipients"],
        "sent": counts["sent"],
    }
    return AnnouncementSerializer(data).data
