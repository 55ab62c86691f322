"""A whole tournament with the exceptions of a real event day, checked against standings computed by hand.

Five hanchan. Eight players check in; Nora never comes (did not start); Lena arrives after hanchan 1
and joins from hanchan 2 with three substitutes completing the tables (a re-seating, confirmed); Walt
withdraws after hanchan 3 (re-seated without him); Dina is disqualified after hanchan 4; for hanchan 5 no
substitute is present, so the last to check in sit out. Every table ends the same way (East 45,000,
South 30,000, West 25,000, North 20,000: +30, +5, -10, -25 with the WRCR 2015 uma), so each player's total
is the sum of their winds' scores, less 30 for each hanchan missed (WRCR 2015 §7.2).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from penalties import services as penalties
from penalties.models import Penalty
from scoring import services as sheets
from tournament import services
from tournament.models import Absence, Player, Round, Seat, Tournament
from tournament.queries.standings_db import load_standings

POINTS = [45000, 30000, 25000, 20000]  # East, South, West, North
SCORE = [Decimal(30), Decimal(5), Decimal(-10), Decimal(-25)]  # (points - 30,000) / 1,000 + uma


def play(round_: Round, organiser: Any, referee: Any) -> None:
    services.operate_clock(round_, organiser, "start")
    for table in round_.tables.all():
        names = [seat.player.name for seat in table.seats.order_by("wind")]
        entry = {
            "form": "final",
            "riichi_sticks_left": 0,
            "final_points": dict(zip(names, POINTS, strict=True)),
        }
        sheets.sign_sheet(sheets.save_sheet(table, entry, referee, submit=True), referee)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.FINISHED  # by its last signature


def reseat(tournament: Tournament, organiser: Any, from_round: int, prefer: str = "substitutes") -> None:
    job = services.request_seating(
        tournament, organiser, from_round=from_round, seed=from_round, prefer=prefer
    )
    job.refresh_from_db()
    assert job.state == "done", job.error
    if job.awaiting_confirmation:
        services.apply_seating(job, organiser)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_tournament_with_a_no_show_a_late_arrival_a_withdrawal_a_disqualification_and_a_sit_out(
    tournament: Tournament, organiser: Any, head_referee: Any, referee: Any
) -> None:
    names = ["Ada", "Bo", "Cy", "Dina", "Eli", "Fay", "Gus", "Walt"]
    players = {n: Player.objects.create(tournament=tournament, name=n) for n in [*names, "Nora", "Lena"]}
    subs = [
        Player.objects.create(tournament=tournament, name=f"Sub {i}", is_substitute=True) for i in (1, 2, 3)
    ]
    for name in names:
        services.check_in(players[name], user=organiser)
    reseat(tournament, organiser, 1)  # the first seating: eight players, two tables, in place at once
    play(tournament.rounds.get(number=1), organiser, referee)

    services.check_in(players["Lena"], user=organiser)  # late: hanchan 1 is played without her
    for sub in subs:
        services.check_in(sub, user=organiser)
    reseat(tournament, organiser, 2)  # nine players and three substitutes: three tables
    for number in (2, 3):
        play(tournament.rounds.get(number=number), organiser, referee)

    services.withdraw_player(players["Walt"], organiser, from_round=4)
    for sub in subs:
        services.check_in(sub, user=organiser, checked_in=False)  # the substitutes go home
    reseat(tournament, organiser, 4)  # eight players: two tables
    play(tournament.rounds.get(number=4), organiser, referee)

    penalties.disqualify(players["Dina"], head_referee, reason="collusion")
    reseat(tournament, organiser, 5, prefer="sit_out")  # seven, no substitute: the last three sit out
    play(tournament.rounds.get(number=5), organiser, referee)

    # By hand: each player's winds, the missed hanchan, who is ranked.
    totals: dict[str, Decimal] = {}
    for seat in Seat.objects.filter(round__tournament=tournament).select_related("player"):
        totals[seat.player.name] = totals.get(seat.player.name, Decimal(0)) + SCORE[seat.wind]
    missed = {"Lena": 1, "Walt": 2}  # Lena: hanchan 1 (late); Walt: hanchan 4 and 5 (withdrawn)
    expected = {
        name: totals.get(name, Decimal(0)) - 30 * missed.get(name, 0)
        for name in [*names, "Lena"]
        if name != "Dina"  # disqualified: not ranked
    }
    ordered = sorted(expected.items(), key=lambda item: -item[1])
    ranks = {}
    for index, (name, total) in enumerate(ordered):
        ranks[name] = ranks[ordered[index - 1][0]] if index and total == ordered[index - 1][1] else index + 1

    standings = load_standings(tournament.pk)
    got = {row.name: (row.rank, row.total) for row in standings.rows if row.ranked}
    assert got == {name: (ranks[name], total) for name, total in expected.items()}
    notes = {row.name: row.note for row in standings.rows if not row.ranked}
    assert notes == {
        "Nora": "Did not start",
        "Dina": "Disqualified",
        "Sub 1": "Substitute",
        "Sub 2": "Substitute",
        "Sub 3": "Substitute",
    }
    # Hanchan 5: four played; the other three sat out (those whose published table was removed, since
    # nobody had sat out yet), recorded so, without a penalty.
    fifth = {seat.player.name for seat in Seat.objects.filter(round__number=5, round__tournament=tournament)}
    assert len(fifth) == 4 and fifth <= {"Ada", "Bo", "Cy", "Eli", "Fay", "Gus", "Lena"}
    sitting = Absence.objects.filter(round__number=5, reason=Absence.Reason.SITS_OUT)
    assert {a.player.name for a in sitting} == {"Ada", "Bo", "Cy", "Eli", "Fay", "Gus", "Lena"} - fifth
    assert (
        not Penalty.objects.filter(round__number=5, kind="missed_hanchan")
        .exclude(player__name="Walt")
        .exists()
    )
    assert not players["Nora"].penalties.exists()
