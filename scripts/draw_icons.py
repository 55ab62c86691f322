"""Draw the web app's icons (static/icons/): a green table with a white tile and its red one-pin.

Run once after changing the drawing: ``.venv/bin/python scripts/draw_icons.py``. The PNGs are committed.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
GREEN = (22, 101, 52)
TILE = (250, 248, 240)
EDGE = (200, 196, 180)
RED = (200, 30, 45)
BLUE = (30, 64, 140)


def draw(size: int) -> Image.Image:
    image = Image.new("RGB", (size, size), GREEN)
    pen = ImageDraw.Draw(image)
    # The tile fills the "safe zone" of a maskable icon (the middle 80%).
    w, h = size * 0.42, size * 0.56
    left, top = (size - w) / 2, (size - h) / 2
    radius = size * 0.05
    pen.rounded_rectangle((left, top + size * 0.02, left + w, top + h + size * 0.02), radius, fill=EDGE)
    pen.rounded_rectangle((left, top, left + w, top + h), radius, fill=TILE)
    cx, cy, r = size / 2, size / 2, size * 0.15
    pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BLUE)
    r2 = r * 0.62
    pen.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), fill=RED)
    return image


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        draw(size).save(OUT / f"icon-{size}.png", optimize=True)
        print(OUT / f"icon-{size}.png")


if __name__ == "__main__":
    main()
