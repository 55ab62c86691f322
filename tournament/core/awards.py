"""Awards of a tournament from its signed score sheets: pure code over the hands and results. Plain
Python: no Django.

The caller gives the sheets the reader may see (``tournament.queries.statistics_db.signed_sheets`` with the
publication's limits: a hidden hanchan is never read) and the players who may win (the ranked field:
substitutes and disqualified players win nothing, WRCR 2015 §7.1, §7.2). Every award reads the
hands, so only the sheets entered hand by hand count (their replay, ``scoring.rules.statistics.
hand_facts``; a chombo re-deal is no hand, WRCR 2015 §7.1); a sheet of final points only counts for none.

Every award is defined in docs/awards.md; in short (``value`` is what the winners share):

* ``best_hand``: the win of the highest value (the payment table's value, §6.1: without the counters
  and the riichi sticks); every win of that value is shown.
* ``most_yakuman``: the most wins of a yakuman's value (``scoring.rules.statistics.is_yakuman``), one at
  least.
* ``most_wins``: the most hands won (a multiple ron counts for each winner), one at least.
* ``most_riichi``: the most riichi declared in hands played, one at least.
* ``fewest_deal_ins``: the lowest share of hands played in which the player dealt in (paid a ron as its
  discarder, or as liable, §6.2), among the players who played at least half (rounded up) as many hands
  as the player who played most; exact fractions, so ties are exact.
* ``longest_dealer_streak``: the most renchan in a row: hands after the first that one dealer dealt in a
  row in a hanchan, because he won or was tenpai at a draw (§5.7.8); one at least.
* ``best_comeback``: among the players who finished a hanchan first (a shared first place included), the
  largest rise from their lowest points during it (after any hand) to their final points, when that
  lowest was below the starting points.

Ties: every tied winner is shown, each with where it happened when the award is a hand or a hanchan.

A series (``compute_series_awards``) gives the same awards over the sheets of several tournaments, each
read with its own ruleset (its payments, its starting points), the players of each mapped to the series'
entrants (a person, or a registration linked to none), so that one person's wins in two events add up;
a hand or a hanchan then also says in which event (``Feat.event``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.rules.ruleset import Ruleset
from scoring.rules.statistics import HandFacts, hand_facts
from tournament.core.statistics import SheetRecord

BEST_HAND = "best_hand"
MOST_YAKUMAN = "most_yakuman"
MOST_WINS = "most_wins"
MOST_RIICHI = "most_riichi"
FEWEST_DEAL_INS = "fewest_deal_ins"
LONGEST_DEALER_STREAK = "longest_dealer_streak"
BEST_COMEBACK = "best_comeback"
# Every award, in the order the pages show them.
AWARDS = (
    BEST_HAND,
    MOST_WINS,
    FEWEST_DEAL_INS,
    MOST_RIICHI,
    LONGEST_DEALER_STREAK,
    BEST_COMEBACK,
    MOST_YAKUMAN,
)


@dataclass(frozen=True, slots=True)
class Feat:
    """One winner of an award: the player (id), what he did (``value``: points, a count, or the deal-in
    share as a fraction), and, for a hand or a hanchan, where: hanchan, table, the hand's round ("East
    1") and its number on the sheet. ``count``/``hands``: the deal-ins and the hands played behind a
    share; ``low``/``final``: the lowest and the final points behind a comeback; ``event``: in a
    series, the event (its id) of the hand or hanchan."""

    player: int
    value: int | Fraction
    hanchan: int | None = None
    table: int | None = None
    round: str = ""
    number: int | None = None
    count: int | None = None
    hands: int | None = None
    low: int | None = None
    final: int | None = None
    event: int | None = None


@dataclass(frozen=True, slots=True)
class Award:
    """An award and its winners (none when nothing qualifies yet)."""

    key: str
    winners: tuple[Feat, ...]


@dataclass(frozen=True, slots=True)
class Awards:
    """The awards chosen, and what they were read from: the hanchan entered hand by hand, and all."""

    awards: tuple[Award, ...]
    hand_hanchan: int
    hanchan: int
    minimum_hands: int  # the hands a player must have played for ``fewest_deal_ins``


@dataclass(frozen=True, slots=True)
class EventSheets:
    """One event of a series: its sheets (as ``compute_awards`` takes them), its ruleset, the players
    who may win (None: everyone seated) and each player's entrant in the series (player id -> entrant
    id); a player without an entrant counts as himself."""

    event: int
    sheets: Sequence[SheetRecord]
    ruleset: Ruleset
    eligible: Collection[int] | None
    entrants: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class _Seat:
    """A sheet with its hands, the eligible players' ids (entrants' in a series) by the sheet's names,
    its ruleset's starting points and its event (in a series)."""

    sheet: SheetRecord
    facts: tuple[HandFacts, ...]
    ids: dict[str, int]
    start: int
    event: int | None = None


def compute_awards(
    sheets: Iterable[SheetRecord],
    ruleset: Ruleset,
    chosen: Sequence[str] = AWARDS,
    eligible: Collection[int] | None = None,
) -> Awards:
    """The ``chosen`` awards (in ``AWARDS`` order) over ``sheets``, won only by ``eligible`` players
    (None: everyone seated)."""
    _check(chosen)
    every = list(sheets)
    return _awards(_read(every, ruleset, eligible, {}, None), len(every), chosen)


def compute_series_awards(events: Iterable[EventSheets], chosen: Sequence[str] = AWARDS) -> Awards:
    """The ``chosen`` awards over the sheets of a series' events, each read with its own ruleset, won by
    the series' entrants (``EventSheets.entrants``): a count adds up across the events, a hand or a
    hanchan says in which event it was. ``hand_hanchan``/``hanchan`` count the sheets of every event."""
    _check(chosen)
    read: list[_Seat] = []
    count = 0
    for event in events:
        every = list(event.sheets)
        count += len(every)
        read += _read(every, event.ruleset, event.eligible, event.entrants, event.event)
    return _awards(read, count, chosen)


def _check(chosen: Sequence[str]) -> None:
    unknown = sorted(set(chosen) - set(AWARDS))
    if unknown:
        raise ValueError(f"awards: unknown {', '.join(unknown)}")


def _read(
    sheets: Sequence[SheetRecord],
    ruleset: Ruleset,
    eligible: Collection[int] | None,
    entrants: Mapping[int, int],
    event: int | None,
) -> list[_Seat]:
    read = []
    for sheet in sheets:
        facts = hand_facts(sheet.replay, ruleset)
        if not facts:
            continue
        ids = {
            name: entrants.get(player, player)
            for name, player in zip(sheet.players, sheet.player_ids, strict=True)
            if eligible is None or player in eligible
        }
        read.append(_Seat(sheet, tuple(facts), ids, ruleset.starting_points, event))
    return read


def _awards(read: Sequence[_Seat], count: int, chosen: Sequence[str]) -> Awards:
    minimum = _minimum_hands(read)
    compute = {
        BEST_HAND: lambda: _best_hand(read),
        MOST_YAKUMAN: lambda: _most(read, lambda fact, name: fact.yakuman_of(name)),
        MOST_WINS: lambda: _most(read, lambda fact, name: name in fact.winners),
        MOST_RIICHI: lambda: _most(read, lambda fact, name: name in fact.riichi),
        FEWEST_DEAL_INS: lambda: _fewest_deal_ins(read, minimum),
        LONGEST_DEALER_STREAK: lambda: _longest_dealer_streak(read),
        BEST_COMEBACK: lambda: _best_comeback(read),
    }
    awards = tuple(Award(key, compute[key]()) for key in AWARDS if key in chosen)
    return Awards(awards, len(read), count, minimum)


def _played(seat: _Seat) -> list[HandFacts]:
    return [fact for fact in seat.facts if fact.is_played]


def _best_hand(read: Sequence[_Seat]) -> tuple[Feat, ...]:
    wins = [
        Feat(
            seat.ids[name],
            fact.value_of(name),
            seat.sheet.hanchan,
            seat.sheet.table,
            fact.round,
            fact.number,
            event=seat.event,
        )
        for seat in read
        for fact in _played(seat)
        for name in fact.winners
        if name in seat.ids
    ]
    best = max((int(feat.value) for feat in wins), default=0)
    if best <= 0:
        return ()
    return tuple(feat for feat in wins if feat.value == best)


def _counts(counts: Counter[int]) -> tuple[Feat, ...]:
    best = max(counts.values(), default=0)
    if best <= 0:
        return ()
    return tuple(Feat(player, best) for player in sorted(counts) if counts[player] == best)


def _most(read: Sequence[_Seat], does: Callable[[HandFacts, str], bool]) -> tuple[Feat, ...]:
    """The players who did ``does(fact, name)`` in most hands played, once at least."""
    counts: Counter[int] = Counter()
    for seat in read:
        for fact in _played(seat):
            for name, player in seat.ids.items():
                counts[player] += does(fact, name)
    return _counts(counts)


def _hands_played(read: Sequence[_Seat]) -> Counter[int]:
    hands: Counter[int] = Counter()
    for seat in read:
        played = len(_played(seat))
        for player in seat.ids.values():
            hands[player] += played
    return hands


def _minimum_hands(read: Sequence[_Seat]) -> int:
    """Half (rounded up) the hands played by the player who played most, one at least."""
    most = max(_hands_played(read).values(), default=0)
    return max(1, -(-most // 2))


def _fewest_deal_ins(read: Sequence[_Seat], minimum: int) -> tuple[Feat, ...]:
    hands = _hands_played(read)
    deal_ins: Counter[int] = Counter()
    for seat in read:
        for fact in _played(seat):
            for name in fact.discarders:
                if name in seat.ids:
                    deal_ins[seat.ids[name]] += 1
    shares = {
        player: Fraction(deal_ins[player], played) for player, played in hands.items() if played >= minimum
    }
    if not shares:
        return ()
    lowest = min(shares.values())
    return tuple(
        Feat(player, share, count=deal_ins[player], hands=hands[player])
        for player, share in sorted(shares.items())
        if share == lowest
    )


def _longest_dealer_streak(read: Sequence[_Seat]) -> tuple[Feat, ...]:
    streaks: list[Feat] = []
    for seat in read:
        dealer, start, run = "", None, 0
        for fact in _played(seat):
            if fact.dealer == dealer:
                run += 1
            else:
                dealer, start, run = fact.dealer, fact, 0
            if run and dealer in seat.ids and start is not None:
                streaks.append(
                    Feat(
                        seat.ids[dealer],
                        run,
                        seat.sheet.hanchan,
                        seat.sheet.table,
                        start.round,
                        start.number,
                        event=seat.event,
                    )
                )
    best = max((int(feat.value) for feat in streaks), default=0)
    if best <= 0:
        return ()
    return tuple(feat for feat in streaks if feat.value == best)


def _best_comeback(read: Sequence[_Seat]) -> tuple[Feat, ...]:
    rises: list[Feat] = []
    for seat in read:
        start = seat.start
        for name, player in seat.ids.items():
            if seat.sheet.ranks.get(name) != 1:
                continue
            low_fact: HandFacts | None = None
            low = start
            for fact in seat.facts:
                points = (fact.points or {}).get(name, low)
                if points < low:
                    low, low_fact = points, fact
            final = seat.sheet.points[name]
            if low_fact is None or final <= low:
                continue
            rises.append(
                Feat(
                    player,
                    final - low,
                    seat.sheet.hanchan,
                    seat.sheet.table,
                    low_fact.round,
                    low_fact.number,
                    low=low,
                    final=final,
                    event=seat.event,
                )
            )
    best = max((int(feat.value) for feat in rises), default=0)
    return tuple(feat for feat in rises if feat.value == best) if best > 0 else ()


__all__ = ["AWARDS", "Award", "Awards", "EventSheets", "Feat", "compute_awards", "compute_series_awards"]
