"""Hand evaluation from tiles: is a hand a legal win, and what is it worth (WRCR 2015 §5.2, §6).

``evaluate_hand(hand)`` takes a hand as JSON (the fields of the WRC hand vectors: ``concealed``, ``melds``,
``win_tile``, ``win``, winds, dora indicators, ``flags``, ...) and returns its han, fu, limit, yaku in WRCR
English names, dora, payments and the winner's total gain. ``parse_hand`` and ``score_hand`` are the two
halves, for callers that keep a parsed ``Hand`` or want the ``HandResult`` dataclass.

The ``mahjong`` library (2.1) splits the hand into groups, finds the waits and counts yaku and fu; it is
configured here for the ruleset, and this module corrects what it does not follow (docs/hand-evaluation.md):

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

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

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

from scoring.rules.payments import MANGAN, basic_points, limit_name, win_payments
from scoring.rules.ruleset import Ruleset, get_ruleset
from scoring.rules.tiles import (
    COPIES_PER_KIND,
    EAST,
    NORTH,
    SOUTH,
    WEST,
    HandInputError,
    parse_tile,
    parse_tiles,
    tile_str,
)

__all__ = [
    "FLAGS",
    "MELD_TYPES",
    "YAKU_ORDER",
    "DeclaredMeld",
    "Hand",
    "HandInputError",
    "HandResult",
    "evaluate_hand",
    "parse_hand",
    "score_hand",
]

# The situation flags of the input (vectors README): riichi declarations, how and when the hand was won.
FLAGS = (
    "riichi",
    "double_riichi",
    "ippatsu",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "tenhou",
    "chiihou",
    "renhou",
)
# Declared groups and their sizes: chi, pon, a melded kong from a discard (big melded kong), a pung
# promoted to a kong (small melded kong) and a concealed kong (WRCR 2015 §5.4.2-§5.4.8).
MELD_TYPES = {"chi": 3, "pon": 3, "kan_open": 4, "kan_added": 4, "kan_closed": 4}
_LIBRARY_MELD_TYPES = {
    "chi": LibraryMeld.CHI,
    "pon": LibraryMeld.PON,
    "kan_open": LibraryMeld.KAN,
    "kan_added": LibraryMeld.SHOUMINKAN,
    "kan_closed": LibraryMeld.KAN,
}
_WINDS = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}
_WIND_WORDS = {"EAST": "E", "SOUTH": "S", "WEST": "W", "NORTH": "N"}
_WIN_TILES = 14  # WRCR 2015 §5.2: four groups and a pair; each kong adds one tile.

BLESSING_OF_MAN = "Blessing of Man"
BIG_THREE_DRAGONS = "Big Three Dragons"
BIG_FOUR_WINDS = "Big Four Winds"
THIRTEEN_ORPHANS = "Thirteen Orphans"

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

# The order of the ``yaku`` list: riichi declarations, the way of winning, the hand's patterns, honour
# yaku, the replacement-tile and last-tile yaku, then yakuman (the order of the WRCR test vectors).
YAKU_ORDER = (
    "Double Riichi",
    "Riichi",
    "Ippatsu",
    "Fully Concealed Hand",
    "Robbing a Kong",
    "Pinfu",
    "Seven Pairs",
    "All Simples",
    "Pure Double Chow",
    "Twice Pure Double Chows",
    "Mixed Triple Chow",
    "Pure Straight",
    "Outside Hand",
    "Terminals in All Groups",
    "All Pungs",
    "Three Concealed Pungs",
    "Triple Pung",
    "Three Kongs",
    "All Terminals and Honours",
    "Half Flush",
    "Full Flush",
    "Little Three Dragons",
    "Yakuhai (White Dragon)",
    "Yakuhai (Green Dragon)",
    "Yakuhai (Red Dragon)",
    "Yakuhai (Seat Wind)",
    "Yakuhai (Prevalent Wind)",
    "After a Kong",
    "Last Tile Draw",
    "Last Tile Claim",
    BLESSING_OF_MAN,
    "Blessing of Heaven",
    "Blessing of Earth",
    THIRTEEN_ORPHANS,
    "Nine Gates",
    "Four Concealed Pungs",
    "Four Kongs",
    BIG_THREE_DRAGONS,
    "Little Four Winds",
    BIG_FOUR_WINDS,
    "All Green",
    "All Terminals",
    "All Honours",
)
_YAKU_RANK = {name: rank for rank, name in enumerate(YAKU_ORDER)}

# Names accepted in ``liability``: the WRCR names and their Japanese names (lower case).
_LIABILITY_ALIASES = {
    "big three dragons": BIG_THREE_DRAGONS,
    "daisangen": BIG_THREE_DRAGONS,
    "big four winds": BIG_FOUR_WINDS,
    "daisuushii": BIG_FOUR_WINDS,
    "daisuushi": BIG_FOUR_WINDS,
}
# WRCR 2015 §6.2: "There is no liability for feeding a Four Kongs or an After a Kong yaku."
_NO_LIABILITY = {name.lower() for name in YAKU_ORDER} - set(_LIABILITY_ALIASES)

_NOT_COMPLETE = (
    "not a winning hand: the tiles do not form four groups and a pair, seven different pairs "
    "or Thirteen Orphans (WRCR 2015 §5.2)"
)
_NO_YAKU = "no yaku: a winning hand needs at least one yaku, and dora are not yaku (WRCR 2015 §5.2, §6.1)"


# ---------------------------------------------------------------------------------------------------
# Input


@dataclass(frozen=True, slots=True)
class DeclaredMeld:
    """A declared group: ``kind`` is one of ``MELD_TYPES``, ``tiles`` its tile kinds (0-33), sorted."""

    kind: str
    tiles: tuple[int, ...]

    @property
    def is_kong(self) -> bool:
        return len(self.tiles) == 4

    @property
    def is_open(self) -> bool:
        """Every declared group opens the hand except a concealed kong (WRCR 2015 §5.4.8)."""
        return self.kind != "kan_closed"


@dataclass(frozen=True, slots=True)
class Hand:
    """A winning hand as declared at the table, tiles as kinds 0-33 (see ``scoring.rules.tiles``).

    Built by ``parse_hand``, which checks the notation and the tile counts.
    """

    concealed: tuple[int, ...]  # including the winning tile
    melds: tuple[DeclaredMeld, ...]
    win_tile: int
    tsumo: bool
    seat_wind: int
    round_wind: int
    dora_indicators: tuple[int, ...] = ()
    ura_dora_indicators: tuple[int, ...] = ()
    flags: frozenset[str] = frozenset()
    robbed_kong: str | None = None  # with chankan: "added" or "concealed"
    last_tile: bool = False
    liability: str | None = None  # the yakuman named for liability, as a WRCR name when it is one
    honba: int = 0
    riichi_sticks: int = 0

    @property
    def dealer(self) -> bool:
        return self.seat_wind == EAST

    @property
    def is_open(self) -> bool:
        """WRCR 2015 §2.2: open when a group was melded before the winning tile."""
        return any(meld.is_open for meld in self.melds)

    def has(self, flag: str) -> bool:
        return flag in self.flags


def parse_hand(data: Mapping[str, Any]) -> Hand:
    """Read a hand in the JSON form of the vectors. Raises ``HandInputError`` naming the faulty field.

    Fields other than those of a hand (``expected``, ``id``, ...) are ignored.
    """
    if not isinstance(data, Mapping):
        raise HandInputError(f"hand: expected an object with the hand's fields, got {type(data).__name__}")
    if "concealed" not in data:
        raise HandInputError("concealed: missing (the concealed tiles, winning tile included)")
    concealed = tuple(parse_tiles(data["concealed"], "concealed"))
    melds = _parse_melds(data.get("melds"))
    if "win_tile" not in data:
        raise HandInputError("win_tile: missing")
    win_tile = parse_tile(data["win_tile"], "win_tile")
    if win_tile not in concealed:
        raise HandInputError(
            f'win_tile: "{tile_str(win_tile)}" is not among the concealed tiles '
            "(they include the winning tile)"
        )
    win = data.get("win")
    if win not in ("ron", "tsumo"):
        raise HandInputError(f'win: expected "ron" or "tsumo", got {win!r}')
    flags, flag_last_tile = _parse_flags(data.get("flags"))
    robbed_kong = data.get("robbed_kong")
    if robbed_kong is not None:
        if robbed_kong not in ("added", "concealed"):
            raise HandInputError(f'robbed_kong: expected "added" or "concealed", got {robbed_kong!r}')
        if "chankan" not in flags:
            raise HandInputError("robbed_kong: only meaningful with the chankan flag (Robbing a Kong)")
    elif "chankan" in flags:
        robbed_kong = "added"
    last_tile = _parse_bool(data.get("last_tile", False), "last_tile") or flag_last_tile
    if last_tile and "rinshan" not in flags:
        raise HandInputError(
            "last_tile: marks a win on a replacement tile that is also the last tile, so it needs the "
            "rinshan flag (for a self-draw of the last tile of the live wall set haitei)"
        )
    hand = Hand(
        concealed=concealed,
        melds=melds,
        win_tile=win_tile,
        tsumo=win == "tsumo",
        seat_wind=_parse_wind(data.get("seat_wind"), "seat_wind"),
        round_wind=_parse_wind(data.get("round_wind"), "round_wind"),
        dora_indicators=_parse_indicators(data.get("dora_indicators"), "dora_indicators"),
        ura_dora_indicators=_parse_indicators(data.get("ura_dora_indicators"), "ura_dora_indicators"),
        flags=flags,
        robbed_kong=robbed_kong,
        last_tile=last_tile,
        liability=_parse_liability(data.get("liability")),
        honba=_parse_count(data.get("honba", 0), "honba"),
        riichi_sticks=_parse_count(data.get("riichi_sticks", 0), "riichi_sticks"),
    )
    _check_tile_counts(hand)
    return hand


def _parse_melds(value: object) -> tuple[DeclaredMeld, ...]:
    if value is None:
        return ()
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise HandInputError(f"melds: expected a list of groups, got {value!r}")
    melds: list[DeclaredMeld] = []
    for index, item in enumerate(value):
        where = f"melds[{index}]"
        if not isinstance(item, Mapping):
            raise HandInputError(f'{where}: expected {{"type": ..., "tiles": ...}}, got {item!r}')
        kind = item.get("type")
        if not isinstance(kind, str) or kind not in MELD_TYPES:
            raise HandInputError(f"{where}.type: {kind!r} is not one of {', '.join(MELD_TYPES)}")
        text = item.get("tiles")
        tiles = tuple(sorted(parse_tiles(text, f"{where}.tiles")))
        size = MELD_TYPES[kind]
        if len(tiles) != size:
            raise HandInputError(f'{where}.tiles: a {kind} has {size} tiles, "{text}" has {len(tiles)}')
        if kind == "chi":
            low = tiles[0]
            if low >= EAST or low % 9 > 6 or tiles != (low, low + 1, low + 2):
                raise HandInputError(
                    f'{where}.tiles: "{text}" is not a chow '
                    "(three consecutive tiles of one suit, WRCR 2015 §5.2)"
                )
        elif len(set(tiles)) != 1:
            group = "pung" if kind == "pon" else "kong"
            raise HandInputError(
                f'{where}.tiles: "{text}" is not a {group} (identical tiles, WRCR 2015 §5.2)'
            )
        melds.append(DeclaredMeld(kind, tiles))
    return tuple(melds)


def _parse_flags(value: object) -> tuple[frozenset[str], bool]:
    """The set flags, and ``last_tile`` when it is given among them."""
    if value is None:
        return frozenset(), False
    if not isinstance(value, Mapping):
        raise HandInputError(f"flags: expected an object of true/false flags, got {value!r}")
    flags: set[str] = set()
    last_tile = False
    for name, set_ in value.items():
        if name == "last_tile":
            last_tile = _parse_bool(set_, "flags.last_tile")
            continue
        if name not in FLAGS:
            raise HandInputError(f"flags: {name!r} is not a flag (flags: {', '.join(FLAGS)})")
        if _parse_bool(set_, f"flags.{name}"):
            flags.add(name)
    return frozenset(flags), last_tile


def _parse_bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise HandInputError(f"{where}: expected true or false, got {value!r}")
    return value


def _parse_wind(value: object, where: str) -> int:
    code = value.upper() if isinstance(value, str) else value
    code = _WIND_WORDS.get(code, code) if isinstance(code, str) else code
    if not isinstance(code, str) or code not in _WINDS:
        raise HandInputError(f'{where}: expected "E", "S", "W" or "N", got {value!r}')
    return _WINDS[code]


def _parse_indicators(value: object, where: str) -> tuple[int, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(parse_tiles(value, where))
    if not isinstance(value, Sequence):
        raise HandInputError(f'{where}: expected a list of tiles such as ["3p", "1z"], got {value!r}')
    tiles: list[int] = []
    for index, item in enumerate(value):
        tiles.extend(parse_tiles(item, f"{where}[{index}]"))
    return tuple(tiles)


def _parse_liability(value: object) -> str | None:
    """The yakuman named for liability (WRCR 2015 §6.2): a name, or an object with its name as ``yaku``."""
    if value is None or value is False:
        return None
    name = value.get("yaku") if isinstance(value, Mapping) else value
    if not isinstance(name, str):
        raise HandInputError(
            f'liability: expected {{"yaku": "Big Three Dragons" or "Big Four Winds"}}, got {value!r}'
        )
    key = name.strip().lower()
    if key in _LIABILITY_ALIASES:
        return _LIABILITY_ALIASES[key]
    if key in _NO_LIABILITY:
        return name.strip()
    raise HandInputError(
        f"liability: {name!r} is not a yaku (liability is for Big Three Dragons or Big Four Winds)"
    )


def _parse_count(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise HandInputError(f"{where}: expected a whole number, 0 or more, got {value!r}")
    return value


def _check_tile_counts(hand: Hand) -> None:
    total = len(hand.concealed) + 3 * len(hand.melds)
    if total != _WIN_TILES:
        kongs = sum(meld.is_kong for meld in hand.melds)
        raise HandInputError(
            f"concealed: {len(hand.concealed)} concealed tiles and {len(hand.melds)} declared groups "
            f"({kongs} kongs) do not make a winning hand: it has {_WIN_TILES} tiles plus one per kong "
            "(four groups and a pair, WRCR 2015 §5.2)"
        )
    counts = Counter(hand.concealed)
    for meld in hand.melds:
        counts.update(meld.tiles)
    for kind, count in sorted(counts.items()):
        if count > COPIES_PER_KIND:
            raise HandInputError(
                f"concealed: {count} tiles {tile_str(kind)} between the concealed tiles and the melds; "
                "a set has four of each tile (WRCR 2015 §3)"
            )


# ---------------------------------------------------------------------------------------------------
# Result


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
            "payments": dict(self.payments),
            "total_gain": self.total_gain,
            "basic_points": self.basic_points,
        }


# ---------------------------------------------------------------------------------------------------
# Evaluation


def evaluate_hand(hand: Mapping[str, Any], ruleset: Ruleset | None = None) -> dict[str, Any]:
    """Evaluate a hand given in the JSON form of the vectors under ``ruleset`` (default WRC2015).

    Returns the vectors' ``expected`` form; ``{"valid": False, "reason": ...}`` when the hand is not a legal
    win. Raises ``HandInputError`` (a ``ValueError``) when the input does not describe a hand.
    """
    return score_hand(parse_hand(hand), ruleset).to_dict()


def score_hand(hand: Hand, ruleset: Ruleset | None = None) -> HandResult:
    """Evaluate a parsed hand under ``ruleset`` (default WRC2015)."""
    ruleset = ruleset or get_ruleset()
    problem = _situation_problem(hand)
    if problem:
        return HandResult.invalid(problem)
    # WRCR 2015 §6.5.4: Blessing of Man is a mangan on its own, so the library scores the hand without it
    # and the adapter compares; a ruleset where it is a five han yaku (EMA) lets the library add it.
    renho_mangan = hand.has("renhou") and ruleset.renho_mangan
    response = _run_library(hand, ruleset, renhou=hand.has("renhou") and not ruleset.renho_mangan)
    if response.error and response.error != HandCalculator.ERR_NO_YAKU:
        return HandResult.invalid(_library_error(response.error))
    library_yaku = response.yaku or []

    if hand.robbed_kong == "concealed":
        # WRCR 2015 §5.4.8, §6.5.1: "A concealed kong can only be robbed in the case of Thirteen Orphans."
        kokushi = any(_YAKU_NAMES.get(yaku.yaku_id) == THIRTEEN_ORPHANS for yaku in library_yaku)
        if not (kokushi and ruleset.kokushi_robs_concealed_kong):
            if ruleset.kokushi_robs_concealed_kong:
                return HandResult.invalid(
                    "a concealed kong can only be robbed to win on Thirteen Orphans "
                    "(WRCR 2015 §5.4.8, §6.5.1)"
                )
            return HandResult.invalid(f"a concealed kong cannot be robbed under {ruleset.name}")

    if response.error:  # no yaku
        if renho_mangan:
            return _blessing_of_man(hand, ruleset)
        return HandResult.invalid(_NO_YAKU)

    yakuman = sum(1 for yaku in library_yaku if yaku.is_yakuman)
    yaku_list: list[tuple[str, int | None]]
    if yakuman:
        han: int | None = None
        fu: int | None = None
        basic = basic_points(0, 0, ruleset, yakuman=yakuman)
        limit = limit_name(0, 0, ruleset, yakuman=yakuman)
        yaku_list = [(_yaku_name(yaku), None) for yaku in library_yaku if yaku.is_yakuman]
        dora = ura_dora = 0
    else:
        han = response.han
        fu = _fu(response, ruleset)
        if han is None or fu is None:
            raise RuntimeError("the mahjong library scored a hand without han or fu")
        basic = basic_points(han, fu, ruleset)
        if renho_mangan and basic <= MANGAN:
            return _blessing_of_man(hand, ruleset)
        limit = limit_name(han, fu, ruleset)
        yaku_list = []
        dora = ura_dora = 0
        for yaku in library_yaku:
            if yaku.yaku_id == Dora.yaku_id:
                dora = yaku.han_closed
            elif yaku.yaku_id == UraDora.yaku_id:
                ura_dora = yaku.han_closed
            else:
                yaku_list.append((_yaku_name(yaku), _yaku_han(yaku, hand.is_open)))

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
        return "Riichi needs a closed hand; only a concealed kong keeps it closed (WRCR 2015 §6.5.1)"
    if "ippatsu" in flags and not riichi:
        return "Ippatsu needs Riichi or Double Riichi (WRCR 2015 §6.5.1)"
    if "ippatsu" in flags and "rinshan" in flags:
        return (
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
                return f"{name} is not a win by self-draw (WRCR 2015 {section})"
    else:
        for flag, name, section in (
            ("haitei", "Last Tile Draw", "§6.5.1"),
            ("rinshan", "After a Kong", "§6.5.1"),
            ("tenhou", "Blessing of Heaven", "§6.5.6"),
            ("chiihou", "Blessing of Earth", "§6.5.6"),
        ):
            if flag in flags:
                return f"{name} is a win by self-draw, not on a discard (WRCR 2015 {section})"
    if "rinshan" in flags and not any(meld.is_kong for meld in hand.melds):
        return (
            "After a Kong is a win on the replacement tile of the winner's own kong, and the hand has none "
            "(WRCR 2015 §6.5.1)"
        )
    if "chankan" in flags:
        if "houtei" in flags:
            return (
                "a robbed tile is not the discard after the last tile: Robbing a Kong excludes "
                "Last Tile Claim (WRCR 2015 §6.5.1)"
            )
        held = hand.concealed.count(hand.win_tile) + sum(
            meld.tiles.count(hand.win_tile) for meld in hand.melds
        )
        if held != 1:
            return (
                f"Robbing a Kong: the other three {tile_str(hand.win_tile)} are in the robbed kong, so the "
                "hand cannot hold another (WRCR 2015 §6.5.1)"
            )
    for flag, name, section, dealer in (
        ("tenhou", "Blessing of Heaven", "§6.5.6", True),
        ("chiihou", "Blessing of Earth", "§6.5.6", False),
        ("renhou", BLESSING_OF_MAN, "§6.5.4", False),
    ):
        if flag not in flags:
            continue
        if hand.dealer != dealer:
            who = "East" if dealer else "a player other than East"
            return f"{name} is a win by {who} (WRCR 2015 {section})"
        if hand.melds:
            return (
                f"{name} needs a closed hand without declared groups, concealed kongs included "
                f"(WRCR 2015 {section})"
            )
        if riichi:
            return (
                f"{name} is won before the player's first discard, so no riichi can have been declared "
                f"(WRCR 2015 {section})"
            )
    return None


def _run_library(hand: Hand, ruleset: Ruleset, *, renhou: bool) -> HandResponse:
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


def _fu(response: HandResponse, ruleset: Ruleset) -> int | None:
    """The library's fu, a double wind pair counted as ``ruleset.double_wind_pair_fu`` (WRCR 2015 §6.3: 4)."""
    details = response.fu_details or []
    double_pair = [item for item in details if item["reason"] == FuCalculator.DOUBLE_VALUED_PAIR]
    if not double_pair or ruleset.double_wind_pair_fu == double_pair[0]["fu"]:
        return response.fu
    raw = sum(item["fu"] for item in details) - double_pair[0]["fu"] + ruleset.double_wind_pair_fu
    return -(-raw // 10) * 10  # §6.1: minipoints are rounded up to the next ten


def _yaku_name(yaku: Yaku) -> str:
    name = _YAKU_NAMES.get(yaku.yaku_id)
    if name is None:
        raise RuntimeError(f"the mahjong library gave a yaku outside WRCR 2015: {yaku.name} ({yaku.yaku_id})")
    return name


def _yaku_han(yaku: Yaku, is_open: bool) -> int:
    """The han of a yaku as the library counts them: the open value for an open hand when it has one."""
    return yaku.han_open if is_open and yaku.han_open else yaku.han_closed


def _library_error(error: str) -> str:
    if error == HandCalculator.ERR_HAND_NOT_WINNING:
        return _NOT_COMPLETE
    if error == HandCalculator.ERR_NO_YAKU:
        return _NO_YAKU
    return f"the situation flags contradict each other ({error.replace('_', ' ')})"
