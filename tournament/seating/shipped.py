"""The schedules shipped as data (``data/cyclic.json``, ``data/tables.json``, ``data/exact.json``),
found offline by the seating laboratory (``python -m seatinglab``, each entry with the command that found
it), read once per process: :func:`shipped_schedule` (cyclic hanchan, the groups only),
:func:`shipped_tables` (whole schedules with their table numbers) and :func:`shipped_exact` (used as
found).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from typing import Any

Groups = list[list[int]]


def data_path(name: str = "cyclic.json") -> Any:
    """A shipped data file of this package: ``data/cyclic.json``, ``data/tables.json`` or
    ``data/exact.json``."""
    return resources.files(__package__).joinpath(f"data/{name}")


def load_data(name: str = "cyclic.json") -> dict[str, Any]:
    """The entries of a shipped data file, empty when it is missing."""
    try:
        text = data_path(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    data: dict[str, Any] = json.loads(text)
    return data


_DATA: dict[str, Any] | None = None
_TABLES: dict[str, Any] | None = None
_EXACT: dict[str, Any] | None = None


def shipped_schedule(n: int, rounds: int) -> tuple[str, list[Groups]] | None:
    """Repeat-free hanchan found offline for ``n`` players (players ``0..n-1``): the entry for exactly
    ``n`` x ``rounds`` (key ``"NxR"``) if one is shipped, else the entry for ``n`` players (key ``"N"``)
    if it has at least ``rounds`` hanchan. A size of its own lets fewer hanchan than the longest
    design differ from that design's first hanchan."""
    global _DATA
    if _DATA is None:
        _DATA = load_data()
    entry = _DATA.get(f"{n}x{rounds}")
    if entry is None:
        entry = _DATA.get(str(n))
        if entry is None or len(entry["rounds"]) < rounds:
            return None
    return str(entry["method"]), [[list(g) for g in hanchan] for hanchan in entry["rounds"]]


def _tables_data() -> dict[str, Any]:
    global _TABLES
    if _TABLES is None:
        _TABLES = load_data("tables.json")
    return _TABLES


def _exact_data() -> dict[str, Any]:
    global _EXACT
    if _EXACT is None:
        _EXACT = load_data("exact.json")
    return _EXACT


def shipped_tables(n: int, rounds: int) -> list[Groups] | None:
    """A whole schedule found offline for exactly ``n`` players and ``rounds`` hanchan, table numbers
    included (each hanchan lists its tables in table-number order), if one is shipped: the entry of
    ``data/tables.json``, else the one of ``data/exact.json`` (a start for the searches where the exact
    entry cannot be used as found, under a separation rule)."""
    entry = _tables_data().get(f"{n}x{rounds}") or _exact_data().get(f"{n}x{rounds}")
    if entry is None:
        return None
    return [[list(g) for g in hanchan] for hanchan in entry["rounds"]]


def shipped_exact(n: int, rounds: int) -> list[Groups] | None:
    """A whole schedule for exactly ``n`` x ``rounds`` that is used as found (``data/exact.json``): it
    trades table repeats for common opponents where the generator's own order would not (see
    ``seatinglab.anneal``), so no search may move its groups or table numbers."""
    entry = _exact_data().get(f"{n}x{rounds}")
    if entry is None:
        return None
    return [[list(g) for g in hanchan] for hanchan in entry["rounds"]]


@contextmanager
def without_exact_entry(n: int, rounds: int) -> Iterator[None]:
    """Within the block, ``data/exact.json`` reads as if it had no entry for ``n`` x ``rounds``: the
    offline finders start from the generator's own schedule, so that a shipped command finds again
    what it found, whatever was shipped for that size since."""
    global _EXACT
    saved = _exact_data()
    _EXACT = {key: entry for key, entry in saved.items() if key != f"{n}x{rounds}"}
    try:
        yield
    finally:
        _EXACT = saved
