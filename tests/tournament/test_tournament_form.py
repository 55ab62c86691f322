"""The new-tournament and settings form: its four parts, a help text for every field, the address made
from the name (and never changed unasked), the common custom rules as fields agreeing with the JSON,
and "keep apart" as a choice stored as the model's number."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tournament.forms import TournamentForm
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
def test_the_form_has_four_parts_and_every_field_says_what_it_is_for(client: Client) -> None:
    page = client.get("/tournaments/new/")
    form = page.context["form"]
    parts = form.fieldsets()
    assert [(p["key"], str(p["legend"])) for p in parts] == [
        ("event", "Event"),
        ("rules", "Rules"),
        ("format", "Format"),
        ("publication", "Publication"),
    ]
    assert sorted(f.name for p in parts for f in p["fields"]) == sorted(form.fields)
    grouped_help = {"rule_uma_1", "rule_uma_2", "rule_uma_3", "rule_uma_4", "tie_break_2", "tie_break_3"}
    assert [name for name, field in form.fields.items() if not field.help_text] == sorted(
        grouped_help, key=list(form.fields).index
    )
    html = page.content.decode()
    assert html.count("<fieldset") >= 4 and 'id="uma_helptext"' in html
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
        "ruleset_overrides": '{"multiple_ron": true, "starting_points": 27000}',
    }
    assert client.post("/tournaments/new/", body).status_code == 302
    spring = Tournament.objects.get(slug="spring-open")
    assert spring.ruleset_overrides == {
        "multiple_ron": True,
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
    assert form["ruleset_overrides"].value() == '{"multiple_ron": true}'
    # Emptying a field gives the preset's rule back.
    data = edit_data(client, "spring-open") | {"rule_starting_points": ""}
    assert client.post("/t/spring-open/manage/edit/", data).status_code == 302
    spring.refresh_from_db()
    assert "starting_points" not in spring.ruleset_overrides and spring.ruleset_overrides["multiple_ron"]


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
