"""The REST API's JSON parser: ``tournament.core.inputs.read_json``, bounded in size and depth, refusing NUL
characters and lone surrogates, each refusal a 400 in the one error format (``config.api``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.parsers import JSONParser

from tournament.core.inputs import RULE_SIZE, read_json
from tournament.core.refusal import Refusal


def body_limit() -> int:
    """The most bytes a JSON body may have: Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (None: unlimited)."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return limit if limit is not None else 2**62


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, reading at most ``body_limit()`` bytes (the rest is never read)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = body_limit()
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise Refusal("body", RULE_SIZE, f"body: more than {limit:,} bytes; at most {limit:,} are read")
        return read_json(raw, max_bytes=limit)
