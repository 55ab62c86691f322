"""The words an address may not take: the fixed words of the site's URL patterns.

A series lives at ``/series/<slug>/``, and ``/series/new/`` is the form of a new series: a series whose
slug were ``new`` would have an address the form hides. ``reserved_slugs`` reads such words from the URL
configuration itself, so a page added beside the slugs reserves its word without a list to keep.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.urls import URLResolver, get_resolver

SERIES_PREFIX = "series/"
TOURNAMENT_PREFIX = "t/"


@cache
def reserved_slugs(prefix: str) -> frozenset[str]:
    """Every fixed path segment that comes right after ``prefix`` ("series/") in a URL pattern of the
    site: the slugs of the objects addressed under that prefix may not be one of them."""
    words: set[str] = set()

    def walk(patterns: Any, route: str) -> None:
        for pattern in patterns:
            text = route + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                if text.startswith(prefix) or prefix.startswith(text):
                    walk(pattern.url_patterns, text)
            elif text.startswith(prefix):
                segment = text[len(prefix) :].split("/", 1)[0]
                if segment and "<" not in segment and "^" not in segment:
                    words.add(segment)

    walk(get_resolver().url_patterns, "")
    return frozenset(words)
