"""The translation hook of the rules engine: the one place its person-visible messages pass through.

The rules engine is pure Python and must not import Django (docs/architecture.md), yet its refusals and
explanations are read by people in seven languages. So every message is written ``_("... {name} ...")``
with named placeholders filled by ``str.format`` after translation, and ``_`` returns the English text
unchanged until the Django side hands it a translation function: ``scoring.apps.ScoringConfig.ready``
calls ``use_translation(gettext, ngettext)`` once at startup. Django's gettext translates into the
language active in the current thread (the request's), so a message comes out in its reader's language,
while the pure core, imported alone, stays English and testable without Django.

The catalogues are in ``scoring/locale/<language>/LC_MESSAGES/django.po``; ``makemessages`` finds the
messages by the names ``_``, ``ngettext`` (plurals) and ``gettext_noop`` (marked now, translated when
shown), the keywords it gives xgettext, so no option is needed. Rule identifiers are never passed
through ``_``: they stay stable across languages.
"""

from __future__ import annotations

from collections.abc import Callable

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


_gettext: Gettext = _english
_ngettext: Ngettext = _english_plural


def use_translation(translate: Gettext, translate_plural: Ngettext) -> None:
    """Translate the rules engine's messages with these functions from now on (Django's gettext and
    ngettext, at startup)."""
    global _gettext, _ngettext
    _gettext, _ngettext = translate, translate_plural


def _(message: str) -> str:
    """``message`` in the reader's language (English until ``use_translation`` is called)."""
    return _gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural of a message for ``count``, in the reader's language."""
    return _ngettext(singular, plural, count)


def gettext_noop(message: str) -> str:
    """Marks a message for the catalogues without translating it yet (module-level constants, translated
    with ``_`` when shown)."""
    return message
