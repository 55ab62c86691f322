"""The translation catalogues (locale/) are complete: every language of settings.LANGUAGES has one, no
entry is untranslated or fuzzy, and the compiled .mo files (committed, so that `make run` needs no
gettext) say what their .po files say."""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils.translation import to_locale

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = [code for code, _name in settings.LANGUAGES]
# The pages' words (django) and their scripts' (djangojs, served by /jsi18n/).
DOMAINS = ("django", "djangojs")
CATALOGUES = [(code, domain) for code in LANGUAGES for domain in DOMAINS]


def catalogue(code: str, domain: str) -> Path:
    return LOCALE / to_locale(code) / "LC_MESSAGES" / f"{domain}.po"


def problems(po: polib.POFile) -> list[str]:
    """Every entry of ``po`` a reader would see untranslated or that a translator has not confirmed."""
    found = []
    if po.metadata_is_fuzzy:
        found.append("the header is marked fuzzy")
    for entry in po:
        if entry.obsolete:
            continue
        if "fuzzy" in entry.flags:
            found.append(f"fuzzy: {entry.msgid!r}")
        if entry.msgid_plural:
            forms = entry.msgstr_plural
            if not forms or any(not text for text in forms.values()):
                found.append(f"untranslated plural: {entry.msgid!r}")
        elif not entry.msgstr:
            found.append(f"untranslated: {entry.msgid!r}")
    return found


@pytest.mark.parametrize(("code", "domain"), CATALOGUES)
def test_every_language_has_a_complete_catalogue(code: str, domain: str) -> None:
    path = catalogue(code, domain)
    assert path.is_file(), (
        f"{path} is missing: manage.py makemessages -l {to_locale(code)} (docs/languages.md)"
    )
    po = polib.pofile(str(path))
    assert len(po) > 0
    assert problems(po) == []


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_catalogue_has_the_same_messages(domain: str) -> None:
    """A message marked since the last makemessages of one language only would be English elsewhere."""
    ids = {
        code: {(e.msgctxt, e.msgid) for e in polib.pofile(str(catalogue(code, domain)))} for code in LANGUAGES
    }
    english = ids["en"]
    for code, found in ids.items():
        assert found == english, (code, sorted(found ^ english)[:5])


def test_the_check_catches_untranslated_and_fuzzy_entries() -> None:
    po = polib.pofile(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Standings"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Seating"\nmsgstr "Sitzplan"\n\n'
        'msgid "table"\nmsgid_plural "tables"\nmsgstr[0] "Tisch"\nmsgstr[1] ""\n\n'
        'msgid "Players"\nmsgstr "Spieler"\n'
    )
    assert problems(po) == [
        "untranslated: 'Standings'",
        "fuzzy: 'Seating'",
        "untranslated plural: 'table'",
    ]


@pytest.mark.skipif(
    shutil.which("msgfmt") is None, reason="gettext is not installed (scripts/ensure-packages.sh)"
)
@pytest.mark.parametrize(("code", "domain"), CATALOGUES)
def test_the_compiled_catalogue_is_up_to_date(code: str, domain: str, tmp_path: Path) -> None:
    """The committed .mo holds exactly what msgfmt makes of the .po (compilemessages after each edit)."""
    po = catalogue(code, domain)
    fresh = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(fresh), str(po)], check=True)
    with po.with_suffix(".mo").open("rb") as committed, fresh.open("rb") as compiled:
        assert gettext.GNUTranslations(committed)._catalog == gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]


# The placeholders a message is filled with: Python's %(name)s (templates' blocktranslate, the scripts'
# interpolate) and %s/%d, and str.format's {name}. A translation that adds one the code does not pass is a
# KeyError at run time; one that drops one loses a figure the reader needs.
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]|%[sdif]|\{(\w+)\}")


def placeholders(text: str) -> set[str]:
    return {match.group(0) for match in PLACEHOLDER.finditer(text.replace("%%", ""))}


def placeholder_problems(po: polib.POFile) -> list[tuple[str, str]]:
    wrong = []
    for entry in po:
        if entry.obsolete:
            continue
        if entry.msgid_plural:
            wanted = placeholders(entry.msgid) | placeholders(entry.msgid_plural)
            forms = [entry.msgstr_plural[key] for key in sorted(entry.msgstr_plural)]
            # A singular form may leave the count out ("one table"); the general form keeps everything.
            if forms and placeholders(forms[-1]) != wanted:
                wrong.append((entry.msgid_plural, forms[-1]))
            wrong += [(entry.msgid, form) for form in forms[:-1] if not placeholders(form) <= wanted]
        elif entry.msgstr and placeholders(entry.msgstr) != placeholders(entry.msgid):
            wrong.append((entry.msgid, entry.msgstr))
    return wrong


@pytest.mark.parametrize(("code", "domain"), CATALOGUES)
def test_every_translation_keeps_the_placeholders_of_its_message(code: str, domain: str) -> None:
    assert placeholder_problems(polib.pofile(str(catalogue(code, domain)))) == []


def test_the_placeholder_check_catches_a_dropped_or_invented_placeholder() -> None:
    po = polib.pofile(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Table %(table)s"\nmsgstr "Tisch"\n\n'
        'msgid "Hanchan {number}"\nmsgstr "Hanchan {numero}"\n\n'
        'msgid "100%% sure, %(name)s"\nmsgstr "%(name)s, sûr à 100%%"\n\n'
        'msgid "one table"\nmsgid_plural "%(count)s tables"\n'
        'msgstr[0] "ein Tisch"\nmsgstr[1] "%(count)s Tische"\n'
    )
    assert placeholder_problems(po) == [
        ("Table %(table)s", "Tisch"),
        ("Hanchan {number}", "Hanchan {numero}"),
    ]
