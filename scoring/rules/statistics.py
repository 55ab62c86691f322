"""The facts of each hand of a replayed score sheet, for statistics: who won, who dealt in, what the win
was worth, who declared riichi. Plain Python: no Django.

Read from the replay's JSON (``Verdict.as_json()``, stored with every sheet), so the same facts come from
a sheet entered as outcomes (ron, tsumo, draw, chombo with han and fu) or as the four point changes of a
paper sheet: the replay has already read each hand into its result, winners and point changes.

Definitions (docs/tournament.md's "Statistics" says the same in words):

* A hand is one entry of a hand-by-hand sheet that was played to its end: a win or an exhaustive draw.
  A chombo stops the hand and it is dealt again (WRCR 2015 §7.1): it is counted as a chombo, not as a hand.
* The *payment* of a seat in a hand is its point change with its own riichi stake given back: what the
  hand's result made it pay or receive.
* The *discarder* of a ron (deal-in) is each non-winner whose payment is negative: the player who
  discarded the winning tile and, under liability (§6.2), the liable player who pays half.
* The *value* of a win is what the hand is worth on the payment table (§6.1): what the others paid the
  winner, without the counters (honba, §5.7.8) and without the riichi sticks (§5.7.4). In a multiple ron
  each winner has his own value (§6.1 EMA variant: the winner closest to the discarder takes the sticks).
* A win's *yaku* are known when the sheet names them (entered, scored from its tiles or read from a game
  log: ``scoring.rules.yaku``); the replay keeps them with the hand.
* A win is a *yakuman* when its value reaches a yakuman's: 32,000 for a non-dealer, 48,000 for the dealer
  (§6.1, §6.3); a double yakuman counts once, as one yakuman hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.rules.legal import ABORTIVE, CHOMBO, DRAW, MULTIPLE_RON, NAGASHI, RON, TSUMO
from scoring.rules.payments import YAKUMAN, ron_value
from scoring.rules.ruleset import Ruleset
from scoring.rules.yaku import WinYaku

__all__ = [
    "ABORTIVE",
    "CHOMBO",
    "DRAW",
    "MULTIPLE_RON",
    "NAGASHI",
    "RON",
    "TSUMO",
    "HandFacts",
    "hand_facts",
    "is_yakuman",
]

WIN_RESULTS = frozenset({RON, TSUMO, MULTIPLE_RON})


@dataclass(frozen=True, slots=True)
class HandFacts:
    """One hand of a sheet as the statistics see it. ``number``: its place on the sheet (1 for the first
    entry, chombo re-deals included, as the sheet numbers them); ``round``: "East 1" and so on."""

    number: int
    round: str
    result: str
    dealer: str
    riichi: tuple[str, ...]
    winners: tuple[str, ...] = ()
    discarders: tuple[str, ...] = ()
    values: Mapping[str, int] | None = None
    offenders: tuple[str, ...] = ()
    points: Mapping[str, int] | None = None  # each player's points after the hand
    yaku: Mapping[str, WinYaku] | None = None  # each winner's yaku, where the sheet knows them

    def yaku_of(self, player: str) -> WinYaku | None:
        """The yaku of ``player``'s win in this hand, when they are known (entered, from the tiles or
        from a game log)."""
        return (self.yaku or {}).get(player)

    @property
    def is_played(self) -> bool:
        """A win or a draw (an abortive draw and a nagashi mangan too, under the online rules): a hand
        played to its end (a chombo is dealt again)."""
        return self.result in WIN_RESULTS or self.result in (DRAW, ABORTIVE, NAGASHI)

    @property
    def is_win(self) -> bool:
        return self.result in WIN_RESULTS

    def value_of(self, player: str) -> int:
        return (self.values or {}).get(player, 0)

    def yakuman_of(self, player: str) -> bool:
        return player in self.winners and is_yakuman(self.value_of(player), dealer=player == self.dealer)


def is_yakuman(value: int, *, dealer: bool) -> bool:
    """Whether a win's value (without counters and sticks) is a yakuman's or more (WRCR 2015 §6.1)."""
    return value >= ron_value(YAKUMAN, dealer)


def hand_facts(replay: Mapping[str, Any], ruleset: Ruleset) -> list[HandFacts]:
    """The facts of every hand of a replayed hand-by-hand sheet (``Verdict.as_json()``); empty for a
    sheet of final points only or one whose replay holds no hands. Written by the replay, the JSON is read
    defensively all the same (an archive brings stored replays back): what is not of the expected type
    reads as empty or zero."""
    players = replay.get("players")
    hands = replay.get("hands")
    if not isinstance(players, list) or len(players) != 4 or not isinstance(hands, list):
        return []
    seats = [str(name) for name in players]
    return [
        _facts(number, hand if isinstance(hand, dict) else {}, seats, ruleset)
        for number, hand in enumerate(hands, 1)
    ]


def _names(value: object) -> tuple[str, ...]:
    return tuple(str(name) for name in value) if isinstance(value, list | tuple) else ()


def _number(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _by_seat(value: object, seats: Sequence[str]) -> dict[str, int]:
    mapping = value if isinstance(value, Mapping) else {}
    return {name: _number(mapping.get(name)) for name in seats}


def _facts(number: int, hand: Mapping[str, Any], seats: Sequence[str], ruleset: Ruleset) -> HandFacts:
    result = str(hand.get("result", ""))
    riichi = _names(hand.get("riichi"))
    deltas = _by_seat(hand.get("deltas"), seats)
    facts = HandFacts(
        number=number,
        round=str(hand.get("round", "")),
        result=result,
        dealer=str(hand.get("dealer", "")),
        riichi=riichi,
        offenders=_names(hand.get("offenders")),
        points=_by_seat(hand.get("points"), seats),
    )
    winners = tuple(name for name in _names(hand.get("winners")) if name in seats)
    if result not in WIN_RESULTS or not winners:
        return facts
    payment = {name: deltas[name] + (ruleset.riichi_stick if name in riichi else 0) for name in seats}
    payers = [name for name in seats if name not in winners]
    paid = -sum(payment[name] for name in payers)
    honba = _number(hand.get("honba"))
    discarders: tuple[str, ...] = ()
    if result == TSUMO and len(winners) == 1:
        values = {winners[0]: paid - 3 * honba * ruleset.honba_tsumo_each}
    else:
        discarders = tuple(name for name in payers if payment[name] < 0)
        values = _ron_values(winners, discarders, deltas, seats, paid, honba, ruleset)
    return HandFacts(
        number=facts.number,
        round=facts.round,
        result=result,
        dealer=facts.dealer,
        riichi=riichi,
        winners=winners,
        discarders=discarders,
        values=values,
        points=facts.points,
        yaku=_yaku(hand.get("yaku"), winners),
    )


def _yaku(value: object, winners: tuple[str, ...]) -> dict[str, WinYaku] | None:
    """The winners' yaku as the replay wrote them (``HandRecord.as_json``), read defensively."""
    if not isinstance(value, Mapping):
        return None
    found = {name: WinYaku.from_json(value.get(name)) for name in winners}
    known = {name: win for name, win in found.items() if win is not None}
    return known or None


def _ron_values(
    winners: tuple[str, ...],
    discarders: tuple[str, ...],
    deltas: Mapping[str, int],
    seats: Sequence[str],
    paid: int,
    honba: int,
    ruleset: Ruleset,
) -> dict[str, int]:
    """Each winner's value on a ron. With one winner: all that was paid, less the counters. With several
    (one discarder): the winner closest to the discarder in turn order collects the sticks and the counters,
    each other winner's change is exactly what he was paid (his own stake, if any, comes back), less the
    counters when each winner is paid them (``multiple_ron_honba_each``)."""
    counters = honba * ruleset.honba_ron
    if len(winners) == 1:
        return {winners[0]: paid - counters}
    discarder = seats.index(discarders[0]) if discarders else 0
    taker = min(winners, key=lambda name: (seats.index(name) - discarder) % 4)
    each = counters if ruleset.multiple_ron_honba_each else 0
    values = {name: deltas[name] - each for name in winners if name != taker}
    values[taker] = paid - sum(deltas[name] for name in winners if name != taker) - counters
    return {name: values[name] for name in winners}
