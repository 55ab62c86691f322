"""The hanchan clock (WRCR 2015 §8.2: a time limit per hanchan, the remaining time visible from every
table), in plain Python: the organiser starts, pauses, resumes and extends it; one table may get extra
minutes. Times are timezone-aware datetimes; durations are seconds. Its refusals are in the reader's
language (``scoring.rules.i18n``); their field and rule never change.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

from scoring.rules.i18n import _
from tournament.core.refusal import Refusal

State = Literal["stopped", "running", "paused", "over"]


RULE = "hanchan-clock (WRCR 2015 §8.2)"


@dataclass(frozen=True)
class Clock:
    state: State = "stopped"
    # While running: when the time runs out. While paused or stopped: the seconds left.
    ends_at: datetime | None = None
    remaining: float = 0.0

    @classmethod
    def stopped(cls, minutes: int) -> Clock:
        return cls(state="stopped", remaining=minutes * 60.0)

    def seconds_left(self, now: datetime, extra_minutes: int = 0) -> float:
        if self.state == "running" and self.ends_at is not None:
            left = (self.ends_at - now).total_seconds()
        else:
            left = self.remaining
        return max(0.0, left + extra_minutes * 60)

    def start(self, now: datetime) -> Clock:
        if self.state == "running":
            raise Refusal("clock", RULE, _("{field}: already running").format(field="clock"))
        return Clock(
            state="running", ends_at=now + timedelta(seconds=self.remaining), remaining=self.remaining
        )

    def pause(self, now: datetime) -> Clock:
        if self.state != "running":
            raise Refusal("clock", RULE, _("{field}: not running").format(field="clock"))
        return Clock(state="paused", remaining=self.seconds_left(now))

    def extend(self, minutes: int) -> Clock:
        if minutes == 0:
            message = _("{field}: extend by at least one minute, or shorten with a negative number")
            raise Refusal("minutes", RULE, message.format(field="minutes"))
        if self.state == "running" and self.ends_at is not None:
            return replace(self, ends_at=self.ends_at + timedelta(minutes=minutes))
        return replace(self, remaining=max(0.0, self.remaining + minutes * 60))

    def as_dict(self, now: datetime) -> dict[str, object]:
        return {
            "state": "over" if self.state == "running" and self.seconds_left(now) == 0 else self.state,
            "ends_at": self.ends_at.isoformat() if self.state == "running" and self.ends_at else None,
            "seconds_left": round(self.seconds_left(now), 1),
        }
