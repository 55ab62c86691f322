"""The log's online nicknames matched to the table's four players, in the log's seats or re-seated."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence

from scoring.rules.i18n import _
from scoring.rules.tenhou.log import MAX_TEXT, RESEAT_LABEL, RULE_PLAYERS, RULE_SEAT_ORDER, four, refusal


def fold(name: str) -> str:
    """A name compared without case and accents: "José" and "JOSE" match."""
    decomposed = unicodedata.normalize("NFKD", name.strip())
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


def match_players(
    log_names: Sequence[str],
    seated: Sequence[str],
    mapping: Mapping[str, str] | None = None,
    *,
    reseat: bool = False,
) -> tuple[str, str, str, str]:
    """The table's player in each seat of the log: by ``mapping`` (log name -> a seated player's name)
    where given, else by the same name without case and accents. Every log name must find a different
    player of the table. The log's seat order must be the table's (the seat winds, WRCR 2015 §4.2, East
    first: the sheet is replayed in that order), unless ``reseat``: the referee accepts the log's seats,
    and the table is re-seated as the log sat (``scoring.services.sheet_from_log``)."""
    mapping = mapping or {}
    if (
        not isinstance(mapping, Mapping)
        or len(mapping) > 4
        or not all(
            isinstance(key, str) and isinstance(value, str) and len(key) <= MAX_TEXT and len(value) <= 200
            for key, value in mapping.items()
        )
    ):
        raise refusal(
            "mapping",
            _("the mapping gives at most 4 log names, each with a player's name"),
            rule=RULE_PLAYERS,
        )
    unknown = sorted(set(mapping) - set(log_names))
    if unknown:
        raise refusal(
            "mapping",
            _("{names} is no player of the log").format(names=", ".join(map(repr, unknown))),
            rule=RULE_PLAYERS,
        )
    by_fold = {fold(name): name for name in seated}
    players: list[str] = []
    for log_name in log_names:
        wanted = mapping.get(log_name, log_name)
        player = by_fold.get(fold(wanted)) if isinstance(wanted, str) else None
        if player is None:
            raise refusal(
                "mapping",
                _(
                    "the log's player {name} matches nobody at the table ({seated}); map the log's names to "
                    "the table's players"
                ).format(name=repr(log_name), seated=", ".join(seated)),
                rule=RULE_PLAYERS,
            )
        players.append(player)
    if len(set(players)) != 4:
        raise refusal(
            "mapping", _("two of the log's players are mapped to one player of the table"), rule=RULE_PLAYERS
        )
    if players != list(seated) and not reseat:
        raise refusal(
            "reseat_winds",
            _(
                "the log seats {players} as East, South, West, North; the table seats {seated} (seat "
                "winds, WRCR 2015 §4.2). If the table sat as in the log, a head referee accepts the log's "
                'seats: tick "{label}" (in the API, "reseat_winds": true)'
            ).format(players=", ".join(players), seated=", ".join(seated), label=_(RESEAT_LABEL)),
            rule=RULE_SEAT_ORDER,
        )
    return four(players)
