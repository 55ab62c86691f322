"""The statistics of hands, players and a tournament (``scoring.rules.statistics``,
``tournament.core.statistics``)
against values worked out by hand. No database.

Two sheets. The first is ``tests/scoring/hanchan.py`` (WRCR 2015, its hands worked out in its docstring);
the second, under EMA 2016 (multiple ron allowed, each winner paid the counters), worked out here:

Seats: Ana East, Ben South, Cho West, Dai North.
 1 E1 draw, Ana tenpai with riichi: noten payments 1,000 each to Ana, her stake on the table.
   Ana +2,000, the others -1,000; 1 stick; the dealer stays, 1 honba.
 2 E1-1 multiple ron on Ben's discard: Cho 2/30 (2,000), Dai 1/40 (1,300), Cho in riichi. Each is paid
   300 for the honba; Cho, closest to Ben in turn order, takes the 2 sticks (Ana's and his own).
   Ben -3,900; Cho -1,000 + 2,300 + 2,000 = +3,300; Dai +1,600. Values: Cho 2,000, Dai 1,300.
 3 E2 Ben (dealer) tsumo yakuman: 16,000 all, value 48,000 (a dealer's yakuman).
 4 E2-1 ron Ana on Dai's discard, 3/30: 3,900 + 300 = 4,200, value 3,900. Ended by time.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from scoring.rules.replay import replay
from scoring.rules.ruleset import get_ruleset
from scoring.rules.statistics import hand_facts, is_yakuman
from tests.scoring import hanchan
from tournament.core.statistics import SheetRecord, player_statistics, tournament_statistics

WRC = get_ruleset("WRC2015")
EMA = get_ruleset("EMA2016")
NAMES = ["Ana", "Ben", "Cho", "Dai"]
IDS = {"Ana": 1, "Ben": 2, "Cho": 3, "Dai": 4}

SECOND_HANDS: list[dict[str, Any]] = [
    {"result": "draw", "tenpai": ["Ana"], "riichi": ["Ana"]},
    {
        "result": "ron",
        "loser": "Ben",
        "riichi": ["Cho"],
        "wins": [{"winner": "Cho", "han": 2, "fu": 30}, {"winner": "Dai", "han": 1, "fu": 40}],
    },
    {"result": "tsumo", "winner": "Ben", "yakuman": 1, "riichi": []},
    {"result": "ron", "winner": "Ana", "loser": "Dai", "han": 3, "fu": 30, "riichi": []},
]


def record(sheet: dict[str, Any], ruleset: Any, hanchan_number: int, table: int) -> SheetRecord:
    verdict = replay({"players": NAMES, **sheet}, ruleset)
    assert verdict.valid, verdict.errors
    assert verdict.final_points is not None
    data = verdict.as_json()
    ranks = verdict.ranks or {name: 0 for name in NAMES}
    scores = verdict.scores or {name: Decimal(0) for name in NAMES}
    return SheetRecord(
        hanchan=hanchan_number,
        table=table,
        players=tuple(NAMES),
        player_ids=tuple(IDS[name] for name in NAMES),
        ranks=ranks,
        points=verdict.final_points,
        scores=scores,
        replay=data,
    )


def first(form: str = "outcomes") -> SheetRecord:
    hands = hanchan.OUTCOMES if form == "outcomes" else hanchan.DELTAS
    return record({"hands": [dict(h) for h in hands]}, WRC, 1, 1)


def second() -> SheetRecord:
    return record({"hands": SECOND_HANDS, "ended_by_time": True}, EMA, 2, 3)


def test_facts_of_the_worked_hanchan_in_either_form() -> None:
    for form in ("outcomes", "deltas"):
        facts = hand_facts(first(form).replay, WRC)
        assert [f.result for f in facts] == [
            "ron", "tsumo", "draw", "ron", "ron", "tsumo", "chombo", "ron", "ron", "ron", "ron",
        ]  # fmt: skip
        # Values without counters or sticks, from the docstring of tests/scoring/hanchan.py.
        assert [f.values for f in facts if f.is_win] == [
            {"Ben": 2000},
            {"Cho": 1100},  # 1/30 tsumo: 300 + 300 + 500; his stick comes back to him
            {"Dai": 3900},  # dealer 2/40 with 1 honba (300) and Dai's own stick: value 3,900
            {"Ana": 1000},  # 1/30 with 2 honba (600)
            {"Ana": 12000},  # dealer mangan tsumo, 4,000 all
            {"Ben": 3900},  # 3/30 with the honba that stays after the chombo
            {"Cho": 1300},
            {"Dai": 2000},
            {"Ana": 1000},
        ]
        assert [f.discarders for f in facts if f.result == "ron"] == [
            ("Cho",), ("Ana",), ("Ben",), ("Ana",), ("Dai",), ("Ben",), ("Dai",),
        ]  # fmt: skip
        assert facts[6].offenders == ("Cho",) and not facts[6].is_played
        assert [f.riichi for f in facts if f.riichi] == [("Cho",), ("Dai",)]


def test_multiple_ron_and_yakuman() -> None:
    facts = hand_facts(second().replay, EMA)
    assert facts[1].result == "multiple ron"
    assert facts[1].winners == ("Cho", "Dai") and facts[1].discarders == ("Ben",)
    assert facts[1].values == {"Cho": 2000, "Dai": 1300}
    assert facts[2].values == {"Ben": 48000} and facts[2].yakuman_of("Ben")
    assert facts[3].values == {"Ana": 3900} and not facts[3].yakuman_of("Ana")
    assert is_yakuman(32000, dealer=False) and not is_yakuman(32000, dealer=True)
    assert not is_yakuman(24000, dealer=False)  # a sanbaiman


def test_player_statistics_by_hand() -> None:
    sheets = [first(), second()]
    ana = player_statistics(IDS["Ana"], sheets, WRC)
    # Hanchan 1: 10 hands played (11 entries less the chombo re-deal); Ana wins hands 5, 6 and 11
    # (1,000, 12,000 tsumo, 1,000) and deals in on hands 4 and 8. Hanchan 2: 4 hands; Ana wins hand 4
    # (3,900), declares riichi in hand 1, deals in on none.
    assert (ana.hanchan, ana.hand_hanchan, ana.hands) == (2, 2, 14)
    assert (ana.wins, ana.tsumo, ana.deal_ins, ana.riichi, ana.yakuman, ana.chombo) == (4, 1, 2, 1, 0, 0)
    assert ana.win_rate == Decimal("28.6")  # 4 / 14 = 28.57 %
    assert ana.deal_in_rate == Decimal("14.3")  # 2 / 14
    assert ana.riichi_rate == Decimal("7.1")  # 1 / 14
    assert ana.tsumo_share == Decimal("25.0")  # 1 / 4
    assert ana.average_win_value == Decimal("4475")  # (1,000 + 12,000 + 1,000 + 3,900) / 4 = 4,475
    # Hanchan 1: Ana first with 37,400 (22.4); hanchan 2 (ended by time): Ana second with 20,200.
    assert ana.placements == (1, 1, 0, 0)
    assert ana.average_points == Decimal("28800")  # (37,400 + 20,200) / 2
    ema_ana = second().scores["Ana"]
    assert ana.average_score == ((Decimal("22.4") + ema_ana) / 2).quantize(Decimal("0.01"))
    assert ana.series[0].points[:3] == (30000, 30000, 29700) and ana.series[0].points[-1] == 37400
    assert ana.series[1].points == (30000, 32000, 32000, 16000, 20200)

    cho = player_statistics(IDS["Cho"], sheets, WRC)
    # Wins: hanchan 1 hands 2 (tsumo 1,100) and 9 (1,300); hanchan 2 hand 2 (2,000). Riichi: hanchan 1
    # hand 2, hanchan 2 hand 2. Deal-in: hanchan 1 hand 1. One chombo (hanchan 1 hand 7).
    assert (cho.wins, cho.tsumo, cho.riichi, cho.deal_ins, cho.chombo) == (3, 1, 2, 1, 1)
    assert cho.average_win_value == Decimal("1467")  # 4,400 / 3 = 1,466.7

    ben = player_statistics(IDS["Ben"], sheets, WRC)
    assert (ben.yakuman, ben.wins, ben.deal_ins) == (1, 3, 3)  # deal-ins: h1 hands 5, 10; h2 hand 2
    nobody = player_statistics(99, sheets, WRC)
    assert nobody.hanchan == 0 and nobody.win_rate is None and nobody.average_score is None


def test_final_points_sheets_count_placements_and_chombo_only() -> None:
    verdict_sheet = SheetRecord(
        hanchan=1,
        table=1,
        players=tuple(NAMES),
        player_ids=(1, 2, 3, 4),
        ranks={"Ana": 1, "Ben": 3, "Cho": 4, "Dai": 2},
        points=dict(hanchan.FINAL_POINTS),
        scores={name: Decimal(value) for name, value in hanchan.SCORES.items()},
        replay={"valid": True, "final_points": dict(hanchan.FINAL_POINTS), "chombo": [{"player": "Cho"}]},
    )
    cho = player_statistics(3, [verdict_sheet], WRC)
    assert (cho.hanchan, cho.hand_hanchan, cho.hands, cho.chombo, cho.placements) == (
        1,
        0,
        0,
        1,
        (0, 0, 0, 1),
    )
    assert cho.win_rate is None and cho.series[0].points == (30000, 24900)


def test_tournament_statistics() -> None:
    stats = tournament_statistics([first(), second()], WRC)
    # Hands: 10 + 4. Ron: 7 + 1 (hanchan 2 hand 4); tsumo 2 + 1; one multiple ron; draws 1 + 1.
    assert (stats.hanchan, stats.hand_hanchan, stats.hands) == (2, 2, 14)
    assert (stats.ron, stats.tsumo, stats.multiple_ron, stats.draws) == (8, 3, 1, 2)
    assert stats.wins == 13  # 8 + 3 + the two winners of the multiple ron
    assert (stats.riichi, stats.yakuman, stats.chombo) == (4, 1, 1)
    assert [(o.label, o.count, o.percent) for o in stats.outcomes] == [
        ("Ron", 8, Decimal("57.1")),
        ("Tsumo", 3, Decimal("21.4")),
        ("Exhaustive draw", 2, Decimal("14.3")),
        ("Multiple ron", 1, Decimal("7.1")),
    ]
    # Non-dealer ron 1,000: hanchan 1 hands 5 and 11; 2,000: hanchan 1 hands 1 and 10, hanchan 2 Cho.
    assert stats.common_wins[0].label == "non-dealer ron 2,000" and stats.common_wins[0].count == 3
    assert stats.common_wins[1].label == "non-dealer ron 1,000" and stats.common_wins[1].count == 2
    assert [(h.hanchan, h.table, h.hands) for h in stats.longest] == [(1, 1, 10), (2, 3, 4)]
    top = stats.biggest[0]
    assert (top.value, top.winner, top.dealer, top.result, top.hanchan, top.table, top.round, top.number) == (
        48000, "Ben", True, "tsumo", 2, 3, "East 2", 3,
    )  # fmt: skip
    assert top.yakuman and (stats.biggest[1].value, stats.biggest[1].winner) == (12000, "Ana")
    data = stats.as_json()
    assert data["totals"]["hands"] == 14 and data["outcomes"][0]["percent"] == "57.1"
    assert data["biggest_hands"][0]["winner"] == "Ben"


def test_no_sheets() -> None:
    stats = tournament_statistics([], WRC)
    assert stats.hands == 0 and stats.outcomes == () and stats.biggest == ()


def test_a_damaged_replay_reads_as_empty_not_as_an_error() -> None:
    junk: dict[str, Any] = {
        "players": NAMES,
        "hands": [
            "not a hand",
            {"result": "ron", "winners": "Ana", "deltas": [1, 2], "riichi": 5, "honba": "x"},
            {"result": "tsumo", "winners": ["Zed"], "deltas": {"Ana": "1000"}, "points": None},
            {"result": "surprise"},
            {"result": "draw", "riichi": ["Ana"], "deltas": {"Ana": 1000, "Ben": True}},
        ],
        "chombo": "Cho",
    }
    facts = hand_facts(junk, WRC)
    assert [f.is_played for f in facts] == [False, True, True, False, True]
    assert all(not f.winners and not f.values for f in facts)
    ones, start, zero = dict.fromkeys(NAMES, 1), dict.fromkeys(NAMES, 30000), dict.fromkeys(NAMES, Decimal(0))
    sheet = SheetRecord(1, 1, tuple(NAMES), (1, 2, 3, 4), ones, start, zero, junk)
    ana = player_statistics(1, [sheet], WRC)
    assert (ana.hands, ana.wins, ana.riichi, ana.chombo) == (3, 0, 1, 0)
    assert tournament_statistics([sheet], WRC).hands == 3
    assert hand_facts({"players": NAMES[:3], "hands": []}, WRC) == []
