"""The input of the hand evaluator: a hand as JSON (the fields of the WRCR 2015 hand vectors) read into a
typed, checked ``Hand`` (WRCR 2015 §5.2, §5.4, §6.5).

``parse_hand`` checks the notation, the declared groups, the flags and the tile counts, and raises
``HandInputError`` (a ``ValueError``) naming the faulty field. The WRCR 2015 English names of the yaku live
here too: a hand names one of them for liability (§6.2), and the evaluator lists its yaku in ``YAKU_ORDER``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.rules.i18n import _
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
    "BIG_FOUR_WINDS",
    "BIG_THREE_DRAGONS",
    "BLESSING_OF_MAN",
    "FLAGS",
    "MELD_TYPES",
    "THIRTEEN_ORPHANS",
    "YAKU_ORDER",
    "DeclaredMeld",
    "Hand",
    "HandInputError",
    "parse_hand",
]

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
_WINDS = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}
_WIND_WORDS = {"EAST": "E", "SOUTH": "S", "WEST": "W", "NORTH": "N"}
_WIN_TILES = 14  # WRCR 2015 §5.2: four groups and a pair; each kong adds one tile.

BLESSING_OF_MAN = "Blessing of Man"
BIG_THREE_DRAGONS = "Big Three Dragons"
BIG_FOUR_WINDS = "Big Four Winds"
THIRTEEN_ORPHANS = "Thirteen Orphans"

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
    # The red fives among the hand's tiles (the online rules: each is a dora; WRCR 2015 §3.3: none).
    red_fives: int = 0

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
        raise HandInputError(
            _("hand: expected an object with the hand's fields, got {kind}").format(kind=type(data).__name__)
        )
    if "concealed" not in data:
        raise HandInputError(_("concealed: missing (the concealed tiles, winning tile included)"))
    concealed = tuple(parse_tiles(data["concealed"], "concealed"))
    melds = _parse_melds(data.get("melds"))
    if "win_tile" not in data:
        raise HandInputError(_("win_tile: missing"))
    win_tile = parse_tile(data["win_tile"], "win_tile")
    if win_tile not in concealed:
        raise HandInputError(
            _('win_tile: "{tile}" is not among the concealed tiles (they include the winning tile)').format(
                tile=tile_str(win_tile)
            )
        )
    win = data.get("win")
    if win not in ("ron", "tsumo"):
        raise HandInputError(_('win: expected "ron" or "tsumo", got {value}').format(value=repr(win)))
    flags, flag_last_tile = _parse_flags(data.get("flags"))
    robbed_kong = data.get("robbed_kong")
    if robbed_kong is not None:
        if robbed_kong not in ("added", "concealed"):
            raise HandInputError(
                _('robbed_kong: expected "added" or "concealed", got {value}').format(value=repr(robbed_kong))
            )
        if "chankan" not in flags:
            raise HandInputError(_("robbed_kong: only meaningful with the chankan flag (Robbing a Kong)"))
    elif "chankan" in flags:
        robbed_kong = "added"
    last_tile = _parse_bool(data.get("last_tile", False), "last_tile") or flag_last_tile
    if last_tile and "rinshan" not in flags:
        raise HandInputError(
            _(
                "last_tile: marks a win on a replacement tile that is also the last tile, so it needs the "
                "rinshan flag (for a self-draw of the last tile of the live wall set haitei)"
            )
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
        red_fives=_parse_count(data.get("red_fives", 0), "red_fives"),
    )
    _check_tile_counts(hand)
    _check_red_fives(hand)
    return hand


# The fives, one kind per suit: 5m, 5p, 5s (scoring.rules.tiles numbers 1m-9m 0-8, 1p-9p 9-17, 1s-9s 18-26).
_FIVES = (4, 13, 22)


def _check_red_fives(hand: Hand) -> None:
    """A hand holds at most one red five per suit it has a five of (a set has one per suit)."""
    suits = {five for five in _FIVES if five in hand.concealed or any(five in m.tiles for m in hand.melds)}
    if hand.red_fives > len(suits):
        raise HandInputError(
            _(
                "red_fives: {count} red fives, but the hand has fives of {suits} suit(s) (one red five each)"
            ).format(count=hand.red_fives, suits=len(suits))
        )


def _parse_melds(value: object) -> tuple[DeclaredMeld, ...]:
    if value is None:
        return ()
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise HandInputError(_("melds: expected a list of groups, got {value}").format(value=repr(value)))
    melds: list[DeclaredMeld] = []
    for index, item in enumerate(value):
        where = f"melds[{index}]"
        if not isinstance(item, Mapping):
            raise HandInputError(
                _("{field}: expected {shape}, got {value}").format(
                    field=where, shape='{"type": ..., "tiles": ...}', value=repr(item)
                )
            )
        kind = item.get("type")
        if not isinstance(kind, str) or kind not in MELD_TYPES:
            raise HandInputError(
                _("{field}.type: {value} is not one of {types}").format(
                    field=where, value=repr(kind), types=", ".join(MELD_TYPES)
                )
            )
        text = item.get("tiles")
        tiles = tuple(sorted(parse_tiles(text, f"{where}.tiles")))
        size = MELD_TYPES[kind]
        if len(tiles) != size:
            raise HandInputError(
                _('{field}.tiles: a {type} has {size} tiles, "{tiles}" has {count}').format(
                    field=where, type=kind, size=size, tiles=text, count=len(tiles)
                )
            )
        if kind == "chi":
            low = tiles[0]
            if low >= EAST or low % 9 > 6 or tiles != (low, low + 1, low + 2):
                raise HandInputError(
                    _(
                        '{field}.tiles: "{tiles}" is not a chow (three consecutive tiles of one suit, '
                        "WRCR 2015 §5.2)"
                    ).format(field=where, tiles=text)
                )
        elif len(set(tiles)) != 1:
            if kind == "pon":
                problem = _('{field}.tiles: "{tiles}" is not a pung (identical tiles, WRCR 2015 §5.2)')
            else:
                problem = _('{field}.tiles: "{tiles}" is not a kong (identical tiles, WRCR 2015 §5.2)')
            raise HandInputError(problem.format(field=where, tiles=text))
        melds.append(DeclaredMeld(kind, tiles))
    return tuple(melds)


def _parse_flags(value: object) -> tuple[frozenset[str], bool]:
    """The set flags, and ``last_tile`` when it is given among them."""
    if value is None:
        return frozenset(), False
    if not isinstance(value, Mapping):
        raise HandInputError(
            _("flags: expected an object of true/false flags, got {value}").format(value=repr(value))
        )
    flags: set[str] = set()
    last_tile = False
    for name, set_ in value.items():
        if name == "last_tile":
            last_tile = _parse_bool(set_, "flags.last_tile")
            continue
        if name not in FLAGS:
            raise HandInputError(
                _("flags: {name} is not a flag (flags: {flags})").format(
                    name=repr(name), flags=", ".join(FLAGS)
                )
            )
        if _parse_bool(set_, f"flags.{name}"):
            flags.add(name)
    return frozenset(flags), last_tile


def _parse_bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise HandInputError(
            _("{field}: expected true or false, got {value}").format(field=where, value=repr(value))
        )
    return value


def _parse_wind(value: object, where: str) -> int:
    code = value.upper() if isinstance(value, str) else value
    code = _WIND_WORDS.get(code, code) if isinstance(code, str) else code
    if not isinstance(code, str) or code not in _WINDS:
        raise HandInputError(
            _('{field}: expected "E", "S", "W" or "N", got {value}').format(field=where, value=repr(value))
        )
    return _WINDS[code]


def _parse_indicators(value: object, where: str) -> tuple[int, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(parse_tiles(value, where))
    if not isinstance(value, Sequence):
        raise HandInputError(
            _('{field}: expected a list of tiles such as ["3p", "1z"], got {value}').format(
                field=where, value=repr(value)
            )
        )
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
            _("liability: expected {shape}, got {value}").format(
                shape='{"yaku": "Big Three Dragons" or "Big Four Winds"}', value=repr(value)
            )
        )
    key = name.strip().lower()
    if key in _LIABILITY_ALIASES:
        return _LIABILITY_ALIASES[key]
    if key in _NO_LIABILITY:
        return name.strip()
    raise HandInputError(
        _("liability: {name} is not a yaku (liability is for Big Three Dragons or Big Four Winds)").format(
            name=repr(name)
        )
    )


def _parse_count(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise HandInputError(
            _("{field}: expected a whole number, 0 or more, got {value}").format(
                field=where, value=repr(value)
            )
        )
    return value


def _check_tile_counts(hand: Hand) -> None:
    total = len(hand.concealed) + 3 * len(hand.melds)
    if total != _WIN_TILES:
        kongs = sum(meld.is_kong for meld in hand.melds)
        raise HandInputError(
            _(
                "concealed: {concealed} concealed tiles and {melds} declared groups ({kongs} kongs) do not "
                "make a winning hand: it has {tiles} tiles plus one per kong (four groups and a pair, "
                "WRCR 2015 §5.2)"
            ).format(concealed=len(hand.concealed), melds=len(hand.melds), kongs=kongs, tiles=_WIN_TILES)
        )
    counts = Counter(hand.concealed)
    for meld in hand.melds:
        counts.update(meld.tiles)
    for kind, count in sorted(counts.items()):
        if count > COPIES_PER_KIND:
            raise HandInputError(
                _(
                    "concealed: {count} tiles {tile} between the concealed tiles and the melds; a set has "
                    "four of each tile (WRCR 2015 §3)"
                ).format(count=count, tile=tile_str(kind))
            )
