"""The projector on a 1920 x 1080 screen in Chromium: 120 players in columns, every one on the screen with
nothing to scroll; the next hanchan's seating only once published; a QR code that reads (zbarimg) as the
address of the live standings."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from penalties.models import Penalty
from scoring import services as sheets
from tests.browser.conftest import shoot, wait_until
from tests.browser.test_content_security import watch
from tests.conftest import make_players, make_user, seat_table
from tests.qr_reader import read_codes
from tournament import services
from tournament.models import Player, Round, Tournament
from tournament.queries.standings_db import schedule_standings_refresh

FULL_HD = {"width": 1920, "height": 1080}


@pytest.fixture
def big_room(transactional_db: None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Grand Harbour Open",
        slug="grand-harbour",
        starts_on=date(2026, 9, 5),
        ends_on=date(2026, 9, 6),
        hanchan_count=6,
        seating_publication=Tournament.SeatingPublication.BY_HANCHAN,
    )
    players = make_players(tournament, 120, prefix="Competitor")
    organiser = make_user("organiser", tournament, "organiser")
    for number in (1, 2):
        round_ = Round.objects.create(tournament=tournament, number=number, status="seated")
        order = players if number == 1 else players[1:] + players[:1]
        for table in range(30):
            seat_table(round_, table + 1, order[4 * table : 4 * table + 4])
    first = tournament.rounds.get(number=1)
    services.publish_seating(first, organiser)
    services.operate_clock(first, organiser, "start")
    return tournament


ON_SCREEN = """(selector) => {
  const seen = [];
  for (const row of document.querySelectorAll(selector)) {
    const box = row.getBoundingClientRect();
    const inside = box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
    if (box.height > 0 && inside)
      seen.push(row.dataset.name || row.textContent);
  }
  return seen;
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_120_players_fit_and_the_seating_shows_once_published(
    new_context: Any, live_server: Any, big_room: Tournament, tmp_path: Path, screenshot: Any
) -> None:
    page = new_context(viewport=FULL_HD).new_page()
    page.clock.install()  # the page turns moved on by the test instead of waited for
    violations = watch(page)
    page.goto(f"{live_server.url}/t/{big_room.slug}/projector/")
    expect(page.locator("[data-columns] table")).to_have_count(5, timeout=10_000)
    assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight")
    shown = page.evaluate(ON_SCREEN, "[data-columns] tr[data-name]")
    assert sorted(shown) == sorted(f"Competitor {n:03d}" for n in range(1, 121))
    assert page.locator("[data-page-label]").inner_text() == ""  # one page holds them all
    expect(page.locator("[data-clock-time]")).to_be_visible()
    # Hanchan 2 is seated but not published: nothing of it on the screen.
    assert page.locator('[data-view="seating"]').is_hidden()
    assert page.locator(".seat-table").count() == 0

    code = page.locator("[data-qr] svg").screenshot(path=str(tmp_path / "qr.png"))
    assert code and read_codes(tmp_path / "qr.png") == [f"{live_server.url}/t/{big_room.slug}/standings/"]
    screenshot(page, "projector-120", full_page=False)

    # A smaller screen: rows as tall against its height (a thirtieth), each page whole on the screen.
    page.set_viewport_size({"width": 1024, "height": 600})
    wait_until(
        page, "document.querySelector('[data-columns] td.name').getBoundingClientRect().height < 30", 10
    )
    assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight")
    first_page = page.evaluate(ON_SCREEN, "[data-columns] tr[data-name]")
    label = page.locator("[data-page-label]").inner_text()
    assert len(first_page) == page.locator("[data-columns] tr[data-name]").count()
    assert (label == "" and len(first_page) == 120) or re.fullmatch(r"Standings 1/[2-9]", label)
    heights = page.evaluate(
        "[...document.querySelectorAll('[data-columns] tr[data-name]')]"
        ".map((r) => r.getBoundingClientRect().height)"
    )
    assert min(heights) >= 20 - 0.5
    page.set_viewport_size(FULL_HD)
    expect(page.locator("[data-page-label]")).to_have_text("")

    organiser = big_room.staff.get().user
    services.publish_seating(big_room.rounds.get(number=2), organiser)
    expect(page.locator("[data-seating-title]")).to_have_text("Seating of hanchan 2", timeout=10_000)
    # The seating takes its turn with the standings (a page every 12 seconds).
    page.clock.run_for(12_000)
    expect(page.locator('[data-view="seating"]')).to_be_visible()
    assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight")
    tables = page.evaluate(ON_SCREEN, ".seat-table")
    label = page.locator("[data-page-label]").inner_text()
    assert label.startswith("Seating of hanchan 2 1/")
    pages = int(label.rsplit("/", 1)[1])
    assert len(tables) * pages >= 30 and len(tables) == page.locator(".seat-table").count()
    assert "Table 1" in tables[0] and "Competitor 002" in tables[0]
    screenshot(page, "projector-seating", full_page=False)
    assert violations == []


# Names of up to 30 characters, as a big event's file has them.
FIRST_NAMES = ["Maximilian", "Anne-Charlotte", "Bartholomew", "Jean-Baptiste", "Nguyễn Thị", "Konstantinos"]
LAST_NAMES = ["Schwarzenberger", "Dubois-Lefèvre", "Kowalczykowski", "van der Westhuizen", "Papadopoulos"]
HD = {"width": 1280, "height": 720}
# Two signed hanchan at three tables: totals of three digits either way (+140, -140); the others miss
# both (60 points of penalties) and each has a penalty of their own, a tenth of a point apart, so that no
# two share a total: ranks of three digits, totals to -100.0.
EXTREMES = (155000, 25000, -20000, -40000)

# The cells of the shown columns whose text does not fit: each one's content laid out again, unclipped,
# in its own font, and compared with the room inside the cell.
CUT_CELLS = """() => {
  const probe = document.createElement("span");
  probe.style.position = "absolute";
  probe.style.visibility = "hidden";
  probe.style.whiteSpace = "nowrap";
  document.body.append(probe);
  const cut = [];
  for (const cell of document.querySelectorAll("[data-board] td, [data-board] th")) {
    if (!cell.getClientRects().length) continue;
    const style = getComputedStyle(cell);
    for (const key of ["fontStyle", "fontWeight", "fontSize", "fontFamily", "textTransform"])
      probe.style[key] = style[key];
    probe.replaceChildren(...[...cell.childNodes].map((node) => node.cloneNode(true)));
    const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (probe.getBoundingClientRect().width > room + 0.5) cut.push(cell.textContent);
  }
  probe.remove();
  return cut;
}"""


def settled(page: Any) -> None:
    """Until the board stops being redrawn: the standings and the seating arrive by separate fetches
    (and the live stream's first event), each drawing the board again; the page's own timers are frozen
    (``page.clock``), so once those answers are in, nothing redraws it until the test moves the clock."""
    page.evaluate(
        """() => {
          window.redrawn = 0;
          new MutationObserver((changes) => { window.redrawn += changes.length; })
            .observe(document.querySelector("[data-board]"), { childList: true, subtree: true });
        }"""
    )
    last = -1
    for _ in range(50):
        page.wait_for_timeout(200)
        now = page.evaluate("window.redrawn")
        if now == last:
            return
        last = now
    raise AssertionError("the projector kept redrawing itself for 10 s")


def crowded(count: int) -> Tournament:
    tournament = Tournament.objects.create(
        name="Grand Harbour International Riichi Open",
        slug="crowded",
        starts_on=date(2026, 9, 5),
        ends_on=date(2026, 9, 6),
        hanchan_count=6,
    )
    names = [
        f"{first} {last}"[:26] + f" {i:03d}"
        for i, (first, last) in enumerate(
            (FIRST_NAMES[i % 6], LAST_NAMES[(i // 6) % 5]) for i in range(count)
        )
    ]
    players = Player.objects.bulk_create(
        Player(tournament=tournament, name=name, status=Player.Status.CHECKED_IN) for name in names
    )
    referee = make_user("referee", tournament, "referee")
    for number in (1, 2):
        round_ = Round.objects.create(tournament=tournament, number=number, status="seated")
        for table in range(3):
            seated = seat_table(round_, table + 1, players[4 * table + number - 1 : 4 * table + number + 3])
            final = dict(zip([s.player.name for s in seated.seats.order_by("wind")], EXTREMES, strict=True))
            entry = {"form": "final", "final_points": final, "riichi_sticks_left": 0}
            sheets.sign_sheet(sheets.save_sheet(seated, entry, referee, submit=True), referee)
    Penalty.objects.bulk_create(
        Penalty(tournament=tournament, player=player, kind="other", points=Decimal(i) / 10, reason="late")
        for i, player in enumerate(players, start=1)
    )
    schedule_standings_refresh(tournament.pk)
    return tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("count", [120, 250, 400])
def test_a_big_field_shows_whole_names_ranks_and_totals_on_every_page(
    new_context: Any, live_server: Any, transactional_db: None, count: int, screenshot: Any
) -> None:
    tournament = crowded(count)
    assert max(len(name) for name in tournament.players.values_list("name", flat=True)) == 30
    everyone = set(tournament.players.values_list("name", flat=True))
    for size in (FULL_HD, HD):
        page = new_context(viewport=size).new_page()
        page.clock.install()  # the page turns moved on by the test
        violations = watch(page)
        page.goto(f"{live_server.url}/t/{tournament.slug}/projector/")
        # Drawn from the fetched standings (not the one-row table that measures a row): then paged.
        wait_until(page, "document.querySelectorAll('[data-columns] tr[data-name]').length > 1", 10)
        settled(page)
        label = page.locator("[data-page-label]").inner_text()
        pages = int(label.rsplit("/", 1)[1]) if label else 1
        seen: set[str] = set()
        for turn in range(pages):
            assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight")
            assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
            assert page.evaluate(CUT_CELLS) == [], (count, size, turn)
            shown = page.evaluate(ON_SCREEN, "[data-columns] tr[data-name]")
            assert len(shown) == page.locator("[data-columns] tr[data-name]").count()  # all on screen
            seen.update(shown)
            if turn == 0:
                screenshot(page, f"projector-{count}-{size['width']}", full_page=False)
            page.clock.run_for(12_000)
        assert seen == everyone, (count, size, len(seen))
        assert violations == []
        page.close()


# The standings sized to the screen: rows of at least 36 px at 1080 px (a thirtieth of the screen's
# height), the columns filling the screen's height, every row of a page inside the screen.
ROWS = """() => {
  const board = document.querySelector("[data-board]").getBoundingClientRect();
  const box = (node) => node.getBoundingClientRect();
  const rows = [...document.querySelectorAll("[data-columns] tr[data-name]")].map(box);
  const columns = [...document.querySelectorAll("[data-columns] table")].map(box);
  return {
    heights: rows.map((box) => box.height),
    outside: rows.filter(
      (box) => box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth
    ).length,
    lowest: Math.max(...columns.map((box) => box.bottom)),
    boardBottom: board.bottom,
    boardTop: board.top,
    font: parseFloat(getComputedStyle(document.querySelector("[data-columns] td.name")).fontSize),
  };
}"""


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "size", [FULL_HD, HD, {"width": 3840, "height": 2160}], ids=["1080p", "720p", "2160p"]
)
def test_120_long_names_fill_the_screen_in_rows_readable_from_the_back(
    new_context: Any, live_server: Any, transactional_db: None, size: dict[str, int], screenshot: Any
) -> None:
    tournament = crowded(120)
    page = new_context(viewport=size).new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/t/{tournament.slug}/projector/")
    wait_until(page, "document.querySelectorAll('[data-columns] tr[data-name]').length > 1", 10)
    settled(page)
    least = 36 * size["height"] / 1080
    label = page.locator("[data-page-label]").inner_text()
    pages = int(label.rsplit("/", 1)[1]) if label else 1
    if size == FULL_HD:
        screenshot(page, "projector-120-long-names-1080p", full_page=False)
    if size["height"] >= 1080:
        assert pages == 1, label  # up to 120 players on one page at 1080 px and more
    else:
        expect(page.locator("[data-page-label]")).to_be_visible()
    seen = 0
    for _ in range(pages):
        rows = page.evaluate(ROWS)
        assert min(rows["heights"]) >= least - 0.5, (size, min(rows["heights"]))
        assert rows["outside"] == 0
        # The columns fill the board's height: less than two rows left under the longest column.
        assert rows["boardBottom"] - rows["lowest"] < 2 * min(rows["heights"]), rows
        assert rows["font"] >= 14 * size["height"] / 1080
        assert page.evaluate(CUT_CELLS) == []
        seen += len(rows["heights"])
        page.clock.run_for(12_000)
    assert seen == 120


ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_120_long_names_on_one_page_in_four_languages(
    new_context: Any, live_server: Any, transactional_db: None
) -> None:
    """The same field at 1920 x 1080 in English, German, Russian and Japanese: one page, rows of 36 px
    and more, nothing cut; a picture of each (tests/artifacts/projector-120-<language>.png)."""
    tournament = crowded(120)
    ARTIFACTS.mkdir(exist_ok=True)
    for locale in ("en-GB", "de-DE", "ru-RU", "ja-JP"):
        page = new_context(viewport=FULL_HD, locale=locale).new_page()
        page.clock.install()
        page.goto(f"{live_server.url}/t/{tournament.slug}/projector/")
        wait_until(page, "document.querySelectorAll('[data-columns] tr[data-name]').length > 1", 10)
        settled(page)
        rows = page.evaluate(ROWS)
        assert len(rows["heights"]) == 120 and rows["outside"] == 0, locale
        assert min(rows["heights"]) >= 35.5, locale
        assert page.evaluate(CUT_CELLS) == [], locale
        shoot(page, ARTIFACTS / f"projector-120-{locale[:2]}.png", language=locale[:2])
        page.close()
