"""Rulesets: the numbers and switches that differ between the tournament rule texts.

Three presets are built from the texts in the product's rule library:

* ``WRC2015`` (default): World Riichi Championship Rules, 2015 revision.
* ``EMA2016``: the European Mahjong Association riichi scoring card of 2016.
* ``EMA2025``: the EMA riichi yaku list, payment tables and penalties overview of 2025.

Every field that differs between the presets cites the text it comes from; docs/rules-engine.md has the
same list in prose. A custom ruleset is a preset with some fields replaced (``Ruleset.custom``), stored
as JSON with ``to_dict``/``from_dict``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from scoring.rules.i18n import _

DEFAULT_RULESET = "WRC2015"


@dataclass(frozen=True)
class Ruleset:
    """The scoring and game-flow parameters of one tournament ruleset. Points are table points."""

    name: str
    # WRCR 2015 §4.1: each player starts with 30,000; §5.9.2: hanchan score = (points - 30,000) / 1,000 + uma.
    starting_points: int = 30000
    return_points: int = 30000
    # WRCR 2015 §5.9.2: uma in thousands of points for places 1 to 4.
    uma: tuple[int, int, int, int] = (15, 5, -5, -15)
    # WRCR 2015 §6.1: "A base value of 1920 points [...] is rounded up to 2,000 points" (kiriage mangan).
    # The EMA 2016 card has no such rounding (4 han 30 fu = 7,700 / 11,600); EMA 2025 has it again.
    kiriage: bool = True
    # WRCR 2015 §6.5.4: Blessing of Man is a mangan, not cumulative with other yaku and dora.
    # EMA 2016 and EMA 2025 list it as a five han yaku, so it adds up with other yaku and dora.
    renho_mangan: bool = True
    # WRCR 2015 §6.1, §6.5: yakuman are not cumulative, no double yakuman, no counted yakuman.
    yakuman_accumulate: bool = False
    # WRCR 2015 §6.2: liability (pao) for Big Three Dragons and Big Four Winds. The EMA texts name none.
    liability: bool = True
    # WRCR 2015 §5.7.6: one winner per discard, the player closest to the discarder (head bump).
    # The EMA 2016 card ("Multiple winners") lets every player who calls ron on the discard win.
    multiple_ron: bool = False
    # With multiple_ron: True when each winner is paid the honba (EMA practice, see docs/rules-engine.md),
    # False when only the winner closest to the discarder is.
    multiple_ron_honba_each: bool = True
    # WRCR 2015 §6.5.1 (Robbing a Kong): a concealed kong may be robbed for Thirteen Orphans only.
    # The EMA texts define Robbing a Kong on a pung extended to a kong only.
    kokushi_robs_concealed_kong: bool = True
    # WRCR 2015 §6.3: a pair of a wind that is both seat and prevalent wind is worth 4 fu.
    double_wind_pair_fu: int = 4
    # WRCR 2015 §5.6, §6.5.1: riichi stake; §5.7.7: continuance counters (honba).
    riichi_stick: int = 1000
    honba_ron: int = 300
    honba_tsumo_each: int = 100
    # WRCR 2015 §5.7.2: noten payments total 3,000 at an exhaustive draw.
    noten_total: int = 3000
    # WRCR 2015 §7.1: chombo is 20 points off the overall score; the table is not paid.
    chombo_penalty: int = 20
    # A mangan paid at the table by the offender instead (the EMA 2016 card's "penalty in social games":
    # 4,000 to East and 2,000 to the others, or 4,000 to each when East is the offender).
    chombo_table_payment: bool = False
    # WRCR 2015 §7.2 (wrong riichi declaration): a riichi declarer noten at the exhaustive draw is chombo.
    noten_riichi_chombo: bool = True
    # WRCR 2015 §5.7.4, §5.9: riichi sticks left at the end of the hanchan are collected by nobody. Some
    # events give them to the first-placed player (the earlier starting seat on a tie); no preset does.
    sticks_left_to_first: bool = False
    # WRCR 2015 §3.3: no red fives (nor do the EMA texts use them). A custom ruleset may play with some
    # (red_fives of them in the set, each a dora, §6.4 read for the variant): the yaku entry then takes
    # an ``aka_dora`` count.
    red_fives: int = 0
    description: str = ""

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise ValueError(
                _("ruleset {name}: {problems}").format(name=repr(self.name), problems="; ".join(problems))
            )

    @classmethod
    def custom(cls, base: str = DEFAULT_RULESET, **overrides: Any) -> Ruleset:
        """A preset with some fields replaced, e.g. ``Ruleset.custom("EMA2016", uma=(20, 10, -10, -20))``.
        Unknown fields and values out of ``BOUNDS`` are a ValueError."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise ValueError(
                _("unknown ruleset fields: {fields}").format(fields=", ".join(map(repr, unknown)))
            )
        preset = get_ruleset(base)
        overrides.setdefault("name", f"{preset.name} (custom)")
        if "uma" in overrides:
            overrides["uma"] = _uma(overrides["uma"])
        return dataclasses.replace(preset, **overrides)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict holding every field (uma as a list)."""
        data = dataclasses.asdict(self)
        data["uma"] = list(self.uma)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        """The inverse of ``to_dict``. Missing fields come from the preset named by ``base`` (or by
        ``name`` when that is a preset, else WRC2015); unknown fields are an error."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known - {"base"})
        if unknown:
            raise ValueError(_("unknown ruleset fields: {fields}").format(fields=", ".join(unknown)))
        base_name = data.get("base") or (data.get("name") if data.get("name") in PRESETS else DEFAULT_RULESET)
        base = get_ruleset(str(base_name))
        fields = {key: value for key, value in data.items() if key != "base"}
        if "uma" in fields:
            fields["uma"] = _uma(fields["uma"])
        return dataclasses.replace(base, **fields)


def _uma(value: Any) -> tuple[int, int, int, int]:
    items = tuple(value)
    if len(items) != 4 or not all(isinstance(item, int) and not isinstance(item, bool) for item in items):
        raise ValueError(
            _("uma must be four integers (thousands of points), got {value}").format(value=repr(value))
        )
    return (items[0], items[1], items[2], items[3])


_INT_FIELDS = (
    "starting_points",
    "return_points",
    "double_wind_pair_fu",
    "riichi_stick",
    "honba_ron",
    "honba_tsumo_each",
    "noten_total",
    "chombo_penalty",
    "red_fives",
)
_BOOL_FIELDS = (
    "kiriage",
    "renho_mangan",
    "yakuman_accumulate",
    "liability",
    "multiple_ron",
    "multiple_ron_honba_each",
    "kokushi_robs_concealed_kong",
    "chombo_table_payment",
    "noten_riichi_chombo",
    "sticks_left_to_first",
)


# The range of each number a custom ruleset may set: wide enough for every rule text we know of (the
# presets' values are in the middle), narrow enough that no table, score or penalty leaves the range the
# database stores (hanchan scores and penalties are DECIMAL(7,2): below 100,000 points).
BOUNDS: dict[str, tuple[int, int]] = {
    # WRCR 2015 §4.1: 30,000; other texts use 25,000 and return 30,000. Below 1,000 no hand can be paid.
    "starting_points": (1000, 1_000_000),
    "return_points": (0, 1_000_000),
    # WRCR 2015 §6.3: 4 fu (some texts: 2).
    "double_wind_pair_fu": (0, 8),
    # WRCR 2015 §5.6: 1,000; §5.7.7: 300 a honba on ron, 100 from each on tsumo; §5.7.2: 3,000 noten.
    "riichi_stick": (0, 10_000),
    "honba_ron": (0, 3000),
    "honba_tsumo_each": (0, 1000),
    "noten_total": (0, 30_000),
    # WRCR 2015 §7.1: 20 points off the overall score. More than 1,000 would outweigh any tournament's
    # whole score (a hanchan is worth about ±100), as the discretionary penalties' ceiling does.
    "chombo_penalty": (0, 1000),
    # WRCR 2015 §3.3: none; the common variant has one red five in each suit (some play with four).
    "red_fives": (0, 4),
}
# WRCR 2015 §5.9.2: uma 15, 5, -5, -15 (thousands of points); none of the known texts go beyond ±100.
UMA_BOUND = 200
TEXT_LIMITS = {"name": 80, "description": 500}


def problems_of(base: str = DEFAULT_RULESET, **overrides: Any) -> list[str]:
    """What ``Ruleset.custom(base, **overrides)`` would refuse, one message per problem, each naming its
    field and the rule it breaks (empty: nothing), for a form that shows each beside its own field."""
    known = {f.name for f in dataclasses.fields(Ruleset)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        return [_("unknown ruleset fields: {fields}").format(fields=", ".join(map(repr, unknown)))]
    fields = dataclasses.asdict(get_ruleset(base)) | overrides
    if "uma" in overrides:
        try:
            fields["uma"] = _uma(overrides["uma"])
        except (TypeError, ValueError) as exc:
            return [str(exc)]
    return _problems(SimpleNamespace(**fields))


def _problems(ruleset: Any) -> list[str]:
    problems: list[str] = []
    for field in _INT_FIELDS:
        value = getattr(ruleset, field)
        low, high = BOUNDS[field]
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(_("{field} must be a whole number").format(field=field))
        elif not low <= value <= high:
            problems.append(
                _("{field} must be from {low} to {high}, not {value}").format(
                    field=field, low=f"{low:,}", high=f"{high:,}", value=f"{value:,}"
                )
            )
    for field in _BOOL_FIELDS:
        if not isinstance(getattr(ruleset, field), bool):
            problems.append(_("{field} must be true or false").format(field=field))
    for field, limit in TEXT_LIMITS.items():
        text = getattr(ruleset, field)
        if not isinstance(text, str):
            problems.append(_("{field} must be a text").format(field=field))
        elif len(text) > limit or any(ord(char) < 32 or ord(char) == 127 for char in text):
            problems.append(
                _("{field} must be one line of printable text, at most {limit} characters").format(
                    field=field, limit=limit
                )
            )
    if not isinstance(ruleset.uma, tuple) or len(ruleset.uma) != 4:
        problems.append(_("uma must be four integers"))
    elif any(type(value) is not int or abs(value) > UMA_BOUND for value in ruleset.uma):
        problems.append(
            _("uma must be four whole numbers from -{bound} to {bound} (thousands)").format(bound=UMA_BOUND)
        )
    for field in ("starting_points", "riichi_stick", "honba_ron", "honba_tsumo_each"):
        value = getattr(ruleset, field)
        if isinstance(value, int) and value % 100:
            problems.append(_("{field} must be a multiple of 100").format(field=field))
    if isinstance(ruleset.noten_total, int) and ruleset.noten_total % 300:
        # Shared by 1, 2 or 3 players on either side (WRCR 2015 §5.7.2), so it must divide by 1, 2 and 3.
        problems.append(_("noten_total must be a multiple of 300"))
    return problems


WRC2015 = Ruleset(
    name="WRC2015",
    description="World Riichi Championship Rules 2015 (WRCR 2015)",
)

EMA2016 = dataclasses.replace(
    WRC2015,
    name="EMA2016",
    description="European Mahjong Association riichi scoring card 2016",
    kiriage=False,
    renho_mangan=False,
    liability=False,
    multiple_ron=True,
    kokushi_robs_concealed_kong=False,
)

EMA2025 = dataclasses.replace(
    EMA2016,
    name="EMA2025",
    description="European Mahjong Association riichi yaku, payment tables and penalties 2025",
    kiriage=True,
)

PRESETS: dict[str, Ruleset] = {preset.name: preset for preset in (WRC2015, EMA2016, EMA2025)}


def get_ruleset(name: str = DEFAULT_RULESET) -> Ruleset:
    """The preset called ``name`` ("WRC2015", "EMA2016" or "EMA2025"; case-insensitive)."""
    for key, preset in PRESETS.items():
        if key.lower() == name.lower():
            return preset
    raise ValueError(
        _("unknown ruleset {name}; presets: {presets}").format(name=repr(name), presets=", ".join(PRESETS))
    )
