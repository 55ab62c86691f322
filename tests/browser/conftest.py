"""Browser tests: Playwright for Python driving Debian's Chromium against pytest-django's live server:
its headless shell (``chromium-headless-shell``, installed by ``make test`` through
scripts/ensure-services.sh; no browser is downloaded), the same engine as the desktop browser without the
browser around it, or Debian's ``chromium`` where the shell is not installed. Screenshots of the main
pages go to tests/artifacts/screenshots/ for people to look at when the run asks for them (``SCREENSHOTS=en``
or ``1``: ``shots_wanted``); the everyday run takes none.
"""

from __future__ import annotations

import fnmatch
import os
import threading
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.db import connection
from playwright.sync_api import expect

from tests.conftest import make_user, seat_table
from tournament.models import Player, Round, Table, Tournament

# Playwright's sync API runs an event loop in this thread; the ORM calls of the tests are still
# synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# The headless shell first: a browser context opens for a third of the desktop browser's CPU, and the
# browser tests take about half of it (docs/testing.md).
CHROMIUM_BUILDS = [Path("/usr/bin/chromium-headless-shell"), Path("/usr/bin/chromium")]
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"
# A wait on the page (a text, a class, a page loaded after a form is posted) ends as soon as the page gets
# there; its limit is only for a page that never does. Playwright's 5 s is too short for a machine under
# load, where a posted form's answer waits behind other work (a Submit once took longer at load 25).
expect.set_options(timeout=20_000)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def chromium_executable() -> Path:
    """Debian's headless shell, or its desktop Chromium where the shell is missing."""
    for path in CHROMIUM_BUILDS:
        if path.exists():
            return path
    pytest.fail("browser tests need Debian's chromium-headless-shell or chromium: run them with `make test`")


class Chromium:
    """This process's Chromium, started by the first browser test of a run of them and stopped after the
    last (``pytest_runtest_teardown``): one launch per run of browser tests, not one per module. While it
    lives, Playwright's sync API keeps an event loop running in this thread, and Django's test client
    refuses to call an async view (the live stream) from a thread with a running loop; so a test that a
    worker runs after browser tests (in whatever order pytest-xdist hands them out) must find none."""

    playwright: Any = None
    browser: Any = None

    @classmethod
    def started(cls) -> Any:
        if cls.browser is None:
            executable = chromium_executable()
            from playwright.sync_api import sync_playwright

            cls.playwright = sync_playwright().start()
            cls.browser = cls.playwright.chromium.launch(
                executable_path=str(executable), headless=True, args=CHROMIUM_ARGS
            )
        return cls.browser

    @classmethod
    def stop(cls) -> None:
        if cls.playwright is not None:
            try:
                cls.browser.close()
            finally:
                cls.playwright.stop()
                cls.playwright = cls.browser = None


@pytest.fixture
def browser() -> Any:
    return Chromium.started()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After the test's own teardown (its browser contexts closed): the last browser test before a test
    of another folder, or before the end of the worker's queue, stops Chromium."""
    if nextitem is None or nextitem.path.parent != item.path.parent:
        Chromium.stop()


@pytest.fixture
def new_context(browser: Any, transactional_db: None) -> Iterator[Any]:
    """Browser contexts (each a fresh profile) closed when the test ends, before its data goes: no
    page keeps polling a server whose tournament is gone. The site's service worker is left out (its
    install fetches every static file again for each fresh profile) unless a test asks for it
    (``service_workers="allow"``: the tests of the offline entry and of sessions on a shared phone)."""
    opened: list[Any] = []

    def make(**options: Any) -> Any:
        context = browser.new_context(**{"service_workers": "block", **options})
        opened.append(context)
        return context

    yield make
    for context in opened:
        context.close()
    server_let_go()


# Locks on this database's tables held by another connection: a live-server thread still answering a
# request the closed page had sent.
OTHERS_LOCKS = """
    SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
    WHERE a.datname = current_database() AND l.pid <> pg_backend_pid() AND l.locktype = 'relation'
"""


def answering_requests() -> list[threading.Thread]:
    """The live server's threads still answering a request (socketserver names each after its target)."""
    return [
        thread
        for thread in threading.enumerate()
        if thread.is_alive() and "process_request_thread" in thread.name
    ]


def server_let_go(timeout: float = 60.0) -> None:
    """Waits until the live server has answered every request the closed pages had sent, and no other
    connection holds a lock on the test database's tables: a request left in flight would otherwise go on
    after the test, its work (a rating list computed for a page and remembered in the cache, a task run in
    process) committed into the next test's database or cache, and the flush after the test (which takes
    every table) could deadlock with it. A request still answering after ``timeout`` fails the test that
    sent it, rather than a later test that reads what it leaves."""
    deadline = time.monotonic() + timeout
    while answering_requests():
        if time.monotonic() > deadline:
            pytest.fail(
                f"the live server still answers {len(answering_requests())} request(s) {timeout:.0f} s "
                "after the test's pages were closed"
            )
        time.sleep(0.02)
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        while True:
            cursor.execute(OTHERS_LOCKS)
            if cursor.fetchone()[0] == 0:
                return
            if time.monotonic() > deadline:
                pytest.fail(
                    f"another connection still holds a lock on the test database {timeout:.0f} s after "
                    "the test's pages were closed"
                )
            time.sleep(0.02)


def shots_wanted(language: str = "en") -> bool:
    """Whether this run takes screenshots in ``language``: ``SCREENSHOTS=1`` in every language,
    ``SCREENSHOTS=en`` (or ``en,ja``) in those (``make handbook`` takes English); the everyday run takes
    none, as a picture is for a person to open and asserts nothing (docs/testing.md)."""
    wanted = os.environ.get("SCREENSHOTS", "")
    return wanted == "1" or language in wanted.split(",")


def shoot(page: Any, path: Path, *, language: str = "en", **options: Any) -> None:
    """``page.screenshot(path=path, **options)`` (a page or a locator) when the run takes screenshots in
    ``language`` (``shots_wanted``)."""
    if shots_wanted(language):
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), **options)


@pytest.fixture
def screenshot() -> Any:
    """``screenshot(page, name)``: the page (whole, unless ``full_page=False``) in
    tests/artifacts/screenshots/, when the run takes English screenshots (``shots_wanted``)."""

    def take(page: Any, name: str, *, full_page: bool = True) -> None:
        if not shots_wanted():
            return
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        page.evaluate("window.scrollTo(0, 0)")
        if not full_page:
            page.screenshot(path=str(path))
            return
        # The whole page on a screen as tall as the page: sticky bars sit where they belong.
        size = page.viewport_size
        height = page.evaluate("document.documentElement.scrollHeight")
        page.set_viewport_size({"width": size["width"], "height": max(height, size["height"])})
        page.screenshot(path=str(path))
        page.set_viewport_size(size)

    return take


def log_in(page: Any, live_server: Any, username: str, password: str, next_path: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={next_path}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit].primary")
    wait_for_path(page, next_path)


def wait_for_path(page: Any, pattern: str) -> None:
    """Until the page's path (its query left out) matches ``pattern`` (fnmatch). A URL glob such as
    ``**/admin/`` would also match the sign-in page itself, ``/admin/login/?next=/admin/``, and return before
    the sign-in has been answered."""
    page.wait_for_url(lambda url: fnmatch.fnmatchcase(urlsplit(url).path, pattern))


def wait_until(page: Any, expression: str, timeout: float = 5.0) -> None:
    """Until ``expression`` is true in the page. Evaluated from outside the page (each call a DevTools
    evaluation), not by Playwright's ``wait_for_function``, whose polling compiles the expression inside
    the page: ``eval``, which the site's content security policy rightly refuses."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(f"() => Boolean({expression})"):
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout} s: {expression}")
        page.wait_for_timeout(50)


NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def drawn_after(page: Any, url_end: str, action: Any, *args: Any) -> Any:
    """Runs ``action(*args)`` (a navigation, or the page's clock moved on), waits for the answer to the
    fetch of the URL ending in ``url_end`` that it causes, and for the page to draw it; returns what
    ``action`` returned."""
    with page.expect_response(lambda response: response.url.split("?")[0].endswith(url_end)) as answer:
        result = action(*args)
    answer.value.finished()
    page.evaluate(NEXT_FRAME)
    return result


# What a person sees wrong on a small screen, measured in the page (``layout_problems``): the document
# wider than the screen; a tap target (button, field, tab) smaller than 24 x 24 px (WCAG 2.2, 2.5.8),
# past the screen's edge, overlapping another or covering a text; a text cut by its box (an ellipsis,
# or text wider than a box that hides what overflows); a word broken in the middle over two lines. Inline
# links inside sentences are exempt from the size, as WCAG exempts them.
LAYOUT_PROBLEMS = """() => {
  const problems = [];
  const screen = document.documentElement.clientWidth;
  if (document.scrollingElement.scrollWidth > screen) {
    problems.push(`the page is ${document.scrollingElement.scrollWidth} px wide on a ${screen} px screen`);
  }
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    // The content of a closed <details> keeps its boxes in Chromium, but nobody sees it.
    const folded = el.closest("details:not([open]) > :not(summary)");
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && !el.closest("[hidden]")
      && !folded;
  };
  const label = (el) => (el.innerText || el.value || el.getAttribute("aria-label") || el.name || el.tagName)
    .trim().replace(/\\s+/g, " ").slice(0, 40);
  const targets = [...document.querySelectorAll(
    "button, select, textarea, input:not([type=hidden]), nav a, a.button, .actions a"
  )].filter(shown);
  const boxes = new Map(targets.map((el) => [el, el.getBoundingClientRect()]));
  for (const el of targets) {
    const box = boxes.get(el);
    if (box.width < 24 - 0.5 || box.height < 24 - 0.5) {
      problems.push(`"${label(el)}" is ${Math.round(box.width)} x ${Math.round(box.height)} px`);
    }
    if (box.right > screen + 0.5 || box.left < -0.5) problems.push(`"${label(el)}" runs past the screen`);
  }
  for (let i = 0; i < targets.length; i++) {
    for (let j = i + 1; j < targets.length; j++) {
      const a = boxes.get(targets[i]), b = boxes.get(targets[j]);
      if (targets[i].contains(targets[j]) || targets[j].contains(targets[i])) continue;
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) problems.push(`"${label(targets[i])}" overlaps "${label(targets[j])}"`);
    }
  }
  const texts = [...document.querySelectorAll("body *")].filter((el) =>
    shown(el) && [...el.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim()));
  const textBoxes = new Map(texts.map((el) => [el, el.getBoundingClientRect()]));
  for (const el of targets) {
    const a = boxes.get(el);
    for (const text of texts) {
      const b = textBoxes.get(text);
      if (b.right <= a.left || b.left >= a.right || b.bottom <= a.top || b.top >= a.bottom) continue;
      if (el.contains(text) || text.contains(el)) continue;
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) problems.push(`"${label(el)}" covers "${label(text)}"`);
    }
  }
  for (const el of document.querySelectorAll("body *")) {
    if (!shown(el) || !el.childNodes.length || el.clientWidth <= 2) continue;  // not visually-hidden text
    const style = getComputedStyle(el);
    const hides = ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
    if (!hides || ["auto", "scroll"].includes(style.overflowX)) continue;
    const text = [...el.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim());
    if (text && el.scrollWidth > el.clientWidth + 1) problems.push(`"${label(el)}" is cut`);
  }
  // A word broken in the middle ("Константино-польская" over two lines): where a text of several lines goes
  // on to the next line (found by halving, from the tops of its letters: a few boxes a line, not two a
  // word), the letters either side are of one word, with no space or soft hyphen (U+00AD, where a
  // translation allows a break) between them. Words as Intl.Segmenter finds them (letters and digits; a
  // hyphen or a space is between two words); Han, kana and Hangul wrap between any two characters, as
  // their readers expect; a text meant to break anywhere (a link, a hash: word-break: break-all) and a user
  // name are no words.
  const range = document.createRange();
  const box = (node, start, end) => {
    range.setStart(node, start);
    range.setEnd(node, end);
    return range.getBoundingClientRect();
  };
  // A letter's box: its lowest, as the letter after a soft hyphen that broke the line has another box at
  // the end of the line before, where the hyphen is drawn.
  const letterBox = (node, start, end) => {
    const bounds = box(node, start, end);
    return [...range.getClientRects()].reduce((low, rect) => (rect.top > low.top ? rect : low), bounds);
  };
  const words = new Intl.Segmenter(undefined, {granularity: "word"});
  const anywhere = /[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]/u;
  const boxless = /[\\s\\u00ad\\u200b-\\u200d\\u2060\\ufeff\\p{M}]/u;  // no box of its own: not a letter
  const breaks = /[\\s\\u00ad\\u200b]/;  // a space or a soft hyphen between two letters: a break allowed
  const identifier = /\\p{L}[._]\\p{L}/u;  // a user name, an address: "maximilian.schwarzenberger"
  for (const el of texts) {
    const style = getComputedStyle(el);
    if (style.wordBreak === "break-all" || (el.clientWidth <= 2 && style.overflow !== "visible")) continue;
    for (const node of el.childNodes) {
      const text = node.textContent;
      if (node.nodeType !== 3 || !text.trim()) continue;
      if (box(node, 0, text.length).height < 2 * parseFloat(style.fontSize)) continue;  // one line
      const letters = [...text.matchAll(/./gsu)].filter((m) => !boxless.test(m[0]))
        .map((m) => [m.index, m.index + m[0].length]);
      const letter = (k) => letterBox(node, ...letters[k]);
      const last = letter(letters.length - 1);
      let from = 0;
      let line = letter(0);
      while (from < letters.length - 1 && last.top >= line.bottom - 2) {
        let lo = from, hi = letters.length - 1;  // letters[lo] on the line, letters[hi] below it
        while (hi - lo > 1) {
          const mid = (lo + hi) >> 1;
          if (letter(mid).top < line.bottom - 2) lo = mid;
          else hi = mid;
        }
        const word = words.segment(text).containing(letters[lo][0]);
        const at = letters[hi][0];
        const inside = at < word.index + word.segment.length;
        const token = text.slice(0, at).split(/\\s/).pop() + text.slice(at).split(/\\s/)[0];  // spaces around
        if (word.isWordLike && inside && !breaks.test(text.slice(letters[lo][1], at))
            && !anywhere.test(word.segment) && !identifier.test(token)) {
          problems.push(`"${word.segment}" is broken in "${label(el)}"`);
        }
        from = hi;
        line = letter(hi);
      }
    }
  }
  // The clock bar's parts (the hanchan, the time, the state, the sound) never run one under the next nor
  // past the bar's edge, on one row or two.
  for (const bar of document.querySelectorAll(".clock-bar")) {
    const row = bar.getBoundingClientRect();
    const across = [...bar.children].filter(shown);
    across.forEach((el, k) => {
      const box = el.getBoundingClientRect();
      const next = across[k + 1] && across[k + 1].getBoundingClientRect();
      const sameRow = next && next.top < box.bottom && next.bottom > box.top;
      const past = box.right > row.right + 0.5 || box.left < row.left - 0.5;
      if ((sameRow && box.right > next.left + 0.5) || past) {
        problems.push(`"${label(el)}" runs into the clock bar's next part on a ${screen} px screen`);
      }
    });
  }
  return problems;
}"""


def layout_problems(page: Any) -> list[str]:
    """What a person would see wrong on this page at its screen size (LAYOUT_PROBLEMS)."""
    return list(page.evaluate(LAYOUT_PROBLEMS))


# ``layout_problems`` with the sticky bars (the clock, the sheet's save bar) laid where they stand in the
# page, as on a screen as tall as the page, not over the text a person scrolls under them; without making
# such a screen, which costs Chromium the painting of the whole page at every size.
UNSTUCK_LAYOUT_PROBLEMS = f"""() => {{
  const stuck = [...document.querySelectorAll("body *")].filter(
    (el) => getComputedStyle(el).position === "sticky");
  for (const el of stuck) el.style.setProperty("position", "relative", "important");
  try {{
    return ({LAYOUT_PROBLEMS})();
  }} finally {{
    for (const el of stuck) el.style.removeProperty("position");
  }}
}}"""


def unstuck_layout_problems(page: Any) -> list[str]:
    """``layout_problems`` of the whole page, its sticky bars where they stand in it."""
    return list(page.evaluate(UNSTUCK_LAYOUT_PROBLEMS))


@pytest.fixture
def live_cup(transactional_db: None) -> dict[str, Any]:
    """Hanchan 1 of the Live Cup started, table 1 seated (Ana, Ben, Cho, Dai), and its referee."""
    tournament = Tournament.objects.create(
        name="Live Cup",
        slug="live-cup",
        starts_on=date(2026, 9, 5),
        ends_on=date(2026, 9, 6),
        hanchan_count=2,
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    players = [
        Player.objects.create(tournament=tournament, name=name) for name in ("Ana", "Ben", "Cho", "Dai")
    ]
    return {"table": seat_table(round_, 1, players), "referee": make_user("referee", tournament, "referee")}


@pytest.fixture
def open_table(transactional_db: None) -> Table:
    """Table 1 (Ana, Ben, Cho, Dai) of the Harbour Open's hanchan 1, started (WRCR 2015), and its referee:
    the sheet the phone entry tests open."""
    tournament = Tournament.objects.create(
        name="Harbour Open",
        slug="harbour-open",
        starts_on=date(2026, 9, 5),
        ends_on=date(2026, 9, 6),
        hanchan_count=4,
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=Round.Status.STARTED)
    players = [Player.objects.create(tournament=tournament, name=n) for n in ("Ana", "Ben", "Cho", "Dai")]
    make_user("referee", tournament, "referee")
    table: Table = seat_table(round_, 1, players)
    return table
