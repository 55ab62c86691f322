"""The handbooks (docs/handbook/): every picture a step shows is in the repository, none is left over,
every page they link to exists, and each handbook's steps are numbered in order. The pictures come from
the browser tests (`make handbook`, scripts/handbook_images.py)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HANDBOOK = ROOT / "docs" / "handbook"
PICTURE = re.compile(r"!\[([^\]]*)\]\(img/([^)]+)\)")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)#]+)\)")
ROLES = ["organiser.md", "head-referee.md", "referee.md", "player.md"]


def test_every_role_has_a_handbook_linked_from_the_index_and_the_readme() -> None:
    index = (HANDBOOK / "README.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for role in ROLES:
        assert (HANDBOOK / role).is_file(), role
        assert f"({role})" in index, role
        assert f"(docs/handbook/{role})" in readme, role


def test_every_picture_is_committed_described_and_none_is_left_over() -> None:
    named = set()
    for page in HANDBOOK.glob("*.md"):
        for alt, path in PICTURE.findall(page.read_text(encoding="utf-8")):
            assert alt.strip(), f"{page.name}: img/{path} has no description"
            assert path.endswith(".png"), f"{page.name}: img/{path}"
            assert (HANDBOOK / "img" / path).is_file(), f"{page.name}: img/{path} is missing: make handbook"
            named.add(path)
    stored = {str(p.relative_to(HANDBOOK / "img")) for p in (HANDBOOK / "img").rglob("*.png")}
    assert stored - named == set(), "pictures no handbook shows: make handbook removes them"
    assert len(named) >= 20


def test_every_link_of_the_handbooks_leads_to_a_file_of_the_repository() -> None:
    for page in HANDBOOK.glob("*.md"):
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://")):
                continue
            assert (page.parent / target).resolve().is_file(), f"{page.name}: {target}"


def test_the_steps_of_each_handbook_are_numbered_in_order() -> None:
    for role in ROLES:
        numbers = [int(n) for n in re.findall(r"^## (\d+)\. ", (HANDBOOK / role).read_text(), re.M)]
        assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 4, (role, numbers)
