"""Seating published hanchan by hanchan: the public sees a hanchan's seating once the organiser publishes
it (pages, API, the public seating export); staff see every hanchan."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from exports.exporters import get_exporter
from scoring import services as sheets
from tests.conftest import make_players, seat_table
from tests.exports.helpers import zip_members
from tournament import services
from tournament.core.refusal import Refusal
from tournament.models import AuditEntry, Round, Tournament


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


# -- Standings as of the last completed hanchan, and the last hanchan hidden until revealed -----------


def sign_final(table: Any, referee: Any, points: list[int]) -> None:
    names = [seat.player.name for seat in table.seats.order_by("wind")]
    entry = {"form": "final", "riichi_sticks_left": 0, "final_points": dict(zip(names, points, strict=True))}
    sheets.sign_sheet(sheets.save_sheet(table, entry, referee, submit=True), referee)


@pytest.fixture
def eight(tournament: Tournament) -> tuple[Tournament, list[Any]]:
    """Two hanchan of two tables each, eight players."""
    tournament.hanchan_count = 2
    tournament.save()
    players = make_players(tournament, 8, prefix="P")
    tables = []
    for number in (1, 2):
        round_ = Round.objects.create(tournament=tournament, number=number, status="started")
        tables.append(seat_table(round_, 1, players[:4]))
        tables.append(seat_table(round_, 2, players[4:]))
    return tournament, tables


def public_total(client: Client, tournament: Tournament, name: str) -> tuple[Any, str]:
    data = client.get(f"/api/tournaments/{tournament.pk}/standings/").json()
    return data["as_of"], next(row["total"] for row in data["rows"] if row["name"] == name)


@pytest.mark.django_db
def test_standings_as_of_the_last_completed_hanchan(
    eight: tuple[Tournament, list[Any]], referee: Any
) -> None:
    tournament, tables = eight
    Tournament.objects.filter(pk=tournament.pk).update(standings_publication="completed")
    public, staff = Client(), Client()
    staff.force_login(referee)
    sign_final(tables[0], referee, [40000, 30000, 30000, 20000])
    assert public_total(public, tournament, "P 001") == (0, "0")  # hanchan 1 is not complete yet
    assert public_total(staff, tournament, "P 001") == (None, "25")  # staff: live and whole
    sign_final(tables[1], referee, [40000, 30000, 30000, 20000])
    assert public_total(public, tournament, "P 001") == (1, "25")
    page = public.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert "Standings after hanchan 1" in page


@pytest.mark.django_db
def test_the_last_hanchan_stay_hidden_until_the_organiser_reveals_them(
    eight: tuple[Tournament, list[Any]], referee: Any, organiser: Any
) -> None:
    tournament, tables = eight
    Tournament.objects.filter(pk=tournament.pk).update(hidden_hanchan=1)
    for table in tables:
        sign_final(table, referee, [40000, 30000, 30000, 20000])
    public, staff = Client(), Client()
    staff.force_login(organiser)
    assert public_total(public, tournament, "P 001") == (1, "25")  # hanchan 2 hidden
    assert public_total(staff, tournament, "P 001") == (None, "50")
    projector = staff.get(f"/t/{tournament.slug}/projector/").content.decode()
    assert "after hanchan 1" in projector  # the room's screen shows what the public sees
    player = public.get(f"/t/{tournament.slug}/players/{tables[0].seats.get(wind=0).player_id}/")
    assert ">50<" not in player.content.decode()
    assert staff.post(f"/t/{tournament.slug}/manage/reveal/", {"revealed": "on"}).status_code == 302
    assert public_total(public, tournament, "P 001") == (None, "50")
    assert AuditEntry.objects.filter(action="standings.reveal").exists()
