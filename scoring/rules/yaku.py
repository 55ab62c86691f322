"""The yaku of a win: the WRCR 2015 yaku list (§6.5) under stable identifiers, and a win entered by its
yaku and dora, checked and valued. Plain Python: no Django.

A score sheet's win may name its yaku instead of (or beside) its han:
``{"result": "ron", "winner": "Ana", "loser": "Cho", "yaku": ["pinfu", "tanyao"], "dora": 1,
"riichi": ["Ana"]}``. The identifiers are stable English words (``YAKU``: ``riichi``, ``tanyao``,
``yakuhai_haku`` ...), the same in every language; the names people read are the WRCR 2015 English
names, translated when shown. ``read_win_yaku`` reads such a win: it refuses the combinations the rules
exclude, each problem naming its rule, and gives the han (closed or open values, §6.5), the yakuman
count and, where the yaku fix them, the fu (Pinfu: 20 on a self-draw, 30 on a discard; Seven Pairs: 25;
§6.3).

Two yaku follow from the hand without being entered, as on the paper sheet: Riichi when the winner
declared riichi in the hand (the sheet's ``riichi`` list) and Fully Concealed Hand on a closed self-draw
(§6.5.1). Neither is added to a yakuman.

``yaku_of_names`` turns the hand evaluator's yaku (WRCR names) into identifiers, so a win entered by its
tiles, or read from a game log, has its yaku known the same way; ``WinYaku`` is what the replay keeps of
a win's yaku, for the pages and the statistics.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.rules.i18n import _, gettext_noop
from scoring.rules.ruleset import Ruleset

RULE_YAKU = "yaku (WRCR 2015 §6.5)"
RULE_YAKU_CLOSED = "yaku-closed (WRCR 2015 §6.5)"
RULE_YAKU_COMBINATION = "yaku-combination (WRCR 2015 §6.5)"
RULE_YAKU_YAKUMAN = "yaku-yakuman (WRCR 2015 §6.1, §6.5)"
RULE_YAKU_WIN = "yaku-way-of-winning (WRCR 2015 §6.5)"
RULE_YAKU_RIICHI = "yaku-riichi (WRCR 2015 §6.5.1)"
RULE_YAKU_NONE = "yaku-none (WRCR 2015 §5.2)"
RULE_DORA = "dora (WRCR 2015 §6.4)"
RULE_YAKU_VALUE = "yaku-value (WRCR 2015 §6.1, §6.3)"

MAX_DORA = 35  # more dora than any hand can hold (§6.4: 14 tiles, five indicators, each counted)
MAX_YAKU = 48
SOURCES = ("entered", "tiles", "log")


@dataclass(frozen=True, slots=True)
class Yaku:
    """One yaku of WRCR 2015 §6.5: its identifier, its WRCR English name (as the hand evaluator spells
    it), its romaji (how players call it), its han closed and open (``open_han`` None: the hand must be
    closed), whether it is a yakuman, its section and whether the phone form shows it one tap away."""

    id: str
    name: str
    romaji: str
    han: int
    open_han: int | None
    section: str
    yakuman: bool = False
    common: bool = False

    def value(self, *, is_open: bool) -> int:
        """The yaku's han in a closed or an open hand (0 for a yakuman; a closed-only yaku in an open
        hand is refused before it is valued)."""
        if is_open:
            return self.open_han or 0
        return self.han


def _y(
    id: str,
    name: str,
    romaji: str,
    han: int,
    open_han: int | None,
    section: str,
    *,
    yakuman: bool = False,
    common: bool = False,
) -> Yaku:
    return Yaku(id, name, romaji, han, open_han, section, yakuman, common)


# WRCR 2015 §6.5, in the order of the evaluator's list (hand_input.YAKU_ORDER). The names are marked for
# translation here and translated when shown.
CATALOGUE: tuple[Yaku, ...] = (
    _y("double_riichi", gettext_noop("Double Riichi"), "Daburu riichi", 2, None, "§6.5.1"),
    _y("riichi", gettext_noop("Riichi"), "Riichi", 1, None, "§6.5.1", common=True),
    _y("ippatsu", gettext_noop("Ippatsu"), "Ippatsu", 1, None, "§6.5.1", common=True),
    _y("menzen_tsumo", gettext_noop("Fully Concealed Hand"), "Menzen tsumo", 1, None, "§6.5.1"),
    _y("chankan", gettext_noop("Robbing a Kong"), "Chankan", 1, 1, "§6.5.1"),
    _y("pinfu", gettext_noop("Pinfu"), "Pinfu", 1, None, "§6.5.1", common=True),
    _y("chiitoitsu", gettext_noop("Seven Pairs"), "Chiitoitsu", 2, None, "§6.5.2", common=True),
    _y("tanyao", gettext_noop("All Simples"), "Tanyao", 1, 1, "§6.5.1", common=True),
    _y("iipeikou", gettext_noop("Pure Double Chow"), "Iipeikou", 1, None, "§6.5.1", common=True),
    _y("ryanpeikou", gettext_noop("Twice Pure Double Chows"), "Ryanpeikou", 3, None, "§6.5.3"),
    _y("sanshoku", gettext_noop("Mixed Triple Chow"), "Sanshoku doujun", 2, 1, "§6.5.2", common=True),
    _y("ittsu", gettext_noop("Pure Straight"), "Ittsu", 2, 1, "§6.5.2", common=True),
    _y("chanta", gettext_noop("Outside Hand"), "Chanta", 2, 1, "§6.5.2"),
    _y("junchan", gettext_noop("Terminals in All Groups"), "Junchan", 3, 2, "§6.5.3"),
    _y("toitoi", gettext_noop("All Pungs"), "Toitoi", 2, 2, "§6.5.2", common=True),
    _y("sanankou", gettext_noop("Three Concealed Pungs"), "Sanankou", 2, 2, "§6.5.2"),
    _y("sanshoku_doukou", gettext_noop("Triple Pung"), "Sanshoku doukou", 2, 2, "§6.5.2"),
    _y("sankantsu", gettext_noop("Three Kongs"), "Sankantsu", 2, 2, "§6.5.2"),
    _y("honroutou", gettext_noop("All Terminals and Honours"), "Honroutou", 2, 2, "§6.5.2"),
    _y("honitsu", gettext_noop("Half Flush"), "Honitsu", 3, 2, "§6.5.3", common=True),
    _y("chinitsu", gettext_noop("Full Flush"), "Chinitsu", 6, 5, "§6.5.5", common=True),
    _y("shousangen", gettext_noop("Little Three Dragons"), "Shousangen", 2, 2, "§6.5.2"),
    _y("yakuhai_haku", gettext_noop("Yakuhai (White Dragon)"), "Haku", 1, 1, "§6.5.1", common=True),
    _y("yakuhai_hatsu", gettext_noop("Yakuhai (Green Dragon)"), "Hatsu", 1, 1, "§6.5.1", common=True),
    _y("yakuhai_chun", gettext_noop("Yakuhai (Red Dragon)"), "Chun", 1, 1, "§6.5.1", common=True),
    _y("yakuhai_seat_wind", gettext_noop("Yakuhai (Seat Wind)"), "Jikaze", 1, 1, "§6.5.1", common=True),
    _y("yakuhai_round_wind", gettext_noop("Yakuhai (Prevalent Wind)"), "Bakaze", 1, 1, "§6.5.1", common=True),
    _y("rinshan", gettext_noop("After a Kong"), "Rinshan kaihou", 1, 1, "§6.5.1"),
    _y("haitei", gettext_noop("Last Tile Draw"), "Haitei", 1, 1, "§6.5.1"),
    _y("houtei", gettext_noop("Last Tile Claim"), "Houtei", 1, 1, "§6.5.1"),
    # §6.5.4: a mangan under WRCR (not cumulative); a five han yaku under EMA (``Ruleset.renho_mangan``).
    _y("renhou", gettext_noop("Blessing of Man"), "Renhou", 5, None, "§6.5.4"),
    _y("tenhou", gettext_noop("Blessing of Heaven"), "Tenhou", 0, None, "§6.5.6", yakuman=True),
    _y("chiihou", gettext_noop("Blessing of Earth"), "Chiihou", 0, None, "§6.5.6", yakuman=True),
    _y("kokushi", gettext_noop("Thirteen Orphans"), "Kokushi musou", 0, None, "§6.5.6", yakuman=True),
    _y("chuuren", gettext_noop("Nine Gates"), "Chuuren poutou", 0, None, "§6.5.6", yakuman=True),
    _y("suuankou", gettext_noop("Four Concealed Pungs"), "Suuankou", 0, None, "§6.5.6", yakuman=True),
    _y("suukantsu", gettext_noop("Four Kongs"), "Suukantsu", 0, 0, "§6.5.6", yakuman=True),
    _y("daisangen", gettext_noop("Big Three Dragons"), "Daisangen", 0, 0, "§6.5.6", yakuman=True),
    _y("shousuushii", gettext_noop("Little Four Winds"), "Shousuushii", 0, 0, "§6.5.6", yakuman=True),
    _y("daisuushii", gettext_noop("Big Four Winds"), "Daisuushii", 0, 0, "§6.5.6", yakuman=True),
    _y("ryuuiisou", gettext_noop("All Green"), "Ryuuiisou", 0, 0, "§6.5.6", yakuman=True),
    _y("chinroutou", gettext_noop("All Terminals"), "Chinroutou", 0, 0, "§6.5.6", yakuman=True),
    _y("tsuuiisou", gettext_noop("All Honours"), "Tsuuiisou", 0, 0, "§6.5.6", yakuman=True),
)
YAKU: dict[str, Yaku] = {yaku.id: yaku for yaku in CATALOGUE}
ORDER: dict[str, int] = {yaku.id: index for index, yaku in enumerate(CATALOGUE)}
_BY_NAME: dict[str, str] = {yaku.name: yaku.id for yaku in CATALOGUE}

RIICHI_YAKU = frozenset({"riichi", "double_riichi"})
_YAKUHAI = frozenset(
    {"yakuhai_haku", "yakuhai_hatsu", "yakuhai_chun", "yakuhai_seat_wind", "yakuhai_round_wind"}
)
_DRAGONS = frozenset({"yakuhai_haku", "yakuhai_hatsu", "yakuhai_chun"})
_TERMINAL_OR_HONOUR = _YAKUHAI | {"chanta", "junchan", "honroutou", "shousangen"}
_PUNG_SHAPED = frozenset({"toitoi", "sanankou", "sanshoku_doukou", "sankantsu"})
_CHOW_SHAPED = frozenset({"pinfu", "iipeikou", "ryanpeikou", "sanshoku", "ittsu"})
# Seven Pairs is seven pairs, no groups (§2.2, §5.2): no yaku of groups, no kong.
_GROUP_YAKU = _CHOW_SHAPED | _PUNG_SHAPED | _YAKUHAI | {"chanta", "junchan", "shousangen", "rinshan"}

# Pairs of yaku one hand cannot have together, with the section and the reason a reader is given.
# Gathered so that the reasons are marked once for translation.
_R_REPLACES = gettext_noop("{b} takes the place of {a}")
_R_NO_COMBINE = gettext_noop('{b} "does not combine with" {a}')
_R_SEVEN_PAIRS = gettext_noop("Seven Pairs is seven pairs, without groups, so no {b}")
_R_PINFU = gettext_noop("a Pinfu hand is four chows and a valueless pair, so no {b}")
_R_SIMPLES = gettext_noop("All Simples has no terminals or honours, so no {b}")
_R_NEEDS_CHOW = gettext_noop("{b} must contain a chow, so no {a}")
_R_FLUSH = gettext_noop("Full Flush has no honours, so no {b}")
_R_LAST_TILE = gettext_noop("the last tile drawn after a kong is After a Kong only")
_R_KONG_CLAIM = gettext_noop("Robbing a Kong is a win on the tile added to a kong, not on the last discard")
_R_KONG_IPPATSU = gettext_noop("the kong interrupts the round, so no Ippatsu")
_R_SHAPES = gettext_noop("{a} and {b} need more than the hand's fourteen tiles")


def _pairs() -> tuple[tuple[str, str, str, str], ...]:
    pairs: list[tuple[str, str, str, str]] = [
        ("riichi", "double_riichi", "§6.5.1", _R_REPLACES),
        ("iipeikou", "ryanpeikou", "§6.5.3", _R_NO_COMBINE),
        ("chanta", "junchan", "§6.5.3", _R_NO_COMBINE),
        ("chanta", "honroutou", "§6.5.2", _R_NO_COMBINE),
        ("honitsu", "chinitsu", "§6.5.5", _R_NO_COMBINE),
        ("haitei", "rinshan", "§6.5.1", _R_LAST_TILE),
        ("houtei", "chankan", "§6.5.1", _R_KONG_CLAIM),
        ("ippatsu", "rinshan", "§6.5.1", _R_KONG_IPPATSU),
        ("honroutou", "junchan", "§6.5.2, §6.5.3", _R_NEEDS_CHOW),
        ("toitoi", "chanta", "§6.5.2", _R_NEEDS_CHOW),
        ("toitoi", "junchan", "§6.5.3", _R_NEEDS_CHOW),
        ("sanshoku", "ittsu", "§6.5.2", _R_SHAPES),
        ("sanshoku", "sanshoku_doukou", "§6.5.2", _R_SHAPES),
        ("ittsu", "sanshoku_doukou", "§6.5.2", _R_SHAPES),
        ("ryanpeikou", "sanshoku", "§6.5.2, §6.5.3", _R_SHAPES),
        ("ryanpeikou", "ittsu", "§6.5.2, §6.5.3", _R_SHAPES),
    ]
    pairs += [("chiitoitsu", other, "§5.2, §6.5.2", _R_SEVEN_PAIRS) for other in sorted(_GROUP_YAKU)]
    pairs += [
        ("pinfu", other, "§6.5.1", _R_PINFU)
        for other in sorted(_PUNG_SHAPED | _YAKUHAI | {"shousangen", "honroutou", "rinshan"})
    ]
    pairs += [("tanyao", other, "§6.5.1", _R_SIMPLES) for other in sorted(_TERMINAL_OR_HONOUR | {"ittsu"})]
    pairs += [
        ("chinitsu", other, "§6.5.5", _R_FLUSH) for other in sorted(_YAKUHAI | {"shousangen", "chanta"})
    ]
    pairs += [("toitoi", other, "§6.5.2", _R_NEEDS_CHOW) for other in ("iipeikou", "sanshoku", "ittsu")]
    seen: set[frozenset[str]] = set()
    unique = []
    for pair in pairs:
        key = frozenset(pair[:2])
        if key not in seen:
            seen.add(key)
            unique.append(pair)
    return tuple(unique)


EXCLUSIONS: tuple[tuple[str, str, str, str], ...] = _pairs()

# The way of winning each of these needs (§6.5.1, §6.5.4, §6.5.6): self-draw or discard, dealer or not.
_TSUMO_ONLY = ("menzen_tsumo", "rinshan", "haitei", "tenhou", "chiihou")
_RON_ONLY = ("houtei", "chankan", "renhou")
_DEALER_ONLY = ("tenhou",)
_NON_DEALER_ONLY = ("chiihou", "renhou")
_BLESSINGS = ("renhou", "tenhou", "chiihou")


@dataclass(frozen=True, slots=True)
class WinYaku:
    """A win's yaku as the replay keeps them: identifiers in list order (implied ones included), the
    dora counted (indicators and kan dora, ura dora, red fives), whether the hand was open, its han
    (None for a yakuman and for Blessing of Man as the WRCR mangan), its fu when known, its yakuman
    count and where the yaku come from (``entered``, ``tiles`` or ``log``)."""

    yaku: tuple[str, ...]
    dora: int = 0
    ura_dora: int = 0
    aka_dora: int = 0
    is_open: bool = False
    han: int | None = None
    fu: int | None = None
    yakuman: int = 0
    source: str = "entered"

    @property
    def dora_total(self) -> int:
        return self.dora + self.ura_dora + self.aka_dora

    def yaku_han(self, yaku: str) -> int:
        """The han one of the win's yaku gave it (0 for a yakuman)."""
        return YAKU[yaku].value(is_open=self.is_open)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"yaku": list(self.yaku), "han": self.han, "fu": self.fu}
        if self.dora:
            data["dora"] = self.dora
        if self.ura_dora:
            data["ura_dora"] = self.ura_dora
        if self.aka_dora:
            data["aka_dora"] = self.aka_dora
        if self.is_open:
            data["open"] = True
        if self.yakuman:
            data["yakuman"] = self.yakuman
        data["source"] = self.source
        return data

    @classmethod
    def from_json(cls, data: object) -> WinYaku | None:
        """The inverse of ``as_json``, read defensively (a stored replay, an archive): None for anything
        that is not a list of known yaku."""
        if not isinstance(data, Mapping):
            return None
        yaku = data.get("yaku")
        if not isinstance(yaku, list) or not yaku or not all(item in YAKU for item in yaku):
            return None

        def count(key: str) -> int:
            value = data.get(key, 0)
            return value if type(value) is int and value >= 0 else 0

        han, fu = data.get("han"), data.get("fu")
        source = data.get("source")
        return cls(
            yaku=tuple(str(item) for item in yaku),
            dora=count("dora"),
            ura_dora=count("ura_dora"),
            aka_dora=count("aka_dora"),
            is_open=data.get("open") is True,
            han=han if type(han) is int else None,
            fu=fu if type(fu) is int else None,
            yakuman=count("yakuman"),
            source=source if isinstance(source, str) and source in SOURCES else "entered",
        )


@dataclass(frozen=True, slots=True)
class Problem:
    """Why a win's yaku cannot be: the rule and the message (without the hand, which the caller names)."""

    rule: str
    message: str


def yaku_name(yaku: str) -> str:
    """A yaku's name in the reader's language."""
    return _(YAKU[yaku].name)


def win_summary(win: WinYaku) -> str:
    """A win as the read-only hands and the exports show it, in the reader's language: its value (han
    and fu, or yakuman), its yaku in list order and its dora, e.g. "3 han 30 fu: Riichi, All Simples;
    dora 2"."""
    if win.yakuman > 1:
        value = _("{count} yakuman").format(count=win.yakuman)
    elif win.yakuman:
        value = _("yakuman")
    elif win.han is None:
        value = _("mangan")  # Blessing of Man under WRCR 2015 §6.5.4
    elif win.fu is None:
        value = _("{han} han").format(han=win.han)
    else:
        value = _("{han} han {fu} fu").format(han=win.han, fu=win.fu)
    text = _("{value}: {yaku}").format(value=value, yaku=_names(win.yaku))
    if win.dora_total:
        text = _("{text}; dora {count}").format(text=text, count=win.dora_total)
    return text


def hand_wins(record: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The wins of a stored replay hand (``HandRecord.as_json``) whose yaku are known: each winner with
    ``win_summary``, in the record's order of winners; nothing for a hand without yaku."""
    stored = record.get("yaku")
    if not isinstance(stored, Mapping):
        return []
    winners = [name for name in record.get("winners") or [] if name in stored]
    winners += [name for name in stored if name not in winners]
    wins = [(str(name), WinYaku.from_json(stored[name])) for name in winners]
    return [(name, win_summary(win)) for name, win in wins if win is not None]


def _names(ids: Iterable[str]) -> str:
    return _(", ").join(yaku_name(yaku) for yaku in sort_yaku(ids))


def sort_yaku(ids: Iterable[str]) -> list[str]:
    """Yaku identifiers in list order (``CATALOGUE``)."""
    return sorted(ids, key=lambda yaku: ORDER.get(yaku, len(ORDER)))


def yaku_of_names(names: Iterable[str]) -> tuple[str, ...]:
    """The identifiers of the hand evaluator's yaku (WRCR English names, ``hand_input.YAKU_ORDER``); a
    name it does not know is left out."""
    found = [_BY_NAME[name] for name in names if name in _BY_NAME]
    return tuple(sort_yaku(dict.fromkeys(found)))


def _count(hand: Mapping[str, Any], key: str, problems: list[Problem]) -> int:
    value = hand.get(key, 0)
    if value is None:
        return 0
    if type(value) is not int or not 0 <= value <= MAX_DORA:
        text = _("{field} is a whole number of dora from 0 to {most}").format(field=key, most=MAX_DORA)
        problems.append(Problem(RULE_DORA, text))
        return 0
    return value


def read_win_yaku(
    hand: Mapping[str, Any],
    *,
    tsumo: bool,
    dealer: bool,
    declared_riichi: bool,
    ruleset: Ruleset,
    winner: str = "",
) -> tuple[WinYaku | None, list[Problem]]:
    """A win entered by its yaku (``hand["yaku"]``, ``open``, ``dora``, ``ura_dora``, ``aka_dora``,
    optional ``fu``): the yaku with their han, or every problem found. ``declared_riichi``: the winner is
    among the hand's riichi declarers; ``winner`` names him in messages."""
    problems: list[Problem] = []
    raw = hand.get("yaku")
    if not isinstance(raw, list) or len(raw) > MAX_YAKU or not all(isinstance(item, str) for item in raw):
        text = _('yaku is a list of yaku identifiers such as "riichi", "tanyao", "yakuhai_haku"')
        return None, [Problem(RULE_YAKU, text)]
    unknown = [item for item in raw if item not in YAKU]
    if unknown:
        text = _(
            "{names} not on the WRCR 2015 yaku list (§6.5); the identifiers are listed in "
            "docs/rules-engine.md"
        ).format(names=", ".join(repr(item) for item in unknown))
        return None, [Problem(RULE_YAKU, text)]
    if len(set(raw)) != len(raw):
        twice = sort_yaku({item for item in raw if raw.count(item) > 1})
        text = _(
            "{names} counted twice: each yaku scores once (a double wind pung is Yakuhai (Seat Wind) "
            "and Yakuhai (Prevalent Wind))"
        ).format(names=_names(twice))
        problems.append(Problem(RULE_YAKU, text))
    is_open = hand.get("open", False)
    if not isinstance(is_open, bool):
        problems.append(Problem(RULE_YAKU, _("open is true (an open hand) or false (a closed hand)")))
        is_open = False
    dora, ura, aka = (
        _count(hand, "dora", problems),
        _count(hand, "ura_dora", problems),
        _count(hand, "aka_dora", problems),
    )
    ids = set(raw)
    yakuman = {item for item in ids if YAKU[item].yakuman}
    who = winner or _("the winner")
    # Implied, as on a paper sheet: the declared riichi, and Fully Concealed Hand on a closed self-draw.
    if not yakuman and not ids & set(_BLESSINGS):
        if declared_riichi and not ids & RIICHI_YAKU:
            ids.add("riichi")
        if tsumo and not is_open:
            ids.add("menzen_tsumo")
    problems += _riichi_problems(ids, declared_riichi, who)
    closed_only = [item for item in ids if YAKU[item].open_han is None]
    if is_open and closed_only:
        text = _("{names}: the hand must be closed, and {player}'s hand is open ({sections})").format(
            names=_names(closed_only), player=who, sections=_sections(closed_only)
        )
        problems.append(Problem(RULE_YAKU_CLOSED, text))
    problems += _winning_problems(ids, tsumo=tsumo, dealer=dealer)
    for first, second, section, reason in EXCLUSIONS:
        if first in ids and second in ids:
            why = _(reason).format(a=yaku_name(first), b=yaku_name(second))
            text = _("{a} and {b} cannot be in one hand: {why} (WRCR 2015 {section})").format(
                a=yaku_name(first), b=yaku_name(second), why=why, section=section
            )
            problems.append(Problem(RULE_YAKU_COMBINATION, text))
    ordinary = ids - yakuman
    if yakuman and ordinary:
        text = _(
            "{yakuman} is a yakuman: no ordinary yaku count beside it ({names}) (WRCR 2015 §6.1, "
            "§6.5: a yakuman is the limit)"
        ).format(yakuman=_names(yakuman), names=_names(ordinary))
        problems.append(Problem(RULE_YAKU_YAKUMAN, text))
    if yakuman and dora + ura + aka:
        problems.append(
            Problem(RULE_DORA, _("dora do not count on a yakuman (WRCR 2015 §6.1, §6.4): enter 0"))
        )
    renhou_alone = "renhou" in ids and ruleset.renho_mangan
    if renhou_alone and (len(ids) > 1 or dora + ura + aka):
        text = _(
            "Blessing of Man is a mangan, not cumulative with other yaku and dora (WRCR 2015 §6.5.4): "
            "enter it alone, or the other yaku and dora when they are worth more"
        )
        problems.append(Problem(RULE_YAKU_COMBINATION, text))
    if not ids:
        text = _("a win has at least one yaku; dora are not yaku (WRCR 2015 §5.2, §6.4)")
        problems.append(Problem(RULE_YAKU_NONE, text))
    if ura and not ids & RIICHI_YAKU:
        problems.append(Problem(RULE_DORA, _("ura dora count only for a riichi declarer (WRCR 2015 §6.4)")))
    if aka > ruleset.red_fives:
        text = (
            _("the {ruleset} rules play without red fives (WRCR 2015 §3.3)")
            if not ruleset.red_fives
            else _("the {ruleset} rules have {count} red fives, not {aka}")
        ).format(ruleset=ruleset.name, count=ruleset.red_fives, aka=aka)
        problems.append(Problem(RULE_DORA, text))
    if problems:
        return None, problems
    return _valued(ids, is_open, dora, ura, aka, hand, tsumo=tsumo, ruleset=ruleset)


def _sections(ids: Iterable[str]) -> str:
    return "WRCR 2015 " + ", ".join(sorted({YAKU[item].section for item in ids}))


def _riichi_problems(ids: set[str], declared: bool, who: str) -> list[Problem]:
    problems = []
    if ids & RIICHI_YAKU and not declared:
        text = _(
            "{names} needs {player}'s riichi declaration in this hand: tick the player among its riichi "
            "declarers (WRCR 2015 §6.5.1)"
        ).format(names=_names(ids & RIICHI_YAKU), player=who)
        problems.append(Problem(RULE_YAKU_RIICHI, text))
    if "ippatsu" in ids and not ids & RIICHI_YAKU:
        problems.append(
            Problem(RULE_YAKU_RIICHI, _("Ippatsu needs Riichi or Double Riichi (WRCR 2015 §6.5.1)"))
        )
    blessed = [item for item in _BLESSINGS if item in ids]
    if blessed and declared:
        text = _("{names} is won before any riichi can be declared (WRCR 2015 §6.5.4, §6.5.6)").format(
            names=_names(blessed)
        )
        problems.append(Problem(RULE_YAKU_RIICHI, text))
    return problems


def _winning_problems(ids: set[str], *, tsumo: bool, dealer: bool) -> list[Problem]:
    problems = []
    wrong = [item for item in (_RON_ONLY if tsumo else _TSUMO_ONLY) if item in ids]
    if wrong:
        message = (
            _("{names} is a win on a discard, and this is a self-draw ({sections})")
            if tsumo
            else _("{names} is a self-draw, and this is a win on a discard ({sections})")
        )
        problems.append(
            Problem(RULE_YAKU_WIN, message.format(names=_names(wrong), sections=_sections(wrong)))
        )
    seat = [item for item in (_NON_DEALER_ONLY if dealer else _DEALER_ONLY) if item in ids]
    if seat:
        message = (
            _("{names} is not the dealer's ({sections})")
            if dealer
            else _("{names} is the dealer's only ({sections})")
        )
        problems.append(Problem(RULE_YAKU_WIN, message.format(names=_names(seat), sections=_sections(seat))))
    return problems


def _valued(
    ids: set[str],
    is_open: bool,
    dora: int,
    ura: int,
    aka: int,
    hand: Mapping[str, Any],
    *,
    tsumo: bool,
    ruleset: Ruleset,
) -> tuple[WinYaku | None, list[Problem]]:
    """The han, yakuman count and fu of a combination already found possible."""
    ordered = tuple(sort_yaku(ids))
    yakuman = sum(1 for item in ids if YAKU[item].yakuman)
    if yakuman:
        count = yakuman if ruleset.yakuman_accumulate else 1
        return WinYaku(ordered, is_open=is_open, yakuman=count), []
    if "renhou" in ids and ruleset.renho_mangan:
        return WinYaku(ordered), []  # §6.5.4: the mangan, valued as 5 han
    han = sum(YAKU[item].value(is_open=is_open) for item in ids) + dora + ura + aka
    fu = hand.get("fu")
    fu = fu if type(fu) is int else None
    fixed = _fixed_fu(ids, tsumo)
    if fixed is not None and han < 5:
        if fu is not None and fu != fixed[0]:
            text = _("{yaku} is {fixed} fu on a {way}, not {fu} (WRCR 2015 §6.3)").format(
                yaku=yaku_name(fixed[1]), fixed=fixed[0], way=_("self-draw") if tsumo else _("discard"), fu=fu
            )
            return None, [Problem(RULE_YAKU_VALUE, text)]
        fu = fixed[0]
    return WinYaku(ordered, dora, ura, aka, is_open, han, fu), []


def _fixed_fu(ids: set[str], tsumo: bool) -> tuple[int, str] | None:
    """The fu a yaku fixes (§6.3): Seven Pairs 25; Pinfu 20 on a self-draw, 30 on a discard."""
    if "chiitoitsu" in ids:
        return 25, "chiitoitsu"
    if "pinfu" in ids:
        return (20 if tsumo else 30), "pinfu"
    return None


def tiles_yaku(result: Mapping[str, Any], *, is_open: bool, yakuman: int = 0) -> WinYaku:
    """The yaku of a hand scored from its tiles (``hands.evaluate_hand``'s answer for a valid win);
    ``yakuman``: the count of yakuman the hand is paid."""
    names = [str(item[0]) for item in result.get("yaku", []) if isinstance(item, list | tuple) and item]
    ids = yaku_of_names(names)
    han, fu = result.get("han"), result.get("fu")
    return WinYaku(
        ids,
        dora=int(result.get("dora") or 0),
        ura_dora=int(result.get("ura_dora") or 0),
        is_open=is_open,
        han=han if type(han) is int and not yakuman else None,
        fu=fu if type(fu) is int and not yakuman else None,
        yakuman=yakuman,
        source="tiles",
    )


__all__ = [
    "CATALOGUE",
    "EXCLUSIONS",
    "ORDER",
    "RULE_DORA",
    "RULE_YAKU",
    "RULE_YAKU_CLOSED",
    "RULE_YAKU_COMBINATION",
    "RULE_YAKU_NONE",
    "RULE_YAKU_RIICHI",
    "RULE_YAKU_VALUE",
    "RULE_YAKU_WIN",
    "RULE_YAKU_YAKUMAN",
    "YAKU",
    "Problem",
    "WinYaku",
    "Yaku",
    "hand_wins",
    "read_win_yaku",
    "sort_yaku",
    "tiles_yaku",
    "win_summary",
    "yaku_name",
    "yaku_of_names",
]
