"""The layers of docs/architecture.md, enforced: no import cycle between modules, no module importing a
module of a higher layer, no import hidden inside a function, pure packages that never load Django, and
nothing of the product importing the seating laboratory (``seatinglab``, the offline tools whose results
the product reads as data).

The import graph is read from the source (every ``import`` statement, wherever it stands), so it needs
no database and runs in a fraction of a second.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = ("tournament", "scoring", "penalties", "exports", "config")
# The seating laboratory: an offline tool package beside the product, which may import the pure seating
# package and which nothing of the product (APPS) may import, at the top of a module or inside a function.
LAB = "seatinglab"
PACKAGES = (*APPS, LAB)

# Lowest first. A module belongs to the first layer with a matching prefix; it may import modules of its
# own layer or of a lower one. ``*`` stands for any app.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "pure",
        (
            "scoring.rules",
            "tournament.core",
            "tournament.seating",
            "tournament.ratings",
            "exports.progress",
        ),
    ),
    ("models", ("*.models", "*.migrations", "*.apps")),
    ("queries", ("tournament.queries",)),
    (
        "services",
        (
            "penalties.services",
            "scoring.services",
            "scoring.tenhou_links",
            "tournament.services",
            "exports.services",
            "exports.exporters",
            "exports.archive",
        ),
    ),
    (
        "entry points",
        (
            "*.views",
            "*.api",
            "*.serializers",
            "*.forms",
            "*.widgets",
            "*.admin",
            "*.urls",
            "*.middleware",
            "*.management",
            "*.templatetags",
        ),
    ),
    ("site", ("config",)),
    ("laboratory", (LAB,)),
)
PURE_PACKAGES = LAYERS[0][1]
# The one import allowed inside a function: python-sat, an optional dependency of the offline finder.
LAZY_IMPORTS_ALLOWED = {"pysat"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            found[module_name(path)] = path
    return found


def matches(module: str, prefix: str) -> bool:
    if prefix.startswith("*."):
        _, _, rest = prefix.partition(".")
        parts = module.split(".")
        return len(parts) > 1 and (".".join(parts[1:]) == rest or ".".join(parts[1:]).startswith(rest + "."))
    return module == prefix or module.startswith(prefix + ".")


def layer_of(module: str) -> int:
    if module in APPS[:-1]:
        return 0  # an app's own package: an empty __init__
    # config and the laboratory by their package, whatever their modules are named (config/api.py is
    # the site's, not an entry point).
    for index, (_, prefixes) in enumerate(LAYERS):
        if prefixes in (("config",), (LAB,)) and matches(module, prefixes[0]):
            return index
    for index, (_, prefixes) in enumerate(LAYERS):
        if any(matches(module, prefix) for prefix in prefixes):
            return index
    raise AssertionError(f"{module} belongs to no layer: add it to LAYERS and docs/architecture.md")


def imports_of(module: str) -> Iterator[tuple[str, int, bool]]:
    """(imported module of the project, line, inside a function) for every import statement."""
    path = modules()[module]
    tree = ast.parse(path.read_text(), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    functions: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            functions.update(id(inner) for inner in ast.walk(node) if inner is not node)
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules() else base
                for alias in node.names
            ]
        for name in names:
            resolved = resolve(name)
            if resolved is not None and resolved != module:
                yield resolved, node.lineno, id(node) in functions
            elif resolved is None and name.split(".")[0] in LAZY_IMPORTS_ALLOWED | {"__future__"}:
                continue
            elif resolved is None and id(node) in functions and not name.startswith(PACKAGES):
                yield name, node.lineno, True


def resolve(name: str) -> str | None:
    """The project module an imported name refers to (a module, or the module defining the name)."""
    while name:
        if name in modules():
            return name
        name = name.rpartition(".")[0]
    return None


@cache
def graph() -> dict[str, set[str]]:
    return {
        module: {target for target, _, _ in imports_of(module) if target in modules()} for module in modules()
    }


def test_every_module_has_a_layer() -> None:
    for module in modules():
        layer_of(module)


def test_no_module_imports_a_module_of_a_higher_layer() -> None:
    upward = [
        f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} ({LAYERS[layer_of(target)][0]})"
        for module, targets in graph().items()
        for target in targets
        if layer_of(target) > layer_of(module)
    ]
    assert upward == []


def test_nothing_in_the_product_imports_the_seating_laboratory() -> None:
    """The laboratory's results ship as data (tournament/seating/data/); no module a request or a task
    could run imports the laboratory, however it imports it."""
    product = [module for module in modules() if not matches(module, LAB)]
    assert product and any(matches(module, LAB) for module in modules())
    reaching = [
        f"{module} imports {target}"
        for module in product
        for target in graph()[module]
        if matches(target, LAB)
    ]
    assert reaching == []


def test_no_import_cycle_between_modules() -> None:
    """Tarjan's strongly connected components: every component is a single module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in graph()[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            # A package's __init__ that gathers its own submodules is not a cycle of code.
            component = [m for m in component if not any(o.startswith(m + ".") for o in component)]
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph()):
        if module not in index:
            visit(module)
    assert cycles == []


def test_no_import_hidden_inside_a_function() -> None:
    hidden = [
        f"{modules()[module].relative_to(ROOT)}:{line} imports {target}"
        for module in modules()
        if ".migrations." not in module
        for target, line, inside in imports_of(module)
        if inside and target.split(".")[0] not in LAZY_IMPORTS_ALLOWED
    ]
    assert hidden == []


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_packages_never_load_django(package: str) -> None:
    """Imported alone with every module it holds, in a fresh interpreter, a pure package loads neither
    Django nor DRF nor Celery."""
    inside = sorted(m for m in modules() if matches(m, package) and not m.endswith("__main__"))
    code = (
        f"import sys, {', '.join(inside)}; "
        "loaded = sorted({m.split('.')[0] for m in sys.modules} & {'django', 'rest_framework', 'celery'}); "
        "print(','.join(loaded))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == ""


def test_the_tournament_apps_top_holds_only_djangos_own_modules_and_its_folders() -> None:
    top = {path.name for path in (ROOT / "tournament").iterdir() if path.suffix == ".py"}
    assert top == {"__init__.py", "apps.py", "admin.py", "urls.py", "middleware.py"}
    folders = {path.name for path in (ROOT / "tournament").iterdir() if (path / "__init__.py").exists()}
    assert folders == {
        "core",
        "seating",
        "ratings",
        "models",
        "queries",
        "services",
        "views",
        "api",
        "forms",
        "templatetags",
        "management",
        "migrations",
    }


# Modules over the size a reader takes in whole (600 lines), each to be split by concern: none left, and
# none may be added.
LONG_MODULES: set[str] = set()


def test_no_new_module_over_600_lines() -> None:
    long = {
        str(path.relative_to(ROOT))
        for path in modules().values()
        if "/migrations/" not in str(path) and len(path.read_text().splitlines()) > 600
    }
    assert long <= LONG_MODULES, sorted(long - LONG_MODULES)
