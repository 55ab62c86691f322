"""Seating generator for riichi mahjong tournaments (pure Python, no Django).

``generate`` seats a field for a number of hanchan (optionally after hanchan already played),
``swiss_round`` forms one hanchan from the standings, ``quality_report`` measures any schedule,
``reseat`` re-seats the remaining hanchan after a change of the field, moving as few players as possible.
See docs/seating.md.
"""

from .generator import generate
from .model import NEVER, PlayerId, PlayerInfo, Round, Schedule, SeatingError, SeparationRule, Table
from .report import lower_bounds, quality_report
from .reseat import Reseat, moved_players, renumbered, reseat
from .swiss import swiss_round

__all__ = [
    "NEVER",
    "PlayerId",
    "PlayerInfo",
    "Reseat",
    "Round",
    "Schedule",
    "SeatingError",
    "SeparationRule",
    "Table",
    "generate",
    "lower_bounds",
    "moved_players",
    "quality_report",
    "renumbered",
    "reseat",
    "swiss_round",
]
