"""Hand payments against the payment tables printed in the rule texts, cell by cell.

The expected values are transcribed from the texts, not computed:
- WRCR 2015, payment tables (end of the text): the extracted text keeps the non-dealer tsumo column
  ("by each non-East opponent / by East"); its ron and dealer columns are lost in the extraction.
- EMA 2025 payment tables (East and Non-East, han 1-4 x fu 20-110): the same kiriage values as WRCR 2015
  §6.1, so they stand for the WRCR dealer and ron columns.
- EMA 2016 scoring card (East/Other, Tsumo/Ron, fu 20-70): no rounding of 1,920 up to mangan.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.rules.payments import basic_points, format_points, limit_name, round_up_100, win_payments
from scoring.rules.ruleset import get_ruleset

WRC = get_ruleset("WRC2015")
EMA2016 = get_ruleset("EMA2016")
EMA2025 = get_ruleset("EMA2025")
VECTORS = Path(__file__).resolve().parent.parent / "data" / "wrc-hands.json"

# WRCR 2015 payment table, non-dealer tsumo: {fu: {han: (each non-dealer pays, dealer pays)}}.
WRCR_NON_DEALER_TSUMO = {
    20: {2: (400, 700), 3: (700, 1300), 4: (1300, 2600)},
    25: {3: (800, 1600), 4: (1600, 3200)},
    30: {1: (300, 500), 2: (500, 1000), 3: (1000, 2000), 4: (2000, 4000)},
    40: {1: (400, 700), 2: (700, 1300), 3: (1300, 2600)},
    50: {1: (400, 800), 2: (800, 1600), 3: (1600, 3200)},
    60: {1: (500, 1000), 2: (1000, 2000), 3: (2000, 4000)},
    70: {1: (600, 1200), 2: (1200, 2300)},
    80: {1: (700, 1300), 2: (1300, 2600)},
    90: {1: (800, 1500), 2: (1500, 2900)},
    100: {1: (800, 1600), 2: (1600, 3200)},
    110: {1: (900, 1800), 2: (1800, 3600)},
}
# WRCR 2015 payment table, limit hands (non-dealer tsumo): mangan, haneman, baiman, sanbaiman, yakuman.
WRCR_LIMITS_NON_DEALER_TSUMO = {5: (2000, 4000), 6: (3000, 6000), 8: (4000, 8000), 11: (6000, 12000)}

# EMA 2025 "East" table: {han: {fu: (ron, tsumo each)}}; None where the table has "-".
EMA2025_EAST = {
    1: {30: (1500, 500), 40: (2000, 700), 50: (2400, 800), 60: (2900, 1000), 70: (3400, 1200),
        80: (3900, 1300), 90: (4400, 1500), 100: (4800, 1600)},
    2: {20: (None, 700), 25: (2400, None), 30: (2900, 1000), 40: (3900, 1300), 50: (4800, 1600),
        60: (5800, 2000), 70: (6800, 2300), 80: (7700, 2600), 90: (8700, 2900), 100: (9600, 3200),
        110: (10600, 3600)},
    3: {20: (None, 1300), 25: (4800, 1600), 30: (5800, 2000), 40: (7700, 2600), 50: (9600, 3200),
        60: (12000, 4000), 70: (12000, 4000), 110: (12000, 4000)},
    4: {20: (None, 2600), 25: (9600, 3200), 30: (12000, 4000), 60: (12000, 4000), 110: (12000, 4000)},
}  # fmt: skip
# EMA 2025 "Non-East" table: {han: {fu: (ron, tsumo non-dealer, tsumo dealer)}}.
EMA2025_NON_EAST = {
    1: {30: (1000, 300, 500), 40: (1300, 400, 700), 50: (1600, 400, 800), 60: (2000, 500, 1000),
        70: (2300, 600, 1200), 80: (2600, 700, 1300), 90: (2900, 800, 1500), 100: (3200, 800, 1600)},
    2: {20: (None, 400, 700), 25: (1600, None, None), 30: (2000, 500, 1000), 40: (2600, 700, 1300),
        50: (3200, 800, 1600), 60: (3900, 1000, 2000), 70: (4500, 1200, 2300), 80: (5200, 1300, 2600),
        90: (5800, 1500, 2900), 100: (6400, 1600, 3200), 110: (7100, 1800, 3600)},
    3: {20: (None, 700, 1300), 25: (3200, 800, 1600), 30: (3900, 1000, 2000), 40: (5200, 1300, 2600),
        50: (6400, 1600, 3200), 60: (8000, 2000, 4000), 90: (8000, 2000, 4000)},
    4: {20: (None, 1300, 2600), 25: (6400, 1600, 3200), 30: (8000, 2000, 4000), 50: (8000, 2000, 4000)},
}  # fmt: skip
# EMA 2025 limit rows: han -> (East ron, East tsumo all, Non-East ron, non-dealer pays, dealer pays).
EMA2025_LIMITS = {
    5: (12000, 4000, 8000, 2000, 4000),
    6: (18000, 6000, 12000, 3000, 6000),
    7: (18000, 6000, 12000, 3000, 6000),
    8: (24000, 8000, 16000, 4000, 8000),
    10: (24000, 8000, 16000, 4000, 8000),
    11: (36000, 12000, 24000, 6000, 12000),
    13: (36000, 12000, 24000, 6000, 12000),
}

# EMA 2016 scoring card: {han: {fu: (East ron, East tsumo all, Other ron, Other tsumo non-dealer/dealer)}}.
EMA2016_TABLE = {
    1: {30: (1500, 500, 1000, (300, 500)), 40: (2000, 700, 1300, (400, 700)),
        50: (2400, 800, 1600, (400, 800)), 60: (2900, 1000, 2000, (500, 1000)),
        70: (3400, 1200, 2300, (600, 1200))},
    2: {20: (None, 700, None, (400, 700)), 25: (2400, None, 1600, None),
        30: (2900, 1000, 2000, (500, 1000)), 40: (3900, 1300, 2600, (700, 1300)),
        50: (4800, 1600, 3200, (800, 1600)), 60: (5800, 2000, 3900, (1000, 2000)),
        70: (6800, 2300, 4500, (1200, 2300))},
    3: {20: (None, 1300, None, (700, 1300)), 25: (4800, 1600, 3200, (800, 1600)),
        30: (5800, 2000, 3900, (1000, 2000)), 40: (7700, 2600, 5200, (1300, 2600)),
        50: (9600, 3200, 6400, (1600, 3200)), 60: (11600, 3900, 7700, (2000, 3900)),
        70: (12000, 4000, 8000, (2000, 4000))},
    4: {20: (None, 2600, None, (1300, 2600)), 25: (9600, 3200, 6400, (1600, 3200)),
        30: (11600, 3900, 7700, (2000, 3900)), 40: (12000, 4000, 8000, (2000, 4000)),
        50: (12000, 4000, 8000, (2000, 4000)), 60: (12000, 4000, 8000, (2000, 4000)),
        70: (12000, 4000, 8000, (2000, 4000))},
}  # fmt: skip


def _pay(han: int, fu: int, *, dealer: bool, tsumo: bool, ruleset=WRC, honba: int = 0) -> dict[str, int]:
    return win_payments(
        basic_points(han, fu, ruleset), dealer=dealer, tsumo=tsumo, honba=honba, ruleset=ruleset
    )


@pytest.mark.parametrize(
    ("fu", "han"), [(fu, han) for fu, row in WRCR_NON_DEALER_TSUMO.items() for han in row]
)
def test_wrcr_table_non_dealer_tsumo(fu: int, han: int) -> None:
    non_dealer, dealer = WRCR_NON_DEALER_TSUMO[fu][han]
    assert _pay(han, fu, dealer=False, tsumo=True) == {"tsumo_dealer": dealer, "tsumo_non_dealer": non_dealer}


@pytest.mark.parametrize("han", sorted(WRCR_LIMITS_NON_DEALER_TSUMO))
def test_wrcr_table_limits(han: int) -> None:
    non_dealer, dealer = WRCR_LIMITS_NON_DEALER_TSUMO[han]
    assert _pay(han, 30, dealer=False, tsumo=True) == {"tsumo_dealer": dealer, "tsumo_non_dealer": non_dealer}
    yakuman = win_payments(basic_points(0, 0, WRC, yakuman=1), dealer=False, tsumo=True, honba=0, ruleset=WRC)
    assert yakuman == {"tsumo_dealer": 16000, "tsumo_non_dealer": 8000}


EAST_CELLS = [(han, fu) for han, row in EMA2025_EAST.items() for fu in row]
NON_EAST_CELLS = [(han, fu) for han, row in EMA2025_NON_EAST.items() for fu in row]


@pytest.mark.parametrize("ruleset", [WRC, EMA2025], ids=["WRC2015", "EMA2025"])
@pytest.mark.parametrize(("han", "fu"), EAST_CELLS)
def test_dealer_table(ruleset, han: int, fu: int) -> None:
    ron, tsumo_all = EMA2025_EAST[han][fu]
    if ron is not None:
        assert _pay(han, fu, dealer=True, tsumo=False, ruleset=ruleset) == {"ron": ron}
    if tsumo_all is not None:
        assert _pay(han, fu, dealer=True, tsumo=True, ruleset=ruleset) == {"tsumo_all": tsumo_all}


@pytest.mark.parametrize("ruleset", [WRC, EMA2025], ids=["WRC2015", "EMA2025"])
@pytest.mark.parametrize(("han", "fu"), NON_EAST_CELLS)
def test_non_dealer_table(ruleset, han: int, fu: int) -> None:
    ron, non_dealer, dealer = EMA2025_NON_EAST[han][fu]
    if ron is not None:
        assert _pay(han, fu, dealer=False, tsumo=False, ruleset=ruleset) == {"ron": ron}
    if non_dealer is not None:
        expected = {"tsumo_dealer": dealer, "tsumo_non_dealer": non_dealer}
        assert _pay(han, fu, dealer=False, tsumo=True, ruleset=ruleset) == expected


@pytest.mark.parametrize("han", sorted(EMA2025_LIMITS))
@pytest.mark.parametrize("ruleset", [WRC, EMA2016, EMA2025], ids=["WRC2015", "EMA2016", "EMA2025"])
def test_limit_hands(ruleset, han: int) -> None:
    east_ron, east_all, ron, non_dealer, dealer = EMA2025_LIMITS[han]
    assert _pay(han, 40, dealer=True, tsumo=False, ruleset=ruleset) == {"ron": east_ron}
    assert _pay(han, 40, dealer=True, tsumo=True, ruleset=ruleset) == {"tsumo_all": east_all}
    assert _pay(han, 40, dealer=False, tsumo=False, ruleset=ruleset) == {"ron": ron}
    assert _pay(han, 40, dealer=False, tsumo=True, ruleset=ruleset) == {
        "tsumo_dealer": dealer,
        "tsumo_non_dealer": non_dealer,
    }


@pytest.mark.parametrize(("han", "fu"), [(han, fu) for han, row in EMA2016_TABLE.items() for fu in row])
def test_ema2016_table(han: int, fu: int) -> None:
    east_ron, east_all, ron, tsumo = EMA2016_TABLE[han][fu]
    if east_ron is not None:
        assert _pay(han, fu, dealer=True, tsumo=False, ruleset=EMA2016) == {"ron": east_ron}
        assert _pay(han, fu, dealer=False, tsumo=False, ruleset=EMA2016) == {"ron": ron}
    if east_all is not None:
        assert _pay(han, fu, dealer=True, tsumo=True, ruleset=EMA2016) == {"tsumo_all": east_all}
    if tsumo is not None:
        expected = {"tsumo_dealer": tsumo[1], "tsumo_non_dealer": tsumo[0]}
        assert _pay(han, fu, dealer=False, tsumo=True, ruleset=EMA2016) == expected


def test_ema2016_does_not_round_1920_up() -> None:
    # EMA 2016 card: 4 han 30 fu = 7,700 / 11,600; 3 han 60 fu likewise. WRCR 2015 §6.1: mangan.
    assert _pay(4, 30, dealer=False, tsumo=False, ruleset=EMA2016) == {"ron": 7700}
    assert _pay(4, 30, dealer=True, tsumo=False, ruleset=EMA2016) == {"ron": 11600}
    assert _pay(3, 60, dealer=False, tsumo=False, ruleset=EMA2016) == {"ron": 7700}
    assert _pay(4, 30, dealer=False, tsumo=False, ruleset=WRC) == {"ron": 8000}
    assert _pay(3, 60, dealer=True, tsumo=False, ruleset=EMA2025) == {"ron": 12000}
    assert limit_name(4, 30, EMA2016) == ""
    assert limit_name(4, 30, WRC) == "mangan"


def test_basic_points_and_limits() -> None:
    assert basic_points(1, 30, WRC) == 240
    assert basic_points(2, 25, WRC) == 400
    assert basic_points(4, 40, WRC) == 2000  # 2,560 capped at mangan
    assert basic_points(13, 30, WRC) == 6000  # no counted yakuman (WRCR 2015 §6.1)
    assert basic_points(0, 0, WRC, yakuman=2) == 8000  # yakuman are not cumulative
    assert basic_points(0, 0, WRC.custom(yakuman_accumulate=True), yakuman=2) == 16000
    names = [limit_name(han, 30, WRC) for han in (3, 5, 6, 7, 8, 10, 11, 14)]
    assert names == ["", "mangan", "haneman", "haneman", "baiman", "baiman", "sanbaiman", "sanbaiman"]
    assert limit_name(1, 30, WRC, yakuman=1) == "yakuman"
    with pytest.raises(ValueError):
        basic_points(0, 30, WRC)


@pytest.mark.parametrize("preset", ["TENHOU", "MAHJONGSOUL"])
def test_thirteen_han_or_more_are_named_a_yakuman_where_the_ruleset_counts_them(preset: str) -> None:
    """Counted yakuman (kazoe, the online presets' ``counted_yakuman``): 13 han or more are paid and named
    a yakuman; 11 and 12 han stay sanbaiman. Without counted yakuman (WRCR 2015 §6.1) 13 han are sanbaiman."""
    online = get_ruleset(preset)
    assert online.counted_yakuman
    names = [limit_name(han, 30, online) for han in (11, 12, 13, 14, 26)]
    assert names == ["sanbaiman", "sanbaiman", "yakuman", "yakuman", "yakuman"]
    assert basic_points(13, 30, online) == 8000
    assert limit_name(0, 0, online, yakuman=2) == "yakuman"
    without = online.custom(preset, counted_yakuman=False)
    assert limit_name(13, 30, without) == "sanbaiman" and basic_points(13, 30, without) == 6000
    assert limit_name(13, 30, WRC.custom(counted_yakuman=True)) == "yakuman"
    assert limit_name(13, 30, WRC) == "sanbaiman"


def test_honba_is_added_to_every_payment() -> None:
    # WRCR 2015 §5.7.7: 300 per counter on a ron, 100 per counter from each payer on a self-draw.
    assert _pay(2, 30, dealer=False, tsumo=False, honba=2) == {"ron": 2600}
    assert _pay(2, 30, dealer=False, tsumo=True, honba=2) == {"tsumo_dealer": 1200, "tsumo_non_dealer": 700}
    assert _pay(2, 30, dealer=True, tsumo=True, honba=3) == {"tsumo_all": 1300}


def test_liability_ron_is_shared_and_the_discarder_pays_the_counters() -> None:
    # WRCR 2015 §6.2: the liable player shares the ron equally with the discarder; only the discarder
    # pays the continuance counters.
    yakuman = basic_points(0, 0, WRC, yakuman=1)
    split = win_payments(yakuman, dealer=False, tsumo=False, honba=2, ruleset=WRC, liable=True)
    assert split == {"ron_discarder": 16600, "ron_liable": 16000}
    dealer = win_payments(yakuman, dealer=True, tsumo=False, honba=0, ruleset=WRC, liable=True)
    assert dealer == {"ron_discarder": 24000, "ron_liable": 24000}


def test_liability_tsumo_is_paid_in_full_by_the_liable_player() -> None:
    yakuman = basic_points(0, 0, WRC, yakuman=1)
    assert win_payments(yakuman, dealer=False, tsumo=True, honba=1, ruleset=WRC, liable=True) == {
        "tsumo_liable": 32300
    }
    assert win_payments(yakuman, dealer=True, tsumo=True, honba=0, ruleset=WRC, liable=True) == {
        "tsumo_liable": 48000
    }


def test_liability_halves_round_up_each() -> None:
    # A custom base that is not a yakuman shows the rule: each half is a payment rounded up to 100.
    assert win_payments(330, dealer=False, tsumo=False, honba=0, ruleset=WRC, liable=True) == {
        "ron_discarder": 700,
        "ron_liable": 700,
    }


def test_vector_payments() -> None:
    """The ``payments`` and ``basic_points`` of every valid hand vector."""
    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))["vectors"]
    checked = 0
    for vector in vectors:
        expected = vector["expected"]
        if not expected["valid"]:
            continue
        yakuman = 1 if expected["limit"] == "yakuman" else 0
        basic = basic_points(expected["han"] or 5, expected["fu"] or 30, WRC, yakuman)
        payments = win_payments(
            basic,
            dealer=vector["seat_wind"] == "E",
            tsumo=vector["win"] == "tsumo",
            honba=vector["honba"],
            ruleset=WRC,
            liable="liability" in vector,
        )
        assert (basic, payments) == (expected["basic_points"], expected["payments"]), vector["id"]
        checked += 1
    assert checked >= 25


def test_round_up_and_format() -> None:
    assert [round_up_100(value) for value in (1920, 2000, 2001, 0)] == [2000, 2000, 2100, 0]
    assert format_points(3800, sign=True) == "+3,800"
    assert format_points(-12000, sign=True) == "-12,000"
    assert format_points(0, sign=True) == "0"
    assert format_points(120000) == "120,000"
