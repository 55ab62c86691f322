"""What can legally happen in one hand: legal han/fu, payment tables and four-way point changes.

A *moment* of a hanchan is the situation before a hand: the dealer, the continuance counters (honba), the
riichi sticks on the table and the players who declare riichi in the hand. Seats are indices 0-3 in
starting seat order, so seat ``(i + 1) % 4`` is the next player in turn order after seat ``i``.

``legal_outcomes`` enumerates every legal four-way change of a moment; it is the definition, used by the
tests. ``readings`` answers the same question for one given change directly (a few set look-ups), which is
what the score-sheet replay uses; the tests check that both agree.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from scoring.rules.i18n import _
from scoring.rules.payments import (
    BAIMAN,
    HANEMAN,
    MANGAN,
    SANBAIMAN,
    YAKUMAN,
    basic_points,
    ron_value,
    tsumo_values,
)
from scoring.rules.ruleset import TRIPLE_RON, Ruleset

LEGAL_FU = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)
LIMIT_BASES = (MANGAN, HANEMAN, BAIMAN, SANBAIMAN)
# With yakuman_accumulate, a hand may hold several yakuman; six is more than any real hand holds.
MAX_YAKUMAN = 6
SEATS = range(4)

RON = "ron"
TSUMO = "tsumo"
MULTIPLE_RON = "multiple ron"
DRAW = "draw"
CHOMBO = "chombo"
ABORTIVE = "abortive"
NAGASHI = "nagashi"


def han_fu_problem(han: int, fu: int | None, *, tsumo: bool) -> str | None:
    """Why ``han``/``fu`` cannot be the value of a win, or None when it can (WRCR 2015 §6.1, §6.3).

    From 5 han the fu do not matter. Below that: fu are 20, 25 or 30 to 110 in steps of ten; 20 fu is
    only a pinfu self-draw, which also has Fully Concealed Hand (2 han or more); 25 fu is only Seven
    Pairs (2 han), and 3 han or more on a self-draw (Seven Pairs + Fully Concealed Hand).
    """
    if han < 1:
        return _("a win has at least 1 han")
    if han >= 5:
        return None
    if fu is None:
        return _("a {han} han hand needs its fu").format(han=han)
    if fu not in LEGAL_FU:
        return _("{fu} fu does not exist (fu are 20, 25 or 30 to 110 in steps of 10)").format(fu=fu)
    if fu == 20 and not tsumo:
        return _("20 fu is only a pinfu self-draw; a win on a discard has at least 30 fu")
    if fu == 20 and han < 2:
        return _("a 20 fu self-draw is pinfu with Fully Concealed Hand, so it has at least 2 han")
    if fu == 25 and han < 2:
        return _("25 fu is Seven Pairs, which has at least 2 han")
    if fu == 25 and tsumo and han < 3:
        return _("a Seven Pairs self-draw also has Fully Concealed Hand, so it has at least 3 han")
    return None


def legal_han_fu(tsumo: bool) -> list[tuple[int, int]]:
    """Every legal (han, fu) below 5 han for a ron or a self-draw."""
    return [
        (han, fu) for han in range(1, 5) for fu in LEGAL_FU if han_fu_problem(han, fu, tsumo=tsumo) is None
    ]


def _legal_bases(ruleset: Ruleset, tsumo: bool) -> list[tuple[int, str]]:
    """(base value, what gives it) for every legal hand value, lowest first."""
    bases: dict[int, str] = {}
    # Lowest fu first, so a base reached two ways is named the common way (3 han 30 fu, not 2 han 60 fu).
    for han, fu in sorted(legal_han_fu(tsumo), key=lambda value: (value[1], value[0])):
        bases.setdefault(basic_points(han, fu, ruleset), f"{han} han {fu} fu")
    names = {MANGAN: "mangan", HANEMAN: "haneman", BAIMAN: "baiman", SANBAIMAN: "sanbaiman"}
    for base in LIMIT_BASES:
        bases[base] = names[base]
    for base in _yakuman_bases(ruleset):
        bases[base] = "yakuman" if base == YAKUMAN else f"{base // YAKUMAN} yakuman"
    return sorted(bases.items())


def _yakuman_bases(ruleset: Ruleset) -> list[int]:
    """The base values of yakuman hands: one, or up to six when the ruleset accumulates them."""
    return [YAKUMAN * count for count in range(1, MAX_YAKUMAN + 1 if ruleset.yakuman_accumulate else 2)]


@dataclass(frozen=True)
class PaymentTables:
    """Every legal payment of a ruleset, counters excluded, each with the hand value it comes from.

    ``ron[dealer]``: what the discarder pays. ``tsumo_all``: what each player pays a dealer's self-draw.
    ``tsumo_split``: (dealer pays, each non-dealer pays) for a non-dealer's self-draw.
    ``liable_ron[dealer]``: the half each of discarder and liable player pays (counters excluded).
    ``liable_tsumo[dealer]``: what the liable player pays for a self-draw (counters excluded).
    ``bases[(han, fu, tsumo)]``: the base value of every legal han/fu below 14 han (fu None from 5 han).
    """

    ron: dict[bool, dict[int, str]]
    tsumo_all: dict[int, str]
    tsumo_split: dict[tuple[int, int], str]
    liable_ron: dict[bool, frozenset[int]]
    liable_tsumo: dict[bool, frozenset[int]]
    bases: dict[tuple[int, int | None, bool], int]


_TABLES: dict[int, tuple[Ruleset, PaymentTables]] = {}
_TABLES_KEPT = 64


def payment_tables(ruleset: Ruleset) -> PaymentTables:
    """The payment tables of ``ruleset``, computed once per ruleset object.

    Cached by identity: hashing a ruleset hashes all its fields, which costs more than the look-ups
    the tables serve."""
    entry = _TABLES.get(id(ruleset))
    if entry is not None and entry[0] is ruleset:
        return entry[1]
    if len(_TABLES) >= _TABLES_KEPT:
        _TABLES.clear()
    tables = _payment_tables(ruleset)
    _TABLES[id(ruleset)] = (ruleset, tables)
    return tables


def _payment_tables(ruleset: Ruleset) -> PaymentTables:
    ron: dict[bool, dict[int, str]] = {True: {}, False: {}}
    for base, name in _legal_bases(ruleset, tsumo=False):
        for dealer in (True, False):
            ron[dealer].setdefault(ron_value(base, dealer), name)
    tsumo_all: dict[int, str] = {}
    tsumo_split: dict[tuple[int, int], str] = {}
    for base, name in _legal_bases(ruleset, tsumo=True):
        tsumo_all.setdefault(tsumo_values(base, True)[1], name)
        tsumo_split.setdefault(tsumo_values(base, False), name)
    yakuman = _yakuman_bases(ruleset) if ruleset.liability else []
    liable_ron = {
        dealer: frozenset(ron_value(base, dealer) // 2 for base in yakuman) for dealer in (True, False)
    }
    liable_tsumo = {
        True: frozenset(3 * tsumo_values(base, True)[1] for base in yakuman),
        False: frozenset(sum(tsumo_values(base, False)) + tsumo_values(base, False)[1] for base in yakuman),
    }
    bases: dict[tuple[int, int | None, bool], int] = {}
    for tsumo in (True, False):
        for han in range(1, 14):
            for fu in (None, *LEGAL_FU):
                if han_fu_problem(han, fu, tsumo=tsumo) is None:
                    bases[(han, fu, tsumo)] = basic_points(han, fu or 0, ruleset)
    return PaymentTables(ron, tsumo_all, tsumo_split, liable_ron, liable_tsumo, bases)


class Moment(NamedTuple):
    """The situation before a hand. ``riichi``: seats declaring riichi in the hand.

    A NamedTuple rather than a frozen dataclass, like ``HandOutcome``: the replay makes one per hand,
    and a frozen dataclass takes several times longer to build."""

    dealer: int
    honba: int = 0
    sticks: int = 0
    riichi: frozenset[int] = frozenset()


class HandOutcome(NamedTuple):
    """How a hand ended and what it changed.

    ``changes`` per seat include riichi stakes and collected sticks. ``winners`` in turn order from the
    discarder; ``payers``: the discarder of a ron (and the liable player after him), or the liable player
    of a self-draw; ``tenpai`` for a draw; ``offenders`` of a chombo. ``value``: what gives a win's
    payment, e.g. "3 han 40 fu", when read from the changes.
    """

    kind: str
    changes: tuple[int, int, int, int]
    winners: tuple[int, ...] = ()
    payers: tuple[int, ...] = ()
    tenpai: tuple[int, ...] = ()
    offenders: tuple[int, ...] = ()
    liable: int | None = None
    value: str = ""


def noten_payments(tenpai: Iterable[int], ruleset: Ruleset) -> list[int]:
    """The noten payments of an exhaustive draw, per seat (WRCR 2015 §5.7.2)."""
    tenpai_set = set(tenpai)
    count = len(tenpai_set)
    if count in (0, 4):
        return [0, 0, 0, 0]
    gain, loss = ruleset.noten_total // count, ruleset.noten_total // (4 - count)
    return [gain if seat in tenpai_set else -loss for seat in SEATS]


def chombo_payments(offender: int, dealer: int, ruleset: Ruleset) -> list[int]:
    """The table payment of one chombo: nothing under WRCR 2015 §7.1; with ``chombo_table_payment`` the
    offender pays a mangan as if it were a self-draw against him (EMA 2016 card, social games)."""
    changes = [0, 0, 0, 0]
    if not ruleset.chombo_table_payment:
        return changes
    for seat in SEATS:
        if seat != offender:
            amount = 2 * MANGAN if dealer in (seat, offender) else MANGAN
            changes[seat] += amount
            changes[offender] -= amount
    return changes


def nagashi_payments(nagashi: Iterable[int], dealer: int) -> list[int]:
    """The payments of a nagashi mangan, per seat: each nagashi player is paid a mangan as for a
    self-draw (4,000 from each for the dealer; 4,000 from the dealer and 2,000 from the others for a
    non-dealer), without counters, instead of the noten payments (Tenhou's rules: "Tenpai payments are
    replaced by the mangan payment")."""
    changes = [0, 0, 0, 0]
    for player in set(nagashi):
        from_dealer, from_other = tsumo_values(MANGAN, player == dealer)
        for seat in SEATS:
            if seat != player:
                amount = from_dealer if seat == dealer else from_other
                changes[seat] -= amount
                changes[player] += amount
    return changes


def most_ron_winners(ruleset: Ruleset) -> int:
    """How many players may win on one discard: 1 (head bump, WRCR 2015 §5.7.6), 3, or 2 where three
    calls are an abortive draw (sanchahou)."""
    if not ruleset.multiple_ron:
        return 1
    return 2 if ruleset.allows_abortive(TRIPLE_RON) else 3


def stick_taker(discarder: int, winners: Iterable[int]) -> int:
    """The winner closest to the discarder in turn order (WRCR 2015 §5.7.6; EMA 2016 card, multiple
    winners: the riichi bets go to "the winner closest to the discarder's right")."""
    winner_set = set(winners)
    for step in (1, 2, 3):
        seat = (discarder + step) % 4
        if seat in winner_set:
            return seat
    raise ValueError("a ron needs a winner other than the discarder")


def _stakes(moment: Moment, ruleset: Ruleset) -> list[int]:
    return [-ruleset.riichi_stick if seat in moment.riichi else 0 for seat in SEATS]


def _pot(moment: Moment, ruleset: Ruleset) -> int:
    return ruleset.riichi_stick * (moment.sticks + len(moment.riichi))


# ---------------------------------------------------------------------------------------------------
# Enumeration: the definition of a legal outcome.


def legal_outcomes(moment: Moment, ruleset: Ruleset) -> frozenset[tuple[int, int, int, int]]:
    """Every legal four-way point change of ``moment``, riichi stakes and collected sticks included.

    Rons by every winner from every discarder, self-draws, the liability variants, multiple rons when
    the ruleset allows them, every draw whose tenpai players include the riichi declarers, chombo, and the
    nagashi mangan of one to three players where the ruleset has it (an abortive draw changes no more than
    a draw where everybody is tenpai).
    """
    outcomes: set[tuple[int, int, int, int]] = set()
    outcomes.update(_enumerate_wins(moment, ruleset))
    outcomes.update(_enumerate_draws(moment, ruleset))
    for offender in SEATS:
        outcomes.add(_as_tuple(chombo_payments(offender, moment.dealer, ruleset)))
    if ruleset.multiple_ron:
        outcomes.update(_enumerate_multiple_ron(moment, ruleset))
    if ruleset.nagashi_mangan:
        stakes = _stakes(moment, ruleset)
        for size in (1, 2, 3):
            for nagashi in itertools.combinations(SEATS, size):
                payments = nagashi_payments(nagashi, moment.dealer)
                outcomes.add(
                    _as_tuple([stake + payment for stake, payment in zip(stakes, payments, strict=True)])
                )
    return frozenset(outcomes)


def _as_tuple(changes: Sequence[int]) -> tuple[int, int, int, int]:
    return changes[0], changes[1], changes[2], changes[3]


def _plus(base: Sequence[int], changes: dict[int, int]) -> list[int]:
    """``base`` with ``changes`` (seat -> amount) added."""
    result = list(base)
    for seat, amount in changes.items():
        result[seat] += amount
    return result


def _enumerate_wins(moment: Moment, ruleset: Ruleset) -> Iterable[tuple[int, int, int, int]]:
    tables = payment_tables(ruleset)
    stakes, pot, honba = _stakes(moment, ruleset), _pot(moment, ruleset), moment.honba
    ron_counters, tsumo_counters = honba * ruleset.honba_ron, honba * ruleset.honba_tsumo_each
    for winner in SEATS:
        dealer = winner == moment.dealer
        others = [seat for seat in SEATS if seat != winner]
        for value in tables.ron[dealer]:
            for loser in others:
                paid = value + ron_counters
                yield _as_tuple(_plus(stakes, {winner: paid + pot, loser: -paid}))
        for half in tables.liable_ron[dealer]:
            for loser, liable in itertools.permutations(others, 2):
                paid = 2 * half + ron_counters
                shares = {winner: paid + pot, loser: -half - ron_counters, liable: -half}
                yield _as_tuple(_plus(stakes, shares))
        for full in tables.liable_tsumo[dealer]:
            for liable in others:
                paid = full + 3 * tsumo_counters
                yield _as_tuple(_plus(stakes, {winner: paid + pot, liable: -paid}))
        for from_dealer, from_other in _tsumo_pairs(tables, dealer):
            changes = [0, 0, 0, 0]
            for seat in others:
                changes[seat] = -(from_dealer if seat == moment.dealer else from_other) - tsumo_counters
            changes[winner] = -sum(changes) + pot
            yield _as_tuple([stake + change for stake, change in zip(stakes, changes, strict=True)])


def _tsumo_pairs(tables: PaymentTables, dealer: bool) -> Iterable[tuple[int, int]]:
    if dealer:
        return ((value, value) for value in tables.tsumo_all)
    return iter(tables.tsumo_split)


def _enumerate_draws(moment: Moment, ruleset: Ruleset) -> Iterable[tuple[int, int, int, int]]:
    stakes = _stakes(moment, ruleset)
    for size in range(5):
        for tenpai in itertools.combinations(SEATS, size):
            if ruleset.noten_riichi_chombo and not moment.riichi <= set(tenpai):
                continue
            payments = noten_payments(tenpai, ruleset)
            yield _as_tuple([stake + payment for stake, payment in zip(stakes, payments, strict=True)])


def _enumerate_multiple_ron(moment: Moment, ruleset: Ruleset) -> Iterable[tuple[int, int, int, int]]:
    tables = payment_tables(ruleset)
    for loser in SEATS:
        others = [seat for seat in SEATS if seat != loser]
        for size in range(2, most_ron_winners(ruleset) + 1):
            for winners in itertools.combinations(others, size):
                choices = [sorted(tables.ron[winner == moment.dealer]) for winner in winners]
                for values in itertools.product(*choices):
                    changes = multiple_ron_changes(
                        moment, loser, dict(zip(winners, values, strict=True)), ruleset
                    )
                    yield _as_tuple(changes)


def multiple_ron_changes(moment: Moment, loser: int, values: dict[int, int], ruleset: Ruleset) -> list[int]:
    """The changes of a ron by several winners on one discard (``values``: winner -> hand's ron value
    without counters), riichi stakes included.

    The winner closest to the discarder collects the sticks; a winner who declared riichi in the hand
    takes back his own stake (EMA 2016 card: "Riichi bets from non-winners go to the winner closest to the
    discarder's right"). Each winner is paid the counters unless ``multiple_ron_honba_each`` is off, when
    only the closest winner is.
    """
    changes = _stakes(moment, ruleset)
    taker = stick_taker(loser, values)
    counters = moment.honba * ruleset.honba_ron
    returned = 0
    for winner, value in values.items():
        paid = value + (counters if ruleset.multiple_ron_honba_each or winner == taker else 0)
        changes[winner] += paid
        changes[loser] -= paid
        if winner != taker and winner in moment.riichi:
            changes[winner] += ruleset.riichi_stick
            returned += ruleset.riichi_stick
    changes[taker] += _pot(moment, ruleset) - returned
    return changes


# ---------------------------------------------------------------------------------------------------
# Direct check: the readings of one given change.


def readings(moment: Moment, changes: tuple[int, int, int, int], ruleset: Ruleset) -> list[HandOutcome]:
    """Every way ``changes`` (per seat, riichi stakes and sticks included) is a legal outcome of
    ``moment``, found without enumerating; empty when it is not legal.

    A chombo without table payment has no changes at all; it is read only when a riichi declarer makes
    the all-zero change impossible for a draw (its offender cannot be read from the changes).
    """
    stick, riichi = ruleset.riichi_stick, moment.riichi
    before = [changes[0], changes[1], changes[2], changes[3]]
    for seat in riichi:
        before[seat] += stick
    gainers: list[int] = []
    paid: dict[int, int] = {}
    for seat in SEATS:
        if before[seat] > 0:
            gainers.append(seat)
        elif before[seat] < 0:
            paid[seat] = -before[seat]
    total = before[0] + before[1] + before[2] + before[3]
    found: list[HandOutcome] = []
    if total == stick * (moment.sticks + len(riichi)) and paid:
        if len(gainers) == 1:
            _single_win_readings(moment, changes, gainers[0], paid, ruleset, found)
        elif len(paid) == 1 and len(gainers) <= most_ron_winners(ruleset):
            (loser,) = paid
            outcome = _multiple_ron_reading(moment, changes, loser, gainers, before, ruleset)
            if outcome:
                found.append(outcome)
    if total == 0 and (0 not in before or not gainers):
        # Noten payments change every player's points, or nobody's.
        _draw_readings(moment, changes, before, ruleset, found)
    if ruleset.nagashi_mangan and total == 0 and 0 < len(gainers) < 4:
        _nagashi_readings(moment, changes, before, tuple(gainers), found)
    if riichi and not any(changes) and not ruleset.chombo_table_payment:
        found.append(HandOutcome(CHOMBO, changes))
    return found


def _single_win_readings(
    moment: Moment,
    changes: tuple[int, int, int, int],
    winner: int,
    paid: dict[int, int],
    ruleset: Ruleset,
    found: list[HandOutcome],
) -> None:
    tables = payment_tables(ruleset)
    dealer = winner == moment.dealer
    if len(paid) == 1:
        ((loser, amount),) = paid.items()
        value = tables.ron[dealer].get(amount - moment.honba * ruleset.honba_ron)
        if value:
            found.append(HandOutcome(RON, changes, (winner,), (loser,), value=value))
        if amount - 3 * moment.honba * ruleset.honba_tsumo_each in tables.liable_tsumo[dealer]:
            found.append(HandOutcome(TSUMO, changes, (winner,), (loser,), liable=loser, value="yakuman"))
    elif len(paid) == 2:
        for loser, liable in itertools.permutations(paid, 2):
            half = paid[liable]
            if half in tables.liable_ron[dealer] and paid[loser] == half + moment.honba * ruleset.honba_ron:
                found.append(
                    HandOutcome(RON, changes, (winner,), (loser, liable), liable=liable, value="yakuman")
                )
                break
    else:
        value = _tsumo_value(moment.dealer, paid, moment.honba * ruleset.honba_tsumo_each, tables)
        if value:
            found.append(HandOutcome(TSUMO, changes, (winner,), value=value))


def _tsumo_value(dealer: int, paid: dict[int, int], counters: int, tables: PaymentTables) -> str | None:
    """The hand value of a self-draw that each of the three payers paid ``paid[seat]`` (counters
    included), or None when those payments are not a legal self-draw."""
    from_others = {amount - counters for seat, amount in paid.items() if seat != dealer}
    if len(from_others) != 1:
        return None
    from_other = from_others.pop()
    if dealer not in paid:
        return tables.tsumo_all.get(from_other)
    return tables.tsumo_split.get((paid[dealer] - counters, from_other))


def _multiple_ron_reading(
    moment: Moment,
    changes: tuple[int, int, int, int],
    loser: int,
    winners: list[int],
    before: list[int],
    ruleset: Ruleset,
) -> HandOutcome | None:
    tables = payment_tables(ruleset)
    taker = stick_taker(loser, winners)
    counters = moment.honba * ruleset.honba_ron
    stick = ruleset.riichi_stick
    returned = sum(stick for winner in winners if winner != taker and winner in moment.riichi)
    names: dict[int, str] = {}
    for winner in winners:
        if winner == taker:
            amount = before[winner] - _pot(moment, ruleset) + returned
        else:
            amount = before[winner] - (stick if winner in moment.riichi else 0)
        if ruleset.multiple_ron_honba_each or winner == taker:
            amount -= counters
        value = tables.ron[winner == moment.dealer].get(amount)
        if not value:
            return None
        names[winner] = value
    ordered = tuple(sorted(winners, key=lambda seat: (seat - loser) % 4))
    value = ", ".join(names[seat] for seat in ordered)
    return HandOutcome(MULTIPLE_RON, changes, ordered, (loser,), value=value)


def _draw_readings(
    moment: Moment,
    changes: tuple[int, int, int, int],
    before: list[int],
    ruleset: Ruleset,
    found: list[HandOutcome],
) -> None:
    if not any(before):
        # Nobody tenpai first: the likelier reading, kept when both lead to the same game state later.
        if not (moment.riichi and ruleset.noten_riichi_chombo):
            found.append(HandOutcome(DRAW, changes, tenpai=()))
        found.append(HandOutcome(DRAW, changes, tenpai=(0, 1, 2, 3)))
        return
    tenpai = tuple(seat for seat in SEATS if before[seat] > 0)
    if noten_payments(tenpai, ruleset) != before:
        return
    if ruleset.noten_riichi_chombo and not moment.riichi <= set(tenpai):
        return
    found.append(HandOutcome(DRAW, changes, tenpai=tenpai))


def _nagashi_readings(
    moment: Moment,
    changes: tuple[int, int, int, int],
    before: list[int],
    nagashi: tuple[int, ...],
    found: list[HandOutcome],
) -> None:
    """A nagashi mangan: each of its players gains (a mangan from each of the others, less what he pays the
    other nagashi players). Whether the dealer was tenpai changes nothing paid, only who deals next: both
    readings, the riichi declarers tenpai in each."""
    if nagashi_payments(nagashi, moment.dealer) != before:
        return
    riichi = tuple(sorted(moment.riichi))
    found.append(HandOutcome(NAGASHI, changes, nagashi, tenpai=riichi))
    if moment.dealer not in moment.riichi:
        with_dealer = tuple(sorted({*moment.riichi, moment.dealer}))
        found.append(HandOutcome(NAGASHI, changes, nagashi, tenpai=with_dealer))


def is_legal(moment: Moment, changes: Sequence[int], ruleset: Ruleset) -> bool:
    """True when ``changes`` is one legal outcome of ``moment`` (the fast form of ``legal_outcomes``)."""
    return bool(readings(moment, _as_tuple(changes), ruleset))


def nearest_ron_values(amount: int, dealer: bool, ruleset: Ruleset) -> tuple[int | None, int | None]:
    """The legal ron values (counters excluded) just below and just above ``amount``."""
    values = sorted(payment_tables(ruleset).ron[dealer])
    below = max((value for value in values if value < amount), default=None)
    above = min((value for value in values if value > amount), default=None)
    return below, above


__all__ = [
    "CHOMBO",
    "DRAW",
    "MULTIPLE_RON",
    "RON",
    "TSUMO",
    "HandOutcome",
    "Moment",
    "PaymentTables",
    "chombo_payments",
    "han_fu_problem",
    "is_legal",
    "legal_han_fu",
    "legal_outcomes",
    "most_ron_winners",
    "multiple_ron_changes",
    "nagashi_payments",
    "nearest_ron_values",
    "noten_payments",
    "payment_tables",
    "readings",
    "stick_taker",
]
