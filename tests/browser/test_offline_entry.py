"""The score sheet on a phone at the table: a typical hanchan in few taps and at most two screen heights,
the result switch that keeps what applies, undo of a removed hand, and an entry that survives the
network going away (kept on the phone, the page opened by the service worker, sent exactly once when
the network is back)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services as sheets
from scoring.models import ScoreSheet, SheetVersion, SubmissionKey
from tests.browser.conftest import PHONE, log_in, wait_for_path
from tests.browser.test_content_security import watch
from tests.conftest import make_user
from tests.scoring import hanchan
from tournament.models import Player, Table, Tournament
from tournament.services import player_login

PASSWORD = "pw-for-tests-only"
SHEET = "/t/harbour-open/sheet/1/1/"
MY_TABLES = "/t/harbour-open/referee/"
# The targets of the phone form: a typical 11-hand hanchan in at most 35 taps and two screen heights.
MAX_TAPS = 35
MAX_HEIGHT = 2 * PHONE["height"]
SETTLE_SECONDS = 4  # static/js/sheet.js: a hanchan found over folds after the hands are left alone this long
# When the referee last touched the hands, and when the last hand folded (the page's own clock).
WATCH_THE_FOLD = """(number) => {
  const hands = document.querySelector("[data-hands]");
  for (const kind of ["pointerdown", "keydown", "input"]) {
    hands.addEventListener(kind, () => { window.lastTouched = performance.now(); }, true);
  }
  new MutationObserver(() => {
    const last = hands.querySelector(`[data-hand="${number}"]`);
    if (window.foldedAt === undefined && last && last.classList.contains("folded")) {
      window.foldedAt = performance.now();
    }
  }).observe(hands, { attributes: true, subtree: true, attributeFilter: ["class"] });
}"""


class Taps:
    """Every tap the referee makes, counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.count = 0
        self.tallest = 0

    def __call__(self, locator: Any) -> None:
        locator.click()
        self.count += 1
        self.tallest = max(self.tallest, self.height())

    def height(self) -> int:
        return int(self.page.evaluate("document.documentElement.scrollHeight"))


def enter(tap: Taps, hand: Any, outcome: dict[str, Any]) -> None:
    """One hand of ``tests.scoring.hanchan.OUTCOMES``, as a referee taps it."""
    result = outcome.get("result")
    if result in ("ron", "tsumo"):
        source = outcome["loser"] if result == "ron" else "tsumo"
        tap(hand.locator(f'[data-win="{outcome["winner"]}|{source}"]'))
        tap(hand.get_by_label(f"{outcome['han']} han", exact=True))
        if outcome["han"] < 5 and outcome["fu"] != 30:  # 30 fu is already chosen
            tap(hand.get_by_label(f"{outcome['fu']} fu", exact=True))
    elif result == "draw":
        tap(hand.get_by_label("Exhaustive draw"))
        for name in outcome["tenpai"]:
            tap(hand.get_by_role("group", name="Tenpai").get_by_role("button", name=name))
    elif result == "chombo":
        tap(hand.get_by_label("Chombo", exact=True))
        tap(hand.get_by_label(f"{outcome['offender']} (offender)"))
    for name in outcome.get("riichi", []):
        tap(hand.get_by_role("group", name="Riichi").get_by_role("button", name=name))


def open_sheet(new_context: Any, live_server: Any, **options: Any) -> tuple[Any, Any]:
    context = new_context(viewport=PHONE, has_touch=True, **{"service_workers": "allow", **options})
    page = context.new_page()
    log_in(page, live_server, "referee", PASSWORD, SHEET)
    return context, page


def kept_by_service_worker(page: Any, path: str) -> None:
    """Wait until the service worker holds a copy of the page at ``path``."""
    script = "async (p) => !!(await caches.match(new URL(p, location.href).href, {ignoreVary: true}))"
    deadline = time.monotonic() + 15
    while not page.evaluate(script, path):
        assert time.monotonic() < deadline, f"the service worker did not keep {path}"
        page.wait_for_timeout(200)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_typical_hanchan_takes_few_taps_and_two_screen_heights(
    new_context: Any, live_server: Any, open_table: Table, screenshot: Any
) -> None:
    _, page = open_sheet(new_context, live_server)
    violations = watch(page)
    page.reload()
    page.evaluate(WATCH_THE_FOLD, len(hanchan.OUTCOMES))
    tap = Taps(page)
    for number, outcome in enumerate(hanchan.OUTCOMES, start=1):
        enter(tap, page.locator(f'[data-hand="{number}"]'), outcome)
    expect(page.locator("[data-verdict]")).to_have_text("The rules engine accepts this sheet.")
    # The hanchan is over: the hands fold into their lines, the one that ended it too, but only once they
    # have been left alone for the settling time (timers fire late on a loaded machine, never early).
    last = page.locator(f'[data-hand="{len(hanchan.OUTCOMES)}"]')
    expect(last).to_have_class(re.compile(r"\bfolded\b"), timeout=20_000)
    settled = page.evaluate("() => window.foldedAt - window.lastTouched")
    assert settled >= SETTLE_SECONDS * 1000 - 50, settled
    height = tap.height()
    screenshot(page, "referee-sheet-hanchan")
    tap(page.get_by_role("button", name="Submit", exact=True))
    expect(page.locator(".messages")).to_contain_text("Submitted (version 1)")
    sheet = ScoreSheet.objects.get(table=open_table)
    assert sheet.entry["hands"] == hanchan.OUTCOMES
    assert sheet.replay["final_points"] == hanchan.FINAL_POINTS
    print(
        f"\nphone form: {len(hanchan.OUTCOMES)} hands, {tap.count} taps, page {height} px at the end "
        f"(tallest while entering {tap.tallest} px; screen {PHONE['height']} px)"
    )
    assert tap.count <= MAX_TAPS
    assert height <= MAX_HEIGHT
    assert violations == [], "\n".join(violations)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_switching_ron_and_tsumo_keeps_the_fields_and_the_result_comes_first(
    new_context: Any, live_server: Any, open_table: Table
) -> None:
    _, page = open_sheet(new_context, live_server)
    hand = page.locator('[data-hand="1"]')
    hand.locator('[data-win="Ben|Cho"]').click()
    hand.get_by_label("3 han", exact=True).click()
    hand.get_by_label("40 fu", exact=True).click()
    hand.get_by_role("group", name="Riichi").get_by_role("button", name="Ana").click()

    hand.get_by_label("Tsumo", exact=True).click()
    expect(hand.locator('[data-win="Ben|tsumo"]')).to_be_checked()
    expect(hand.get_by_label("3 han", exact=True)).to_be_checked()
    expect(hand.get_by_label("40 fu", exact=True)).to_be_checked()
    expect(hand.get_by_role("group", name="Riichi").get_by_role("button", name="Ana")).to_have_attribute(
        "aria-pressed", "true"
    )
    hand.get_by_label("Ron", exact=True).click()
    expect(hand.locator('[data-win="Ben|Cho"]')).to_be_checked()  # the discarder came back too
    expect(hand.get_by_label("40 fu", exact=True)).to_be_checked()
    hand.get_by_label("Exhaustive draw").click()
    expect(hand.get_by_role("group", name="Riichi").get_by_role("button", name="Ana")).to_have_attribute(
        "aria-pressed", "true"
    )

    # Keyboard order follows the eye: the result first, Remove last; every control is labelled.
    order = hand.evaluate(
        """card => Array.from(card.querySelectorAll('input, select, button, textarea, summary'))
             .filter(n => n.offsetParent !== null).map(n => n.dataset.resultChoice ? 'result'
             : n.classList.contains('remove') ? 'remove' : 'other')"""
    )
    assert order[0] == "result" and order[-1] == "remove", order
    unlabelled = page.evaluate(
        """() => Array.from(document.querySelectorAll('[data-sheet-editor] input:not([type=hidden]), '
             + '[data-sheet-editor] select, [data-sheet-editor] button'))
             .filter(n => !(n.labels && n.labels.length) && !n.getAttribute('aria-label')
                          && !n.textContent.trim()).map(n => n.outerHTML)"""
    )
    assert unlabelled == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_removed_hand_comes_back_with_undo(new_context: Any, live_server: Any, open_table: Table) -> None:
    _, page = open_sheet(new_context, live_server)
    tap = Taps(page)
    for number, outcome in enumerate(hanchan.OUTCOMES[:3], start=1):
        enter(tap, page.locator(f'[data-hand="{number}"]'), outcome)
    expect(page.locator('[data-hand="3"] [data-running]')).to_contain_text("Ana 31,200")
    first = page.locator('[data-hand="1"]')
    summary = first.locator("[data-hand-summary]")
    expect(summary).to_contain_text("Ron: Ben from Cho, 2 han 30 fu")
    summary.click()  # a folded hand opens with one tap
    page.on("dialog", lambda dialog: pytest.fail(f"no confirmation dialog expected: {dialog.message}"))
    first.get_by_role("button", name="Remove hand 1").click()
    expect(page.locator("[data-undo]")).to_contain_text("Hand 1 removed.")
    expect(page.locator('[data-hand="1"]')).not_to_contain_text("Ben from Cho")
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("[data-undo]")).to_be_hidden()
    expect(page.locator('[data-hand="1"] [data-win="Ben|Cho"]')).to_be_checked()
    expect(page.locator('[data-hand="1"]').get_by_label("2 han", exact=True)).to_be_checked()
    expect(page.locator('[data-hand="3"] [data-running]')).to_contain_text("Ana 31,200")
    page.get_by_role("button", name="Save draft").click()
    expect(page.locator("[data-save-status]")).to_have_text("Saved (version 1)")
    assert ScoreSheet.objects.get(table=open_table).entry["hands"] == hanchan.OUTCOMES[:3]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_entry_survives_the_network_going_away_and_is_sent_once(
    new_context: Any, live_server: Any, open_table: Table, screenshot: Any
) -> None:
    context, page = open_sheet(new_context, live_server)
    violations = watch(page)
    page.goto(live_server.url + MY_TABLES)
    kept_by_service_worker(page, MY_TABLES)
    page.goto(live_server.url + SHEET)
    kept_by_service_worker(page, SHEET)
    status = page.locator("[data-save-status]")
    expect(status).to_have_text("Nothing entered yet")

    enter(Taps(page), page.locator('[data-hand="1"]'), hanchan.OUTCOMES[0])
    expect(status).to_have_text("Saved on this phone, not sent")
    context.set_offline(True)
    enter(Taps(page), page.locator('[data-hand="2"]'), hanchan.OUTCOMES[1])
    page.get_by_role("button", name="Save draft").click()
    # Said once the save is stored on the phone: the page reloaded at once still has it to send.
    expect(status).to_contain_text("no network")
    screenshot(page, "referee-sheet-offline")
    # Chromium's offline emulation sometimes lets a request the page saw fail reach the server anyway:
    # an answer lost on the way, which the Idempotency-Key settles (see the test after this one).

    # The server's page changes meanwhile; the phone, offline, opens its own copy of the page.
    Table.objects.filter(pk=open_table.pk).update(extra_minutes=5)
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator("main")).not_to_contain_text("+5 min for this table")
    expect(status).to_contain_text("Restored from this phone")
    expect(page.locator('[data-hand="1"] [data-hand-summary]')).to_contain_text("Ben from Cho")
    expect(page.locator('[data-hand="2"]')).to_contain_text("Tsumo")
    page.goto(live_server.url + MY_TABLES)  # the referee's tables open offline too
    expect(page.get_by_role("link", name="Enter the sheet")).to_be_visible()
    page.go_back()
    expect(status).to_contain_text("Restored from this phone")

    context.set_offline(False)  # the network is back: the pending save goes, once
    expect(status).to_have_text("Saved (version 1)", timeout=15_000)
    page.wait_for_timeout(2500)  # a retry timer or a second "online" must not save again
    sheet = ScoreSheet.objects.get(table=open_table)
    assert sheet.entry["hands"] == hanchan.OUTCOMES[:2]
    assert SheetVersion.objects.filter(sheet=sheet).count() == 1
    assert SubmissionKey.objects.count() == 1

    page.reload()  # online: the server's page, the phone's copy gone
    expect(page.locator("main")).to_contain_text("+5 min for this table")
    expect(status).to_have_text("Saved (version 1)")
    assert violations == [], "\n".join(violations)

    # Signing out forgets every page kept on the phone: the next user cannot open them offline.
    page.get_by_role("button", name="Menu").click()  # a phone: the account is in the header's menu
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(live_server.url + "/")
    kept = "async () => (await (await caches.open('riichi-pages-v2')).keys()).map(r => r.url)"
    deadline = time.monotonic() + 10
    while any("/referee/" in url or "/sheet/" in url for url in page.evaluate(kept)):
        assert time.monotonic() < deadline, page.evaluate(kept)
        page.wait_for_timeout(200)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_answer_lost_on_the_way_is_retried_and_not_saved_twice(
    new_context: Any, live_server: Any, open_table: Table
) -> None:
    context, page = open_sheet(new_context, live_server, service_workers="block")
    keys: list[str] = []

    def lose_the_first_answer(route: Any) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            route.fetch()  # the server saves ...
            route.abort("connectionreset")  # ... and the phone never hears back
        else:
            route.continue_()

    context.route("**/save.json", lose_the_first_answer)
    enter(Taps(page), page.locator('[data-hand="1"]'), hanchan.OUTCOMES[0])
    page.get_by_role("button", name="Save draft").click()
    status = page.locator("[data-save-status]")
    expect(status).to_have_text("Saved (version 1)", timeout=15_000)  # the retry, 2 s later
    assert len(keys) == 2 and keys[0] == keys[1]
    assert SheetVersion.objects.filter(sheet__table=open_table).count() == 1
    assert SubmissionKey.objects.count() == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_stale_save_shows_the_conflict_and_keeps_the_phones_entry(
    new_context: Any, live_server: Any, open_table: Table
) -> None:
    _, page = open_sheet(new_context, live_server)
    enter(Taps(page), page.locator('[data-hand="1"]'), hanchan.OUTCOMES[0])
    other = make_user("referee2", open_table.round.tournament, "referee")
    sheets.save_sheet(open_table, hanchan.entry("final"), other)  # another referee saved meanwhile
    page.get_by_role("button", name="Save draft").click()
    status = page.locator("[data-save-status]")
    expect(status).to_contain_text("Conflict, not saved")
    expect(page.get_by_role("button", name="Save mine over it")).to_be_visible()
    page.reload()
    expect(status).to_contain_text("made before the sheet was first saved; the sheet is now at version 1")
    expect(page.locator('[data-hand="1"]')).to_contain_text("Ben from Cho")
    # The save's answer is waited for as an event (a loaded machine may take longer than the 5 s of
    # expect), then what the page says of it.
    # (The save's own request: the rules check that the reload sends is a POST too.)
    with page.expect_response(lambda response: response.url.endswith("/save.json")) as answer:
        page.get_by_role("button", name="Save mine over it").click()
    assert answer.value.ok
    expect(status).to_have_text("Saved (version 2)")
    assert ScoreSheet.objects.get(table=open_table).entry["hands"] == hanchan.OUTCOMES[:1]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_rules_refusal_is_shown_and_not_retried(
    new_context: Any, live_server: Any, open_table: Table
) -> None:
    _, page = open_sheet(new_context, live_server)
    enter(Taps(page), page.locator('[data-hand="1"]'), hanchan.OUTCOMES[0])
    page.get_by_role("button", name="Submit", exact=True).click()  # one hand is not a whole hanchan
    status = page.locator("[data-save-status]")
    expect(status).to_contain_text("Not sent: the hanchan is not over")
    page.wait_for_timeout(3000)  # longer than the first retry interval
    assert SubmissionKey.objects.count() == 1
    assert not ScoreSheet.objects.exists()
    expect(status).to_contain_text("Not sent: the hanchan is not over")
    page.reload()  # the entry is still on the phone
    expect(status).to_contain_text("Restored from this phone")
    expect(page.locator('[data-hand="1"] [data-win="Ben|Cho"]')).to_be_checked()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_correction_still_posts_its_form(new_context: Any, live_server: Any, open_table: Table) -> None:
    referee = open_table.round.tournament.staff.get(user__username="referee").user
    entry = {"form": "hands", "hands": hanchan.OUTCOMES}
    sheets.sign_sheet(sheets.save_sheet(open_table, entry, referee, submit=True), referee)
    make_user("head", open_table.round.tournament, "head_referee")
    page = new_context(viewport=PHONE, has_touch=True, service_workers="allow").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # The first verdict (the hanchan is over) arrives only after the head referee opened hand 11, as on a
    # slow network: the hand stays open under their finger.
    held: list[Any] = []
    page.route("**/check.json", lambda route: held.append(route))
    log_in(page, live_server, "head", PASSWORD, SHEET + "correct/")
    last = page.locator('[data-hand="11"]')
    last.locator("[data-hand-summary]").click()
    page.wait_for_timeout(100)
    assert held, "the page asked for its first verdict"
    for route in held:
        route.continue_()
    page.unroute("**/check.json")
    expect(page.locator("[data-verdict]")).to_have_text("The rules engine accepts this sheet.")
    last.get_by_label("2 han", exact=True).click()  # Ana's 1 han was 2 han
    expect(page.locator("[data-verdict]")).to_have_text("The rules engine accepts this sheet.")
    page.get_by_label("Reason").fill("Ana had dora")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".messages")).to_contain_text("Corrected.")
    sheet = ScoreSheet.objects.get(table=open_table)
    assert sheet.version == 2 and sheet.entry["hands"][10]["han"] == 2
    assert errors == []


KEPT = "async () => (await (await caches.open('riichi-pages-v2')).keys()).map(r => new URL(r.url).pathname)"


def forgotten(page: Any, path: str) -> None:
    """Wait until the phone's copy of the page at ``path`` is gone."""
    deadline = time.monotonic() + 10
    while path in page.evaluate(KEPT):
        assert time.monotonic() < deadline, f"{path} is still kept: {page.evaluate(KEPT)}"
        page.wait_for_timeout(100)


def pin_sign_in(page: Any, live_server: Any, name: str, pin: str) -> None:
    page.goto(live_server.url + "/t/harbour-open/me/")
    page.get_by_label("Your name").select_option(label=name)
    page.get_by_label("PIN").fill(pin)
    page.get_by_role("button", name="Sign in").click()
    wait_for_path(page, "*/players/*/")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_no_page_of_a_session_outlives_it_on_a_shared_phone(
    new_context: Any, live_server: Any, open_table: Table
) -> None:
    """A player's sign-out, another person's sign-in, an expired session and the admin's sign-out each
    leave no page of the person before them on the phone (the site's sign-out: the test above); only the
    pages the offline entry needs are kept at all."""
    from django.contrib.sessions.models import Session

    tournament = open_table.round.tournament
    tournament.entry_mode = Tournament.EntryMode.PLAYERS
    tournament.save()
    organiser = make_user("organiser", tournament, "organiser")
    organiser.is_staff = organiser.is_superuser = True
    organiser.save()
    pins = {
        name: player_login.issue_for_player(Player.objects.get(name=name), organiser).pin
        for name in ("Ana", "Ben")
    }
    context = new_context(viewport=PHONE, has_touch=True, service_workers="allow")
    page = context.new_page()

    # A player signs out.
    pin_sign_in(page, live_server, "Ana", pins["Ana"])
    page.goto(live_server.url + SHEET)
    kept_by_service_worker(page, SHEET)
    page.goto(live_server.url + "/t/harbour-open/me/")
    with page.expect_navigation():  # from /me/ back to /me/: the path alone cannot tell
        page.get_by_role("button", name="Sign out").click()
    forgotten(page, SHEET)

    # Another player signs in on the same phone, the first never having signed out.
    pin_sign_in(page, live_server, "Ana", pins["Ana"])
    page.goto(live_server.url + SHEET)
    kept_by_service_worker(page, SHEET)
    pin_sign_in(page, live_server, "Ben", pins["Ben"])
    forgotten(page, SHEET)

    # The session expires (here: the server forgets it); the next page the phone opens says so.
    page.goto(live_server.url + SHEET)
    kept_by_service_worker(page, SHEET)
    Session.objects.all().delete()
    page.goto(live_server.url + "/t/harbour-open/standings/")
    forgotten(page, SHEET)
    context.set_offline(True)
    offline = page.goto(live_server.url + SHEET)
    assert offline is not None and offline.status == 503  # "this page was not opened on this device"
    context.set_offline(False)

    # The admin signs out; an organiser's page is never kept at all.
    page.goto(live_server.url + "/admin/login/?next=/admin/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    wait_for_path(page, "/admin/")
    page.goto(live_server.url + MY_TABLES)
    kept_by_service_worker(page, MY_TABLES)
    page.goto(live_server.url + "/t/harbour-open/manage/")
    page.goto(live_server.url + MY_TABLES)
    kept_by_service_worker(page, MY_TABLES)
    assert "/t/harbour-open/manage/" not in page.evaluate(KEPT)
    page.goto(live_server.url + "/admin/")
    with page.expect_navigation():
        page.get_by_role("button", name="Log out").click()
    page.get_by_role("button", name="Menu").click()  # a phone: the account is in the header's menu
    expect(page.get_by_role("link", name="Staff sign in")).to_be_visible()  # signed out
    forgotten(page, MY_TABLES)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_draft_with_a_refused_hand_is_saved_and_the_badge_says_so_without_a_reload(
    new_context: Any, live_server: Any, open_table: Table
) -> None:
    """A draft is a draft: one the rules engine refuses is kept on the server with its problems (not on
    this phone only), the page's badge and version say so at once; only submitting it is refused."""
    _, page = open_sheet(new_context, live_server)
    badge = page.locator("[data-sheet-badge]")
    expect(badge).to_have_text("no sheet yet")
    expect(page.locator("[data-sheet-version-line]")).to_be_hidden()
    page.evaluate("window.notReloaded = true")
    hand = page.locator('[data-hand="1"]')
    enter(Taps(page), hand, {"result": "ron", "winner": "Ben", "loser": "Cho", "han": 1, "fu": 20})
    expect(hand).to_contain_text("20 fu")  # the problem, under its hand
    with page.expect_response(lambda response: response.url.endswith("/save.json")) as answer:
        page.get_by_role("button", name="Save draft").click()
    assert answer.value.ok
    status = page.locator("[data-save-status]")
    expect(status).to_have_text("Saved (version 1)")
    expect(badge).to_have_text("Draft")
    expect(badge).to_have_class("badge draft")
    expect(page.locator("[data-sheet-version-line]")).to_be_visible()
    expect(page.locator("[data-sheet-version]")).to_have_text("1")
    assert page.evaluate("window.notReloaded") is True
    sheet = ScoreSheet.objects.get(table=open_table)
    assert (sheet.status, sheet.version, sheet.replay["valid"]) == ("draft", 1, False)
    assert sheet.entry["hands"][0]["fu"] == 20
    page.get_by_role("button", name="Submit", exact=True).click()
    expect(status).to_contain_text("Not sent:")
    expect(status).to_contain_text("20 fu")
    expect(badge).to_have_text("Draft")
    sheet.refresh_from_db()
    assert (sheet.status, sheet.version) == ("draft", 1)
    page.reload()  # the problems are the server's now, shown again from its draft
    expect(page.locator('[data-hand="1"]')).to_contain_text("20 fu")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_chombo_asks_who_made_it_and_who_had_declared_riichi_in_two_named_groups(
    new_context: Any, live_server: Any, open_table: Table
) -> None:
    """The chombo hand's two rows of the same four names are two fieldsets whose legends say what each
    asks, read by a screen reader as the groups' names and shown above their chips."""
    _, page = open_sheet(new_context, live_server)
    hand = page.locator('[data-hand="1"]')
    hand.get_by_label("Chombo", exact=True).click()
    offender = hand.get_by_role("group", name="Who made the chombo", exact=True)
    riichi = hand.get_by_role("group", name="Riichi declared this hand", exact=True)
    for group in (offender, riichi):
        expect(group).to_be_visible()
        expect(group.locator("legend")).to_be_visible()
    expect(offender.get_by_role("radio")).to_have_count(4)
    expect(riichi.get_by_role("button")).to_have_count(4)
    assert riichi.get_by_role("group").count() == 0  # one name for the group, not a second inside it
    # Each legend on a line of its own, above its chips.
    # Both boxes read in one call: the page may scroll between two (a box is relative to the viewport).
    for group in (offender, riichi):
        legend_bottom, chips_top = group.evaluate(
            "g => [g.querySelector('legend').getBoundingClientRect().bottom,"
            " g.querySelector('.chips').getBoundingClientRect().top]"
        )
        assert legend_bottom <= chips_top + 1, (legend_bottom, chips_top)
    offender.get_by_label("Cho (offender)").click()
    riichi.get_by_role("button", name="Ana", exact=True).click()
    expect(page.locator("[data-verdict]")).not_to_have_class(re.compile(r"\bwait\b"))
    entry = page.locator("[data-entry]").input_value()
    assert '"offender":"Cho"' in entry and '"riichi":["Ana"]' in entry, entry
