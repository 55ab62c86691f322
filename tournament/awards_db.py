"""The awards of a tournament (``tournament.awards``) from its signed sheets, limited to what the reader
may see: ``up_to`` (``standings_db.reader_cutoff`` or ``public_cutoff``: no hanchan still hidden) and
``rounds`` (``access.public_rounds``); None for either means no limit (the tournament's staff). Only the
ranked field wins: substitutes and disqualified players do not (WRCR 2015 §7.1, §7.2)."""

from __future__ import annotations

from collections.abc import Collection

from tournament.awards import AWARDS, Awards, compute_awards
from tournament.models import Player, Tournament
from tournament.statistics_db import signed_sheets


def awards_of(tournament: Tournament, *, up_to: int | None, rounds: Collection[int] | None) -> Awards:
    """The awards the organisers chose, in the awards' order, over the sheets the reader may see."""
    sheets = signed_sheets(tournament, up_to=up_to, rounds=rounds)
    eligible = set(
        Player.objects.filter(tournament=tournament, is_substitute=False, disqualified=False).values_list(
            "pk", flat=True
        )
    )
    # The field is checked wherever it is written (form, API, archive); an identifier no longer known is
    # skipped rather than failing the page.
    chosen = (
        [key for key in tournament.awards if key in AWARDS] if isinstance(tournament.awards, list) else []
    )
    return compute_awards(sheets, tournament.ruleset(), chosen, eligible)


def winners_of(tournament: Tournament, awards: Awards) -> dict[int, Player]:
    """The players named by ``awards``, by id (one query)."""
    ids = {feat.player for award in awards.awards for feat in award.winners}
    return {player.pk: player for player in Player.objects.filter(tournament=tournament, pk__in=ids)}
