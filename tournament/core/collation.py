"""Names in the order of the Unicode Collation Algorithm: accents and case sort next to their letters
(Ángel after Ana, Łukasz after Lars, Öztürk after Otto), not after Z as a comparison of code points puts
them. Plain Python.

Without a language, the root collation (DUCET) of the ``pyuca`` package: the same order for every reader,
which the standings use to list players who share a rank. With a reader's language (a code of
settings.LANGUAGES, passed in by the caller), that language's own collation from ICU (the ``PyICU``
package: German ä with a, Russian Cyrillic before Latin, Japanese and Chinese Han in their readings'
customary orders as ICU's CLDR data has them). PyICU builds against Debian's libicu-dev
(scripts/ensure-packages.sh); where it is not installed, every language sorts by the root collation, the
documented fallback (docs/languages.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, TypeVar

from pyuca import Collator

try:
    import icu  # PyICU: optional, see the module's docstring
except ImportError:  # pragma: no cover - the fallback of a machine without ICU
    icu = None

T = TypeVar("T")

# The product's language codes as ICU's locales.
ICU_LOCALES = {"en": "en", "ja": "ja", "ru": "ru", "fr": "fr", "de": "de", "zh-hans": "zh_Hans", "ko": "ko"}


@cache
def _collator() -> Collator:
    return Collator()  # reads the collation table once per process (about 0.1 s)


@cache
def _icu_collator(language: str) -> Any:
    return icu.Collator.createInstance(icu.Locale(ICU_LOCALES.get(language, language)))


def language_collation_available() -> bool:
    """Whether names sort by each language's own collation here (PyICU installed), not the root one."""
    return icu is not None


def name_key(name: str, language: str = "") -> tuple[int, ...]:
    """The sort key of ``name``: by the root collation, or by ``language``'s when given and ICU is here."""
    if language and icu is not None:
        return tuple(_icu_collator(language.lower()).getSortKey(name))
    return tuple(_collator().sort_key(name))


def by_name(items: Iterable[T], name: Callable[[T], str], language: str = "") -> list[T]:
    """``items`` in the order of their names (in ``language``'s collation when given)."""
    return sorted(items, key=lambda item: name_key(name(item), language))
