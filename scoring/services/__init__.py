"""Score-sheet actions: check, save, submit, sign, correct. Each is one transaction.

A sheet's entry is checked by the rules engine (``scoring.rules``) before anything is stored; an invalid
entry raises ``tournament.core.refusal.Refusal`` with every error as a ``Problem``, each naming its hand (or
null) and its rule, and nothing is saved. A conflict (a second sheet for a table, a stale version) and a
signed, locked sheet are refusals with status 409 (``CONFLICT``).

Entry format (the engine's sheet format, players by name, without the ``players`` list, which the
table's seating gives):

* final points only: ``{"form": "final", "final_points": {name: points}, "riichi_sticks_left": n,
  "chombo": [name, ...]}``;
* hand by hand: ``{"form": "hands", "hands": [...], "final_points": {...} (optional, checked),
  "riichi_sticks_left": n (optional, checked), "ended_by_time": bool}``, each hand an outcome (an
  abortive draw and a nagashi mangan too where the tournament's ruleset allows them) or the four point
  changes, as ``python -m scoring.rules sheet`` takes them.

The actions live in small modules by concern and the doors' are all importable from here:

- ``checks``: the rules engine's verdict on an entry, nothing stored;
- ``versions``: what every action that writes shares: the table locked, a version and its history, a
  signature, the results and chombo penalties of a signed version;
- ``referees``: saving and submitting, signing, a head referee's correction;
- ``game_logs``: drafts read from online games' logs, Tenhou games fetched by their replay links;
- ``idempotency``: a save under an ``Idempotency-Key``, sent again by a phone, saved once;
- ``players``: the players enter, the table confirms or disputes.
"""

from scoring.services.checks import check_entry, content_hash
from scoring.services.game_logs import fetch_log, sheet_from_log, sheets_from_links
from scoring.services.idempotency import save_sheet_once
from scoring.services.players import confirm_sheet, confirmations, dispute_sheet, player_save_sheet
from scoring.services.referees import correct_sheet, save_sheet, sign_sheet
from scoring.services.versions import RULE_DISPUTED, log_findings

__all__ = [
    "RULE_DISPUTED",
    "check_entry",
    "confirm_sheet",
    "confirmations",
    "content_hash",
    "correct_sheet",
    "dispute_sheet",
    "fetch_log",
    "log_findings",
    "player_save_sheet",
    "save_sheet",
    "save_sheet_once",
    "sheet_from_log",
    "sheets_from_links",
    "sign_sheet",
]
