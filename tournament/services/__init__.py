"""Actions on tournaments, players, absences, seating and hanchan: one verb per change, each one
transaction, each refusing with ``tournament.core.refusal.Refusal``.

The verbs live in small modules by concern and are all importable from here:

- ``tournaments``: create a tournament, change its settings;
- ``registration``: register players by hand or from a file, check them in, the check-in plan;
- ``absences``: a substitute for one hanchan, a withdrawal;
- ``field``: who is seated in a hanchan (substitutes or sit-outs, a phase's players);
- ``seating``: generation in a Celery task, a re-seating's confirmation (its proposals: ``reseating``),
  Swiss hanchan;
- ``rounds``: the current hanchan, the clock, a table's extra minutes, finishing a hanchan;
- ``staff``: granting and removing staff roles, organisers' accounts and their invitation;
- ``club``: a club session's tables, formed at the venue from four players present, or taken back;
- ``phases``: the phases, the cut into a phase, calling up the next in line, seating a phase by rank;
- ``ratings``: the site's and the series' rating lists, recomputed in the background and stored.
"""

from tournament.services.absences import plan_withdrawal, replace_with_substitute, withdraw_player
from tournament.services.club import form_table, open_tables, take_back_table
from tournament.services.field import seating_field
from tournament.services.phases import (
    call_up,
    incomplete_before,
    make_cut,
    preview_cut,
    seat_by_rank,
    set_phases,
)
from tournament.services.ratings import (
    ratings_changed_on_commit,
    refresh_rating_lists,
    served_series_list,
    served_site_list,
)
from tournament.services.registration import (
    CheckInPlan,
    check_in,
    check_in_many,
    check_in_plan,
    country_lookup,
    has_played,
    import_players,
    preview_player_file,
    register_player,
    remove_player,
    update_player,
)
from tournament.services.rounds import (
    current_round,
    finish_round,
    give_table_extra_time,
    operate_clock,
    publish_seating,
    tables_of_referee,
)
from tournament.services.seating import CHOICES as SEATING_CHOICES
from tournament.services.seating import (
    apply_seating,
    generate_seating,
    request_seating,
    requeue_stalled_seating,
    requeue_stalled_seating_jobs,
    run_seating_job,
    seat_swiss_round,
)
from tournament.services.staff import (
    account_exists,
    grant_role,
    invite_organiser,
    invite_staff,
    make_organiser,
    remove_role,
)
from tournament.services.tournaments import create_tournament, reveal_standings, update_tournament

__all__ = [
    "SEATING_CHOICES",
    "CheckInPlan",
    "account_exists",
    "apply_seating",
    "call_up",
    "check_in",
    "check_in_many",
    "check_in_plan",
    "country_lookup",
    "create_tournament",
    "current_round",
    "finish_round",
    "form_table",
    "generate_seating",
    "give_table_extra_time",
    "grant_role",
    "has_played",
    "import_players",
    "incomplete_before",
    "invite_organiser",
    "invite_staff",
    "make_cut",
    "make_organiser",
    "open_tables",
    "operate_clock",
    "plan_withdrawal",
    "preview_cut",
    "preview_player_file",
    "publish_seating",
    "ratings_changed_on_commit",
    "refresh_rating_lists",
    "register_player",
    "remove_player",
    "remove_role",
    "replace_with_substitute",
    "request_seating",
    "requeue_stalled_seating",
    "requeue_stalled_seating_jobs",
    "reveal_standings",
    "run_seating_job",
    "seat_by_rank",
    "seat_swiss_round",
    "seating_field",
    "served_series_list",
    "served_site_list",
    "set_phases",
    "tables_of_referee",
    "take_back_table",
    "update_player",
    "update_tournament",
    "withdraw_player",
]
