"""Legal han/fu and the legal four-way changes of a moment (direct check against the enumeration)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.legal import (
    CHOMBO,
    DRAW,
    MULTIPLE_RON,
    RON,
    TSUMO,
    Moment,
    han_fu_problem,
    is_legal,
    legal_han_fu,
    legal_outcomes,
    multiple_ron_changes,
    readings,
    stick_taker,
)
from scoring.rules.ruleset import Ruleset, get_ruleset

WRC = get_ruleset("WRC2015")
EMA2016 = get_ruleset("EMA2016")


@pytest.mark.parametrize(
    ("han", "fu", "tsumo", "legal"),
    [
        (1, 20, False, False),  # no 1 han 20 fu ron
        (1, 20, True, False),  # a 20 fu self-draw is pinfu + Fully Concealed Hand: 2 han
        (2, 20, True, True),
        (2, 20, False, False),  # pinfu ron is 30 fu
        (3, 20, False, False),
        (1, 25, False, False),  # 25 fu is Seven Pairs: 2 han
        (2, 25, False, True),
        (2, 25, True, False),  # Seven Pairs self-draw: 3 han
        (3, 25, True, True),
        (1, 30, False, True),
        (1, 35, False, False),
        (2, 120, False, False),
        (4, 110, True, True),
        (1, 110, False, True),
        (5, None, False, True),  # from 5 han the fu do not matter
        (7, 25, True, True),
        (0, 30, False, False),
        (3, None, False, False),
    ],
)
def test_han_fu(han: int, fu: int | None, tsumo: bool, legal: bool) -> None:
    assert (han_fu_problem(han, fu, tsumo=tsumo) is None) == legal


def test_han_fu_messages() -> None:
    assert han_fu_problem(1, 20, tsumo=False) == (
        "20 fu is only a pinfu self-draw; a win on a discard has at least 30 fu"
    )
    assert han_fu_problem(2, 25, tsumo=True) == (
        "a Seven Pairs self-draw also has Fully Concealed Hand, so it has at least 3 han"
    )
    assert len(legal_han_fu(tsumo=False)) == 4 * 9 + 3  # 30-110 for 1-4 han, 25 fu for 2-4 han
    assert len(legal_han_fu(tsumo=True)) == 4 * 9 + 3 + 2  # and 20 fu for 2-4 han, 25 fu for 3-4 han


def _moment(dealer: int = 0, honba: int = 0, sticks: int = 0, riichi: tuple[int, ...] = ()) -> Moment:
    return Moment(dealer, honba, sticks, frozenset(riichi))


def _kinds(moment: Moment, changes: tuple[int, int, int, int], ruleset: Ruleset = WRC) -> list[str]:
    return [outcome.kind for outcome in readings(moment, changes, ruleset)]


def test_ron_tsumo_readings() -> None:
    moment = _moment(dealer=1, honba=1)
    assert _kinds(moment, (3900 + 300, 0, -4200, 0)) == [RON]
    assert _kinds(moment, (3800 + 300, 0, -4100, 0)) == []  # 3,800 is no ron
    assert _kinds(moment, (0, 5800 + 300, -6100, 0)) == [RON]  # dealer 2 han 30 fu
    assert _kinds(moment, (0, 5200 + 300, -5500, 0)) == []  # 3 han 40 fu pays a dealer 7,700
    # Non-dealer tsumo 2 han 30 fu, 1 honba: 1,000 + 100 from the dealer, 500 + 100 from the others.
    assert _kinds(moment, (2300, -1100, -600, -600)) == [TSUMO]
    assert _kinds(moment, (2300, -600, -1100, -600)) == []  # the dealer pays the larger share
    # Dealer tsumo 2 han 30 fu: 1,000 all (+100 each).
    assert _kinds(moment, (-1100, 3300, -1100, -1100)) == [TSUMO]


def test_sticks_and_stakes() -> None:
    # Two sticks on the table, Cho declares riichi and Ana wins 1,000 from Ben: Ana collects 3,000.
    moment = _moment(dealer=3, sticks=2, riichi=(2,))
    assert _kinds(moment, (1000 + 3000, -1000, -1000, 0)) == [RON]
    assert _kinds(moment, (1000 + 2000, -1000, -1000, 0)) == []


def test_draw_readings() -> None:
    assert [o.tenpai for o in readings(_moment(dealer=1), (3000, -1000, -1000, -1000), WRC)] == [(0,)]
    assert [o.tenpai for o in readings(_moment(), (1500, -1500, 1500, -1500), WRC)] == [(0, 2)]
    # The dealer alone tenpai is paid like a 1,000-all self-draw: both readings keep the deal.
    assert _kinds(_moment(dealer=0), (3000, -1000, -1000, -1000)) == [TSUMO, DRAW]
    # All zero: everybody tenpai or nobody tenpai.
    assert [o.tenpai for o in readings(_moment(), (0, 0, 0, 0), WRC)] == [(), (0, 1, 2, 3)]
    # A riichi declarer pays the stake and must be tenpai (WRCR 2015 §5.7.2, §7.2).
    assert [o.tenpai for o in readings(_moment(riichi=(1,)), (-1500, 500, 1500, -1500), WRC)] == [(1, 2)]
    assert readings(_moment(riichi=(3,)), (1500, 1500, -1500, -2500), WRC) == []
    # The noten payments shared 1,000 / 3,000.
    assert _kinds(_moment(), (1000, 1000, 1000, -3000)) == [DRAW]
    assert _kinds(_moment(), (1000, 1000, -1000, -1000)) == []


def test_chombo_reading_needs_a_riichi_to_be_told_from_a_draw() -> None:
    # WRCR 2015 §7.1: chombo returns the riichi stakes, nobody pays.
    assert _kinds(_moment(riichi=(2,)), (0, 0, 0, 0)) == [CHOMBO]
    assert CHOMBO not in _kinds(_moment(), (0, 0, 0, 0))


def test_liability_readings() -> None:
    # Big Three Dragons ron by Cho (non-dealer) from Ben, Dai liable, 1 honba.
    outcome = readings(_moment(honba=1), (0, -16300, 32300, -16000), WRC)
    assert [(o.kind, o.payers, o.liable) for o in outcome] == [(RON, (1, 3), 3)]
    # Liable self-draw: Dai pays 32,000 + 300; reads as a yakuman ron from Dai too.
    assert {o.kind for o in readings(_moment(honba=1), (0, 0, 32300, -32300), WRC)} == {RON, TSUMO}
    assert readings(_moment(honba=1), (0, -16300, 32300, -16000), EMA2016) == []  # no liability


def test_head_bump_and_multiple_ron() -> None:
    # Ben (seat 1) discards, Cho (2) and Ana (0) both win: 2,000 each. Cho is closest (§5.7.6).
    assert stick_taker(1, [0, 2]) == 2
    assert stick_taker(3, [1, 2]) == 1
    moment = _moment(dealer=3, sticks=1, riichi=(0,))
    changes = multiple_ron_changes(moment, 1, {0: 2000, 2: 2000}, EMA2016)
    # Ana gets her own stake back; Cho takes the stick on the table.
    assert changes == [2000, -4000, 3000, 0]
    (outcome,) = readings(moment, (2000, -4000, 3000, 0), EMA2016)
    assert (outcome.kind, outcome.winners, outcome.payers) == (MULTIPLE_RON, (2, 0), (1,))
    assert readings(moment, (2000, -4000, 3000, 0), WRC) == []


def test_multiple_ron_counters_per_winner() -> None:
    moment = _moment(dealer=0, honba=2)
    each = multiple_ron_changes(moment, 3, {1: 1000, 2: 1000}, EMA2016)
    first_only = multiple_ron_changes(
        moment, 3, {1: 1000, 2: 1000}, EMA2016.custom(multiple_ron_honba_each=False)
    )
    assert each == [0, 1600, 1600, -3200]
    assert first_only == [1600, 1000, 0, -2600] or first_only == [0, 1600, 1000, -2600]


def test_chombo_table_payment_variant() -> None:
    social = WRC.custom(chombo_table_payment=True)
    outcomes = legal_outcomes(_moment(dealer=0), social)
    assert (4000, -8000, 2000, 2000) in outcomes  # Ben (non-dealer) pays 4,000 to East, 2,000 to the others
    assert (-12000, 4000, 4000, 4000) in outcomes  # East pays 4,000 to each


moments = st.builds(
    Moment,
    dealer=st.integers(0, 3),
    honba=st.integers(0, 3),
    sticks=st.integers(0, 2),
    riichi=st.frozensets(st.integers(0, 3), max_size=4),
)


@settings(max_examples=25, deadline=None, database=None)
@given(moment=moments, data=st.data())
def test_direct_check_equals_the_enumeration(moment: Moment, data: st.DataObject) -> None:
    """Every enumerated outcome is read as legal; nearby changes are legal exactly when enumerated."""
    outcomes = legal_outcomes(moment, WRC)
    for changes in outcomes:
        assert is_legal(moment, changes, WRC)
    for _ in range(50):
        base = data.draw(st.sampled_from(sorted(outcomes)))
        seat = data.draw(st.integers(0, 3))
        delta = data.draw(st.sampled_from([-1000, -300, -100, 100, 300, 1000]))
        other = data.draw(st.integers(0, 3))
        changed = list(base)
        changed[seat] += delta
        changed[other] -= delta
        candidate = (changed[0], changed[1], changed[2], changed[3])
        assert is_legal(moment, candidate, WRC) == (candidate in outcomes)


@settings(max_examples=2, deadline=None, database=None)
@given(moment=moments)
def test_direct_check_equals_the_enumeration_with_multiple_ron(moment: Moment) -> None:
    outcomes = legal_outcomes(moment, EMA2016)
    assert all(is_legal(moment, changes, EMA2016) for changes in outcomes)


@settings(max_examples=5, deadline=None, database=None)
@given(moment=moments, data=st.data())
def test_direct_check_equals_the_enumeration_with_nagashi_and_abortive_draws(
    moment: Moment, data: st.DataObject
) -> None:
    """Tenhou's rules: nagashi mangan, double ron, three rons an abortive draw (no triple ron paid)."""
    tenhou = get_ruleset("TENHOU")
    outcomes = legal_outcomes(moment, tenhou)
    assert all(is_legal(moment, changes, tenhou) for changes in outcomes)
    for _ in range(20):
        base = data.draw(st.sampled_from(sorted(outcomes)))
        seat, other = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))
        delta = data.draw(st.sampled_from([-2000, -1000, -300, 300, 1000, 2000]))
        changed = list(base)
        changed[seat] += delta
        changed[other] -= delta
        candidate = (changed[0], changed[1], changed[2], changed[3])
        assert is_legal(moment, candidate, tenhou) == (candidate in outcomes)
