"""What the live pages show of the standings, computed once per change for the whole site: the payload
that the standings page, its JSON, the projector and the live streams share (``standings_payload``).

A change of the standings is computed where it is made, before its notice goes out
(``share_public_standings``, on ``standings_db.live_changed``): the payload the public may see is in the
cache when the web processes hear the notice, so none of them computes it again, and none of them sends
its viewers the copy from before the change. The series a public tournament counts in get a notice of
their own (``live.announce_series``): their projectors' streams carry the series' standings. The
receiver is connected wherever a change can be made: ``tournament.services`` (every writer's way in)
imports this module for ``current_round``.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from django.urls import reverse

from scoring.models import ScoreSheet
from tournament.models import Round, Table, Tournament
from tournament.queries import live
from tournament.queries.phases_db import phase_names
from tournament.queries.standings_db import (
    cached_summary,
    live_changed,
    public_cutoff,
    remember_live,
    store_live,
)
from tournament.queries.teams_db import cached_team_standings


def current_round(tournament: Tournament) -> Round | None:
    """The hanchan in play, or the next one: the first not finished (the one the referees' "my tables"
    lists, and the one the home page, the standings, the projector and the clock show). A hanchan
    finishes when its last table is signed (``services.follow_play``), with or without its clock."""
    return tournament.rounds.exclude(status=Round.Status.FINISHED).order_by("number").first()


def playing_rounds(tournament: Tournament) -> list[Round]:
    """The hanchan in play: a tournament's current one (``current_round``); a club session's every
    hanchan not finished, oldest first, each one table formed at the venue (``tournament.core.club``). What
    the live tables, the standings' tables still waiting and the home page follow."""
    if tournament.is_club_session:
        return list(tournament.rounds.exclude(status=Round.Status.FINISHED).order_by("number"))
    current = current_round(tournament)
    return [current] if current is not None else []


def standings_payload(
    tournament: Tournament, up_to: int | None = None, *, fresh: bool = False
) -> dict[str, Any]:
    """What the standings page, the projector and their poll share: the cached standings (no
    recomputation), after hanchan ``up_to`` when given, and the tables of the current hanchan (of a
    club session, of every hanchan in play) still without a signed sheet. ``fresh``: never the copy
    from before the latest change (``remember_live``)."""
    return remember_live(tournament, f"page:{up_to}", lambda: live_standings(tournament, up_to), fresh=fresh)


def live_standings(tournament: Tournament, up_to: int | None = None) -> dict[str, Any]:
    data = cached_summary(tournament, up_to)
    club = tournament.is_club_session
    playing = playing_rounds(tournament)
    # A club session has no one current hanchan: its tables in play are each a hanchan of its own.
    current = playing[0] if playing and not club else None
    pending: list[dict[str, Any]] = []
    table_count = 0
    tables = (
        Table.objects.filter(round__in=playing)
        .order_by("round__number", "number")
        .values_list("round__number", "number", "sheet__status")
    )
    for hanchan, number, sheet_status in tables:
        table_count += 1
        if sheet_status != ScoreSheet.Status.SIGNED:
            waiting = {"table": number, "status": sheet_status or "none"}
            pending.append({"round": hanchan, **waiting} if club else waiting)
    hiding = bool(tournament.hidden_hanchan and not tournament.standings_revealed)
    # A tournament in phases: each ranked row names the last phase its player reached.
    names = phase_names(tournament.pk)
    return {
        "rounds": data["rounds"],
        # A penalty of a hanchan after ``rounds`` counts already (tournament.standings.Standings).
        "penalty_round": data.get("penalty_round", 0),
        "as_of": up_to,  # None: live, every signed sheet counts
        "hidden_from": tournament.hanchan_count - tournament.hidden_hanchan + 1 if hiding else None,
        "club": club,
        "current_round": current.number if current else None,
        "current_round_status": current.status if current else None,
        "tables": table_count,
        "pending": pending,
        "player_url": reverse("tournament:player", args=[tournament.slug, 0]).removesuffix("0/"),
        "unranked_count": sum(1 for row in data["rows"] if not row["ranked"]),
        "rows": [
            {
                "player": row["player"],
                "name": row["name"],
                "ranked": row["ranked"],
                "note": row["note"],
                "rank": row["rank"],
                "total": row["total"],
                "penalties": row["penalties"],
                "played": row["played"],
                "phase_name": names.get(row.get("phase", 1), ""),
            }
            for row in data["rows"]
        ],
        "team_rule": tournament.team_ranking,
        "teams": team_rows(tournament, up_to),
    }


def team_rows(tournament: Tournament, up_to: int | None) -> list[dict[str, Any]]:
    """The team standings the pages show (none when the tournament has no team rule), cut as the
    individual standings are."""
    if tournament.team_ranking == Tournament.TeamRanking.NONE:
        return []
    return [
        {
            "rank": row["rank"],
            "name": row["name"],
            "total": row["total"],
            "counted": row["counted"],
            "played": row["played"],
            "members": [
                {"name": m["name"], "contribution": m["contribution"], "counted": m["counted"]}
                for m in row["members"]
            ],
        }
        for row in cached_team_standings(tournament, up_to)["rows"]
    ]


@receiver(live_changed)
def share_public_standings(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    """The public standings of the change just committed, computed here once (``live_changed``)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None and tournament.is_public:
        cutoff = public_cutoff(tournament)
        store_live(tournament, f"page:{cutoff}", live_standings(tournament, cutoff))
        # The series it counts in have changed with it: their projectors hear it on their own streams.
        for series_id in tournament.series.values_list("pk", flat=True):
            live.announce_series(series_id)
