"""An archive's rows read back and written: each row's values checked as its model field checks them
(``checks.checked_value``, dates read from ISO 8601), a list of rows refused when it is not one, the rows
created in bulk (with COPY on PostgreSQL, keys from the table's sequence), and the times the archive
gives kept as they are. ``load`` (a tournament) and ``series`` (a series) read their archives with them.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, models

from exports.archive.checks import checked_value, field_refusal
from exports.archive.fields import ADDED_FIELDS, BATCH


def _parse_datetime(value: str) -> datetime:
    return datetime.fromisoformat(value)


def _parse_date(value: str) -> date:
    return date.fromisoformat(value)


def parser_of(field: models.Field[Any, Any]) -> Any:
    """How the archive's text of a field becomes a value the model field checks (None: as it is; a
    decimal's string the field reads itself)."""
    if isinstance(field, models.DateTimeField):
        return _parse_datetime
    if isinstance(field, models.DateField):
        return _parse_date
    return None


@cache
def parsers(
    model: type[models.Model], fields: tuple[str, ...]
) -> tuple[tuple[str, Any, models.Field[Any, Any]], ...]:
    return tuple(
        (name, parser_of(field), field) for name in fields for field in [model._meta.get_field(name)]
    )


def loaded(
    model: type[models.Model],
    data: Any,
    fields: tuple[str, ...],
    path: str,
    line: int | None = None,
) -> dict[str, Any]:
    """The model's values of an archive's row (``path``: where it is in the archive; ``line``: its place
    in its list), each checked as its model field checks it (``checks.checked_value``)."""
    if not isinstance(data, dict):
        raise field_refusal(path, "archive-row", "not an object", line)
    values = {}
    for name, parse, field in parsers(model, fields):
        where = f"{path}.{name}"
        if name in ADDED_FIELDS:
            value = data.get(name, ADDED_FIELDS[name])
        elif name in data:
            value = data[name]
        else:
            raise field_refusal(where, "required", "missing", line)
        if parse is not None and value is not None:
            try:
                value = parse(value)
            except (TypeError, ValueError):
                raise field_refusal(
                    where, "invalid", f"{str(value)[:40]!r} is not an ISO 8601 date", line
                ) from None
        values[name] = checked_value(field, value, where, line)
    return values


def rows_of(archive: dict[str, Any], key: str, *, default: list[Any] | None = None) -> list[Any]:
    """The archive's list ``key`` (``default`` for a list an older archive may not have)."""
    value = archive.get(key, default) if default is not None else archive[key]
    if not isinstance(value, list):
        raise field_refusal(key, "archive-row", "not a list")
    return value


_timestamps_lock = threading.Lock()


@contextmanager
def timestamps_as_given(*model_classes: type[models.Model]) -> Iterator[None]:
    """Within the block, ``auto_now`` and ``auto_now_add`` fields keep the values they are given.

    The archive restores the times things happened; Django would otherwise stamp them with the time of the
    import. The switch is process-wide, so imports in one process take turns.
    """
    switched = [
        (field, field.auto_now, field.auto_now_add)
        for model in model_classes
        for field in model._meta.concrete_fields
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
    ]
    with _timestamps_lock:
        for field, _, _ in switched:
            field.auto_now = field.auto_now_add = False
        try:
            yield
        finally:
            for field, auto_now, auto_now_add in switched:
                field.auto_now, field.auto_now_add = auto_now, auto_now_add


def insert(model: type[models.Model], rows: list[dict[str, Any]]) -> list[int]:
    """Create rows (field attname -> value, every row the same fields), in order; their new primary keys.

    On PostgreSQL the keys come from the table's sequence and the rows go in with COPY (about five times
    faster than ``bulk_create``, whose array parameters are slow to build for JSON); elsewhere with
    ``bulk_create``.
    """
    if not rows:
        return []
    if connection.vendor == "postgresql" and COPY_ON_POSTGRESQL:
        return _copy(model, rows)
    created = model._default_manager.bulk_create([model(**row) for row in rows], batch_size=BATCH)
    return [obj.pk for obj in created]


def _copy(model: type[models.Model], rows: list[dict[str, Any]]) -> list[int]:
    meta = model._meta
    names = list(rows[0])
    fields = [meta.get_field(name) for name in names]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(column) for column in [meta.pk.column, *(f.column for f in fields)])
    # The COPY goes through the driver's own cursor: its errors are turned into Django's, as every query's.
    with connection.cursor() as cursor, connection.wrap_database_errors:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [meta.db_table, meta.pk.column, len(rows)],
        )
        ids = [row[0] for row in cursor.fetchall()]
        prepare = [(name, copy_value(field)) for name, field in zip(names, fields, strict=True)]
        with cursor.cursor.copy(f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN") as copy:
            for pk, row in zip(ids, rows, strict=True):
                copy.write_row(
                    [pk, *(row[name] if prep is None else prep(row[name]) for name, prep in prepare)]
                )
    return ids


# Fields whose Python values COPY takes as they are (psycopg adapts them).
PLAIN_FIELDS = (
    models.IntegerField,
    models.FloatField,
    models.DecimalField,
    models.CharField,
    models.TextField,
    models.BooleanField,
    models.DateField,  # DateTimeField too
    models.ForeignKey,
)


def copy_value(field: Any) -> Any:
    """How a field's value goes into COPY: None when as it is, else a function of the value."""
    if isinstance(field, models.JSONField):
        return lambda value: None if value is None else json.dumps(value, cls=field.encoder)
    if isinstance(field, PLAIN_FIELDS):
        return None
    real = connections[DEFAULT_DB_ALIAS]
    return lambda value: field.get_db_prep_save(value, real)


# Whether imports into PostgreSQL use COPY (tests turn it off to check the portable path there too).
COPY_ON_POSTGRESQL = True
