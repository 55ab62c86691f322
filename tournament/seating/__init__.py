"""Seating generator for riichi mahjong tournaments (pure Python, no Django).

``generate`` seats a field for a number of hanchan (optionally after hanchan already played),
``swiss_round`` forms one hanchan from the standings, ``quality_report`` measures any schedule.
See docs/seating.md.
"""

from .generator import generate
from .model import NEVER, PlayerId, PlayerInfo, Round, Schedule, SeatingError, SeparationRule, Table
from .report import lower_bounds, quality_report
from .swiss import swiss_round

__all__ = [
    "NEVER",
    "PlayerId",
    "PlayerInfo",
    "Round",
    "Schedule",
    "SeatingError",
    "SeparationRule",
    "Table",
    "generate",
    "lower_bounds",
    "quality_report",
    "swiss_round",
]
