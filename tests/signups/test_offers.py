"""A time to accept a promotion: with ``accept_hours`` set, the first on the waiting list is offered a
freed place until a deadline, accepts it from their own link, or the sweep passes it to the next; two
sweeps at once give the place once; after the closing moment nobody is promoted. Messages read back from
a real SMTP server the test starts (tests/signups/smtp.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

from tests.conftest import make_user
from tests.signups.smtp import Inbox, smtp_server
from tests.signups.test_services import BASE, link, open_registration, signed_up
from tests.tournament.test_club_sessions import race
from tournament.core.refusal import Refusal
from tournament.models import AuditEntry, RegistrationSettings, SignUp, SignUpMessage, Tournament
from tournament.queries import signups_db
from tournament.services import signups

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    with smtp_server() as received:
        yield received


@pytest.fixture
def full(tournament: Tournament, inbox: Inbox) -> dict[str, SignUp]:
    """One place, 24 hours to accept it: Ana holds it, Ben, Cho and Dai wait in that order."""
    open_registration(tournament, capacity=1, accept_hours=24)
    people = {
        name: signed_up(tournament, inbox, f"{name}@example.org", language)
        for name, language in (("ana", "en"), ("ben", "de"), ("cho", "en"), ("dai", "en"))
    }
    assert [s.state for s in people.values()] == ["registered"] + ["waiting_list"] * 3
    return people


def state(signup: SignUp) -> str:
    return SignUp.objects.get(pk=signup.pk).state


def offered(tournament: Tournament, inbox: Inbox, who: str) -> SignUp:
    row = SignUp.objects.get(tournament=tournament, email=f"{who}@example.org")
    assert row.state == "offered" and row.offer_expires_at is not None
    return row


def past_deadline(signup: SignUp) -> None:
    SignUp.objects.filter(pk=signup.pk).update(offer_expires_at=timezone.now() - timedelta(minutes=1))


def test_a_freed_place_is_offered_until_the_deadline_and_accepted_from_the_players_page(
    tournament: Tournament, inbox: Inbox, full: dict[str, SignUp]
) -> None:
    before = timezone.now()
    signups.cancel_by_player(tournament, link(inbox, "ana@example.org", "me"), base_url=BASE)
    ben = offered(tournament, inbox, "ben")
    assert before + timedelta(hours=24) <= ben.offer_expires_at <= timezone.now() + timedelta(hours=24)
    assert signups_db.counts(tournament)["places_left"] == 0  # the offer holds the place
    [message] = [m for m in inbox.to("ben@example.org") if "angeboten" in m["Subject"]]
    deadline = timezone.localtime(ben.offer_expires_at, tournament.zone())
    with translation.override("de"):
        shown = f"{date_format(deadline, 'DATETIME_FORMAT')} ({tournament.time_zone})"
    assert f"bis {shown} auf deiner eigenen Seite" in Inbox.text(message)
    client = Client()
    page = client.get(f"/t/test-open/signup/me/{link(inbox, 'ben@example.org', 'me')}/")
    assert "data-offer-deadline" in page.text and 'value="accept"' in page.text
    accepted = client.post(page.request["PATH_INFO"], {"action": "accept"})
    assert 'data-signup-state="registered"' in accepted.text
    assert state(ben) == "registered" and SignUp.objects.get(pk=ben.pk).offer_expires_at is None
    assert AuditEntry.objects.filter(action="signup.accept").count() == 1
    assert signups.expire_offers() == []  # nothing offered any more
    refused = client.post(page.request["PATH_INFO"], {"action": "accept"})
    assert refused.status_code == 409  # accepted already: no place is offered


def test_the_sweep_passes_an_expired_offer_to_the_next_and_accepting_late_is_refused(
    tournament: Tournament, inbox: Inbox, full: dict[str, SignUp]
) -> None:
    signups.cancel_by_player(tournament, link(inbox, "ana@example.org", "me"), base_url=BASE)
    ben = offered(tournament, inbox, "ben")
    past_deadline(ben)
    with pytest.raises(Refusal) as late:
        signups.accept_offer(tournament, link(inbox, "ben@example.org", "me"))
    assert (late.value.rule, late.value.status) == ("signup-offer-expired", 409)
    assert signups.expire_offers() == [ben.pk]
    assert state(ben) == "cancelled"
    assert "nicht rechtzeitig" in Inbox.text(inbox.to("ben@example.org")[-1])
    cho = offered(tournament, inbox, "cho")
    assert "offered to you" in inbox.to("cho@example.org")[-1]["Subject"]
    assert "number 1 on the waiting list" in Inbox.text(inbox.to("dai@example.org")[-1])
    assert state(full["dai"]) == "waiting_list"
    assert signups.expire_offers() == []  # Cho's offer runs for 24 hours
    assert AuditEntry.objects.filter(action="signup.offer-expired").count() == 1
    assert cho.offer_expires_at is not None


def test_two_sweeps_at_once_pass_an_offer_on_once(
    tournament: Tournament, inbox: Inbox, full: dict[str, SignUp]
) -> None:
    signups.cancel_by_player(tournament, link(inbox, "ana@example.org", "me"), base_url=BASE)
    ben = offered(tournament, inbox, "ben")
    past_deadline(ben)
    outcomes = race([signups.expire_offers, signups.expire_offers])
    assert sorted(outcomes, key=len) == [[], [ben.pk]], outcomes  # type: ignore[arg-type]
    assert [s.state for s in SignUp.objects.order_by("pk")] == [
        "cancelled",
        "cancelled",
        "offered",
        "waiting_list",
    ]
    assert AuditEntry.objects.filter(action="signup.promote").count() == 2  # Ben once, then Cho once
    assert SignUpMessage.objects.filter(signup__email="cho@example.org", kind="offered").count() == 1
    assert len([m for m in inbox.to("cho@example.org") if "offered to you" in m["Subject"]]) == 1


def test_after_the_closing_moment_an_expired_offer_frees_the_place_for_the_organiser(
    tournament: Tournament, inbox: Inbox, full: dict[str, SignUp]
) -> None:
    signups.cancel_by_player(tournament, link(inbox, "ana@example.org", "me"), base_url=BASE)
    ben = offered(tournament, inbox, "ben")
    past_deadline(ben)
    RegistrationSettings.objects.filter(tournament=tournament).update(closes_at=timezone.now())
    assert signups.expire_offers() == [ben.pk]
    assert state(full["cho"]) == "waiting_list" and signups_db.counts(tournament)["places_left"] == 1


def test_without_a_time_to_accept_the_place_is_given_at_once(tournament: Tournament, inbox: Inbox) -> None:
    open_registration(tournament, capacity=1)
    signed_up(tournament, inbox, "ana@example.org")
    ben = signed_up(tournament, inbox, "ben@example.org")
    signups.cancel_by_player(tournament, link(inbox, "ana@example.org", "me"), base_url=BASE)
    assert state(ben) == "registered"


def test_the_organiser_sets_the_hours_on_the_settings_form_and_in_the_api(tournament: Tournament) -> None:
    organiser = make_user("organiser", tournament, "organiser")
    client = Client()
    client.force_login(organiser)
    page = client.get("/t/test-open/manage/signups/")
    assert 'name="accept_hours"' in page.text
    opens = timezone.localtime(timezone.now(), tournament.zone()) - timedelta(days=1)
    data = {"action": "settings", "opens_at": f"{opens:%Y-%m-%dT%H:%M}", "waiting_list": "on"}
    refused = client.post("/t/test-open/manage/signups/", {**data, "accept_hours": "721"})
    assert refused.status_code == 400 and not RegistrationSettings.objects.exists()
    saved = client.post("/t/test-open/manage/signups/", {**data, "accept_hours": "48"})
    assert "data-settings-saved" in saved.text
    assert RegistrationSettings.objects.get().accept_hours == 48
    entry = AuditEntry.objects.get(action="registration.settings")
    assert entry.changes["accept_hours"] == [None, 48]
    api = client.patch(
        f"/api/tournaments/{tournament.pk}/registration/", {"accept_hours": None}, "application/json"
    )
    assert api.status_code == 200 and api.json()["accept_hours"] is None
    assert "expire-signup-offers" in settings.CELERY_BEAT_SCHEDULE


def test_the_api_accepts_an_offer_by_the_players_token(
    tournament: Tournament, inbox: Inbox, full: dict[str, SignUp]
) -> None:
    signups.cancel_by_player(tournament, link(inbox, "ana@example.org", "me"), base_url=BASE)
    token = link(inbox, "ben@example.org", "me")
    url = f"/api/tournaments/{tournament.pk}/registration/me/{token}"
    own = Client().get(f"{url}/").json()
    assert own["state"] == "offered" and own["offer_expires_at"]
    accepted = Client().post(f"{url}/accept/")
    assert accepted.status_code == 200 and accepted.json()["state"] == "registered"
    again = Client().post(f"{url}/accept/")
    assert again.status_code == 409 and again.json()["errors"][0]["rule"] == "signup-state"
    assert re.search(r"/signup/me/[0-9a-f]+/", Inbox.text(inbox.to("ben@example.org")[-1]))
