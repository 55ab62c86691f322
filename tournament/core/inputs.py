"""What the product accepts as input before any rule looks at it: JSON bodies read within bounds, and text
that is printable.

``read_json`` reads a request body as JSON without ever recursing on what the body claims: the nesting
depth is counted by a flat scan of the text before ``json.loads`` runs (5,000 nested brackets otherwise
exhaust Python's recursion limit), the size is checked first, and a NUL character or a lone UTF-16
surrogate anywhere in the result is refused (PostgreSQL stores neither in a text or jsonb column, and a
lone surrogate cannot be encoded back into UTF-8). Each refusal names the field ``body`` and its rule.

``control_problem`` finds a C0 control character in a text: none at all in a one-line name, none but tab,
line feed and carriage return in multi-line text (rule ``printable-text``).

Plain Python, no Django: the API's parser, the pages' JSON endpoints and the services share it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any

from scoring.rules.i18n import _
from tournament.core.refusal import Refusal

# Deeper than any body the product reads (a score sheet is 4 levels deep), far below the recursion limit.
MAX_JSON_DEPTH = 32
# The default of Django's DATA_UPLOAD_MAX_MEMORY_SIZE; the parser passes the setting's value.
MAX_JSON_BYTES = 2_621_440

RULE_SIZE = "body-size"
RULE_DEPTH = "json-depth"
RULE_UNICODE = "json-unicode"
RULE_SYNTAX = "json"
RULE_PRINTABLE = "printable-text"

# A JSON string, escapes included (the "unrolled loop" form: linear time, no backtracking).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
_LINE_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")
_TEXT_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
# The only ways a parsed JSON text can hold a NUL or a lone surrogate: the escape \u0000 or a surrogate's
# escape (JSON refuses a raw control character in a string; UTF-8 holds no surrogate, a str may). A text
# with none of these needs no walk over its strings (an escaped backslash before "u" only costs the walk).
_NUL_OR_SURROGATE_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})")


def json_depth(text: str, stop_above: int | None = None) -> int:
    """The deepest nesting of arrays and objects in ``text``, counted without recursion (brackets inside
    strings do not count); with ``stop_above``, the count stops as soon as it passes that depth."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if stop_above is not None and deepest > stop_above:
                    break
        else:
            depth -= 1
    return deepest


def _refuse_constant(name: str) -> float:
    raise ValueError(_("{name} is not a JSON number").format(name=name))


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(_("{number} is too large a number").format(number=text[:20]))
    return value


def strings_in(value: Any) -> Iterator[str]:
    """Every string in a parsed JSON value, keys included, walked without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def read_json(
    raw: bytes | str, *, max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_JSON_DEPTH, field: str = "body"
) -> Any:
    """The JSON value of a request body (UTF-8), or a ``Refusal`` naming ``field`` and the rule broken."""
    if len(raw) > max_bytes:
        message = _("{field}: {size} bytes; at most {limit} are read").format(
            field=field, size=f"{len(raw):,}", limit=f"{max_bytes:,}"
        )
        raise Refusal(field, RULE_SIZE, message)
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            message = _("{field}: not UTF-8 text (byte {byte} is invalid)").format(
                field=field, byte=exc.start + 1
            )
            raise Refusal(field, RULE_UNICODE, message) from None
    else:
        text = raw
    if json_depth(text, stop_above=max_depth) > max_depth:
        message = _("{field}: nested more than {limit} levels deep").format(field=field, limit=max_depth)
        raise Refusal(field, RULE_DEPTH, message)
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError; so is a 5,000-digit int
        message = _("{field}: not valid JSON ({error})").format(field=field, error=encodable(str(exc)))
        raise Refusal(field, RULE_SYNTAX, message) from None
    if _NUL_OR_SURROGATE_ESCAPE.search(text) or _SURROGATE.search(text):
        _require_storable_strings(field, value)
    return value


def _require_storable_strings(field: str, value: Any) -> None:
    """Refuse a NUL character or a lone surrogate in any string of a parsed JSON value (keys included)."""
    for string in strings_in(value):
        _require_storable(field, string)


def _require_storable(field: str, string: str) -> None:
    if "\x00" in string:
        message = _("{field}: a text holds a NUL character (\\u0000)").format(field=field)
        raise Refusal(field, RULE_PRINTABLE, message)
    if _SURROGATE.search(string):
        message = _("{field}: a text holds a lone UTF-16 surrogate (\\ud800 to \\udfff)").format(field=field)
        raise Refusal(field, RULE_UNICODE, message)


def require_plain_json(value: Any, *, field: str, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Refuse a value already parsed (or built in Python) that ``read_json`` would not have returned:
    nested deeper than ``max_depth``, holding something other than JSON's types, a number that is not
    finite, a NUL character or a lone surrogate. Walked without recursion."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth + 1 > max_depth:
                message = _("{field}: nested more than {limit} levels deep").format(
                    field=field, limit=max_depth
                )
                raise Refusal(field, RULE_DEPTH, message)
            if isinstance(item, dict):
                for key in item:
                    if not isinstance(key, str):
                        message = _("{field}: an object's keys are texts").format(field=field)
                        raise Refusal(field, RULE_SYNTAX, message)
                    _require_storable(field, key)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
        elif isinstance(item, str):
            _require_storable(field, item)
        elif isinstance(item, float) and not math.isfinite(item):
            message = _("{field}: {number} is not a JSON number").format(field=field, number=item)
            raise Refusal(field, RULE_SYNTAX, message)
        elif item is not None and not isinstance(item, str | int | float | bool):
            message = _("{field}: {kind} is not a JSON value").format(field=field, kind=type(item).__name__)
            raise Refusal(field, RULE_SYNTAX, message)


def encodable(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, so that it always encodes to UTF-8."""
    return _SURROGATE.sub("\ufffd", text)


def control_problem(value: str, *, multiline: bool = False) -> str | None:
    """Why ``value`` is not printable text (a control character, and where), or None when it is. One-line
    names refuse every C0 control character and DEL; multi-line text allows tab, line feed and CR."""
    found = (_TEXT_CONTROLS if multiline else _LINE_CONTROLS).search(value) or _SURROGATE.search(value)
    if found is None:
        return None
    code, position = f"{ord(found.group()):04X}", found.start() + 1
    if multiline:
        return _(
            "holds the character U+{code} at position {position}; text may hold tabs and new lines, no other "
            "control character"
        ).format(code=code, position=position)
    return _(
        "holds the character U+{code} at position {position}; a one-line name is printable text only"
    ).format(code=code, position=position)


def require_printable(field: str, value: object, *, multiline: bool = False) -> None:
    """Refuse (``printable-text``) a text ``value`` holding a control character; other values pass."""
    if isinstance(value, str):
        why = control_problem(value, multiline=multiline)
        if why is not None:
            raise Refusal(field, RULE_PRINTABLE, f"{field}: {why}")


def json_control_problem(value: object) -> str | None:
    """Why a JSON value is not printable: a string in it (keys too) holding a control character other than
    tab, line feed or CR; None when every string is printable."""
    for string in strings_in(value):
        why = control_problem(string, multiline=True)
        if why is not None:
            return f"{string[:40]!r} {why}"
    return None


def require_printable_json(field: str, value: object) -> None:
    """Refuse (``printable-text``) a JSON value holding a text with a control character other than tab,
    line feed or CR."""
    why = json_control_problem(value)
    if why is not None:
        raise Refusal(field, RULE_PRINTABLE, f"{field}: {why}")
