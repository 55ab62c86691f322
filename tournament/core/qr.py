"""QR codes of the product's addresses: inline SVG for pages, the dark modules for PDFs.

Encoded by segno (ISO/IEC 18004), error correction level M (15 % of the code may be smudged or folded
and it still reads), with the standard quiet zone of four modules. Plain Python: no Django.
"""

from __future__ import annotations

from collections.abc import Iterator

import segno

ERROR_LEVEL = "m"
QUIET_ZONE = 4  # modules of white border the standard asks for
MAX_LENGTH = 1_000  # an address longer than this is not one of ours


def _code(text: str) -> segno.QRCode:
    if not text or len(text) > MAX_LENGTH:
        raise ValueError(f"a QR code encodes 1 to {MAX_LENGTH} characters, not {len(text)}")
    return segno.make(text, error=ERROR_LEVEL, micro=False)


def svg(text: str, *, title: str = "", css_class: str = "qr") -> str:
    """An inline ``<svg>`` (no XML declaration, no fixed size: CSS sizes it) encoding ``text``.

    ``title`` is the code's accessible name, escaped by segno; the markup holds no script or style, so it
    is safe to place in a page under the site's content security policy."""
    return _code(text).svg_inline(
        scale=1, border=QUIET_ZONE, omitsize=True, title=title or None, svgclass=css_class, lineclass=None
    )


def size(text: str) -> int:
    """The number of modules on a side, quiet zone included."""
    return int(_code(text).symbol_size(scale=1, border=QUIET_ZONE)[0])  # an integer at scale 1


def dark_runs(text: str) -> Iterator[tuple[int, int, int]]:
    """(row, first column, length) of each horizontal run of dark modules, quiet zone included in the
    coordinates (row 0 is the top): what a PDF draws as rectangles."""
    for row, line in enumerate(_code(text).matrix, QUIET_ZONE):
        start = None
        for column, dark in enumerate([*line, 0]):
            if dark and start is None:
                start = column
            elif not dark and start is not None:
                yield row, QUIET_ZONE + start, column - start
                start = None
