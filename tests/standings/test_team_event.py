"""Team standings end to end: the team event of ``test_teams`` played on signed score sheets, read
through the API, the pages, the projector, the standings workbook and the archive.

The event (WRC 2015 uma 15, 5, -5, -15): team Kyoto is Aki, Ayu and Ami; Osaka is Ben and Bo; Nagoya is
Chi and Cai, a substitute; Tom is in no team. Ami gets a chombo (20 points, WRCR 2015 §7.1) in hanchan 2.

    hanchan 1, table 1: Aki 45,000 (+30)  Ben 32,000 (+7)   Chi 25,000 (-10)  Tom 18,000 (-27)
    hanchan 1, table 2: Ayu 38,000 (+23)  Cai 30,000 (+5)   Bo  28,000 (-7)   Ami 24,000 (-21)
    hanchan 2, table 1: Ben 40,000 (+25)  Ayu 33,000 (+8)   Tom 27,000 (-8)   Cai 20,000 (-25)
    hanchan 2, table 2: Chi 42,000 (+27)  Ami 31,000 (+6)   Aki 26,000 (-9)   Bo  21,000 (-24)

Totals: Aki 21, Ayu 31, Ami -35, Ben 32, Bo -31, Chi 17, Cai -20, Tom -35.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from exports.archive.dump import export_archive
from exports.archive.load import import_archive
from exports.exporters import get_exporter
from penalties.services import give_penalty
from scoring import services as sheets
from tests.conftest import seat_table
from tests.exports.helpers import csv_rows, rows, workbook, zip_members
from tournament.models import Player, Round, Tournament

TEAMS = {
    "Aki": "Kyoto",
    "Ayu": "Kyoto",
    "Ami": "Kyoto",
    "Ben": "Osaka",
    "Bo": "Osaka",
    "Chi": "Nagoya",
    "Cai": "Nagoya",
    "Tom": "",
}
TABLES = {  # hanchan -> tables, each its players East to North with their final points
    1: [
        [("Aki", 45000), ("Ben", 32000), ("Chi", 25000), ("Tom", 18000)],
        [("Ayu", 38000), ("Cai", 30000), ("Bo", 28000), ("Ami", 24000)],
    ],
    2: [
        [("Ben", 40000), ("Ayu", 33000), ("Tom", 27000), ("Cai", 20000)],
        [("Chi", 42000), ("Ami", 31000), ("Aki", 26000), ("Bo", 21000)],
    ],
}


@pytest.fixture
def team_event(tournament: Tournament, referee: Any, head_referee: Any) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(hanchan_count=2, team_ranking="sum")
    players = {
        name: Player.objects.create(tournament=tournament, name=name, team=team, is_substitute=name == "Cai")
        for name, team in TEAMS.items()
    }
    seated = []  # every table seated before any is signed: a hanchan is complete once all its tables are
    for number, tables in TABLES.items():
        round_ = Round.objects.create(tournament=tournament, number=number, status="started")
        for index, seats in enumerate(tables, start=1):
            seated.append((seat_table(round_, index, [players[name] for name, _ in seats]), dict(seats)))
    for table, points in seated:
        entry = {"form": "final", "riichi_sticks_left": 0, "final_points": points}
        sheets.sign_sheet(sheets.save_sheet(table, entry, referee, submit=True), referee)
    give_penalty(players["Ami"], "chombo", head_referee, round=tournament.rounds.get(number=2))
    tournament.refresh_from_db()
    return tournament


def api_teams(client: Client, tournament: Tournament) -> dict[str, Any]:
    response = client.get(f"/api/tournaments/{tournament.pk}/team-standings/")
    assert response.status_code == 200
    return response.json()  # type: ignore[no-any-return]


def ranking(data: dict[str, Any]) -> list[tuple[int, str, str, int, int]]:
    return [(r["rank"], r["name"], r["total"], r["counted"], r["played"]) for r in data["rows"]]


@pytest.mark.django_db
def test_the_api_gives_each_rule_as_worked_out(team_event: Tournament, organiser: Any) -> None:
    public, staff = Client(), Client()
    staff.force_login(organiser)
    # Sum, substitutes not counted: Kyoto 21 + 31 - 35 = 17 and Nagoya (Chi alone) 17 tie; Kyoto's best
    # member (Ayu, 2nd) is placed better than Nagoya's (Chi, 4th). Osaka 32 - 31 = 1. Tom is in no team.
    data = api_teams(public, team_event)
    assert data["rule"] == "sum" and data["as_of"] is None
    assert ranking(data) == [(1, "Kyoto", "17", 3, 2), (2, "Nagoya", "17", 1, 2), (3, "Osaka", "1", 2, 2)]
    kyoto = data["rows"][0]
    assert kyoto["penalties"] == "20" and kyoto["best_member_rank"] == 2
    assert [(m["name"], m["contribution"]) for m in kyoto["members"]] == [
        ("Ayu", "31"),
        ("Aki", "21"),
        ("Ami", "-35"),
    ]

    # Best 2 per hanchan, substitutes counted: Kyoto (30 + 23) + (8 + 6) - 20 (Ami's penalty, off the team
    # total whatever the selection) = 47; Osaka (7 - 7) + (25 - 24) = 1; Nagoya (5 - 10) + (27 - 25) = -3.
    body = {"team_ranking": "best_per_hanchan", "team_best_n": 2, "team_substitutes_count": True}
    assert (
        staff.patch(f"/api/tournaments/{team_event.pk}/", body, content_type="application/json").status_code
        == 200
    )
    data = api_teams(public, team_event)
    assert ranking(data) == [(1, "Kyoto", "47", 3, 2), (2, "Osaka", "1", 2, 2), (3, "Nagoya", "-3", 2, 2)]
    ami = next(m for m in data["rows"][0]["members"] if m["name"] == "Ami")
    assert ami == {
        "player": ami["player"],
        "name": "Ami",
        "rank": 6,
        "total": "-35",
        "contribution": "-14",  # her 6 in hanchan 2, less her 20-point penalty
        "counted": True,
        "counted_hanchan": [2],
    }

    # Best 2 overall, substitutes not counted: Kyoto 31 + 21 = 52, Nagoya 17, Osaka 1.
    body = {"team_ranking": "best_overall", "team_substitutes_count": False}
    assert (
        staff.patch(f"/api/tournaments/{team_event.pk}/", body, content_type="application/json").status_code
        == 200
    )
    assert ranking(api_teams(public, team_event)) == [
        (1, "Kyoto", "52", 2, 2),
        (2, "Nagoya", "17", 1, 2),
        (3, "Osaka", "1", 2, 2),
    ]


@pytest.mark.django_db
def test_a_best_n_rule_without_n_is_refused_naming_the_field(team_event: Tournament, organiser: Any) -> None:
    staff = Client()
    staff.force_login(organiser)
    url = f"/api/tournaments/{team_event.pk}/"
    response = staff.patch(url, {"team_ranking": "best_overall"}, content_type="application/json")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == ["team_best_n"]
    response = staff.patch(url, {"team_best_n": 21}, content_type="application/json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "team_best_n"
    assert Tournament.objects.get(pk=team_event.pk).team_ranking == "sum"


@pytest.mark.django_db
def test_hidden_hanchan_never_count_for_the_public_teams(team_event: Tournament, organiser: Any) -> None:
    Tournament.objects.filter(pk=team_event.pk).update(hidden_hanchan=1)
    public, staff = Client(), Client()
    staff.force_login(organiser)
    # After hanchan 1 (hanchan 2 and its penalty hidden): Kyoto 30 + 23 - 21 = 32, Osaka 0, Nagoya -10.
    data = api_teams(public, team_event)
    assert data["as_of"] == 1
    assert ranking(data) == [(1, "Kyoto", "32", 3, 1), (2, "Osaka", "0", 2, 1), (3, "Nagoya", "-10", 1, 1)]
    assert ranking(api_teams(staff, team_event))[0] == (1, "Kyoto", "17", 3, 2)
    page = public.get(f"/t/{team_event.slug}/standings/").content.decode()
    assert 'data-team="Kyoto"' in page and ">32.0<" in page and ">17.0<" not in page
    projector = staff.get(f"/t/{team_event.slug}/projector/").content.decode()
    assert 'data-view="teams"' in projector and ">32.0<" in projector and ">17.0<" not in projector
    payload = public.get(f"/t/{team_event.slug}/standings.json").json()
    assert [(t["name"], t["total"]) for t in payload["teams"]] == [
        ("Kyoto", "32"),
        ("Osaka", "0"),
        ("Nagoya", "-10"),
    ]


@pytest.mark.django_db
def test_the_pages_show_teams_only_with_a_rule(team_event: Tournament) -> None:
    page = Client().get(f"/t/{team_event.slug}/standings/").content.decode()
    assert "<h2>Teams</h2>" in page and 'data-team="Nagoya"' in page and "Tom" in page
    assert 'data-team=""' not in page
    Tournament.objects.filter(pk=team_event.pk).update(team_ranking="none", standings_version=999)
    page = Client().get(f"/t/{team_event.slug}/standings/").content.decode()
    assert "<h2>Teams</h2>" not in page and 'data-team="' not in page
    assert Client().get(f"/api/tournaments/{team_event.pk}/team-standings/").json()["rows"] == []
    projector = Client().get(f"/t/{team_event.slug}/projector/").content.decode()
    assert 'data-view="teams"' not in projector


@pytest.mark.django_db
def test_the_organiser_sets_the_rule_on_the_tournament_form(team_event: Tournament, organiser: Any) -> None:
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/t/{team_event.slug}/manage/edit/")
    assert 'name="team_ranking"' in page.content.decode()
    data = {k: v for k, v in page.context["form"].initial.items() if v is not None and v is not False}
    data.update(ruleset_overrides="{}", is_public="on", team_ranking="best_per_hanchan")
    refused = client.post(f"/t/{team_event.slug}/manage/edit/", data)
    assert refused.status_code == 200 and "team_best_n" in refused.context["form"].errors
    data.update(team_best_n="1")
    assert client.post(f"/t/{team_event.slug}/manage/edit/", data).status_code == 302
    saved = Tournament.objects.get(pk=team_event.pk)
    assert (saved.team_ranking, saved.team_best_n, saved.team_substitutes_count) == (
        "best_per_hanchan",
        1,
        False,
    )
    # Best 1 per hanchan: Kyoto Aki's 30 + Ayu's 8 - Ami's 20 (she counts in no hanchan) = 18; Osaka 32;
    # Nagoya -10 + 27 = 17.
    assert ranking(api_teams(Client(), saved)) == [
        (1, "Osaka", "32", 1, 2),
        (2, "Kyoto", "18", 2, 2),
        (3, "Nagoya", "17", 1, 2),
    ]


@pytest.mark.django_db
def test_the_standings_workbook_and_csv_have_a_teams_sheet(team_event: Tournament) -> None:
    exporter = get_exporter("standings_xlsx")
    assert exporter is not None
    book = workbook(exporter.render(team_event).data)
    assert book.sheetnames == ["Standings", "Teams", "By hanchan", "Penalties"]
    teams = rows(book["Teams"])
    assert teams[0] == ["Rank", "Team", "Total", "Penalties", "Counted", "Played", "Members (what each adds)"]
    assert teams[1] == [1, "Kyoto", 17, -20, 3, 2, "Ayu 31, Aki 21, Ami -35"]
    assert teams[2] == [2, "Nagoya", 17, 0, 1, 2, "Chi 17"]
    assert teams[3] == [3, "Osaka", 1, 0, 2, 2, "Ben 32, Bo -31"]
    csv_exporter = get_exporter("standings_csv")
    assert csv_exporter is not None
    members = zip_members(csv_exporter.render(team_event).data)
    assert csv_rows(members["test-open-standings-teams.csv"])[1:] == [
        ["1", "Kyoto", "17", "-20", "3", "2", "Ayu 31, Aki 21, Ami -35"],
        ["2", "Nagoya", "17", "0", "1", "2", "Chi 17"],
        ["3", "Osaka", "1", "0", "2", "2", "Ben 32, Bo -31"],
    ]
    Tournament.objects.filter(pk=team_event.pk).update(team_ranking="none")
    team_event.refresh_from_db()
    assert "Teams" not in workbook(exporter.render(team_event).data).sheetnames


@pytest.mark.django_db
def test_the_archive_keeps_the_rule_and_older_archives_read_as_none(team_event: Tournament) -> None:
    Tournament.objects.filter(pk=team_event.pk).update(team_ranking="best_overall", team_best_n=2)
    team_event.refresh_from_db()
    data = export_archive(team_event)
    archive = json.loads(data)
    settings = archive["tournament"]
    assert (settings["team_ranking"], settings["team_best_n"], settings["team_substitutes_count"]) == (
        "best_overall",
        2,
        False,
    )
    copy = import_archive(data, slug="team-copy")
    assert (copy.team_ranking, copy.team_best_n, copy.team_substitutes_count) == ("best_overall", 2, False)
    assert ranking(api_teams(Client(), copy))[0] == (1, "Kyoto", "52", 2, 2)
    for name in ("team_ranking", "team_best_n", "team_substitutes_count"):
        del archive["tournament"][name]
    older = import_archive(archive, slug="older-copy")
    assert (older.team_ranking, older.team_best_n, older.team_substitutes_count) == ("none", None, False)
