"""The one refusal of the product: which input (``field``), which rule, and why (``message``).

Every action that cannot be done raises ``Refusal``, whatever app it belongs to: the services of
tournaments, score sheets, penalties and exports alike. The API renders it as
``{"errors": [{"field", "rule", "message", ...}]}`` with its ``status``; the pages show each problem
beside the form field it names. Nobody parses its text.

Plain Python, no Django: the pure packages may raise it too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

# The HTTP status a refusal answers with: the input breaks a rule (400), a rule of who may act refuses
# this person (403), the thing asked for does not
# exist for this user (404), it conflicts with the current state (409: a second sheet for one table, a
# stale version, a signed sheet), or it existed and is gone (410: an expired export).
INVALID = 400
FORBIDDEN = 403  # a rule of who may act refuses this person (a player not seated at the table, say)
NOT_FOUND = 404
CONFLICT = 409
GONE = 410


@dataclass(frozen=True)
class Problem:
    """One reason for a refusal. ``hand`` (a score sheet's hand number) and ``line`` (a player file's
    line) locate it further; ``extra`` carries what a rule adds (say, the expected amount)."""

    field: str | None
    rule: str
    message: str
    hand: int | None = None
    line: int | None = None
    extra: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"field": self.field, "rule": self.rule, "message": self.message}
        if self.hand is not None or "hand" in self.extra:
            data["hand"] = self.hand
        if self.line is not None:
            data["line"] = self.line
        return {**data, **{k: v for k, v in self.extra.items() if k not in data}}


class Refusal(Exception):
    """An action refused, with one or more ``Problem``s and the HTTP ``status`` that says so."""

    def __init__(self, field: str | None, rule: str, message: str, *, status: int = INVALID) -> None:
        self.problems: tuple[Problem, ...] = (Problem(field, rule, message),)
        self.status = status
        super().__init__(message)

    @classmethod
    def of(cls, problems: Iterable[Problem], *, status: int = INVALID) -> Refusal:
        problems = tuple(problems)
        if not problems:
            raise ValueError("a refusal needs at least one problem")
        refusal = cls(problems[0].field, problems[0].rule, problems[0].message, status=status)
        refusal.problems = problems
        refusal.args = ("; ".join(problem.message for problem in problems),)
        return refusal

    @property
    def field(self) -> str | None:
        return self.problems[0].field

    @property
    def rule(self) -> str:
        return self.problems[0].rule

    @property
    def message(self) -> str:
        return "; ".join(problem.message for problem in self.problems)

    def as_dicts(self) -> list[dict[str, Any]]:
        return [problem.as_dict() for problem in self.problems]

    def __repr__(self) -> str:
        return f"Refusal({self.status}, {self.as_dicts()!r})"
