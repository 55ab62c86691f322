"""What each resource shows to whom, its filters, and the services it drives."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from tests.api.conftest import World, final_entry
from tournament.models import Player, Round, Tournament
from tournament.queries.standings_db import cache_key


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.content
    return response.json()


@pytest.mark.django_db
def test_players_public_fields_for_outsiders_private_fields_for_staff(world: World) -> None:
    url = f"/api/tournaments/{world.ids['t']}/players/{world.ids['ana']}/"
    public = {
        *("id", "name", "first_name", "last_name", "native_name", "country", "club", "team", "status"),
        "participation",
    }
    for role in ("anonymous", "player", "other_referee"):
        assert set(ok(world.client(role).get(url))) == public, role
    staff = ok(world.client("referee").get(url))
    assert public < set(staff) and {"ema_id", "is_substitute", "checked_in_at"} <= set(staff)


@pytest.mark.django_db
def test_player_filters_search_and_pagination(world: World) -> None:
    players = f"/api/tournaments/{world.ids['t']}/players/"
    client = world.client("anonymous")
    assert ok(client.get(players))["count"] == 14
    assert [p["name"] for p in ok(client.get(players, {"is_substitute": "true"}))["results"]] == [
        "Sub 001",
        "Sub 002",
    ]
    assert ok(client.get(players, {"status": "checked_in"}))["count"] == 12
    assert [p["name"] for p in ok(client.get(players, {"search": "ana"}))["results"]] == ["Ana"]
    page = ok(client.get(players, {"page_size": 5, "page": 3}))
    assert (page["count"], len(page["results"]), page["next"]) == (14, 4, None)
    refused = client.get(players, {"status": "asleep"})
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "status"


@pytest.mark.django_db
def test_penalties_public_without_reasons_or_revoked_ones(world: World) -> None:
    base = f"/api/tournaments/{world.ids['t']}/penalties/"
    head = world.client("head_referee")
    ok(head.post(f"{base}{world.ids['penalty']}/revoke/", {"reason": "the neighbour's phone"}))
    late = ok(
        head.post(base, {"player": world.ids["dai"], "kind": "lateness", "round": 2, "minutes_late": 4}), 201
    )
    assert (late["points"], late["round"], late["given_by"]) == ("4.00", 2, "head")

    public = ok(world.client("anonymous").get(base))["results"]
    assert {(p["player"]["name"], p["kind"], p["points"]) for p in public} == {
        ("Cho", "chombo", "20.00"),  # from the signed sheet of table 1
        ("Dai", "lateness", "4.00"),
    }
    assert all(set(p) == {"id", "player", "kind", "points", "round"} for p in public)
    staff = ok(world.client("referee").get(base, {"active": "false"}))["results"]
    assert [(p["kind"], p["revoke_reason"], p["revoked_by"]) for p in staff] == [
        ("phone", "the neighbour's phone", "head")
    ]
    assert ok(world.client("referee").get(base, {"round": 2}))["count"] == 1


@pytest.mark.django_db
def test_disqualification_takes_the_player_out_of_the_ranking(world: World) -> None:
    base = f"/api/tournaments/{world.ids['t']}"
    head = world.client("head_referee")
    record = ok(
        head.post(f"{base}/disqualifications/", {"player": world.ids["dai"], "reason": "collusion"}), 201
    )
    assert record["player"]["name"] == "Dai" and record["reason"] == "collusion"
    assert ok(world.client("anonymous").get(f"{base}/disqualifications/"))["results"][0].keys() == {
        "id",
        "player",
        "given_at",
    }
    assert Player.objects.get(pk=world.ids["dai"]).disqualified


@pytest.mark.django_db
def test_standings_are_read_from_the_cache_with_the_pending_tables(world: World) -> None:
    version = Tournament.objects.get(pk=world.ids["t"]).standings_version
    cache.set(cache_key(world.ids["t"], version), {"rounds": 1, "rows": [{"name": "as cached"}]})
    standings = ok(world.client("anonymous").get(f"/api/tournaments/{world.ids['t']}/standings/"))
    assert standings["rows"] == [{"name": "as cached"}]  # not recomputed per request
    assert [(p["round"], p["table"], p["sheet_status"]) for p in standings["pending_tables"]] == [
        (1, 2, "submitted"),
        (1, 3, None),
        (2, 1, None),
        (2, 2, None),
        (2, 3, None),
    ]


@pytest.mark.django_db
def test_a_sheet_is_edited_by_version_signed_and_corrected_with_its_history(world: World) -> None:
    referee, head = world.client("referee"), world.client("head_referee")
    url = f"/api/tables/{world.ids['t3']}/sheet/"
    names = world.names("t3")
    draft = ok(referee.post(url, {"entry": {"form": "hands", "hands": []}}), 201)
    assert (draft["status"], draft["version"]) == ("draft", 1)
    entry = final_entry(names)
    submitted = ok(referee.put(url, {"entry": entry, "submit": True, "expected_version": 1}))
    assert (submitted["status"], submitted["version"]) == ("submitted", 2)
    signed = ok(referee.post(f"{url}sign/", {"expected_version": 2}))
    assert signed["status"] == "signed"
    refused = referee.post(f"{url}correct/", {"entry": entry, "reason": "typo"})
    assert refused.status_code == 403
    swapped = final_entry(names, (32000, 40000, 28000, 20000))
    corrected = ok(head.post(f"{url}correct/", {"entry": swapped, "reason": "first two swapped"}))
    assert corrected["version"] == 3 and corrected["replay"]["ranks"][names[1]] == 1
    assert [(v["action"], v["author"], v["reason"]) for v in corrected["history"]] == [
        ("created", "referee", ""),
        ("submitted", "referee", ""),
        ("signed", "referee", ""),
        ("corrected", "head", "first two swapped"),
    ]


@pytest.mark.django_db
def test_rounds_show_the_seating_and_the_clock(world: World) -> None:
    base = f"/api/tournaments/{world.ids['t']}"
    organiser = world.client("organiser")
    round2 = ok(organiser.get(f"{base}/rounds/2/"))
    assert round2["clock"] == {"state": "stopped", "ends_at": None, "seconds_left": 5400.0}
    seats = round2["tables"][0]["seats"]
    assert [(s["wind_name"], s["player"]["name"], s["replaces"]) for s in seats] == [
        ("East", "Ana", None),
        ("South", "Ben", None),
        ("West", "Cho", None),
        ("North", "Dai", None),
    ]
    playing = organiser.post(f"{base}/rounds/2/clock/", {"action": "start"})
    assert playing.status_code == 400 and playing.json()["errors"][0]["rule"] == "one-hanchan-at-a-time"
    Round.objects.filter(tournament=world.tournament, number=1).update(status=Round.Status.FINISHED)
    ok(organiser.post(f"{base}/rounds/2/clock/", {"action": "start"}))
    paused = ok(organiser.post(f"{base}/rounds/2/clock/", {"action": "pause"}))
    assert paused["clock"]["state"] == "paused"
    extended = ok(organiser.post(f"{base}/rounds/2/clock/", {"action": "extend", "minutes": 5}))
    assert 5690 < extended["clock"]["seconds_left"] <= 5700
    refused = organiser.post(f"{base}/rounds/2/clock/", {"action": "pause"})
    assert (
        refused.status_code == 400 and refused.json()["errors"][0]["rule"] == "hanchan-clock (WRCR 2015 §8.2)"
    )
    table = ok(
        world.client("head_referee").post(f"/api/tables/{world.ids['r2t1']}/extra-time/", {"minutes": 3})
    )
    assert table["extra_minutes"] == 3 and table["seconds_left"] > extended["clock"]["seconds_left"]


@pytest.mark.django_db
def test_lists_cost_a_fixed_number_of_queries(world: World, django_assert_max_num_queries: Any) -> None:
    anonymous, referee = world.client("anonymous"), world.client("referee")
    base = f"/api/tournaments/{world.ids['t']}"
    with django_assert_max_num_queries(8):  # rounds, tables and sheets, seats, players, substitutes...
        assert len(ok(anonymous.get(f"{base}/rounds/"))["results"]) == 2
    with django_assert_max_num_queries(6):
        assert ok(referee.get(f"{base}/penalties/"))["count"] == 2
    with django_assert_max_num_queries(6):
        assert ok(referee.get(f"/api/tables/{world.ids['t1']}/sheet/"))["history"]


@pytest.mark.django_db
def test_a_hanchan_is_finished_by_its_last_signed_sheet(world: World) -> None:
    base = f"/api/tournaments/{world.ids['t']}/rounds/1/"
    organiser, referee = world.client("organiser"), world.client("referee")
    refused = organiser.post(f"{base}finish/")
    assert refused.status_code == 400 and refused.json()["errors"][0]["rule"] == "signed-sheets-first"
    ok(referee.post(f"/api/tables/{world.ids['t2']}/sheet/sign/", {}))
    ok(
        referee.post(
            f"/api/tables/{world.ids['t3']}/sheet/", {"entry": final_entry(world.names("t3")), "submit": True}
        ),
        201,
    )
    ok(referee.post(f"/api/tables/{world.ids['t3']}/sheet/sign/", {}))  # the last table: it finishes
    assert ok(organiser.get(base))["status"] == "finished"
    again = organiser.post(f"{base}finish/")
    assert again.status_code == 400 and again.json()["errors"][0]["rule"] == "finish-started-hanchan"


@pytest.mark.django_db
def test_substitute_and_withdrawal(world: World) -> None:
    base = f"/api/tournaments/{world.ids['t']}/players"
    organiser = world.client("organiser")
    absence = ok(
        organiser.post(
            f"{base}/{world.ids['ana']}/substitute/", {"round": 2, "substitute": world.ids["sub1"]}
        ),
        201,
    )
    assert (absence["round"], absence["player"]["name"], absence["substitute"]["name"]) == (
        2,
        "Ana",
        "Sub 001",
    )
    seat = ok(organiser.get(f"/api/tables/{world.ids['r2t1']}/"))["seats"][0]
    assert (seat["player"]["name"], seat["replaces"]["name"]) == ("Sub 001", "Ana")
    withdrawn = ok(
        organiser.post(
            f"{base}/{world.ids['t3_player']}/withdraw/", {"from_round": 2, "substitute": world.ids["sub2"]}
        )
    )
    assert withdrawn["player"]["status"] == "withdrawn"
    assert [(a["round"], a["substitute"]["name"]) for a in withdrawn["absences"]] == [(2, "Sub 002")]
    refused = organiser.post(f"{base}/{world.ids['t3_player']}/check-in/")
    assert refused.status_code == 400
    assert refused.json()["errors"] == [
        {"field": "status", "rule": "check-in", "message": "Player 005 has withdrawn and cannot check in"}
    ]
    unknown = organiser.post(
        f"{base}/{world.ids['ben']}/substitute/", {"round": 7, "substitute": world.ids["sub1"]}
    )
    assert unknown.status_code == 400 and unknown.json()["errors"][0]["field"] == "round"


@pytest.mark.django_db
def test_staff_roles_granted_changed_and_removed(world: World) -> None:
    base = f"/api/tournaments/{world.ids['t']}/staff/"
    organiser = world.client("organiser")
    granted = ok(organiser.post(base, {"username": "player", "role": "referee"}), 201)
    assert (granted["username"], granted["role"], granted["granted_by"]) == ("player", "referee", "organiser")
    changed = ok(organiser.patch(f"{base}{granted['id']}/", {"role": "head_referee"}))
    assert changed["role"] == "head_referee"
    assert organiser.delete(f"{base}{granted['id']}/").status_code == 204
    mine = ok(organiser.get(base))["results"]
    own = next(s for s in mine if s["username"] == "organiser")
    refused = organiser.delete(f"{base}{own['id']}/")
    assert refused.status_code == 400 and refused.json()["errors"][0]["rule"] == "keep-an-organiser"
    unknown = organiser.post(base, {"username": "nobody", "role": "referee"})
    assert unknown.status_code == 400 and unknown.json()["errors"][0]["field"] == "username"


@pytest.mark.django_db
def test_the_api_search_matches_either_name_ignoring_accents(world: World) -> None:
    tournament = Tournament.objects.get(pk=world.ids["t"])
    Player.objects.create(tournament=tournament, name="Łukasz Ćwik")
    Player.objects.create(tournament=tournament, name="Aleksei Zhukov", native_name="Алексей Жуков")
    players = f"/api/tournaments/{tournament.pk}/players/"
    client = world.client("anonymous")
    for query, found in (
        ("lukasz", "Łukasz Ćwik"),
        ("жуков", "Aleksei Zhukov"),
        ("ZHUKOV", "Aleksei Zhukov"),
    ):
        results = client.get(players, {"search": query}).json()["results"]
        assert [p["name"] for p in results] == [found], query
    assert client.get(players, {"search": "nobody-at-all"}).json()["count"] == 0
