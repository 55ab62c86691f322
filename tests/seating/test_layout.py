"""The generator reads the seating laboratory's results as data (data/*.json): it imports neither the
laboratory (``seatinglab``, kept out of the whole product by tests/project/test_architecture.py) nor the
laboratory's SAT solver, and every import sits at the top of its module."""

from __future__ import annotations

from pathlib import Path

import tournament.seating

from .helpers import imports

PACKAGE = Path(tournament.seating.__file__).resolve().parent


def test_the_generator_imports_neither_the_laboratory_nor_its_sat_solver() -> None:
    for path in PACKAGE.rglob("*.py"):
        for name, _ in imports(path):
            assert name.split(".")[0] not in {"seatinglab", "pysat"}, (path.name, name)


def test_the_generator_imports_sit_at_the_top() -> None:
    for path in PACKAGE.rglob("*.py"):
        assert [name for name, in_function in imports(path) if in_function] == [], path.name


def test_no_module_of_the_generator_holds_over_600_lines() -> None:
    """A module says what it holds: one concern each, split when one grows past 600 lines."""
    lengths = {path.name: len(path.read_text().splitlines()) for path in PACKAGE.rglob("*.py")}
    assert len(lengths) > 10
    assert {name: n for name, n in lengths.items() if n > 600} == {}
