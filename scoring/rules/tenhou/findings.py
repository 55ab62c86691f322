"""Findings: each way the online game's rules differ from the tournament's, the rules a finding cites,
and the game compared as a whole (starting points, payments, sticks left, final points and scores)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from scoring.rules.i18n import _
from scoring.rules.replay import replay
from scoring.rules.ruleset import Ruleset
from scoring.rules.scores import format_score, table_scores
from scoring.rules.tenhou.log import GameLog, LogHand

# The tournament's rules a finding cites.
RULE_RED_FIVES = "no-red-fives (WRCR 2015 §3.3, §6.4)"


RULE_HEAD_BUMP = "head-bump (WRCR 2015 §5.7.6)"


# A ruleset whose abortive draws include three players calling ron (sanchahou) on one discard.
RULE_TRIPLE_RON = "triple-ron (abortive draw)"


RULE_ABORTIVE = "no-abortive-draws (WRCR 2015 §5.7.3)"


RULE_NAGASHI = "exhaustive-draw (WRCR 2015 §5.7.2)"


RULE_PAYMENT = "payment (WRCR 2015 §6.1)"


RULE_KIRIAGE = "kiriage (WRCR 2015 §6.1)"


RULE_START = "starting-points (WRCR 2015 §4.1)"


RULE_WEST = "end-of-game (WRCR 2015 §5.8, §5.9)"


RULE_STICKS_LEFT = "riichi-sticks-left (WRCR 2015 §5.7.4, §5.9)"


RULE_LIABILITY = "liability (WRCR 2015 §6.2)"


RULE_FINAL = "final-points (WRCR 2015 §5.9)"


RULE_HANCHAN_SCORE = "hanchan-score (WRCR 2015 §5.9.2)"


RULE_UNFINISHED = "hanchan-not-finished (WRCR 2015 §5.8, §6.1)"


RULE_EAST_ONLY = "east-only-game (WRCR 2015 §5.8)"


@dataclass(frozen=True)
class Finding:
    """A way the log's game differs from the tournament's rules: the hand (its number in the log and its
    name, such as "East 2, 1 honba"; None for the game as a whole), the tournament rule and why."""

    hand: int | None
    label: str
    rule: str
    message: str

    def as_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "label": self.label, "rule": self.rule, "message": self.message}


def compare(
    log: GameLog,
    played: Sequence[LogHand],
    entry: dict[str, Any],
    players: Sequence[str],
    ruleset: Ruleset,
    findings: list[Finding],
) -> None:
    """Replays the sheet under the tournament's rules and reports every hand it scores otherwise than the
    log; the final points (and sticks left) go on the sheet, to be checked, only when nothing differs."""
    verdict = replay({**{k: v for k, v in entry.items() if k != "form"}, "players": list(players)}, ruleset)
    same = True
    if played[0].start != (ruleset.starting_points,) * 4:
        same = False
        findings.append(
            Finding(
                None,
                "",
                RULE_START,
                _("the online game started at {points} points each, the tournament starts at {start}").format(
                    points=f"{played[0].start[0]:,}", start=f"{ruleset.starting_points:,}"
                ),
            )
        )
    replayed = verdict.hands or ()
    for hand, record in zip(played, replayed, strict=False):
        expected = [hand.end[seat] - hand.start[seat] for seat in range(4)]
        got = [record.deltas.get(player, 0) for player in players]
        if expected != got:
            same = False
            win = hand.wins[0] if len(hand.wins) == 1 else None
            kiriage = win is not None and ruleset.kiriage and (win.han, win.fu) in ((4, 30), (3, 60))
            findings.append(
                Finding(
                    hand.number,
                    hand.label,
                    RULE_KIRIAGE if kiriage else RULE_PAYMENT,
                    _payment_finding(kiriage).format(log=_signed(expected), rules=_signed(got)),
                )
            )
    if verdict.finished is False and not (log.east_only and not ruleset.east_only):
        # (An East-only game under a hanchan's rules ends "too early": its one finding says why, above.)
        findings.append(
            Finding(
                None,
                "",
                RULE_UNFINISHED,
                _(
                    "the log ends before the hanchan is over: it ends after South 4 (§5.8), or when a player "
                    "goes below zero ({ruleset})"
                ).format(ruleset=ruleset.name)
                if ruleset.busting
                else _(
                    "the log ends before the hanchan is over: it ends after South 4 (§5.8), and a player "
                    "below zero does not end it (§6.1)"
                ),
            )
        )
    last = played[-1]
    left = 0 if last.wins else last.sticks + len(last.riichi)
    if ruleset.sticks_left_to_first and verdict.final_points is not None and same and verdict.valid:
        # The tournament gives the sticks left to first place, as the online game did.
        end = tuple(verdict.final_points[player] for player in players)
        left = verdict.riichi_sticks_left or 0
    else:
        end = last.end
    if log.final_points is not None and log.final_points != end and left:
        findings.append(
            Finding(
                None,
                "",
                RULE_STICKS_LEFT,
                _(
                    "the online game gave the {count} riichi stick(s) left at the end to a player; the "
                    "tournament leaves them to nobody"
                ).format(count=left),
            )
        )
    if same and verdict.valid and len(played) == len(log.hands):
        entry["final_points"] = dict(zip(players, end, strict=True))
        entry["riichi_sticks_left"] = left
        if log.scores is not None and log.final_points == end:
            scores = table_scores(entry["final_points"], ruleset)[2]
            ours = tuple(scores[player] for player in players)
            if ours != log.scores and not _scored_as_older_tenhou(entry["final_points"], log.scores, ruleset):
                findings.append(
                    Finding(
                        None,
                        "",
                        RULE_HANCHAN_SCORE,
                        _(
                            "the online game scored the places {log}; the tournament's rules score them "
                            "{rules}"
                        ).format(log=_listed(players, log.scores), rules=_listed(players, ours)),
                    )
                )
    elif same is False or len(played) != len(log.hands):
        findings.append(
            Finding(
                None,
                "",
                RULE_FINAL,
                _(
                    "the sheet's final points are those the tournament's rules give, not the log's ({points})"
                ).format(points=", ".join(f"{p} {v:,}" for p, v in zip(players, last.end, strict=True))),
            )
        )


def _scored_as_older_tenhou(
    final_points: Mapping[str, int], scores: Sequence[Decimal], ruleset: Ruleset
) -> bool:
    """Whether the log's placement scores are the tournament's own rules counted on the points rounded to
    thousands, as Tenhou wrote them before it wrote them to the tenth: a log whose ``sc`` scores are all
    whole numbers is of that time (a log of 2023 writes 71.1, one of 2019 47), and is read so. The date
    of the change is not known; the log itself says which it is."""
    if ruleset.round_to_thousand or not all(score == score.to_integral_value() for score in scores):
        return False
    older = dataclasses.replace(ruleset, round_to_thousand=True)
    counted = table_scores(final_points, older)[2]
    return tuple(counted[player] for player in final_points) == tuple(scores)


def _listed(players: Sequence[str], scores: Sequence[Decimal]) -> str:
    return ", ".join(f"{player} {format_score(score)}" for player, score in zip(players, scores, strict=True))


def _payment_finding(kiriage: bool) -> str:
    """A hand the tournament's rules score otherwise than the log, the kiriage named when it is why."""
    if kiriage:
        return _(
            "4 han 30 fu and 3 han 60 fu are a mangan for the tournament (kiriage); the log changed the "
            "points by {log}, the tournament's rules by {rules}"
        )
    return _("the log changed the points by {log}, the tournament's rules by {rules}")


def _signed(values: Sequence[int]) -> str:
    return " / ".join(f"{value:+,}" for value in values)
