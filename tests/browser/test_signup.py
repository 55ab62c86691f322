"""A player signs up on a phone (390 px), in English and in Japanese: the form, the confirmation link
read off the test's own SMTP server, and their name on the public list. An organiser corrects a sign-up
on the same phone: the form above the list, the refusal beside its field, the correction saved. A player
joins a full field of fifteen (a dozen countries, names in their own scripts) on a phone and waits third
in line, the organiser adds two places on a desktop: the handbooks' pictures of registration."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone

from tests.browser.conftest import layout_problems, log_in
from tests.conftest import make_user
from tests.signups.smtp import Inbox, smtp_server
from tournament.models import RegistrationSettings, SignUp, Tournament
from tournament.services import signups

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("language", "first", "sent_word"), [("en", "Ana", "Thank you"), ("ja", "Kenji", "ありがとうございます")]
)
def test_sign_up_confirm_from_the_email_and_see_yourself_on_the_list(
    new_context: Any, live_server: Any, language: str, first: str, sent_word: str
) -> None:
    tournament = Tournament.objects.create(
        name="Spring Open",
        slug="test-open",
        starts_on=date(2026, 5, 1),
        ends_on=date(2026, 5, 2),
        hanchan_count=5,
    )
    RegistrationSettings.objects.create(
        tournament=tournament,
        opens_at=timezone.now() - timedelta(hours=1),
        capacity=40,
        consent_text="Published.",
    )
    email = f"{first.lower()}@example.org"
    with smtp_server() as inbox:
        page = new_context(viewport={"width": 390, "height": 844}, locale=language).new_page()
        page.goto(f"{live_server.url}/t/test-open/signup/")
        page.fill("#id_last_name", "Suzuki")
        page.fill("#id_first_name", first)
        page.fill("#id_native_name", "鈴木")
        page.fill("#id_email", email)
        page.check("#id_consent")
        assert layout_problems(page) == []
        page.click("form.stacked button[type=submit]")
        page.wait_for_selector("[data-signup-sent]")
        assert sent_word in page.inner_text("[data-signup-sent]")
        [message] = inbox.to(email)
        found = re.search(r"(/t/test-open/signup/confirm/[0-9a-f]+/)", Inbox.text(message))
        assert found
        page.goto(live_server.url + found.group(1))
        page.click("main form button[type=submit]")
        page.wait_for_selector('[data-signup-state="registered"]')
    assert SignUp.objects.get(email=email).language == language
    page.goto(f"{live_server.url}/t/test-open/signup/registered/")
    assert f"{first} Suzuki" in page.inner_text("table")
    assert layout_problems(page) == []


@pytest.mark.parametrize(("language", "saved_word"), [("en", "is corrected"), ("ja", "修正しました")])
def test_an_organiser_corrects_a_sign_up_on_a_phone(
    new_context: Any, live_server: Any, language: str, saved_word: str
) -> None:
    tournament = Tournament.objects.create(
        name="Spring Open",
        slug="test-open",
        starts_on=date(2026, 5, 1),
        ends_on=date(2026, 5, 2),
        hanchan_count=5,
    )
    RegistrationSettings.objects.create(tournament=tournament, opens_at=timezone.now() - timedelta(hours=1))
    fields = {"last_name": "Suzuki", "first_name": "Kenji", "email": "kenji@example.org", "consent": True}
    made = signups.sign_up(tournament, fields, address="192.0.2.7", language=language)
    assert made is not None
    signups.confirm(tournament, signups.confirm_token(made))
    make_user("organiser", tournament, "organiser")
    page = new_context(viewport={"width": 390, "height": 844}, locale=language).new_page()
    log_in(page, live_server, "organiser", "pw-for-tests-only", "/t/test-open/manage/signups/")
    assert layout_problems(page) == []
    with page.expect_navigation():
        page.click(f"[data-edit-signup='{made.pk}']")
    form = f"form[data-signup-edit='{made.pk}']"
    assert page.input_value(f"{form} #id_email") == "kenji@example.org"
    page.fill(f"{form} #id_native_name", "鈴木 健二")
    page.fill(f"{form} #id_ema_id", "12345")
    assert layout_problems(page) == []
    with page.expect_navigation():
        page.click(f"{form} button[value=edit]")
    assert "12345" in page.inner_text(form)  # the refusal, shown in the form
    assert layout_problems(page) == []
    assert SignUp.objects.get().native_name == ""  # nothing stored half-way
    page.fill(f"{form} #id_ema_id", "04120003")
    with page.expect_navigation():
        page.click(f"{form} button[value=edit]")
    assert saved_word in page.inner_text(f"[data-signup-edited='{made.pk}']")
    assert layout_problems(page) == []
    stored = SignUp.objects.get()
    assert (stored.native_name, stored.ema_id) == ("鈴木 健二", "04120003")


# A field as sign-ups come: twelve places taken, two on the waiting list, one not confirmed yet, one
# cancelled; names from a dozen countries, some with their own script (last, first, own script, country,
# club).
FIELD = [
    ("Tanaka", "Aiko", "田中 愛子", "JP", "Tokyo Riichi Club"),
    ("Fischer", "Benedikt", "", "DE", "Mahjong Berlin e.V."),
    ("Martin", "Chloé", "", "FR", "Paris Riichi"),
    ("Ivanenko", "Dmytro", "Іваненко Дмитро", "UA", "Kyiv Mahjong"),
    ("van der Heijden-de Vries", "Pieter", "", "NL", ""),
    ("Rossi", "Elena", "", "IT", "Mahjong Milano"),
    ("Larsen", "Finn", "", "DK", "Copenhagen Riichi"),
    ("Kowalska", "Katarzyna", "", "PL", "Warszawa Riichi"),
    ("Silva", "Hugo", "", "PT", "Clube de Mahjong de Lisboa"),
    ("Novák", "Jan", "", "CZ", ""),
    ("Kim", "Minjun", "김민준", "KR", "Seoul Riichi"),
    ("García López", "Inés", "", "ES", "Riichi Madrid"),
    # the waiting list, in this order
    ("Nilsson", "Greta", "", "SE", ""),
    ("Yamamoto", "Haruto", "山本 陽翔", "JP", "Osaka Mahjong"),
]


LISBON = ZoneInfo("Europe/Lisbon")
# Each button of the sign-ups' table whole inside the table's box, which scrolls sideways: a button past
# its edge is hidden from an organiser who does not think to scroll the table.
BUTTONS_CUT = """() => {
  const box = document.querySelector("table.signups").closest(".table-wrap").getBoundingClientRect();
  return [...document.querySelectorAll("table.signups .row-form > *:not([type=hidden])")]
    .filter((el) => {
      const b = el.getBoundingClientRect();
      return b.right > box.right + 0.5 || b.left < box.left - 0.5;
    })
    .map((el) => el.innerText);
}"""

# Each word of a name in its own script on one line ("田中 愛子" may break at its space, never inside "愛子").
NAMES_BROKEN = """() => {
  const broken = [];
  const range = document.createRange();
  for (const name of document.querySelectorAll(".native-name")) {
    const text = name.firstChild;
    let at = 0;
    for (const word of text.textContent.split(" ")) {
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
      if (lines.size > 1) broken.push(word);
      at += word.length + 1;
    }
  }
  return broken;
}"""


def signup_field() -> None:
    """The Lisbon Riichi Open, its registration open (12 places, a waiting list, a fee) and the field
    above signed up and confirmed through the services; one more cancelled, one never confirmed, four
    paid; its organiser."""
    today = timezone.localdate()
    tournament = Tournament.objects.create(
        name="Lisbon Riichi Open",
        slug="lisbon-open",
        starts_on=today + timedelta(days=40),
        ends_on=today + timedelta(days=41),
        venue="Clube Naval de Lisboa",
        time_zone="Europe/Lisbon",
        hanchan_count=6,
    )
    RegistrationSettings.objects.create(
        tournament=tournament,
        opens_at=datetime.combine(today - timedelta(days=3), time(10), tzinfo=LISBON),
        closes_at=datetime.combine(today + timedelta(days=25), time(23, 59), tzinfo=LISBON),
        capacity=12,
        waiting_list=True,
        entry_fee="40 EUR, paid at the door",
        consent_text="My name, country, club and results are published on this site. The organisers keep "
        "my email until the results are sent to the EMA.",
    )
    organiser = make_user("organiser", tournament, "organiser")

    def signed(index: int, last: str, first: str, native: str, country: str, club: str) -> SignUp:
        fields = {
            "last_name": last,
            "first_name": first,
            "native_name": native,
            "country": country,
            "club": club,
            "email": f"player{index}@example.org",
            "consent": True,
        }
        made = signups.sign_up(tournament, fields, address=f"192.0.2.{index}", language="en")
        assert made is not None
        return made

    leaving = signed(0, "Petrova", "Olga", "Петрова Ольга", "BG", "")
    signups.confirm(tournament, signups.confirm_token(leaving))
    signups.cancel_by_player(tournament, signups.manage_token(leaving))
    for index, row in enumerate(FIELD, start=1):
        signups.confirm(tournament, signups.confirm_token(signed(index, *row)))
    signed(len(FIELD) + 1, "Oliveira", "Tiago", "", "BR", "")  # never confirmed
    for paid in SignUp.objects.filter(state="registered").order_by("pk")[:4]:
        signups.mark_paid(paid, organiser)


def test_a_player_joins_a_full_field_and_the_organiser_adds_places(
    new_context: Any, live_server: Any, screenshot: Any
) -> None:
    """The handbooks' pictures of registration (docs/handbook/organiser.md and player.md), each of what
    it shows asserted. On a phone: a player signs up to a full field, confirms from the email, and is
    third on the waiting list on their own page (by the link of the message that says so); the public
    list; the calendar of coming events; the form in Japanese. On a desktop: the organiser goes from the
    Manage page to the sign-ups and adds two places, which the first two in line take at once; the
    player, told by email, is first in line on their own page. Built once: the field, one browser
    context per size."""
    signup_field()
    url = live_server.url
    phone = new_context(viewport={"width": 390, "height": 844}, locale="en")
    page = phone.new_page()
    with smtp_server() as inbox:
        page.goto(f"{url}/t/lisbon-open/signup/")
        counts = page.inner_text("[data-signup-counts]")
        assert counts == "Registered: 12 · Places left: 0 · Waiting list: 2"
        assert "40 EUR, paid at the door" in page.inner_text("main")
        page.fill("#id_last_name", "Sato")
        page.fill("#id_first_name", "Yuki")
        page.fill("#id_native_name", "佐藤 由紀")
        page.select_option("#id_country", "JP")
        page.fill("#id_club", "Nagoya Riichi Kai")
        page.fill("#id_email", "yuki.sato@example.org")
        page.check("#id_consent")
        assert page.locator("#id_website").is_hidden()  # the field for robots
        assert layout_problems(page) == []
        screenshot(page, "signup-form")
        page.click("form.stacked button[type=submit]")
        page.wait_for_selector("[data-signup-sent]")
        [asked] = inbox.to("yuki.sato@example.org")
        found = re.search(r"(/t/lisbon-open/signup/confirm/[0-9a-f]+/)", Inbox.text(asked))
        assert found
        page.goto(url + found.group(1))
        page.click("main form button[type=submit]")
        page.wait_for_selector('[data-signup-state="waiting_list"]')
        told = inbox.to("yuki.sato@example.org")[1]
    text = Inbox.text(told)
    assert "you are number 3 on the waiting list" in text
    own = re.search(r"(/t/lisbon-open/signup/me/[0-9a-f]+/)", text)
    assert own
    page.goto(url + own.group(1))
    state = page.inner_text("[data-signup-state]")
    assert state == "State: waiting list · number 3 on the waiting list"
    assert page.get_by_role("button", name="Cancel my sign-up").is_visible()
    assert layout_problems(page) == []
    screenshot(page, "signup-own-waiting-list")

    page.goto(f"{url}/t/lisbon-open/signup/registered/")
    rows = page.locator("table tbody tr")
    assert rows.count() == 12
    assert "Aiko Tanaka 田中 愛子" in page.inner_text("table")
    assert "Yuki Sato" not in page.inner_text("table") and "Olga" not in page.inner_text("table")
    assert page.inner_text("[data-signup-counts]") == "Registered: 12 · Places left: 0 · Waiting list: 3"
    assert layout_problems(page) == []
    assert page.evaluate(NAMES_BROKEN) == []
    screenshot(page, "signup-registered")

    page.goto(f"{url}/")
    card = page.locator("[data-calendar] [data-event]")
    assert "Full: waiting list" in card.inner_text() and "Europe/Lisbon" in card.inner_text()
    assert card.get_by_role("link", name="Sign up").is_visible()
    assert layout_problems(page) == []
    screenshot(page, "signup-calendar")

    phone.add_cookies([{"name": "django_language", "value": "ja", "url": url}])
    page.goto(f"{url}/t/lisbon-open/signup/")
    assert page.inner_text("h1") == "申し込む"
    page.fill("#id_last_name", "Suzuki")
    page.fill("#id_first_name", "Kenji")
    page.fill("#id_native_name", "鈴木 健二")
    page.select_option("#id_country", "JP")
    page.fill("#id_email", "kenji.suzuki@example.org")
    page.check("#id_consent")
    assert layout_problems(page) == []
    screenshot(page, "signup-form-ja")

    desk = new_context(viewport={"width": 1366, "height": 768}, locale="en").new_page()
    log_in(desk, live_server, "organiser", "pw-for-tests-only", "/t/lisbon-open/manage/")
    with desk.expect_navigation():
        desk.click("[data-signups-link]")
    assert desk.url.endswith("/t/lisbon-open/manage/signups/")
    desk.click("#registration-settings summary")
    desk.fill("#id_capacity", "14")
    with desk.expect_navigation():
        desk.click("button[value=settings]")
    assert desk.locator("[data-settings-saved]").is_visible()
    assert desk.inner_text("[data-signup-counts]") == "Registered: 14 · Places left: 0 · Waiting list: 1"
    by_state = dict(SignUp.objects.values_list("last_name", "state"))
    assert (by_state["Nilsson"], by_state["Yamamoto"], by_state["Sato"]) == (
        "registered",
        "registered",
        "waiting_list",
    )
    assert "Japan: 3" in desk.inner_text("main")
    assert layout_problems(desk) == []
    assert desk.evaluate(BUTTONS_CUT) == []
    assert desk.evaluate(NAMES_BROKEN) == []
    screenshot(desk, "signup-organiser")

    # first in line now: told by email (the test's SMTP server is gone: Django's test outbox), and their page
    [first] = [m for m in mail.outbox if m.to == ["yuki.sato@example.org"]]
    assert "you are number 1 on the waiting list" in first.body
    page.goto(url + own.group(1))
    assert page.inner_text("[data-signup-state]") == "状態: キャンセル待ち · キャンセル待ち 1 番目"
