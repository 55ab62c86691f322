"""The calendar's rules, plain Python (tournament.event_calendar): which events are still coming in their
venue's time zone, the registration state in words, the month headings, and the iCalendar feed read back
with the ``icalendar`` package."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import icalendar

from tournament.core import event_calendar
from tournament.core.event_calendar import Event, Registration
from tournament.core.signups import Settings

NOW = datetime(2026, 12, 2, 18, 0, tzinfo=UTC)


def settings(
    opens: int | None = -1, closes: int | None = 10, capacity: int | None = 4, **kw: bool
) -> Settings:
    def moment(days: int | None) -> datetime | None:
        return None if days is None else NOW + timedelta(days=days)

    return Settings(
        moment(opens), moment(closes), capacity, kw.get("approval", False), kw.get("waiting", True)
    )


def event(
    pk: int, starts: date, ends: date | None = None, *, zone: str = "Europe/Lisbon", **kw: object
) -> Event:
    return Event(
        id=pk,
        name=str(kw.get("name", f"Cup {pk}")),
        starts_on=starts,
        ends_on=ends or starts,
        venue=str(kw.get("venue", "")),
        time_zone=zone,
        url=f"https://mahjong.example.org/t/cup-{pk}/",
        signup_url=f"https://mahjong.example.org/t/cup-{pk}/signup/",
        registration=kw.get("registration", Registration(event_calendar.NONE)),  # type: ignore[arg-type]
    )


def test_the_registration_state_at_each_moment() -> None:
    assert event_calendar.registration(settings(opens=None), 0, NOW).state == "none"
    assert event_calendar.registration(settings(opens=1), 0, NOW).state == "not_open"
    opened = event_calendar.registration(settings(), 3, NOW)
    assert (opened.state, opened.places_left, opened.takes_sign_ups) == ("open", 1, True)
    assert event_calendar.registration(settings(), 4, NOW).state == "waiting_list"
    full = event_calendar.registration(settings(waiting=False), 4, NOW)
    assert (full.state, full.takes_sign_ups) == ("full", False)
    assert event_calendar.registration(settings(opens=-5, closes=-1), 0, NOW).state == "closed"
    assert event_calendar.registration(settings(capacity=None), 500, NOW).places_left is None


def test_the_state_in_words_with_the_moment_as_given() -> None:
    def moment(value: datetime) -> str:
        return value.strftime("%d %b %H:%M")

    def words(rules: Settings, holding: int = 0) -> str:
        return event_calendar.describe(event_calendar.registration(rules, holding, NOW), moment)

    assert words(settings(opens=None)) == ""
    assert words(settings(opens=1)) == "Registration opens on 03 Dec 18:00"
    assert words(settings(), 1) == "Registration open until 12 Dec 18:00 · Places left: 3"
    assert words(settings(closes=None, capacity=None)) == "Registration open"
    assert words(settings(), 4) == "Registration open until 12 Dec 18:00 · Full: waiting list"
    assert words(settings(waiting=False), 4) == "Registration full"
    assert words(settings(opens=-5, closes=-1)) == "Registration closed"


def test_coming_events_are_those_whose_last_day_is_not_over_at_the_venue() -> None:
    # 18:00 UTC on 2 December is already 3 December in Tokyo, still 2 December in Lisbon.
    lisbon = event(1, date(2026, 12, 2), zone="Europe/Lisbon")
    tokyo = event(2, date(2026, 12, 2), zone="Asia/Tokyo")
    under_way = event(3, date(2026, 12, 1), date(2026, 12, 3))
    later = event(4, date(2027, 1, 9), name="A January Cup")
    also_later = event(5, date(2026, 12, 20), name="Winter Cup")
    past = event(6, date(2026, 11, 1))
    coming = event_calendar.coming([later, past, tokyo, also_later, lisbon, under_way], NOW)
    assert [e.id for e in coming] == [3, 1, 5, 4]
    months = event_calendar.by_month(coming)
    assert [(month, [e.id for e in events]) for month, events in months] == [
        (date(2026, 12, 1), [3, 1, 5]),
        (date(2027, 1, 1), [4]),
    ]


def test_the_feed_reads_back_as_all_day_events_with_a_stable_uid() -> None:
    rules = event_calendar.registration(settings(), 1, NOW)
    name = "Grand Harbour International Riichi Open 2027 · Spring and Autumn"
    venue = "Salão Nobre, Cais do Sodré"
    cup = event(7, date(2027, 3, 6), date(2027, 3, 7), name=name, venue=venue, registration=rules)
    body = event_calendar.feed(
        [cup], title="Riichi tournaments", host="mahjong.example.org", now=NOW, description=lambda e: "Open"
    )
    assert b"\r\n " in body and all(len(line) <= 75 for line in body.split(b"\r\n")), "folded"
    calendar = icalendar.Calendar.from_ical(body)
    assert calendar["version"] == "2.0" and calendar["x-wr-calname"] == "Riichi tournaments"
    (entry,) = calendar.walk("VEVENT")
    assert entry["uid"] == "tournament-7@mahjong.example.org"
    assert entry.decoded("dtstart") == date(2027, 3, 6)
    assert entry.decoded("dtend") == date(2027, 3, 8)  # the day after the last day
    assert b"\r\nDTSTART;VALUE=DATE:20270306\r\nDTEND;VALUE=DATE:20270308\r\n" in body
    assert str(entry["summary"]) == name
    assert str(entry["location"]) == venue
    assert str(entry["url"]) == "https://mahjong.example.org/t/cup-7/"
    assert str(entry["description"]).splitlines() == [
        "Open",
        "https://mahjong.example.org/t/cup-7/signup/",
        "https://mahjong.example.org/t/cup-7/",
    ]
    again = event_calendar.feed(
        [cup], title="x", host="mahjong.example.org", now=NOW + timedelta(days=1), description=str
    )
    assert icalendar.Calendar.from_ical(again).walk("VEVENT")[0]["uid"] == entry["uid"]
