"""A player's two names, the Latin one and the one in its own script (``Player.native_name``): which one
a reader sees, and the folded form a name search compares. Plain Python.

A reader whose language is written in the native name's script sees the native name (Japanese readers
see 佐藤 太郎, Chinese readers 王小明, Korean readers 김민준, Russian readers Алексей Жуков); everyone
else sees the Latin name, which every reader can at least spell out. A search matches either name,
ignoring case and accents ("lukasz" finds Łukasz, "жуков" finds Жуков)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

# The scripts a language reads (by the product's language codes, settings.LANGUAGES).
HAN = "han"
KANA = "kana"
CYRILLIC = "cyrillic"
HANGUL = "hangul"
LATIN = "latin"
READS: dict[str, frozenset[str]] = {
    "ja": frozenset({HAN, KANA, LATIN}),
    "zh-hans": frozenset({HAN, LATIN}),
    "ko": frozenset({HANGUL, LATIN}),
    "ru": frozenset({CYRILLIC, LATIN}),
}

# Latin letters that carry their mark in the letter itself, not as a combining accent, so that
# decomposition leaves them whole: folded by hand (Ł is L with a stroke, and so on).
LETTERS = str.maketrans(
    {
        "ł": "l",
        "Ł": "l",
        "ø": "o",
        "Ø": "o",
        "đ": "d",
        "Đ": "d",
        "ð": "d",
        "ħ": "h",
        "ı": "i",  # noqa: RUF001 (the dotless i of Turkish names)
        "ß": "ss",
        "æ": "ae",
        "Æ": "ae",
        "œ": "oe",
        "Œ": "oe",
        "þ": "th",
        "Þ": "th",
    }
)


def script_of(character: str) -> str | None:
    """The script of one letter, among those the product tells apart (None for others and non-letters)."""
    if not character.isalpha():
        return None
    name = unicodedata.name(character, "")
    if name.startswith(("CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH")):
        return HAN
    if name.startswith(("HIRAGANA", "KATAKANA")):
        return KANA
    if name.startswith("HANGUL"):
        return HANGUL
    if name.startswith("CYRILLIC"):
        return CYRILLIC
    if name.startswith("LATIN"):
        return LATIN
    return None


def scripts_of(text: str) -> frozenset[str]:
    """Every script the letters of ``text`` are written in."""
    return frozenset(script for script in map(script_of, text) if script is not None)


def readable_in(text: str, language: str) -> bool:
    """Whether a reader of ``language`` reads every script ``text`` is written in (a name of Han
    characters only reads in Japanese and Chinese; one with kana only in Japanese; one in Hangul only in
    Korean)."""
    scripts = scripts_of(text)
    return bool(scripts) and scripts <= READS.get(language.lower(), frozenset({LATIN}))


def shown_name(name: str, native_name: str, language: str) -> str:
    """The name a reader of ``language`` sees: the native one when the reader's language is written in
    its script (and it is not itself Latin), the Latin one otherwise."""
    if native_name and scripts_of(native_name) - {LATIN} and readable_in(native_name, language):
        return native_name
    return name


def fold(text: str) -> str:
    """``text`` for comparing in a search: without case and accents, compatibility forms unified
    (full-width letters as ASCII, half-width kana as kana); other scripts' letters stay as they are."""
    decomposed = unicodedata.normalize("NFKD", text.translate(LETTERS))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", bare.casefold().translate(LETTERS)).strip()


def matches(query: str, names: Iterable[str]) -> bool:
    """Whether a search for ``query`` finds a player with these names (any of them contains it, folded;
    each word of the query in turn, so "taro sato" finds "Sato Taro")."""
    folded = [fold(name) for name in names if name]
    words = fold(query).split()
    return all(any(word in name for name in folded) for word in words)


# ---------------------------------------------------------------------------------------------------
# Splitting a name given in one column into the Latin first and last names the EMA results file needs.

#: Words that begin a family name and stay with it ("Daan de Vries": last name "de Vries"; "Seán Ó Briain":
#: "Ó Briain"), compared folded ("Van" and "van" alike).
PARTICLES = frozenset(
    {
        # Dutch, Flemish, German, Scandinavian
        "van",
        "von",
        "der",
        "den",
        "de",
        "het",
        "ter",
        "ten",
        "te",
        "zu",
        "zur",
        "vom",
        "af",
        "av",
        "van't",
        # French, Italian, Spanish, Portuguese
        "du",
        "des",
        "la",
        "le",
        "d'",
        "di",
        "da",
        "del",
        "della",
        "dello",
        "dos",
        "das",
        "do",
        # Irish and Scottish Gaelic
        "o",
        "o'",
        "ni",
        "nic",
        "ui",
        "mhic",
        "mac",
        "mc",
        # Arabic
        "al",
        "el",
        "abu",
        "bou",
    }
)
#: Particles that begin a family name only when written in lower case: capitalised, "Van" is as often a
#: Vietnamese middle name ("Nguyen Van An") as a Flemish family name ("Van Damme").
LOWER_CASE_ONLY = frozenset(
    {"van", "von", "der", "den", "het", "ter", "ten", "te", "zu", "zur", "vom", "af", "av"}
)
#: Malay and Arabic patronymics ("Nur Aisyah binti Hassan"): the name has no family name, so the split is
#: only a guess for the organiser to confirm.
PATRONYMICS = frozenset({"bin", "binti", "bt", "bte", "ibn", "a/l", "a/p"})
#: Scripts whose names are written family name first (山田 太郎, 王小明, 김민준).
FAMILY_FIRST = frozenset({HAN, KANA, HANGUL})


def is_native_script(text: str) -> bool:
    """Whether ``text`` is written in a script other than Latin (CJK, Hangul, Cyrillic): a name in its own
    script, never the Latin first and last names."""
    return bool(scripts_of(text) - {LATIN})


def _is_capitalised_family(word: str) -> bool:
    """A word written in capitals ("YAMADA", "WANG"): the way many players mark their family name."""
    letters = [c for c in word if c.isalpha()]
    return len(letters) > 1 and all(c.isupper() for c in letters)


@dataclass(frozen=True)
class NameSplit:
    """A one-column name as first and last names: ``certain`` when the split is sure; otherwise the
    split is a guess (possibly empty) that the organiser confirms or corrects, ``reason`` saying why."""

    first: str
    last: str
    native: str = ""  # the name itself, when it is written in its own script
    reason: str = ""

    #: The reasons a split is not certain (the preview words them).
    NATIVE_SCRIPT: ClassVar[str] = "native-script"  # no Latin name at all: 山田 太郎, Алексей Жуков
    ONE_WORD: ClassVar[str] = "one-word"
    ORDER_UNKNOWN: ClassVar[str] = "order-unknown"  # romanised beside a family-first native name: Yamada Taro
    PATRONYMIC: ClassVar[str] = "patronymic"  # binti, bin: no family name
    MANY_WORDS: ClassVar[str] = "many-words"  # José García López, Nguyen Van An

    @property
    def certain(self) -> bool:
        return not self.reason


def split_name(name: str, native_name: str = "") -> NameSplit:
    """Split a name given in one column.

    * In a script other than Latin it is the native name (family name first in CJK scripts), and the
      Latin names are unknown.
    * Two Latin words are the first and last name ("Ana Alves"), unless one is in capitals ("YAMADA Taro":
      that one is the family name) or the native name is family-first (the romanised order is not known).
    * A family name that begins with a particle keeps it ("Daan de Vries" -> "de Vries", "Pieter van der
      Heijden-de Vries" -> "van der Heijden-de Vries", "Seán Ó Briain" -> "Ó Briain"); the words before it
      are the first names.
    * Anything else is a guess (the last word as the last name) for the organiser to confirm.
    """
    words = name.split()
    if not words:
        return NameSplit("", "", reason=NameSplit.ONE_WORD)
    if is_native_script(name):
        return NameSplit("", "", native=" ".join(words), reason=NameSplit.NATIVE_SCRIPT)
    capitals = [i for i, word in enumerate(words) if _is_capitalised_family(word)]
    if len(capitals) == 1 and len(words) >= 2:
        i = capitals[0]
        return NameSplit(" ".join(words[:i] + words[i + 1 :]), words[i])
    if len(words) == 1:
        return NameSplit("", words[0], reason=NameSplit.ONE_WORD)
    folded = [fold(word).replace("’", "'") for word in words]  # noqa: RUF001 (the typographic apostrophe)
    for i in range(1, len(words) - 1):
        if folded[i] in PATRONYMICS:
            return NameSplit(" ".join(words[:i]), " ".join(words[i:]), reason=NameSplit.PATRONYMIC)
    for i in range(1, len(words) - 1):
        if folded[i] in PARTICLES and (folded[i] not in LOWER_CASE_ONLY or words[i].islower()):
            # The first particle after a given name begins the family name, which must end in a word that
            # is not a particle.
            if folded[-1] not in PARTICLES:
                return NameSplit(" ".join(words[:i]), " ".join(words[i:]))
            break
    first, last = " ".join(words[:-1]), words[-1]
    if len(words) > 2:
        return NameSplit(first, last, reason=NameSplit.MANY_WORDS)
    if native_name and scripts_of(native_name) & FAMILY_FIRST:
        return NameSplit(first, last, reason=NameSplit.ORDER_UNKNOWN)
    return NameSplit(first, last)
