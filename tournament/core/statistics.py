"""Statistics of a player and of a tournament from its signed score sheets. Plain Python: no Django.

``tournament.queries.statistics_db`` loads the sheets (``SheetRecord``, what the caller may see of them);
``scoring.rules.statistics`` reads each hand of a hand-by-hand sheet; this module adds them up.
docs/tournament.md ("Statistics") defines every figure; in short:

* placements and averages count every signed hanchan of the player, whatever its form;
* the hand figures count only the hanchan entered hand by hand, per hand played (a win or an exhaustive
  draw; a chombo re-deal is no hand, WRCR 2015 §7.1): win rate = hands won / hands played, deal-in rate =
  hands in which the player paid a ron (discarder, or liable under §6.2) / hands played, riichi rate =
  hands in which the player declared riichi / hands played, tsumo share = wins by self-draw / wins,
  average win value = the wins' values (``scoring.rules.statistics``) / wins;
* chombo are counted on every sheet (a sheet of final points names them too);
* the yaku figures count the wins whose yaku are known (entered, scored from tiles or read from a game
  log): for each yaku, the wins that have it, their share of those wins, the han it gave, the average
  value of those wins and the points they won (a win's whole value counts for each of its yaku).

Rounding, one rule for all: half up, rates in percent to one decimal, average score to two decimals,
average points and values to the point.

The words (an outcome's and a win's label, a hand's round) are in the reader's language (the
``scoring.rules.i18n`` hook); the order of equal counts is the English one, the same in every language.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from scoring.rules.i18n import _, gettext_noop
from scoring.rules.ruleset import Ruleset
from scoring.rules.sheet import ROUND_LABELS, round_name
from scoring.rules.statistics import ABORTIVE, CHOMBO, DRAW, MULTIPLE_RON, NAGASHI, RON, TSUMO, hand_facts
from scoring.rules.yaku import ORDER, WinYaku, yaku_name

TOP = 5  # rows of the longest hanchan, of the biggest hands and of the yaku that won most
COMMON = 10  # rows of the most common wins
ONE = Decimal(1)
TENTH = Decimal("0.1")
HUNDREDTH = Decimal("0.01")
OUTCOME_NAMES = {
    RON: gettext_noop("Ron"),
    TSUMO: gettext_noop("Tsumo"),
    MULTIPLE_RON: gettext_noop("Multiple ron"),
    DRAW: gettext_noop("Exhaustive draw"),
    # The online presets' outcomes (scoring.rules.ruleset): counted as played hands.
    ABORTIVE: gettext_noop("Abortive draw"),
    NAGASHI: gettext_noop("Nagashi mangan"),
}


@dataclass(frozen=True, slots=True)
class SheetRecord:
    """One signed score sheet as the statistics read it: its hanchan and table, the four players in seat
    order (East first) by the names the sheet uses and by their ids, each player's rank, final points and
    hanchan score (by the sheet's names), and the stored replay."""

    hanchan: int
    table: int
    players: tuple[str, ...]
    player_ids: tuple[int, ...]
    ranks: Mapping[str, int]
    points: Mapping[str, int]
    scores: Mapping[str, Decimal]
    replay: Mapping[str, Any]


def rate(part: int, whole: int) -> Decimal | None:
    """``part`` of ``whole`` in percent, one decimal, half up; None with nothing to divide."""
    if whole <= 0:
        return None
    return (Decimal(100 * part) / whole).quantize(TENTH, ROUND_HALF_UP)


def average(total: Decimal | int, count: int, step: Decimal = ONE) -> Decimal | None:
    if count <= 0:
        return None
    return (Decimal(total) / count).quantize(step, ROUND_HALF_UP)


@dataclass(frozen=True, slots=True)
class YakuFigure:
    """One yaku over the wins whose yaku are known: in how many wins (and their share), the han it gave
    them in all (0 for a yakuman), and the values of those wins in all (without counters and sticks)."""

    yaku: str
    wins: int
    percent: Decimal | None
    han_total: int
    value_total: int

    @property
    def name(self) -> str:
        """The yaku's name in the reader's language."""
        return yaku_name(self.yaku)

    @property
    def average_value(self) -> Decimal | None:
        return average(self.value_total, self.wins)

    def as_json(self) -> dict[str, Any]:
        average_value = self.average_value
        return {
            "yaku": self.yaku,
            "wins": self.wins,
            "percent": None if self.percent is None else str(self.percent),
            "han": self.han_total,
            "average_value": None if average_value is None else int(average_value),
            "points": self.value_total,
        }


@dataclass(frozen=True, slots=True)
class YakuStatistics:
    """The yaku of a player's or a tournament's wins, where they are known: ``wins`` (with known yaku),
    their values in all, the dora they counted (indicators, ura dora and red fives) and each yaku's
    figures, the most frequent first."""

    wins: int = 0
    value_total: int = 0
    dora_total: int = 0
    figures: tuple[YakuFigure, ...] = ()

    @property
    def average_value(self) -> Decimal | None:
        return average(self.value_total, self.wins)

    @property
    def average_dora(self) -> Decimal | None:
        return average(self.dora_total, self.wins, TENTH)

    @property
    def most_points(self) -> tuple[YakuFigure, ...]:
        """The yaku whose wins won the most points, at most ``TOP``."""
        ranked = sorted(self.figures, key=lambda f: (-f.value_total, ORDER.get(f.yaku, len(ORDER))))
        return tuple(ranked[:TOP])

    def as_json(self) -> dict[str, Any]:
        average_value, average_dora = self.average_value, self.average_dora
        return {
            "wins": self.wins,
            "average_value": None if average_value is None else int(average_value),
            "average_dora": None if average_dora is None else str(average_dora),
            "yaku": [figure.as_json() for figure in self.figures],
            "most_points": [figure.yaku for figure in self.most_points],
        }


class YakuTally:
    """Adds up wins with known yaku into ``YakuStatistics``."""

    def __init__(self) -> None:
        self.wins = self.value_total = self.dora_total = 0
        self.counts: Counter[str] = Counter()
        self.han: Counter[str] = Counter()
        self.values: Counter[str] = Counter()

    def add(self, win: WinYaku, value: int) -> None:
        self.wins += 1
        self.value_total += value
        self.dora_total += win.dora_total
        for yaku in win.yaku:
            self.counts[yaku] += 1
            self.han[yaku] += win.yaku_han(yaku)
            self.values[yaku] += value

    def result(self) -> YakuStatistics:
        order = sorted(self.counts, key=lambda yaku: (-self.counts[yaku], ORDER.get(yaku, len(ORDER))))
        figures = tuple(
            YakuFigure(
                yaku, self.counts[yaku], rate(self.counts[yaku], self.wins), self.han[yaku], self.values[yaku]
            )
            for yaku in order
        )
        return YakuStatistics(self.wins, self.value_total, self.dora_total, figures)


@dataclass(frozen=True, slots=True)
class PointsSeries:
    """A player's points through one hanchan: the starting points, then the points after each hand (only
    the final points for a sheet of final points)."""

    hanchan: int
    points: tuple[int, ...]
    hand_by_hand: bool


@dataclass(frozen=True, slots=True)
class PlayerStatistics:
    hanchan: int
    placements: tuple[int, int, int, int]
    average_points: Decimal | None
    average_score: Decimal | None
    hand_hanchan: int
    hands: int
    wins: int
    deal_ins: int
    riichi: int
    tsumo: int
    win_value_total: int
    yakuman: int
    chombo: int
    series: tuple[PointsSeries, ...] = ()
    yaku: YakuStatistics = YakuStatistics()

    @property
    def win_rate(self) -> Decimal | None:
        return rate(self.wins, self.hands)

    @property
    def deal_in_rate(self) -> Decimal | None:
        return rate(self.deal_ins, self.hands)

    @property
    def riichi_rate(self) -> Decimal | None:
        return rate(self.riichi, self.hands)

    @property
    def tsumo_share(self) -> Decimal | None:
        return rate(self.tsumo, self.wins)

    @property
    def average_win_value(self) -> Decimal | None:
        return average(self.win_value_total, self.wins)

    def as_json(self) -> dict[str, Any]:
        """JSON-ready (decimals as exact strings): what the API answers for a player."""

        def text(value: Decimal | None) -> str | None:
            return None if value is None else str(value)

        return {
            "hanchan": self.hanchan,
            "placements": list(self.placements),
            "average_points": text(self.average_points),
            "average_score": text(self.average_score),
            "hand_by_hand_hanchan": self.hand_hanchan,
            "hands": self.hands,
            "wins": self.wins,
            "deal_ins": self.deal_ins,
            "riichi": self.riichi,
            "tsumo": self.tsumo,
            "win_rate": text(self.win_rate),
            "deal_in_rate": text(self.deal_in_rate),
            "riichi_rate": text(self.riichi_rate),
            "tsumo_share": text(self.tsumo_share),
            "average_win_value": text(self.average_win_value),
            "yakuman": self.yakuman,
            "chombo": self.chombo,
            "yaku": self.yaku.as_json(),
        }


def player_statistics(player: int, sheets: Iterable[SheetRecord], ruleset: Ruleset) -> PlayerStatistics:
    """The statistics of the player whose id is ``player`` over ``sheets``: the signed sheets the viewer
    may see."""
    placements = [0, 0, 0, 0]
    points_total = 0
    score_total = Decimal(0)
    hanchan = hand_hanchan = hands = wins = deal_ins = riichi = tsumo = value_total = yakuman = chombo = 0
    series: list[PointsSeries] = []
    tally = YakuTally()
    for sheet in sorted(sheets, key=lambda s: s.hanchan):
        if player not in sheet.player_ids:
            continue
        name = sheet.players[sheet.player_ids.index(player)]
        hanchan += 1
        rank = sheet.ranks[name]
        if 1 <= rank <= 4:
            placements[rank - 1] += 1
        points_total += sheet.points[name]
        score_total += sheet.scores[name]
        chombo += sum(1 for item in _chombo_list(sheet.replay) if item.get("player") == name)
        facts = hand_facts(sheet.replay, ruleset)
        start = ruleset.starting_points
        if not facts:
            series.append(PointsSeries(sheet.hanchan, (start, sheet.points[name]), False))
            continue
        hand_hanchan += 1
        running = [start]
        for fact in facts:
            running.append((fact.points or {}).get(name, running[-1]))
            if not fact.is_played:
                continue
            hands += 1
            riichi += name in fact.riichi
            deal_ins += name in fact.discarders
            if name in fact.winners:
                wins += 1
                tsumo += fact.result == TSUMO
                value_total += fact.value_of(name)
                yakuman += fact.yakuman_of(name)
                known = fact.yaku_of(name)
                if known is not None:
                    tally.add(known, fact.value_of(name))
        series.append(PointsSeries(sheet.hanchan, tuple(running), True))
    return PlayerStatistics(
        hanchan=hanchan,
        placements=(placements[0], placements[1], placements[2], placements[3]),
        average_points=average(points_total, hanchan),
        average_score=average(score_total, hanchan, HUNDREDTH),
        hand_hanchan=hand_hanchan,
        hands=hands,
        wins=wins,
        deal_ins=deal_ins,
        riichi=riichi,
        tsumo=tsumo,
        win_value_total=value_total,
        yakuman=yakuman,
        chombo=chombo,
        series=tuple(series),
        yaku=tally.result(),
    )


def _chombo_list(replay: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    items = replay.get("chombo")
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


# ---------------------------------------------------------------------------------------------------
# The tournament


@dataclass(frozen=True, slots=True)
class Outcome:
    label: str
    count: int
    percent: Decimal | None


@dataclass(frozen=True, slots=True)
class LongHanchan:
    hanchan: int
    table: int
    players: tuple[str, ...]
    hands: int


@dataclass(frozen=True, slots=True)
class BigHand:
    value: int
    winner: str
    dealer: bool
    result: str
    hanchan: int
    table: int
    round: str
    number: int
    discarders: tuple[str, ...]
    yakuman: bool

    @property
    def round_name(self) -> str:
        """``round`` ("East 1", as the sheet stores it) in the reader's language."""
        if self.round in ROUND_LABELS:
            return round_name(ROUND_LABELS.index(self.round))
        return self.round


@dataclass(frozen=True, slots=True)
class TournamentStatistics:
    hanchan: int
    hand_hanchan: int
    hands: int
    wins: int
    ron: int
    tsumo: int
    multiple_ron: int
    draws: int
    chombo: int
    riichi: int
    yakuman: int
    outcomes: tuple[Outcome, ...] = ()
    common_wins: tuple[Outcome, ...] = ()
    longest: tuple[LongHanchan, ...] = ()
    biggest: tuple[BigHand, ...] = ()
    yaku: YakuStatistics = YakuStatistics()

    def as_json(self) -> dict[str, Any]:
        """JSON-ready (percentages as exact decimal strings): what the API answers."""
        return {
            "totals": {
                "hanchan": self.hanchan,
                "hand_by_hand_hanchan": self.hand_hanchan,
                "hands": self.hands,
                "wins": self.wins,
                "ron": self.ron,
                "tsumo": self.tsumo,
                "multiple_ron": self.multiple_ron,
                "draws": self.draws,
                "chombo": self.chombo,
                "riichi": self.riichi,
                "yakuman": self.yakuman,
            },
            "outcomes": [_outcome_json(outcome) for outcome in self.outcomes],
            "common_wins": [_outcome_json(outcome) for outcome in self.common_wins],
            "longest_hanchan": [
                {"hanchan": h.hanchan, "table": h.table, "players": list(h.players), "hands": h.hands}
                for h in self.longest
            ],
            "biggest_hands": [
                {
                    "value": b.value,
                    "winner": b.winner,
                    "dealer": b.dealer,
                    "result": b.result,
                    "hanchan": b.hanchan,
                    "table": b.table,
                    "round": b.round,
                    "hand": b.number,
                    "discarders": list(b.discarders),
                    "yakuman": b.yakuman,
                }
                for b in self.biggest
            ],
            "yaku": self.yaku.as_json(),
        }


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    percent = None if outcome.percent is None else str(outcome.percent)
    return {"label": outcome.label, "count": outcome.count, "percent": percent}


def english_grouping(value: int) -> str:
    """2,000: a number's digits grouped as English writes them (the default where no language's way is
    given)."""
    return f"{value:,}"


def win_label(
    value: int, *, dealer: bool, tsumo: bool, grouped: Callable[[int], str] = english_grouping
) -> str:
    """A win as the payment table names it, in the reader's language: "non-dealer ron 2,000", "dealer
    tsumo 12,000" (``grouped`` writes the value as the reader's language does: 2 000 in French)."""
    if dealer:
        message = _("dealer tsumo {value}") if tsumo else _("dealer ron {value}")
    else:
        message = _("non-dealer tsumo {value}") if tsumo else _("non-dealer ron {value}")
    return message.format(value=grouped(value))


def _english_win(win: tuple[bool, bool, int]) -> str:
    """The English label of a win (dealer, tsumo, value): the order of equal counts in every language."""
    dealer, tsumo, value = win
    return f"{'dealer' if dealer else 'non-dealer'} {'tsumo' if tsumo else 'ron'} {value:,}"


def tournament_statistics(
    sheets: Sequence[SheetRecord], ruleset: Ruleset, *, grouped: Callable[[int], str] = english_grouping
) -> TournamentStatistics:
    """The figures of the whole tournament over ``sheets`` (its signed sheets); ``grouped`` writes the
    values in the wins' labels."""
    kinds: Counter[str] = Counter()
    wins: Counter[tuple[bool, bool, int]] = Counter()  # (dealer, tsumo, value)
    long_rows: list[LongHanchan] = []
    big_rows: list[BigHand] = []
    hand_hanchan = riichi = yakuman = chombo = 0
    tally = YakuTally()
    for sheet in sheets:
        chombo += len(_chombo_list(sheet.replay))
        facts = hand_facts(sheet.replay, ruleset)
        if not facts:
            continue
        hand_hanchan += 1
        played = [fact for fact in facts if fact.is_played]
        long_rows.append(LongHanchan(sheet.hanchan, sheet.table, sheet.players, len(played)))
        for fact in played:
            kinds[fact.result] += 1
            riichi += len(fact.riichi)
            for winner in fact.winners:
                value = fact.value_of(winner)
                dealer = winner == fact.dealer
                is_yakuman = fact.yakuman_of(winner)
                yakuman += is_yakuman
                wins[(dealer, fact.result == TSUMO, value)] += 1
                known = fact.yaku_of(winner)
                if known is not None:
                    tally.add(known, value)
                big_rows.append(
                    BigHand(
                        value,
                        winner,
                        dealer,
                        fact.result,
                        sheet.hanchan,
                        sheet.table,
                        fact.round,
                        fact.number,
                        fact.discarders,
                        is_yakuman,
                    )
                )
    hands = sum(kinds.values())
    outcomes = tuple(
        Outcome(_(OUTCOME_NAMES[kind]), count, rate(count, hands))
        for kind, count in sorted(kinds.items(), key=lambda item: (-item[1], OUTCOME_NAMES[item[0]]))
    )
    win_count = sum(wins.values())
    common = tuple(
        Outcome(win_label(value, dealer=dealer, tsumo=tsumo, grouped=grouped), count, rate(count, win_count))
        for (dealer, tsumo, value), count in sorted(
            wins.items(), key=lambda item: (-item[1], _english_win(item[0]))
        )[:COMMON]
    )
    longest = sorted(long_rows, key=lambda row: (-row.hands, row.hanchan, row.table))[:TOP]
    biggest = sorted(big_rows, key=lambda row: (-row.value, row.hanchan, row.table, row.number))[:TOP]
    return TournamentStatistics(
        hanchan=len(sheets),
        hand_hanchan=hand_hanchan,
        hands=hands,
        wins=win_count,
        ron=kinds[RON],
        tsumo=kinds[TSUMO],
        multiple_ron=kinds[MULTIPLE_RON],
        draws=kinds[DRAW],
        chombo=chombo,
        riichi=riichi,
        yakuman=yakuman,
        outcomes=outcomes,
        common_wins=common,
        longest=tuple(longest),
        biggest=tuple(biggest),
        yaku=tally.result(),
    )


__all__ = [
    "CHOMBO",
    "BigHand",
    "LongHanchan",
    "Outcome",
    "PlayerStatistics",
    "PointsSeries",
    "SheetRecord",
    "TournamentStatistics",
    "YakuFigure",
    "YakuStatistics",
    "player_statistics",
    "tournament_statistics",
    "win_label",
]
