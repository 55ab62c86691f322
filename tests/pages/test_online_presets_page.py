"""The sheet editor under an online preset: it offers the abortive draws and nagashi mangan the tournament's
rules allow (none under WRCR 2015), and the check, saving and signing take them through the rules engine."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from scoring import services as sheets
from scoring.models import ScoreSheet
from tests.pages.conftest import Site, client_for
from tournament.models import Tournament


def editor(client: Client, site: Site, table: int = 2) -> dict[str, Any]:
    """The sheet page's editor data (the ``json_script`` the editor, static/js/sheet.js, starts from)."""
    response = client.get(f"/t/{site.tournament.slug}/sheet/1/{table}/")
    assert response.status_code == 200
    page = response.content.decode()
    start = page.index('<script id="sheet-editor-data" type="application/json">')
    data = page[page.index(">", start) + 1 : page.index("</script>", start)]
    value: dict[str, Any] = json.loads(data)
    return value


def check(client: Client, site: Site, entry: Any) -> Any:
    return client.post(
        f"/t/{site.tournament.slug}/sheet/1/2/check.json",
        data=json.dumps({"entry": entry}),
        content_type="application/json",
    ).json()


def online_hands() -> dict[str, Any]:
    """Table 2: Eve deals East 1; Fay, Gus, Hal. An abortive draw, a nagashi mangan, a ron."""
    return {
        "form": "hands",
        "hands": [
            {"result": "abortive", "kind": "nine-terminals", "riichi": []},
            {"result": "nagashi", "nagashi": ["Gus"], "tenpai": ["Eve"], "riichi": []},
            {"result": "ron", "winner": "Fay", "loser": "Hal", "han": 2, "fu": 30, "riichi": []},
        ],
        "ended_by_time": True,
    }


def use_preset(tournament: Tournament, preset: str) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(ruleset_preset=preset)


@pytest.mark.django_db
def test_the_editor_offers_abortive_draws_and_nagashi_only_where_the_rules_allow_them(site: Site) -> None:
    client = client_for(site.users["referee"])
    data = editor(client, site)
    assert data["outcomes"] == {"abortive": [], "nagashi": False}  # WRCR 2015 §5.7.3
    assert data["most_ron_winners"] == 1  # WRCR 2015 §5.7.6: head bump, no "Another winner"
    use_preset(site.tournament, "MAHJONGSOUL")
    data = editor(client, site)
    outcomes = data["outcomes"]
    assert data["most_ron_winners"] == 3  # triple ron is no abortive draw there
    assert outcomes["nagashi"] is True
    assert outcomes["abortive"] == [
        ["nine-terminals", "nine different terminals and honours"],
        ["four-winds", "four identical winds discarded"],
        ["four-riichi", "four riichi"],
        ["four-kongs", "four kongs by several players"],
    ]
    use_preset(site.tournament, "TENHOU")
    assert editor(client, site)["most_ron_winners"] == 2  # a third call is the abortive sanchahou
    assert editor(client, site)["outcomes"]["abortive"][-1] == [
        "triple-ron",
        "three players winning on one discard",
    ]
    # The kinds are named in the reader's language.
    german = client_for(site.users["referee"], HTTP_ACCEPT_LANGUAGE="de")
    german.cookies["django_language"] = "de"
    named = dict(editor(german, site)["outcomes"]["abortive"])
    assert named["four-riichi"] != "four riichi"


@pytest.mark.django_db
def test_the_check_accepts_the_online_outcomes_under_the_preset_and_names_hand_and_rule_under_wrcr(
    site: Site,
) -> None:
    client = client_for(site.users["referee"])
    verdict = check(client, site, online_hands())
    assert verdict["valid"] is False
    assert [(error["hand"], error["rule"]) for error in verdict["errors"]] == [
        (1, "abortive-draw (WRCR 2015 §5.7.3)"),
        (2, "nagashi-mangan (WRCR 2015 §5.7.2)"),
    ]
    assert verdict["errors"][0]["message"].startswith(
        "hand 1 (East 1, 0 honba): WRC2015 has no abortive draws"
    )
    use_preset(site.tournament, "TENHOU")
    verdict = check(client, site, online_hands())
    assert verdict["valid"] is True, verdict["errors"]
    assert [(hand["round"], hand["honba"], hand["result"]) for hand in verdict["hands"]] == [
        ("East 1", 0, "abortive"),
        ("East 1", 1, "nagashi"),
        ("East 1", 2, "ron"),
    ]
    # Gus's nagashi: 4,000 from Eve (the dealer), 2,000 from the others; Eve tenpai keeps the deal.
    assert verdict["hands"][1]["deltas"] == {"Eve": -4000, "Fay": -2000, "Gus": 8000, "Hal": -2000}


@pytest.mark.django_db
def test_a_sheet_with_online_outcomes_is_saved_signed_and_shown(site: Site) -> None:
    use_preset(site.tournament, "TENHOU")
    client = client_for(site.users["referee"])
    response = client.post(
        f"/t/{site.tournament.slug}/sheet/1/2/",
        {"entry": json.dumps(online_hands()), "action": "submit", "expected_version": ""},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    sheet = ScoreSheet.objects.get(table=site.table_2)
    assert sheet.replay["valid"] is True
    assert [hand["result"] for hand in sheet.replay["hands"]] == ["abortive", "nagashi", "ron"]
    sheets.sign_sheet(sheet, site.users["referee"])
    # Signed, the sheet shows its hands read-only, each result named.
    page = client.get(f"/t/{site.tournament.slug}/sheet/1/2/").content.decode()
    assert "<td>East 1 abortive</td>" in page and "<td>East 1-1 nagashi</td>" in page
