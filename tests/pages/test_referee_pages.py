"""The referees' pages: the live check of an entry, saving, conflicts, signing, corrections, history."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from scoring import services as sheets
from scoring.models import ScoreSheet
from tests.pages.conftest import Site, client_for
from tests.scoring import hanchan
from tournament.models import Tournament


def check(client: Client, site: Site, entry: Any, table: int = 2) -> Any:
    return client.post(
        f"/t/{site.tournament.slug}/sheet/1/{table}/check.json",
        data=json.dumps({"entry": entry}),
        content_type="application/json",
    )


def first_hands() -> dict[str, Any]:
    """Hanchan 1, table 2 (Eve East, Fay South, Gus West, Hal North): two hands, ended by time."""
    return {
        "form": "hands",
        "hands": [
            {"result": "ron", "winner": "Fay", "loser": "Gus", "han": 2, "fu": 30, "riichi": []},
            {"result": "tsumo", "winner": "Gus", "han": 1, "fu": 30, "riichi": ["Gus"]},
        ],
        "ended_by_time": True,
    }


@pytest.mark.django_db
def test_check_returns_the_engines_errors_with_their_hand_numbers(site: Site) -> None:
    entry = first_hands()
    entry["hands"][1] = {"result": "ron", "winner": "Gus", "loser": "Hal", "han": 1, "fu": 20, "riichi": []}
    response = check(client_for(site.users["referee"]), site, entry)
    assert response.status_code == 200
    verdict = response.json()
    assert verdict["valid"] is False
    hand_two = [e for e in verdict["errors"] if e["hand"] == 2]
    assert hand_two and "20 fu" in hand_two[0]["message"]
    assert hand_two[0]["message"].startswith("hand 2 (East 2, 0 honba)")
    assert not [e for e in verdict["errors"] if e["hand"] == 1]
    assert not ScoreSheet.objects.filter(table=site.table_2).exists()  # a check stores nothing


@pytest.mark.django_db
def test_check_of_a_valid_entry_gives_the_running_points_of_each_hand(site: Site) -> None:
    verdict = check(client_for(site.users["referee"]), site, first_hands()).json()
    assert verdict["valid"] is True
    assert verdict["hands"][0]["points"] == {"Eve": 30000, "Fay": 32000, "Gus": 28000, "Hal": 30000}
    assert verdict["hands"][1]["points"] == {"Eve": 29700, "Fay": 31500, "Gus": 29100, "Hal": 29700}


@pytest.mark.django_db
def test_check_of_final_points_names_the_problem_without_a_hand(site: Site) -> None:
    entry = {"form": "final", "final_points": {"Eve": 40000, "Fay": 30000, "Gus": 25000, "Hal": 24000}}
    verdict = check(client_for(site.users["referee"]), site, entry).json()
    assert verdict["valid"] is False
    assert any("120,000" in e["message"] and e["hand"] is None for e in verdict["errors"])


@pytest.mark.django_db
def test_check_answers_unreadable_input_with_an_error_not_a_crash(site: Site) -> None:
    client = client_for(site.users["referee"])
    response = client.post(
        f"/t/{site.tournament.slug}/sheet/1/2/check.json", data="not json", content_type="application/json"
    )
    assert response.status_code == 200 and response.json()["valid"] is False


@pytest.mark.django_db
def test_a_player_given_as_a_list_is_an_error_not_a_crash(site: Site) -> None:
    entry = first_hands()
    entry["hands"][0]["winner"] = ["Fay"]
    client = client_for(site.users["referee"])
    verdict = check(client, site, entry).json()
    assert verdict["valid"] is False
    assert "the winner ['Fay'] is not a player of this table" in verdict["errors"][0]["message"]
    submitted = save(client, site, entry, "submit")
    assert submitted.status_code == 400 and not ScoreSheet.objects.filter(table=site.table_2).exists()
    saved = save(client, site, entry, "draft")  # a draft is kept with its problem
    assert saved.status_code == 302
    assert ScoreSheet.objects.get(table=site.table_2).replay["valid"] is False


@pytest.mark.django_db
def test_csrf_is_enforced_on_the_check_and_on_saving(site: Site) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(site.users["referee"])
    slug = site.tournament.slug
    assert check(client, site, first_hands()).status_code == 403
    saved = client.post(
        f"/t/{slug}/sheet/1/2/",
        {"entry": json.dumps(first_hands()), "action": "submit", "expected_version": ""},
    )
    assert saved.status_code == 403
    assert not ScoreSheet.objects.filter(table=site.table_2).exists()
    # With the token the page gives, the same requests go through.
    client.get(f"/t/{slug}/sheet/1/2/")
    token = client.cookies["csrftoken"].value
    response = client.post(
        f"/t/{slug}/sheet/1/2/check.json",
        data=json.dumps({"entry": first_hands()}),
        content_type="application/json",
        headers={"X-CSRFToken": token},
    )
    assert response.status_code == 200 and response.json()["valid"] is True


def save(client: Client, site: Site, entry: dict[str, Any], action: str, version: Any = "") -> Any:
    return client.post(
        f"/t/{site.tournament.slug}/sheet/1/2/",
        {"entry": json.dumps(entry), "action": action, "expected_version": version},
    )


@pytest.mark.django_db
def test_draft_then_submit_then_sign_updates_the_standings(site: Site) -> None:
    client = client_for(site.users["referee"])
    entry = first_hands()
    entry["hands"] = entry["hands"][:1]
    assert save(client, site, entry, "draft").status_code == 302
    sheet = ScoreSheet.objects.get(table=site.table_2)
    assert (sheet.status, sheet.version) == ("draft", 1)
    page = client.get(f"/t/{site.tournament.slug}/sheet/1/2/")
    assert b"Draft saved (version 1)" in page.content
    assert save(client, site, first_hands(), "submit", 1).status_code == 302
    sheet.refresh_from_db()
    assert (sheet.status, sheet.version) == ("submitted", 2)
    signed = client.post(f"/t/{site.tournament.slug}/sheet/1/2/sign/", {"expected_version": 2})
    assert signed.status_code == 302
    sheet.refresh_from_db()
    assert sheet.status == "signed" and sheet.signed_by == site.users["referee"]
    rows = {r["name"]: r for r in client.get(f"/t/{site.tournament.slug}/standings.json").json()["rows"]}
    assert rows["Fay"]["total"] != "0" and rows["Fay"]["played"] == 1
    page = client.get(f"/t/{site.tournament.slug}/sheet/1/2/")
    assert b"Signed" in page.content and b"SHA-256" in page.content


@pytest.mark.django_db
def test_a_stale_edit_is_a_conflict_with_a_clear_message(site: Site) -> None:
    client = client_for(site.users["referee"])
    assert save(client, site, first_hands(), "draft").status_code == 302
    assert save(client, site, first_hands(), "draft", 1).status_code == 302  # now version 2
    stale = save(client, site, first_hands(), "submit", 1)
    assert stale.status_code == 409
    assert b"the sheet changed (now version 2, you edited version 1)" in stale.content
    assert b"Reload the sheet" in stale.content
    twice = save(client, site, first_hands(), "draft")  # a second "new sheet" for the same table
    assert twice.status_code == 409 and b"already has a score sheet" in twice.content


@pytest.mark.django_db
def test_submitting_an_unfinished_hanchan_is_refused_in_the_engines_words(site: Site) -> None:
    entry = first_hands()
    del entry["ended_by_time"]
    response = save(client_for(site.users["referee"]), site, entry, "submit")
    assert response.status_code == 400
    assert b"the hanchan is not over" in response.content
    assert not ScoreSheet.objects.filter(table=site.table_2).exists()


@pytest.mark.django_db
def test_a_signed_sheet_is_read_only_and_a_head_referee_corrects_it_with_a_reason(site: Site) -> None:
    slug = site.tournament.slug
    referee_page = client_for(site.users["referee"]).get(f"/t/{slug}/sheet/1/1/")
    assert b"data-sheet-editor" not in referee_page.content
    assert b"Correct this sheet" not in referee_page.content
    head = client_for(site.users["head_referee"])
    assert b"Correct this sheet" in head.get(f"/t/{slug}/sheet/1/1/").content
    entry = hanchan.entry("final")
    entry["chombo"] = []
    no_reason = head.post(
        f"/t/{slug}/sheet/1/1/correct/", {"entry": json.dumps(entry), "expected_version": 1, "reason": ""}
    )
    assert no_reason.status_code == 400
    done = head.post(
        f"/t/{slug}/sheet/1/1/correct/",
        {"entry": json.dumps(entry), "expected_version": 1, "reason": "the chombo was a misread tile"},
    )
    assert done.status_code == 302
    history = head.get(f"/t/{slug}/sheet/1/1/").content.decode()
    assert "Corrected after signing" in history and "the chombo was a misread tile" in history
    assert site.tournament.penalties.get().revoked_at is not None  # the chombo penalty follows the sheet


@pytest.mark.django_db
def test_my_tables_lists_the_current_hanchan_with_each_sheet_status(site: Site) -> None:
    page = client_for(site.users["referee"]).get(f"/t/{site.tournament.slug}/referee/").content.decode()
    assert "My tables: hanchan 1" in page
    assert "Table 1" in page and "Signed" in page and "View the sheet" in page
    assert "Table 2" in page and "Enter the sheet" in page


@pytest.mark.django_db
def test_my_tables_lists_a_disputed_sheet_first_marked_in_words_with_the_players_reason(site: Site) -> None:
    """Table 2's players disputed their sheet: its card comes before table 1's, with a mark, the word and
    who disputed what, not only a colour."""
    site.tournament.entry_mode = Tournament.EntryMode.PLAYERS
    site.tournament.save()
    players = {seat.player.name: seat.player for seat in site.table_2.seats.select_related("player")}
    entry = {"form": "final", "final_points": {"Eve": 41000, "Fay": 31000, "Gus": 26000, "Hal": 22000}}
    sheets.player_save_sheet(site.table_2, {**entry, "riichi_sticks_left": 0}, players["Eve"], submit=True)
    sheets.dispute_sheet(site.table_2, players["Fay"], version=1, reason="Gus paid my ron, not Hal")

    page = client_for(site.users["referee"]).get(f"/t/{site.tournament.slug}/referee/").content.decode()
    cards = page.split('<section class="table-card')[1:]
    assert [card.split("<h2>", 1)[1].split("\n", 1)[0] for card in cards] == ["Table 2", "Table 1"]
    disputed = cards[0]
    assert disputed.startswith(' disputed" data-disputed>')
    assert '<span class="badge disputed"><span aria-hidden="true">⚠ </span>Disputed</span>' in disputed
    assert "Disputed by Fay: <q>Gus paid my ron, not Hal</q>" in disputed
    assert "Settle the dispute" in disputed
    assert "data-disputed" not in cards[1] and "Signed" in cards[1]


@pytest.mark.django_db
def test_check_reads_the_body_within_bounds(site: Site) -> None:
    """A body nested 5,000 levels deep (once a RecursionError, a 500) or holding a NUL is a verdict that
    names the body and the rule."""
    client = client_for(site.users["referee"])
    url = f"/t/{site.tournament.slug}/sheet/1/2/check.json"
    for body, rule in (
        ('{"entry": ' + "[" * 5000 + "]" * 5000 + "}", "json-depth"),
        ('{"a": "\\u0000"}', "printable-text"),
    ):
        verdict = client.post(url, data=body, content_type="application/json").json()
        assert verdict["valid"] is False
        assert (verdict["errors"][0]["field"], verdict["errors"][0]["rule"]) == ("body", rule)


@pytest.mark.django_db
def test_saving_a_deeply_nested_entry_is_a_form_error(site: Site) -> None:
    client = client_for(site.users["referee"])
    response = client.post(
        f"/t/{site.tournament.slug}/sheet/1/2/", {"entry": "[" * 5000 + "]" * 5000, "action": "draft"}
    )
    assert response.status_code == 400 and b"nested more than 32 levels deep" in response.content
    assert not ScoreSheet.objects.filter(table=site.table_2).exists()
