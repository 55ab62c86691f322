"""The REST API of players' sign-ups, end to end on the real database: signing up and confirming by the
emailed link, the public registration and its list, a player's own sign-up by its token (and a wrong
one), the organisers' routes as every role, the staff's correction of a sign-up, and the refusals, each
naming its field, with nothing stored half-way. The permission table of every route is
tests/api/test_permissions.py's."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone, translation
from django.utils.translation import gettext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.conftest import make_user
from tests.tournament.test_club_sessions import race
from tournament.models import AuditEntry, RegistrationSettings, SignUp, SignUpMessage, Tournament
from tournament.services import signup_mail, signups

pytestmark = pytest.mark.django_db(transaction=True)  # the messages leave once the change commits


def open_registration(tournament: Tournament, **fields: object) -> RegistrationSettings:
    values: dict[str, object] = {
        "opens_at": timezone.now() - timedelta(days=1),
        "closes_at": timezone.now() + timedelta(days=10),
        "capacity": 2,
        "waiting_list": True,
        **fields,
    }
    return RegistrationSettings.objects.create(tournament=tournament, **values)


def body(email: str, **changes: object) -> dict[str, object]:
    return {
        "last_name": "Alves",
        "first_name": email.split("@")[0].capitalize(),
        "country": "PT",
        "email": email,
        "consent": True,
        **changes,
    }


def token_in_mail(kind: str, to: str) -> str:
    """The token of the last message to ``to`` whose link is of ``kind`` (confirm, me)."""
    for message in reversed(mail.outbox):
        if to in message.to:
            found = re.search(rf"/signup/{kind}/([0-9a-f]+)/", message.body)
            if found:
                return found.group(1)
    raise AssertionError(f"no {kind} link to {to}")


def client_of(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def errors(response: Any) -> list[tuple[str | None, str]]:
    return [(error["field"], error["rule"]) for error in response.json()["errors"]]


def signed_up(client: APIClient, tournament: Tournament, email: str, **changes: object) -> str:
    """Sign up and confirm through the API; the player's own token."""
    url = f"/api/tournaments/{tournament.pk}/registration"
    assert client.post(f"{url}/sign-up/", body(email, **changes), format="json").status_code == 202
    confirmed = client.post(f"{url}/confirm/{token_in_mail('confirm', email)}/")
    assert confirmed.status_code == 200, confirmed.content
    return token_in_mail("me", email)


def test_sign_up_confirm_read_the_registration_and_cancel_by_the_link(tournament: Tournament) -> None:
    open_registration(tournament, entry_fee="30 EUR at the door", consent_text="Names are published.")
    anonymous = APIClient()
    url = f"/api/tournaments/{tournament.pk}/registration"
    state = anonymous.get(f"{url}/").json()
    assert state["is_open"] and not state["is_closed"] and state["capacity"] == 2
    assert (state["entry_fee"], state["consent_text"]) == ("30 EUR at the door", "Names are published.")
    assert state["counts"] == {"registered": 0, "places_left": 2, "waiting_list": 0}

    sent = anonymous.post(f"{url}/sign-up/", body("ana@example.org", ema_id="04120001"), format="json")
    assert sent.status_code == 202 and sent.json()["sent"] is True
    signup = SignUp.objects.get()
    assert (signup.state, signup.ema_id, signup.language) == ("unconfirmed", "04120001", "en")
    assert anonymous.get(f"{url}/").json()["counts"]["registered"] == 0  # nothing counts before

    confirmed = anonymous.post(f"{url}/confirm/{token_in_mail('confirm', 'ana@example.org')}/")
    assert confirmed.status_code == 200
    assert confirmed.json()["state"] == "registered" and confirmed.json()["can_cancel"] is True
    again = anonymous.post(f"{url}/confirm/{token_in_mail('confirm', 'ana@example.org')}/")
    assert again.status_code == 404 and errors(again) == [("token", "signup-link")]  # once only

    own = token_in_mail("me", "ana@example.org")
    mine = anonymous.get(f"{url}/me/{own}/").json()
    assert (mine["name"], mine["email"], mine["state"], mine["waiting_position"]) == (
        "Ana Alves",
        "ana@example.org",
        "registered",
        None,
    )
    listed = anonymous.get(f"{url}/registered/").json()
    # Only what the player consented to publish: no email, no EMA number, no note.
    assert listed["results"] == [
        {
            "name": "Ana Alves",
            "first_name": "Ana",
            "last_name": "Alves",
            "native_name": "",
            "country": "PT",
            "club": "",
        }
    ]
    assert anonymous.get(f"{url}/").json()["counts"] == {"registered": 1, "places_left": 1, "waiting_list": 0}

    wrong = anonymous.get(f"{url}/me/{'0' * 32}/")
    assert wrong.status_code == 404 and errors(wrong) == [("token", "signup-link")]
    assert anonymous.post(f"{url}/me/{'0' * 32}/cancel/").status_code == 404
    assert SignUp.objects.get().state == "registered"  # a wrong token changes nothing

    cancelled = anonymous.post(f"{url}/me/{own}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["state"] == "cancelled"
    assert cancelled.json()["can_cancel"] is False
    twice = anonymous.post(f"{url}/me/{own}/cancel/")
    assert twice.status_code == 409 and errors(twice) == [("state", "signup-state")]
    assert anonymous.get(f"{url}/registered/").json()["results"] == []
    assert AuditEntry.objects.filter(action="signup.cancel", actor=None).count() == 1


def test_the_answer_is_the_same_whether_the_email_is_known_and_the_limits_hold(
    tournament: Tournament,
) -> None:
    open_registration(tournament)
    client = APIClient()
    url = f"/api/tournaments/{tournament.pk}/registration/sign-up/"
    first = client.post(url, body("ana@example.org"), format="json")
    known = client.post(url, body("ana@example.org", first_name="Other"), format="json")
    assert (first.status_code, known.status_code) == (202, 202) and first.json() == known.json()
    assert SignUp.objects.count() == 1  # the known address got a reminder, nothing new stored
    assert list(SignUpMessage.objects.values_list("kind", flat=True)) == [
        signup_mail.CONFIRM,
        signup_mail.KNOWN,
    ]
    robot = client.post(url, body("robot@example.org", website="http://spam.example"), format="json")
    assert robot.status_code == 202 and robot.json() == first.json()
    assert not SignUp.objects.filter(email="robot@example.org").exists()
    # Three sign-ups an hour per email and tournament, each attempt counted (a refused one too).
    third = client.post(url, body("ana@example.org", consent=False), format="json")
    assert third.status_code == 400
    limited = client.post(url, body("ana@example.org"), format="json")
    assert limited.status_code == 429 and errors(limited) == [(None, "signup-rate-limit")]


def test_refusals_name_their_field_and_store_nothing(tournament: Tournament) -> None:
    client = APIClient()
    url = f"/api/tournaments/{tournament.pk}/registration"
    closed = client.post(f"{url}/sign-up/", body("ana@example.org"), format="json")
    assert closed.status_code == 409 and errors(closed) == [("registration", "registration-not-open")]

    settings = open_registration(tournament, capacity=1, waiting_list=False)
    wrong = client.post(
        f"{url}/sign-up/",
        body("bad@example", last_name="山田", ema_id="12-34", consent=False, note="a\x01b"),
        format="json",
    )
    assert wrong.status_code == 400
    assert set(errors(wrong)) == {
        ("last_name", "signup-latin-name"),
        ("ema_id", "signup-ema-id"),
        ("email", "signup-email"),
        ("consent", "signup-consent"),
        ("note", "printable-text"),
    }
    messages = {error["field"]: error["message"] for error in wrong.json()["errors"]}
    assert messages["ema_id"] == "EMA number: exactly 8 digits (EMA ranking rules), not 12-34"
    shaped = client.post(f"{url}/sign-up/", {"last_name": ["Alves"], "consent": "maybe"}, format="json")
    assert shaped.status_code == 400 and {"last_name", "consent"} <= {f for f, _ in errors(shaped)}
    assert not SignUp.objects.exists() and not SignUpMessage.objects.exists()

    signed_up(client, tournament, "ana@example.org")
    assert client.post(f"{url}/sign-up/", body("ben@example.org"), format="json").status_code == 202
    full = client.post(f"{url}/confirm/{token_in_mail('confirm', 'ben@example.org')}/")
    assert full.status_code == 409 and errors(full) == [("registration", "registration-full")]
    assert SignUp.objects.get(email="ben@example.org").state == "unconfirmed"

    settings.closes_at = timezone.now() - timedelta(minutes=1)
    settings.opens_at = timezone.now() - timedelta(days=2)
    settings.save()
    late = client.post(f"{url}/sign-up/", body("cho@example.org"), format="json")
    assert late.status_code == 409 and errors(late) == [("registration", "registration-closed")]
    assert not SignUp.objects.filter(email="cho@example.org").exists()


def test_the_organisers_routes_answer_their_role_only(tournament: Tournament) -> None:
    open_registration(tournament)
    signed_up(APIClient(), tournament, "ana@example.org")
    signup = SignUp.objects.get()
    other = Tournament.objects.create(
        name="Other",
        slug="other",
        starts_on=tournament.starts_on,
        ends_on=tournament.ends_on,
        hanchan_count=2,
    )
    callers = {
        "anonymous": (client_of(), 401),
        "account without a role": (client_of(make_user("nobody")), 403),
        "referee": (client_of(make_user("referee", tournament, "referee")), 403),
        "head referee": (client_of(make_user("head", tournament, "head_referee")), 403),
        "organiser of another": (client_of(make_user("elsewhere", other, "organiser")), 403),
        "organiser": (client_of(make_user("organiser", tournament, "organiser")), 200),
    }
    base = f"/api/tournaments/{tournament.pk}/signups"
    for who, (client, expected) in callers.items():
        got = {
            "list": client.get(f"{base}/").status_code,
            "counts": client.get(f"{base}/counts/").status_code,
            "one": client.get(f"{base}/{signup.pk}/").status_code,
            "edit": client.patch(f"{base}/{signup.pk}/", {"club": "Porto"}, format="json").status_code,
            "paid": client.post(f"{base}/{signup.pk}/paid/", {"paid": True}, format="json").status_code,
        }
        assert got == dict.fromkeys(got, expected), who
    # The organiser's own token opens the routes; nobody else changed anything before.
    assert AuditEntry.objects.filter(action__in=("signup.edit", "signup.paid")).count() == 2


def test_the_organisers_list_counts_approve_reject_move_pay_cancel_and_make_players(
    tournament: Tournament,
) -> None:
    open_registration(tournament, capacity=2, needs_approval=True)
    public = APIClient()
    for email, country in (("ana@example.org", "PT"), ("ben@example.org", "FR"), ("cho@example.org", "PT")):
        signed_up(public, tournament, email, country=country)
    assert public.post(
        f"/api/tournaments/{tournament.pk}/registration/sign-up/", body("dai@example.org"), format="json"
    ).json()["sent"]
    organiser = make_user("organiser", tournament, "organiser")
    staff = client_of(organiser)
    base = f"/api/tournaments/{tournament.pk}/signups"
    ids = {row.email.split("@")[0]: row.pk for row in SignUp.objects.all()}

    counts = staff.get(f"{base}/counts/").json()
    assert counts == {
        "unconfirmed": 1,
        "registered": 0,
        "awaiting_approval": 2,
        "offered": 0,
        "waiting_list": 1,
        "cancelled": 0,
        "rejected": 0,
        "places_left": 0,
        "by_country": [{"country": "FR", "count": 1}, {"country": "PT", "count": 3}],
    }
    listed = staff.get(f"{base}/").json()["results"]
    assert [row["email"] for row in listed] == [
        "ana@example.org",
        "ben@example.org",
        "dai@example.org",
        "cho@example.org",
    ]  # by state, then by time of confirmation
    assert listed[-1]["waiting_position"] == 1 and listed[-1]["id"] == ids["cho"]
    waiting = staff.get(f"{base}/", {"state": "waiting_list"}).json()["results"]
    assert [row["email"] for row in waiting] == ["cho@example.org"]

    approved = staff.post(f"{base}/{ids['ana']}/approve/")
    assert approved.status_code == 200 and approved.json()["state"] == "registered"
    not_awaiting = staff.post(f"{base}/{ids['ana']}/approve/")
    assert not_awaiting.status_code == 409 and errors(not_awaiting) == [("state", "signup-state")]
    no_place = staff.post(f"{base}/{ids['cho']}/move/", {"state": "registered"}, format="json")
    assert no_place.status_code == 409 and errors(no_place) == [("state", "registration-full")]
    bad_state = staff.post(f"{base}/{ids['cho']}/move/", {"state": "cancelled"}, format="json")
    assert bad_state.status_code == 400 and errors(bad_state)[0][0] == "state"

    rejected = staff.post(f"{base}/{ids['ben']}/reject/")
    assert rejected.status_code == 200 and rejected.json()["state"] == "rejected"
    # Ben's place went to the first on the waiting list, in the same transaction.
    assert SignUp.objects.get(pk=ids["cho"]).state == "awaiting_approval"
    moved = staff.post(f"{base}/{ids['cho']}/move/", {"state": "waiting_list"}, format="json")
    assert moved.status_code == 200
    assert SignUp.objects.get(pk=ids["cho"]).state == "awaiting_approval"  # first in line: promoted again

    paid = staff.post(f"{base}/{ids['ana']}/paid/", {}, format="json")
    assert paid.status_code == 200 and paid.json()["paid"] is True
    unpaid = staff.post(f"{base}/{ids['ana']}/paid/", {"paid": False}, format="json")
    assert unpaid.json()["paid"] is False
    cancelled = staff.post(f"{base}/{ids['dai']}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["state"] == "cancelled"

    made = staff.post(f"{base}/players/")
    assert made.status_code == 200
    player = tournament.players.get()
    assert made.json() == {"players": [player.pk]} and player.name == "Ana Alves"
    assert staff.get(f"{base}/{ids['ana']}/").json()["player"] == player.pk
    actions = set(AuditEntry.objects.filter(actor=organiser).values_list("action", flat=True))
    assert {"signup.approve", "signup.reject", "signup.move", "signup.paid", "signup.cancel"} <= actions
    assert staff.get(f"{base}/999999/").status_code == 404


def test_staff_correct_a_sign_up_checked_as_at_sign_up_all_or_nothing(tournament: Tournament) -> None:
    open_registration(tournament, capacity=5)
    public = APIClient()
    signed_up(public, tournament, "ana@example.org")
    signed_up(public, tournament, "ben@example.org")
    ana = SignUp.objects.get(email="ana@example.org")
    organiser = make_user("organiser", tournament, "organiser")
    staff = client_of(organiser)
    url = f"/api/tournaments/{tournament.pk}/signups/{ana.pk}/"

    edit = {
        "last_name": "Alves Costa",
        "first_name": "Ana",
        "native_name": "アナ",
        "country": "jp",
        "club": "  Lisbon   Riichi ",
        "ema_id": "0412 0001",
        "email": "Ana.Costa@Example.org",
        "nicknames": "ana_c",
        "note": "Vegetarian lunch",
    }
    done = staff.patch(url, edit, format="json")
    assert done.status_code == 200, done.content
    ana.refresh_from_db()
    # Cleaned as at sign-up: spaces collapsed, the country upper-cased, the EMA number's spaces dropped,
    # the email lower-cased.
    assert (ana.last_name, ana.native_name, ana.country.code, ana.club, ana.ema_id, ana.email) == (
        "Alves Costa",
        "アナ",
        "JP",
        "Lisbon Riichi",
        "04120001",
        "ana.costa@example.org",
    )
    assert (ana.nicknames, ana.note, ana.state) == ("ana_c", "Vegetarian lunch", "registered")
    entry = AuditEntry.objects.get(action="signup.edit")
    assert entry.actor == organiser
    assert entry.changes["ema_id"] == ["", "04120001"] and "first_name" not in entry.changes
    assert staff.patch(url, {"club": "Lisbon Riichi"}, format="json").status_code == 200
    assert AuditEntry.objects.filter(action="signup.edit").count() == 1  # no change, no entry

    # A malformed EMA number beside a good club: refused, naming the field, and the club not stored.
    half = staff.patch(url, {"club": "Porto", "ema_id": "123"}, format="json")
    assert half.status_code == 400 and errors(half) == [("ema_id", "signup-ema-id")]
    bad = staff.patch(url, {"first_name": "", "email": "nobody", "country": "XX"}, format="json")
    assert set(errors(bad)) == {
        ("first_name", "signup-required"),
        ("email", "signup-email"),
        ("country", "signup-required"),
    }
    taken = staff.patch(url, {"note": "moved", "email": "BEN@example.org"}, format="json")
    assert taken.status_code == 409 and errors(taken) == [("email", "signup-email-taken")]
    ana.refresh_from_db()
    assert (ana.club, ana.email, ana.note, ana.first_name) == (
        "Lisbon Riichi",
        "ana.costa@example.org",
        "Vegetarian lunch",
        "Ana",
    )
    assert AuditEntry.objects.filter(action="signup.edit").count() == 1

    # Once a player, what the player's registration holds is corrected there; the note still here.
    assert staff.post(f"/api/tournaments/{tournament.pk}/signups/players/").status_code == 200
    held = staff.patch(url, {"note": "late", "country": "PT"}, format="json")
    assert held.status_code == 409 and errors(held) == [("country", "signup-is-player")]
    assert staff.patch(url, {"note": "arrives late"}, format="json").json()["note"] == "arrives late"


def test_two_corrections_giving_one_email_at_once_store_one() -> None:
    assert connection.vendor == "postgresql", "this test needs real row locks"
    tournament = Tournament.objects.create(
        name="Race Open",
        slug="race-open",
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate(),
        hanchan_count=2,
    )
    open_registration(tournament, capacity=5)
    for email in ("ana@example.org", "ben@example.org"):
        made = signups.sign_up(tournament, body(email), address="192.0.2.9", language="en")
        assert made is not None
        signups.confirm(tournament, signups.confirm_token(made))
    organiser = make_user("organiser", tournament, "organiser")
    rows = list(SignUp.objects.order_by("pk"))
    outcomes = race(
        [lambda row=row: signups.edit(row, organiser, {"email": "same@example.org"}) for row in rows]
    )
    refused = [outcome for outcome in outcomes if not isinstance(outcome, SignUp)]
    assert len(refused) == 1 and getattr(refused[0], "rule", None) == "signup-email-taken", outcomes
    assert SignUp.objects.filter(email="same@example.org").count() == 1


def test_refusals_speak_the_readers_language_with_the_same_field_and_rule(tournament: Tournament) -> None:
    open_registration(tournament)
    url = f"/api/tournaments/{tournament.pk}/registration/sign-up/"
    answers = {
        language: APIClient().post(
            url, body("ana@example.org", ema_id="12"), format="json", HTTP_ACCEPT_LANGUAGE=language
        )
        for language in ("en", "ja")
    }
    assert {language: errors(answer) for language, answer in answers.items()} == {
        "en": [("ema_id", "signup-ema-id")],
        "ja": [("ema_id", "signup-ema-id")],
    }
    with translation.override("ja"):
        japanese = gettext("EMA number: exactly 8 digits (EMA ranking rules), not {value}").format(value="12")
    assert japanese.startswith("EMA番号") and answers["ja"].json()["errors"][0]["message"] == japanese
    sent = APIClient().post(url, body("ana@example.org"), format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert sent.status_code == 202 and "ありがとうございます" in sent.json()["detail"]
    assert SignUp.objects.get().language == "ja"  # its messages will speak Japanese


def test_the_organiser_sets_the_registration_in_the_venues_time_audited_and_added_places_promote(
    tournament: Tournament,
) -> None:
    tournament.time_zone = "Asia/Tokyo"
    tournament.save(update_fields=["time_zone"])
    open_registration(tournament, capacity=1)
    public = APIClient()
    signed_up(public, tournament, "ana@example.org")
    signed_up(public, tournament, "ben@example.org")
    assert SignUp.objects.get(email="ben@example.org").state == "waiting_list"
    url = f"/api/tournaments/{tournament.pk}/registration/"
    organiser = client_of(make_user("organiser", tournament, "organiser"))
    referee = client_of(make_user("referee", tournament, "referee"))

    assert referee.patch(url, {"capacity": 5}, format="json").status_code == 403
    assert APIClient().patch(url, {"capacity": 5}, format="json").status_code == 401

    # A moment without its offset is the venue's: 10:00 in Tokyo is 01:00 UTC.
    reversed_moments = {"opens_at": "2027-03-01T10:00", "closes_at": "2027-02-01T10:00"}
    refused = organiser.patch(url, reversed_moments, format="json")
    assert refused.status_code == 400 and errors(refused) == [
        ("closes_at", "registration-closes-after-opens")
    ]
    assert RegistrationSettings.objects.get().capacity == 1  # nothing stored half-way
    shaped = organiser.patch(url, {"capacity": 0, "opens_at": "soon"}, format="json")
    assert shaped.status_code == 400 and {field for field, _rule in errors(shaped)} == {
        "capacity",
        "opens_at",
    }

    closes = (timezone.now() + timedelta(days=30)).astimezone(tournament.zone()).strftime("%Y-%m-%dT%H:%M")
    answer = organiser.patch(
        url, {"capacity": 2, "closes_at": closes, "entry_fee": "3,000 yen"}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["capacity"] == 2 and answer.json()["entry_fee"] == "3,000 yen"
    assert answer.json()["counts"] == {"registered": 2, "places_left": 0, "waiting_list": 0}
    row = RegistrationSettings.objects.get()
    assert row.closes_at.astimezone(tournament.zone()).strftime("%Y-%m-%dT%H:%M") == closes
    assert row.waiting_list is True  # a field left out stays as it is
    assert SignUp.objects.get(email="ben@example.org").state == "registered"
    entry = AuditEntry.objects.get(action="registration.settings")
    assert entry.changes["capacity"] == [1, 2] and set(entry.changes) == {
        "capacity",
        "closes_at",
        "entry_fee",
    }
