"""Names in the order of the Unicode Collation Algorithm (its root collation, DUCET): accents and case
sort next to their letters (Ángel after Ana, Łukasz after Lars, Öztürk after Otto), not after Z as a
comparison of code points puts them. Plain Python, over the ``pyuca`` package."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import TypeVar

from pyuca import Collator

T = TypeVar("T")


@cache
def _collator() -> Collator:
    return Collator()  # reads the collation table once per process (about 0.1 s)


def name_key(name: str) -> tuple[int, ...]:
    return tuple(_collator().sort_key(name))


def by_name(items: Iterable[T], name: Callable[[T], str]) -> list[T]:
    """``items`` in the order of their names."""
    return sorted(items, key=lambda item: name_key(name(item)))
