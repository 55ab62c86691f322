"""The new-tournament and settings form: its four parts, a help text for every field, the address made
from the name (and never changed unasked), the common custom rules as fields agreeing with the JSON,
and "keep apart" as a choice stored as the model's number."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from scoring.rules.replay import replay
from scoring.rules.scores import table_scores
from tournament.forms.settings import TournamentForm
from tournament.models import Tournament

BASE = {
    "name": "Spring Open",
    "slug": "",
    "starts_on": "2027-04-03",
    "ends_on": "2027-04-04",
    "ruleset_preset": "WRC2015",
    "ruleset_overrides": "{}",
    "hanchan_count": "6",
    "hanchan_minutes": "90",
}


@pytest.fixture
def client(organiser: Any) -> Client:
    signed_in = Client()
    signed_in.force_login(organiser)
    return signed_in


def edit_data(client: Client, slug: str) -> dict[str, Any]:
    form = client.get(f"/t/{slug}/manage/edit/").context["form"]
    data = {name: form[name].value() for name in form.fields}
    return {k: ("" if v is None else v) for k, v in data.items() if v is not False}


@pytest.mark.django_db
def test_the_form_has_five_parts_and_every_field_says_what_it_is_for(client: Client) -> None:
    page = client.get("/tournaments/new/")
    form = page.context["form"]
    parts = form.fieldsets()
    # A new tournament's form opens on what it needs; the five parts follow, folded.
    assert [f.name for f in parts[0]["fields"]] == ["name", "slug", "starts_on", "ends_on", "hanchan_count"]
    assert [(p["key"], str(p["legend"])) for p in parts] == [
        ("needed", "What the tournament needs"),
        ("event", "Event"),
        ("rules", "Rules"),
        ("format", "Format"),
        ("publication", "Publication"),
        ("ratings", "Ratings"),
    ]
    assert sorted(f.name for p in parts for f in p["fields"]) == sorted(form.fields)
    grouped_help = {"rule_uma_1", "rule_uma_2", "rule_uma_3", "rule_uma_4", "tie_break_2", "tie_break_3"}
    assert [name for name, field in form.fields.items() if not field.help_text] == sorted(
        grouped_help, key=list(form.fields).index
    )
    html = page.content.decode()
    assert html.count("<fieldset") >= 6 and 'id="uma_helptext"' in html
    assert html.count('<details class="form-part" data-part-fold>') == 5
    assert re.search(r'<details class="advanced">\s*<summary>Advanced: other custom rules</summary>', html)
    assert '<script src="/static/js/tournament_form.js" defer></script>' in html
    assert "data-creating data-browser-time-zone" in html
    assert '<option value="never">Never at one table</option>' in html


@pytest.mark.django_db
def test_an_empty_address_is_made_from_the_name_and_kept_when_editing(client: Client) -> None:
    assert client.post("/tournaments/new/", BASE)["Location"] == "/t/spring-open/manage/"
    assert client.post("/tournaments/new/", BASE)["Location"] == "/t/spring-open-2/manage/"
    assert client.post("/tournaments/new/", BASE | {"name": "東京オープン"})["Location"] == (
        "/t/tournament/manage/"
    )
    data = edit_data(client, "spring-open-2") | {"slug": "", "name": "Summer Open"}
    assert client.post("/t/spring-open-2/manage/edit/", data)["Location"] == "/t/spring-open-2/manage/"
    assert Tournament.objects.get(slug="spring-open-2").name == "Summer Open"


@pytest.mark.django_db
def test_the_rule_fields_set_their_rules_and_the_json_the_rest(client: Client) -> None:
    body = BASE | {
        "rule_starting_points": "25000",
        "rule_uma_1": "20",
        "rule_uma_2": "10",
        "rule_uma_3": "-10",
        "rule_uma_4": "-20",
        "rule_kiriage": "no",
        "ruleset_overrides": '{"description": "Spring rules", "starting_points": 27000}',
    }
    assert client.post("/tournaments/new/", body).status_code == 302
    spring = Tournament.objects.get(slug="spring-open")
    assert spring.ruleset_overrides == {
        "description": "Spring rules",
        "starting_points": 25000,  # the field wins over the same rule in the JSON
        "uma": [20, 10, -10, -20],
        "kiriage": False,
    }
    ruleset = spring.ruleset()
    assert (ruleset.starting_points, ruleset.uma, ruleset.kiriage) == (25000, (20, 10, -10, -20), False)
    # Shown again where each belongs: the fields, and only the rest as JSON.
    form = client.get("/t/spring-open/manage/edit/").context["form"]
    assert form["rule_starting_points"].value() == 25000 and form["rule_uma_4"].value() == -20
    assert form["rule_kiriage"].value() == "no"
    assert form["ruleset_overrides"].value() == '{"description": "Spring rules"}'
    # Emptying a field gives the preset's rule back.
    data = edit_data(client, "spring-open") | {"rule_starting_points": ""}
    assert client.post("/t/spring-open/manage/edit/", data).status_code == 302
    spring.refresh_from_db()
    assert "starting_points" not in spring.ruleset_overrides
    assert spring.ruleset_overrides["description"] == "Spring rules"


@pytest.mark.django_db
def test_a_rule_out_of_its_range_is_refused_beside_its_field(client: Client) -> None:
    body = BASE | {"rule_starting_points": "25050", "rule_chombo_penalty": "5000", "rule_uma_1": "20"}
    form = client.post("/tournaments/new/", body).context["form"]
    assert form.errors["rule_starting_points"] == ["starting_points must be a multiple of 100"]
    assert form.errors["rule_chombo_penalty"] == ["chombo_penalty must be from 0 to 1,000, not 5,000"]
    assert form.errors["rule_uma_2"] == ["uma: give all four places, or none for the preset's uma"]
    assert "rule_uma_1" not in form.errors
    assert not Tournament.objects.filter(name="Spring Open").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("choice", "number", "stored"),
    [("none", "3", None), ("never", "3", 0), ("from", "3", 3), ("", "", None), ("", "0", 0), ("", "4", 4)],
)
def test_keeping_team_mates_apart_is_a_choice_stored_as_before(
    client: Client, choice: str, number: str, stored: int | None
) -> None:
    """ "" is a post without the choice (the number alone, as before the choice): stored as it is."""
    body = BASE | {"separate_teams": number} | ({"separate_teams_rule": choice} if choice else {})
    assert client.post("/tournaments/new/", body).status_code == 302
    assert Tournament.objects.get(slug="spring-open").separate_teams == stored


@pytest.mark.django_db
def test_not_before_hanchan_n_needs_n_and_a_stored_rule_shows_as_its_choice(
    client: Client, tournament: Tournament
) -> None:
    refused = client.post("/tournaments/new/", BASE | {"separate_clubs_rule": "from", "separate_clubs": ""})
    assert refused.context["form"].errors["separate_clubs"] == [
        "“Not before hanchan n” needs n: the first hanchan where they may meet (1 or more)."
    ]
    Tournament.objects.filter(pk=tournament.pk).update(separate_teams=0, separate_countries=3)
    form = TournamentForm(instance=Tournament.objects.get(pk=tournament.pk))
    assert form["separate_teams_rule"].value() == "never" and form["separate_teams"].value() is None
    assert form["separate_countries_rule"].value() == "from" and form["separate_countries"].value() == 3
    assert form["separate_clubs_rule"].value() == "none"


ONLINE_RULES = {
    "rule_multiple_ron": "yes",
    "rule_red_fives": "3",
    "rule_abortive": "these",
    "rule_abortive_draws": ["four-riichi", "nine-terminals"],
    "rule_nagashi_mangan": "yes",
    "rule_busting": "yes",
    "rule_counted_yakuman": "yes",
    "rule_agari_yame": "optional",
    "rule_west_round_points": "30000",
}


# Every other rule the engine reads, each set away from the WRC2015 preset (under "More rules").
MORE_RULES = {
    "rule_multiple_ron": "yes",
    "rule_multiple_ron_honba_each": "no",
    "rule_yakuman_accumulate": "yes",
    "rule_renho_mangan": "no",
    "rule_liability": "no",
    "rule_kokushi_robs_concealed_kong": "no",
    "rule_double_wind_pair_fu": "2",
    "rule_riichi_stick": "500",
    "rule_honba_ron": "600",
    "rule_honba_tsumo_each": "200",
    "rule_noten_total": "6000",
    "rule_noten_riichi_chombo": "no",
    "rule_chombo_table_payment": "yes",
}


@pytest.mark.django_db
def test_the_rules_once_only_in_the_json_are_fields_and_come_back_in_them(client: Client) -> None:
    assert "data-more-rules>" in client.get("/tournaments/new/").content.decode()  # folded: none set
    assert client.post("/tournaments/new/", BASE | MORE_RULES).status_code == 302
    spring = Tournament.objects.get(slug="spring-open")
    assert spring.ruleset_overrides == {
        "multiple_ron": True,
        "multiple_ron_honba_each": False,
        "yakuman_accumulate": True,
        "renho_mangan": False,
        "liability": False,
        "kokushi_robs_concealed_kong": False,
        "double_wind_pair_fu": 2,
        "riichi_stick": 500,
        "honba_ron": 600,
        "honba_tsumo_each": 200,
        "noten_total": 6000,
        "noten_riichi_chombo": False,
        "chombo_table_payment": True,
    }
    ruleset = spring.ruleset()
    assert (ruleset.multiple_ron_honba_each, ruleset.yakuman_accumulate, ruleset.noten_total) == (
        False,
        True,
        6000,
    )
    # Shown again in their fields, none as JSON, "More rules" unfolded; saved again unchanged.
    page = client.get("/t/spring-open/manage/edit/")
    form = page.context["form"]
    assert form["rule_multiple_ron_honba_each"].value() == "no" and form["rule_honba_ron"].value() == 600
    assert form["rule_yakuman_accumulate"].value() == "yes" and form["ruleset_overrides"].value() == "{}"
    assert "data-more-rules open>" in page.content.decode()
    before = dict(spring.ruleset_overrides)
    assert client.post("/t/spring-open/manage/edit/", edit_data(client, "spring-open")).status_code == 302
    spring.refresh_from_db()
    assert spring.ruleset_overrides == before
    # Emptied, a field is the preset's rule again (WRCR 2015 §6.1, §6.5: yakuman are not cumulative).
    data = edit_data(client, "spring-open") | {"rule_yakuman_accumulate": ""}
    assert client.post("/t/spring-open/manage/edit/", data).status_code == 302
    assert Tournament.objects.get(pk=spring.pk).ruleset().yakuman_accumulate is False


@pytest.mark.django_db
def test_a_payment_rule_out_of_its_range_or_step_is_refused_naming_its_field(client: Client) -> None:
    body = BASE | {"rule_honba_ron": "250", "rule_noten_total": "1000", "rule_double_wind_pair_fu": "9"}
    response = client.post("/tournaments/new/", body)
    form = response.context["form"]
    assert form.errors["rule_honba_ron"] == ["honba_ron must be a multiple of 100"]
    assert form.errors["rule_noten_total"] == ["noten_total must be a multiple of 300"]
    assert form.errors["rule_double_wind_pair_fu"] == ["double_wind_pair_fu must be from 0 to 8, not 9"]
    assert "data-more-rules open>" in response.content.decode()  # the refusals are not folded away
    assert not Tournament.objects.filter(name="Spring Open").exists()


@pytest.mark.django_db
def test_a_preset_without_overrides_stores_no_custom_rules(client: Client) -> None:
    for preset in ("WRC2015", "TENHOU"):
        data = BASE | {"ruleset_preset": preset, "name": f"Open {preset}"}
        assert client.post("/tournaments/new/", data).status_code == 302
        stored = Tournament.objects.get(name=f"Open {preset}")
        assert stored.ruleset_overrides == {} and stored.ruleset_preset == preset
        # Saved again from its own form: still nothing.
        assert (
            client.post(f"/t/{stored.slug}/manage/edit/", edit_data(client, stored.slug)).status_code == 302
        )
        stored.refresh_from_db()
        assert stored.ruleset_overrides == {}


@pytest.mark.django_db
def test_the_online_rules_are_fields_stored_as_the_engine_reads_them(client: Client) -> None:
    assert client.post("/tournaments/new/", BASE | ONLINE_RULES).status_code == 302
    spring = Tournament.objects.get(slug="spring-open")
    assert spring.ruleset_overrides == {
        "multiple_ron": True,
        "red_fives": 3,
        "abortive_draws": ["nine-terminals", "four-riichi"],
        "nagashi_mangan": True,
        "busting": True,
        "counted_yakuman": True,
        "agari_yame": "optional",
        "west_round_points": 30000,
    }
    ruleset = spring.ruleset()
    assert ruleset.abortive_draws == frozenset({"nine-terminals", "four-riichi"}) and ruleset.red_fives == 3
    assert ruleset.nagashi_mangan and ruleset.busting and ruleset.counted_yakuman and ruleset.multiple_ron
    assert (ruleset.agari_yame, ruleset.west_round_points) == ("optional", 30000)
    # Shown again in their fields, none as JSON; saved again unchanged.
    form = client.get("/t/spring-open/manage/edit/").context["form"]
    assert form["rule_abortive"].value() == "these"
    assert form["rule_abortive_draws"].value() == ["nine-terminals", "four-riichi"]
    assert form["rule_agari_yame"].value() == "optional" and form["rule_busting"].value() == "yes"
    assert form["rule_red_fives"].value() == 3 and form["ruleset_overrides"].value() == "{}"
    before = dict(spring.ruleset_overrides)
    assert client.post("/t/spring-open/manage/edit/", edit_data(client, "spring-open")).status_code == 302
    spring.refresh_from_db()
    assert spring.ruleset_overrides == before
    # "None" and "No" are stored as rules of their own, not as the preset's.
    data = edit_data(client, "spring-open") | {"rule_abortive": "none", "rule_agari_yame": "none"}
    assert client.post("/t/spring-open/manage/edit/", data).status_code == 302
    spring.refresh_from_db()
    assert spring.ruleset_overrides["abortive_draws"] == [] and spring.ruleset_overrides["agari_yame"] == ""
    assert Tournament.objects.get(pk=spring.pk).ruleset().abortive_draws == frozenset()


@pytest.mark.django_db
def test_tenhous_ties_by_seat_and_rounding_are_fields_and_score_the_tournament(client: Client) -> None:
    body = BASE | {"rule_ties_by_seat": "yes", "rule_round_to_thousand": "yes"}
    assert client.post("/tournaments/new/", body).status_code == 302
    spring = Tournament.objects.get(slug="spring-open")
    assert spring.ruleset_overrides == {"ties_by_seat": True, "round_to_thousand": True}
    # WRCR 2015's points and uma, Tenhou's ties and rounding: Ana and Dai tie at 29,500 and count 30,000
    # (a half upwards), Ana (East) second with +5, Dai third with -5; Cho's 10,400 counts 10,000; Ben first
    # takes the 50,000 the others leave of 120,000 (his 50,600 less the 600 their rounding gave them).
    ranks, _uma, scores = table_scores(
        {"Ana": 29500, "Ben": 50600, "Cho": 10400, "Dai": 29500}, spring.ruleset()
    )
    assert ranks == {"Ana": 2, "Ben": 1, "Cho": 4, "Dai": 3}
    assert scores == {"Ana": 5, "Ben": 35, "Cho": -35, "Dai": -5}
    form = client.get("/t/spring-open/manage/edit/").context["form"]
    assert form["rule_ties_by_seat"].value() == "yes" and form["rule_round_to_thousand"].value() == "yes"
    assert form["ruleset_overrides"].value() == "{}"


@pytest.mark.django_db
def test_east_only_games_are_a_field_of_the_rules(client: Client) -> None:
    body = BASE | {"ruleset_preset": "TENHOU", "rule_east_only": "yes"}
    assert client.post("/tournaments/new/", body).status_code == 302
    spring = Tournament.objects.get(slug="spring-open")
    assert spring.ruleset_overrides == {"east_only": True}
    assert spring.ruleset().east_only and spring.ruleset().west_round_points == 30000
    form = client.get("/t/spring-open/manage/edit/").context["form"]
    assert form["rule_east_only"].value() == "yes"


@pytest.mark.django_db
def test_an_impossible_combination_is_refused_naming_the_field_and_the_rule(client: Client) -> None:
    body = BASE | {
        "rule_abortive": "these",
        "rule_abortive_draws": ["triple-ron"],
        "rule_multiple_ron": "no",
        "rule_red_fives": "5",
        "rule_west_round_points": "30050",
    }
    form = client.post("/tournaments/new/", body).context["form"]
    assert form.errors["rule_abortive_draws"] == [
        "abortive_draws: triple-ron needs multiple_ron (without it, the head bump wins)"
    ]
    assert form.errors["rule_red_fives"] == ["red_fives must be from 0 to 4, not 5"]
    assert form.errors["rule_west_round_points"] == ["west_round_points must be a multiple of 100"]
    assert not Tournament.objects.filter(name="Spring Open").exists()
    # With multiple ron, the same abortive draw is accepted (the preset WRC2015 has none).
    allowed = body | {"rule_multiple_ron": "yes", "rule_red_fives": "1", "rule_west_round_points": "30000"}
    assert client.post("/tournaments/new/", allowed).status_code == 302
    assert Tournament.objects.get(slug="spring-open").ruleset().allows_abortive("triple-ron")


def abortive_sheet(kind: str) -> dict[str, Any]:
    players = ["Ana", "Ben", "Cho", "Dai"]
    riichi = players if kind == "four-riichi" else []
    return {"players": players, "hands": [{"result": "abortive", "kind": kind, "riichi": riichi}]}


@pytest.mark.django_db
def test_an_abortive_draw_is_accepted_on_a_sheet_only_when_the_form_allows_it(client: Client) -> None:
    assert client.post("/tournaments/new/", BASE | {"name": "Plain"}).status_code == 302
    assert client.post("/tournaments/new/", BASE | {"name": "Online"} | ONLINE_RULES).status_code == 302
    plain = Tournament.objects.get(name="Plain").ruleset()
    online = Tournament.objects.get(name="Online").ruleset()
    assert replay(abortive_sheet("four-riichi"), online).valid
    assert replay(abortive_sheet("nine-terminals"), online).valid
    refused = replay(abortive_sheet("four-kongs"), online)  # not ticked
    assert (
        not refused.valid and "four kongs by several players is no abortive draw" in refused.errors[0].message
    )
    under_wrcr = replay(abortive_sheet("four-riichi"), plain)
    assert not under_wrcr.valid and "WRC2015 has no abortive draws" in under_wrcr.errors[0].message
