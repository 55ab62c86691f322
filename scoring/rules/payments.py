"""Hand values and payments (WRCR 2015 §6.1, §6.2, §5.7.7).

All values are integers in table points. ``basic_points`` is the base value of a hand, ``win_payments``
what each payer pays the winner (continuance counters included, riichi sticks not).
"""

from __future__ import annotations

from scoring.rules.ruleset import Ruleset

MANGAN = 2000
HANEMAN = 3000
BAIMAN = 4000
SANBAIMAN = 6000
YAKUMAN = 8000
# WRCR 2015 §6.1: a base value of 1,920 is rounded up to mangan (kiriage).
KIRIAGE_BASE = 1920

LIMIT_NAMES = ("", "mangan", "haneman", "baiman", "sanbaiman", "yakuman")


def round_up_100(points: int) -> int:
    """WRCR 2015 §6.1: "Payments are rounded up to the next hundred"."""
    return -(-points // 100) * 100


def basic_points(han: int, fu: int, ruleset: Ruleset, yakuman: int = 0) -> int:
    """The base value of a hand: fu x 2^(han + 2) below five han, else the limit's base (WRCR 2015 §6.1).

    ``yakuman`` is the number of yakuman in the hand; they count once unless the ruleset accumulates them.
    13 han or more without a yakuman is only sanbaiman (no counted yakuman), unless the ruleset counts it
    as a yakuman (``counted_yakuman``, the online rules).
    """
    if yakuman:
        if yakuman < 0:
            raise ValueError(f"yakuman must be positive, got {yakuman}")
        return YAKUMAN * (yakuman if ruleset.yakuman_accumulate else 1)
    if han < 1:
        raise ValueError(f"a winning hand has at least one han, got {han}")
    if han >= 13 and ruleset.counted_yakuman:
        return YAKUMAN
    if han >= 11:
        return SANBAIMAN
    if han >= 8:
        return BAIMAN
    if han >= 6:
        return HANEMAN
    if han == 5:
        return MANGAN
    if fu < 20:
        raise ValueError(f"a winning hand has at least 20 fu, got {fu}")
    base = fu << (han + 2)
    if base > MANGAN or (ruleset.kiriage and base == KIRIAGE_BASE):
        return MANGAN
    return base


# The name of each limit's base value. A yakuman's (8,000) is also that of 13 han or more where the ruleset
# counts them as a yakuman (``counted_yakuman``, kazoe yakuman: Tenhou, Mahjong Soul).
LIMITS = {MANGAN: "mangan", HANEMAN: "haneman", BAIMAN: "baiman", SANBAIMAN: "sanbaiman", YAKUMAN: "yakuman"}


def limit_name(han: int, fu: int, ruleset: Ruleset, yakuman: int = 0) -> str:
    """ "" below mangan, else "mangan", "haneman", "baiman", "sanbaiman" or "yakuman" (a yakuman, or 13 han
    or more under a ruleset with counted yakuman; without it they are sanbaiman)."""
    if yakuman:
        return "yakuman"
    base = basic_points(han, fu, ruleset)
    if base < MANGAN:
        return ""
    return LIMITS[base]


def ron_value(basic: int, dealer: bool) -> int:
    """What the discarder pays without counters: 6 x base for the dealer, 4 x base otherwise (§6.1)."""
    return round_up_100(basic * (6 if dealer else 4))


def tsumo_values(basic: int, dealer: bool) -> tuple[int, int]:
    """(paid by the dealer, paid by each non-dealer) for a self-draw, without counters (§6.1).

    A dealer's self-draw is paid 2 x base by each opponent; the first value is then 0 (there is no other
    dealer)."""
    if dealer:
        return 0, round_up_100(2 * basic)
    return round_up_100(2 * basic), round_up_100(basic)


def win_payments(
    basic: int, *, dealer: bool, tsumo: bool, honba: int, ruleset: Ruleset, liable: bool = False
) -> dict[str, int]:
    """Each payment for a win, continuance counters included (WRCR 2015 §6.1, §5.7.7, §6.2).

    Keys: ron -> ``ron``; non-dealer tsumo -> ``tsumo_dealer`` and ``tsumo_non_dealer`` (per payer);
    dealer tsumo -> ``tsumo_all`` (per payer). With liability: ron -> ``ron_discarder`` and ``ron_liable``,
    tsumo -> ``tsumo_liable``.
    """
    if not tsumo:
        value = ron_value(basic, dealer)
        counters = honba * ruleset.honba_ron
        if not liable:
            return {"ron": value + counters}
        # WRCR 2015 §6.2: the liable player shares the payment equally with the discarder; only the
        # discarder pays the counters. Each half is a payment, so it is rounded up to 100 on its own;
        # liability exists only for yakuman, whose halves (16,000 or 24,000) are already round.
        half = round_up_100(basic * (3 if dealer else 2))
        return {"ron_discarder": half + counters, "ron_liable": half}
    from_dealer, from_non_dealer = tsumo_values(basic, dealer)
    counters = honba * ruleset.honba_tsumo_each
    if liable:
        # WRCR 2015 §6.2: on a self-draw the liable player pays the full value, all counters included.
        full = 3 * from_non_dealer if dealer else from_dealer + 2 * from_non_dealer
        return {"tsumo_liable": full + 3 * counters}
    if dealer:
        return {"tsumo_all": from_non_dealer + counters}
    return {"tsumo_dealer": from_dealer + counters, "tsumo_non_dealer": from_non_dealer + counters}


def format_points(points: int, sign: bool = False) -> str:
    """Points for a reader: thousands separators, and a sign when asked ("+3,800", "-1,000", "0")."""
    if sign and points:
        return f"{points:+,}"
    return f"{points:,}"
