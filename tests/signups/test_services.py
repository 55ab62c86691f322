"""Players signing up themselves, through the services, on the real database; the messages read back
from a real SMTP server started by the test (tests/signups/smtp.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from tests.conftest import make_user
from tests.signups.smtp import Inbox, smtp_server
from tests.tournament.test_club_sessions import race
from tournament.core.refusal import Refusal
from tournament.models import (
    AuditEntry,
    Person,
    Player,
    RegistrationSettings,
    SignUp,
    SignUpMessage,
    Tournament,
)
from tournament.services import signup_mail, signups

pytestmark = pytest.mark.django_db(transaction=True)
BASE = "http://testserver"


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    with smtp_server() as received:
        yield received


def open_registration(tournament: Tournament, **fields: object) -> RegistrationSettings:
    values: dict[str, object] = {
        "opens_at": timezone.now() - timedelta(days=1),
        "closes_at": timezone.now() + timedelta(days=10),
        "capacity": 2,
        "waiting_list": True,
        **fields,
    }
    return RegistrationSettings.objects.create(tournament=tournament, **values)


def form(email: str, **changes: object) -> dict[str, object]:
    return {
        "last_name": "Alves",
        "first_name": email.split("@")[0].capitalize(),
        "country": "PT",
        "email": email,
        "consent": "on",
        **changes,
    }


def link(inbox: Inbox, address: str, kind: str) -> str:
    """The token of the last link of this kind (confirm or me) in the messages to this address."""
    for message in reversed(inbox.to(address)):
        found = re.search(rf"/signup/{kind}/([0-9a-f]+)/", Inbox.text(message))
        if found:
            return found.group(1)
    raise AssertionError(f"no {kind} link to {address}: {[m['Subject'] for m in inbox.to(address)]}")


def signed_up(tournament: Tournament, inbox: Inbox, email: str, language: str = "en") -> SignUp:
    signups.sign_up(tournament, form(email), address="10.0.0.1", language=language, base_url=BASE)
    return signups.confirm(tournament, link(inbox, email, "confirm"), base_url=BASE)


def test_a_sign_up_counts_once_confirmed_by_the_emailed_link_which_works_once(
    tournament: Tournament, inbox: Inbox
) -> None:
    open_registration(tournament)
    signup = signups.sign_up(
        tournament, form("ana@example.org"), address="10.0.0.1", language="en", base_url=BASE
    )
    assert signup is not None and signup.state == SignUp.State.UNCONFIRMED
    [message] = inbox.to("ana@example.org")
    assert message["Subject"] == "Confirm your sign-up for Test Open"
    token = link(inbox, "ana@example.org", "confirm")
    assert token not in (signup.confirm_token_hash or "") and len(signup.confirm_token_hash or "") == 64
    assert f"{BASE}/t/test-open/signup/confirm/{token}/" in Inbox.html(message)
    confirmed = signups.confirm(tournament, token, base_url=BASE)
    assert confirmed.state == SignUp.State.REGISTERED and confirmed.confirmed_at is not None
    assert inbox.to("ana@example.org")[-1]["Subject"] == "You are registered for Test Open"
    with pytest.raises(Refusal) as spent:
        signups.confirm(tournament, token)
    assert spent.value.rule == signups.RULE_TOKEN and spent.value.status == 404
    actions = list(AuditEntry.objects.filter(tournament=tournament).values_list("action", flat=True))
    assert set(actions) >= {"signup.create", "signup.confirm"}


def test_the_same_answer_for_a_known_email_which_is_reminded_and_nothing_else_stored(
    tournament: Tournament, inbox: Inbox
) -> None:
    open_registration(tournament)
    signed_up(tournament, inbox, "ana@example.org")
    again = signups.sign_up(
        tournament, form("ANA@example.org "), address="10.0.0.2", language="en", base_url=BASE
    )
    assert again is None
    assert SignUp.objects.filter(tournament=tournament).count() == 1
    assert inbox.to("ana@example.org")[-1]["Subject"] == "Your sign-up for Test Open"
    assert link(inbox, "ana@example.org", "me")


def test_the_waiting_list_in_order_and_a_cancellation_promotes_the_first_at_once(
    tournament: Tournament, inbox: Inbox
) -> None:
    open_registration(tournament, capacity=2)
    ana, _ben = (signed_up(tournament, inbox, f"{n}@example.org") for n in ("ana", "ben"))
    cho, dai = (signed_up(tournament, inbox, f"{n}@example.org") for n in ("cho", "dai"))
    assert [cho.state, dai.state] == [SignUp.State.WAITING_LIST] * 2
    assert "number 2 on the waiting list" in Inbox.text(inbox.to("dai@example.org")[-1])
    signups.cancel_by_player(tournament, link(inbox, "ben@example.org", "me"), base_url=BASE)
    states = dict(SignUp.objects.values_list("email", "state"))
    assert states == {
        "ana@example.org": "registered",
        "ben@example.org": "cancelled",
        "cho@example.org": "registered",
        "dai@example.org": "waiting_list",
    }
    assert inbox.to("cho@example.org")[-1]["Subject"] == "A place is yours at Test Open"
    assert "number 1 on the waiting list" in Inbox.text(inbox.to("dai@example.org")[-1])
    assert AuditEntry.objects.filter(action="signup.promote", subject="sign-up Cho Alves").count() == 1
    assert ana.state == "registered"


def test_after_the_closing_moment_a_cancellation_promotes_no_one(
    tournament: Tournament, inbox: Inbox
) -> None:
    row = open_registration(tournament, capacity=1)
    signed_up(tournament, inbox, "ana@example.org")
    signed_up(tournament, inbox, "ben@example.org")
    row.closes_at = timezone.now() - timedelta(seconds=1)
    row.save()
    signups.cancel_by_player(tournament, link(inbox, "ana@example.org", "me"))
    assert SignUp.objects.get(email="ben@example.org").state == "waiting_list"


def test_bad_fields_closed_and_full_are_refused_naming_field_and_rule(
    tournament: Tournament, inbox: Inbox
) -> None:
    with pytest.raises(Refusal) as closed:
        signups.sign_up(tournament, form("ana@example.org"), address="1.1.1.1", language="en")
    assert closed.value.rule == "registration-not-open"
    open_registration(tournament, capacity=1, waiting_list=False)
    with pytest.raises(Refusal) as bad:
        signups.sign_up(tournament, form("ana@", ema_id="123", consent=""), address="1.1.1.1", language="en")
    assert {(p.field, p.rule) for p in bad.value.problems} == {
        ("email", "signup-email"),
        ("ema_id", "signup-ema-id"),
        ("consent", "signup-consent"),
    }
    signed_up(tournament, inbox, "ana@example.org")
    signups.sign_up(tournament, form("ben@example.org"), address="1.1.1.1", language="en", base_url=BASE)
    with pytest.raises(Refusal) as full:
        signups.confirm(tournament, link(inbox, "ben@example.org", "confirm"))
    assert full.value.rule == "registration-full" and full.value.status == 409
    assert SignUp.objects.get(email="ben@example.org").state == "unconfirmed"


def test_rate_limits_count_each_attempt_and_the_honeypot_stores_nothing(
    tournament: Tournament, inbox: Inbox
) -> None:
    open_registration(tournament, capacity=None)
    assert (
        signups.sign_up(tournament, form("bot@example.org", website="x"), address="9.9.9.9", language="en")
        is None
    )
    assert not SignUp.objects.exists() and not inbox.messages
    for count in range(signups.LIMIT_PER_EMAIL - 1):
        with pytest.raises(Refusal) as bad:
            signups.sign_up(
                tournament, form("bot@example.org", consent=""), address=f"9.9.9.{count}", language="en"
            )
        assert bad.value.rule == "signup-consent"
    with pytest.raises(Refusal) as limited:
        signups.sign_up(tournament, form("bot@example.org"), address="9.9.8.1", language="en")
    assert limited.value.rule == signups.RULE_RATE and limited.value.status == 429
    for count in range(signups.LIMIT_PER_ADDRESS):
        try:
            signups.sign_up(
                tournament,
                form(f"p{count}@example.org", first_name="Pat", consent=""),
                address="7.7.7.7",
                language="en",
            )
        except Refusal as refusal:
            assert refusal.rule == (
                "signup-consent" if count < signups.LIMIT_PER_ADDRESS else signups.RULE_RATE
            )
    with pytest.raises(Refusal) as by_address:
        signups.sign_up(tournament, form("new@example.org"), address="7.7.7.7", language="en")
    assert by_address.value.rule == signups.RULE_RATE


def test_messages_in_the_players_language_with_plain_text_and_html(
    tournament: Tournament, inbox: Inbox
) -> None:
    open_registration(tournament, capacity=1)
    signups.sign_up(tournament, form("kenji@example.jp"), address="1.2.3.4", language="ja", base_url=BASE)
    [message] = inbox.to("kenji@example.jp")
    assert "Test Open" in message["Subject"] and "Confirm" not in message["Subject"]
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", Inbox.text(message))
    assert '<html lang="ja">' in Inbox.html(message)


def test_staff_approve_reject_mark_paid_and_move_each_audited(tournament: Tournament, inbox: Inbox) -> None:
    organiser = make_user("organiser", tournament, "organiser")
    referee = make_user("referee", tournament, "referee")
    open_registration(tournament, capacity=1, needs_approval=True)
    ana = signed_up(tournament, inbox, "ana@example.org")
    ben = signed_up(tournament, inbox, "ben@example.org")
    assert (ana.state, ben.state) == ("awaiting_approval", "waiting_list")
    with pytest.raises(PermissionDenied):
        signups.approve(ana, referee)
    signups.approve(ana, organiser, base_url=BASE)
    assert inbox.to("ana@example.org")[-1]["Subject"] == "You are registered for Test Open"
    signups.mark_paid(ana, organiser)
    with pytest.raises(Refusal) as full:
        signups.move(ben, "registered", organiser)
    assert full.value.rule == "registration-full"
    signups.reject(ana, organiser, base_url=BASE)
    assert SignUp.objects.get(pk=ben.pk).state == "awaiting_approval"  # promoted, to the organiser's approval
    actions = set(AuditEntry.objects.filter(actor=organiser).values_list("action", flat=True))
    assert actions >= {"signup.approve", "signup.paid", "signup.reject", "signup.promote"}
    assert SignUp.objects.get(pk=ana.pk).paid


def test_the_registered_become_players_matched_to_the_sites_person(
    tournament: Tournament, inbox: Inbox
) -> None:
    organiser = make_user("organiser", tournament, "organiser")
    known = Person.objects.create(name="Ana Alves", country="PT", ema_id="04010001")
    open_registration(tournament, capacity=5)
    signups.sign_up(
        tournament,
        form("ana@example.org", ema_id="04010001"),
        address="1.1.1.1",
        language="en",
        base_url=BASE,
    )
    signups.confirm(tournament, link(inbox, "ana@example.org", "confirm"))
    signed_up(tournament, inbox, "ben@example.org")
    Player.objects.create(tournament=tournament, name="Hand Added")
    created = signups.turn_into_players(tournament, organiser)
    assert sorted(p.name for p in created) == ["Ana Alves", "Ben Alves"]
    ana = Player.objects.get(name="Ana Alves")
    assert ana.person_id == known.pk and ana.signup.email == "ana@example.org"
    assert signups.turn_into_players(tournament, organiser) == []  # once
    assert tournament.players.count() == 3


def test_a_message_delivered_twice_or_twice_at_once_is_sent_once(
    tournament: Tournament, inbox: Inbox
) -> None:
    open_registration(tournament)
    signup = signups.sign_up(
        tournament, form("ana@example.org"), address="10.0.0.1", language="en", base_url=BASE
    )
    assert signup is not None and len(inbox.to("ana@example.org")) == 1
    (logged,) = SignUpMessage.objects.filter(signup=signup)
    assert logged.kind == "confirm" and logged.sent_at is not None
    assert signup_mail.send_signup_message(logged.pk) is False  # the task delivered again: sent already
    assert len(inbox.to("ana@example.org")) == 1
    # A message not yet sent, delivered to two workers at once: one sends it, the other waits and finds
    # it sent.
    SignUpMessage.objects.filter(pk=logged.pk).update(sent_at=None)
    outcomes = race([lambda: signup_mail.send_signup_message(logged.pk) for _ in range(2)])
    assert sorted(outcomes) == [False, True], outcomes  # type: ignore[type-var]
    assert len(inbox.to("ana@example.org")) == 2


def test_when_the_list_moves_only_the_new_first_in_line_is_told(tournament: Tournament, inbox: Inbox) -> None:
    open_registration(tournament, capacity=1)
    ana = signed_up(tournament, inbox, "ana@example.org")
    waiting = [signed_up(tournament, inbox, f"{n}@example.org") for n in ("ben", "cho", "dai", "eve")]
    assert [s.state for s in waiting] == [SignUp.State.WAITING_LIST] * 4
    before = {s.email: len(inbox.to(s.email)) for s in waiting}
    signups.cancel_by_player(tournament, link(inbox, "ana@example.org", "me"), base_url=BASE)
    after = {s.email: len(inbox.to(s.email)) for s in waiting}
    assert inbox.to("ben@example.org")[-1]["Subject"] == "A place is yours at Test Open"
    assert "number 1 on the waiting list" in Inbox.text(inbox.to("cho@example.org")[-1])
    assert {email: after[email] - before[email] for email in after} == {
        "ben@example.org": 1,  # promoted
        "cho@example.org": 1,  # first in line now
        "dai@example.org": 0,
        "eve@example.org": 0,
    }
    # One waiting ahead of the others cancels: the new first is told, nobody else.
    signups.cancel_by_player(tournament, link(inbox, "cho@example.org", "me"), base_url=BASE)
    assert "number 1 on the waiting list" in Inbox.text(inbox.to("dai@example.org")[-1])
    assert len(inbox.to("eve@example.org")) == after["eve@example.org"]
    assert SignUp.objects.get(pk=ana.pk).state == SignUp.State.CANCELLED
