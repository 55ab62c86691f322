"""How long work reports how far it has got: a callback taking the fraction done, 0 to 1."""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[float], None]


def no_progress(fraction: float) -> None:
    """The progress callback of work nobody watches."""
