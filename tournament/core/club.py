"""Club sessions, in plain Python: who may sit at a table formed at the venue, the draw of the winds, and
who a session ranks.

A club session (a club night, an online league's evening) computes no seating in advance. Tables form
as players are free: the organiser, or a checked-in player when the session allows it, picks four
players present, each at a wind (East, South, West, North) or with the winds drawn. Each table formed is
a hanchan of its own (its own number), entered, signed or confirmed as a tournament's sheet is.

The rules, as the product applies them:

* **Four players** (WRCR 2015 §4: riichi is played by four), each **once**.
* **Present**: checked in, not disqualified (WRCR 2015 §7.1), not withdrawn.
* **Free**: not seated at an open table (a hanchan whose sheet is not signed yet).
* **Taken back**: a table formed by mistake is taken back, its four players free again, while nothing
  has been saved for it: no score sheet (not even a draft of one hand) and no penalty given at it. The
  session's organisers and head referees take back any such table; where the session lets its players
  form tables, the player who formed one takes it back within ``TAKE_BACK_MINUTES`` of forming it, while
  still checked in. A table with a sheet is a hanchan played: a referee corrects its sheet instead.
* **Ranking**: the sum of the player's hanchan scores, penalties off (``tournament.core.standings``, as in a
  tournament: WRCR 2015 §5.9.2 and §7.1), with the hanchan played shown beside it. A player who has not
  finished a hanchan yet is listed, unranked. Nobody misses a hanchan in a club session: there is no
  schedule to miss, so the missed-hanchan penalty of WRCR 2015 §7.2 never applies.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from scoring.rules.i18n import _, gettext_noop
from tournament.core import participation
from tournament.core.participation import Facts, State
from tournament.core.refusal import Problem
from tournament.core.standings import Entrant, HanchanResult

WINDS = ("east", "south", "west", "north")  # the form's fields, the seat winds in order (WRCR 2015 §4)
FIELD = "players"
RULE_FOUR = "four-players"
RULE_ONCE = "player-once"
RULE_PLAYER = "player-of-the-session"
RULE_PRESENT = "player-present"
RULE_FREE = "player-free"
NOT_PLAYED = gettext_noop("No hanchan finished yet")

TABLE = "table"  # the field a refusal to take a table back names
RULE_SHEET_SAVED = "sheet-saved"
RULE_PENALTY_GIVEN = "penalty-given"
RULE_FORMED_BY = "formed-by-the-player"
RULE_TAKE_BACK_TIME = "take-back-time"
# How long the player who formed a table may take it back: long enough to see a wrong player seated,
# short of a hand played (a hand takes six to eight minutes).
TAKE_BACK_MINUTES = 10


@dataclass(frozen=True, slots=True)
class Candidate:
    """What the session knows of one of its players when a table is formed."""

    name: str
    present: bool  # checked in, neither withdrawn nor disqualified
    open_hanchan: int | None = None  # the number of the open table's hanchan the player sits at


def table_problems(chosen: Sequence[int | None], players: Mapping[int, Candidate]) -> list[Problem]:
    """Why these players, East to North, cannot sit down together (an empty list: they can). Each
    problem names the wind of the seat at fault, or ``players`` for the count."""
    problems: list[Problem] = []
    if len(chosen) != len(WINDS):
        message = _("players: a table is four players, East to North; {count} given").format(
            count=len(chosen)
        )
        return [Problem(FIELD, RULE_FOUR, message)]
    seen: set[int] = set()
    for wind, player in zip(WINDS, chosen, strict=True):
        if player is None:
            message = _("{wind}: choose the player at this seat (a table is four players)").format(wind=wind)
            problems.append(Problem(wind, RULE_FOUR, message))
            continue
        known = players.get(player)
        if known is None:
            message = _("{wind}: not a player of this session").format(wind=wind)
            problems.append(Problem(wind, RULE_PLAYER, message))
        elif player in seen:
            message = _("{wind}: {name} is at another seat of this table already").format(
                wind=wind, name=known.name
            )
            problems.append(Problem(wind, RULE_ONCE, message))
        elif not known.present:
            message = _("{wind}: {name} is not present (check them in first)").format(
                wind=wind, name=known.name
            )
            problems.append(Problem(wind, RULE_PRESENT, message))
        elif known.open_hanchan is not None:
            message = _("{wind}: {name} is still playing at the table of hanchan {number}").format(
                wind=wind, name=known.name, number=known.open_hanchan
            )
            problems.append(Problem(wind, RULE_FREE, message))
        seen.add(player)
    return problems


def draw_winds(chosen: Sequence[int], rng: random.Random) -> list[int]:
    """The four players in the order of the winds they drew, East first: a shuffle, as drawing the four
    wind tiles at the table does."""
    drawn = list(chosen)
    rng.shuffle(drawn)
    return drawn


def session_entrants(entrants: Iterable[Entrant], results: Iterable[HanchanResult]) -> list[Entrant]:
    """A club session's entrants for ``tournament.core.standings.compute_standings``: those ranked by the
    tournament's rules stay ranked once they have a finished hanchan among ``results``; the others are
    listed unranked, with why."""
    played = {result.player for result in results}
    return [
        entrant
        if not entrant.ranked or entrant.id in played
        else replace(entrant, ranked=False, note=NOT_PLAYED)
        for entrant in entrants
    ]


def session_state(facts: Facts, open_hanchan: AbstractSet[int]) -> State:
    """A player's state in a club session: playing while seated at an open table (one of
    ``open_hanchan``); otherwise registered or checked in, as before a tournament's first hanchan. Nobody
    is absent or did not start: there is no schedule to miss."""
    if facts.seated & open_hanchan and not facts.is_substitute and not facts.disqualified:
        return State.PLAYING
    return participation.state(facts, current=None, started=False)


@dataclass(frozen=True, slots=True)
class FormedTable:
    """What taking a table back needs to know of it: its hanchan, when it was formed, the player who
    formed it (None: the organisers), and whether anything was saved for it."""

    hanchan: int
    formed_at: datetime
    formed_by: int | None = None
    sheet_saved: bool = False
    penalty_given: bool = False


def take_back_refused_to(table: FormedTable, player: int, now: datetime) -> Problem | None:
    """Why this player may not take the table back (None: they may). Only the organisers and head
    referees take back any table; a player takes back the table they formed, within
    ``TAKE_BACK_MINUTES``."""
    if table.formed_by != player:
        message = _(
            "table: the table of hanchan {number} is taken back by the player who formed it, or by an "
            "organiser or a head referee"
        ).format(number=table.hanchan)
        return Problem(TABLE, RULE_FORMED_BY, message)
    if now - table.formed_at > timedelta(minutes=TAKE_BACK_MINUTES):
        message = _(
            "table: the table of hanchan {number} was formed more than {minutes} minutes ago; an "
            "organiser or a head referee takes it back"
        ).format(number=table.hanchan, minutes=TAKE_BACK_MINUTES)
        return Problem(TABLE, RULE_TAKE_BACK_TIME, message)
    return None


def take_back_problems(table: FormedTable) -> list[Problem]:
    """Why the table cannot be taken back, whoever asks (an empty list: it can): something was saved
    for it."""
    problems = []
    if table.sheet_saved:
        message = _(
            "table: a score sheet has been saved for the table of hanchan {number}; a referee corrects it "
            "instead"
        ).format(number=table.hanchan)
        problems.append(Problem(TABLE, RULE_SHEET_SAVED, message))
    if table.penalty_given:
        message = _(
            "table: a penalty was given at the table of hanchan {number}; it stays on record, and the "
            "table with it"
        ).format(number=table.hanchan)
        problems.append(Problem(TABLE, RULE_PENALTY_GIVEN, message))
    return problems
