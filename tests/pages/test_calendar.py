"""The calendar of coming events on the site's home page and its iCalendar feeds, through Django's test
client: a coming event with its registration state and places left, linking to its sign-up page; never a
private tournament, the demo or a past event; the feeds read back with the ``icalendar`` package."""

from __future__ import annotations

from datetime import timedelta

import icalendar
import pytest
from django.test import Client
from django.utils import timezone

from tests.conftest import make_user
from tournament.models import RegistrationSettings, SignUp, Tournament

pytestmark = pytest.mark.django_db


def cup(slug: str, days: int, **fields: object) -> Tournament:
    today = timezone.localdate()
    return Tournament.objects.create(
        name=fields.pop("name", slug.replace("-", " ").title()),
        slug=slug,
        starts_on=today + timedelta(days=days),
        ends_on=today + timedelta(days=days + 1),
        hanchan_count=4,
        **fields,
    )


@pytest.fixture
def events() -> dict[str, Tournament]:
    now = timezone.now()
    spring = cup("spring-open", 40, venue="Salão Nobre, Lisboa", time_zone="Europe/Lisbon")
    RegistrationSettings.objects.create(
        tournament=spring, opens_at=now - timedelta(days=1), closes_at=now + timedelta(days=30), capacity=12
    )
    for index in range(3):
        SignUp.objects.create(
            tournament=spring,
            last_name="Player",
            first_name=f"No{index}",
            email=f"p{index}@example.org",
            language="en",
            consent_at=now,
            state=SignUp.State.REGISTERED,
            token_seed=f"seed{index}",
            manage_token_hash=f"{index:064d}",
            manage_expires_at=now + timedelta(days=60),
        )
    summer = cup("summer-cup", 90)
    RegistrationSettings.objects.create(tournament=summer, opens_at=now + timedelta(days=5))
    return {
        "spring": spring,
        "summer": summer,
        "private": cup("secret-invitational", 50, is_public=False),
        "past": cup("autumn-past", -60),
        "demo": cup("demo-cup", 20, is_demo=True),
    }


def test_the_home_page_lists_the_coming_events_in_date_order_with_their_registration(
    events: dict[str, Tournament], client: Client
) -> None:
    page = client.get("/").content.decode()
    calendar = page[page.index("data-calendar") : page.index("</section>")]
    assert calendar.index("Spring Open") < calendar.index("Summer Cup")
    assert "Salão Nobre, Lisboa" in calendar
    spring = calendar[calendar.index(f'data-event="{events["spring"].pk}"') :]
    assert 'data-registration="open"' in spring[:200]
    assert "Registration open until" in spring and "(Europe/Lisbon) · Places left: 9" in spring
    assert 'href="http://testserver/t/spring-open/signup/"' in spring.split("</article>")[0]
    summer = calendar[calendar.index(f'data-event="{events["summer"].pk}"') :].split("</article>")[0]
    assert "Registration opens on" in summer and "/signup/" not in summer
    for hidden in ("Secret Invitational", "Autumn Past", "Demo Cup"):
        assert hidden not in calendar
    assert 'href="/calendar.ics"' in page


def test_a_private_tournament_stays_out_of_the_calendar_even_for_its_staff(
    events: dict[str, Tournament],
) -> None:
    organiser = Client()
    organiser.force_login(make_user("organiser", events["private"], "organiser"))
    page = organiser.get("/").content.decode()
    assert "Secret Invitational" in page  # in the list of the tournaments this organiser sees
    assert "Secret Invitational" not in page[page.index("data-calendar") : page.index("</section>")]
    assert b"Secret Invitational" not in organiser.get("/calendar.ics").content


def test_the_feed_reads_back_with_the_dates_uid_and_state(
    events: dict[str, Tournament], client: Client
) -> None:
    response = client.get("/calendar.ics")
    assert response.status_code == 200 and response["Content-Type"] == "text/calendar; charset=utf-8"
    feed = icalendar.Calendar.from_ical(response.content)
    entries = {str(entry["summary"]): entry for entry in feed.walk("VEVENT")}
    assert list(entries) == ["Spring Open", "Summer Cup"]
    spring = entries["Spring Open"]
    tournament = events["spring"]
    assert spring["uid"] == f"tournament-{tournament.pk}@testserver"
    assert spring.decoded("dtstart") == tournament.starts_on
    assert spring.decoded("dtend") == tournament.ends_on + timedelta(days=1)
    assert str(spring["url"]) == "http://testserver/t/spring-open/"
    assert str(spring["location"]) == "Salão Nobre, Lisboa"
    description = str(spring["description"])
    assert "Registration open until" in description and "Places left: 9" in description
    assert "http://testserver/t/spring-open/signup/" in description
    assert "Registration opens on" in str(entries["Summer Cup"]["description"])


def test_a_tournaments_own_feed_and_the_site_address_in_the_uid(
    events: dict[str, Tournament], client: Client, settings: object
) -> None:
    settings.SITE_URL = "https://mahjong.example.org"  # type: ignore[attr-defined]
    own = icalendar.Calendar.from_ical(client.get("/t/spring-open/calendar.ics").content)
    (entry,) = own.walk("VEVENT")
    assert entry["uid"] == f"tournament-{events['spring'].pk}@mahjong.example.org"
    assert client.get("/t/secret-invitational/calendar.ics").status_code == 404
    past = icalendar.Calendar.from_ical(client.get("/t/autumn-past/calendar.ics").content)
    assert "Registration" not in str(past.walk("VEVENT")[0]["description"])  # no sign-ups: nothing said


def test_the_feed_and_the_page_speak_the_readers_language(events: dict[str, Tournament]) -> None:
    reader = Client(headers={"Accept-Language": "ja"})
    page = reader.get("/").content.decode()
    assert "Registration open until" not in page
    feed = icalendar.Calendar.from_ical(reader.get("/calendar.ics").content)
    assert "Registration open until" not in str(feed.walk("VEVENT")[0]["description"])


def test_a_tournaments_home_links_its_registered_players_with_the_state_and_its_feed(
    events: dict[str, Tournament], client: Client
) -> None:
    home = client.get("/t/spring-open/").content.decode()
    link = home[home.index("data-registration-link") :].split("</a>")[0]
    assert "Registered players" in link and "Places left: 9" in link
    assert 'href="/t/spring-open/calendar.ics"' in home
    assert "data-registration-link" not in client.get("/t/autumn-past/").content.decode()
