"""One whole hanchan, worked out by hand (WRCR 2015 payment table), in each form a referee can enter.

Seats: Ana East, Ben South, Cho West, Dai North.
 1 E1 ron Ben<-Cho 2/30: 2,000          A 30000 B 32000 C 28000 D 30000
 2 E2 tsumo Cho 1/30, riichi Cho:        A 29700 B 31500 C 29100 D 29700
 3 E3 draw, tenpai Ana Dai, riichi Dai:  A 31200 B 30000 C 27600 D 30200 (1 stick, 1 honba)
 4 E4 ron Dai(dealer)<-Ana 2/40: 3,900+300+stick      A 27000 D 35400 (dealer stays, 2 honba)
 5 E4 ron Ana<-Ben 1/30: 1,000+600                    A 28600 B 28400
 6 S1 tsumo Ana(dealer) 4/30: mangan (kiriage) 4,000 all  A 40600 B 24400 C 23600 D 31400
 7 S1 chombo Cho: re-deal, no payment, 1 honba stays
 8 S1 ron Ben<-Ana 3/30: 3,900+300                    A 36400 B 28600
 9 S2 ron Cho<-Dai 1/40: 1,300                        C 24900 D 30100
10 S3 ron Dai<-Ben 2/30: 2,000                        B 26600 D 32100
11 S4 ron Ana<-Dai 1/30: 1,000 (a non-dealer win in South 4 ends the hanchan)
Final: Ana 37,400 Ben 26,600 Cho 24,900 Dai 31,100; scores 22.4, -8.4, -20.1, 6.1.
"""

from __future__ import annotations

from typing import Any

FINAL_POINTS = {"Ana": 37400, "Ben": 26600, "Cho": 24900, "Dai": 31100}
SCORES = {"Ana": "22.4", "Ben": "-8.4", "Cho": "-20.1", "Dai": "6.1"}
CHOMBO = {"result": "chombo", "offender": "Cho", "riichi": []}

OUTCOMES: list[dict[str, Any]] = [
    {"result": "ron", "winner": "Ben", "loser": "Cho", "han": 2, "fu": 30, "riichi": []},
    {"result": "tsumo", "winner": "Cho", "han": 1, "fu": 30, "riichi": ["Cho"]},
    {"result": "draw", "tenpai": ["Ana", "Dai"], "riichi": ["Dai"]},
    {"result": "ron", "winner": "Dai", "loser": "Ana", "han": 2, "fu": 40, "riichi": []},
    {"result": "ron", "winner": "Ana", "loser": "Ben", "han": 1, "fu": 30, "riichi": []},
    {"result": "tsumo", "winner": "Ana", "han": 4, "fu": 30, "riichi": []},
    CHOMBO,
    {"result": "ron", "winner": "Ben", "loser": "Ana", "han": 3, "fu": 30, "riichi": []},
    {"result": "ron", "winner": "Cho", "loser": "Dai", "han": 1, "fu": 40, "riichi": []},
    {"result": "ron", "winner": "Dai", "loser": "Ben", "han": 2, "fu": 30, "riichi": []},
    {"result": "ron", "winner": "Ana", "loser": "Dai", "han": 1, "fu": 30, "riichi": []},
]


def deltas(a: int, b: int, c: int, d: int, riichi: list[str] | None = None) -> dict[str, Any]:
    return {"deltas": {"Ana": a, "Ben": b, "Cho": c, "Dai": d}, "riichi": riichi or []}


DELTAS: list[dict[str, Any]] = [
    deltas(0, 2000, -2000, 0),
    deltas(-300, -500, 1100, -300, ["Cho"]),
    deltas(1500, -1500, -1500, 500, ["Dai"]),
    deltas(-4200, 0, 0, 5200),
    deltas(1600, -1600, 0, 0),
    deltas(12000, -4000, -4000, -4000),
    CHOMBO,
    deltas(-4200, 4200, 0, 0),
    deltas(0, 0, 1300, -1300),
    deltas(0, -2000, 0, 2000),
    deltas(1000, 0, 0, -1000),
]


def entry(form: str) -> dict[str, Any]:
    if form == "final":
        return {
            "form": "final",
            "final_points": dict(FINAL_POINTS),
            "riichi_sticks_left": 0,
            "chombo": ["Cho"],
        }
    hands = OUTCOMES if form == "outcomes" else DELTAS
    return {"form": "hands", "hands": [dict(h) for h in hands], "final_points": dict(FINAL_POINTS)}
