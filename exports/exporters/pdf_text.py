"""The text of the printable PDFs (``printable``): fonts, one family a document, and names fitted to
their cells.

Fonts (docs/languages.md): Helvetica for a document whose every text Windows-1252 can write (most
European names); a document with any other text in it is printed in DejaVu Sans throughout (Debian's
fonts-dejavu-core: accented Latin, Cyrillic, Greek; regular and bold), so that a page never mixes two
Latin typefaces. For the characters DejaVu lacks, one CJK font for the whole text: Nanum Gothic (Debian's
fonts-nanum, Korean glyph forms) for a text with Hangul in it; otherwise IPA Gothic (Debian's
fonts-ipafont-gothic, Japanese glyph forms, kanji and kana) when it has every CJK character of the text,
else WenQuanYi Micro Hei (fonts-wqy-microhei, simplified Chinese), else Nanum Gothic. All three are
TrueType outlines, which reportlab embeds (subset); Noto Sans CJK (fonts-noto-cjk) is CFF-flavoured
OpenType, which reportlab's TTFont cannot read. scripts/ensure-packages.sh installs the four; a font that
is missing leaves its characters as boxes and the rest prints.

Names (``fit_name``): never below NAME_MIN_SIZE points. A name too long for its cell first wraps onto a
second line (between words, or after a hyphen), then shrinks, and only at the smallest size is it cut
with an ellipsis; it never runs over its cell.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from tournament.core.names import HANGUL, scripts_of

# (name registered with reportlab, the candidate files, the subfont of a TrueType collection)
UNICODE_FONTS = (
    (
        "DejaVuSans",
        (
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/TTF/DejaVuSans.ttf",
            "/usr/local/share/fonts/DejaVuSans.ttf",
        ),
        0,
    ),
    (
        "DejaVuSans-Bold",
        (
            "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
            "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
            "/usr/local/share/fonts/DejaVuSans-Bold.ttf",
        ),
        0,
    ),
    ("IPAGothic", ("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",), 0),
    ("WenQuanYiMicroHei", ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",), 0),
    ("NanumGothic", ("/usr/share/fonts/truetype/nanum/NanumGothic.ttf",), 0),
)
CJK_FONTS = ("IPAGothic", "WenQuanYiMicroHei", "NanumGothic")  # in the order tried (the module's docstring)
KOREAN_FONT = (
    "NanumGothic"  # tried first for a text with Hangul in it (WenQuanYi has Hangul, in Chinese style)
)
NAME_MIN_SIZE = 8.0  # points: a printed name is never smaller
LEADING = 1.2  # a wrapped text's line spacing, in multiples of its size (DejaVu Sans' height is 1.17)
ELLIPSIS = "\u2026"
CAP_HEIGHT = 0.73  # of the size: Helvetica's and DejaVu Sans' capitals

# Whether the document being drawn is in DejaVu throughout (document_fonts), and the texts drawn in it
# that needed DejaVu while it was not.
unicode_document: ContextVar[bool] = ContextVar("unicode_document", default=False)
beyond_cp1252: ContextVar[list[str] | None] = ContextVar("beyond_cp1252", default=None)


@cache
def registered_font(name: str) -> frozenset[int] | None:
    """Register the font ``name`` (of UNICODE_FONTS) with reportlab once; the code points it has, or
    None when it is not installed."""
    for font, paths, subfont in UNICODE_FONTS:
        if font != name:
            continue
        for path in paths:
            if Path(path).is_file():
                ttf = TTFont(font, path, subfontIndex=subfont)
                pdfmetrics.registerFont(ttf)
                return frozenset(ttf.face.charToGlyph)
    return None


def unicode_font(bold: bool = False) -> str | None:
    """The name of the registered font for text beyond Windows-1252, or None when none is installed."""
    name = "DejaVuSans-Bold" if bold else "DejaVuSans"
    if registered_font(name) is not None:
        return name
    return "DejaVuSans" if bold and registered_font("DejaVuSans") is not None else None


def cjk_font(text: str) -> str | None:
    """The CJK font for the characters of ``text`` that DejaVu Sans lacks: the first installed one of
    CJK_FONTS (KOREAN_FONT first when the text has Hangul) that has all of them (else the first installed
    one)."""
    latin = registered_font("DejaVuSans") or frozenset()
    wanted = {ord(c) for c in text if ord(c) not in latin and not c.isspace()}
    order = CJK_FONTS
    if HANGUL in scripts_of(text):
        order = (KOREAN_FONT, *(font for font in CJK_FONTS if font != KOREAN_FONT))
    installed = [(font, registered_font(font)) for font in order]
    installed = [(font, points) for font, points in installed if points is not None]
    for font, points in installed:
        if points is not None and wanted <= points:
            return font
    return installed[0][0] if installed else None


def needs_unicode(text: str) -> bool:
    """Whether ``text`` has a character Windows-1252 (and so Helvetica) cannot write."""
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return True
    return False


def font_runs(text: str, bold: bool = False) -> list[tuple[str, str]]:
    """``text`` as (font, part) runs, each part printable in its font, in one font whenever one has
    every character (a name never changes font mid-word: "Satō", "Sato 佐藤"): Helvetica for what
    Windows-1252 writes (unless the document is in DejaVu throughout), else DejaVu Sans, else the text's
    CJK font (which has Latin and Cyrillic letters too); only a text no single font covers is split,
    DejaVu Sans where it has the character and the CJK font where it does not (spaces stay with the run
    they are in)."""
    helvetica = "Helvetica-Bold" if bold else "Helvetica"
    if needs_unicode(text):
        seen = beyond_cp1252.get()
        if seen is not None:
            seen.append(text)
    elif not unicode_document.get():
        return [(helvetica, text)]
    base = unicode_font(bold)
    if base is None:
        return [(helvetica, text)]
    has = registered_font(base) or frozenset()
    wanted = {ord(c) for c in text if not c.isspace()}
    if wanted <= has:
        return [(base, text)]
    cjk = cjk_font(text)
    if cjk is not None and wanted <= (registered_font(cjk) or frozenset()):
        return [(cjk, text)]
    runs: list[tuple[str, str]] = []
    for character in text:
        font = base if ord(character) in has or cjk is None or character.isspace() else cjk
        if runs and (runs[-1][0] == font or character.isspace()):
            runs[-1] = (runs[-1][0], runs[-1][1] + character)
        else:
            runs.append((font, character))
    return runs


def font_for(text: str, bold: bool = False) -> str:
    """The font of the first run of ``text`` (font_runs)."""
    return font_runs(text, bold)[0][0] if text else font_runs(" ", bold)[0][0]


@contextmanager
def document_fonts(unicode: bool) -> Iterator[list[str]]:
    """Draw a document in DejaVu throughout (``unicode``) or in Helvetica; yields the texts drawn that
    Helvetica could not write (a document drawn in Helvetica with any is to be drawn again in DejaVu)."""
    seen: list[str] = []
    document = unicode_document.set(unicode and unicode_font() is not None)
    texts = beyond_cp1252.set(seen)
    try:
        yield seen
    finally:
        beyond_cp1252.reset(texts)
        unicode_document.reset(document)


def one_family(build: Callable[[], bytes], texts: Iterable[str]) -> bytes:
    """The bytes of a PDF that ``build`` draws, in one font family: DejaVu when any of ``texts`` (the
    document's data and words, as far as known beforehand) or any text drawn needs it, else Helvetica."""
    unicode = any(needs_unicode(str(text)) for text in texts)
    with document_fonts(unicode) as seen:
        data = build()
    if unicode or not seen or unicode_font() is None:
        return data
    with document_fonts(True):
        return build()


def text_width(text: str, size: float, bold: bool = False) -> float:
    return sum(pdfmetrics.stringWidth(part, font, size) for font, part in font_runs(str(text), bold))


def draw(
    canvas: Canvas,
    x: float,
    y: float,
    text: str,
    size: float = 10,
    *,
    bold: bool = False,
    align: str = "left",
    max_width: float | None = None,
) -> None:
    """Text at (x, y), each run in a font that has its characters (font_runs), shrunk to ``max_width``
    when it is too long. ``text`` may be a lazy translation: it is read in the active language."""
    runs = font_runs(str(text), bold)
    width = sum(pdfmetrics.stringWidth(part, font, size) for font, part in runs)
    if max_width is not None and width > max_width:
        size = max(5.0, size * max_width / width)
        width = sum(pdfmetrics.stringWidth(part, font, size) for font, part in runs)
    if align == "center":
        x -= width / 2
    elif align == "right":
        x -= width
    for font, part in runs:
        canvas.setFont(font, size)
        canvas.drawString(x, y, part)
        x += pdfmetrics.stringWidth(part, font, size)


def two_lines(text: str, size: float, width: float) -> list[str]:
    """``text`` on one line if it fits in ``width``, else broken in two at the space nearest its middle
    (a translation may be longer than the English)."""
    if text_width(text, size) <= width or " " not in text.strip():
        return [text]
    middle = len(text) // 2
    spaces = [index for index, character in enumerate(text) if character == " "]
    cut = min(spaces, key=lambda index: abs(index - middle))
    return [text[:cut], text[cut + 1 :]]


def breaks(text: str) -> list[int]:
    """Where ``text`` may break between lines: after a space (dropped) or after a hyphen (kept)."""
    last = len(text) - 1
    return [index + 1 for index, character in enumerate(text) if character in " -" and 0 < index < last]


def split_at(text: str, cut: int) -> tuple[str, str]:
    return text[:cut].rstrip(), text[cut:].lstrip()


def cut_to(text: str, size: float, width: float, bold: bool) -> str:
    """``text`` cut with an ellipsis to fit ``width``."""
    if text_width(text, size, bold) <= width:
        return text
    for end in range(len(text) - 1, 0, -1):
        shortened = text[:end].rstrip() + ELLIPSIS
        if text_width(shortened, size, bold) <= width:
            return shortened
    return ELLIPSIS


def fit_name(
    text: str,
    size: float,
    width: float,
    *,
    bold: bool = False,
    lines: int = 2,
    smallest: float = NAME_MIN_SIZE,
) -> tuple[float, list[str]]:
    """The size and lines that print the name ``text`` within ``width`` points: on one line at ``size``
    if it fits, else on two (at most ``lines``) broken where ``breaks`` allows, so that the longer line is
    as short as it can be; else the same at a smaller size, half a point at a time down to ``smallest``
    (NAME_MIN_SIZE for a name); at that size, whatever still does not fit is cut with an ellipsis."""
    text = " ".join(str(text).split())
    smallest = min(size, smallest)
    current = size
    while current >= smallest:
        if text_width(text, current, bold) <= width:
            return current, [text]
        if lines > 1 and breaks(text):
            best = min(
                (split_at(text, cut) for cut in breaks(text)),
                key=lambda pair: max(text_width(part, current, bold) for part in pair),
            )
            if max(text_width(part, current, bold) for part in best) <= width:
                return current, list(best)
        current -= 0.5
    if lines == 1 or not breaks(text):
        return smallest, [cut_to(text, smallest, width, bold)]
    first = ""
    for cut in breaks(text):
        head, _rest = split_at(text, cut)
        if text_width(head, smallest, bold) <= width:
            first = head
    if not first:
        return smallest, [cut_to(text, smallest, width, bold)]
    rest = text[len(first) :].lstrip(" ")
    return smallest, [first, cut_to(rest, smallest, width, bold)]


def fit_name_weighted(text: str, size: float, width: float, *, bold: bool) -> tuple[float, list[str], bool]:
    """``fit_name``, and where a bold name would still be cut at the smallest size, the name in the
    regular weight when that prints more of it (a long single word: "Константинопольская"); the size,
    the lines and whether they are bold."""
    fitted, lines = fit_name(text, size, width, bold=bold)
    if not bold or not any(line.endswith(ELLIPSIS) for line in lines):
        return fitted, lines, bold
    regular_size, regular = fit_name(text, size, width, bold=False)
    if sum(len(line.rstrip(ELLIPSIS)) for line in regular) > sum(
        len(line.rstrip(ELLIPSIS)) for line in lines
    ):
        return regular_size, regular, False
    return fitted, lines, bold


def draw_lines(
    canvas: Canvas, x: float, top: float, size: float, lines: list[str], *, bold: bool = False
) -> float:
    """``lines`` (of fit_name) at ``size``, the first one's cap height at ``top``, each next one LEADING
    sizes below; the baseline of the last."""
    y = top
    for line, text in enumerate(lines):
        y = top - CAP_HEIGHT * size - line * LEADING * size
        draw(canvas, x, y, text, size, bold=bold)
    return y


def block_height(size: float, lines: int) -> float:
    """From the cap height of the first of ``lines`` lines to the baseline of the last."""
    return CAP_HEIGHT * size + (lines - 1) * LEADING * size


ADDRESS_SIZES = (8.0, 7.5, 7.0)  # points: the sign-in address prints at 8, shrinks to 7 at the least


def address_breaks(address: str) -> list[str]:
    """``address`` in the pieces a printed line may break between, as the Chicago Manual of Style breaks
    a URL: before a slash, a dot or a hyphen (which then starts the next line and cannot be read as the
    sentence's punctuation or a hyphenation), never inside "://" nor before the closing slash."""
    pieces = [""]
    for index, character in enumerate(address):
        before = address[index - 1] if index else ""
        last = index == len(address) - 1
        if pieces[-1] and character in "/.-" and before not in "/:" and not last:
            pieces.append("")
        pieces[-1] += character
    return pieces


def wrap_address(address: str, width: float, fits: int) -> tuple[float, list[str]]:
    """The font size and lines that print ``address`` within ``width`` points: the largest of
    ADDRESS_SIZES that needs no more than ``fits`` lines, else the smallest in as many lines as it takes;
    lines break where ``address_breaks`` allows, a piece too long for a line by itself between characters.
    Never wider than ``width``: the address is typed from the card, so it wraps rather than shrinks away."""
    font = font_for(address)
    lines: list[str] = []
    for size in ADDRESS_SIZES:
        lines = [""]
        for piece in address_breaks(address):
            for character in piece if pdfmetrics.stringWidth(piece, font, size) > width else [piece]:
                if lines[-1] and pdfmetrics.stringWidth(lines[-1] + character, font, size) > width:
                    lines.append("")
                lines[-1] += character
        if len(lines) <= fits:
            return size, lines
    return ADDRESS_SIZES[-1], lines
