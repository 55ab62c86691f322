"""A two-phase event end to end: qualifying on signed sheets, the cut, a final table seated by rank with
half the qualifying total carried over, read through the services, the API and the pages.

The event (WRC 2015 uma 15, 5, -5, -15), phases: Qualifying (2 hanchan) and Final (1 hanchan, the top 4,
fixed table by rank, carry-over halve).

    hanchan 1, table 1: Ann 45,000 (+30)  Ben 35,000 (+10)  Cat 25,000 (-10)  Dan 15,000 (-30)
    hanchan 1, table 2: Eve 40,000 (+25)  Fay 32,000 (+7)   Gus 28,000 (-7)   Hal 20,000 (-25)
    hanchan 2, table 1: Ann 38,000 (+23)  Eve 33,000 (+8)   Dan 27,000 (-8)   Hal 22,000 (-23)
    hanchan 2, table 2: Ben 42,000 (+27)  Gus 31,000 (+6)   Cat 24,000 (-11)  Fay 23,000 (-22)

Qualifying totals: Ann 53, Ben 37, Eve 33, Gus -1, Fay -15, Cat -21, Dan -38, Hal -48. The cut keeps Ann,
Ben, Eve and Gus (seeds 1 to 4), who carry 26.5, 18.5, 16.5 and -0.5.

    hanchan 3 (final): Gus 50,000 (+35)  Eve 30,000 (+5)  Ben 25,000 (-10)  Ann 15,000 (-30)

Final: Gus 34.5, Eve 21.5, Ben 8.5, Ann -3.5; then Fay, Cat, Dan and Hal by the qualifying.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from exports.archive.dump import export_archive
from exports.archive.load import import_archive
from exports.exporters import get_exporter
from penalties.models import Penalty
from penalties.services import give_penalty
from scoring import services as sheets
from tests.conftest import seat_table
from tests.exports.helpers import rows, workbook
from tournament import services
from tournament.core.phases import PhasePlan
from tournament.core.refusal import Refusal
from tournament.models import Phase, PhaseEntry, Player, Round, Tournament
from tournament.queries.participation_db import tournament_states
from tournament.queries.standings_db import load_standings, serialize

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
QUALIFYING = {
    1: [
        [("Ann", 45000), ("Ben", 35000), ("Cat", 25000), ("Dan", 15000)],
        [("Eve", 40000), ("Fay", 32000), ("Gus", 28000), ("Hal", 20000)],
    ],
    2: [
        [("Ann", 38000), ("Eve", 33000), ("Dan", 27000), ("Hal", 22000)],
        [("Ben", 42000), ("Gus", 31000), ("Cat", 24000), ("Fay", 23000)],
    ],
}
FINAL = {"Gus": 50000, "Eve": 30000, "Ben": 25000, "Ann": 15000}
PLANS = [PhasePlan("Qualifying", 2), PhasePlan("Final", 1, "by_rank", "halve", advance=4)]


def sign(table: Any, points: dict[str, int], referee: Any) -> None:
    entry = {"form": "final", "riichi_sticks_left": 0, "final_points": points}
    sheets.sign_sheet(sheets.save_sheet(table, entry, referee, submit=True), referee)


@pytest.fixture
def qualified(tournament: Tournament, organiser: Any, referee: Any) -> Tournament:
    return play_qualifying(tournament, organiser, referee)


def play_qualifying(tournament: Tournament, organiser: Any, referee: Any) -> Tournament:
    """The qualifying played and signed, the phases set."""
    players = {name: Player.objects.create(tournament=tournament, name=name) for name in NAMES}
    services.set_phases(tournament, organiser, PLANS)
    seated = []  # every table seated before any is signed: a hanchan is complete once all its tables are
    for number, tables in QUALIFYING.items():
        round_ = Round.objects.create(tournament=tournament, number=number, status="started")
        for index, seats in enumerate(tables, start=1):
            seated.append((seat_table(round_, index, [players[name] for name, _ in seats]), dict(seats)))
    for table, points in seated:
        sign(table, points, referee)
    tournament.refresh_from_db()
    return tournament


def standings(client: Client, tournament: Tournament) -> list[tuple[int, str, str, int]]:
    data = client.get(f"/api/tournaments/{tournament.pk}/standings/").json()
    return [(row["rank"], row["name"], row["total"], row["phase"]) for row in data["rows"]]


@pytest.mark.django_db
def test_a_two_phase_event_with_a_cut_and_carry_over(
    qualified: Tournament, organiser: Any, referee: Any
) -> None:
    tournament = qualified
    assert tournament.hanchan_count == 3  # the phases' sum
    public = Client()
    assert standings(public, tournament) == [
        (1, "Ann", "53", 1),
        (2, "Ben", "37", 1),
        (3, "Eve", "33", 1),
        (4, "Gus", "-1", 1),
        (5, "Fay", "-15", 1),
        (6, "Cat", "-21", 1),
        (7, "Dan", "-38", 1),
        (8, "Hal", "-48", 1),
    ]
    # Nothing seats the final before its cut.
    with pytest.raises(Refusal) as refused:
        services.seat_by_rank(tournament, 2, organiser)
    assert refused.value.problems[0].rule == "phase-cut"

    entries = services.make_cut(tournament, 2, organiser)
    assert [(e.player.name, e.seed) for e in entries] == [("Ann", 1), ("Ben", 2), ("Eve", 3), ("Gus", 4)]
    # The optimised schedule and Swiss do not seat a phase seated by rank.
    with pytest.raises(Refusal) as refused:
        services.request_seating(tournament, organiser, from_round=3)
    assert refused.value.problems[0].rule == "phase-seating"
    with pytest.raises(Refusal) as refused:
        services.seat_swiss_round(tournament, 3, organiser)
    assert refused.value.problems[0].rule == "phase-seating"

    (final,) = services.seat_by_rank(tournament, 2, organiser)
    table = final.tables.get()
    assert [seat.player.name for seat in table.seats.order_by("wind")] == ["Ann", "Ben", "Eve", "Gus"]
    Round.objects.filter(pk=final.pk).update(status="started")
    sign(table, FINAL, referee)
    tournament.refresh_from_db()

    assert standings(public, tournament) == [
        (1, "Gus", "34.5", 2),
        (2, "Eve", "21.5", 2),
        (3, "Ben", "8.5", 2),
        (4, "Ann", "-3.5", 2),
        (5, "Fay", "-15", 1),
        (6, "Cat", "-21", 1),
        (7, "Dan", "-38", 1),
        (8, "Hal", "-48", 1),
    ]
    # The players the cut left out missed nothing: no missed-hanchan penalty for hanchan 3 (WRCR 2015 §7.2).
    assert not Penalty.objects.filter(tournament=tournament).exists()

    phases = public.get(f"/api/tournaments/{tournament.pk}/phases/").json()["phases"]
    assert [(p["name"], p["first_hanchan"], p["last_hanchan"], p["reached"]) for p in phases] == [
        ("Qualifying", 1, 2, True),
        ("Final", 3, 3, True),
    ]
    final_rows = phases[1]["standings"]
    assert [(r["name"], r["carried"], r["total"]) for r in final_rows] == [
        ("Gus", "-0.5", "34.5"),
        ("Eve", "16.5", "21.5"),
        ("Ben", "18.5", "8.5"),
        ("Ann", "26.5", "-3.5"),
    ]
    # The standings page shows the phases; a player's page the phase reached and what was carried.
    page = public.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert "Final" in page and "Qualifying" in page
    japanese = public.get(f"/t/{tournament.slug}/standings/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "<h2>フェーズ</h2>" in japanese and "合計を半分にして持ち越し" in japanese
    gus = tournament.players.get(name="Gus")
    page = public.get(f"/t/{tournament.slug}/players/{gus.pk}/").content.decode()
    assert "<dt>Phase</dt><dd>Final, -0.5 carried over</dd>" in page


@pytest.mark.django_db
def test_a_finalist_who_leaves_is_replaced_by_the_next_in_line(qualified: Tournament, organiser: Any) -> None:
    tournament = qualified
    services.make_cut(tournament, 2, organiser)
    services.seat_by_rank(tournament, 2, organiser)
    eve = tournament.players.get(name="Eve")
    called = services.call_up(tournament, 2, eve, organiser)
    assert (called.player.name, called.seed, called.replaces) == ("Fay", 3, eve)
    # Fay takes Eve's seat at the final table.
    seats = Round.objects.get(tournament=tournament, number=3).tables.get().seats.order_by("wind")
    assert [seat.player.name for seat in seats] == ["Ann", "Ben", "Fay", "Gus"]
    # Eve ranks at the head of the qualifying group, below the finalists.
    public = Client()
    # (the final not played yet: its players by what they carry, Ann 26.5, Ben 18.5, Gus -0.5, Fay -7.5)
    assert [row[1] for row in standings(public, tournament)][:5] == ["Ann", "Ben", "Gus", "Fay", "Eve"]
    entries = PhaseEntry.objects.filter(phase__tournament=tournament).order_by("seed", "-left_at")
    assert [(e.player.name, e.left_at is not None) for e in entries] == [
        ("Ann", False),
        ("Ben", False),
        ("Fay", False),  # in Eve's place, with her seed
        ("Eve", True),
        ("Gus", False),
    ]
    # Once the final has started, a substitute takes a seat for a hanchan instead.
    Round.objects.filter(tournament=tournament, number=3).update(status="started")
    with pytest.raises(Refusal) as refused:
        services.call_up(tournament, 2, tournament.players.get(name="Ann"), organiser)
    assert refused.value.problems[0].rule == "phase-started"


@pytest.mark.django_db
def test_the_cut_waits_for_the_qualifying_to_be_complete(
    tournament: Tournament, organiser: Any, referee: Any
) -> None:
    players = {name: Player.objects.create(tournament=tournament, name=name) for name in NAMES}
    services.set_phases(tournament, organiser, PLANS)
    round_ = Round.objects.create(tournament=tournament, number=1, status="started")
    for index, seats in enumerate(QUALIFYING[1], start=1):
        sign(seat_table(round_, index, [players[name] for name, _ in seats]), dict(seats), referee)
    with pytest.raises(Refusal) as refused:
        services.make_cut(tournament, 2, organiser)
    assert refused.value.problems[0].rule == "phase-complete"
    assert refused.value.status == 409


@pytest.mark.django_db
def test_a_phase_under_way_keeps_its_settings(qualified: Tournament, organiser: Any) -> None:
    tournament = qualified
    services.make_cut(tournament, 2, organiser)
    renamed = [PLANS[0], PhasePlan("Final table", 1, "by_rank", "halve", advance=4)]
    services.set_phases(tournament, organiser, renamed)
    assert Phase.objects.get(tournament=tournament, number=2).name == "Final table"
    with pytest.raises(Refusal) as refused:
        services.set_phases(
            tournament, organiser, [PLANS[0], PhasePlan("Final", 1, "by_rank", "keep", advance=4)]
        )
    assert refused.value.problems[0].field == "phases[1]"
    assert refused.value.problems[0].rule == "phase-under-way"


@pytest.mark.django_db
def test_the_api_sets_phases_and_names_the_field_it_refuses(tournament: Tournament, organiser: Any) -> None:
    client = Client()
    client.force_login(organiser)
    url = f"/api/tournaments/{tournament.pk}/phases/"
    body = {
        "phases": [
            {"name": "Qualifying", "hanchan": 8},
            {"name": "Semifinal", "hanchan": 2, "seating": "by_rank", "advance": 16},
            {"name": "Final", "hanchan": 2, "seating": "by_rank", "carry_over": "halve", "advance": 4},
        ]
    }
    response = client.put(url, body, content_type="application/json")
    assert response.status_code == 200, response.content
    assert [p["name"] for p in response.json()["phases"]] == ["Qualifying", "Semifinal", "Final"]
    tournament.refresh_from_db()
    assert tournament.hanchan_count == 12
    body["phases"][2]["advance"] = 6
    response = client.put(url, body, content_type="application/json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["field"] == "phases[2].advance" and error["rule"] == "phase-cut"
    # The tournament's hanchan count follows the phases, not a setting of its own.
    response = client.patch(
        f"/api/tournaments/{tournament.pk}/", {"hanchan_count": 10}, content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["errors"][0]["rule"] == "phases"


@pytest.mark.django_db
def test_the_archive_carries_the_phases_byte_for_byte(qualified: Tournament, organiser: Any) -> None:
    tournament = qualified
    services.make_cut(tournament, 2, organiser)
    services.seat_by_rank(tournament, 2, organiser)
    services.call_up(tournament, 2, tournament.players.get(name="Eve"), organiser)
    data = export_archive(tournament)
    archive = json.loads(data)
    assert [
        (p["name"], p["hanchan"], p["seating"], p["carry_over"], p["advance"]) for p in archive["phases"]
    ] == [
        ("Qualifying", 2, "optimised", "keep", None),
        ("Final", 1, "by_rank", "halve", 4),
    ]
    assert [
        (e["player"], e["seed"], e["replaces"], e["left_at"] is not None)
        for e in archive["phases"][1]["entries"]
    ] == [
        ("Ann", 1, None, False),
        ("Ben", 2, None, False),
        ("Eve", 3, None, True),
        ("Gus", 4, None, False),
        ("Fay", 3, "Eve", False),
    ]
    before = serialize(load_standings(tournament.pk))["rows"]
    imported = import_archive(data, slug="copy")  # beside the original: every row new
    assert export_archive(imported) == data.replace(b'"slug":"test-open"', b'"slug":"copy"')
    strip = ("player",)
    after = serialize(load_standings(imported.pk))["rows"]
    assert [{k: v for k, v in r.items() if k not in strip} for r in after] == [
        {k: v for k, v in r.items() if k not in strip} for r in before
    ]


@pytest.mark.django_db
def test_an_archive_with_impossible_phases_is_refused(qualified: Tournament) -> None:
    archive = json.loads(export_archive(qualified))
    archive["phases"][1]["advance"] = 6
    with pytest.raises(Refusal, match="multiple of 4"):
        import_archive(archive, slug="copy")
    assert not Tournament.objects.filter(slug="copy").exists()


@pytest.mark.django_db
def test_the_exports_carry_the_final_ranking_and_each_phase(
    qualified: Tournament, organiser: Any, referee: Any
) -> None:
    tournament = qualified
    services.make_cut(tournament, 2, organiser)
    (final,) = services.seat_by_rank(tournament, 2, organiser)
    Round.objects.filter(pk=final.pk).update(status="started")
    sign(final.tables.get(), FINAL, referee)
    book = workbook(get_exporter("standings_xlsx").render(tournament).data)
    assert [tuple(row[:2]) for row in rows(book["Standings"])[1:]] == [
        (1, "Gus"),
        (2, "Eve"),
        (3, "Ben"),
        (4, "Ann"),
        (5, "Fay"),
        (6, "Cat"),
        (7, "Dan"),
        (8, "Hal"),
    ]
    phases = rows(book["Phases"])
    assert phases[0] == ["Phase", "Rank", "Name", "Seed", "Carried", "Total", "Played"]
    assert phases[9:] == [
        ["Final", 1, "Gus", 4, -0.5, 34.5, 1],
        ["Final", 2, "Eve", 3, 16.5, 21.5, 1],
        ["Final", 3, "Ben", 2, 18.5, 8.5, 1],
        ["Final", 4, "Ann", 1, 26.5, -3.5, 1],
    ]
    # The EMA results file ranks by the phase reached (its format has no column for phases).
    ema = rows(workbook(get_exporter("ema_results_xlsx").render(tournament).data)["Results"])
    assert [(row[0], row[2]) for row in ema[1:]] == [
        (1, "Gus"),
        (2, "Eve"),
        (3, "Ben"),
        (4, "Ann"),
        (5, "Fay"),
        (6, "Cat"),
        (7, "Dan"),
        (8, "Hal"),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["optimised", "swiss"])
def test_a_phase_after_a_cut_seats_only_its_players(
    tournament: Tournament, organiser: Any, referee: Any, method: str
) -> None:
    plans = [PhasePlan("Qualifying", 2), PhasePlan("Final", 1, method, "keep", advance=4)]
    qualified = play_qualifying(tournament, organiser, referee)
    services.set_phases(qualified, organiser, plans)
    with pytest.raises(Refusal) as refused:
        services.request_seating(qualified, organiser, from_round=3)
    assert refused.value.problems[0].rule == "phase-cut"
    services.make_cut(qualified, 2, organiser)
    if method == "optimised":
        job = services.request_seating(qualified, organiser, from_round=3)
        job = services.run_seating_job(job.pk)  # the task, in this transaction
        assert job.state == "done", job.error
    else:
        services.seat_swiss_round(qualified, 3, organiser)
    seated = Round.objects.get(tournament=qualified, number=3).seats.values_list("player__name", flat=True)
    assert sorted(seated) == ["Ann", "Ben", "Eve", "Gus"]
    # Hanchan 1 and 2 keep their seating.
    assert Round.objects.get(tournament=qualified, number=2).seats.count() == 8
    # The others are out at the cut, not absent.
    Round.objects.filter(tournament=qualified, number__lte=2).update(status="finished")
    states = tournament_states(qualified)
    assert states[qualified.players.get(name="Fay").pk] == "out"
    assert states[qualified.players.get(name="Ann").pk] == "playing"


@pytest.mark.django_db
def test_players_equal_at_the_line_are_the_organisers_choice(
    qualified: Tournament, organiser: Any, head_referee: Any
) -> None:
    tournament = qualified
    gus, fay = tournament.players.get(name="Gus"), tournament.players.get(name="Fay")
    # A 14-point penalty puts Gus (-1) level with Fay (-15) at the line; no tie-break separates them.
    give_penalty(
        gus, "other", head_referee, points=14, reason="obstructing", round=tournament.rounds.get(number=2)
    )
    client = Client()
    client.force_login(organiser)
    url = f"/api/tournaments/{tournament.pk}/phases/2/cut/"
    response = client.post(url, {}, content_type="application/json")
    assert response.status_code == 409
    (error,) = response.json()["errors"]
    assert error["rule"] == "cut-tie" and error["field"] == "chosen"
    assert sorted(error["tied"]) == sorted([gus.pk, fay.pk]) and error["places"] == 1
    assert "Fay, Gus are equal at the line" in error["message"]
    response = client.post(url, {"chosen": [fay.pk]}, content_type="application/json")
    assert response.status_code == 200
    final = response.json()["phases"][1]
    assert [(e["name"], e["seed"]) for e in final["entries"]] == [
        ("Ann", 1),
        ("Ben", 2),
        ("Eve", 3),
        ("Fay", 4),
    ]
