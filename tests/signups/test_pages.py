"""The players' sign-up pages through Django's test client: the form with its consent text, errors
naming the field, the confirmation and the player's own page by the emailed links, the public list."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from tests.conftest import make_user
from tournament.models import AuditEntry, RegistrationSettings, SignUp, Tournament

pytestmark = pytest.mark.django_db(transaction=True)  # the messages leave once the change commits


def link(kind: str) -> str:
    found = re.search(rf"(/t/test-open/signup/{kind}/[0-9a-f]+/)", mail.outbox[-1].body)
    assert found, mail.outbox[-1].body
    return found.group(1)


def test_sign_up_confirm_see_the_list_and_cancel(tournament: Tournament, client: Client) -> None:
    RegistrationSettings.objects.create(
        tournament=tournament,
        opens_at=timezone.now() - timedelta(hours=1),
        capacity=10,
        consent_text="My name is published on the standings.",
        entry_fee="30 EUR at the door",
    )
    page = client.get("/t/test-open/signup/")
    assert page.status_code == 200
    assert "My name is published on the standings." in page.text and "30 EUR at the door" in page.text
    data = {"last_name": "Alves", "first_name": "Ana", "email": "ana@", "country": "PT"}
    refused = client.post("/t/test-open/signup/", data)
    assert refused.status_code == 400
    assert "Email: ana@ is not an email address" in refused.text
    assert "Consent: required" in refused.text
    sent = client.post("/t/test-open/signup/", {**data, "email": "ana@example.org", "consent": "on"})
    assert sent.status_code == 200 and "data-signup-sent" in sent.text
    assert SignUp.objects.get().state == "unconfirmed"
    confirm = link("confirm")
    assert "data-signup-state" not in client.get(confirm).text  # a GET (a mail scanner) confirms nothing
    assert SignUp.objects.get().state == "unconfirmed"
    done = client.post(confirm)
    assert 'data-signup-state="registered"' in done.text
    listed = client.get("/t/test-open/signup/registered/")
    assert "Ana Alves" in listed.text and "Registered: 1" in listed.text and "Places left: 9" in listed.text
    own = link("me")
    assert "Cancel my sign-up" in client.get(own).text
    cancelled = client.post(own)
    assert 'data-signup-state="cancelled"' in cancelled.text
    assert "Ana Alves" not in client.get("/t/test-open/signup/registered/").text
    assert client.post(confirm).status_code == 404


def test_without_registration_settings_the_page_says_it_is_not_open(
    tournament: Tournament, client: Client
) -> None:
    page = client.get("/t/test-open/signup/")
    assert page.status_code == 200 and "not open" in page.text
    refused = client.post(
        "/t/test-open/signup/",
        {"last_name": "Alves", "first_name": "Ana", "email": "ana@example.org", "consent": "on"},
    )
    assert refused.status_code == 400 and not SignUp.objects.exists()


def test_the_organisers_page_counts_approves_marks_paid_and_makes_players(
    tournament: Tournament, client: Client
) -> None:
    from tests.conftest import make_user

    organiser = make_user("organiser", tournament, "organiser")
    make_user("referee", tournament, "referee")
    RegistrationSettings.objects.create(
        tournament=tournament, opens_at=timezone.now() - timedelta(hours=1), capacity=10, needs_approval=True
    )
    client.post(
        "/t/test-open/signup/",
        {
            "last_name": "Alves",
            "first_name": "Ana",
            "email": "ana@example.org",
            "country": "PT",
            "consent": "on",
        },
    )
    client.post(link("confirm"))
    signup = SignUp.objects.get()
    client.login(username="referee", password="pw-for-tests-only")
    assert client.get("/t/test-open/manage/signups/").status_code == 403
    client.force_login(organiser)
    page = client.get("/t/test-open/manage/signups/")
    assert page.status_code == 200 and "Portugal: 1" in page.text and "ana@example.org" in page.text
    client.post("/t/test-open/manage/signups/", {"action": "approve", "signup": signup.pk})
    client.post("/t/test-open/manage/signups/", {"action": "paid", "signup": signup.pk})
    signup.refresh_from_db()
    assert (signup.state, signup.paid) == ("registered", True)
    made = client.post("/t/test-open/manage/signups/", {"action": "players"})
    assert 'data-players-made="1"' in made.text
    assert tournament.players.get().name == "Ana Alves"
    again = client.post("/t/test-open/manage/signups/", {"action": "approve", "signup": signup.pk})
    assert again.status_code == 409


def test_the_organisers_page_corrects_a_sign_up_checked_as_the_form_and_audited(
    tournament: Tournament, client: Client
) -> None:
    from tests.conftest import make_user
    from tournament.models import AuditEntry

    organiser = make_user("organiser", tournament, "organiser")
    make_user("referee", tournament, "referee")
    RegistrationSettings.objects.create(tournament=tournament, opens_at=timezone.now() - timedelta(hours=1))
    for first, email in (("Ana", "ana@example.org"), ("Ben", "ben@example.org")):
        data = {"last_name": "Alves", "first_name": first, "email": email, "country": "PT", "consent": "on"}
        client.post("/t/test-open/signup/", data)
        client.post(link("confirm"))
    ana = SignUp.objects.get(email="ana@example.org")
    url = "/t/test-open/manage/signups/"
    client.login(username="referee", password="pw-for-tests-only")
    assert client.get(f"{url}?edit={ana.pk}").status_code == 403
    assert client.post(url, {"action": "edit", "signup": ana.pk, "last_name": "X"}).status_code == 403
    client.force_login(organiser)
    listed = client.get(url).text
    assert f'href="?edit={ana.pk}#edit-signup"' in listed and "data-signup-edit" not in listed
    shown = client.get(f"{url}?edit={ana.pk}")
    assert shown.status_code == 200 and f'data-signup-edit="{ana.pk}"' in shown.text
    assert 'value="ana@example.org"' in shown.text and 'value="Alves"' in shown.text
    fields = {
        "action": "edit",
        "signup": ana.pk,
        "last_name": "Alves",
        "first_name": "Ana",
        "native_name": "アナ",
        "country": "JP",
        "club": "Tokyo Riichi",
        "ema_id": "123",
        "email": "ana@example.org",
        "nicknames": "",
        "note": "",
    }
    refused = client.post(url, fields)
    assert refused.status_code == 400
    assert "EMA number: exactly 8 digits (EMA ranking rules), not 123" in refused.text
    assert 'value="Tokyo Riichi"' in refused.text  # what was typed stays in the form
    taken = client.post(url, {**fields, "ema_id": "", "email": "ben@example.org"})
    assert taken.status_code == 409 and "ben@example.org already has a sign-up" in taken.text
    ana.refresh_from_db()
    assert (ana.club, ana.native_name, ana.country.code) == ("", "", "PT")  # nothing stored half-way
    saved = client.post(url, {**fields, "ema_id": "04120001"})
    assert saved.status_code == 200 and f'data-signup-edited="{ana.pk}"' in saved.text
    assert "data-signup-edit=" not in saved.text
    ana.refresh_from_db()
    assert (ana.club, ana.native_name, ana.country.code, ana.ema_id) == (
        "Tokyo Riichi",
        "アナ",
        "JP",
        "04120001",
    )
    entry = AuditEntry.objects.get(action="signup.edit")
    assert entry.actor == organiser and entry.changes["country"] == ["PT", "JP"]
    assert client.get(f"{url}?edit=999999").status_code == 404


def test_the_organiser_opens_registration_in_the_venues_time_and_added_places_promote(
    tournament: Tournament, client: Client
) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(time_zone="Europe/Paris")
    organiser = make_user("organiser", tournament, "organiser")
    make_user("referee", tournament, "referee")
    url = "/t/test-open/manage/signups/"
    client.login(username="referee", password="pw-for-tests-only")
    assert client.post(url, {"action": "settings", "capacity": "5"}).status_code == 403
    assert not RegistrationSettings.objects.exists()
    client.force_login(organiser)
    page = client.get(url)
    assert "data-registration-settings" in page.text and "(Europe/Paris)" in page.text
    fields = {"action": "settings", "waiting_list": "on", "consent_text": "Names are published."}
    # Closing before opening: refused, naming the field, nothing stored.
    refused = client.post(url, {**fields, "opens_at": "2026-05-01T09:00", "closes_at": "2026-04-30T09:00"})
    assert refused.status_code == 400 and "Registration closes after it opens." in refused.text
    assert not RegistrationSettings.objects.exists()
    # Opened an hour ago in the venue's time (Paris), one place.
    opened = timezone.now() - timedelta(hours=1)
    local = opened.astimezone(ZoneInfo("Europe/Paris")).strftime("%Y-%m-%dT%H:%M")
    saved = client.post(url, {**fields, "opens_at": local, "capacity": "1"})
    assert saved.status_code == 200 and "data-settings-saved" in saved.text
    row = RegistrationSettings.objects.get()
    assert row.opens_at == datetime.strptime(local, "%Y-%m-%dT%H:%M").replace(
        tzinfo=ZoneInfo("Europe/Paris")
    ).astimezone(UTC)
    assert (row.capacity, row.waiting_list, row.closes_at) == (1, True, None)
    entry = AuditEntry.objects.get(action="registration.settings")
    assert entry.actor == organiser and entry.changes["capacity"] == [None, 1]
    # Two players confirm: one place, one on the waiting list.
    client.logout()
    for last, first, email in (("Alves", "Ana", "ana@example.org"), ("Baker", "Ben", "ben@example.org")):
        client.post(
            "/t/test-open/signup/",
            {"last_name": last, "first_name": first, "email": email, "country": "PT", "consent": "on"},
        )
        client.post(link("confirm"))
    assert dict(SignUp.objects.values_list("first_name", "state")) == {
        "Ana": "registered",
        "Ben": "waiting_list",
    }
    # A second place: the first on the waiting list takes it at once, and is told.
    client.force_login(organiser)
    client.post(url, {**fields, "opens_at": local, "capacity": "2"})
    assert SignUp.objects.get(first_name="Ben").state == "registered"
    assert "ben@example.org" in mail.outbox[-1].to
    assert AuditEntry.objects.filter(action="registration.settings").count() == 2


def test_the_organisers_list_shows_the_field_first_and_those_gone_last(
    tournament: Tournament, client: Client
) -> None:
    """Registered, to approve, offered, the waiting list in its order, unconfirmed, then cancelled and
    rejected: not the states' names in alphabetical order (which put the cancelled second)."""
    organiser = make_user("organiser", tournament, "organiser")
    RegistrationSettings.objects.create(tournament=tournament, opens_at=timezone.now() - timedelta(hours=1))
    start = timezone.now() - timedelta(hours=1)
    states = ["cancelled", "waiting_list", "rejected", "registered", "unconfirmed", "waiting_list"]
    states += ["awaiting_approval", "offered", "registered"]
    for number, state in enumerate(states):
        SignUp.objects.create(
            tournament=tournament,
            last_name=f"Player{number}",
            first_name="Test",
            email=f"p{number}@example.org",
            state=state,
            confirmed_at=None if state == "unconfirmed" else start + timedelta(minutes=number),
            token_seed=f"{number:032x}",
            confirm_token_hash=f"c{number}",
            manage_token_hash=f"m{number}",
            consent_at=start,
            manage_expires_at=start + timedelta(days=30),
        )
    client.force_login(organiser)
    page = client.get("/t/test-open/manage/signups/").text
    shown = sorted(range(len(states)), key=lambda number: page.index(f"p{number}@example.org"))
    assert [states[number] for number in shown] == [
        "registered",
        "registered",
        "awaiting_approval",
        "offered",
        "waiting_list",
        "waiting_list",
        "unconfirmed",
        "cancelled",
        "rejected",
    ]
    assert shown[:2] == [3, 8] and shown[4:6] == [1, 5]  # each state by the time of its confirmation
