"""Read QR codes back from images with zbar's ``zbarimg`` (Debian's zbar-tools, installed by
``scripts/ensure-services.sh``): an independent decoder, so a test checks what a phone would read."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from tournament.core import qr

SCALE = 6  # pixels per module


def read_codes(image: Path) -> list[str]:
    """Every QR code's text in the image, as zbarimg decodes it."""
    zbarimg = shutil.which("zbarimg")
    if zbarimg is None:
        pytest.fail("zbarimg is missing: run the suite with `make test` (it installs zbar-tools)")
    done = subprocess.run(
        [zbarimg, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(image)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    return [line for line in done.stdout.splitlines() if line]


def render_runs(text: str, path: Path) -> Path:
    """The code of ``text`` drawn from ``qr.dark_runs`` (what the PDFs draw), as a PNG."""
    side = qr.size(text) * SCALE
    image = Image.new("L", (side, side), 255)
    pen = ImageDraw.Draw(image)
    for row, column, length in qr.dark_runs(text):
        pen.rectangle(
            [column * SCALE, row * SCALE, (column + length) * SCALE - 1, (row + 1) * SCALE - 1], fill=0
        )
    image.save(path)
    return path
