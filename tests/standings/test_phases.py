"""Phases, cuts and carry-over (tournament.phases), computed by hand. No database."""

from decimal import Decimal as D

import pytest

from tournament.core.phases import (
    Member,
    PhasePlan,
    carried_score,
    hanchan_of,
    make_cut,
    next_in_line,
    phase_of,
    phased_standings,
    plan_problem,
    tables_by_rank,
)
from tournament.core.standings import Entrant, HanchanResult, PenaltyEntry, compute_standings

PLAYERS = "ABCDEFGH"
ENTRANTS = [Entrant(p, p) for p in PLAYERS]


def result(player, round_, table, rank, score):
    return HanchanResult(player, round_, 30000 + int(D(score) * 1000), rank, D(score), table)


# Qualifying: 8 players, 2 hanchan at 2 tables. Totals: A 40, B 30, C 20, D 10, E 0, F -10, G -40, H -50.
QUALIFYING = [
    result("A", 1, 1, 1, "25"),
    result("B", 1, 1, 2, "15"),
    result("E", 1, 1, 3, "-10"),
    result("G", 1, 1, 4, "-30"),
    result("C", 1, 2, 1, "20"),
    result("D", 1, 2, 2, "5"),
    result("F", 1, 2, 3, "-5"),
    result("H", 1, 2, 4, "-20"),
    result("A", 2, 1, 1, "15"),
    result("C", 2, 1, 3, "0"),
    result("F", 2, 1, 2, "-5"),
    result("H", 2, 1, 4, "-30"),
    result("B", 2, 2, 1, "15"),
    result("D", 2, 2, 2, "5"),
    result("E", 2, 2, 3, "10"),
    result("G", 2, 2, 4, "-10"),
]
# The final table (top 4: A, B, C, D), one hanchan: D wins.
FINAL = [
    result("D", 3, 1, 1, "40"),
    result("C", 3, 1, 2, "10"),
    result("B", 3, 1, 3, "-20"),
    result("A", 3, 1, 4, "-30"),
]


def two_phases(carry_over):
    return [PhasePlan("Qualifying", 2), PhasePlan("Final", 1, "by_rank", carry_over, advance=4)]


FINALISTS = {2: [Member("A", 1), Member("B", 2), Member("C", 3), Member("D", 4)]}


def ranking(standings):
    return [(row.player, row.rank, str(row.total)) for row in standings.rows]


def test_the_qualifying_totals_computed_by_hand():
    qualifying = compute_standings(ENTRANTS, QUALIFYING)
    assert ranking(qualifying) == [
        ("A", 1, "40"),
        ("B", 2, "30"),
        ("C", 3, "20"),
        ("D", 4, "10"),
        ("E", 5, "0"),
        ("F", 6, "-10"),
        ("G", 7, "-40"),
        ("H", 8, "-50"),
    ]


@pytest.mark.parametrize(
    ("carry_over", "final_order"),
    [
        # keep: A 40-30=10, B 30-20=10, C 20+10=30, D 10+40=50. A and B equal at 10: no tie-break, shared.
        ("keep", [("D", 1, "50"), ("C", 2, "30"), ("A", 3, "10"), ("B", 3, "10")]),
        # halve: A 20-30=-10, B 15-20=-5, C 10+10=20, D 5+40=45.
        ("halve", [("D", 1, "45"), ("C", 2, "20"), ("B", 3, "-5"), ("A", 4, "-10")]),
        # reset: the final alone.
        ("reset", [("D", 1, "40"), ("C", 2, "10"), ("B", 3, "-20"), ("A", 4, "-30")]),
    ],
)
def test_a_two_phase_event_with_a_cut_and_carry_over_by_hand(carry_over, final_order):
    phased = phased_standings(ENTRANTS, QUALIFYING + FINAL, [], two_phases(carry_over), FINALISTS)
    final = phased.phases[1].standings
    assert ranking(final) == final_order
    # The final ranking: the final table 1-4, then the qualifying from 5 in its own order.
    assert [(p, r) for p, r, _ in ranking(phased.overall)] == [(p, r) for p, r, _ in final_order] + [
        ("E", 5),
        ("F", 6),
        ("G", 7),
        ("H", 8),
    ]
    assert [row.phase for row in phased.overall.rows] == [2, 2, 2, 2, 1, 1, 1, 1]


def test_carry_over_of_the_rank_separates_equal_totals_in_the_phase():
    # Reset totals, and A and B equal in the final: A brought rank 1, so A is ahead.
    final = [
        result("A", 3, 1, 2, "5"),
        result("B", 3, 1, 2, "5"),
        result("C", 3, 1, 1, "20"),
        result("D", 3, 1, 4, "-30"),
    ]
    phased = phased_standings(ENTRANTS, QUALIFYING + final, [], two_phases("rank"), FINALISTS)
    assert ranking(phased.phases[1].standings) == [
        ("C", 1, "20"),
        ("A", 2, "5"),
        ("B", 3, "5"),
        ("D", 4, "-30"),
    ]
    # The rank carried over comes before the tournament's tie-breaks.
    swapped = {2: [Member("B", 1), Member("A", 2), Member("C", 3), Member("D", 4)]}
    phased = phased_standings(
        ENTRANTS, QUALIFYING + final, [], two_phases("rank"), swapped, tie_breaks=["most_firsts"]
    )
    assert [p for p, _, _ in ranking(phased.phases[1].standings)] == ["C", "B", "A", "D"]


def test_carry_over_values():
    assert carried_score("keep", D("12.3")) == D("12.3")
    assert carried_score("halve", D("12.3")) == D("6.15")
    assert carried_score("halve", D("-7")) == D("-3.5")
    assert carried_score("reset", D("12.3")) == 0
    assert carried_score("rank", D("12.3")) == 0


def test_before_the_cut_the_ranking_is_the_first_phase():
    phased = phased_standings(ENTRANTS, QUALIFYING, [], two_phases("keep"), {})
    assert not phased.phases[1].reached
    assert [p for p, _, _ in ranking(phased.overall)] == list("ABCDEFGH")


def test_up_to_a_hanchan_before_the_final_shows_the_qualifying():
    phased = phased_standings(ENTRANTS, QUALIFYING + FINAL, [], two_phases("keep"), FINALISTS, up_to=2)
    assert [p for p, _, _ in ranking(phased.overall)] == list("ABCDEFGH")
    assert all(row.phase == 1 for row in phased.overall.rows)


def test_penalties_count_in_the_phase_of_their_hanchan():
    penalties = [PenaltyEntry("A", D("20"), 3), PenaltyEntry("E", D("5"), None)]
    phased = phased_standings(ENTRANTS, QUALIFYING + FINAL, penalties, two_phases("reset"), FINALISTS)
    final = {row.player: row for row in phased.phases[1].standings.rows}
    assert final["A"].total == D("-50")
    qualifying = {row.player: row for row in phased.phases[0].standings.rows}
    assert qualifying["E"].total == D("-5")
    assert qualifying["A"].total == D("40")  # the final's penalty is not the qualifying's


def test_a_finalist_who_left_ranks_with_the_phase_they_left_from():
    members = {
        2: [Member("A", 1, active=False), Member("B", 2), Member("C", 3), Member("D", 4), Member("E", 1)]
    }
    final = [r for r in FINAL if r.player != "A"] + [result("E", 3, 1, 4, "-30")]
    phased = phased_standings(ENTRANTS, QUALIFYING + final, [], two_phases("keep"), members)
    assert [p for p, _, _ in ranking(phased.overall)][:5] == ["D", "C", "B", "E", "A"]
    assert phased.overall.rows[4].phase == 1


def test_the_cut_takes_the_best_eligible():
    qualifying = compute_standings(ENTRANTS, QUALIFYING)
    assert make_cut(qualifying, 4, eligible=PLAYERS).advancing == ["A", "B", "C", "D"]
    # C withdrew: the next in the ranking advances.
    assert make_cut(qualifying, 4, eligible="ABDEFGH").advancing == ["A", "B", "D", "E"]


def test_a_tie_across_the_line_is_the_organisers_choice():
    # D and E both at 10: D (5, 5), E (-10, 20) in two hanchan.
    level = [r for r in QUALIFYING if r.player != "E"] + [
        result("E", 1, 1, 3, "-10"),
        result("E", 2, 2, 3, "20"),
    ]
    standings = compute_standings(ENTRANTS, level)
    assert [(row.player, row.rank) for row in standings.rows][:5] == [
        ("A", 1),
        ("B", 2),
        ("C", 3),
        ("D", 4),
        ("E", 4),
    ]
    cut = make_cut(standings, 4, eligible=PLAYERS)
    assert cut.advancing == ["A", "B", "C"]
    assert cut.tied == ["D", "E"] and cut.places == 1
    assert make_cut(standings, 4, eligible=PLAYERS, chosen=["E"]).advancing == ["A", "B", "C", "E"]
    assert make_cut(standings, 4, eligible=PLAYERS, chosen=["E", "D"]).tied == ["D", "E"]  # one place only
    assert make_cut(standings, 4, eligible=PLAYERS, chosen=["F"]).tied == ["D", "E"]  # not one of the tied
    # A tie-break separates them: E's best hanchan (20) is better than D's (5).
    broken = compute_standings(ENTRANTS, level, tie_breaks=["best_hanchan"])
    assert make_cut(broken, 4, eligible=PLAYERS).advancing == ["A", "B", "C", "E"]


def test_next_in_line():
    qualifying = compute_standings(ENTRANTS, QUALIFYING)
    assert next_in_line(qualifying, "ABCD", PLAYERS) == "E"
    assert next_in_line(qualifying, "ABCD", "ABCDFGH") == "F"
    assert next_in_line(qualifying, PLAYERS, PLAYERS) is None


def test_tables_by_rank_turn_the_winds():
    seeds = list("ABCDEFGH")
    assert tables_by_rank(seeds, 0) == [list("ABCD"), list("EFGH")]
    assert tables_by_rank(seeds, 1) == [list("DABC"), list("HEFG")]
    winds_of_a = [tables_by_rank(seeds, i)[0].index("A") for i in range(4)]
    assert winds_of_a == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="multiple of 4"):
        tables_by_rank(list("ABCDE"), 0)


def test_hanchan_numbers_run_on_across_phases():
    plans = [PhasePlan("Q", 8), PhasePlan("S", 2, advance=16), PhasePlan("F", 2, advance=4)]
    assert list(hanchan_of(plans, 1)) == list(range(1, 9))
    assert list(hanchan_of(plans, 2)) == [9, 10]
    assert list(hanchan_of(plans, 3)) == [11, 12]
    assert [phase_of(plans, n) for n in (1, 8, 9, 10, 11, 12)] == [1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize(
    ("plans", "field"),
    [
        ([], "phases"),
        ([PhasePlan("", 2)], "phases[0].name"),
        ([PhasePlan("Q", 0)], "phases[0].hanchan"),
        ([PhasePlan("Q", 2, advance=8)], "phases[0].advance"),
        ([PhasePlan("Q", 2), PhasePlan("F", 1)], "phases[1].advance"),
        ([PhasePlan("Q", 2), PhasePlan("F", 1, advance=6)], "phases[1].advance"),
        (
            [PhasePlan("Q", 2), PhasePlan("S", 1, advance=16), PhasePlan("F", 1, advance=16)],
            "phases[2].advance",
        ),
        ([PhasePlan("Q", 2, seating="random")], "phases[0].seating"),
        ([PhasePlan("Q", 2), PhasePlan("F", 1, carry_over="double", advance=4)], "phases[1].carry_over"),
        ([PhasePlan("Q", 30), PhasePlan("F", 11, advance=4)], "phases"),
    ],
)
def test_plans_refused_name_the_field(plans, field):
    problem = plan_problem(plans)
    assert problem is not None and problem.field == field


def test_a_semifinal_and_final_plan_is_valid():
    plans = [
        PhasePlan("Qualifying", 8),
        PhasePlan("Semifinal", 2, "by_rank", "keep", advance=16),
        PhasePlan("Final", 2, "by_rank", "halve", advance=4),
    ]
    assert plan_problem(plans) is None


def test_the_rank_history_runs_across_the_phases_a_player_reached():
    phased = phased_standings(ENTRANTS, QUALIFYING + FINAL, [], two_phases("halve"), FINALISTS)
    rows = {row.player: row for row in phased.overall.rows}
    # Ann: 1st after hanchan 1 and 2 of the qualifying, then 4th of the final.
    assert rows["A"].rank_history == [1, 1, 4]
    # Eve (E, 5th after the qualifying) stops with the qualifying.
    assert rows["E"].rank_history == [6, 5]
    # While the final is not played, the history stops with the last signed hanchan.
    phased = phased_standings(ENTRANTS, QUALIFYING, [], two_phases("halve"), FINALISTS)
    assert {row.player: row for row in phased.overall.rows}["A"].rank_history == [1, 1]
