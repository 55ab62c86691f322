"""No template shows a person text outside the translation machinery: every text node with a letter, and
every visible attribute (title, placeholder, aria-label, alt, a button's value), comes from
``{% translate %}``, ``{% blocktranslate %}`` or a variable (whose words the view translates)."""

from __future__ import annotations

import unicodedata
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType

TEMPLATES = Path(settings.BASE_DIR) / "templates"

# Every template of templates/ is checked, those added later too.
CHECKED = sorted(str(path.relative_to(TEMPLATES)) for path in TEMPLATES.rglob("*.html"))

VISIBLE_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt"}
# What stands in for a tag or a variable: no letter, so that it never reads as text.
HOLE = "\ufffc"


def has_letter(text: str) -> bool:
    return any(unicodedata.category(character).startswith("L") for character in text)


def masked(source: str) -> str:
    """The template as the browser would get it with every tag, variable and translated block replaced
    by a letterless placeholder, and comments removed: what remains is the template's literal text."""
    parts: list[str] = []
    skipping: str | None = None  # the end tag of a block whose text is not literal (translated, comment)
    for token in Lexer(source).tokenize():
        contents = token.contents.strip()
        if skipping is not None:
            if token.token_type == TokenType.BLOCK and contents == skipping:
                skipping = None
                parts.append(HOLE)
            continue
        if token.token_type == TokenType.TEXT:
            parts.append(token.contents)
        elif token.token_type == TokenType.BLOCK:
            name = contents.split()[0] if contents else ""
            if name in {"blocktranslate", "blocktrans"}:
                skipping = "end" + name
            elif name == "comment":
                skipping = "endcomment"
            parts.append(HOLE)
        elif token.token_type == TokenType.VAR:
            parts.append(HOLE)
    return "".join(parts)


class VisibleText(HTMLParser):
    """Collects the literal text a reader would see: text nodes (not in script or style) and visible
    attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.hidden_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"script", "style"}:
            self.hidden_depth += 1
        values = dict(attrs)
        for name, value in attrs:
            # A button input shows its value; a <button> shows its content and only sends its value.
            visible = name in VISIBLE_ATTRIBUTES or (
                name == "value" and tag == "input" and values.get("type") in {"submit", "button", "reset"}
            )
            if visible and value and has_letter(value):
                self.found.append(f'<{tag} {name}="{value}">')

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in {"script", "style"}:
            self.hidden_depth -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style"} and self.hidden_depth:
            self.hidden_depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden_depth and has_letter(data):
            self.found.append(" ".join(data.split()))


def untranslated(source: str) -> list[str]:
    """The literal text of a template's source that a reader would see untranslated."""
    parser = VisibleText()
    parser.feed(masked(source))
    parser.close()
    return [text.replace(HOLE, "…") for text in parser.found]


@pytest.mark.parametrize("name", CHECKED)
def test_the_template_shows_no_text_outside_the_translation_tags(name: str) -> None:
    assert untranslated((TEMPLATES / name).read_text()) == []


def test_every_template_is_checked() -> None:
    assert len(CHECKED) >= 43 and "scoring/sheet.html" in CHECKED and "tournament/manage.html" in CHECKED


def test_the_check_catches_bare_text_and_visible_attributes() -> None:
    assert untranslated("<p>Standings</p>") == ["Standings"]
    assert untranslated('<input type="search" placeholder="Search a name">') == [
        '<input placeholder="Search a name">'
    ]
    assert untranslated('<button type="button" aria-label="Close">\u00d7</button>') == [
        '<button aria-label="Close">'
    ]
    assert untranslated('<input type="submit" value="Save">') == ['<input value="Save">']
    assert untranslated("<h1>{{ tournament.name }} · projector</h1>") == ["… · projector"]
    assert untranslated('{% if x %}<span title="Rank {{ r }}">1</span>{% endif %}') == [
        '<span title="Rank …">'
    ]


def test_the_check_lets_translated_and_invisible_text_through() -> None:
    assert untranslated('<p>{% translate "Standings" %}</p>') == []
    assert (
        untranslated("<p>{% blocktranslate with n=x %}After hanchan {{ n }}{% endblocktranslate %}</p>") == []
    )
    assert untranslated('<a href="/t/x/" class="brand" data-name="Ana">{{ name }} · 12 \u2013 3</a>') == []
    assert (
        untranslated("<script>const label = 'not seen';</script><style>p::after{content:'x'}</style>") == []
    )
    assert untranslated("{# a note #}{% comment %}Not shown{% endcomment %}<b>☆</b>") == []
    assert untranslated('<input type="hidden" name="next" value="home">') == []
    assert untranslated('<button name="action" value="draft">{% translate "Save draft" %}</button>') == []
