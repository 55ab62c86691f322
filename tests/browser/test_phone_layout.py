"""The organiser's pages of the door, and the penalties page with a penalty to revoke, on the narrowest
phone (360 px) in all six languages, with long names and a tournament name of 45 characters: nothing
wider than the screen, no tap target under 24 x 24 px, past the edge, overlapping another or covering a
text, no text cut (``layout_problems``). Screenshots go to tests/artifacts/phone/ (not committed) for
people to look at."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from penalties import services as penalties
from tests.browser.conftest import layout_problems, log_in
from tests.conftest import make_user
from tournament import services
from tournament.models import Player, Tournament

SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "phone"
NARROWEST = {"width": 360, "height": 780}
LANGUAGES = ["en", "ja", "ru", "fr", "de", "zh-hans"]
NAMES = [
    "Maximilian Schwarzenberger-Kl",  # 29 characters
    "François Dubois-Lefèvre",
    "Nguyễn Thị Minh Khai",
    "Natalia Wiśniewska-Kowalska",
    "Jukka-Pekka Räsänen",
    "Oskar Ebert",
]
PAGES = ["manage/check-in/", "", "manage/absences/", "penalties/"]


@pytest.fixture
def door(transactional_db: None) -> Tournament:
    tournament = Tournament.objects.create(
        name="Grand Harbour International Riichi Open 2026",
        slug="door",
        starts_on=date(2026, 10, 3),
        ends_on=date(2026, 10, 3),
        hanchan_count=4,
    )
    organiser = make_user("organiser", tournament, "organiser")
    for index, name in enumerate(NAMES):
        player = Player.objects.create(tournament=tournament, name=name)
        if index % 2 == 0:
            services.check_in(player, user=organiser)
    Player.objects.create(tournament=tournament, name="Sebastian Substitute-Longname", is_substitute=True)
    late = Player.objects.get(tournament=tournament, name=NAMES[0])
    penalties.give_penalty(late, "other", organiser, points=10, reason="Phone ringing during the hanchan")
    return tournament


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_door_pages_fit_the_narrowest_phone_in_every_language(
    new_context: Any, live_server: Any, door: Tournament
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    found = {}
    context = new_context(viewport=NARROWEST)
    page = context.new_page()
    log_in(page, live_server, "organiser", "pw-for-tests-only", f"/t/{door.slug}/{PAGES[0]}")
    for language in LANGUAGES:
        # The reader's choice of language, as the switcher remembers it.
        context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        for path in PAGES:
            page.goto(f"{live_server.url}/t/{door.slug}/{path}")
            assert page.locator("html").get_attribute("lang") == language
            name = path.strip("/").replace("/", "-") or "home"
            page.screenshot(path=str(SHOTS / f"{language}-{name}.png"), full_page=True)
            if problems := layout_problems(page):
                found[f"{language} {name}"] = problems
    assert found == {}
