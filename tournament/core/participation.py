"""A player's part in the tournament, in plain Python: who is in the field, who did not start, who is
absent or withdrawn, who is ranked, and who owes the missed-hanchan penalty (WRCR 2015 §7.2).

The rules, as the product applies them:

* **The field.** A player (not a substitute) is in the field once they have checked in or been seated
  in a hanchan. Seating takes the checked-in players (everyone registered while nobody has checked in),
  so a player the seating placed is in the field even without a check-in.
* **Did not start.** A registered player who is not in the field once the first hanchan has started
  never played and is not ranked: shown as "did not start", never given a penalty.
* **Missed hanchan** (WRCR 2015 §7.2: "the player missing the hanchan doesn't get any point and will
  have a 30 points penalty"). A player of the field who holds no seat in hanchan k (absent with a
  substitute in their seat, withdrawn, or arrived after hanchan k) misses it. The penalty is booked for
  hanchan k once hanchan k is complete (all its tables signed, or finished by the organiser), never in
  advance; a late arrival who checks in after hanchan k is complete gets it then. Disqualified players
  (WRCR 2015 §7.1) get none: they are out of the ranking.
* **Sitting out.** When the field is not a multiple of four and the organiser prefers it to
  substitutes, the last players to check in sit out the hanchan seated so: no penalty (it is not their
  absence).
* **Out at a cut.** In a tournament in phases (``tournament.core.phases``), a player the cut leaves out of a
  phase, or who leaves it, plays no more: the hanchan of that phase and later are not missed.
* **Ranked.** Substitutes (§7.2) and disqualified players (§7.1) are not ranked, nor are players who did
  not start. A player who withdrew is ranked with the penalties of the hanchan they missed, or not ranked
  at all, as the tournament chooses (``withdrawn_ranking``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# The labels are marked for the catalogues here and translated where they are shown (the pages translate
# them in the reader's language): this module stays pure.
from scoring.rules.i18n import gettext_noop


class State(StrEnum):
    REGISTERED = "registered"  # not checked in; the first hanchan has not started
    CHECKED_IN = "checked_in"  # present, not seated in the current hanchan yet
    PLAYING = "playing"  # seated in the current hanchan
    ABSENT = "absent"  # in the field, no seat in the current hanchan (a substitute may play for them)
    WITHDRAWN = "withdrawn"
    DISQUALIFIED = "disqualified"
    DID_NOT_START = "did_not_start"
    SUBSTITUTE = "substitute"
    OUT = "out"  # left out of the current phase by its cut (tournament.phases)


LABELS = {
    State.REGISTERED: gettext_noop("Registered"),
    State.CHECKED_IN: gettext_noop("Checked in"),
    State.PLAYING: gettext_noop("Playing"),
    State.ABSENT: gettext_noop("Absent"),
    State.WITHDRAWN: gettext_noop("Withdrawn"),
    State.DISQUALIFIED: gettext_noop("Disqualified"),
    State.DID_NOT_START: gettext_noop("Did not start"),
    State.SUBSTITUTE: gettext_noop("Substitute"),
    State.OUT: gettext_noop("Out at the cut"),
}


class WithdrawnRanking(StrEnum):
    """How a tournament ranks a player who withdrew."""

    RANKED = "ranked"  # ranked, with the missed-hanchan penalty of each hanchan played without them
    UNRANKED = "unranked"  # not ranked


@dataclass(frozen=True, slots=True)
class Facts:
    """What the database knows of one player, at one moment."""

    is_substitute: bool = False
    checked_in: bool = False
    disqualified: bool = False
    withdrawn_from: int | None = None  # the first hanchan missed after withdrawing
    seated: frozenset[int] = frozenset()  # hanchan in which the player holds a seat and plays it
    # Hanchan the seating placed the player in, a substitute playing some of them for the player.
    scheduled: frozenset[int] = frozenset()
    # Hanchan the player sits out by the organiser's choice (a field not a multiple of four): no penalty.
    excused: frozenset[int] = frozenset()
    # The first hanchan of the phase a cut left the player out of (tournament.phases): none after it is
    # missed.
    out_from: int | None = None


def in_field(facts: Facts) -> bool:
    """Whether the player is one of the field (checked in or seated at least once; not a substitute)."""
    return not facts.is_substitute and (facts.checked_in or bool(facts.seated) or bool(facts.scheduled))


def missed(facts: Facts, number: int) -> bool:
    """Whether the player owes the missed-hanchan penalty for hanchan ``number``, once it is complete."""
    return (
        in_field(facts)
        and not facts.disqualified
        and number not in facts.seated
        and number not in facts.excused
        and (facts.out_from is None or number < facts.out_from)
    )


def is_ranked(facts: Facts, withdrawn_ranking: str = WithdrawnRanking.RANKED) -> bool:
    if facts.is_substitute or facts.disqualified or not in_field(facts):
        return False
    return facts.withdrawn_from is None or withdrawn_ranking != WithdrawnRanking.UNRANKED


def state(facts: Facts, *, current: int | None, started: bool, current_seated: bool = True) -> State:
    """The player's state now: ``current`` is the hanchan in play or next (None after the last one),
    ``started`` whether the first hanchan has started, ``current_seated`` whether the current hanchan
    has its seating."""
    if facts.is_substitute:
        return State.SUBSTITUTE
    if facts.disqualified:
        return State.DISQUALIFIED
    if facts.withdrawn_from is not None:
        return State.WITHDRAWN
    if not in_field(facts):
        return State.DID_NOT_START if started else State.REGISTERED
    if current is not None and current in facts.seated:
        return State.PLAYING
    if facts.out_from is not None and (current is None or current >= facts.out_from):
        return State.OUT
    if started and current_seated and current is not None and current not in facts.seated:
        return State.ABSENT
    return State.CHECKED_IN if facts.checked_in else State.REGISTERED


def unranked_reason(facts: Facts, withdrawn_ranking: str = WithdrawnRanking.RANKED) -> str:
    """Why the player is not ranked, in the product's words; for a player ranked though they withdrew
    (``WithdrawnRanking.RANKED``), that they withdrew, so that every list of the standings marks them
    (their total stops growing, and each hanchan after it is a missed one); "" for everyone else."""
    if is_ranked(facts, withdrawn_ranking):
        return gettext_noop("Withdrawn") if facts.withdrawn_from is not None else ""
    if facts.is_substitute:
        return gettext_noop("Substitute")
    if facts.disqualified:
        return gettext_noop("Disqualified")
    if not in_field(facts):
        return gettext_noop("Did not start")
    return gettext_noop("Withdrawn")
