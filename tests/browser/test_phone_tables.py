"""The tables a phone shows, on a field as events really come (issue 52): 120 players in a qualifying
phase (the "Qualifying" tag beside each name), names such as "Aleksandr Konstantinopolsky", "Nurul Aisyah
binti Ismail" and "Pieter van der Heijden-de Vries", totals of three digits with a decimal (-123.4).

In English, German, Russian and Japanese, at 360 and 390 px, on the standings (as standings.js draws
them), the sheet's live results summary, a player's results, the manage page's hanchan and a sheet's
history: the document never scrolls sideways; every key cell of a table (``data-key``: the standings' rank,
name and total, each table's own) lies whole on the screen and inside every box that would hide it (a
table may scroll sideways for its extra columns only); no heading is cut or upper-cased; and
``layout_problems`` finds nothing.

Cost: one tournament built once (players and seats by ``bulk_create``, the sheets through the services),
one browser context per language, each page loaded once and resized from 360 to 390 px. ``SCREENSHOTS=1``
saves each page at each width under tests/artifacts/phone/<language>/<width>/.
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from penalties import services as penalties
from scoring import services as sheets
from tests.browser.conftest import drawn_after, log_in, shoot, unstuck_layout_problems
from tests.conftest import make_user
from tournament import services
from tournament.models import Phase, Player, Round, Seat, Table, Tournament

LANGUAGES = ["en", "de", "ru", "ja"]
WIDTHS = [(360, 780), (390, 844)]
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "phone"
SLUG = "field"
ONE_FRAME = "() => new Promise((done) => requestAnimationFrame(done))"

LONG_NAMES = ["Aleksandr Konstantinopolsky", "Nurul Aisyah binti Ismail", "Pieter van der Heijden-de Vries"]
FIRST = [
    "Maximilian",
    "Anne-Charlotte",
    "Bartholomew",
    "Svetlana",
    "Jean-Baptiste",
    "Natalia",
    "Haruto",
    "Siobhán",
    "Wojciech",
    "Giuseppina",
    "Oluwaseun",
    "Friederike",
]
LAST = [
    "Schwarzenberger",
    "Dubois-Lefèvre",
    "Kowalczykowski",
    "Wiśniewska",
    "Papadopoulos",
    "Vasilyevskaya",
    "Takahashi",
    "O'Sullivan",
    "Brzęczyszczykiewicz",
    "Montgomery",
]
# Each table's final points, East to North: scores of 140.3, -0.1, -55.0 and -85.2 (the first two moved
# table by table); penalties take a few players further down (-123.4).
FINAL = (155300, 24900, -20000, -40200)


def field_names() -> list[str]:
    names = list(LONG_NAMES)
    for last in LAST:
        for first in FIRST:
            if len(names) < 120:
                names.append(f"{first} {last}")
    return names


@pytest.fixture
def field(transactional_db: None) -> dict[str, Any]:
    """Hanchan 1 of a 120-player qualifying signed at 30 tables (one sheet corrected, so that its history
    has three versions), hanchan 2 started with a draft of final points at table 1; penalties."""
    tournament = Tournament.objects.create(
        name="Grand Prix of the Seven Harbours",
        slug=SLUG,
        starts_on=date(2026, 10, 3),
        ends_on=date(2026, 10, 4),
        hanchan_count=3,
    )
    organiser = make_user("organiser", tournament, "organiser")
    Phase.objects.bulk_create(
        [
            Phase(tournament=tournament, number=1, name="Qualifying", hanchan=2),
            Phase(tournament=tournament, number=2, name="Final", hanchan=1, advance=16),
        ]
    )
    players = Player.objects.bulk_create(
        Player(tournament=tournament, name=name, status=Player.Status.CHECKED_IN) for name in field_names()
    )
    rounds = [
        Round.objects.create(tournament=tournament, number=number, status=Round.Status.SEATED)
        for number in (1, 2)
    ]
    for round_ in rounds:
        # Hanchan 2's table 1 seats four names of short words (none over 12 letters), which once kept one
        # line each beside the figures and pushed the score out of sight in Russian.
        short = [p for p in players if max(map(len, p.name.replace("-", " ").split())) <= 12][:4]
        order = players if round_.number == 1 else short + [p for p in players if p not in short]
        tables = Table.objects.bulk_create(Table(round=round_, number=n + 1) for n in range(30))
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, wind=wind, player=order[4 * index + wind])
            for index, table in enumerate(tables)
            for wind in range(4)
        )
        services.operate_clock(round_, organiser, "start")
        if round_.number == 2:
            break
        for table in tables:
            # 700 points more from the top to the second at each next table: totals from 140.3 down.
            moved = (-700 * table.number, 700 * table.number, 0, 0)
            final = {order[4 * (table.number - 1) + w].name: FINAL[w] + moved[w] for w in range(4)}
            entry = {"form": "final", "final_points": final, "riichi_sticks_left": 0}
            sheets.sign_sheet(sheets.save_sheet(table, entry, organiser, submit=True), organiser)
    first, second = rounds
    # Hanchan 1's table 1 corrected by the head referee, with a reason: a history of three versions.
    corrected = first.tables.get(number=1)
    final = {
        seat.player.name: points for seat, points in zip(corrected.seats.order_by("wind"), FINAL, strict=True)
    }
    final = dict(zip(final, (155300, -20000, 24900, -40200), strict=True))
    entry = {"form": "final", "final_points": final, "riichi_sticks_left": 0}
    sheets.correct_sheet(corrected.sheet, entry, organiser, reason="South and West swapped")
    # Hanchan 2's table 1: a draft of final points, which the sheet's summary shows as it is entered.
    draft = second.tables.get(number=1)
    final = {
        seat.player.name: points for seat, points in zip(draft.seats.order_by("wind"), FINAL, strict=True)
    }
    sheets.save_sheet(draft, {"form": "final", "final_points": final, "riichi_sticks_left": 0}, organiser)
    for player in players[3::4][:6]:
        penalties.give_penalty(player, "other", organiser, points=Decimal("38.2"), reason="Phone ringing")
    return {"tournament": tournament, "player": players[1]}


# What a phone must show of each table (measured in the page): the document no wider than the screen;
# each key cell whole inside the screen and inside every box that clips or scrolls it; each heading whole
# and not upper-cased. Returns the problems and how many key cells there were.
KEY_CELLS = """() => {
  const problems = [];
  const screen = window.innerWidth;
  const doc = document.scrollingElement;
  if (doc.scrollWidth > doc.clientWidth) problems.push(`the document is ${doc.scrollWidth} px wide`);
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && !el.closest("[hidden], details:not([open]) > :not(summary)");
  };
  const text = (el) => el.textContent.trim().replace(/\\s+/g, " ").slice(0, 40);
  const keys = [...document.querySelectorAll("main [data-key]")].filter(shown);
  for (const cell of keys) {
    const box = cell.getBoundingClientRect();
    let left = 0, right = screen;
    for (let el = cell.parentElement; el && el !== document.body; el = el.parentElement) {
      if (getComputedStyle(el).overflowX !== "visible") {
        const clip = el.getBoundingClientRect();
        left = Math.max(left, clip.left);
        right = Math.min(right, clip.right);
      }
    }
    if (right - left <= 2) continue;  // visually hidden (a heading for assistive technology only)
    if (box.left < left - 0.5 || box.right > right + 0.5) {
      problems.push(`key cell "${text(cell)}" (${cell.dataset.key}) spans ${Math.round(box.left)}..`
        + `${Math.round(box.right)} px, outside ${Math.round(left)}..${Math.round(right)}`);
    }
  }
  // A heading kept for assistive technology only (visually hidden: a box of a pixel) is no text shown.
  const headings = [...document.querySelectorAll("main table th")]
    .filter((th) => shown(th) && th.clientWidth > 2);
  for (const th of headings) {
    if (th.scrollWidth > th.clientWidth + 1) problems.push(`heading "${text(th)}" is cut`);
    if (getComputedStyle(th).textTransform === "uppercase") {
      problems.push(`heading "${text(th)}" is upper-cased`);
    }
  }
  return {problems, keys: keys.length};
}"""


def check(page: Any, language: str, name: str, found: dict[str, list[str]], keys: int, table: str) -> None:
    """The page at each width: its key cells (at least ``keys`` of them), headings and layout; the
    screenshot shows the screen with ``table`` (a selector) at its top."""
    for width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(ONE_FRAME)
        measured = page.evaluate(KEY_CELLS)
        problems = measured["problems"] + unstuck_layout_problems(page)
        if measured["keys"] < keys:
            problems.append(f"{measured['keys']} key cells, expected at least {keys}")
        if problems:  # each once, with how many times it was found (a problem of each row of 120)
            counts = Counter(problems)
            found[f"{language} {name} at {width} px"] = [
                problem if n == 1 else f"{problem} (x{n})" for problem, n in counts.items()
            ]
        page.locator(table).first.evaluate("(el) => el.scrollIntoView()")
        shoot(page, SHOTS / language / str(width) / f"{name}.png", language=language)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_phone_shows_every_key_figure_of_every_table(
    new_context: Any, live_server: Any, field: dict[str, Any]
) -> None:
    base = f"{live_server.url}/t/{SLUG}"
    player = field["player"]
    found: dict[str, list[str]] = {}
    for language in LANGUAGES:
        context = new_context(viewport={"width": 360, "height": 780})
        context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page = context.new_page()
        drawn_after(page, "/standings.json", page.goto, f"{base}/standings/")
        assert page.locator("[data-rows] tr .phase-tag").count() == 120
        check(page, language, "standings", found, keys=3 * 120, table="[data-table]")
        page.goto(f"{base}/players/{player.pk}/")
        check(page, language, "player", found, keys=2 * 4, table="table.player-hanchan")
        log_in(page, live_server, "organiser", "pw-for-tests-only", f"/t/{SLUG}/manage/")
        check(page, language, "manage", found, keys=2 * 4, table="table:has([data-key=disputed])")
        with page.expect_response(lambda r: r.url.split("?")[0].endswith("/check.json")) as answer:
            page.goto(f"{base}/sheet/2/1/")
        answer.value.finished()
        page.locator(".sheet-summary").wait_for()
        check(page, language, "sheet-summary", found, keys=4 * 2, table=".sheet-summary")
        page.goto(f"{base}/sheet/1/1/")
        page.evaluate("document.querySelector('details.history').open = true")
        check(page, language, "sheet-history", found, keys=3 * 3, table="details.history")
        context.close()
    assert not found, "\n".join(f"{where}:\n  " + "\n  ".join(problems) for where, problems in found.items())
