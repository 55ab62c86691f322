"""Creating a series and changing it: its name, address, rule (``tournament.core.series``) and tournaments."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournament.core.inputs import require_printable
from tournament.core.refusal import NOT_FOUND, Refusal
from tournament.core.series import MAX_POINTS, SeriesRule, rule_problem
from tournament.models import SERIES_FIELDS, Series, Tournament
from tournament.queries import access
from tournament.services.addresses import SERIES_PREFIX, reserved_slugs
from tournament.services.ratings import ratings_changed_on_commit

MAX_TOURNAMENTS = 200
MAX_POINT_VALUE = Decimal(1_000_000)


def _points(value: Any) -> list[str]:
    """The points table as exact decimal strings, first place first."""
    if not isinstance(value, list) or len(value) > MAX_POINTS:
        raise Refusal(
            "points", "series-points", _("points: a list of at most {most} numbers").format(most=MAX_POINTS)
        )
    points = []
    for index, item in enumerate(value, start=1):
        try:
            number = (
                Decimal(str(item)) if isinstance(item, int | str) and not isinstance(item, bool) else None
            )
        except InvalidOperation:
            number = None
        if number is None or not number.is_finite() or abs(number) > MAX_POINT_VALUE:
            message = _("points: the points of place {place} are not a number of at most a million").format(
                place=index
            )
            raise Refusal("points", "series-points", message)
        points.append(str(number))
    return points


def _tournaments(user: AbstractBaseUser, value: Any) -> list[Tournament]:
    """The tournaments named by id, each one the user may see (another is not found, as everywhere)."""
    if (
        not isinstance(value, list)
        or len(value) > MAX_TOURNAMENTS
        or not all(isinstance(item, int) and not isinstance(item, bool) for item in value)
    ):
        message = _("tournaments: a list of at most {most} tournament ids").format(most=MAX_TOURNAMENTS)
        raise Refusal("tournaments", "series-tournaments", message)
    found = {t.pk: t for t in access.visible_tournaments(user).filter(pk__in=value)}
    missing = [pk for pk in value if pk not in found]
    if missing:
        message = _("tournaments: no tournament {id}").format(id=missing[0])
        raise Refusal("tournaments", "series-tournaments", message, status=NOT_FOUND)
    return list(found.values())


def check_series(series: Series, fields: dict[str, Any]) -> None:
    """Set ``fields`` on ``series``, refused as the series' form and API refuse them: unknown fields, a
    name that is not printable, the points, a slug one of the series' pages uses (``/series/new/``),
    the rule and its parameter, then the model's own checks. The series archive's import reuses it."""
    unknown = sorted(set(fields) - set(SERIES_FIELDS))
    if unknown:
        raise Refusal(unknown[0], "series-fields", _("{field}: not a series field").format(field=unknown[0]))
    require_printable("name", fields.get("name"))
    if "points" in fields:
        fields["points"] = _points(fields["points"])
    for name, value in fields.items():
        setattr(series, name, value)
    if not series.slug and series.name:
        series.slug = slugify(series.name)[:80].strip("-") or "series"
    if series.slug in reserved_slugs(SERIES_PREFIX):
        message = _("slug: {slug} is the address of a page of the series; choose another").format(
            slug=series.slug
        )
        raise Refusal("slug", "series-slug", message)
    problem = rule_problem(
        SeriesRule(
            series.rule,  # type: ignore[arg-type]
            best_n=series.best_n,
            min_events=series.min_events,
            points=tuple(Decimal(p) for p in series.points),
        )
    )
    if problem is not None:
        raise Refusal(problem[0], "series-rule", f"{problem[0]}: {problem[1]}")
    series.full_clean()


@transaction.atomic
def create_series(user: AbstractBaseUser, tournaments: Any = (), **fields: Any) -> Series:
    """A new series of the given tournaments (ids), created by an organiser (``access``)."""
    access.require_edit_series(user, None)
    series = Series(created_by=user)
    check_series(series, fields)
    chosen = _tournaments(user, list(tournaments))
    series.save()
    series.tournaments.set(chosen)
    ratings_changed_on_commit()  # the series' rating list
    return series


@transaction.atomic
def update_series(series: Series, user: AbstractBaseUser, tournaments: Any = None, **fields: Any) -> Series:
    """Change a series' fields and, when given, its tournaments (by its creator or a site admin)."""
    access.require_edit_series(user, series)
    series = Series.objects.select_for_update().get(pk=series.pk)
    check_series(series, fields)
    series.save()
    if tournaments is not None:
        series.tournaments.set(_tournaments(user, list(tournaments)))
        ratings_changed_on_commit()  # the series' rating list counts other tournaments
    return series
