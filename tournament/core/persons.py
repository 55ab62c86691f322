"""One person across tournaments: which registrations are the same person. Plain Python, no Django.

A registration (a ``Player`` of one tournament) links to a site-wide ``Person``. The link is made

- at once by the EMA id (EMA ranking rules: one id per player, for life): a registration with an EMA id
  belongs to the person with that id (``ema_match``);
- otherwise by the organiser, who confirms one of the suggested persons (``suggestions``): those whose
  name matches the registration's in either of its scripts (``Player.name`` in Latin letters,
  ``Player.native_name`` in its own script), compared the way a name search compares (``names.fold``:
  without case or accents), word order aside ("Sato Taro" is "Taro Sato"), Cyrillic read in Latin letters
  (``latin``: "Алексей Жуков" is "Aleksei Zhukov", and "Alexey Zhukov" too), and whose country is the
  registration's or unknown on either side. A name in Han, kana or Hangul matches the same name in that
  script: no program reads 佐藤 as Sato with certainty, so none is guessed.

Two persons with different EMA ids are never suggested as one.
"""

# ruff: noqa: RUF001 (the Cyrillic letters of CYRILLIC_LATIN are meant)
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

from tournament.core.names import fold

# Russian, Ukrainian and Belarusian letters in Latin letters, as passports write them (ICAO 9303),
# on folded (lower-case) text.
CYRILLIC_LATIN = str.maketrans(
    {
        "а": "a",
        "б": "b",
        "в": "v",
        "г": "g",
        "ґ": "g",
        "д": "d",
        "е": "e",
        "ё": "e",
        "є": "ie",
        "ж": "zh",
        "з": "z",
        "и": "i",
        "і": "i",
        "ї": "i",
        "й": "i",
        "к": "k",
        "л": "l",
        "м": "m",
        "н": "n",
        "о": "o",
        "п": "p",
        "р": "r",
        "с": "s",
        "т": "t",
        "у": "u",
        "ў": "u",
        "ф": "f",
        "х": "kh",
        "ц": "ts",
        "ч": "ch",
        "ш": "sh",
        "щ": "shch",
        "ъ": "ie",
        "ы": "y",
        "ь": "",
        "э": "e",
        "ю": "iu",
        "я": "ia",
    }
)
# Spellings of one sound that Latin transcriptions of a name vary between ("Alexey", "Aleksei", "Aleksej"),
# made one before comparing: applied in order.
VARIANTS = (("x", "ks"), ("y", "i"), ("j", "i"), ("w", "v"), ("ii", "i"))
HUNDREDTHS = Decimal("0.01")
SEPARATORS = re.compile(r"[\s\-‐‑‒–—'’.,·・]+")


def latin(text: str) -> str:
    """``text`` folded (``names.fold``) with its Cyrillic letters in Latin letters."""
    return fold(text).translate(CYRILLIC_LATIN)


def name_form(text: str) -> str:
    """The form two names are compared in: folded, Cyrillic in Latin letters, the transcription variants
    made one, its words in alphabetical order (so that the family name may come first or last)."""
    words = [word for word in SEPARATORS.split(latin(text)) if word]
    if not any(word.isascii() for word in words):
        return " ".join(sorted(words))  # Han, kana, Hangul: compared as they are
    unified = []
    for word in words:
        for before, after in VARIANTS:
            word = word.replace(before, after)
        unified.append(word)
    return " ".join(sorted(unified))


@dataclass(frozen=True)
class Identity:
    """A registration or a person, as the matching sees them: ``key`` is the caller's id."""

    key: int
    name: str
    native_name: str = ""
    country: str = ""
    ema_id: str = ""

    def forms(self) -> frozenset[str]:
        return frozenset(form for form in (name_form(self.name), name_form(self.native_name)) if form)


@dataclass(frozen=True)
class Suggestion:
    """A person who may be the registration's: ``same_country`` when both name one and it is the same
    (a match with an unknown country on either side is weaker)."""

    person: Identity
    same_country: bool


def ema_match(registration: Identity, persons: Iterable[Identity]) -> Identity | None:
    """The person with the registration's EMA id (None without one)."""
    if not registration.ema_id:
        return None
    return next((person for person in persons if person.ema_id == registration.ema_id), None)


def same_person_possible(registration: Identity, person: Identity) -> bool:
    """Whether nothing known tells them apart: not two EMA ids, not two countries."""
    if registration.ema_id and person.ema_id and registration.ema_id != person.ema_id:
        return False
    return not (registration.country and person.country and registration.country != person.country)


def suggestions(registration: Identity, persons: Iterable[Identity]) -> list[Suggestion]:
    """The persons the registration may be, best first: a name matching in either script, the same
    country before an unknown one, then by key (the older person first)."""
    forms = registration.forms()
    found = [
        Suggestion(person, bool(registration.country) and registration.country == person.country)
        for person in persons
        if forms & person.forms() and same_person_possible(registration, person)
    ]
    return sorted(found, key=lambda s: (not s.same_country, s.person.key))


def is_suggested(registration: Identity, person: Identity) -> bool:
    """Whether ``person`` is one the registration would be offered: the same EMA id, or a name matching
    in either script with nothing known telling them apart (``suggestions``). An organiser links a
    registration only to such a person; a site admin to any person ``same_person_possible`` allows."""
    if registration.ema_id and registration.ema_id == person.ema_id:
        return True
    return bool(suggestions(registration, [person]))


@dataclass(frozen=True)
class EventLine:
    """A person's result in one event, as the reader may see it: their final ``rank`` (None: not ranked),
    ``total``, hanchan played, and how many hanchan they ended 1st, 2nd, 3rd and 4th (shared places
    count as that place)."""

    rank: int | None
    total: Decimal
    played: int
    placements: tuple[int, int, int, int]


@dataclass(frozen=True)
class Career:
    """A person's figures across events: events, hanchan, the sum of their totals, the mean score per
    hanchan and the mean placement (hundredths, half to even; None without a hanchan), the best final
    rank, and the placements."""

    events: int
    hanchan: int
    total: Decimal
    mean_score: Decimal | None
    mean_placement: Decimal | None
    best_rank: int | None
    placements: tuple[int, int, int, int]


def career(lines: Iterable[EventLine]) -> Career:
    lines = list(lines)
    hanchan = sum(line.played for line in lines)
    total = sum((line.total for line in lines), Decimal(0))
    placements = tuple(sum(line.placements[i] for line in lines) for i in range(4))
    placed = sum(placements)
    ranks = [line.rank for line in lines if line.rank is not None]
    return Career(
        events=len(lines),
        hanchan=hanchan,
        total=total,
        mean_score=(total / hanchan).quantize(HUNDREDTHS, ROUND_HALF_EVEN) if hanchan else None,
        mean_placement=(
            (Decimal(sum((i + 1) * n for i, n in enumerate(placements))) / placed).quantize(
                HUNDREDTHS, ROUND_HALF_EVEN
            )
            if placed
            else None
        ),
        best_rank=min(ranks) if ranks else None,
        placements=(placements[0], placements[1], placements[2], placements[3]),
    )
