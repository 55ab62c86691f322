"""A player's two names, the Latin one and the one in its own script (``Player.native_name``): which one
a reader sees, and the folded form a name search compares. Plain Python.

A reader whose language is written in the native name's script sees the native name (Japanese readers
see 佐藤 太郎, Chinese readers 王小明, Korean readers 김민준, Russian readers Алексей Жуков); everyone
else sees the Latin name, which every reader can at least spell out. A search matches either name,
ignoring case and accents ("lukasz" finds Łukasz, "жуков" finds Жуков)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

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


#: A name with a word longer than this (letters between spaces and hyphens) does not fit a phone's column
#: beside three figures (the score sheet's results at 360 px); shorter ones do.
LONG_WORD = 12


def has_long_word(names: Iterable[str]) -> bool:
    """Whether one of ``names`` has a word of more than ``LONG_WORD`` characters (a Cyrillic surname of 19
    letters), by which a table of names and figures gives each name a line of its own on a phone."""
    return any(len(word) > LONG_WORD for name in names for word in name.replace("-", " ").split())
