"""Form widgets of our own: a select that writes its options in Python, once per list of them.

Django's ``Select`` renders each option through a template of its own (``select_option.html`` and its
attributes' template): on the sign-up page the countries' 250 options were three quarters of the page's
time, and on the tournament's settings the time zones' 600 the same. ``QuickSelect`` writes the same
markup (the same options and groups, attributes and escaping) in one pass, and keeps the options it
wrote for each list of values and labels it met (one per language for the countries): a page then
writes only its chosen option again. Escaping 250 labels a page was still a fifth of the sign-up page's
time at a registration's opening (benchmarks/bench_registration.py)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import forms
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

# A list of options as it is kept: each option's value and its label, or a group's label and its options.
Options = tuple[tuple[str, "str | tuple[tuple[str, str], ...]"], ...]
# Written: each option's value with its markup unchosen and chosen; a group's start and end have no value.
Written = tuple[tuple[str | None, str, str], ...]


def attributes(attrs: dict[str, Any]) -> SafeString:
    """The attributes as Django's ``attrs.html`` writes them, in their order: ``True`` a bare name,
    ``False`` left out (``flatatt`` would put the bare names last)."""
    return mark_safe(
        "".join(
            format_html(" {}", name) if value is True else format_html(' {}="{}"', name, str(value))
            for name, value in attrs.items()
            if value is not False
        )
    )


def _option(value: str, label: str) -> tuple[str | None, str, str]:
    start = f'<option value="{conditional_escape(value)}"'
    end = f">{conditional_escape(label)}</option>"
    return value, start + end, start + " selected" + end


@lru_cache(maxsize=64)
def written(options: Options) -> Written:
    """The markup of each option (escaped as ``format_html`` escapes), kept for the next page that shows
    the same values with the same labels (a language's countries, the time zones)."""
    parts: list[tuple[str | None, str, str]] = []
    for value, label in options:
        if isinstance(label, tuple):
            parts.append((None, f'<optgroup label="{conditional_escape(value)}">', ""))
            parts.extend(_option(*option) for option in label)
            parts.append((None, "</optgroup>", ""))
        else:
            parts.append(_option(value, label))
    return tuple(parts)


def _text(value: Any) -> str:
    return "" if value is None else str(value)


class QuickSelect(forms.Select):
    def options(self) -> Options:
        """The choices as plain text (their lazy labels translated into the active language)."""
        return tuple(
            (_text(value), tuple((_text(sub), str(text)) for sub, text in label))
            if isinstance(label, (list, tuple))
            else (_text(value), str(label))
            for value, label in self.choices
        )

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        final = self.build_attrs(self.attrs, attrs)
        if self.allow_multiple_selected:
            final["multiple"] = True
        chosen = set(self.format_value(value))
        parts = [format_html('<select name="{}"{}>', name, attributes(final))]
        for option_value, markup, chosen_markup in written(self.options()):
            if option_value is not None and option_value in chosen:
                parts.append(chosen_markup)
                if not self.allow_multiple_selected:  # as Django's Select: the first match only
                    chosen = set()
            else:
                parts.append(markup)
        parts.append("</select>")
        return mark_safe("".join(parts))  # every value and label escaped
