"""The awards (``tournament.core.awards``) on a small tournament built by hand: two hanchan entered hand by
hand under WRCR 2015, replayed by the rules engine, and one of final points only. No database.

Hanchan 1, table 1. Seats: Ana East, Ben South, Cho West, Dai North. Points after each hand:
 1 E1   Ana (dealer) tsumo 2/30: 1,000 all (value 3,000).        Ana 33,000, the others 29,000
 2 E1-1 Ana ron on Ben 3/30: 5,800 + 300 (value 5,800).           Ana 39,100 Ben 22,900
 3 E1-2 draw, Ana alone tenpai, in riichi: +3,000 - 1,000 stake.  Ana 41,100 Ben 21,900 Cho 28,000 Dai 28,000
 4 E1-3 Cho ron on Ana 4/40 mangan, Cho in riichi: 8,000 + 900 + 2 sticks (value 8,000).
                                                                  Ana 32,200 Cho 37,900
 5 E2   Dai ron on Ben (dealer) 1/30: 1,000.                      Ben 20,900 Dai 29,000
 6 E3   Ben ron on Cho (dealer) yakuman: 32,000.                  Ben 52,900 Cho 5,900
 Final: Ana 32,200, Ben 52,900 (1st), Cho 5,900, Dai 29,000.

Hanchan 2, table 1. Seats: Ben East, Ana South, Dai West, Cho North.
 1 E1   Dai ron on Ana 3/30, Dai in riichi: 3,900 (his stake back).   Ana 26,100 Dai 33,900
 2 E2   Ana (dealer) ron on Cho 4/30 (WRCR rounds up: mangan 12,000), Ana in riichi.
                                                                     Ana 38,100 Cho 18,000
 3 E2-1 Ana tsumo 1/30: 500 all + 100 each (value 1,500).   Ana 39,900 Ben 29,400 Dai 33,300 Cho 17,400
 4 E2-2 Cho ron on Ana 2/30, Cho in riichi: 2,000 + 600.              Ana 37,300 Cho 20,000
 Final: Ben 29,400, Ana 37,300 (1st), Dai 33,300, Cho 20,000.

Hanchan 3, table 1: final points only (no hands): counts for no award.

The awards over the three, by their definitions (the module's docstring):
 best hand: Ben's yakuman, 32,000 (hanchan 1, East 3, hand 6).
 most wins: Ana 4 (hands 1, 2 of hanchan 1; 2, 3 of hanchan 2); Cho 2, Dai 2, Ben 1.
 most riichi: Ana 2 (H1 hand 3, H2 hand 2) and Cho 2 (H1 hand 4, H2 hand 4): a tie, both shown.
 fewest deal-ins: each played 10 hands (minimum 5); deal-ins Ana 3 (H1-4, H2-1, H2-4), Ben 2 (H1-2,
   H1-5), Cho 2 (H1-6, H2-2), Dai 0: Dai, 0 of 10.
 longest dealer streak: Ana dealt hands 1 to 4 of hanchan 1 (3 renchan, from East 1); 2 in hanchan 2.
 best comeback: Ben, hanchan 1: lowest 20,900 after hand 5 (East 2), final 52,900 in 1st: 32,000
   (Ana in hanchan 2: 26,100 to 37,300, 11,200).
 most yakuman: Ben 1.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from scoring.rules.replay import replay
from scoring.rules.ruleset import get_ruleset
from tournament.core.awards import AWARDS, EventSheets, Feat, compute_awards, compute_series_awards
from tournament.core.statistics import SheetRecord

WRC = get_ruleset("WRC2015")
IDS = {"Ana": 1, "Ben": 2, "Cho": 3, "Dai": 4, "Eve": 5}

FIRST: list[dict[str, Any]] = [
    {"result": "tsumo", "winner": "Ana", "han": 2, "fu": 30, "riichi": []},
    {"result": "ron", "winner": "Ana", "loser": "Ben", "han": 3, "fu": 30, "riichi": []},
    {"result": "draw", "tenpai": ["Ana"], "riichi": ["Ana"]},
    {"result": "ron", "winner": "Cho", "loser": "Ana", "han": 4, "fu": 40, "riichi": ["Cho"]},
    {"result": "ron", "winner": "Dai", "loser": "Ben", "han": 1, "fu": 30, "riichi": []},
    {"result": "ron", "winner": "Ben", "loser": "Cho", "yakuman": 1, "riichi": []},
]
SECOND: list[dict[str, Any]] = [
    {"result": "ron", "winner": "Dai", "loser": "Ana", "han": 3, "fu": 30, "riichi": ["Dai"]},
    {"result": "ron", "winner": "Ana", "loser": "Cho", "han": 4, "fu": 30, "riichi": ["Ana"]},
    {"result": "tsumo", "winner": "Ana", "han": 1, "fu": 30, "riichi": []},
    {"result": "ron", "winner": "Cho", "loser": "Ana", "han": 2, "fu": 30, "riichi": ["Cho"]},
]


def record(seats: list[str], hands: list[dict[str, Any]], hanchan: int) -> SheetRecord:
    verdict = replay({"players": seats, "hands": hands, "ended_by_time": True}, WRC)
    assert verdict.valid, verdict.errors
    assert verdict.final_points is not None and verdict.ranks is not None and verdict.scores is not None
    return SheetRecord(
        hanchan=hanchan,
        table=1,
        players=tuple(seats),
        player_ids=tuple(IDS[name] for name in seats),
        ranks=verdict.ranks,
        points=verdict.final_points,
        scores=verdict.scores,
        replay=verdict.as_json(),
    )


def final_only() -> SheetRecord:
    """Hanchan 3: final points only, as a paper sheet gives them; no hands in its replay."""
    names = ["Cho", "Dai", "Ana", "Ben"]
    points = {"Cho": 80000, "Dai": 20000, "Ana": 10000, "Ben": 10000}
    return SheetRecord(
        hanchan=3,
        table=1,
        players=tuple(names),
        player_ids=tuple(IDS[name] for name in names),
        ranks={"Cho": 1, "Dai": 2, "Ana": 3, "Ben": 3},
        points=points,
        scores={name: Decimal(0) for name in names},
        replay={"players": names, "hands": []},
    )


def sheets() -> list[SheetRecord]:
    return [
        record(["Ana", "Ben", "Cho", "Dai"], FIRST, 1),
        record(["Ben", "Ana", "Dai", "Cho"], SECOND, 2),
        final_only(),
    ]


def test_the_worked_sheets_replay_to_the_points_of_the_docstring() -> None:
    first, second, _third = sheets()
    assert first.points == {"Ana": 32200, "Ben": 52900, "Cho": 5900, "Dai": 29000}
    assert second.points == {"Ben": 29400, "Ana": 37300, "Dai": 33300, "Cho": 20000}
    assert first.ranks["Ben"] == 1 and second.ranks["Ana"] == 1


def test_every_award_on_the_worked_tournament() -> None:
    result = compute_awards(sheets(), WRC)
    assert (result.hand_hanchan, result.hanchan, result.minimum_hands) == (2, 3, 5)
    won = {award.key: award.winners for award in result.awards}
    assert list(won) == list(AWARDS)
    assert won["best_hand"] == (Feat(2, 32000, 1, 1, "East 3", 6),)
    assert won["most_wins"] == (Feat(1, 4),)
    assert won["most_riichi"] == (Feat(1, 2), Feat(3, 2))  # a tie: both shown
    assert won["fewest_deal_ins"] == (Feat(4, Fraction(0), count=0, hands=10),)
    assert won["longest_dealer_streak"] == (Feat(1, 3, 1, 1, "East 1", 1),)
    assert won["best_comeback"] == (Feat(2, 32000, 1, 1, "East 2", 5, low=20900, final=52900),)
    assert won["most_yakuman"] == (Feat(2, 1),)


def test_only_eligible_players_win() -> None:
    """Ben a substitute (not eligible): the best hand is Ana's dealer mangan (12,000, hanchan 2, East 2,
    hand 2); the comeback Ana's 11,200 (26,100 after hand 1 to 37,300); no yakuman left; Ben's deal-ins
    and hands no longer count, the others' still do."""
    result = compute_awards(sheets(), WRC, eligible={1, 3, 4})
    won = {award.key: award.winners for award in result.awards}
    assert won["best_hand"] == (Feat(1, 12000, 2, 1, "East 2", 2),)
    assert won["best_comeback"] == (Feat(1, 11200, 2, 1, "East 1", 1, low=26100, final=37300),)
    assert won["most_yakuman"] == ()
    assert won["fewest_deal_ins"] == (Feat(4, Fraction(0), count=0, hands=10),)


def test_the_fewest_deal_ins_need_half_the_hands_of_the_busiest() -> None:
    """Eve (id 5) plays hanchan 2 in Dai's seat and as he did (no deal-in in its 4 hands); Dai plays
    only hanchan 1 (6 hands, no deal-in). Ana, Ben and Cho play 10 hands: the minimum is 5. Eve, with 4,
    is under it; Dai, 0 of 6, wins."""
    first, _second, third = sheets()
    hands = [
        {key: ("Eve" if value == "Dai" else value) for key, value in hand.items() if key != "riichi"}
        | {"riichi": ["Eve" if name == "Dai" else name for name in hand["riichi"]]}
        for hand in SECOND
    ]
    eve = record(["Ben", "Ana", "Eve", "Cho"], hands, 2)
    result = compute_awards([first, eve, third], WRC, chosen=["fewest_deal_ins"])
    assert result.minimum_hands == 5
    assert [award.key for award in result.awards] == ["fewest_deal_ins"]
    assert result.awards[0].winners == (Feat(4, Fraction(0), count=0, hands=6),)


def test_sheets_of_final_points_only_give_no_award() -> None:
    result = compute_awards([final_only()], WRC)
    assert result.hand_hanchan == 0
    assert all(award.winners == () for award in result.awards)


def test_an_unknown_award_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown"):
        compute_awards([], WRC, chosen=["prettiest_tiles"])


def test_a_series_adds_up_its_events_by_entrant_and_says_where() -> None:
    """The two worked hanchan as two events of a series (event 10: hanchan 1; event 20: hanchan 2, the
    first of its own tournament), each tournament's players under ids of their own (1-4 and 11-14),
    mapped to the series' entrants (Ana 101, Ben 102, Cho 103, Dai 104). Ana's wins add up across the
    events (2 + 2 = 4: without the mapping her two registrations would tie at 2); the riichi tie (Ana
    1 + 1, Cho 1 + 1), Dai's 0 deal-ins in 10 hands, and each
    hand or hanchan says its event."""
    first, second, _third = sheets()
    second = SheetRecord(
        hanchan=1,
        table=1,
        players=second.players,
        player_ids=tuple(IDS[name] + 10 for name in second.players),
        ranks=second.ranks,
        points=second.points,
        scores=second.scores,
        replay=second.replay,
    )
    entrants = {IDS[name]: 100 + IDS[name] for name in ("Ana", "Ben", "Cho", "Dai")}
    result = compute_series_awards(
        [
            EventSheets(10, [first], WRC, None, entrants),
            EventSheets(20, [second], WRC, None, {pk + 10: entrant for pk, entrant in entrants.items()}),
        ]
    )
    assert (result.hand_hanchan, result.hanchan, result.minimum_hands) == (2, 2, 5)
    won = {award.key: award.winners for award in result.awards}
    assert won["best_hand"] == (Feat(102, 32000, 1, 1, "East 3", 6, event=10),)
    assert won["most_wins"] == (Feat(101, 4),)
    assert won["most_riichi"] == (Feat(101, 2), Feat(103, 2))
    assert won["fewest_deal_ins"] == (Feat(104, Fraction(0), count=0, hands=10),)
    assert won["longest_dealer_streak"] == (Feat(101, 3, 1, 1, "East 1", 1, event=10),)
    assert won["best_comeback"] == (Feat(102, 32000, 1, 1, "East 2", 5, low=20900, final=52900, event=10),)
    assert won["most_yakuman"] == (Feat(102, 1),)
    # Only what was chosen, in the awards' order; an unknown award is refused as for a tournament.
    assert [a.key for a in compute_series_awards([], ["most_wins", "best_hand"]).awards] == [
        "best_hand",
        "most_wins",
    ]
    with pytest.raises(ValueError, match="prettiest"):
        compute_series_awards([], ["prettiest"])
