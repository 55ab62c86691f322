"""``{{ row.total|score }}``: a score as a column shows it, with one decimal in the reader's language ("78.0"
beside "66.9", in German "78,0"), from the exact string of ``format_score`` or a Decimal; more decimals only
when the score has them. The scripts draw theirs with ``Riichi.score`` (static/js/site.js), the same way.
The API and the exports keep the machine string."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def score(value: Any) -> Any:
    if value is None or value == "":
        return value
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return value
    exponent = number.normalize().as_tuple().exponent
    places = max(1, -exponent) if isinstance(exponent, int) else 1
    return number_format(number, places, use_l10n=True, force_grouping=False)
