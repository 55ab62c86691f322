"""What the tournament app stores, a module per concern: the event and its settings (``event``), the
players and persons (``players``), the hanchan with their phases, tables, seats and absences
(``rounds``), the staff and the audit (``staff``), series and ratings (``series``), and players' sign-ups
(``signups``). Every model is named here, as Django and the rest of the product import them."""

from tournament.models.event import (
    TOURNAMENT_FIELDS,
    Tournament,
    default_time_zone,
    validate_awards,
    validate_tie_breaks,
)
from tournament.models.players import EMA_ID_VALIDATOR, Person, Player, PlayerLoginLink
from tournament.models.rounds import Absence, Phase, PhaseEntry, Round, Seat, SeatingJob, Table
from tournament.models.series import (
    SERIES_FIELDS,
    RatingHistory,
    RatingRun,
    RatingSnapshot,
    Series,
    SeriesExportJob,
    series_export_upload_to,
)
from tournament.models.signups import RegistrationSettings, SignUp, SignUpAnnouncement, SignUpMessage
from tournament.models.staff import (
    AUDIT_ACTIONS,
    AUDIT_FIELDS,
    AUDIT_SUBJECTS,
    AccountLanguage,
    AuditEntry,
    StaffRole,
)

__all__ = [
    "AUDIT_ACTIONS",
    "AUDIT_FIELDS",
    "AUDIT_SUBJECTS",
    "EMA_ID_VALIDATOR",
    "SERIES_FIELDS",
    "TOURNAMENT_FIELDS",
    "Absence",
    "AccountLanguage",
    "AuditEntry",
    "Person",
    "Phase",
    "PhaseEntry",
    "Player",
    "PlayerLoginLink",
    "RatingHistory",
    "RatingRun",
    "RatingSnapshot",
    "RegistrationSettings",
    "Round",
    "Seat",
    "SeatingJob",
    "Series",
    "SeriesExportJob",
    "SignUp",
    "SignUpAnnouncement",
    "SignUpMessage",
    "StaffRole",
    "Table",
    "Tournament",
    "default_time_zone",
    "series_export_upload_to",
    "validate_awards",
    "validate_tie_breaks",
]
