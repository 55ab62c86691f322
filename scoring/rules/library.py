"""The adapter to the ``mahjong`` library (2.1): a ``Hand`` in the library's terms, scored by its
``HandCalculator`` under a ``HandConfig`` set for the ruleset, and its answer read back in WRCR 2015 terms.

The library splits the hand into groups, finds the waits and counts yaku and fu. This module only
translates: tiles to the 136 format, declared groups to ``Meld``, the ruleset to ``OptionalRules``, the
library's yaku to their WRCR English names, its errors to reasons that cite the rules, and its fu of a double
wind pair to the ruleset's value. What WRCR 2015 scores differently is corrected in ``scoring.rules.wrcr``.
"""

from __future__ import annotations

from mahjong.hand_calculating.fu import FuCalculator
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.hand_calculating.yaku import Yaku
from mahjong.hand_calculating.yaku_list import (
    Chankan,
    Chantai,
    Chiitoitsu,
    Chinitsu,
    Chun,
    DaburuRiichi,
    Dora,
    Haitei,
    Haku,
    Hatsu,
    Honitsu,
    Honroto,
    Houtei,
    Iipeiko,
    Ippatsu,
    Ittsu,
    Junchan,
    Pinfu,
    Renhou,
    Riichi,
    Rinshan,
    RoundWindEast,
    RoundWindNorth,
    RoundWindSouth,
    RoundWindWest,
    Ryanpeikou,
    Sanankou,
    SanKantsu,
    Sanshoku,
    SanshokuDoukou,
    SeatWindEast,
    SeatWindNorth,
    SeatWindSouth,
    SeatWindWest,
    Shosangen,
    Tanyao,
    Toitoi,
    Tsumo,
    UraDora,
)
from mahjong.hand_calculating.yaku_list.yakuman import (
    Chiihou,
    Chinroutou,
    ChuurenPoutou,
    DaburuChuurenPoutou,
    DaburuKokushiMusou,
    Daisangen,
    DaiSuushii,
    KokushiMusou,
    Ryuuiisou,
    Shousuushii,
    Suuankou,
    SuuankouTanki,
    Suukantsu,
    Tenhou,
    Tsuuiisou,
)
from mahjong.meld import Meld as LibraryMeld

from scoring.rules.hand_input import (
    BIG_FOUR_WINDS,
    BIG_THREE_DRAGONS,
    BLESSING_OF_MAN,
    THIRTEEN_ORPHANS,
    Hand,
)
from scoring.rules.i18n import _, gettext_noop
from scoring.rules.ruleset import Ruleset

__all__ = [
    "DORA_ID",
    "ERR_NO_YAKU",
    "NOT_COMPLETE",
    "NO_YAKU",
    "URA_DORA_ID",
    "library_error",
    "library_fu",
    "run_library",
    "wrcr_name",
    "yaku_han",
    "yaku_name",
]

# The library's answer when a complete hand has no yaku.
ERR_NO_YAKU = HandCalculator.ERR_NO_YAKU
DORA_ID = Dora.yaku_id
URA_DORA_ID = UraDora.yaku_id

_LIBRARY_MELD_TYPES = {
    "chi": LibraryMeld.CHI,
    "pon": LibraryMeld.PON,
    "kan_open": LibraryMeld.KAN,
    "kan_added": LibraryMeld.SHOUMINKAN,
    "kan_closed": LibraryMeld.KAN,
}
# The library's yaku, by id, under their WRCR 2015 English names (spelled as the vectors spell them).
# Without double yakuman the library's "double" forms (13-sided Thirteen Orphans, 9-sided Nine Gates,
# Four Concealed Pungs on a pair wait) are the plain yakuman.
_YAKU_NAMES: dict[int, str] = {
    Riichi.yaku_id: "Riichi",
    DaburuRiichi.yaku_id: "Double Riichi",
    Ippatsu.yaku_id: "Ippatsu",
    Tsumo.yaku_id: "Fully Concealed Hand",
    Pinfu.yaku_id: "Pinfu",
    Iipeiko.yaku_id: "Pure Double Chow",
    Tanyao.yaku_id: "All Simples",
    Haku.yaku_id: "Yakuhai (White Dragon)",
    Hatsu.yaku_id: "Yakuhai (Green Dragon)",
    Chun.yaku_id: "Yakuhai (Red Dragon)",
    SeatWindEast.yaku_id: "Yakuhai (Seat Wind)",
    SeatWindSouth.yaku_id: "Yakuhai (Seat Wind)",
    SeatWindWest.yaku_id: "Yakuhai (Seat Wind)",
    SeatWindNorth.yaku_id: "Yakuhai (Seat Wind)",
    RoundWindEast.yaku_id: "Yakuhai (Prevalent Wind)",
    RoundWindSouth.yaku_id: "Yakuhai (Prevalent Wind)",
    RoundWindWest.yaku_id: "Yakuhai (Prevalent Wind)",
    RoundWindNorth.yaku_id: "Yakuhai (Prevalent Wind)",
    Chankan.yaku_id: "Robbing a Kong",
    Rinshan.yaku_id: "After a Kong",
    Haitei.yaku_id: "Last Tile Draw",
    Houtei.yaku_id: "Last Tile Claim",
    Chiitoitsu.yaku_id: "Seven Pairs",
    Ittsu.yaku_id: "Pure Straight",
    Sanshoku.yaku_id: "Mixed Triple Chow",
    Chantai.yaku_id: "Outside Hand",
    Toitoi.yaku_id: "All Pungs",
    SanshokuDoukou.yaku_id: "Triple Pung",
    Sanankou.yaku_id: "Three Concealed Pungs",
    SanKantsu.yaku_id: "Three Kongs",
    Honroto.yaku_id: "All Terminals and Honours",
    Shosangen.yaku_id: "Little Three Dragons",
    Ryanpeikou.yaku_id: "Twice Pure Double Chows",
    Honitsu.yaku_id: "Half Flush",
    Junchan.yaku_id: "Terminals in All Groups",
    Renhou.yaku_id: BLESSING_OF_MAN,
    Chinitsu.yaku_id: "Full Flush",
    Tenhou.yaku_id: "Blessing of Heaven",
    Chiihou.yaku_id: "Blessing of Earth",
    KokushiMusou.yaku_id: THIRTEEN_ORPHANS,
    DaburuKokushiMusou.yaku_id: THIRTEEN_ORPHANS,
    ChuurenPoutou.yaku_id: "Nine Gates",
    DaburuChuurenPoutou.yaku_id: "Nine Gates",
    Suuankou.yaku_id: "Four Concealed Pungs",
    SuuankouTanki.yaku_id: "Four Concealed Pungs",
    Suukantsu.yaku_id: "Four Kongs",
    Ryuuiisou.yaku_id: "All Green",
    Chinroutou.yaku_id: "All Terminals",
    Tsuuiisou.yaku_id: "All Honours",
    Daisangen.yaku_id: BIG_THREE_DRAGONS,
    Shousuushii.yaku_id: "Little Four Winds",
    DaiSuushii.yaku_id: BIG_FOUR_WINDS,
}

# Marked for the catalogues here, translated where they are given (library_error, wrcr.score_hand).
NOT_COMPLETE = gettext_noop(
    "not a winning hand: the tiles do not form four groups and a pair, seven different pairs "
    "or Thirteen Orphans (WRCR 2015 §5.2)"
)
NO_YAKU = gettext_noop(
    "no yaku: a winning hand needs at least one yaku, and dora are not yaku (WRCR 2015 §5.2, §6.1)"
)


def run_library(hand: Hand, ruleset: Ruleset, *, renhou: bool) -> HandResponse:
    """Score the hand with the ``mahjong`` library, configured for the ruleset.

    The configuration is built afresh for every call: the library writes into it (dora han, double
    yakuman values) while it evaluates.
    """
    options = OptionalRules(
        has_open_tanyao=True,  # WRCR 2015 §6.5.1: All Simples "can be open or closed"
        has_aka_dora=False,  # §3.3: no red fives
        has_double_yakuman=False,  # §6.1, §6.5: no double yakuman
        kazoe_limit=HandConstants.KAZOE_SANBAIMAN,  # §6.1: 13 han or more without a yakuman is sanbaiman
        kiriage=ruleset.kiriage,  # §6.1: 4 han 30 fu and 3 han 60 fu are mangan
        fu_for_open_pinfu=True,  # §6.3: an open hand with no minipoints beside the 20 for winning gets 2
        fu_for_pinfu_tsumo=False,  # §6.3: no self-draw minipoints for pinfu
        renhou_as_yakuman=False,  # §6.5.4: Blessing of Man is a mangan (or five han under EMA)
        has_daisharin=False,
        has_daichisei=False,
        has_sashikomi_yakuman=False,
        paarenchan_needs_yaku=True,
    )
    flags = hand.flags
    config = HandConfig(
        is_tsumo=hand.tsumo,
        is_riichi="riichi" in flags or "double_riichi" in flags,
        is_daburu_riichi="double_riichi" in flags,
        is_ippatsu="ippatsu" in flags,
        is_rinshan="rinshan" in flags,
        is_chankan="chankan" in flags,
        # §6.5.1: "If the last tile of the wall is a replacement tile drawn after a kong, only After a Kong
        # will be scored."
        is_haitei="haitei" in flags and "rinshan" not in flags,
        is_houtei="houtei" in flags,
        is_tenhou="tenhou" in flags,
        is_chiihou="chiihou" in flags,
        is_renhou=renhou,
        player_wind=hand.seat_wind,
        round_wind=hand.round_wind,
        options=options,
    )
    tiles, win_tile, melds = _library_tiles(hand)
    return HandCalculator.estimate_hand_value(
        tiles,
        win_tile,
        melds=melds,
        dora_indicators=[kind * 4 for kind in hand.dora_indicators],
        ura_dora_indicators=[kind * 4 for kind in hand.ura_dora_indicators],
        config=config,
    )


def _library_tiles(hand: Hand) -> tuple[list[int], int, list[LibraryMeld]]:
    """The hand in the library's 136 format (kind * 4 + copy), its winning tile and its melds."""
    copies = [0] * 34

    def take(kind: int) -> int:
        tile = kind * 4 + copies[kind]
        copies[kind] += 1
        return tile

    tiles = [take(kind) for kind in hand.concealed]
    win_tile = tiles[hand.concealed.index(hand.win_tile)]
    melds: list[LibraryMeld] = []
    for meld in hand.melds:
        meld_tiles = [take(kind) for kind in meld.tiles]
        tiles.extend(meld_tiles)
        melds.append(
            LibraryMeld(meld_type=_LIBRARY_MELD_TYPES[meld.kind], tiles=meld_tiles, opened=meld.is_open)
        )
    return tiles, win_tile, melds


def library_fu(response: HandResponse, ruleset: Ruleset) -> int | None:
    """The library's fu, a double wind pair counted as ``ruleset.double_wind_pair_fu`` (WRCR 2015 §6.3: 4)."""
    details = response.fu_details or []
    double_pair = [item for item in details if item["reason"] == FuCalculator.DOUBLE_VALUED_PAIR]
    if not double_pair or ruleset.double_wind_pair_fu == double_pair[0]["fu"]:
        return response.fu
    raw = sum(item["fu"] for item in details) - double_pair[0]["fu"] + ruleset.double_wind_pair_fu
    return -(-raw // 10) * 10  # §6.1: minipoints are rounded up to the next ten


def yaku_name(yaku: Yaku) -> str:
    name = _YAKU_NAMES.get(yaku.yaku_id)
    if name is None:
        raise RuntimeError(f"the mahjong library gave a yaku outside WRCR 2015: {yaku.name} ({yaku.yaku_id})")
    return name


def yaku_han(yaku: Yaku, is_open: bool) -> int:
    """The han of a yaku as the library counts them: the open value for an open hand when it has one."""
    return yaku.han_open if is_open and yaku.han_open else yaku.han_closed


def library_error(error: str) -> str:
    if error == HandCalculator.ERR_HAND_NOT_WINNING:
        return _(NOT_COMPLETE)
    if error == HandCalculator.ERR_NO_YAKU:
        return _(NO_YAKU)
    return _("the situation flags contradict each other ({error})").format(error=error.replace("_", " "))


def wrcr_name(yaku: Yaku) -> str | None:
    """The WRCR 2015 name of one of the library's yaku, or None for one outside WRCR 2015."""
    return _YAKU_NAMES.get(yaku.yaku_id)
