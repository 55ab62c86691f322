"""QR codes: what the product draws decodes, with an independent reader, to the address it was given."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template import Context, Template
from django.test import RequestFactory

from tests.qr_reader import read_codes, render_runs
from tournament.core import qr

ADDRESSES = [
    "http://127.0.0.1:8000/t/demo/standings/",
    "https://riichi.example.org/t/wrc-2027/players/1234/?x=1&y=2",
    "https://例え.jp/t/大会/",  # non-Latin text survives (byte mode, UTF-8)
]


@pytest.mark.parametrize("address", ADDRESSES)
def test_the_drawn_modules_decode_to_the_address(address: str, tmp_path: Path) -> None:
    assert read_codes(render_runs(address, tmp_path / "code.png")) == [address]


def test_the_svg_is_inline_markup_with_an_escaped_title() -> None:
    markup = qr.svg("http://x/", title='<script>alert("x")</script>')
    assert markup.startswith("<svg ") and markup.endswith("</svg>")
    assert "<script" not in markup and "&lt;script&gt;" in markup
    assert "<?xml" not in markup and "width=" not in markup  # CSS sizes it


def test_the_svg_and_the_modules_agree_on_the_size() -> None:
    side = qr.size("http://x/")
    assert f'viewBox="0 0 {side} {side}"' in qr.svg("http://x/")
    assert all(
        0 <= row < side and column + length <= side for row, column, length in qr.dark_runs("http://x/")
    )


@pytest.mark.parametrize("text", ["", "x" * (qr.MAX_LENGTH + 1)])
def test_nothing_or_too_much_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="QR code encodes"):
        qr.svg(text)


def test_the_template_tag_makes_a_relative_address_absolute() -> None:
    request = RequestFactory().get("/", HTTP_HOST="localhost")
    rendered = Template('{% load qr %}{% qr "/t/demo/" "Live standings" %}').render(
        Context({"request": request})
    )
    assert rendered == qr.svg("http://localhost/t/demo/", title="Live standings")
