"""The laboratory stands apart from the product: it imports the generator's pure modules, never the
reverse (tests/project/test_architecture.py), and python-sat only where a SAT method runs."""

from __future__ import annotations

from pathlib import Path

import seatinglab
from tests.seating.helpers import imports

LAB = Path(seatinglab.__file__).resolve().parent


def test_the_laboratory_imports_of_the_project_only_the_pure_seating_package() -> None:
    for path in LAB.glob("*.py"):
        for name, _ in imports(path):
            top = name.split(".")[0]
            if top in {"tournament", "scoring", "penalties", "exports", "config"}:
                assert name.startswith("tournament.seating."), (path.name, name)


def test_imports_sit_at_the_top_except_the_optional_sat_solver() -> None:
    for path in LAB.glob("*.py"):
        for name, in_function in imports(path):
            if in_function:
                assert path.name == "satfind.py" and name.startswith("pysat."), (path.name, name)


def test_python_sat_is_only_used_by_the_sat_finder() -> None:
    users = {path.name for path in LAB.glob("*.py") for name, _ in imports(path) if name.startswith("pysat")}
    assert users == {"satfind.py"}
