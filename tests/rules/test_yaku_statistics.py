"""Yaku statistics (``tournament.core.statistics``, from the yaku the replay keeps) against values worked out
by
hand. No database.

One sheet under WRCR 2015, seats Ana East, Ben South, Cho West, Dai North, ended by time:
 1 E1 ron Ben on Cho: Riichi (declared) + Pinfu + All Simples + 1 dora = 4 han 30 fu, base 1,920
   rounded up to a mangan (§6.1): value 8,000.
 2 E2 (Ben deals) tsumo Ana, open All Simples, 1 han 30 fu: 500 from the dealer, 300 from each other:
   value 1,100.
 3 E3 (Cho deals) ron Cho on Dai, open White Dragon, 1 han 40 fu: base 320, dealer ron 1,920 -> 2,000:
   value 2,000. The dealer keeps the deal.
 4 E3-1 ron Dai on Ana, 2 han 30 fu entered without yaku: value 2,000 (its yaku unknown).

Known yaku in 3 wins of 4 (hands 1-3), values 8,000 + 1,100 + 2,000 = 11,100, average 3,700; 1 dora in
3 wins: 0.3 per win (one decimal, half up).
 All Simples: 2 wins (hands 1, 2), 66.7 %, 2 han, 9,100 points, average 4,550.
 Riichi, Pinfu: 1 win each (hand 1), 33.3 %, 1 han, 8,000 points.
 Yakuhai (White Dragon): 1 win (hand 3), 33.3 %, 1 han, 2,000 points.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from scoring.rules.replay import replay
from scoring.rules.ruleset import get_ruleset
from tournament.core.statistics import SheetRecord, player_statistics, tournament_statistics

WRC = get_ruleset("WRC2015")
NAMES = ["Ana", "Ben", "Cho", "Dai"]
IDS = {"Ana": 1, "Ben": 2, "Cho": 3, "Dai": 4}
HANDS: list[dict[str, Any]] = [
    {
        "result": "ron",
        "winner": "Ben",
        "loser": "Cho",
        "yaku": ["pinfu", "tanyao"],
        "dora": 1,
        "riichi": ["Ben"],
    },
    {"result": "tsumo", "winner": "Ana", "yaku": ["tanyao"], "open": True, "fu": 30, "riichi": []},
    {
        "result": "ron",
        "winner": "Cho",
        "loser": "Dai",
        "yaku": ["yakuhai_haku"],
        "open": True,
        "fu": 40,
        "riichi": [],
    },
    {"result": "ron", "winner": "Dai", "loser": "Ana", "han": 2, "fu": 30, "riichi": []},
]


def sheet() -> SheetRecord:
    verdict = replay({"players": NAMES, "hands": HANDS, "ended_by_time": True}, WRC)
    assert verdict.valid, verdict.errors
    assert verdict.final_points is not None and verdict.ranks is not None and verdict.scores is not None
    return SheetRecord(
        hanchan=1,
        table=1,
        players=tuple(NAMES),
        player_ids=tuple(IDS[name] for name in NAMES),
        ranks=verdict.ranks,
        points=verdict.final_points,
        scores=verdict.scores,
        replay=verdict.as_json(),
    )


def test_the_tournaments_yaku_figures_are_the_worked_ones() -> None:
    stats = tournament_statistics([sheet()], WRC)
    yaku = stats.yaku
    assert (yaku.wins, yaku.value_total, yaku.average_value) == (3, 11100, Decimal(3700))
    assert (yaku.dora_total, yaku.average_dora) == (1, Decimal("0.3"))
    rows = [(f.yaku, f.wins, f.percent, f.han_total, f.value_total, f.average_value) for f in yaku.figures]
    assert rows == [
        ("tanyao", 2, Decimal("66.7"), 2, 9100, Decimal(4550)),
        ("riichi", 1, Decimal("33.3"), 1, 8000, Decimal(8000)),
        ("pinfu", 1, Decimal("33.3"), 1, 8000, Decimal(8000)),
        ("yakuhai_haku", 1, Decimal("33.3"), 1, 2000, Decimal(2000)),
    ]
    assert [f.yaku for f in yaku.most_points] == ["tanyao", "riichi", "pinfu", "yakuhai_haku"]
    assert [f.name for f in yaku.figures][:1] == ["All Simples"]
    data = stats.as_json()["yaku"]
    assert data["wins"] == 3 and data["average_value"] == 3700 and data["average_dora"] == "0.3"
    assert data["yaku"][0] == {
        "yaku": "tanyao", "wins": 2, "percent": "66.7", "han": 2, "average_value": 4550, "points": 9100,
    }  # fmt: skip
    assert data["most_points"] == ["tanyao", "riichi", "pinfu", "yakuhai_haku"]


def test_each_players_yaku_figures_are_the_worked_ones() -> None:
    records = [sheet()]
    ben = player_statistics(IDS["Ben"], records, WRC).yaku
    assert (ben.wins, ben.value_total) == (1, 8000)
    assert [(f.yaku, f.wins, f.percent, f.value_total) for f in ben.figures] == [
        ("riichi", 1, Decimal("100.0"), 8000),
        ("pinfu", 1, Decimal("100.0"), 8000),
        ("tanyao", 1, Decimal("100.0"), 8000),
    ]
    ana = player_statistics(IDS["Ana"], records, WRC).yaku
    assert [(f.yaku, f.han_total, f.value_total) for f in ana.figures] == [("tanyao", 1, 1100)]
    # Dai won once, with han only: no yaku known, no figure.
    dai = player_statistics(IDS["Dai"], records, WRC)
    assert dai.wins == 1 and dai.yaku.wins == 0 and dai.yaku.figures == ()
    assert dai.as_json()["yaku"] == {
        "wins": 0, "average_value": None, "average_dora": None, "yaku": [], "most_points": [],
    }  # fmt: skip


def test_yaku_scored_from_tiles_count_too() -> None:
    tiles = {"concealed": "234678m345p567s99s", "win_tile": "9s", "melds": [], "dora_indicators": ["1z"]}
    verdict = replay(
        {"players": NAMES, "hands": [{"result": "tsumo", "winner": "Ben", "tiles": tiles, "riichi": []}]}, WRC
    )
    record = SheetRecord(1, 1, tuple(NAMES), (1, 2, 3, 4), {}, {}, {}, verdict.as_json())
    yaku = tournament_statistics([record], WRC).yaku
    # Fully Concealed Hand alone, 1 han 30 fu self-draw: 500 from the dealer, 300 from each other.
    assert [(f.yaku, f.wins, f.value_total) for f in yaku.figures] == [("menzen_tsumo", 1, 1100)]
