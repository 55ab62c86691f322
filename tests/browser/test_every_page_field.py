"""The every-page check on a second field, shaped as events really come: a phased 120-player event
(the "Qualifying" tag beside each name), real-world long names ("Aleksandr Konstantinopolsky", "Nurul
Aisyah binti Ismail", "Pieter van der Heijden-de Vries"), names in their own script (Japanese, Cyrillic),
totals of three digits with a decimal, penalties.

Every page of that event (the public's, the signed-in player's, the organiser's), in English, German,
Russian and Japanese, at the narrowest phone (360 x 780) and the projector (1920 x 1080):

- ``layout_problems`` finds nothing (the document never scrolls sideways, nothing cut, no word broken,
  no tap target too small, past the edge or overlapping);
- every key cell of a table (``data-key``) lies whole inside the screen and inside every box that clips
  or scrolls it, and no table heading is cut, nor upper-cased on the phone (``KEY_CELLS``, as on the
  phone's tables; a projector's page is a screen of its own);
- a figure behind the edge of a scrolling box counts as cut: in a box that scrolls sideways, only the
  cells of a table's extra columns (a ``td``/``th`` without ``data-key``) may lie beyond its edge
  (``BEHIND_THE_EDGE``).

axe-core is left to test_every_page.py, whose field holds the same markup in seven languages. Cost: the
field built once (players and seats by ``bulk_create``, the sheets through the services), one test for
the four languages, each page loaded once per language and resized from 360 to 1920 px. ``SCREENSHOTS=1``
(or ``SCREENSHOTS=en,de``) saves each page at each width under tests/artifacts/field/<language>/<width>/.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from penalties import services as penalties
from scoring import services as sheets
from tests.browser.conftest import log_in, shots_wanted, unstuck_layout_problems
from tests.browser.test_every_page import Page, new_credentials, shoot_page, upload_player_list
from tests.browser.test_phone_tables import FINAL, KEY_CELLS, LONG_NAMES, field_names
from tests.conftest import make_user
from tournament import services
from tournament.models import Phase, Player, Round, Seat, SeatingJob, Table, Tournament
from tournament.services import player_login

LANGUAGES = ["en", "de", "ru", "ja"]
SIZES = [(360, 780), (1920, 1080)]
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "field"
SLUG = "seven-harbours"
T = f"/t/{SLUG}"
ONE_FRAME = "() => new Promise((done) => requestAnimationFrame(done))"

# Names in their own script, each with the Latin name the other languages show (a Japanese reader sees
# the Japanese ones in kanji, a Russian reader the Cyrillic ones in Cyrillic).
NATIVE = [
    ("Takahashi Kentarō", "JP", "高橋 健太郎"),
    ("Watanabe Sayuri", "JP", "渡辺 さゆり"),
    ("Hasegawa Maiko", "JP", "長谷川 麻衣子"),
    ("Yamamoto Ichirō", "JP", "山本 一郎"),
    ("Aleksandra Rozhdestvenskaya", "RU", "Александра Рождественская"),
    ("Vladislav Kuznetsov-Zaitsev", "RU", "Владислав Кузнецов-Зайцев"),
    ("Yekaterina Dostoyevskaya", "RU", "Екатерина Достоевская"),
    ("Konstantin Preobrazhensky", "RU", "Константин Преображенский"),
]


@dataclass
class Field:
    tournament: Tournament
    player: Player  # signs in with a link: a penalty, a negative total, seated at hanchan 2's table 1
    organiser: Any
    job: SeatingJob


def names() -> list[tuple[str, str, str]]:
    """120 names: the three long ones first, then the native-script ones, then the phone test's field."""
    chosen = [(name, "", "") for name in LONG_NAMES] + NATIVE
    taken = {name for name, _country, _native in chosen}
    chosen += [(name, "", "") for name in field_names() if name not in taken]
    return chosen[:120]


@pytest.fixture
def field(transactional_db: None) -> Field:
    """A qualifying of two hanchan and a final of 16: hanchan 1 signed at 30 tables (totals from +140.3
    down, penalties to -123.4), hanchan 2 seated and started, a draft of final points at its table 1;
    the players enter their table's sheet."""
    tournament = Tournament.objects.create(
        name="Grand Prix of the Seven Harbours · Qualifying and Final",
        slug=SLUG,
        starts_on=date(2026, 10, 3),
        ends_on=date(2026, 10, 4),
        venue="Dewan Serbaguna Kompleks Sukan Negara, Bukit Jalil",
        hanchan_count=3,
        entry_mode=Tournament.EntryMode.PLAYERS,
    )
    organiser = make_user("organiser", tournament, "organiser")
    Phase.objects.bulk_create(
        [
            Phase(tournament=tournament, number=1, name="Qualifying", hanchan=2),
            Phase(tournament=tournament, number=2, name="Final", hanchan=1, advance=16),
        ]
    )
    players = Player.objects.bulk_create(
        Player(
            tournament=tournament,
            name=name,
            country=country,
            native_name=native,
            status=Player.Status.CHECKED_IN,
        )
        for name, country, native in names()
    )
    rounds = [
        Round.objects.create(tournament=tournament, number=number, status=Round.Status.SEATED)
        for number in (1, 2)
    ]
    for round_ in rounds:
        order = players if round_.number == 1 else players[2:] + players[:2]
        tables = Table.objects.bulk_create(Table(round=round_, number=n + 1) for n in range(30))
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, wind=wind, player=order[4 * index + wind])
            for index, table in enumerate(tables)
            for wind in range(4)
        )
    first, second = rounds
    services.operate_clock(first, organiser, "start")
    for table in first.tables.order_by("number"):
        moved = (-700 * table.number, 700 * table.number, 0, 0)
        seats = table.seats.order_by("wind")
        final = {seat.player.name: FINAL[seat.wind] + moved[seat.wind] for seat in seats}
        entry = {"form": "final", "final_points": final, "riichi_sticks_left": 0}
        sheets.sign_sheet(sheets.save_sheet(table, entry, organiser, submit=True), organiser)
    services.operate_clock(second, organiser, "start")
    draft = second.tables.get(number=1)
    final = dict(zip((s.player.name for s in draft.seats.order_by("wind")), FINAL, strict=True))
    sheets.save_sheet(draft, {"form": "final", "final_points": final, "riichi_sticks_left": 0}, organiser)
    for player in players[3::4][:6]:
        penalties.give_penalty(player, "other", organiser, points=Decimal("38.2"), reason="Phone ringing")
    job = SeatingJob.objects.create(tournament=tournament, state=SeatingJob.State.DONE, progress=1.0)
    # The North of hanchan 1's table 1 (a penalty), at hanchan 2's table 1 as its South.
    return Field(tournament, players[3], organiser, job)


# Every page of the event, as test_every_page.py names them (the series', the site's and the club's are
# that module's: this field is one tournament).
ANONYMOUS = [
    Page("player-sign-in", "", lambda f: f"{T}/me/"),
    Page("home", "", lambda f: f"{T}/"),
    Page("standings", "", lambda f: f"{T}/standings/", "/standings.json"),
    Page("seating", "", lambda f: f"{T}/seating/"),
    Page("seating-1", "", lambda f: f"{T}/seating/1/"),
    Page("players", "", lambda f: f"{T}/players/"),
    Page("signup", "", lambda f: f"{T}/signup/"),
    Page("signup-list", "", lambda f: f"{T}/signup/registered/"),
    Page("player", "", lambda f: f"{T}/players/{f.player.pk}/"),
    Page("projector", "", lambda f: f"{T}/projector/", "/standings.json", projector=True),
    Page("awards", "", lambda f: f"{T}/awards/"),
    Page("ratings", "", lambda f: f"{T}/ratings/"),
    Page("projector-awards", "", lambda f: f"{T}/projector/awards/", projector=True),
    Page("live-tables", "", lambda f: f"{T}/tables/"),
    Page("projector-tables", "", lambda f: f"{T}/projector/tables/", projector=True),
]
PLAYER = [
    Page("player-home", "", lambda f: f"{T}/"),
    Page("player-own", "", lambda f: f"{T}/players/{f.player.pk}/"),
    Page("player-sheet", "", lambda f: f"{T}/sheet/2/1/", "/check.json"),
]
STAFF = [
    Page("manage", "", lambda f: f"{T}/manage/"),
    Page("settings", "", lambda f: f"{T}/manage/edit/"),
    Page("statistics", "", lambda f: f"{T}/manage/statistics/"),
    Page("awards-manage", "", lambda f: f"{T}/manage/awards/"),
    Page("registration", "", lambda f: f"{T}/manage/players/"),
    Page("signups-staff", "", lambda f: f"{T}/manage/signups/"),
    Page("import-preview", "", lambda f: f"{T}/manage/players/", reached=upload_player_list),
    Page("a-registration", "", lambda f: f"{T}/manage/players/{f.player.pk}/"),
    Page("new-pin", "", lambda f: f"{T}/players/{f.player.pk}/", reached=new_credentials),
    Page("check-in", "", lambda f: f"{T}/manage/check-in/"),
    Page("absences", "", lambda f: f"{T}/manage/absences/"),
    Page("staff", "", lambda f: f"{T}/manage/staff/"),
    Page("persons-manage", "", lambda f: f"{T}/manage/persons/"),
    Page("phases", "", lambda f: f"{T}/manage/phases/"),
    Page("seating-manage", "", lambda f: f"{T}/manage/seating/"),
    Page("seating-job", "", lambda f: f"{T}/manage/seating/jobs/{f.job.pk}/"),
    Page("clock", "", lambda f: f"{T}/clock/"),
    Page("slow-tables", "", lambda f: f"{T}/tables/watch/"),
    Page("my-tables", "", lambda f: f"{T}/referee/"),
    Page("sheet-entry", "", lambda f: f"{T}/sheet/2/1/", "/check.json"),
    Page("sheet-signed", "", lambda f: f"{T}/sheet/1/2/"),
    Page("sheet-correction", "", lambda f: f"{T}/sheet/1/1/correct/", "/check.json"),
    Page("penalties", "", lambda f: f"{T}/penalties/"),
    Page("exports", "", lambda f: f"{T}/exports/"),
    Page("new-sign-in-codes", "", lambda f: f"{T}/exports/print/seating-cards/2/new-codes/"),
]

# In a box that scrolls sideways (or hides what overflows), what lies beyond its edge at its scroll
# position: a text there is cut, unless it is a cell of a table's extra column (a td or th without
# data-key, whose row keeps its key cells in view: KEY_CELLS). A box a pixel wide is visually hidden.
BEHIND_THE_EDGE = """() => {
  const problems = [];
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden"
      && !el.closest("[hidden], details:not([open]) > :not(summary)");
  };
  const text = (el) => el.textContent.trim().replace(/\\s+/g, " ").slice(0, 40);
  for (const frame of document.querySelectorAll("body *")) {
    if (getComputedStyle(frame).overflowX === "visible" || frame.clientWidth <= 2) continue;
    if (frame.scrollWidth <= frame.clientWidth + 1 || !shown(frame)) continue;
    const edge = frame.getBoundingClientRect();
    const left = edge.left + frame.clientLeft, right = left + frame.clientWidth;
    for (const el of frame.querySelectorAll("*")) {
      if (![...el.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim())) continue;
      if (!shown(el)) continue;
      const cell = el.closest("td, th");
      if (cell && frame.contains(cell) && !cell.closest("[data-key]")) continue;  // an extra column
      const box = el.getBoundingClientRect();
      if (box.right > right + 0.5 || box.left < left - 0.5) {
        problems.push(`"${text(el)}" lies behind the edge of a scrolling box (${Math.round(box.left)}..`
          + `${Math.round(box.right)} px, the box ${Math.round(left)}..${Math.round(right)})`);
      }
    }
  }
  return problems;
}"""


def visit(page: Any, base: str, item: Page, field: Field, language: str, found: dict[str, list[str]]) -> None:
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[0], strict=True)))
    url = base + item.url(field)
    if item.waits_for:
        with page.expect_response(lambda r: r.url.split("?")[0].endswith(item.waits_for)) as answer:
            page.goto(url)
        answer.value.finished()
    else:
        page.goto(url)
    if item.reached is not None:
        item.reached(page)
    assert page.locator("html").get_attribute("lang") == language, item.name
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(ONE_FRAME)
        keys = page.evaluate(KEY_CELLS)["problems"]
        if width >= 600 or item.projector:  # headings in capitals are a phone's problem (a cut "DISPUTED")
            keys = [problem for problem in keys if not problem.endswith("is upper-cased")]
        problems = unstuck_layout_problems(page) + keys + page.evaluate(BEHIND_THE_EDGE)
        if problems:  # each once, with how many times it was found (a problem of each row of 120)
            counts: dict[str, int] = {}
            for problem in problems:
                counts[problem] = counts.get(problem, 0) + 1
            found[f"{language}, {item.name} at {width} px"] = [
                problem if n == 1 else f"{problem} (x{n})" for problem, n in counts.items()
            ]
        if shots_wanted(language):
            shoot_page(page, language, width, item.name, whole=not item.projector, folder=SHOTS)


# The projector's rows: their heights, and whether any lies outside the screen.
PROJECTOR_ROWS = """() => [...document.querySelectorAll("[data-columns] tr[data-name]")].map((row) => {
  const box = row.getBoundingClientRect();
  return { height: box.height, inside: box.top >= 0 && box.bottom <= innerHeight && box.right <= innerWidth };
})"""


def one_page_of_readable_rows(page: Any, language: str) -> None:
    """Up to 120 players on one page at 1080 px, in rows of at least 36 px (readable from the back of the
    hall), every row inside the screen; the phase all of them share said once, in the heading, not
    beside each name (a tag on each row cost the field a second page)."""
    rows = page.evaluate(PROJECTOR_ROWS)
    label = page.locator("[data-page-label]").inner_text()
    assert label == "" and len(rows) == 120, (language, label, len(rows))
    assert min(row["height"] for row in rows) >= 35.5, (language, min(row["height"] for row in rows))
    assert all(row["inside"] for row in rows), language
    assert page.locator("[data-columns] .phase-tag").count() == 0, language
    assert page.locator("[data-summary]").inner_text().startswith("Qualifying · "), language


def opened(context: Any, live_server: Any, language: str) -> Any:
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    return context.new_page()


# About 170 page loads and 340 layouts, many of them of 120 rows: a few minutes on a loaded machine.
@pytest.mark.browser
@pytest.mark.timeout(900)
@pytest.mark.django_db(transaction=True)
def test_every_page_of_a_phased_120_player_field_fits_the_phone_and_the_projector(
    new_context: Any, live_server: Any, field: Field
) -> None:
    base = live_server.url
    found: dict[str, list[str]] = {}
    assert field.tournament.players.exclude(native_name="").count() == len(NATIVE)
    for language in LANGUAGES:
        page = opened(new_context(), live_server, language)
        for item in ANONYMOUS:
            visit(page, base, item, field, language, found)
            if item.name == "standings":  # the field as it is meant: a tag beside each of 120 names
                assert page.locator("[data-rows] tr .phase-tag").count() == 120
            if item.name == "projector":  # left at 1920 x 1080: the whole field on one page (issue 52)
                one_page_of_readable_rows(page, language)
        page.context.close()

        page = opened(new_context(has_touch=True), live_server, language)
        link = player_login.issue_for_player(field.player, field.organiser).token
        page.goto(f"{base}{T}/in/{link}/")
        for item in PLAYER:
            visit(page, base, item, field, language, found)
        page.context.close()

        page = opened(new_context(), live_server, language)
        log_in(page, live_server, "organiser", "pw-for-tests-only", f"{T}/manage/")
        for item in STAFF:
            visit(page, base, item, field, language, found)
        page.context.close()
    assert not found, "\n".join(f"{where}:\n  " + "\n  ".join(problems) for where, problems in found.items())


# A scrolling box 200 px wide whose content is 600 px: a table's key cell and a figure out of a table
# behind its edge (cut), an extra column behind it (allowed), a key cell in view.
OUT_OF_SIGHT = """<!doctype html><html lang="en"><body><main>
<div style="overflow-x: auto; width: 200px">
  <table style="width: 600px"><tr><td data-key="name">Ana</td><td style="width: 400px">extra</td>
    <td data-key="total">-123.4</td><td>+12.0</td></tr></table>
  <div style="width: 600px"><span style="margin-left: 450px">78.0</span></div>
</div></main></body></html>"""


@pytest.mark.browser
def test_a_figure_behind_the_edge_of_a_scrolling_box_counts_as_cut(browser: Any) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 780})
    try:
        page = context.new_page()
        page.set_content(OUT_OF_SIGHT)
        behind = page.evaluate(BEHIND_THE_EDGE)
        keys = page.evaluate(KEY_CELLS)
    finally:
        context.close()
    assert [problem.split(" lies")[0] for problem in behind] == ['"-123.4"', '"78.0"']
    assert keys["keys"] == 2
    assert [problem.split(" (")[0] for problem in keys["problems"]] == ['key cell "-123.4"']
