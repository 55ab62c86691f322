"""``{% qr url title %}``: a QR code of an address as inline SVG (``tournament.core.qr``).

A relative address (``/t/demo/``) is made absolute from the request, so a phone scanning the code from the
projector or a printed card reaches this site."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from tournament.core import qr as codes

register = template.Library()


@register.simple_tag(takes_context=True)
def qr(context: Any, address: str, title: str = "") -> SafeString:
    request = context.get("request")
    if request is not None and address.startswith("/"):
        address = request.build_absolute_uri(address)
    return mark_safe(codes.svg(address, title=title))  # segno escapes the title; the rest is numbers
