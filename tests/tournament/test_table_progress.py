"""Live tables in plain Python (``tournament.core.table_progress``): a table's running points, riichi sticks,
honba and hand being played after each hand of a draft, worked out by hand for the hanchan of
``tests/scoring/hanchan.py`` (WRCR 2015), entered as outcomes and as point changes; the hand that follows
agrees with the rules engine's own replay of one more hand on every sheet of the replay tests; and the
slow-table rule, with hand-counted figures. No database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from scoring.rules.replay import replay
from scoring.rules.ruleset import get_ruleset
from scoring.rules.sheet import ROUND_LABELS
from tests.rules.test_replay import SHEETS
from tests.scoring.hanchan import DELTAS, OUTCOMES
from tournament.core.table_progress import (
    RULE_BEHIND,
    RULE_IDLE,
    Flag,
    SeatEntry,
    TableEntry,
    TableState,
    disputed_first,
    next_hand,
    slow_tables,
    table_state,
    tables_playing,
)

NAMES = ("Ana", "Ben", "Cho", "Dai")
SEATS = tuple(SeatEntry(wind, 100 + wind, name) for wind, name in enumerate(NAMES))
AT = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)

# After each number of hands of tests/scoring/hanchan.py (its docstring shows the work): the points of
# Ana, Ben, Cho and Dai, the riichi sticks on the table, the honba and the hand being played.
AFTER: list[tuple[tuple[int, int, int, int], int, int, str | None]] = [
    ((30000, 30000, 30000, 30000), 0, 0, "East 1"),
    ((30000, 32000, 28000, 30000), 0, 0, "East 2"),  # Ben (not the dealer) wins: the deal passes
    ((29700, 31500, 29100, 29700), 0, 0, "East 3"),  # Cho's tsumo 300/500, her riichi stick back
    ((31200, 30000, 27600, 30200), 1, 1, "East 4"),  # a draw, dealer Cho noten: Dai's riichi stick waits
    ((27000, 30000, 27600, 35400), 0, 2, "East 4"),  # dealer Dai wins 3,900 + 300 + the stick: 2 honba
    ((28600, 28400, 27600, 35400), 0, 0, "South 1"),  # Ana wins 1,000 + 600: the deal passes
    ((40600, 24400, 23600, 31400), 0, 1, "South 1"),  # dealer Ana's mangan tsumo: she keeps the deal
    ((40600, 24400, 23600, 31400), 0, 1, "South 1"),  # Cho's chombo: re-dealt, nothing added
    ((36400, 28600, 23600, 31400), 0, 0, "South 2"),
    ((36400, 28600, 24900, 30100), 0, 0, "South 3"),
    ((36400, 26600, 24900, 32100), 0, 0, "South 4"),
    ((37400, 26600, 24900, 31100), 0, 0, None),  # a non-dealer win in South 4 ends the hanchan
]


def draft(hands: list[dict[str, Any]], ruleset: str = "WRC2015", **more: Any) -> dict[str, Any]:
    """The replay the database stores for a draft of these hands (``ScoreSheet.replay``)."""
    return replay({"ruleset": ruleset, "players": list(NAMES), "hands": hands, **more}).as_json()


def state(replayed: dict[str, Any] | None, status: str | None = "draft", **more: Any) -> TableState:
    entry = TableEntry.of_replay(1, SEATS, status, replayed, **more)
    return table_state(entry, starting_points=30000, riichi_stick=1000)


@pytest.mark.parametrize("hands", [OUTCOMES, DELTAS], ids=["outcomes", "point-changes"])
@pytest.mark.parametrize("count", range(len(AFTER)))
def test_after_each_hand_the_table_stands_as_worked_out_by_hand(
    hands: list[dict[str, Any]], count: int
) -> None:
    points, sticks, honba, hand = AFTER[count]
    table = state(draft([dict(h) for h in hands[:count]]))
    assert table.points == points
    assert table.riichi_sticks == sticks
    assert table.honba == honba
    assert table.hand_label() == hand
    assert table.hands_played == count
    assert table.status == ("over" if hand is None else "playing")


def test_a_table_without_a_sheet_waits_at_east_1() -> None:
    table = state(None, status=None)
    assert table.status == "waiting" and table.points == (30000,) * 4
    assert (table.riichi_sticks, table.honba, table.hand_label(), table.hands_played) == (0, 0, "East 1", 0)


def test_a_handed_in_sheet_shows_its_final_points() -> None:
    replayed = draft([dict(h) for h in OUTCOMES])
    for status in ("submitted", "signed", "disputed"):
        table = state(replayed, status=status)
        assert table.status == status and table.points == AFTER[-1][0]
        assert table.hand_label() is None and table.hands_played == len(OUTCOMES)


def test_a_sheet_of_final_points_only_has_no_hands() -> None:
    final = {"valid": True, "final_points": {"Ana": 41000, "Ben": 30000, "Cho": 20000, "Dai": 28000}}
    final["riichi_sticks_left"] = 1
    table = state(final, status="submitted")
    assert table.points == (41000, 30000, 20000, 28000) and table.riichi_sticks == 1
    assert table.hands_played is None and table.hand_label() is None


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_the_next_hand_is_the_one_the_engine_replays_next(name: str) -> None:
    """Every prefix of every sheet of the replay tests: the hand that follows, as the engine replays it,
    is the one ``next_hand`` names (round, honba), with the sticks the live state counts."""
    sheet = SHEETS[name][0]
    full = replay(sheet).as_json()
    for count in range(len(full["hands"]) - 1):
        following = full["hands"][count + 1]
        assert next_hand(full["hands"][count]) == (ROUND_LABELS.index(following["round"]), following["honba"])
        prefix = replay({**sheet, "hands": sheet["hands"][: count + 1]}).as_json()
        rules = get_ruleset(sheet.get("ruleset", "WRC2015"))
        live = table_state(
            TableEntry.of_replay(1, SEATS, "draft", prefix), rules.starting_points, rules.riichi_stick
        )
        assert live.riichi_sticks == following["sticks"], (name, count)


def test_after_three_hands_dai_deals_east_4_and_the_winds_have_turned() -> None:
    """East 4 (tests/scoring/hanchan.py after its draw in East 3): the North seat of the seating, Dai,
    deals and is East; Ana, the first dealer, is South now."""
    table = state(draft([dict(h) for h in OUTCOMES[:3]]))
    assert (table.hand_label(), table.dealer) == ("East 4", 3)
    assert dict(zip(NAMES, table.seat_winds(), strict=True)) == {"Ana": 1, "Ben": 2, "Cho": 3, "Dai": 0}
    over = state(draft([dict(h) for h in OUTCOMES]))
    assert (over.dealer, over.seat_winds()) == (None, (None,) * 4)


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_the_dealer_is_the_one_the_engine_deals_next(name: str) -> None:
    """Every prefix of every sheet of the replay tests: the seat ``dealer`` names, and the one seat whose
    wind is East, is the dealer of the hand the engine replays next."""
    sheet = SHEETS[name][0]
    full = replay(sheet).as_json()
    players = list(sheet["players"])
    seats = tuple(SeatEntry(wind, 100 + wind, player) for wind, player in enumerate(players))
    rules = get_ruleset(sheet.get("ruleset", "WRC2015"))
    for count in range(len(full["hands"]) - 1):
        dealer = full["hands"][count + 1]["dealer"]
        prefix = replay({**sheet, "hands": sheet["hands"][: count + 1]}).as_json()
        live = table_state(
            TableEntry.of_replay(1, seats, "draft", prefix), rules.starting_points, rules.riichi_stick
        )
        assert live.dealer is not None and players[live.dealer] == dealer, (name, count)
        assert [p for p, wind in zip(players, live.seat_winds(), strict=True) if wind == 0] == [dealer]
        assert sorted(live.seat_winds()) == [0, 1, 2, 3]


def test_a_table_plays_once_a_hand_is_entered_or_its_hanchan_has_begun() -> None:
    waiting = state(None, status=None)
    going = state(draft([dict(h) for h in OUTCOMES[:3]]))
    over = state(draft([dict(h) for h in OUTCOMES]))
    signed = state(draft([dict(h) for h in OUTCOMES]), status="signed")
    assert tables_playing([waiting] * 10, hanchan_begun=False) == 0  # the clock says "not started"
    assert tables_playing([waiting] * 10, hanchan_begun=True) == 10
    assert tables_playing([waiting, going, over, signed], hanchan_begun=False) == 1
    assert tables_playing([waiting, going, over, signed], hanchan_begun=True) == 2


def playing(
    number: int, hands: int | None, last: datetime | None, first: datetime | None = None
) -> TableState:
    return TableState(
        table=number,
        status="playing" if last else "waiting",
        seats=SEATS,
        points=(30000,) * 4,
        riichi_sticks=0,
        honba=0,
        round_index=0,
        hands_played=hands,
        last_entry_at=last,
        first_entry_at=first or last,
    )


def test_slow_tables_are_those_far_behind_the_median_or_long_without_an_entry() -> None:
    now = AT + timedelta(minutes=30)
    tables = [
        playing(1, 8, AT + timedelta(minutes=20), AT + timedelta(minutes=2)),  # 10 min ago: fine
        playing(2, 8, AT + timedelta(minutes=25), AT + timedelta(minutes=3)),
        playing(3, 7, AT + timedelta(minutes=29), AT + timedelta(minutes=4)),  # 1 behind: fine
        playing(4, 4, AT + timedelta(minutes=14), AT + timedelta(minutes=5)),  # 3 behind, 16 min
        playing(5, 9, AT + timedelta(minutes=28), AT + timedelta(minutes=6)),
        playing(6, 0, None),  # nothing entered: since the first entry of the hanchan, table 7's at 12:00
        # Handed in long ago: never flagged, though its hands count in the median.
        TableState(7, "signed", SEATS, (30000,) * 4, 0, 0, None, 12, AT, AT),
    ]
    # Hands played: 0 4 7 8 8 9 12, median 8.
    flags = slow_tables(tables, now, hands_behind=3, idle_minutes=15)
    assert flags == {
        4: (Flag(RULE_BEHIND, hands=4, median=8), Flag(RULE_IDLE, minutes=16)),
        6: (Flag(RULE_BEHIND, hands=8, median=8), Flag(RULE_IDLE, minutes=30)),
    }
    assert flags[4][0].as_json() == {"rule": "hands-behind", "hands": 4, "median": 8}
    assert flags[4][1].as_json() == {"rule": "no-entry", "minutes": 16}
    # The thresholds are the caller's: one hand less, and table 3 is behind too; 10 minutes, table 1 idle.
    stricter = slow_tables(tables, now, hands_behind=1, idle_minutes=10)
    assert stricter[3] == (Flag(RULE_BEHIND, hands=1, median=8),)
    assert stricter[1] == (Flag(RULE_IDLE, minutes=10),)


def test_with_an_even_count_the_lower_median_counts_and_an_empty_hanchan_flags_nobody() -> None:
    now = AT + timedelta(hours=2)
    tables = [playing(1, 2, AT), playing(2, 5, AT), playing(3, 6, AT), playing(4, 9, AT)]
    behind = slow_tables(tables, now, hands_behind=3, idle_minutes=999)
    assert behind == {1: (Flag(RULE_BEHIND, hands=3, median=5),)}  # the lower median of 2 5 6 9: 5
    assert slow_tables([playing(1, 0, None), playing(2, 0, None)], now) == {}


def test_a_referees_tables_put_the_disputed_sheets_first_and_keep_the_others_order() -> None:
    tables = [(1, "signed"), (2, None), (3, "disputed"), (4, "submitted"), (5, "disputed"), (6, "draft")]
    ordered = disputed_first(tables, lambda table: table[1])
    assert [number for number, _ in ordered] == [3, 5, 1, 2, 4, 6]
