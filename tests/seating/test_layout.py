"""The generator stands apart from the offline finder: the dependency goes one way, finder -> generator."""

from __future__ import annotations

import ast
from pathlib import Path

import tournament.seating

PACKAGE = Path(tournament.seating.__file__).resolve().parent


def _imports(path: Path) -> list[tuple[str, bool]]:
    """Every module a file imports (relative ones resolved), and whether the import sits in a function."""
    module = ".".join(path.relative_to(PACKAGE.parent.parent).with_suffix("").parts)
    package = module.rsplit(".", 1)[0] if path.name != "__init__.py" else module.removesuffix(".__init__")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside = {
        id(node)
        for func in ast.walk(tree)
        if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(func)
    }
    out: list[tuple[str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, id(node) in inside) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base]) if base else ".".join(parts)
            names = [f"{base}.{alias.name}" for alias in node.names] if not node.module else [base]
            out += [(name, id(node) in inside) for name in names]
    return out


def test_the_generator_never_imports_the_finder() -> None:
    for path in PACKAGE.glob("*.py"):
        if path.name == "find.py":  # the finder's command line under its documented name
            continue
        for name, _ in _imports(path):
            assert not name.startswith("tournament.seating.finder"), (path.name, name)
            assert not name.startswith("pysat"), (path.name, name)


def test_imports_sit_at_the_top_except_the_optional_sat_solver() -> None:
    for path in [*PACKAGE.glob("*.py"), *PACKAGE.glob("finder/*.py")]:
        for name, in_function in _imports(path):
            if in_function:
                assert path.name == "satfind.py" and name.startswith("pysat."), (path.name, name)


def test_python_sat_is_only_used_by_the_sat_finder() -> None:
    users = {
        path.name for path in PACKAGE.rglob("*.py") for name, _ in _imports(path) if name.startswith("pysat")
    }
    assert users == {"satfind.py"}
