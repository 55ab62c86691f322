"""The public home page names the rules a tournament changes from its preset, in words, and says "with
these changes" only where a value differs: custom rules that restate the preset are the preset."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scoring.rules.ruleset import differences, get_ruleset
from tournament.models import Tournament


def rules_shown(tournament: Tournament) -> str:
    page = Client().get(f"/t/{tournament.slug}/").content.decode()
    found = re.search(r"<dd data-rules>(.*?)</dd>", page, re.S)
    assert found is not None
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).strip()


def test_differences_name_each_changed_field_with_both_values() -> None:
    preset = get_ruleset("WRC2015")
    same = preset.custom("WRC2015", uma=preset.uma)
    assert differences(same, preset) == []
    changed = preset.custom("WRC2015", uma=(20, 10, -10, -20), renho_mangan=not preset.renho_mangan)
    found = {field: (before, after) for field, before, after in differences(changed, preset)}
    assert found == {
        "uma": ([15, 5, -5, -15], [20, 10, -10, -20]),
        "renho_mangan": (preset.renho_mangan, not preset.renho_mangan),
    }


@pytest.mark.django_db
def test_custom_rules_equal_to_the_preset_are_the_preset(tournament: Tournament) -> None:
    preset = get_ruleset(tournament.ruleset_preset)
    tournament.ruleset_overrides = {"uma": list(preset.uma), "starting_points": preset.starting_points}
    tournament.save()
    assert rules_shown(tournament) == "World Riichi Championship Rules 2015"


@pytest.mark.django_db
def test_the_changed_rules_are_named_with_the_presets_values(tournament: Tournament) -> None:
    tournament.ruleset_overrides = {"uma": [20, 10, -10, -20]}
    tournament.save()
    shown = rules_shown(tournament)
    assert shown == (
        "World Riichi Championship Rules 2015, with these changes: "
        "Uma: 20 / 10 / -10 / -20 (the preset: 15 / 5 / -5 / -15)"
    )
