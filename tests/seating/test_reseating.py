"""Re-seating after hanchan were played, and separation of teams, clubs and countries."""

from __future__ import annotations

import pytest

from tournament.seating import NEVER, PlayerInfo, SeparationRule, generate, quality_report

from .helpers import QUICK, assert_valid, pair_counts


def test_played_hanchan_are_kept_and_count_in_the_history() -> None:
    first = generate(40, 8, seed=1, time_limit=QUICK)
    played = first.rounds[:4]
    again = generate(40, 8, seed=99, fixed_rounds=played, time_limit=QUICK)
    assert again.rounds[:4] == played
    assert again.fixed_rounds == 4
    assert again.rounds[4:] != first.rounds[4:]
    assert_valid(again.rounds, range(1, 41))
    report = quality_report(again)
    assert report["excess_meetings"] == 0  # new hanchan avoid everyone met in the played ones
    assert report["wind_imbalance"] <= 1
    assert report["consecutive_table_repeats"] == 0


def test_withdrawn_player_and_substitute() -> None:
    first = generate(32, 7, seed=4, time_limit=2)
    played = first.rounds[:3]
    # Player 5 withdraws and player 33 takes the seat for the remaining hanchan.
    remaining = [p for p in range(1, 33) if p != 5] + [33]
    schedule = generate(remaining, 7, seed=4, fixed_rounds=played, time_limit=2)
    assert schedule.rounds[:3] == played
    for hanchan in schedule.rounds[3:]:
        seated = sorted(p for table in hanchan for p in table)
        assert seated == sorted(remaining)
    future = pair_counts(schedule.rounds[3:])
    past = pair_counts(played)
    assert not any(future[pair] and past[pair] for pair in future)


def test_smaller_field_after_withdrawals() -> None:
    first = generate(24, 6, seed=2, time_limit=QUICK)
    played = first.rounds[:2]
    remaining = list(range(1, 21))  # four players left: 20 players, 5 tables
    schedule = generate(remaining, 6, seed=2, fixed_rounds=played, time_limit=QUICK)
    assert schedule.rounds[:2] == played
    for hanchan in schedule.rounds[2:]:
        assert len(hanchan) == 5
        assert sorted(p for t in hanchan for p in t) == remaining


def test_everything_already_played() -> None:
    first = generate(16, 3, seed=1)
    again = generate(16, 3, fixed_rounds=first.rounds)
    assert again.rounds == first.rounds


def test_bad_played_hanchan_is_refused() -> None:
    with pytest.raises(ValueError):
        generate(8, 2, fixed_rounds=[[[1, 2, 3], [4, 5, 6, 7]]])
    with pytest.raises(ValueError):
        generate(8, 2, fixed_rounds=[[[1, 2, 3, 4], [4, 5, 6, 7]]])
    with pytest.raises(ValueError):
        generate(8, 1, fixed_rounds=[[[1, 2, 3, 4], [5, 6, 7, 8]]] * 2)


def _players(count: int, teams: int, attr: str) -> list[PlayerInfo]:
    return [PlayerInfo(i + 1, **{attr: f"{attr}-{i % teams}"}) for i in range(count)]


@pytest.mark.parametrize("attr", ["team", "club", "country"])
def test_members_never_meet(attr: str) -> None:
    players = _players(48, 12, attr)  # 12 groups of 4
    schedule = generate(players, 6, seed=3, separate=SeparationRule(**{attr: NEVER}), time_limit=QUICK)
    label = {p.id: getattr(p, attr) for p in players}
    for hanchan in schedule.rounds:
        for table in hanchan:
            assert len({label[p] for p in table}) == 4
    assert quality_report(schedule)["excess_meetings"] == 0


def test_compatriots_apart_until_a_given_hanchan() -> None:
    players = [PlayerInfo(i + 1, country=["JP", "FR", "DE", "NL"][i % 4]) for i in range(32)]
    schedule = generate(players, 8, seed=3, separate=SeparationRule(country=5), time_limit=3)
    country = {p.id: p.country for p in players}
    for hanchan in schedule.rounds[:4]:
        for table in hanchan:
            assert len({country[p] for p in table}) == 4
    met_later = any(
        len({country[p] for p in table}) < 4 for hanchan in schedule.rounds[4:] for table in hanchan
    )
    assert met_later  # from hanchan 5 on they may meet (8 players per country cannot avoid it)
    assert quality_report(schedule)["excess_meetings"] == 0


def test_separation_never_costs_a_repeat_meeting() -> None:
    # 16 players in 4 teams of 4 and 5 hanchan: the only repeat-free schedule makes everyone meet.
    players = _players(16, 4, "team")
    schedule = generate(players, 5, seed=1, separate=SeparationRule(team=NEVER), time_limit=QUICK)
    assert quality_report(schedule)["excess_meetings"] == 0


def test_separation_with_played_hanchan() -> None:
    players = _players(48, 12, "club")
    rule = SeparationRule(club=NEVER)
    first = generate(players, 6, seed=8, separate=rule, time_limit=QUICK)
    again = generate(players, 6, seed=9, separate=rule, fixed_rounds=first.rounds[:3], time_limit=QUICK)
    club = {p.id: p.club for p in players}
    for hanchan in again.rounds:
        for table in hanchan:
            assert len({club[p] for p in table}) == 4
