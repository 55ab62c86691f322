"""A hostile tournament archive is refused, naming the value at fault, and stores nothing: every value is
checked as the product's own doors check it (exports/archive/checks.py), within bounds of size and
depth, and no database error or recursion gets through as anything but a refusal."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from exports.archive import load as archive_load
from exports.archive.dump import export_archive
from exports.archive.load import import_archive
from scoring.models import ScoreSheet, SeatResult
from tournament.core.refusal import Refusal
from tournament.models import Player, Round, Tournament

SHEET = "rounds.0.tables.0.score_sheet"
RESULT = f"{SHEET}.results.0"


def result(archive: dict[str, Any]) -> dict[str, Any]:
    row: dict[str, Any] = archive["rounds"][0]["tables"][0]["score_sheet"]["results"][0]
    return row


def setting(name: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(archive: dict[str, Any]) -> None:
        archive["tournament"][name] = value

    return change


def of_result(name: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(archive: dict[str, Any]) -> None:
        result(archive)[name] = value

    return change


def of_entry(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def changed(archive: dict[str, Any]) -> None:
        change(archive["rounds"][0]["tables"][0]["score_sheet"]["entry"])

    return changed


def cut_short(entry: dict[str, Any]) -> None:
    del entry["hands"][3:], entry["final_points"]


def of_player(index: int, name: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(archive: dict[str, Any]) -> None:
        archive["players"][index][name] = value

    return change


# Each hostile value, the field the refusal names and its rule.
HOSTILE = {
    "a preset no one has": (
        setting("ruleset_preset", "BOGUS"),
        "tournament.ruleset_preset",
        "invalid_choice",
    ),
    "a score not a number": (of_result("score", "NaN"), f"{RESULT}.score", "invalid"),
    "an infinite score": (of_result("score", "Infinity"), f"{RESULT}.score", "invalid"),
    "a rank at a table of four": (of_result("rank", 99), f"{RESULT}.rank", "max_value"),
    "points of 10^20": (of_result("points", 10**20), f"{RESULT}.points", "max_value"),
    "points as a text": (of_result("points", "many"), f"{RESULT}.points", "invalid"),
    "junk custom rules": (
        setting("ruleset_overrides", {"junk": 1}),
        "tournament.ruleset_overrides",
        "ruleset",
    ),
    "custom rules as a list": (
        setting("ruleset_overrides", [1, 2]),
        "tournament.ruleset_overrides",
        "ruleset",
    ),
    "no starting points": (
        setting("ruleset_overrides", {"starting_points": 0}),
        "tournament.ruleset_overrides",
        "ruleset",
    ),
    "a kind of event no one has": (setting("kind", "casino"), "tournament.kind", "invalid_choice"),
    "a language no one has": (setting("language", "xx-evil"), "tournament.language", "invalid_choice"),
    "a time zone on Mars": (setting("time_zone", "Mars/Olympus"), "tournament.time_zone", "invalid"),
    "every hanchan hidden": (setting("hidden_hanchan", 99), "tournament.hidden_hanchan", "max_value"),
    "more hidden than played": (setting("hidden_hanchan", 5), "tournament.hidden_hanchan", "invalid"),
    "no hanchan": (setting("hanchan_count", 0), "tournament.hanchan_count", "min_value"),
    "an endless hanchan": (
        setting("hanchan_minutes", 10_000),
        "tournament.hanchan_minutes",
        "hanchan-time (WRCR 2015 §8.2)",
    ),
    "a name with a control character": (setting("name", "Cup\x07"), "tournament.name", "printable-text"),
    "a slug with a slash": (setting("slug", "a/b"), "tournament.slug", "invalid"),
    "a country no one has": (of_player(2, "country", "ZZZ"), "players.2.country", "invalid_choice"),
    "a player's name as a list": (of_player(0, "name", ["Ana"]), "players.0.name", "invalid"),
    "an empty player name": (of_player(0, "name", ""), "players.0.name", "blank"),
    "a player name with a bell": (of_player(1, "name", "Ben\x07"), "players.1.name", "printable-text"),
    "a bad EMA id": (of_player(0, "ema_id", "12"), "players.0.ema_id", "invalid"),
    "a status no one has": (of_player(0, "status", "king"), "players.0.status", "invalid_choice"),
    "a substitute flag as a text": (
        of_player(0, "is_substitute", "yes"),
        "players.0.is_substitute",
        "invalid",
    ),
    "a time without its zone": (
        of_player(0, "registered_at", "2026-05-01T09:30:00"),
        "players.0.registered_at",
        "invalid",
    ),
    "a date that is none": (setting("starts_on", "2026-13-45"), "tournament.starts_on", "invalid"),
    "a clock state too long": (
        lambda archive: archive["rounds"][0].update(clock_state="x" * 100),
        "rounds.0.clock_state",
        "max_length",
    ),
    "a wind past North": (
        lambda archive: archive["rounds"][0]["tables"][0]["seats"][0].update(wind=7),
        "rounds.0.tables.0.seats.0.wind",
        "invalid_choice",
    ),
    # A signed sheet as the sheet editor takes it (checks.check_sheet): its entry replayed under the
    # tournament's rules, a whole hanchan, and its results the points its hands make.
    "points the hands do not make": (
        of_result("points", 38_400),
        f"{RESULT}.points",
        "results-match-the-entry",
    ),
    "an entry not an object": (
        of_entry(lambda entry: entry.clear() or entry.update(x=1)),
        f"{SHEET}.entry.form",
        "format",
    ),
    "a hand of no han": (
        of_entry(lambda entry: entry["hands"][0].update(han=0)),
        f"{SHEET}.entry.hands",
        "han-fu (WRCR 2015 §6.1, §6.3)",
    ),
    "final points the hands do not make": (
        of_entry(lambda entry: entry["final_points"].update(Ana=37_500, Ben=26_500)),
        f"{SHEET}.entry",
        "final-points (WRCR 2015 §5.9)",
    ),
    "a signed hanchan cut short": (
        of_entry(cut_short),
        f"{SHEET}.entry.hands",
        "end-of-game (WRCR 2015 §5.9.1)",
    ),
    "players not a list": (lambda archive: archive.update(players={"a": 1}), "players", "archive-row"),
    "a player not an object": (
        lambda archive: archive["players"].__setitem__(0, 7),
        "players.0",
        "archive-row",
    ),
}


def stored() -> dict[str, int]:
    return {
        "tournaments": Tournament.objects.count(),
        "players": Player.objects.count(),
        "rounds": Round.objects.count(),
        "sheets": ScoreSheet.objects.count(),
        "results": SeatResult.objects.count(),
        "users": get_user_model().objects.count(),
    }


@pytest.mark.django_db
@pytest.mark.parametrize("case", list(HOSTILE))
def test_each_hostile_value_is_refused_naming_its_field_and_nothing_is_stored(
    played: Tournament, case: str
) -> None:
    change, field, rule = HOSTILE[case]
    archive = json.loads(export_archive(played))
    archive["tournament"]["slug"] = "hostile"
    archive["users"].append({"username": "newcomer", "first_name": "", "last_name": ""})
    change(archive)
    before = stored()
    for data in (archive, json.dumps(archive).encode()):
        with pytest.raises(Refusal) as refused:
            import_archive(data)
        problem = refused.value.problems[0]
        assert (problem.field, problem.rule) == (field, rule), problem
        assert problem.message.startswith(f"{field}: ") or problem.message.startswith(f"{field}."), problem
    assert stored() == before
    assert not Tournament.objects.filter(slug="hostile").exists()


@pytest.mark.django_db
def test_the_refusal_names_the_rows_place_in_its_list_as_its_line(played: Tournament) -> None:
    archive = json.loads(export_archive(played))
    archive["tournament"]["slug"] = "hostile"
    archive["players"][2]["country"] = "ZZZ"
    with pytest.raises(Refusal) as refused:
        import_archive(archive)
    assert refused.value.problems[0].line == 3
    assert refused.value.as_dicts()[0]["line"] == 3


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("where", "text"),
    [("a player's name", '"name":"Ana\\u0000"'), ("a sheet's entry", '"form":"fin\\u0000al"')],
)
def test_a_nul_character_anywhere_is_refused_before_the_database(
    played: Tournament, where: str, text: str
) -> None:
    data = export_archive(played).decode().replace('"slug":"test-open"', '"slug":"hostile"', 1)
    original = '"name":"Ana"' if where == "a player's name" else '"form":"final"'
    assert original in data
    data = data.replace(original, text, 1)
    before = stored()
    for given in (data.encode(), json.loads(data)):
        with pytest.raises(Refusal) as refused:
            import_archive(given)
        assert (refused.value.field, refused.value.rule) == ("archive", "printable-text")
    assert stored() == before


def deep_list(depth: int) -> list[Any]:
    top: list[Any] = []
    inner = top
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return top


@pytest.mark.django_db
def test_200k_nested_brackets_are_refused_without_recursing(played: Tournament) -> None:
    text = export_archive(played).decode().replace('"slug":"test-open"', '"slug":"hostile"', 1)
    deep = "[" * 200_000 + "]" * 200_000
    assert '"audit":[' in text
    data = text.replace('"audit":[', f'"audit":[{deep},', 1)
    archive = json.loads(text)
    before = stored()
    with pytest.raises(Refusal) as refused:
        import_archive(data.encode())
    assert (refused.value.field, refused.value.rule) == ("archive", "json-depth")
    archive["audit"].insert(0, deep_list(200_000))
    with pytest.raises(Refusal) as refused:
        import_archive(archive)
    assert (refused.value.field, refused.value.rule) == ("archive", "json-depth")
    assert stored() == before


@pytest.mark.django_db
@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_json_number_that_is_none_is_refused(played: Tournament, constant: str) -> None:
    data = export_archive(played).decode().replace('"slug":"test-open"', '"slug":"hostile"', 1)
    assert '"hidden_hanchan":0' in data
    data = data.replace('"hidden_hanchan":0', f'"hidden_hanchan":{constant}', 1)
    with pytest.raises(Refusal) as refused:
        import_archive(data.encode())
    assert (refused.value.field, refused.value.rule) == ("archive", "json")
    with pytest.raises(Refusal) as refused:
        import_archive({**json.loads(export_archive(played)), "extra": float("nan")})
    assert (refused.value.field, refused.value.rule) == ("archive", "json")


@pytest.mark.django_db
def test_a_database_refusal_is_a_refusal(played: Tournament) -> None:
    """Two players of one name pass every field's check; the database's unique constraint refuses them,
    and the refusal says so instead of the database error."""
    archive = json.loads(export_archive(played))
    archive["tournament"]["slug"] = "hostile"
    archive["players"][1]["name"] = archive["players"][0]["name"]
    before = stored()
    with pytest.raises(Refusal) as refused:
        import_archive(archive)
    assert (refused.value.field, refused.value.rule) == ("archive", "tournament-archive")
    assert "could not be imported" in refused.value.message
    assert stored() == before


@pytest.mark.django_db
def test_an_archive_over_the_size_limit_is_refused_unread(
    played: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = export_archive(played)
    monkeypatch.setattr(archive_load, "MAX_ARCHIVE_BYTES", len(data) - 1)
    with pytest.raises(Refusal) as refused:
        import_archive(data)
    assert (refused.value.field, refused.value.rule) == ("archive", "body-size")
