"""Country names in the reader's language: every name django-countries gives is one its catalogues or
ours translate, in each language of the product that django-countries has a catalogue for; the names
its catalogues lack (``COUNTRIES_OVERRIDE`` in config/settings.py) are translated in locale/."""

from __future__ import annotations

import gettext
from pathlib import Path

import django_countries
import pytest
from django.conf import settings
from django.utils import translation
from django_countries import countries
from django_countries.data import COUNTRIES

CATALOGUES = Path(django_countries.__file__).parent / "locale"
# The product's languages django-countries has a catalogue for (Korean: none; its names come from ours).
WITH_CATALOGUE = {"ja": "ja", "ru": "ru", "fr": "fr", "de": "de", "zh-hans": "zh_Hans"}


def untranslated(language: str) -> set[str]:
    """The codes whose django-countries name its own catalogue for ``language`` does not translate."""
    with (CATALOGUES / language / "LC_MESSAGES" / "django.mo").open("rb") as mo:
        translated = gettext.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]
    return {code for code, name in COUNTRIES.items() if not translated.get(str(name))}


@pytest.mark.parametrize("language", sorted(WITH_CATALOGUE))
def test_every_name_django_countries_does_not_translate_is_named_and_translated_here(language: str) -> None:
    missing = untranslated(WITH_CATALOGUE[language])
    assert "NR" in missing or language == "en"  # the reason for the override: django-countries says Naoero
    assert missing <= set(settings.COUNTRIES_OVERRIDE), sorted(missing - set(settings.COUNTRIES_OVERRIDE))
    for code, name in settings.COUNTRIES_OVERRIDE.items():
        with translation.override("en"):
            english = str(name)
        with translation.override(language):
            shown = countries.name(code)
        if language not in {"fr", "de"}:  # where a name may be written as in English
            assert shown != english, (language, code)


@pytest.mark.parametrize(
    ("language", "nauru"),
    [
        ("en", "Nauru"),
        ("ja", "ナウル"),
        ("ru", "Науру"),  # noqa: RUF001 (Cyrillic, meant)
        ("fr", "Nauru"),
        ("de", "Nauru"),
        ("zh-hans", "瑙鲁"),
        ("ko", "나우루"),
    ],
)
def test_nauru_is_named_in_the_readers_language(language: str, nauru: str) -> None:
    with translation.override(language):
        assert countries.name("NR") == nauru
        assert "Naoero" not in {str(name) for _code, name in countries}
