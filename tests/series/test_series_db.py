"""Series standings and a person's events from the database: worked out by hand from the signed sheets,
and what a reader may not see left out (private tournaments, hidden hanchan), through the pages and
the API alike."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from tests.series.helpers import FIRST, SECOND, played
from tournament.models import Person, Player, Series
from tournament.queries.series_db import person_events, series_table


def standings(series: Series) -> list[tuple[int | None, str, str, int]]:
    return [(row["rank"], row["name"], row["score"], row["events"]) for row in series_table(series)["rows"]]


@pytest.mark.django_db
def test_each_registration_with_an_ema_id_joins_one_person_across_tournaments() -> None:
    played("spring", FIRST)
    played("autumn", SECOND, day=2)
    assert Person.objects.count() == 4
    ana = Person.objects.get(ema_id="10990001")
    assert sorted(ana.registrations.values_list("tournament__slug", flat=True)) == ["autumn", "spring"]


@pytest.mark.django_db
def test_series_standings_by_hand_under_each_rule() -> None:
    spring, _ = played("spring", FIRST)
    autumn, _ = played("autumn", SECOND, day=2)
    series = Series.objects.create(name="Season", slug="season")
    series.tournaments.set([spring, autumn])
    # Sum: Ana 22.4 - 10 = 12.4, Ben -8.4 + 30 = 21.6, Cho -20.1 + 10 = -10.1, Dai 6.1 - 30 = -23.9.
    assert standings(series) == [
        (1, "Ben", "21.6", 2),
        (2, "Ana", "12.4", 2),
        (3, "Cho", "-10.1", 2),
        (4, "Dai", "-23.9", 2),
    ]
    # Best 1: Ben 30, Ana 22.4, Cho 10, Dai 6.1.
    series.rule, series.best_n = Series.Rule.BEST_N, 1
    assert [row[2] for row in standings(series)] == ["30", "22.4", "10", "6.1"]
    # Points 10, 6, 3, 1: spring Ana 10, Dai 6, Ben 3, Cho 1; autumn Ben 10, Cho 6, Ana 3, Dai 1.
    series.rule, series.points = Series.Rule.POINTS_PER_RANK, ["10", "6", "3", "1"]
    assert standings(series) == [
        (1, "Ana", "13", 2),
        (1, "Ben", "13", 2),
        (3, "Cho", "7", 2),
        (3, "Dai", "7", 2),
    ]
    # Average over at least 2 events: 21.6 / 2 = 10.8, 12.4 / 2 = 6.2 and so on.
    series.rule, series.min_events = Series.Rule.AVERAGE, 2
    assert [row[2] for row in standings(series)] == ["10.8", "6.2", "-5.05", "-11.95"]


@pytest.mark.django_db
def test_a_private_tournament_counts_for_nothing_and_is_not_shown() -> None:
    spring, _ = played("spring", FIRST)
    closed, closed_organiser = played("closed", SECOND, day=2, is_public=False)
    series = Series.objects.create(name="Season", slug="season")
    series.tournaments.set([spring, closed])
    assert [row[2] for row in standings(series)] == ["22.4", "6.1", "-8.4", "-20.1"]
    assert [event["slug"] for event in series_table(series)["events"]] == ["spring"]
    events_page = Client().get("/series/season/events/").content.decode()
    assert "Spring Cup" in events_page and "Closed Cup" not in events_page
    assert Client().get(f"/api/series/{series.pk}/").json()["tournaments"] == [spring.pk]
    ana = Person.objects.get(ema_id="10990001")
    assert [e["tournament"].slug for e in person_events(ana, AnonymousUser())[0]] == ["spring"]
    assert [e["tournament"].slug for e in person_events(ana, closed_organiser)[0]] == ["closed", "spring"]
    person_page = Client().get(f"/persons/{ana.pk}/").content.decode()
    assert "Spring Cup" in person_page and "Closed Cup" not in person_page
    # A person registered only in a private tournament does not exist for outsiders.
    alone = Player.objects.create(tournament=closed, name="Eve", ema_id="10990009")
    only_private = Person.objects.create(name="Eve", ema_id="10990009")
    Player.objects.filter(pk=alone.pk).update(person=only_private)
    assert Client().get(f"/persons/{only_private.pk}/").status_code == 404
    assert Client().get(f"/api/persons/{only_private.pk}/").status_code == 404
    staff = Client()
    staff.force_login(closed_organiser)
    assert staff.get(f"/persons/{only_private.pk}/").status_code == 200


@pytest.mark.django_db
def test_hidden_hanchan_stay_hidden_on_the_person_page_the_series_and_the_api() -> None:
    # Two hanchan, the last hidden until revealed: the public sees hanchan 1 only.
    final, organiser = played("final", FIRST, SECOND, hidden_hanchan=1)
    series = Series.objects.create(name="Season", slug="season")
    series.tournaments.set([final])
    ana = Person.objects.get(ema_id="10990001")
    assert standings(series)[0][:3] == (1, "Ana", "22.4")
    public = Client().get(f"/api/persons/{ana.pk}/").json()
    assert (public["events"][0]["total"], public["events"][0]["played"]) == ("22.4", 1)
    assert public["figures"]["placements"] == [1, 0, 0, 0]
    page = Client().get(f"/persons/{ana.pk}/").content.decode()
    assert "12.4" not in page
    staff = Client()
    staff.force_login(organiser)
    whole = staff.get(f"/api/persons/{ana.pk}/").json()
    assert (whole["events"][0]["total"], whole["events"][0]["played"]) == ("12.4", 2)
    assert whole["figures"]["placements"] == [1, 0, 1, 0]
    # The series is public: its staff see there what everyone sees.
    assert staff.get(f"/api/series/{series.pk}/standings/").json()["rows"][0]["score"] == "22.4"
    assert Client().get(f"/api/series/{series.pk}/standings/").json()["rows"][0]["score"] == "22.4"
