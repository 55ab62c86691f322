"""The log turned into hands: the hand-by-hand sheet entry, each hand a win, a draw or the four changes,
with the findings of each hand beside it (``log_sheet``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.rules.i18n import _
from scoring.rules.legal import stick_taker
from scoring.rules.ruleset import ABORTIVE_DRAWS, TRIPLE_RON, Ruleset
from scoring.rules.tenhou.findings import (
    RULE_ABORTIVE,
    RULE_EAST_ONLY,
    RULE_HEAD_BUMP,
    RULE_LIABILITY,
    RULE_NAGASHI,
    RULE_RED_FIVES,
    RULE_TRIPLE_RON,
    RULE_WEST,
    Finding,
    compare,
)
from scoring.rules.tenhou.log import ABORTIVE, ALL_NOTEN, ALL_TENPAI, NAGASHI, GameLog, LogHand
from scoring.rules.tenhou.yaku import win_value, with_yaku


@dataclass(frozen=True)
class LogSheet:
    """The sheet entry read from a log (``form`` "hands"), and the findings beside it."""

    entry: dict[str, Any]
    findings: tuple[Finding, ...]


def log_sheet(log: GameLog, players: Sequence[str], ruleset: Ruleset) -> LogSheet:
    """The hand-by-hand sheet of the log (``players``: the table's player in each seat of the log) and the
    findings where the log's game differs from the tournament's ``ruleset``."""
    findings: list[Finding] = []
    if log.east_only and not ruleset.east_only:
        findings.append(
            Finding(
                None,
                "",
                RULE_EAST_ONLY,
                _(
                    "an East-only game (the log's rules: {rule}); the tournament plays hanchan, the East and "
                    "the South round"
                ).format(rule=log.rule),
            )
        )
    entries: list[dict[str, Any]] = []
    played: list[LogHand] = []
    for index, hand in enumerate(log.hands):
        if hand.round_index >= 8 and not ruleset.west_round_points:
            findings.append(
                Finding(
                    hand.number,
                    hand.label,
                    RULE_WEST,
                    _(
                        "the online game went on into the West round; the hanchan ends after South 4 and "
                        "this hand and those after it are left off the sheet"
                    ),
                )
            )
            break
        following = log.hands[index + 1] if index + 1 < len(log.hands) else None
        # Whether the online game's dealer kept the deal after this hand: its next hand says so.
        dealer_kept = following is not None and following.round_index == hand.round_index
        entries.append(_entry(hand, players, ruleset, findings, dealer_kept))
        played.append(hand)
    entry: dict[str, Any] = {"form": "hands", "hands": entries}
    compare(log, played, entry, players, ruleset, findings)
    return LogSheet(entry, tuple(findings))


def _entry(
    hand: LogHand, players: Sequence[str], ruleset: Ruleset, findings: list[Finding], dealer_kept: bool
) -> dict[str, Any]:
    def note(rule: str, message: str) -> None:
        findings.append(Finding(hand.number, hand.label, rule, message))

    riichi = [players[seat] for seat in sorted(hand.riichi)]
    if hand.draw is not None:
        if hand.draw in ABORTIVE:
            kind = ABORTIVE[hand.draw]
            if ruleset.allows_abortive(kind):
                return {"result": "abortive", "kind": kind, "riichi": riichi}
            if ruleset.abortive_draws:
                message = _(
                    "abortive draw ({kind}): the tournament's rules ({ruleset}) have no such abortive draw; "
                    "entered as a draw without payments where the dealer keeps the deal, as the online game "
                    "went on"
                )
            else:
                message = _(
                    "abortive draw ({kind}): the tournament plays none; entered as a draw without payments "
                    "where the dealer keeps the deal, as the online game went on"
                )
            note(RULE_ABORTIVE, message.format(kind=_(ABORTIVE_DRAWS[kind]), ruleset=ruleset.name))
            return {"result": "draw", "tenpai": list(players), "riichi": riichi}
        if hand.draw == NAGASHI:
            # The log gives the nagashi's payments (its players gain) but not who was tenpai: the riichi
            # declarers were, and the dealer was when the online game kept the deal (the next hand).
            dealer = players[hand.round_index % 4]
            nagashi: dict[str, Any] = {
                "result": "nagashi",
                "nagashi": [players[seat] for seat in range(4) if hand.changes[seat] > 0],
                "tenpai": [name for name in players if name in riichi or (dealer_kept and name == dealer)],
                "riichi": riichi,
            }
            if ruleset.nagashi_mangan:
                return nagashi
            # The tournament's rules have none (WRCR 2015 §5.7.2: an exhaustive draw pays only the noten
            # payments), but the result played is what happened at the table: the log's four changes are
            # kept, the deal going on as the online game's, and the difference is reported.
            note(
                RULE_NAGASHI,
                _(
                    "nagashi mangan: the tournament's rules ({ruleset}) have none, an exhaustive draw paying "
                    "only the noten payments; entered as the online game played it, its payments kept "
                    "(the log does not say whether the players without riichi were tenpai: check them)"
                ).format(ruleset=ruleset.name),
            )
            return {**nagashi, "played_online": True}
        if hand.draw == ALL_TENPAI:
            return {"result": "draw", "tenpai": list(players), "riichi": riichi}
        if hand.draw == ALL_NOTEN:
            return {"result": "draw", "tenpai": [], "riichi": riichi}
        if any(hand.changes):
            tenpai = [players[seat] for seat in range(4) if hand.changes[seat] > 0]
            return {"result": "draw", "tenpai": tenpai, "riichi": riichi}
        return _deltas(hand, players)
    for win in hand.wins:
        if win.red_fives and not ruleset.red_fives:
            note(
                RULE_RED_FIVES,
                _(
                    "{player}'s hand counts {han} han of red fives; the tournament plays without red "
                    "fives (the han are entered as the log scored them)"
                ).format(player=players[win.winner], han=win.red_fives),
            )
    wins = hand.wins
    if len(wins) == 3 and ruleset.multiple_ron and ruleset.allows_abortive(TRIPLE_RON):
        note(
            RULE_TRIPLE_RON,
            _(
                "3 players won on {discarder}'s discard; under the tournament's rules ({ruleset}) three "
                "players calling ron is an abortive draw: entered as one, without payments"
            ).format(discarder=players[wins[0].discarder or 0], ruleset=ruleset.name),
        )
        return {"result": "abortive", "kind": TRIPLE_RON, "riichi": riichi}
    if len(wins) > 1 and not ruleset.multiple_ron:
        discarder = wins[0].discarder
        assert discarder is not None
        first = stick_taker(discarder, [win.winner for win in wins])
        others = [players[win.winner] for win in wins if win.winner != first]
        note(
            RULE_HEAD_BUMP,
            _(
                "{count} players won on {discarder}'s discard; only the player closest to the discarder "
                "wins: {first} is entered, {others} not"
            ).format(
                count=len(wins), discarder=players[discarder], first=players[first], others=", ".join(others)
            ),
        )
        wins = tuple(win for win in wins if win.winner == first)
    if len(wins) > 1:
        return {
            "result": "ron",
            "loser": players[wins[0].discarder or 0],
            "wins": [
                with_yaku(win_value({"winner": players[win.winner]}, win), win, hand, ruleset) for win in wins
            ],
            "riichi": riichi,
        }
    win = wins[0]
    if not win.yakuman and win.han < 5 and win.fu is None:
        return _deltas(hand, players)  # a limit hand of fewer than 5 han: the log gives no fu
    if win.discarder is None:
        entry: dict[str, Any] = {"result": "tsumo", "winner": players[win.winner]}
    else:
        entry = {"result": "ron", "winner": players[win.winner], "loser": players[win.discarder]}
    if win.liable is not None and ruleset.liability:
        entry["liable"] = players[win.liable]
    elif win.liable is not None:
        note(
            RULE_LIABILITY,
            _(
                "the log makes {liable} liable for {winner}'s yakuman; the tournament's rules ({ruleset}) "
                "have no liability payment: entered without it"
            ).format(liable=players[win.liable], winner=players[win.winner], ruleset=ruleset.name),
        )
    return {**with_yaku(win_value(entry, win), win, hand, ruleset), "riichi": riichi}


def _deltas(hand: LogHand, players: Sequence[str]) -> dict[str, Any]:
    """The hand as the four changes of a paper sheet, riichi stakes included."""
    changes = [hand.end[seat] - hand.start[seat] for seat in range(4)]
    return {
        "deltas": dict(zip(players, changes, strict=True)),
        "riichi": [players[seat] for seat in sorted(hand.riichi)],
    }
