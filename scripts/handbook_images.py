"""Copy the screenshots the handbooks show from the browser tests' artifacts into docs/handbook/img/.

`make handbook` runs the browser tests (which save their screenshots under tests/artifacts/) and then this
script. Every picture a handbook names (`![...](img/<path>.png)`) must be one the tests took: a missing one
fails the run, naming the handbook and the picture, so a handbook never shows a page the tests no longer
reach. Pictures no handbook names any more are removed. Each is stored with a palette of 256 colours,
which keeps text sharp at a third of the size.

Given pictures (`scripts/handbook_images.py screenshots/signup-form.png ...`, paths under img/), it copies
only those, each of which a handbook must name, and leaves the others as committed: after running only the
browser test that takes them, rather than every browser test.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
HANDBOOK = ROOT / "docs" / "handbook"
ARTIFACTS = ROOT / "tests" / "artifacts"
PICTURE = re.compile(r"!\[[^\]]*\]\(img/([^)]+\.png)\)")


def pictures() -> dict[str, list[str]]:
    """Each picture the handbooks name, with the handbooks that name it."""
    named: dict[str, list[str]] = {}
    for page in sorted(HANDBOOK.glob("*.md")):
        for path in PICTURE.findall(page.read_text(encoding="utf-8")):
            named.setdefault(path, []).append(page.name)
    return named


def main(chosen: list[str]) -> int:
    named = pictures()
    unnamed = [path for path in chosen if path not in named]
    if unnamed:
        print("no handbook shows these pictures:", *unnamed, sep="\n  ", file=sys.stderr)
        return 1
    copied = chosen or list(named)
    missing = [f"{', '.join(named[path])}: img/{path}" for path in copied if not (ARTIFACTS / path).exists()]
    if missing:
        print(
            "no browser test took these pictures (tests/artifacts/):", *missing, sep="\n  ", file=sys.stderr
        )
        return 1
    for path in copied:
        target = HANDBOOK / "img" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        with Image.open(ARTIFACTS / path) as picture:
            picture.convert("RGB").quantize(256).save(target, optimize=True)
    kept = {HANDBOOK / "img" / path for path in named}
    for old in (HANDBOOK / "img").rglob("*.png"):
        if old not in kept:
            old.unlink()
    print(f"{len(copied)} of {len(named)} pictures copied into {HANDBOOK.relative_to(ROOT)}/img/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
