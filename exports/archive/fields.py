"""The tournament archive's format: its name, version and the fields of each kind of row.

``dump`` writes archives and ``load`` reads them; both take the fields from here, so that what is written
is what is read. The format is documented field by field in docs/exports.md.
"""

from __future__ import annotations

from tournament.models import SERIES_FIELDS as SERIES_SETTINGS
from tournament.models import TOURNAMENT_FIELDS as TOURNAMENT_SETTINGS

FORMAT = "riichi-tournament-archive"
VERSION = 1
BATCH = 2000

# The fields of each row, in the archive's words. "user" fields hold a username (or null); "player" fields
# a player's name; everything else is the model field of that name.
TOURNAMENT_FIELDS = (*TOURNAMENT_SETTINGS, "standings_revealed", "created_at")
PLAYER_FIELDS = (
    "name",
    "first_name",
    "last_name",
    "native_name",
    "country",
    "club",
    "ema_id",
    "team",
    "status",
    "is_substitute",
    "disqualified",
    "checked_in_at",
    "withdrawn_from",
    "registered_at",
)
ROUND_FIELDS = (
    "number",
    "starts_at",
    "status",
    "mode",
    "published_at",
    "clock_state",
    "clock_ends_at",
    "clock_remaining",
)
SHEET_FIELDS = (
    "status",
    "form",
    "entry",
    "replay",
    "version",
    "content_hash",
    "created_at",
    "updated_at",
    "submitted_at",
    "signed_at",
    "disputed_at",
)
SHEET_USERS = ("created_by", "submitted_by", "signed_by")
# ``findings``: a version read from an online game's log keeps the log's findings (null: entered by hand).
VERSION_FIELDS = (
    "version",
    "action",
    "status",
    "entry",
    "replay",
    "content_hash",
    "at",
    "reason",
    "findings",
)
# A seated player's answer to a version of a sheet the players entered (with ``player``, a name).
CONFIRMATION_FIELDS = ("version", "decision", "reason", "at")
RESULT_FIELDS = ("points", "rank", "uma", "score")
# A tournament in phases (tournament.phases): each phase, and its players after the cut (``player`` and
# ``replaces``: names).
PHASE_FIELDS = ("number", "name", "hanchan", "seating", "carry_over", "advance", "cut_at")
PHASE_ENTRY_FIELDS = ("seed", "left_at")
JOB_FIELDS = (
    "requested_at",
    "from_round",
    "seed",
    "state",
    "progress",
    "report",
    "error",
    "finished_at",
    "prefer",
    "proposal",
    "before_report",
    "applied_at",
    "alternatives",
    "choice",
)
PENALTY_FIELDS = (
    "kind",
    "points",
    "minutes_late",
    "reason",
    "hand",
    "given_at",
    "revoked_at",
    "revoke_reason",
    "revoked_with_check_in",
)
# Fields added to version 1 after it was first written, with the value an archive without them means.
# (``tie_breaks`` replaced the single ``tie_break``: load.tournament_settings reads an old archive's.)
ADDED_FIELDS = {
    "withdrawn_from": None,
    "first_name": "",
    "last_name": "",
    "native_name": "",
    "withdrawn_ranking": "ranked",
    "time_zone": "UTC",
    "language": "",
    "seating_publication": "all",
    "standings_publication": "live",
    "entry_mode": "referees",
    "disputed_at": None,
    "hidden_hanchan": 0,
    "standings_revealed": False,
    "published_at": None,
    "prefer": "substitutes",
    "proposal": [],
    "before_report": {},
    "applied_at": None,
    "team_ranking": "none",
    "team_best_n": None,
    "team_substitutes_count": False,
    "awards": [],
    "mers_event": False,
    "players_qualified": False,
    "findings": None,
    "revoked_with_check_in": False,
    "kind": "tournament",
    "players_form_tables": False,
    "alternatives": {},
    "choice": "",
}
USER_FIELDS = ("username", "first_name", "last_name")
# The fields of the rows ``dump`` writes field by field (beside their natural keys), which ``load`` checks
# as it checks the others.
STAFF_FIELDS = ("role", "granted_at")
TABLE_FIELDS = ("number", "extra_minutes")
SEAT_FIELDS = ("wind",)
ABSENCE_FIELDS = ("reason", "recorded_at")
DISQUALIFICATION_FIELDS = ("reason", "given_at")
AUDIT_FIELDS = ("at", "action", "subject", "changes")

# A series' archive (``exports.archive.series``): the series, each of its tournaments' archives as above,
# and the persons its players link to. A format and a version of its own.
SERIES_FORMAT = "riichi-series-archive"
SERIES_VERSION = 1
# The series' settings (tournament.models.SERIES_FIELDS) and when it was made;
# ``created_by`` is a username.
SERIES_ARCHIVE_FIELDS = (*SERIES_SETTINGS, "created_at")
# A person, with ``registrations``: [tournament slug, player name] of each of its players in the archive.
PERSON_FIELDS = ("name", "native_name", "country", "ema_id", "created_at")
