"""The rules of a club session's tables and ranking (``tournament.core.club``), without a database."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from tournament.core import club
from tournament.core.participation import Facts, State
from tournament.core.standings import Entrant, HanchanResult, compute_standings

PRESENT = {
    1: club.Candidate("Ana", present=True),
    2: club.Candidate("Ben", present=True),
    3: club.Candidate("Cho", present=True),
    4: club.Candidate("Dai", present=True),
    5: club.Candidate("Eve", present=False),
    6: club.Candidate("Fay", present=True, open_hanchan=3),
}


def rules(chosen: list[int | None]) -> list[tuple[str | None, str]]:
    return [(problem.field, problem.rule) for problem in club.table_problems(chosen, PRESENT)]


def test_four_players_present_and_free_sit_down() -> None:
    assert club.table_problems([1, 2, 3, 4], PRESENT) == []


def test_a_table_is_four_players() -> None:
    assert rules([1, 2, 3]) == [("players", "four-players")]
    assert rules([1, 2, 3, 4, 5]) == [("players", "four-players")]
    assert rules([1, None, 3, 4]) == [("south", "four-players")]


def test_each_refusal_names_the_seat_and_the_rule() -> None:
    assert rules([1, 2, 1, 4]) == [("west", "player-once")]
    assert rules([1, 2, 3, 5]) == [("north", "player-present")]
    assert rules([6, 2, 3, 4]) == [("east", "player-free")]
    assert rules([1, 2, 99, 4]) == [("west", "player-of-the-session")]
    # Every seat at fault is named, each once.
    assert rules([5, 6, 1, 1]) == [
        ("east", "player-present"),
        ("south", "player-free"),
        ("north", "player-once"),
    ]
    (problem,) = club.table_problems([6, 2, 3, 4], PRESENT)
    assert problem.message == "east: Fay is still playing at the table of hanchan 3"


def test_the_winds_drawn_are_a_shuffle_of_the_four() -> None:
    chosen = [1, 2, 3, 4]
    drawn = [club.draw_winds(chosen, random.Random(seed)) for seed in range(40)]
    assert all(sorted(order) == chosen for order in drawn)
    assert chosen == [1, 2, 3, 4]  # the players as chosen are left as they were
    assert {order[0] for order in drawn} == {1, 2, 3, 4}  # each may draw East
    assert club.draw_winds(chosen, random.Random(5)) == drawn[5]  # a seed draws the same winds again


def test_a_session_ranks_the_sum_of_the_hanchan_played_and_counts_them() -> None:
    """Ana plays one hanchan (+25.0), Ben five (+5.0 each: +25.0 in all), Cho two (-10.0, +40.0); Dai
    checked in and played none: listed, not ranked. Ana and Ben share 2nd on equal sums."""
    entrants = [Entrant(1, "Ana"), Entrant(2, "Ben"), Entrant(3, "Cho"), Entrant(4, "Dai")]
    results = [HanchanResult(1, 1, 40000, 1, Decimal("25.0"))]
    results += [HanchanResult(2, number, 30000, 2, Decimal("5.0")) for number in range(1, 6)]
    results += [
        HanchanResult(3, 2, 25000, 3, Decimal("-10.0")),
        HanchanResult(3, 4, 55000, 1, Decimal("40.0")),
    ]
    standings = compute_standings(club.session_entrants(entrants, results), results)
    rows = [(row.name, row.rank, row.total, row.played, row.note) for row in standings.rows]
    assert rows == [
        ("Cho", 1, Decimal("30.0"), 2, ""),
        ("Ana", 2, Decimal("25.0"), 1, ""),
        ("Ben", 2, Decimal("25.0"), 5, ""),
        ("Dai", None, Decimal(0), 0, club.NOT_PLAYED),
    ]


def test_an_entrant_unranked_for_another_reason_keeps_it() -> None:
    entrants = [Entrant(1, "Ana", ranked=False, note="Substitute")]
    results = [HanchanResult(1, 1, 40000, 1, Decimal("25.0"))]
    assert club.session_entrants(entrants, results) == entrants


def test_a_players_state_in_a_session() -> None:
    seated = Facts(checked_in=True, seated=frozenset({1, 3}))
    assert club.session_state(seated, {3}) == State.PLAYING
    assert club.session_state(seated, {4}) == State.CHECKED_IN
    assert club.session_state(Facts(), {3}) == State.REGISTERED  # never "did not start"
    assert club.session_state(Facts(checked_in=True, seated=frozenset({1})), set()) == State.CHECKED_IN


FORMED = datetime(2026, 11, 26, 19, 30, tzinfo=UTC)


def test_a_table_with_nothing_saved_is_taken_back() -> None:
    assert club.take_back_problems(club.FormedTable(hanchan=3, formed_at=FORMED)) == []


def test_a_table_with_a_sheet_or_a_penalty_stays() -> None:
    saved = club.FormedTable(hanchan=3, formed_at=FORMED, sheet_saved=True, penalty_given=True)
    problems = club.take_back_problems(saved)
    assert [(p.field, p.rule) for p in problems] == [("table", "sheet-saved"), ("table", "penalty-given")]
    assert problems[0].message == (
        "table: a score sheet has been saved for the table of hanchan 3; a referee corrects it instead"
    )


def test_the_player_who_formed_a_table_takes_it_back_for_ten_minutes() -> None:
    table = club.FormedTable(hanchan=2, formed_at=FORMED, formed_by=7)
    limit = FORMED + timedelta(minutes=club.TAKE_BACK_MINUTES)
    assert club.take_back_refused_to(table, 7, FORMED) is None
    assert club.take_back_refused_to(table, 7, limit) is None
    late = club.take_back_refused_to(table, 7, limit + timedelta(seconds=1))
    assert late is not None and (late.field, late.rule) == ("table", "take-back-time")
    assert "formed more than 10 minutes ago" in late.message
    other = club.take_back_refused_to(table, 8, FORMED)
    assert other is not None and other.rule == "formed-by-the-player"
    # A table the organisers formed: no player takes it back.
    by_staff = club.FormedTable(hanchan=2, formed_at=FORMED)
    refused = club.take_back_refused_to(by_staff, 7, FORMED)
    assert refused is not None and refused.rule == "formed-by-the-player"
