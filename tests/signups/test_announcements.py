"""The organiser's announcement to the sign-ups: one message per recipient written in the announcement's
transaction, sent in the background, each in the player's language around the organiser's text, read back
from a real SMTP server the test starts (tests/signups/smtp.py); refusals naming the field; the page and
the API."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.conftest import make_user
from tests.signups.smtp import Inbox, smtp_server
from tests.signups.test_services import BASE, form, open_registration, signed_up
from tests.tournament.test_club_sessions import race
from tournament.core.refusal import Refusal
from tournament.models import AuditEntry, SignUp, SignUpAnnouncement, SignUpMessage, Tournament
from tournament.services import announcements, signup_mail, signups

pytestmark = pytest.mark.django_db(transaction=True)

SUBJECT = "Doors & <b>times</b>"
TEXT = 'Doors open at 9:00.\n<script>alert("x")</script>\n<a href="http://evil.example">map</a>'


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    with smtp_server() as received:
        yield received


@pytest.fixture
def field(tournament: Tournament, inbox: Inbox) -> dict[str, SignUp]:
    """Two registered (English, German), one waiting (Japanese), one never confirmed (French)."""
    open_registration(tournament, capacity=2)
    people = {
        "ana": signed_up(tournament, inbox, "ana@example.org", "en"),
        "ben": signed_up(tournament, inbox, "ben@example.org", "de"),
        "kenji": signed_up(tournament, inbox, "kenji@example.jp", "ja"),
    }
    signups.sign_up(tournament, form("zoe@example.fr"), address="10.0.0.2", language="fr", base_url=BASE)
    assert [s.state for s in people.values()] == ["registered", "registered", "waiting_list"]
    return people


def plain(message: Any) -> str:
    return Inbox.text(message).replace("\r\n", "\n")


def announced(inbox: Inbox, address: str) -> list[Any]:
    return [m for m in inbox.to(address) if m["Subject"] == SUBJECT]


def test_every_registered_sign_up_gets_one_message_in_its_language_with_its_link(
    tournament: Tournament, inbox: Inbox, field: dict[str, SignUp]
) -> None:
    organiser = make_user("organiser", tournament, "organiser")
    row = announcements.announce(tournament, organiser, {"subject": SUBJECT, "text": TEXT}, base_url=BASE)
    assert [len(announced(inbox, a)) for a in ("ana@example.org", "ben@example.org")] == [1, 1]
    assert announced(inbox, "kenji@example.jp") == [] and announced(inbox, "zoe@example.fr") == []
    [ana], [ben] = announced(inbox, "ana@example.org"), announced(inbox, "ben@example.org")
    assert Inbox.text(ana).startswith("Hello Ana Alves,") and "from the organiser of Test Open" in Inbox.text(
        ana
    )
    assert Inbox.text(ben).startswith("Hallo Ben Alves,") and '<html lang="de">' in Inbox.html(ben)
    # The organiser's text as written in the plain text; escaped in the HTML, where it is no markup.
    assert TEXT in plain(ana)
    html = Inbox.html(ana)
    assert "<script>" not in html and 'href="http://evil.example"' not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;<br>" in html
    assert "&lt;a href=&quot;http://evil.example&quot;&gt;map&lt;/a&gt;" in html
    # Each message carries its player's own link, which opens their sign-up.
    for name, message in (("ana", ana), ("ben", ben)):
        token = re.search(r"/signup/me/([0-9a-f]+)/", Inbox.text(message))
        assert token is not None and f"/signup/me/{token.group(1)}/" in Inbox.html(message)
        assert signups.find_by_manage_token(tournament, token.group(1)).pk == field[name].pk
    logged = SignUpMessage.objects.filter(announcement=row)
    assert logged.count() == 2 and not logged.filter(sent_at=None).exists()
    entry = AuditEntry.objects.get(action="signup.announce")
    assert entry.actor == organiser
    assert entry.changes == {
        "announcement": row.pk,
        "subject": SUBJECT,
        "recipients": 2,
        "waiting_list": False,
    }


def test_the_waiting_list_too_when_chosen_and_none_sent_twice(
    tournament: Tournament, inbox: Inbox, field: dict[str, SignUp]
) -> None:
    organiser = make_user("organiser", tournament, "organiser")
    row = announcements.announce(
        tournament, organiser, {"subject": SUBJECT, "text": TEXT, "waiting_list": True}, base_url=BASE
    )
    [kenji] = announced(inbox, "kenji@example.jp")
    assert plain(kenji).startswith("Kenji Alves 様\n\nTest Open の主催者からのお知らせです\uff1a\n\n" + TEXT)
    assert '<html lang="ja">' in Inbox.html(kenji)
    ids = list(SignUpMessage.objects.filter(announcement=row).values_list("pk", flat=True))
    assert len(ids) == 3
    assert [signup_mail.send_signup_message(pk) for pk in ids] == [False] * 3  # delivered again: sent
    # Delivered to two workers at once while not yet sent: one sends it.
    SignUpMessage.objects.filter(pk=ids[0]).update(sent_at=None)
    outcomes = race([lambda: signup_mail.send_signup_message(ids[0]) for _ in range(2)])
    assert sorted(outcomes) == [False, True], outcomes  # type: ignore[type-var]
    total = sum(len(announced(inbox, a)) for a in ("ana@example.org", "ben@example.org", "kenji@example.jp"))
    assert total == 4  # three, and the one the test made unsent again


def test_an_announcement_rolled_back_sends_nothing_and_a_cancelled_player_is_left_out(
    tournament: Tournament, inbox: Inbox, field: dict[str, SignUp]
) -> None:
    organiser = make_user("organiser", tournament, "organiser")
    with pytest.raises(RuntimeError), transaction.atomic():
        announcements.announce(tournament, organiser, {"subject": SUBJECT, "text": TEXT})
        raise RuntimeError("the request failed after the announcement")
    assert not SignUpAnnouncement.objects.exists() and announced(inbox, "ana@example.org") == []
    # Written while Ana was registered, sent after she cancelled: not hers any more.
    with transaction.atomic():
        row = announcements.announce(tournament, organiser, {"subject": SUBJECT, "text": TEXT}, base_url=BASE)
        SignUp.objects.filter(pk=field["ana"].pk).update(state="cancelled")
    assert announced(inbox, "ana@example.org") == [] and len(announced(inbox, "ben@example.org")) == 1
    assert not SignUpMessage.objects.filter(announcement=row, sent_at=None).exists()
    # Marked sent without being sent, and counted neither among the recipients nor the sent.
    stale = {message.signup_id: message.stale for message in row.messages.all()}
    assert stale == {field["ana"].pk: True, field["ben"].pk: False}
    assert announcements.counts(row) == {"recipients": 1, "sent": 1}


def test_the_list_of_announcements_is_counted_in_one_query(
    tournament: Tournament, inbox: Inbox, field: dict[str, SignUp]
) -> None:
    organiser = make_user("organiser", tournament, "organiser")
    both = {"subject": SUBJECT, "text": TEXT, "waiting_list": True}
    rows = [announcements.announce(tournament, organiser, data, base_url=BASE) for data in (both, both)]
    waiting = announcements.announce(tournament, organiser, both, base_url=BASE)
    SignUpMessage.objects.filter(announcement=waiting).update(sent_at=None)  # as if not sent yet
    with CaptureQueriesContext(connection) as queries:
        listed = announcements.announcements(tournament)
    assert len(queries) == 1
    assert [(item["announcement"], item["recipients"], item["sent"]) for item in listed] == [
        (waiting, 3, 0),
        (rows[1], 3, 3),
        (rows[0], 3, 3),
    ]


@pytest.mark.parametrize(
    ("data", "field_name", "rule"),
    [
        ({"subject": "  ", "text": TEXT}, "subject", "announcement-required"),
        ({"subject": SUBJECT, "text": ""}, "text", "announcement-required"),
        ({"subject": "x" * 151, "text": TEXT}, "subject", "announcement-length"),
        ({"subject": SUBJECT, "text": "x" * 5001}, "text", "announcement-length"),
        ({"subject": "Two\nlines", "text": TEXT}, "subject", "printable-text"),
        ({"subject": SUBJECT, "text": "bell \x07"}, "text", "printable-text"),
    ],
)
def test_refusals_name_the_field_and_store_nothing(
    tournament: Tournament, data: dict[str, str], field_name: str, rule: str
) -> None:
    organiser = make_user("organiser", tournament, "organiser")
    open_registration(tournament)
    with pytest.raises(Refusal) as refused:
        announcements.announce(tournament, organiser, data)
    assert (refused.value.problems[0].field, refused.value.rule) == (field_name, rule)
    assert not SignUpAnnouncement.objects.exists() and not SignUpMessage.objects.exists()
    assert not AuditEntry.objects.filter(action="signup.announce").exists()


def test_only_organisers_announce_and_not_to_nobody(tournament: Tournament, inbox: Inbox) -> None:
    referee = make_user("referee", tournament, "referee")
    organiser = make_user("organiser", tournament, "organiser")
    open_registration(tournament)
    with pytest.raises(PermissionDenied):
        announcements.announce(tournament, referee, {"subject": SUBJECT, "text": TEXT})
    with pytest.raises(Refusal) as nobody:
        announcements.announce(
            tournament, organiser, {"subject": SUBJECT, "text": TEXT, "waiting_list": True}
        )
    assert (nobody.value.problems[0].field, nobody.value.rule, nobody.value.status) == (
        "waiting_list",
        "announcement-no-recipient",
        409,
    )
    assert not SignUpAnnouncement.objects.exists()


def test_the_organisers_page_sends_it_and_shows_refusals_beside_their_field(
    tournament: Tournament, inbox: Inbox, field: dict[str, SignUp]
) -> None:
    client = Client()
    client.force_login(make_user("organiser", tournament, "organiser"))
    url = "/t/test-open/manage/signups/"
    assert "data-announcement" in client.get(url).text
    refused = client.post(url, {"action": "announce", "subject": "x" * 151, "text": TEXT})
    assert refused.status_code == 400
    assert "Subject: at most 150 characters, not 151" in refused.text
    assert TEXT.split("\n")[0] in refused.text  # what was typed is kept
    sent = client.post(url, {"action": "announce", "subject": SUBJECT, "text": TEXT, "waiting_list": "on"})
    assert sent.status_code == 200
    row = SignUpAnnouncement.objects.get()
    assert f'data-announced="{row.pk}"' in sent.text and "goes to 3 sign-ups" in sent.text
    assert "sent: 3 of 3" in client.get(url).text
    assert "<b>times</b>" not in sent.text and "Doors &amp; &lt;b&gt;times&lt;/b&gt;" in sent.text
    assert len(announced(inbox, "kenji@example.jp")) == 1


def test_the_api_sends_it_lists_it_and_refuses_naming_the_field(
    tournament: Tournament, inbox: Inbox, field: dict[str, SignUp]
) -> None:
    client = Client()
    client.force_login(make_user("organiser", tournament, "organiser"))
    api = f"/api/tournaments/{tournament.pk}/signups"
    refused = client.post(f"{api}/announce/", {"subject": SUBJECT, "text": "x" * 5001}, "application/json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "text"
    assert refused.json()["errors"][0]["rule"] == "announcement-length"
    sent = client.post(f"{api}/announce/", {"subject": SUBJECT, "text": TEXT}, "application/json")
    assert sent.status_code == 202, sent.content
    assert sent.json()["recipients"] == 2 and sent.json()["subject"] == SUBJECT
    listed = client.get(f"{api}/announcements/").json()
    assert [(a["id"], a["recipients"], a["sent"]) for a in listed] == [(sent.json()["id"], 2, 2)]
    assert len(announced(inbox, "ben@example.org")) == 1
    referee = Client()
    referee.force_login(make_user("referee", tournament, "referee"))
    assert (
        referee.post(f"{api}/announce/", {"subject": "a", "text": "b"}, "application/json").status_code == 403
    )
