"""The tie-break order as a setting: the organiser's form, the API, the pages, the archive and the
migration of the old single choice."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from rest_framework.test import APIClient

from exports.archive.dump import export_archive
from exports.archive.load import import_archive
from tournament.core.refusal import Refusal
from tournament.models import Tournament


def edit_data(client: Client, slug: str) -> dict[str, Any]:
    page = client.get(f"/t/{slug}/manage/edit/")
    assert page.status_code == 200
    data = {k: v for k, v in page.context["form"].initial.items() if v is not None}
    data.update(ruleset_overrides="{}", is_public="on")
    return data


@pytest.mark.django_db
def test_the_organisers_form_sets_the_order_and_refuses_a_repeat(
    tournament: Tournament, organiser: Any
) -> None:
    client = Client()
    client.force_login(organiser)
    data = edit_data(client, tournament.slug) | {"tie_break_1": "head_to_head", "tie_break_3": "most_firsts"}
    assert client.post(f"/t/{tournament.slug}/manage/edit/", data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.tie_breaks == ["head_to_head", "most_firsts"]  # the empty "then" is skipped
    page = client.get(f"/t/{tournament.slug}/manage/edit/")
    form = page.context["form"]
    assert (form["tie_break_1"].initial, form["tie_break_2"].initial) == ("head_to_head", "most_firsts")

    repeated = edit_data(client, tournament.slug) | {
        "tie_break_1": "best_hanchan",
        "tie_break_2": "best_hanchan",
    }
    response = client.post(f"/t/{tournament.slug}/manage/edit/", repeated)
    assert response.status_code == 200
    errors = response.context["form"].errors.as_data()
    assert [e.code for e in errors["tie_break_2"]] == ["tie-breaks"]
    assert "at most once" in response.content.decode()
    unknown = edit_data(client, tournament.slug) | {"tie_break_1": "coin_toss"}
    response = client.post(f"/t/{tournament.slug}/manage/edit/", unknown)
    assert response.status_code == 200 and "tie_break_1" in response.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.tie_breaks == ["head_to_head", "most_firsts"]


@pytest.mark.django_db
def test_the_form_keeps_a_longer_order_set_through_the_api(tournament: Tournament, organiser: Any) -> None:
    every = ["best_placements", "head_to_head", "best_hanchan", "most_firsts"]
    Tournament.objects.filter(pk=tournament.pk).update(tie_breaks=every)
    client = Client()
    client.force_login(organiser)
    form = client.get(f"/t/{tournament.slug}/manage/edit/").context["form"]
    assert [form[f"tie_break_{n}"].initial for n in range(1, 5)] == every
    data = edit_data(client, tournament.slug) | {f"tie_break_{n}": step for n, step in enumerate(every, 1)}
    assert client.post(f"/t/{tournament.slug}/manage/edit/", data | {"venue": "Hall"}).status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).tie_breaks == every


@pytest.mark.django_db
def test_the_api_takes_a_list_and_refuses_naming_the_field_and_rule(
    tournament: Tournament, organiser: Any
) -> None:
    client = APIClient()
    client.force_authenticate(organiser)
    url = f"/api/tournaments/{tournament.pk}/"
    ok = client.patch(url, {"tie_breaks": ["best_placements", "head_to_head"]}, format="json")
    assert ok.status_code == 200, ok.content
    assert ok.json()["tie_breaks"] == ["best_placements", "head_to_head"]
    assert Tournament.objects.get(pk=tournament.pk).tie_breaks == ["best_placements", "head_to_head"]
    for value, rule in (
        (["most_firsts", "most_firsts"], "tie-breaks"),
        (["coin_toss"], "invalid_choice"),
        (["most_firsts"] * 6, "max_length"),
        ("most_firsts", "not_a_list"),
    ):
        response = client.patch(url, {"tie_breaks": value}, format="json")
        assert response.status_code == 400, response.content
        (error,) = response.json()["errors"]
        assert error["field"].startswith("tie_breaks") and error["rule"] == rule, error
    assert Tournament.objects.get(pk=tournament.pk).tie_breaks == ["best_placements", "head_to_head"]


@pytest.mark.django_db
def test_the_standings_and_home_pages_say_which_tie_breaks_apply_in_order(tournament: Tournament) -> None:
    client = Client()
    page = client.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert "Equal totals: the players share the rank." in page
    Tournament.objects.filter(pk=tournament.pk).update(tie_breaks=["head_to_head", "best_placements"])
    Tournament.objects.filter(pk=tournament.pk).update(standings_version=99)
    page = client.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert (
        "Equal totals: head-to-head (scores where the tied players met), then best placements "
        "(most 1sts, then 2nds, then 3rds); players still equal share the rank." in page
    )
    home = client.get(f"/t/{tournament.slug}/").content.decode()
    assert "Head-to-head (scores where the tied players met), then Best placements" in home


@pytest.mark.django_db
def test_the_archive_keeps_the_order_and_reads_the_old_single_choice(tournament: Tournament) -> None:
    Tournament.objects.filter(pk=tournament.pk).update(tie_breaks=["best_placements", "most_firsts"])
    tournament.refresh_from_db()
    archive = json.loads(export_archive(tournament))
    assert archive["tournament"]["tie_breaks"] == ["best_placements", "most_firsts"]
    assert import_archive(archive, slug="copy").tie_breaks == ["best_placements", "most_firsts"]
    del archive["tournament"]["tie_breaks"]
    for old, new in (("best_hanchan", ["best_hanchan"]), ("most_firsts", ["most_firsts"]), ("none", [])):
        archive["tournament"]["tie_break"] = old
        assert import_archive(archive, slug=f"old-{old}".replace("_", "-")).tie_breaks == new
    archive["tournament"]["tie_breaks"] = ["best_hanchan", "best_hanchan"]
    with pytest.raises(Refusal, match="tie_breaks: each tie-break at most once"):
        import_archive(archive, slug="bad")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_migration_turns_the_single_choice_into_a_list() -> None:
    before, after = [("tournament", "0018_team_standings")], [("tournament", "0019_tie_break_order")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        old = (
            MigrationExecutor(connection)
            .loader.project_state(before)
            .apps.get_model("tournament", "Tournament")
        )
        for slug, tie_break in (("a", "none"), ("b", "most_firsts"), ("c", "best_hanchan")):
            old.objects.create(
                name=slug,
                slug=slug,
                starts_on=date(2026, 1, 1),
                ends_on=date(2026, 1, 1),
                hanchan_count=4,
                tie_break=tie_break,
            )
        executor = MigrationExecutor(connection)
        executor.migrate(after)
        new = executor.loader.project_state(after).apps.get_model("tournament", "Tournament")
        assert dict(new.objects.values_list("slug", "tie_breaks")) == {
            "a": [],
            "b": ["most_firsts"],
            "c": ["best_hanchan"],
        }
        # And back: the first tie-break the old field knows.
        new.objects.filter(slug="a").update(tie_breaks=["head_to_head", "best_hanchan"])
        executor = MigrationExecutor(connection)
        executor.migrate(before)
        old = executor.loader.project_state(before).apps.get_model("tournament", "Tournament")
        assert dict(old.objects.values_list("slug", "tie_break")) == {
            "a": "best_hanchan",
            "b": "most_firsts",
            "c": "best_hanchan",
        }
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
