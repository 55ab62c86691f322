"""Rulesets: the numbers and switches that differ between the tournament rule texts.

Three tournament presets are built from the texts in the product's rule library:

* ``WRC2015`` (default): World Riichi Championship Rules, 2015 revision.
* ``EMA2016``: the European Mahjong Association riichi scoring card of 2016.
* ``EMA2025``: the EMA riichi yaku list, payment tables and penalties overview of 2025.

Two online presets follow the rules their operators publish, for events played online, whose game logs
(``scoring.rules.tenhou``) then import without differences:

* ``TENHOU``: Tenhou's ranked rules (tenhou.net, "ルール" at https://tenhou.net/man/).
* ``MAHJONGSOUL``: Mahjong Soul's ranked and tournament-lobby defaults (Yostar / Catfood Studio).

Every field that differs between the presets cites the text it comes from; docs/rules-engine.md has the
same list in prose. A custom ruleset is a preset with some fields replaced (``Ruleset.custom``), stored
as JSON with ``to_dict``/``from_dict``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from scoring.rules.i18n import _, gettext_noop

DEFAULT_RULESET = "WRC2015"
AGARI_YAME_ALWAYS, AGARI_YAME_OPTIONAL = "always", "optional"

# The abortive draws (tochuu ryuukyoku) a ruleset may allow, with their names as the pages show them
# (translated when shown). WRCR 2015 §5.7.3 and the EMA texts ("There are no abortive draws") allow none.
NINE_TERMINALS = "nine-terminals"  # kyuushu kyuuhai
FOUR_WINDS = "four-winds"  # suufon renda
FOUR_RIICHI = "four-riichi"  # suucha riichi
FOUR_KONGS = "four-kongs"  # suukaikan
TRIPLE_RON = "triple-ron"  # sanchahou: three players calling ron on one discard
ABORTIVE_DRAWS = {
    NINE_TERMINALS: gettext_noop("nine different terminals and honours"),
    FOUR_WINDS: gettext_noop("four identical winds discarded"),
    FOUR_RIICHI: gettext_noop("four riichi"),
    FOUR_KONGS: gettext_noop("four kongs by several players"),
    TRIPLE_RON: gettext_noop("three players winning on one discard"),
}


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
    # WRCR 2015 §3.3: red fives are "not used"; the online rules play one red five per suit, each a dora.
    # The number of red fives in the set (0 to 4); a hand's han then include them.
    red_fives: int = 0
    # WRCR 2015 §5.7.3 "No abortive draws" (EMA 2016 card, "Abortive Draw": "There are no abortive
    # draws"); the online rules allow some (``ABORTIVE_DRAWS``): no payment, riichi stakes stay on the
    # table, a counter is added and the dealer keeps the deal.
    abortive_draws: frozenset[str] = frozenset()
    # WRCR 2015 §5.7.2: an exhaustive draw pays only the noten payments. With nagashi mangan, a player
    # whose discards are all terminals and honours, none called, is paid a mangan self-draw (no counters)
    # instead of the noten payments; the dealer keeps the deal when tenpai, a counter is added.
    nagashi_mangan: bool = False
    # WRCR 2015 §4.1, §6.1: "The game continues when a player's score goes below zero." With busting
    # (tobi), the hanchan ends as soon as a player's points are below zero after a hand.
    busting: bool = False
    # WRCR 2015 §6.1, §6.5: 13 han or more without a yakuman is sanbaiman. With counted yakuman (kazoe
    # yakuman), it is a yakuman.
    counted_yakuman: bool = False
    # WRCR 2015 §5.9.1: no agari yame, the South 4 dealer plays on while he keeps the deal. The online rules:
    # the all-last dealer who wins or is tenpai, first with at least ``west_round_points``, ends the game
    # ("always", Tenhou) or may end it ("optional").
    agari_yame: str = ""
    # WRCR 2015 §5.8: "There is no West round." The online rules: when nobody has this many points after
    # South 4, the West round is played until somebody has them when the deal passes, West 4 at most
    # (sudden death); 0: none.
    west_round_points: int = 0
    # WRCR 2015 §5.8: a hanchan, the East and the South round. An East-only game (tonpuusen, 東風戦, as the
    # online lobbies play it: Tenhou's "般東喰赤", Mahjong Soul's East-only rooms) ends after East 4; with
    # ``west_round_points`` the South round is its extension (sudden death, South 4 at most), as the West
    # round is a hanchan's: "Sudden Death in East Round only goes until South Round Ends [...] Sudden death
    # must end at South 4 for tonpuusen" (Tenhou.net rules, Japanese Mahjong Wiki), "Tonpuusen can go into
    # south round" (mjstars.net); no preset plays it (a custom rule on TENHOU or MAHJONGSOUL).
    east_only: bool = False
    # WRCR 2015 §5.9.2: players with equal final points share their places and split the uma of those
    # places. Tenhou: "if there is a tie, the tie is broken in favor of the person having the earlier
    # dealership": the earlier starting seat takes the higher place.
    ties_by_seat: bool = False
    # WRCR 2015 §5.9.2: the hanchan score is (points - return points) / 1,000, exact. Tenhou: "At the end
    # of a game, points are rounded to the closest thousand, '4 down, 5 up'"; the first place takes what
    # the others' rounding leaves, so that the table's points (and scores) still add up (see scores.py).
    round_to_thousand: bool = False
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
        if "abortive_draws" in overrides:
            overrides["abortive_draws"] = _kinds(overrides["abortive_draws"])
        return dataclasses.replace(preset, **overrides)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict holding every field (uma and the abortive draws as lists)."""
        data = dataclasses.asdict(self)
        data["uma"] = list(self.uma)
        data["abortive_draws"] = sorted(self.abortive_draws)
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
        if "abortive_draws" in fields:
            fields["abortive_draws"] = _kinds(fields["abortive_draws"])
        return dataclasses.replace(base, **fields)

    @property
    def oka(self) -> int:
        """The first place's bonus (oka) in points: the four players' shortfall from the return points (25,000
        start and 30,000 return: 20,000), so that a table's scores add up to zero. WRCR 2015 §4.1, §5.9.2:
        start and return are both 30,000, no oka."""
        return 4 * (self.return_points - self.starting_points)

    def allows_abortive(self, kind: object) -> bool:
        """Whether the ruleset allows the abortive draw ``kind``; anything but one of its kinds' names (a
        list or an object read from a sheet among them) is not allowed."""
        return isinstance(kind, str) and kind in self.abortive_draws


def _uma(value: Any) -> tuple[int, int, int, int]:
    items = tuple(value)
    if len(items) != 4 or not all(isinstance(item, int) and not isinstance(item, bool) for item in items):
        raise ValueError(
            _("uma must be four integers (thousands of points), got {value}").format(value=repr(value))
        )
    return (items[0], items[1], items[2], items[3])


def _kinds(value: Any) -> frozenset[str]:
    """The abortive draws of a ruleset, from a list (JSON) or a set."""
    if isinstance(value, str) or not isinstance(value, (list, tuple, set, frozenset)):
        raise ValueError(
            _("abortive_draws must be a list of kinds ({kinds})").format(kinds=", ".join(ABORTIVE_DRAWS))
        )
    return frozenset(value)


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
    "west_round_points",
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
    "nagashi_mangan",
    "busting",
    "counted_yakuman",
    "ties_by_seat",
    "round_to_thousand",
    "east_only",
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
    # WRCR 2015 §3.3: none; the online rules: one per suit (3); some sets have a fourth (a second red 5p).
    "red_fives": (0, 4),
    # WRCR 2015 §5.8: none (0); the online rules: 30,000.
    "west_round_points": (0, 1_000_000),
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
    if "abortive_draws" in overrides:
        try:
            fields["abortive_draws"] = _kinds(overrides["abortive_draws"])
        except ValueError as exc:
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
    if ruleset.agari_yame not in ("", AGARI_YAME_ALWAYS, AGARI_YAME_OPTIONAL):
        problems.append(
            _('agari_yame must be "", "{always}" or "{optional}"').format(
                always=AGARI_YAME_ALWAYS, optional=AGARI_YAME_OPTIONAL
            )
        )
    for field in ("starting_points", "riichi_stick", "honba_ron", "honba_tsumo_each", "west_round_points"):
        value = getattr(ruleset, field)
        if isinstance(value, int) and value % 100:
            problems.append(_("{field} must be a multiple of 100").format(field=field))
    kinds = ruleset.abortive_draws
    if not isinstance(kinds, frozenset) or not all(isinstance(kind, str) for kind in kinds):
        problems.append(
            _("abortive_draws must be a list of kinds ({kinds})").format(kinds=", ".join(ABORTIVE_DRAWS))
        )
    elif kinds - set(ABORTIVE_DRAWS):
        problems.append(
            _("abortive_draws: {unknown} is no abortive draw (the kinds: {kinds})").format(
                unknown=", ".join(sorted(kinds - set(ABORTIVE_DRAWS))), kinds=", ".join(ABORTIVE_DRAWS)
            )
        )
    elif TRIPLE_RON in kinds and not ruleset.multiple_ron:
        # Without multiple ron the player closest to the discarder wins (WRCR 2015 §5.7.6, head bump).
        problems.append(_("abortive_draws: triple-ron needs multiple_ron (without it, the head bump wins)"))
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

# The online rules. Sources (docs/rules-engine.md, "Online presets", has them with what each says):
# Tenhou: the operator's rules page, tenhou.net "ルール" (https://tenhou.net/man/), read through its
# translation "Tenhou.net rules" (Japanese Mahjong Wiki, http://arcturus.su/mjw/index.php?title=Tenhou.net_rules)
# and the summary of its local rules in "電脳麻将のルール" (kobalab, which follows Tenhou's).
TENHOU = dataclasses.replace(
    WRC2015,
    name="TENHOU",
    description="Tenhou ranked rules (tenhou.net)",
    # "Start with 25000 points; Players must return 30000 points": the 20,000 short go to first (oka).
    starting_points=25000,
    return_points=30000,
    # "順位ウマは1位+20点、2位+10点、3位-10点、4位-20点" (uma 10-20).
    uma=(20, 10, -10, -20),
    # "切り上げ満貫なし": 4 han 30 fu is 7,700 / 11,600.
    kiriage=False,
    # "Multiple yakuman still count"; 13 han is a counted yakuman.
    yakuman_accumulate=True,
    counted_yakuman=True,
    # "Pao is enforced on daisangen and daisuushii."
    liability=True,
    # "Double rons allowed. Repeats and deposits go to the next closest player" (積み棒、供託は上家取り).
    multiple_ron=True,
    multiple_ron_honba_each=False,
    # "Red dora ari [...] (1 5m, 1 5p and 1 5s)".
    red_fives=3,
    # "Abortive draws (Nine terminals abortion, four riichi calls, three ron calls, four kans (separate),
    # four same wind discards) allowed. All count as renchan."
    abortive_draws=frozenset(ABORTIVE_DRAWS),
    # "Nagashi mangan allowed. Tenpai payments are replaced by the mangan payment. Dealer tenpai counts as
    # renchan."
    nagashi_mangan=True,
    # "飛び終了あり": a player below zero ends the game.
    busting=True,
    # "At the end of the game, riichi deposits go to 1st place."
    sticks_left_to_first=True,
    # "In all-last hands, if the dealer is winning, the game automatically stops on both dealer wins and
    # dealer tenpai hands" (南四局の親が途中流局でない連荘をし、30000点以上のトップ目の場合ゲームを終了する).
    agari_yame=AGARI_YAME_ALWAYS,
    # "Sudden death brings the game into the next wind. As soon as someone attains 30,000 points [...] the
    # game ends. [...] in Hanchan only goes until West Round ends."
    west_round_points=30000,
    # "At the end of the game, if there is a tie, the tie is broken in favor of the person having the
    # earlier dealership."
    ties_by_seat=True,
    # Scores to the tenth, on the points as played: a real ranked game of 2 October 2023 exported by
    # Tenhou (tests/data/tenhou/real-tenhou-2023.json, its source in tests/data/README.md) gives `sc`
    # -0.6 / 71.1 / -45.4 / -25.1 for the points 19,400 / 61,100 / 4,600 / 14,900, where points rounded
    # to thousands ("rounded to the closest thousand, '4 down, 5 up'", the manual's transcriptions) give
    # -1 / 71 / -45 / -25, as Tenhou's older logs write them. A log of that time (its `sc` scores whole
    # numbers) is still read without a finding (``tenhou.findings._scored_as_older_tenhou``).
    round_to_thousand=False,
)

# Mahjong Soul (雀魂, Yostar / Catfood Studio): the ranked rooms' rules (the in-game "ルール説明"), which the
# tournament lobby (大会室) starts from. Read from secondary sources only (docs/rules-engine.md names them
# and the values still to verify against the game: the lobby's uma and oka, kiriage, multiple-ron counters).
MAHJONGSOUL = dataclasses.replace(
    TENHOU,
    name="MAHJONGSOUL",
    description="Mahjong Soul ranked and tournament-lobby rules",
    # 25,000 each; the placement bonus is the uma alone, 15 / 5 / -5 / -15 (no oka).
    starting_points=25000,
    return_points=25000,
    uma=(15, 5, -5, -15),
    # "in All Last, if the dealer is already winning then an extra hand is not played, they can end the
    # match": the dealer chooses.
    agari_yame=AGARI_YAME_OPTIONAL,
    # Three players calling ron on one discard all win: "Triple Ron: No" among the abortive draws.
    abortive_draws=frozenset({NINE_TERMINALS, FOUR_WINDS, FOUR_RIICHI, FOUR_KONGS}),
    # Equal final points placed by starting seat, the earlier first, each with the uma of their place:
    # "Seat wind tie-breaker: Applied" (the rules table of the Japanese Mahjong Wiki's Mahjong Soul page,
    # https://riichi.wiki/Special:MobileDiff/19575 and, as of 8 December 2024, /26496), whose tie-breaker
    # is "The player closest to the dealer position takes the higher position" (its "Oka and uma" page).
    # No real Mahjong Soul game with a tie was found to confirm it: the test log with one
    # (tests/data/tenhou/mahjongsoul-tie.json) is written for the tests.
    ties_by_seat=True,
    # Scores to the tenth, as the game shows them (no rounding to thousands).
    round_to_thousand=False,
)

PRESETS: dict[str, Ruleset] = {
    preset.name: preset for preset in (WRC2015, EMA2016, EMA2025, TENHOU, MAHJONGSOUL)
}
# The presets of online play: their red fives, abortive draws and nagashi mangan are the event's own rules.
ONLINE_PRESETS = ("TENHOU", "MAHJONGSOUL")


def entry_outcomes(ruleset: Ruleset) -> dict[str, Any]:
    """The outcomes of a hand the sheet editor offers beyond ron, tsumo, draw and chombo: the abortive
    draws the ruleset allows (their kinds, in ``ABORTIVE_DRAWS`` order) and whether it has nagashi mangan.
    Under WRCR 2015 and the EMA presets: none."""
    return {
        "abortive": [kind for kind in ABORTIVE_DRAWS if ruleset.allows_abortive(kind)],
        "nagashi": ruleset.nagashi_mangan,
    }


def get_ruleset(name: str = DEFAULT_RULESET) -> Ruleset:
    """The preset called ``name`` ("WRC2015", "EMA2016", "EMA2025", "TENHOU" or "MAHJONGSOUL";
    case-insensitive)."""
    for key, preset in PRESETS.items():
        if key.lower() == name.lower():
            return preset
    raise ValueError(
        _("unknown ruleset {name}; presets: {presets}").format(name=repr(name), presets=", ".join(PRESETS))
    )


def differences(ruleset: Ruleset, preset: Ruleset) -> list[tuple[str, Any, Any]]:
    """The fields whose value ``ruleset`` changes from ``preset`` (its name aside), in the fields' order:
    (field, the preset's value, this ruleset's). Empty where custom rules restate the preset's values."""
    ours, theirs = ruleset.to_dict(), preset.to_dict()
    return [
        (field.name, theirs[field.name], ours[field.name])
        for field in dataclasses.fields(Ruleset)
        if field.name != "name" and ours[field.name] != theirs[field.name]
    ]
