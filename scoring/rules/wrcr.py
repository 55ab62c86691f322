"""WRCR 2015 on top of the ``mahjong`` library's answer: what the rules score differently, and the result.

``score_hand`` checks that the situation flags describe a possible win, runs the library
(``scoring.rules.library``) and corrects what it does not follow (docs/hand-evaluation.md):

* different yakuman do not add up: a hand is one yakuman, 8,000 base (WRCR 2015 §6.1, §6.5);
* Blessing of Man is a mangan that does not add up with other yaku or dora: the hand scores the higher of
  that mangan and its value without Blessing of Man, and a yakuman stays a yakuman (§6.5.4);
* a concealed kong can be robbed only to win on Thirteen Orphans (§5.4.8, §6.5.1);
* a win on a replacement tile that is also the last tile is After a Kong, never Last Tile Draw (§6.5.1);
* liability for Big Three Dragons and Big Four Winds (§6.2);
* base value, limit and payments come from ``scoring.rules.payments`` (§6.1).

Payments and base values are integers in table points.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.rules.hand_input import (
    BIG_FOUR_WINDS,
    BIG_THREE_DRAGONS,
    BLESSING_OF_MAN,
    THIRTEEN_ORPHANS,
    YAKU_ORDER,
    Hand,
)
from scoring.rules.i18n import _
from scoring.rules.library import (
    DORA_ID,
    ERR_NO_YAKU,
    NO_YAKU,
    URA_DORA_ID,
    library_error,
    library_fu,
    run_library,
    wrcr_name,
    yaku_han,
    yaku_name,
)
from scoring.rules.payments import MANGAN, basic_points, limit_name, win_payments
from scoring.rules.ruleset import Ruleset, get_ruleset
from scoring.rules.tiles import tile_str

__all__ = ["HandResult", "score_hand"]

_YAKU_RANK = {name: rank for rank, name in enumerate(YAKU_ORDER)}


@dataclass(frozen=True, slots=True)
class HandResult:
    """The evaluation of a hand; ``to_dict`` gives the JSON form of the vectors' ``expected``."""

    valid: bool
    reason: str = ""  # why the hand is not a legal win, naming the rule
    han: int | None = None  # None for yakuman and for Blessing of Man scored as its fixed mangan
    fu: int | None = None
    limit: str = ""
    yaku: tuple[tuple[str, int | None], ...] = ()  # dora not included; han None for yakuman
    dora: int = 0
    ura_dora: int = 0
    red_fives: int = 0  # counted as dora under a ruleset with red fives
    payments: Mapping[str, int] = field(default_factory=dict)
    total_gain: int = 0  # payments plus the riichi sticks on the table
    basic_points: int = 0

    @classmethod
    def invalid(cls, reason: str) -> HandResult:
        return cls(valid=False, reason=reason)

    def to_dict(self) -> dict[str, Any]:
        if not self.valid:
            return {"valid": False, "reason": self.reason}
        return {
            "valid": True,
            "han": self.han,
            "fu": self.fu,
            "limit": self.limit,
            "yaku": [[name, han] for name, han in self.yaku],
            "dora": self.dora,
            "ura_dora": self.ura_dora,
            **({"red_fives": self.red_fives} if self.red_fives else {}),
            "payments": dict(self.payments),
            "total_gain": self.total_gain,
            "basic_points": self.basic_points,
        }


def score_hand(hand: Hand, ruleset: Ruleset | None = None) -> HandResult:
    """Evaluate a parsed hand under ``ruleset`` (default WRC2015)."""
    ruleset = ruleset or get_ruleset()
    problem = _situation_problem(hand)
    if problem:
        return HandResult.invalid(problem)
    if hand.red_fives > ruleset.red_fives:
        if not ruleset.red_fives:
            # WRCR 2015 §3.3: red fives "are not used in World Riichi Championship Rules".
            return HandResult.invalid(
                _("{ruleset} plays without red fives (WRCR 2015 §3.3): the hand has {count}").format(
                    ruleset=ruleset.name, count=hand.red_fives
                )
            )
        return HandResult.invalid(
            _("{ruleset} plays with {most} red fives, the hand has {count}").format(
                ruleset=ruleset.name, most=ruleset.red_fives, count=hand.red_fives
            )
        )
    # WRCR 2015 §6.5.4: Blessing of Man is a mangan on its own, so the library scores the hand without it
    # and the adapter compares; a ruleset where it is a five han yaku (EMA) lets the library add it.
    renho_mangan = hand.has("renhou") and ruleset.renho_mangan
    response = run_library(hand, ruleset, renhou=hand.has("renhou") and not ruleset.renho_mangan)
    if response.error and response.error != ERR_NO_YAKU:
        return HandResult.invalid(library_error(response.error))
    library_yaku = response.yaku or []

    if hand.robbed_kong == "concealed":
        # WRCR 2015 §5.4.8, §6.5.1: "A concealed kong can only be robbed in the case of Thirteen Orphans."
        kokushi = any(wrcr_name(yaku) == THIRTEEN_ORPHANS for yaku in library_yaku)
        if not (kokushi and ruleset.kokushi_robs_concealed_kong):
            if ruleset.kokushi_robs_concealed_kong:
                return HandResult.invalid(
                    _(
                        "a concealed kong can only be robbed to win on Thirteen Orphans "
                        "(WRCR 2015 §5.4.8, §6.5.1)"
                    )
                )
            return HandResult.invalid(
                _("a concealed kong cannot be robbed under {ruleset}").format(ruleset=ruleset.name)
            )

    if response.error:  # no yaku
        if renho_mangan:
            return _blessing_of_man(hand, ruleset)
        return HandResult.invalid(_(NO_YAKU))

    yakuman = sum(1 for yaku in library_yaku if yaku.is_yakuman)
    yaku_list: list[tuple[str, int | None]]
    if yakuman:
        han: int | None = None
        fu: int | None = None
        basic = basic_points(0, 0, ruleset, yakuman=yakuman)
        limit = limit_name(0, 0, ruleset, yakuman=yakuman)
        yaku_list = [(yaku_name(yaku), None) for yaku in library_yaku if yaku.is_yakuman]
        dora = ura_dora = 0
    else:
        han = response.han
        fu = library_fu(response, ruleset)
        if han is None or fu is None:
            raise RuntimeError("the mahjong library scored a hand without han or fu")
        # Each red five is one han of dora; like dora, it is no yaku (the hand needs one without it).
        han += hand.red_fives
        basic = basic_points(han, fu, ruleset)
        if renho_mangan and basic <= MANGAN:
            return _blessing_of_man(hand, ruleset)
        limit = limit_name(han, fu, ruleset)
        yaku_list = []
        dora = ura_dora = 0
        for yaku in library_yaku:
            if yaku.yaku_id == DORA_ID:
                dora = yaku.han_closed
            elif yaku.yaku_id == URA_DORA_ID:
                ura_dora = yaku.han_closed
            else:
                yaku_list.append((yaku_name(yaku), yaku_han(yaku, hand.is_open)))

    names = {name for name, _han in yaku_list}
    liable = (
        ruleset.liability
        and hand.liability in (BIG_THREE_DRAGONS, BIG_FOUR_WINDS)
        and hand.liability in names
    )
    payments = win_payments(
        basic, dealer=hand.dealer, tsumo=hand.tsumo, honba=hand.honba, ruleset=ruleset, liable=liable
    )
    return HandResult(
        valid=True,
        han=han,
        fu=fu,
        limit=limit,
        yaku=tuple(sorted(yaku_list, key=lambda item: _YAKU_RANK[item[0]])),
        dora=dora,
        ura_dora=ura_dora,
        red_fives=0 if yakuman else hand.red_fives,
        payments=payments,
        total_gain=_received(payments) + hand.riichi_sticks * ruleset.riichi_stick,
        basic_points=basic,
    )


def _blessing_of_man(hand: Hand, ruleset: Ruleset) -> HandResult:
    """WRCR 2015 §6.5.4: Blessing of Man as its fixed mangan, without other yaku or dora."""
    basic = basic_points(5, 0, ruleset)  # a mangan: from five han the fu do not count (§6.1)
    payments = win_payments(basic, dealer=hand.dealer, tsumo=hand.tsumo, honba=hand.honba, ruleset=ruleset)
    return HandResult(
        valid=True,
        limit=limit_name(5, 0, ruleset),
        yaku=((BLESSING_OF_MAN, None),),
        payments=payments,
        total_gain=_received(payments) + hand.riichi_sticks * ruleset.riichi_stick,
        basic_points=basic,
    )


def _received(payments: Mapping[str, int]) -> int:
    """What the winner receives from all payers (riichi sticks apart)."""
    payers = {"tsumo_non_dealer": 2, "tsumo_all": 3}
    return sum(amount * payers.get(key, 1) for key, amount in payments.items())


def _situation_problem(hand: Hand) -> str | None:
    """Why the flags describe no possible win, or None. Each reason names its rule."""
    flags = hand.flags
    riichi = "riichi" in flags or "double_riichi" in flags
    if riichi and hand.is_open:
        return _("Riichi needs a closed hand; only a concealed kong keeps it closed (WRCR 2015 §6.5.1)")
    if "ippatsu" in flags and not riichi:
        return _("Ippatsu needs Riichi or Double Riichi (WRCR 2015 §6.5.1)")
    if "ippatsu" in flags and "rinshan" in flags:
        return _(
            "a kong declaration interrupts the round and makes Ippatsu invalid, so Ippatsu cannot come with "
            "After a Kong (WRCR 2015 §6.5.1)"
        )
    if hand.tsumo:
        for flag, name, section in (
            ("houtei", "Last Tile Claim", "§6.5.1"),
            ("chankan", "Robbing a Kong", "§6.5.1"),
            ("renhou", BLESSING_OF_MAN, "§6.5.4"),
        ):
            if flag in flags:
                return _("{yaku} is not a win by self-draw (WRCR 2015 {section})").format(
                    yaku=name, section=section
                )
    else:
        for flag, name, section in (
            ("haitei", "Last Tile Draw", "§6.5.1"),
            ("rinshan", "After a Kong", "§6.5.1"),
            ("tenhou", "Blessing of Heaven", "§6.5.6"),
            ("chiihou", "Blessing of Earth", "§6.5.6"),
        ):
            if flag in flags:
                return _("{yaku} is a win by self-draw, not on a discard (WRCR 2015 {section})").format(
                    yaku=name, section=section
                )
    if "rinshan" in flags and not any(meld.is_kong for meld in hand.melds):
        return _(
            "After a Kong is a win on the replacement tile of the winner's own kong, and the hand has none "
            "(WRCR 2015 §6.5.1)"
        )
    if "chankan" in flags:
        if "houtei" in flags:
            return _(
                "a robbed tile is not the discard after the last tile: Robbing a Kong excludes "
                "Last Tile Claim (WRCR 2015 §6.5.1)"
            )
        held = hand.concealed.count(hand.win_tile) + sum(
            meld.tiles.count(hand.win_tile) for meld in hand.melds
        )
        if held != 1:
            return _(
                "Robbing a Kong: the other three {tile} are in the robbed kong, so the hand cannot hold "
                "another (WRCR 2015 §6.5.1)"
            ).format(tile=tile_str(hand.win_tile))
    for flag, name, section, dealer in (
        ("tenhou", "Blessing of Heaven", "§6.5.6", True),
        ("chiihou", "Blessing of Earth", "§6.5.6", False),
        ("renhou", BLESSING_OF_MAN, "§6.5.4", False),
    ):
        if flag not in flags:
            continue
        if hand.dealer != dealer:
            if dealer:
                text = _("{yaku} is a win by East (WRCR 2015 {section})")
            else:
                text = _("{yaku} is a win by a player other than East (WRCR 2015 {section})")
            return text.format(yaku=name, section=section)
        if hand.melds:
            return _(
                "{yaku} needs a closed hand without declared groups, concealed kongs included "
                "(WRCR 2015 {section})"
            ).format(yaku=name, section=section)
        if riichi:
            return _(
                "{yaku} is won before the player's first discard, so no riichi can have been declared "
                "(WRCR 2015 {section})"
            ).format(yaku=name, section=section)
    return None
