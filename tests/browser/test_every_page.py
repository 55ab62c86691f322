"""Every page a person uses, in all seven languages, at the phone (360 and 390 px), desktop (1366 px) and
projector (1920 and 1280 px) sizes, on a tournament with names of up to 30 characters in Latin, Cyrillic,
Greek, Japanese, Chinese, Korean and Vietnamese script, teams, penalties and totals of three digits below
zero:

- ``layout_problems`` finds nothing at any size: the document never scrolls sideways, no text (a name,
  a rank, a total, the clock) is cut, no word is broken in the middle over two lines (a name wraps between
  its words), no tap target is under 24 x 24 px, past the edge, or overlaps another or a text;
- axe-core (the copy bundled by the ``axe-playwright-python`` package, injected into the page; no
  download) finds no critical or serious violation, the page has its landmarks (a ``main``, and no
  content outside a landmark: axe's ``region`` and ``landmark-*`` rules) and its headings go down one level
  at a time (``heading-order``).

The pages are the URL configuration's: ``test_every_page_route_is_visited_or_said_not_to_be_a_page``
fails when a route is added that is neither in ``PAGES`` nor in ``NOT_PAGES`` (JSON, streams, downloads,
actions that answer a redirect), so a new page cannot go unchecked.

The sizes that find different problems: every language at the narrowest phone (360 px) and at the
projector (1920 x 1080); English, Japanese and German (a long-word Latin script and a CJK one) also at
390, 1366 and 1280 px. ``EVERY_SIZE=1`` (``make test-all``) checks every language at every size.

Cost: each page is loaded once per language and its viewport resized (no reload) through its sizes, one
frame after each; three tests of two or three languages, each building its tournament once, so that
pytest-xdist spreads them and none nears the per-test time limit on a loaded machine. A visitor's browser
context is closed as soon as its pages are checked (a projector or a sheet left open keeps its clock and its
live stream going while the next visitor's pages are checked), and axe-core is handed to each context once.
axe-core takes 0.1 to 0.5 s a page with all its rules, more than half of it for the colour contrast, which
depends on the page's markup and colours and not on its language, nor on the width between a phone and a
desktop. So axe runs once per page and language at a phone size (360 px) and at a desktop size (1366 px,
or 1920 px for a language not checked at 1366): every rule in English, and in the other six languages the
rules whose findings the language can change (``LANGUAGE_RULES``: the names and labels of things, the
page's language, the landmarks and the scrolling frames), about 0.1 s a page.

Screenshots (not committed): ``SCREENSHOTS=1`` writes each page at each size to
``tests/artifacts/pages/<language>/<width>/<page>.png`` (``SCREENSHOTS=en``: in English only, as ``make
handbook`` does); the everyday run takes none.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.base import AXE_SCRIPT
from django.contrib.auth.tokens import default_token_generator
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from penalties import services as penalties
from scoring import services as sheets
from tests.browser.conftest import log_in, shots_wanted, unstuck_layout_problems
from tests.conftest import make_user, seat_table
from tournament import services
from tournament.core.awards import AWARDS
from tournament.models import Person, Player, RegistrationSettings, Round, SeatingJob, Series, Tournament
from tournament.services import player_login

LANGUAGES = ["en", "ja", "ru", "fr", "de", "zh-hans", "ko"]
# Phone, phone, desktop, projector, projector: the order the page goes through them.
SIZES = [(360, 780), (390, 844), (1366, 768), (1920, 1080), (1280, 720)]
# The sizes that find different problems: every language at the narrowest phone and at the projector;
# English, Japanese and German (a long-word Latin script and a CJK one, the languages whose words are the
# longest and the widest) at every size. ``EVERY_SIZE=1`` (``make test-all``) checks every language at every
# size, as a change to the templates or the styles should be before it lands (docs/testing.md).
EVERY_LANGUAGE_SIZES = [(360, 780), (1920, 1080)]
WIDEST_LANGUAGES = {"en", "ja", "de"}
# axe-core once per page and language at a phone and at a desktop size (its rules find the same between):
# the desktop's 1366 px where the language is checked there, the projector's 1920 px where it is not.
AXE_PHONE = 360
AXE_DESKTOPS = (1366, 1920)


def sizes_of(language: str) -> list[tuple[int, int]]:
    every_size = os.environ.get("EVERY_SIZE", "") == "1"
    return SIZES if every_size or language in WIDEST_LANGUAGES else EVERY_LANGUAGE_SIZES


def axe_widths(language: str) -> set[int]:
    widths = {width for width, _height in sizes_of(language)}
    return {AXE_PHONE, next(width for width in AXE_DESKTOPS if width in widths)}


# After a resize, one frame: the page's resize handlers run in that frame's update, and those that wait for
# an animation frame of their own (the scrolling frames' marks) run in it too, before the next command.
ONE_FRAME = "() => new Promise((done) => requestAnimationFrame(done))"
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "pages"
SLUG = "harbour"
PASSWORD = "pw-for-tests-only"

# Twelve players, three tables; names of up to 30 characters (the longest allowed to show whole).
NAMES = [
    ("Maximilian Schwarzenberger-Kl", "DE", "Kyoto Tenpai Collective", ""),
    ("Александра Константинопольская", "RU", "Kyoto Tenpai Collective", ""),
    ("Nguyễn Thị Minh Khai", "VN", "Kyoto Tenpai Collective", ""),
    ("Bartholomew van der Westhuizen", "ZA", "Osaka Riichi Brigade", ""),
    ("長谷川 麻衣子", "JP", "Osaka Riichi Brigade", "長谷川 麻衣子"),
    ("Κωνσταντίνος Παπαδόπουλος", "GR", "Osaka Riichi Brigade", ""),
    ("Anne-Charlotte Dubois-Lefèvre", "FR", "Nordic Dora Hunters", ""),
    ("欧阳 娜娜", "CN", "Nordic Dora Hunters", "欧阳 娜娜"),
    ("Jean-Baptiste Kowalczykowski", "PL", "Nordic Dora Hunters", ""),
    ("Natalia Wiśniewska-Kowalska", "PL", "Lisbon Mangan Society", ""),
    ("Yamada Tarō", "JP", "Lisbon Mangan Society", "山田 太郎"),
    ("Hwangbo Seung-hyun", "KR", "Lisbon Mangan Society", "황보승현"),
]
# Each table's final points, East to North: over two hanchan, totals from about +140 to -140, and
# penalties take the last ones further down (three digits below zero).
FINAL = (155000, 25000, -20000, -40000)


@dataclass
class Harbour:
    tournament: Tournament
    player: Player  # the player who signs in: seated at hanchan 3's table 1, a negative total
    organiser: Any
    set_password: str
    job: SeatingJob
    person: Person  # the signed-in player's person, across tournaments
    series: Series
    club: Tournament  # a club session: one table playing, one signed, two players free


@pytest.fixture
def harbour(transactional_db: None) -> Harbour:
    """Hanchan 1 and 2 signed at three tables, hanchan 3 seated, published and started (its clock
    running), a draft of two hands at its table 3; the players enter their table's sheet; team
    standings; penalties."""
    tournament = Tournament.objects.create(
        name="Grand Harbour International Riichi Open 2026",
        slug=SLUG,
        starts_on=date(2026, 10, 3),
        ends_on=date(2026, 10, 4),
        venue="Salão Nobre do Clube Naval de Lisboa, Cais do Sodré",
        hanchan_count=6,
        entry_mode=Tournament.EntryMode.PLAYERS,
        team_ranking=Tournament.TeamRanking.SUM,
        awards=list(AWARDS),
    )
    organiser = make_user("organiser", tournament, "organiser")
    organiser.is_superuser = organiser.is_staff = True  # also invites organisers
    organiser.save()
    players = [
        Player.objects.create(
            tournament=tournament,
            name=name,
            country=country,
            club=team.split()[0] + " Mahjong Club",
            team=team,
            native_name=native,
            status=Player.Status.CHECKED_IN,
        )
        for name, country, team, native in NAMES
    ]
    Player.objects.create(tournament=tournament, name="Sebastian Substitute-Longname", is_substitute=True)
    for number in (1, 2, 3):
        round_ = Round.objects.create(tournament=tournament, number=number, status=Round.Status.SEATED)
        order = players if number != 2 else players[1:] + players[:1]
        for index in range(3):
            table = seat_table(round_, index + 1, order[4 * index : 4 * index + 4])
            if number == 3:
                continue
            final = dict(zip([s.player.name for s in table.seats.order_by("wind")], FINAL, strict=True))
            entry = {"form": "final", "final_points": final, "riichi_sticks_left": 0}
            sheets.sign_sheet(sheets.save_sheet(table, entry, organiser, submit=True), organiser)
    third = tournament.rounds.get(number=3)
    services.operate_clock(third, organiser, "start")
    # Hanchan 3's table 3 enters its hands as they are played (the live tables): a dealer's mangan, a
    # draw with a riichi stick left on the table.
    table = third.tables.get(number=3)
    east, south = (s.player.name for s in table.seats.order_by("wind")[:2])
    hands = [
        {"result": "tsumo", "winner": east, "han": 5, "riichi": []},
        {"result": "draw", "tenpai": [south], "riichi": [south]},
    ]
    sheets.save_sheet(table, {"form": "hands", "hands": hands}, organiser)
    for index, player in enumerate(players[3::4]):
        penalties.give_penalty(
            player, "other", organiser, points=Decimal(20 + index), reason="Phone ringing during the hanchan"
        )
    job = SeatingJob.objects.create(tournament=tournament, state=SeatingJob.State.DONE, progress=1.0)
    seated = players[3]  # the North of hanchan 3's table 1
    invited = make_user("invited-organiser")
    invited.set_unusable_password()
    invited.save()
    uid = urlsafe_base64_encode(force_bytes(invited.pk))
    token = default_token_generator.make_token(invited)
    # Every player a person across tournaments but the last two, whom the organiser's page suggests
    # matching; a series of the tournament, its points per rank, every award.
    for player in players[:-2]:
        person = Person.objects.create(
            name=player.name, native_name=player.native_name, country=player.country
        )
        Player.objects.filter(pk=player.pk).update(person=person)
    series = Series.objects.create(
        name="Atlantic Riichi League 2026 · Spring and Autumn Season",
        slug="atlantic-league",
        rule=Series.Rule.POINTS_PER_RANK,
        points=["25", "18", "15", "12", "10", "8", "6", "4", "2", "1"],
        created_by=organiser,
        awards=list(AWARDS),
    )
    person = Person.objects.get(registrations=seated)
    club = harbour_club(organiser)
    harbour_spring()
    series.tournaments.set([tournament, club])
    return Harbour(
        tournament, seated, organiser, f"/accounts/set-password/{uid}/{token}/", job, person, series, club
    )


def harbour_spring() -> None:
    """A coming event whose registration is open, for the home page's calendar: 30 characters of venue."""
    today = timezone.localdate()
    spring = Tournament.objects.create(
        name="Grand Harbour Spring Riichi Championship 2027",
        slug=f"{SLUG}-spring",
        starts_on=today + timedelta(days=40),
        ends_on=today + timedelta(days=41),
        venue="Salão Nobre do Clube Naval de Lisboa",
        time_zone="Europe/Lisbon",
        hanchan_count=6,
    )
    now = timezone.now()
    RegistrationSettings.objects.create(
        tournament=spring, opens_at=now - timedelta(days=1), closes_at=now + timedelta(days=30), capacity=64
    )


def harbour_club(organiser: Any) -> Tournament:
    """The club's Thursday session (tournament.club): the first ten players present, one hanchan signed,
    two tables playing, two players free."""
    club = Tournament.objects.create(
        name="Harbour Mahjong Club · Thursday Night Session",
        slug=f"{SLUG}-club",
        kind=Tournament.Kind.CLUB,
        players_form_tables=True,
        starts_on=date(2026, 10, 8),
        ends_on=date(2026, 10, 8),
        hanchan_count=1,
    )
    members = [
        Player.objects.create(tournament=club, name=name, native_name=native, status=Player.Status.CHECKED_IN)
        for name, _country, _team, native in NAMES[:10]
    ]
    ids = [member.pk for member in members]
    first = services.form_table(club, organiser, ids[:4])
    final = dict(zip([s.player.name for s in first.seats.order_by("wind")], FINAL, strict=True))
    entry = {"form": "final", "final_points": final, "riichi_sticks_left": 0}
    sheets.sign_sheet(sheets.save_sheet(first, entry, organiser, submit=True), organiser)
    services.form_table(club, organiser, ids[:4])
    services.form_table(club, organiser, ids[4:8])
    return club


@dataclass
class Page:
    name: str  # the screenshot's file name
    route: str  # the URL pattern it covers, as get_resolver() spells it
    url: Callable[[Harbour], str]
    waits_for: str = ""  # a fetch the page draws from (its standings, its sheet's check), waited for
    reached: Callable[[Any], None] | None = None  # after loading ``url``: the form that leads to the page
    projector: bool = False  # a screen of its own size: screenshots of the screen, not of a long page


T = f"/t/{SLUG}"


def upload_player_list(page: Any) -> None:
    rows = "name,country,club,team\n" + "".join(
        f"{name},{country},Lisbon Mahjong Club,{team}\n" for name, country, team, _native in NAMES[:4]
    )
    page.set_input_files(
        "input[type=file][name=file]",
        {"name": "players.csv", "mimeType": "text/csv", "buffer": rows.encode()},
    )
    with page.expect_navigation():
        page.click("form[enctype] button[type=submit]")


def new_credentials(page: Any) -> None:
    with page.expect_navigation():
        page.click("button[data-issue-credentials]")


ANONYMOUS = [
    Page("tournaments", "", lambda h: "/"),
    Page("sign-in", "accounts/login/", lambda h: "/accounts/login/"),
    Page("set-password", "accounts/set-password/<uidb64>/<token>/", lambda h: h.set_password),
    Page("player-sign-in", "t/<slug:slug>/me/", lambda h: f"{T}/me/"),
    Page("home", "t/<slug:slug>/", lambda h: f"{T}/"),
    Page("standings", "t/<slug:slug>/standings/", lambda h: f"{T}/standings/", "/standings.json"),
    Page("seating", "t/<slug:slug>/seating/", lambda h: f"{T}/seating/"),
    Page("seating-1", "t/<slug:slug>/seating/<int:number>/", lambda h: f"{T}/seating/1/"),
    Page("players", "t/<slug:slug>/players/", lambda h: f"{T}/players/"),
    Page("signup", "t/<slug:slug>/signup/", lambda h: f"{T}/signup/"),
    Page("signup-list", "t/<slug:slug>/signup/registered/", lambda h: f"{T}/signup/registered/"),
    Page("player", "t/<slug:slug>/players/<int:player_id>/", lambda h: f"{T}/players/{h.player.pk}/"),
    Page("projector", "t/<slug:slug>/projector/", lambda h: f"{T}/projector/", "/standings.json", None, True),
    Page("awards", "t/<slug:slug>/awards/", lambda h: f"{T}/awards/"),
    Page("ratings", "t/<slug:slug>/ratings/", lambda h: f"{T}/ratings/"),
    Page(
        "projector-awards",
        "t/<slug:slug>/projector/awards/",
        lambda h: f"{T}/projector/awards/",
        projector=True,
    ),
    Page("person", "persons/<int:person_id>/", lambda h: f"/persons/{h.person.pk}/"),
    Page("series-list", "series/", lambda h: "/series/"),
    Page("series", "series/<slug:series_slug>/", lambda h: f"/series/{h.series.slug}/"),
    Page("series-events", "series/<slug:series_slug>/events/", lambda h: f"/series/{h.series.slug}/events/"),
    Page(
        "series-ratings", "series/<slug:series_slug>/ratings/", lambda h: f"/series/{h.series.slug}/ratings/"
    ),
    Page("site-ratings", "ratings/", lambda h: "/ratings/"),
    Page("site-ratings-mers", "ratings/", lambda h: "/ratings/?list=mers"),
    Page(
        "series-projector",
        "series/<slug:series_slug>/projector/",
        lambda h: f"/series/{h.series.slug}/projector/",
        projector=True,
    ),
    Page("series-awards", "series/<slug:series_slug>/awards/", lambda h: f"/series/{h.series.slug}/awards/"),
    Page(
        "series-projector-awards",
        "series/<slug:series_slug>/projector/awards/",
        lambda h: f"/series/{h.series.slug}/projector/awards/",
        projector=True,
    ),
    Page(
        "series-exports", "series/<slug:series_slug>/exports/", lambda h: f"/series/{h.series.slug}/exports/"
    ),
    Page("live-tables", "t/<slug:slug>/tables/", lambda h: f"{T}/tables/"),
    Page("club-session", "t/<slug:slug>/club/", lambda h: f"/t/{h.club.slug}/club/"),
    Page("club-live-tables", "t/<slug:slug>/tables/", lambda h: f"/t/{h.club.slug}/tables/"),
    Page(
        "projector-tables",
        "t/<slug:slug>/projector/tables/",
        lambda h: f"{T}/projector/tables/",
        projector=True,
    ),
]
# The player signed in on their phone (the seating card's link): their next seat, their own results,
# their table's sheet to enter.
PLAYER = [
    Page("player-home", "t/<slug:slug>/", lambda h: f"{T}/"),
    Page("player-own", "t/<slug:slug>/players/<int:player_id>/", lambda h: f"{T}/players/{h.player.pk}/"),
    Page(
        "player-sheet",
        "t/<slug:slug>/sheet/<int:round_number>/<int:table_number>/",
        lambda h: f"{T}/sheet/3/1/",
        "/check.json",
    ),
]
# The organiser (organisers are also head referees and referees; this one is a site admin too).
STAFF = [
    Page("new-tournament", "tournaments/new/", lambda h: "/tournaments/new/"),
    Page("invite-organiser", "organisers/invite/", lambda h: "/organisers/invite/"),
    Page("manage", "t/<slug:slug>/manage/", lambda h: f"{T}/manage/"),
    Page("settings", "t/<slug:slug>/manage/edit/", lambda h: f"{T}/manage/edit/"),
    Page("statistics", "t/<slug:slug>/manage/statistics/", lambda h: f"{T}/manage/statistics/"),
    Page("awards-manage", "t/<slug:slug>/manage/awards/", lambda h: f"{T}/manage/awards/"),
    Page("registration", "t/<slug:slug>/manage/players/", lambda h: f"{T}/manage/players/"),
    Page("signups-staff", "t/<slug:slug>/manage/signups/", lambda h: f"{T}/manage/signups/"),
    Page(
        "import-preview",
        "t/<slug:slug>/manage/players/import/",
        lambda h: f"{T}/manage/players/",
        reached=upload_player_list,
    ),
    Page(
        "a-registration",
        "t/<slug:slug>/manage/players/<int:player_id>/",
        lambda h: f"{T}/manage/players/{h.player.pk}/",
    ),
    Page(
        "new-pin",
        "t/<slug:slug>/manage/players/<int:player_id>/credentials/",
        lambda h: f"{T}/players/{h.player.pk}/",
        reached=new_credentials,
    ),
    Page("check-in", "t/<slug:slug>/manage/check-in/", lambda h: f"{T}/manage/check-in/"),
    Page("absences", "t/<slug:slug>/manage/absences/", lambda h: f"{T}/manage/absences/"),
    Page("staff", "t/<slug:slug>/manage/staff/", lambda h: f"{T}/manage/staff/"),
    Page("persons-manage", "t/<slug:slug>/manage/persons/", lambda h: f"{T}/manage/persons/"),
    Page("new-series", "series/new/", lambda h: "/series/new/"),
    Page("series-edit", "series/<slug:series_slug>/edit/", lambda h: f"/series/{h.series.slug}/edit/"),
    Page("phases", "t/<slug:slug>/manage/phases/", lambda h: f"{T}/manage/phases/"),
    Page("seating-manage", "t/<slug:slug>/manage/seating/", lambda h: f"{T}/manage/seating/"),
    Page(
        "seating-job",
        "t/<slug:slug>/manage/seating/jobs/<int:job_id>/",
        lambda h: f"{T}/manage/seating/jobs/{h.job.pk}/",
    ),
    Page("clock", "t/<slug:slug>/clock/", lambda h: f"{T}/clock/"),
    Page("club-session-manage", "t/<slug:slug>/club/", lambda h: f"/t/{h.club.slug}/club/"),
    Page("slow-tables", "t/<slug:slug>/tables/watch/", lambda h: f"{T}/tables/watch/"),
    Page("my-tables", "t/<slug:slug>/referee/", lambda h: f"{T}/referee/"),
    Page(
        "sheet-entry",
        "t/<slug:slug>/sheet/<int:round_number>/<int:table_number>/",
        lambda h: f"{T}/sheet/3/2/",
        "/check.json",
    ),
    Page(
        "sheet-correction",
        "t/<slug:slug>/sheet/<int:round_number>/<int:table_number>/correct/",
        lambda h: f"{T}/sheet/1/1/correct/",
        "/check.json",
    ),
    Page("penalties", "t/<slug:slug>/penalties/", lambda h: f"{T}/penalties/"),
    Page("exports", "t/<slug:slug>/exports/", lambda h: f"{T}/exports/"),
    Page(
        "new-sign-in-codes",
        "t/<slug:slug>/exports/print/seating-cards/<int:number>/new-codes/",
        lambda h: f"{T}/exports/print/seating-cards/3/new-codes/",
    ),
]
PAGES = ANONYMOUS + PLAYER + STAFF

# The routes that are not pages, each with why.
NOT_PAGES = {
    "t/<slug:slug>/signup/confirm/<str:token>/": "a one-time link read off an email (tests/signups/)",
    "t/<slug:slug>/signup/me/<str:token>/": "a player's own sign-up by its emailed token (tests/signups/)",
    "calendar.ics": "the coming events' iCalendar feed (tests/pages/test_calendar.py)",
    "t/<slug:slug>/calendar.ics": "one tournament's iCalendar feed (tests/pages/test_calendar.py)",
    "healthz": "the health check (text)",
    "healthz/ready": "the readiness check (text)",
    "sw.js": "the service worker (a script)",
    "manifest.webmanifest": "the web app manifest (JSON)",
    "admin/": "Django's admin, for site admins; its own pages and styles, not the product's screens",
    "accounts/logout/": "POST, answers a redirect",
    "api/": "the REST API (JSON)",
    "i18n/setlang/": "POST from the language switcher, answers a redirect",
    "jsi18n/": "the pages' scripts' words (a script)",
    "t/<slug:slug>/me/logout/": "POST, answers a redirect",
    "t/<slug:slug>/in/<str:token>/": "signs the player in and answers a redirect to their page (visited)",
    "t/<slug:slug>/exports/jobs/<int:job_id>/": "an export's progress (JSON)",
    "t/<slug:slug>/exports/jobs/<int:job_id>/download": "an export's file",
    "t/<slug:slug>/exports/print/<str:kind>/<int:number>/": "a PDF",
    "t/<slug:slug>/exports/<str:identifier>/": "POST, starts an export",
    "t/<slug:slug>/sheet/<int:round_number>/<int:table_number>/check.json": "JSON",
    "t/<slug:slug>/sheet/<int:round_number>/<int:table_number>/save.json": "JSON",
    "t/<slug:slug>/sheet/<int:round_number>/<int:table_number>/from-log/": "POST, answers the sheet page",
    "t/<slug:slug>/sheet/<int:round_number>/<int:table_number>/sign/": "POST, answers a redirect",
    "t/<slug:slug>/sheet/<int:round_number>/<int:table_number>/confirm/": "POST, answers a redirect",
    "t/<slug:slug>/sheet/<int:round_number>/<int:table_number>/dispute/": "POST, answers a redirect",
    "t/<slug:slug>/penalties/<int:penalty_id>/revoke/": "POST, answers a redirect",
    "t/<slug:slug>/penalties/disqualify/": "POST, answers a redirect",
    "t/<slug:slug>/standings.json": "JSON",
    "t/<slug:slug>/projector/seating.json": "JSON",
    "t/<slug:slug>/tables.json": "JSON",
    "t/<slug:slug>/projector/tables.json": "JSON",
    "t/<slug:slug>/clock.json": "JSON",
    "t/<slug:slug>/live": "the live event stream",
    "series/<slug:series_slug>/live": "the series' live event stream",
    "series/<slug:series_slug>/exports/jobs/<int:job_id>/": "a series export's progress (JSON)",
    "series/<slug:series_slug>/exports/jobs/<int:job_id>/download": "a series export's file",
    "series/<slug:series_slug>/exports/<str:identifier>/": "POST, starts a series export",
    "t/<slug:slug>/manage/reveal/": "POST, answers a redirect",
    "t/<slug:slug>/club/tables/": "POST, answers a redirect (or the session's page with the refusal)",
    "t/<slug:slug>/club/tables/<int:hanchan>/take-back/": "POST, answers a redirect (or the refusal)",
    "t/<slug:slug>/manage/players/import/confirm/": "POST, answers a redirect",
    "t/<slug:slug>/manage/check-in/<int:player_id>/": "POST, answers JSON or a redirect",
    "t/<slug:slug>/manage/check-in/many/": "POST, answers JSON or a redirect",
    "t/<slug:slug>/manage/seating/swiss/": "POST, answers a redirect",
    "t/<slug:slug>/manage/seating/<int:number>/publish/": "POST, answers a redirect",
    "t/<slug:slug>/manage/seating/jobs/<int:job_id>.json": "JSON",
    "t/<slug:slug>/manage/seating/jobs/<int:job_id>/apply/": "POST, answers a redirect",
}


def routes() -> Iterator[str]:
    """Every route of the URL configuration; the admin's and the API's as their prefix."""

    def walk(patterns: Any, prefix: str) -> Iterator[str]:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver) and route not in ("admin/", "api/"):
                yield from walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern | URLResolver):
                yield route

    yield from walk(get_resolver().url_patterns, "")


def test_every_page_route_is_visited_or_said_not_to_be_a_page() -> None:
    visited = {page.route for page in PAGES}
    assert not visited & set(NOT_PAGES)
    assert set(routes()) - visited - set(NOT_PAGES) == set(), "a new page: add it to PAGES"
    assert visited | set(NOT_PAGES) == set(routes()), "PAGES or NOT_PAGES name a route that is gone"


# What axe must not find: anything critical or serious; and, moderate but asked for, content outside the
# landmarks, a page without its main landmark, and headings that skip a level (an h3 with no h2 above it:
# the page's outline as a screen reader lists it; markup, so English alone runs the rule).
ASKED_FOR_RULES = re.compile(r"^(region|landmark-.*|heading-order)$")


# The rules whose findings the page's language can change (the names and labels of things, the language
# itself, text spilling out of a landmark or a frame): run in every language. The others (above all the
# colour contrast, more than half of axe's time) depend on the page's markup and colours, the same in
# every language: run in English.
LANGUAGE_RULES = [
    "aria-command-name",
    "aria-input-field-name",
    "aria-toggle-field-name",
    "button-name",
    "document-title",
    "empty-heading",
    "html-has-lang",
    "html-lang-valid",
    "input-button-name",
    "label",
    "landmark-one-main",
    "link-name",
    "region",
    "scrollable-region-focusable",
    "select-name",
    "valid-lang",
]


def axe_findings(page: Any, *, every_rule: bool) -> list[str]:
    assert page.evaluate("typeof window.axe === 'object'"), "axe-core is in every page (in_language)"
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if not every_rule:
        options["runOnly"] = {"type": "rule", "values": LANGUAGE_RULES}
    result = page.evaluate("(options) => axe.run(document, options)", options)
    return [
        f"{rule['id']} ({rule['impact']}): "
        + "; ".join(" ".join(node["target"][-1:]) for node in rule["nodes"][:3])
        + (f" and {len(rule['nodes']) - 3} more" if len(rule["nodes"]) > 3 else "")
        for rule in result["violations"]
        if rule["impact"] in ("critical", "serious") or ASKED_FOR_RULES.match(rule["id"])
    ]


def shoot_page(page: Any, language: str, width: int, name: str, *, whole: bool, folder: Path = SHOTS) -> None:
    path = folder / language / str(width) / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    size = page.viewport_size
    if whole:  # the whole page on a screen as tall as the page: the sticky bars where they belong
        height = page.evaluate("document.documentElement.scrollHeight")
        page.set_viewport_size({"width": size["width"], "height": max(height, size["height"])})
    page.screenshot(path=str(path))
    page.set_viewport_size(size)


@dataclass
class Findings:
    language: str
    problems: dict[str, list[str]] = field(default_factory=dict)

    def add(self, key: str, found: list[str]) -> None:
        if found:
            self.problems[key] = found


def visit(page: Any, base: str, item: Page, harbour: Harbour, findings: Findings) -> None:
    language = findings.language
    sizes = sizes_of(language)
    page.set_viewport_size(dict(zip(("width", "height"), sizes[0], strict=True)))
    url = base + item.url(harbour)
    if item.waits_for:
        with page.expect_response(lambda r: r.url.split("?")[0].endswith(item.waits_for)) as answer:
            page.goto(url)
        answer.value.finished()
    else:
        page.goto(url)
    if item.reached is not None:
        item.reached(page)
    assert page.locator("html").get_attribute("lang") == language, item.name
    axe_at = axe_widths(language)
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(ONE_FRAME)
        findings.add(f"{item.name} at {width} px", unstuck_layout_problems(page))
        if width in axe_at:
            findings.add(f"{item.name} at {width} px: axe", axe_findings(page, every_rule=language == "en"))
        if shots_wanted(language):
            shoot_page(page, language, width, item.name, whole=not item.projector)


def in_language(context: Any, live_server: Any, language: str) -> Any:
    """A page of ``context`` in ``language``, with axe-core in every document it loads: handed to Chromium
    once, where evaluating it on each page sent its 500 kB through the protocol page after page."""
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    context.add_init_script(AXE_SCRIPT)
    return context.new_page()


# Three tests, each with one tournament (its set-up is a tenth of a language's checks): English, which runs
# every axe rule at two sizes and costs about as much as two other languages, with German; the five
# others in two groups.
GROUPS = [("en", "de"), ("ja", "ru", "fr"), ("zh-hans", "ko")]


# Some 200 page loads and 1,000 layouts: a minute or two on an idle machine, several on a loaded one (or
# with screenshots); the suite's five-minute limit per test is for tests that hang, not for this one.
@pytest.mark.browser
@pytest.mark.timeout(900)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("languages", GROUPS, ids="-".join)
def test_every_page_fits_every_screen_and_passes_axe(
    new_context: Any, live_server: Any, harbour: Harbour, languages: tuple[str, ...]
) -> None:
    problems = {}
    base = live_server.url
    for language in languages:
        findings = Findings(language)
        page = in_language(new_context(), live_server, language)
        for item in ANONYMOUS:
            visit(page, base, item, harbour, findings)
        page.context.close()

        page = in_language(new_context(has_touch=True), live_server, language)
        link = player_login.issue_for_player(harbour.player, harbour.organiser).token  # a link signs in once
        page.goto(f"{base}{T}/in/{link}/")
        for item in PLAYER:
            visit(page, base, item, harbour, findings)
        page.context.close()

        page = in_language(new_context(), live_server, language)
        log_in(page, live_server, "organiser", PASSWORD, f"{T}/manage/")
        for item in STAFF:
            visit(page, base, item, harbour, findings)
        page.context.close()
        problems.update({f"{language}, {where}": found for where, found in findings.problems.items()})

    assert not problems, "\n".join(
        f"{where}: {problem}" for where, found in problems.items() for problem in found
    )


def test_the_groups_hold_every_language_once() -> None:
    assert sorted(language for group in GROUPS for language in group) == sorted(LANGUAGES)
