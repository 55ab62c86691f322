"""What an archive's values must be before anything of it is stored: each value as the product's own doors
would take it.

Every field of every row is checked by its model field, as ``full_clean`` checks it: its type, its
choices, its length, its bounds (the database's range of an integer column, the digits of a decimal,
the validators of the model, such as a hanchan count of 1 to 40), a NUL character in a text, a decimal that
is not a number (``NaN``, ``Infinity``). The tournament is then checked as the form and the API check it
(``tournament.services.tournaments.check_fields``, the model's ``clean``: its rules and custom rules, its
time zone, the hanchan it hides), and the players' names as the registration checks them (printable
text).

A refusal names the value by its path in the archive, as the API names a nested field
(``rounds.0.tables.2.score_sheet.results.1.rank``), and ``line``: the row's place in its list, the first
1 (as a player file's refusal names its line). Nothing of the archive is stored then: the import is one
transaction.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from functools import cache
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models

from scoring.rules.ruleset import Ruleset
from scoring.services.checks import check_entry_of
from tournament.core.inputs import RULE_PRINTABLE, control_problem
from tournament.core.refusal import Refusal
from tournament.models import TOURNAMENT_FIELDS as TOURNAMENT_SETTINGS
from tournament.models import Tournament
from tournament.services.tournaments import check_fields

# An archive of 1,000 players and 12 hanchan is 12 MB (docs/exports.md, "Speed"): twenty times that.
MAX_ARCHIVE_BYTES = 256 * 1024 * 1024
# A tournament archive nests about ten levels (rounds, tables, a score sheet, its versions, an entry's
# hands); a series archive holds tournament archives. Far below Python's recursion limit.
MAX_ARCHIVE_DEPTH = 32
# The names a registration refuses a control character in (tournament.registration).
PLAYER_NAMES = ("name", "first_name", "last_name", "native_name", "club", "team")


def field_refusal(path: str, rule: str, message: str, line: int | None = None) -> Refusal:
    """A value of the archive refused: ``path`` names it, ``line`` is its row's place in its list."""
    refusal = Refusal(path, rule, f"{path}: {message}")
    if line is not None:
        refusal.problems = (dataclasses.replace(refusal.problems[0], line=line),)
    return refusal


def validation_refusal(path: str, error: ValidationError, line: int | None = None) -> Refusal:
    """A Django ``ValidationError`` (of one value, or a model's ``clean`` by field) as a refusal."""
    if hasattr(error, "error_dict"):
        name, errors = next(iter(error.error_dict.items()))
        if name != NON_FIELD_ERRORS:
            path = f"{path}.{name}"
        error = errors[0]
    first = error.error_list[0]
    return field_refusal(path, first.code or "invalid", first.messages[0], line)


def within(prefix: str, refusal: Refusal) -> Refusal:
    """A refusal of a check that names its own fields (``name``), named inside the archive
    (``tournament.name``)."""
    problems = [
        dataclasses.replace(
            problem,
            field=f"{prefix}.{problem.field}" if problem.field else prefix,
            message=f"{prefix}.{problem.message}" if problem.field else f"{prefix}: {problem.message}",
        )
        for problem in refusal.problems
    ]
    return Refusal.of(problems, status=refusal.status)


def of_its_kind(field: models.Field[Any, Any], value: Any) -> bool:
    """Whether an archive's value has the JSON type its field is written as (``to_python`` alone would
    read a list as the text "[...]" and true as the number 1)."""
    if isinstance(field, models.BooleanField):
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if isinstance(field, models.CharField | models.TextField):
        return isinstance(value, str)
    if isinstance(field, models.IntegerField):
        return isinstance(value, int)
    if isinstance(field, models.FloatField):
        return isinstance(value, int | float)
    if isinstance(field, models.DecimalField):
        return isinstance(value, str | int)
    return True


def kind_of(field: models.Field[Any, Any]) -> str:
    if isinstance(field, models.BooleanField):
        return "true or false"
    if isinstance(field, models.CharField | models.TextField):
        return "a text"
    if isinstance(field, models.DecimalField):
        return "a decimal as a string"
    return "a number"


@cache
def choice_values(field: models.Field[Any, Any]) -> frozenset[Any]:
    """The values a field with choices takes, read once (Django reads a field's choices again at each
    check: the countries' 250 for every player)."""
    return frozenset(key for key, _ in field.flatchoices)


def checked_value(field: models.Field[Any, Any], value: Any, path: str, line: int | None) -> Any:
    """The model's value of an archive's value (already parsed from its text), refused as ``full_clean``
    refuses it. JSON fields (entries, reports) are taken as they are: the whole archive was read as
    JSON within bounds, without NUL characters."""
    try:
        if isinstance(field, models.JSONField):
            if value is None and not field.null:
                raise ValidationError(field.error_messages["null"], code="null")
            return value
        if value is not None and not of_its_kind(field, value):
            raise ValidationError(f"{kind_of(field)}, not {type(value).__name__}", code="invalid")
        value = field.to_python(value)
        if value is None:
            if not field.null:
                raise ValidationError(field.error_messages["null"], code="null")
            return None
        if value == "" and not field.blank:
            raise ValidationError(field.error_messages["blank"], code="blank")
        if field.choices is not None and value != "" and value not in choice_values(field):
            raise ValidationError(
                field.error_messages["invalid_choice"], code="invalid_choice", params={"value": value}
            )
        if isinstance(value, datetime) and value.tzinfo is None:
            raise ValidationError("a time with its offset from UTC (+00:00)", code="invalid")
        field.run_validators(value)
    except ValidationError as error:
        raise validation_refusal(path, error, line) from None
    return value


def check_tournament(tournament: Tournament) -> None:
    """The archived tournament's settings, checked as the form and the API check them."""
    try:
        check_fields({name: getattr(tournament, name) for name in TOURNAMENT_SETTINGS})
    except Refusal as refusal:
        raise within("tournament", refusal) from None
    try:
        tournament.clean()
    except ValidationError as error:
        raise validation_refusal("tournament", error) from None


def check_names(
    row: dict[str, Any], path: str, line: int | None, names: tuple[str, ...] = PLAYER_NAMES
) -> None:
    """A player's (or person's) names are printable text, as the registration refuses otherwise."""
    for name in names:
        value = row.get(name)
        why = control_problem(value) if isinstance(value, str) else None
        if why is not None:
            raise field_refusal(f"{path}.{name}", RULE_PRINTABLE, why, line)


def seated_names(table: dict[str, Any]) -> list[str]:
    """The names seated at an archive's table, East first (its seats, already checked)."""
    return [seat["player"] for seat in sorted(table.get("seats") or [], key=lambda seat: int(seat["wind"]))]


def check_sheet(sheet: dict[str, Any], ruleset: Ruleset, names: list[str], path: str) -> None:
    """An archive's score sheet as the sheet editor takes it: its entry read and replayed by the rules
    engine under the tournament's rules (every refusal the editor gives, with its hand; a draft, which
    counts for nothing, is stored as it is), a sheet sent or signed a whole hanchan, and a signed
    sheet's results the final points its entry makes. (Its uma and scores are not compared: the
    tournament's uma may have changed after the signing, and the standings keep what was signed, as the
    product does.)"""
    if len(names) != 4:
        raise field_refusal(
            f"{path}.entry", "four-seats", f"its table has {len(names)} players seated, not 4"
        )
    if sheet.get("status") == "draft":
        return  # a draft counts for nothing and may hold problems, as the editor keeps them
    verdict = check_entry_of(sheet.get("entry"), ruleset, names)
    if not verdict.valid:
        error = verdict.errors[0]
        field = error.field or ("hands" if error.hand is not None else "entry")
        where = f"{path}.entry.{field}" if field != "entry" else f"{path}.entry"
        refusal = field_refusal(where, error.rule, error.message)
        refusal.problems = (dataclasses.replace(refusal.problems[0], hand=error.hand),)
        raise refusal
    entry = sheet["entry"]
    if (
        sheet.get("status") != "draft"
        and verdict.finished is False
        and entry.get("ended_by_time") is not True
    ):
        raise field_refusal(
            f"{path}.entry.hands",
            "end-of-game (WRCR 2015 §5.9.1)",
            "the hanchan is not over and not ended by time",
        )
    results = sheet.get("results") or []
    if not results:
        return
    final_points = dict(verdict.final_points or {})
    for index, result in enumerate(results):
        name, points = result.get("player"), result.get("points")
        if name not in final_points or final_points[name] != points:
            raise field_refusal(
                f"{path}.results.{index}.points",
                "results-match-the-entry",
                f"{name!r} has {points} points in the results, {final_points.get(name)} by the sheet's entry",
                index + 1,
            )
