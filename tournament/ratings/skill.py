"""A skill rating per hanchan from the placements at the table, with openskill's Weng-Lin model
(``openskill.models.PlackettLuce``: Weng and Lin, "A Bayesian Approximation Method for Online Ranking",
JMLR 12, 2011, Algorithm 4, Plackett-Luce). Plain Python: no Django.

Each player has a skill ``mu`` and an uncertainty ``sigma``; a new player starts at the model's prior
(mu 25, sigma 25/3). Each hanchan is one game of four one-player teams ranked by their placements at the
table (1 to 4; tied players share a place, as the tournament's rules rank them, and the model treats an
equal place as a draw between them). The model's defaults are kept (beta 25/6, tau 25/300, kappa 1e-4,
no limit on sigma): tau adds a little uncertainty before each game, so a rating keeps moving.

The displayed rating is openskill's ordinal, mu - 3 sigma: a value the player's skill is about 99.7 %
likely to exceed, which rises as the uncertainty shrinks.

Order matters: the model updates after each hanchan, so the same results in another order give other
ratings. The order is the caller's and is documented where the games are read (docs/ratings.md): the
tournaments by their first day (then their id), and in each, the hanchan by number, the tables by
number. Games at the same moment (the tables of one hanchan) involve different players, so their order
among themselves changes nothing.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from openskill.models import PlackettLuce, PlackettLuceRating

Z = 3  # the ordinal: mu - Z sigma
HUNDREDTH = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: openskill's ``ordinal()``, the displayed rating."""
        return self.mu - Z * self.sigma

    def shown(self) -> tuple[Decimal, Decimal, Decimal]:
        """The ordinal, mu and sigma to two decimals, half up, for display."""
        return _hundredths(self.ordinal), _hundredths(self.mu), _hundredths(self.sigma)


def _hundredths(value: float) -> Decimal:
    return Decimal(repr(value)).quantize(HUNDREDTH, ROUND_HALF_UP)


@dataclass(frozen=True, slots=True)
class Game:
    """One hanchan at one table: the players and their placements (1 to 4, a tied place shared), in the
    same order; ``key`` says where it was played (e.g. tournament, hanchan, table), for the history."""

    key: Hashable
    players: tuple[Hashable, ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """A player's rating after one of his games."""

    key: Hashable
    place: int
    skill: Skill


@dataclass(frozen=True, slots=True)
class Ratings:
    """Every player's rating after the games, and each player's history (a step per game, in order)."""

    skills: Mapping[Hashable, Skill]
    history: Mapping[Hashable, tuple[Step, ...]]

    def table(self) -> list[tuple[Hashable, Skill, int]]:
        """Each player, his rating and his number of games, the highest ordinal first (equal ordinals in
        the order the players first played)."""
        rows = [(player, skill, len(self.history[player])) for player, skill in self.skills.items()]
        return sorted(rows, key=lambda row: -row[1].ordinal)


def new_model() -> PlackettLuce:
    """openskill's Plackett-Luce model with its defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300)."""
    return PlackettLuce()


def rate(games: Iterable[Game], model: PlackettLuce | None = None) -> Ratings:
    """The ratings after ``games``, played in the order given."""
    model = model or new_model()
    current: dict[Hashable, PlackettLuceRating] = {}
    history: dict[Hashable, list[Step]] = {}
    for game in games:
        _check(game)
        before = [current.get(player) or model.rating() for player in game.players]
        after = model.rate([[rating] for rating in before], ranks=[float(place) for place in game.places])
        for player, place, (rating,) in zip(game.players, game.places, after, strict=True):
            current[player] = rating
            history.setdefault(player, []).append(Step(game.key, place, Skill(rating.mu, rating.sigma)))
    return Ratings(
        {player: Skill(rating.mu, rating.sigma) for player, rating in current.items()},
        {player: tuple(steps) for player, steps in history.items()},
    )


def _check(game: Game) -> None:
    if len(game.players) != len(game.places) or len(game.players) < 2:
        raise ValueError(f"game {game.key!r}: one place for each of at least two players")
    if len(set(game.players)) != len(game.players):
        raise ValueError(f"game {game.key!r}: a player sits once at a table")
    if any(not 1 <= place <= len(game.places) for place in game.places):
        raise ValueError(f"game {game.key!r}: places from 1 to {len(game.places)}")


def places_from_points(points: Sequence[int]) -> tuple[int, ...]:
    """Places from final points, equal points sharing a place (1, 2, 2, 4): for results that carry no
    place of their own. The stored results carry the tournament's own places, which are used instead."""
    return tuple(1 + sum(other > mine for other in points) for mine in points)


__all__ = ["Game", "Ratings", "Skill", "Step", "new_model", "places_from_points", "rate"]
