"""Seating published hanchan by hanchan: the public sees a hanchan's seating once the organiser publishes
it (pages, API, the public seating export); staff see every hanchan."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from exports.exporters import get_exporter
from tests.conftest import make_players, seat_table
from tests.exports.helpers import zip_members
from tournament import services
from tournament.models import AuditEntry, Round, Tournament
from tournament.refusal import Refusal


@pytest.fixture
def two_hanchan(tournament: Tournament) -> Tournament:
    tournament.seating_publication = Tournament.SeatingPublication.BY_HANCHAN
    tournament.save()
    players = make_players(tournament, 4, prefix="Seated")
    for number in (1, 2):
        seat_table(Round.objects.create(tournament=tournament, number=number, status="seated"), 1, players)
    return tournament


@pytest.mark.django_db
def test_the_public_sees_a_hanchan_once_it_is_published(two_hanchan: Tournament, organiser: Any) -> None:
    slug, public = two_hanchan.slug, Client()
    assert "Seated 001" not in public.get(f"/t/{slug}/seating/2/").content.decode()
    assert "not published yet" in public.get(f"/t/{slug}/seating/2/").content.decode()
    assert public.get(f"/api/tournaments/{two_hanchan.pk}/rounds/2/").json()["tables"] == []
    table = two_hanchan.rounds.get(number=2).tables.get()
    assert public.get(f"/api/tables/{table.pk}/").status_code == 404
    staff = Client()
    staff.force_login(organiser)
    assert "Seated 001" in staff.get(f"/t/{slug}/seating/2/").content.decode()
    assert staff.get(f"/api/tournaments/{two_hanchan.pk}/rounds/2/").json()["tables"] != []

    assert staff.post(f"/t/{slug}/manage/seating/2/publish/", {"published": "on"}).status_code == 302
    assert "Seated 001" in public.get(f"/t/{slug}/seating/2/").content.decode()
    round_ = public.get(f"/api/tournaments/{two_hanchan.pk}/rounds/2/").json()
    assert round_["seating_published"] is True and round_["tables"] != []
    assert public.get(f"/api/tables/{table.pk}/").status_code == 200
    assert AuditEntry.objects.get().action == "seating.publish"


@pytest.mark.django_db
def test_a_started_hanchan_stays_published(two_hanchan: Tournament, organiser: Any) -> None:
    round_ = two_hanchan.rounds.get(number=1)
    services.publish_seating(round_, organiser)
    services.operate_clock(round_, organiser, "start")
    with pytest.raises(Refusal, match="its seating stays public"):
        services.publish_seating(round_, organiser, published=False)


@pytest.mark.django_db
def test_tournaments_that_show_everything_need_no_publishing(tournament: Tournament) -> None:
    players = make_players(tournament, 4, prefix="Seated")
    seat_table(Round.objects.create(tournament=tournament, number=1, status="seated"), 1, players)
    assert "Seated 001" in Client().get(f"/t/{tournament.slug}/seating/1/").content.decode()


@pytest.mark.django_db
def test_the_public_seating_file_holds_the_published_hanchan_only(
    two_hanchan: Tournament, organiser: Any
) -> None:
    services.publish_seating(two_hanchan.rounds.get(number=1), organiser)
    exporter = get_exporter("seating_csv")
    assert exporter is not None
    members = zip_members(exporter.render(two_hanchan).data)
    by_table = next(data for name, data in members.items() if "by-table" in name).decode("utf-8-sig")
    hanchan = [line.split(",")[0] for line in by_table.splitlines()[1:]]
    assert hanchan == ["1"]
