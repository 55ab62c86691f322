"""The skill rating per hanchan (``tournament.ratings.skill``, openskill's Plackett-Luce model) against
values computed here from the model as published (Weng and Lin 2011, Algorithm 4, with openskill's
documented defaults and its tau step), and its invariants. No database.

Four new players (mu 25, sigma 25/3) at one table. openskill first adds tau^2 to each variance:
  s2 = (25/3)^2 + (25/300)^2 = 69.4514;  beta^2 = (25/6)^2 = 17.3611
  c = sqrt(sum over the four of (s2 + beta^2)) = sqrt(4 x 86.8125) = sqrt(347.25) = 18.6347
All mu are equal, so each exp(mu/c) is the same e, and for the team ranked q the sum over the teams
ranked q or lower is (5 - q) e: each player's share p(q) is 1/4, 1/3, 1/2, 1 for q = 1..4.
For the player placed i (A_q = 1, no tie):
  Omega_i = s2 / c x sum over q <= i of ([q = i] - p(q))
  Delta_i = (sqrt(s2) / c) x s2 / c^2 x sum over q <= i of p(q) (1 - p(q))
  mu' = 25 + Omega_i;  sigma' = sqrt(s2 x max(1 - Delta_i, 1e-4))
So Omega is s2/c x (3/4, 5/12, -1/12, -13/12): first 25 + 2.795 = 27.795, last 25 - 4.038 = 20.962.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest

from tournament.ratings.skill import Game, places_from_points, rate

MU, SIGMA, BETA, TAU = 25.0, 25.0 / 3, 25.0 / 6, 25.0 / 300
S2 = SIGMA**2 + TAU**2
C = math.sqrt(4 * (S2 + BETA**2))


def expected_first_game(place: int, shares: list[Fraction]) -> tuple[float, float]:
    """mu' and sigma' of the player placed ``place`` (no tie: A_q = 1), by the docstring's formulas;
    ``shares[q - 1]``: p(q)."""
    omega = delta = 0.0
    for q in range(1, place + 1):
        p = float(shares[q - 1])
        omega += (1 - p) if q == place else -p
        delta += p * (1 - p)
    omega *= S2 / C
    delta *= (math.sqrt(S2) / C) * S2 / C**2
    return MU + omega, math.sqrt(S2 * max(1 - delta, 1e-4))


def test_one_hanchan_of_four_new_players_as_worked_out() -> None:
    ratings = rate([Game("h1", ("Ana", "Ben", "Cho", "Dai"), (1, 2, 3, 4))])
    shares = [Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), Fraction(1)]
    for place, name in enumerate(["Ana", "Ben", "Cho", "Dai"], 1):
        mu, sigma = expected_first_game(place, shares)
        skill = ratings.skills[name]
        assert skill.mu == pytest.approx(mu, abs=1e-9), name
        assert skill.sigma == pytest.approx(sigma, abs=1e-9), name
        assert skill.ordinal == pytest.approx(mu - 3 * sigma, abs=1e-9)
    # The docstring's rounded figures.
    assert ratings.skills["Ana"].mu == pytest.approx(27.795, abs=1e-3)
    assert ratings.skills["Dai"].mu == pytest.approx(20.962, abs=1e-3)
    # Shown to two decimals, half up: the ordinal, mu and sigma.
    ana = ratings.skills["Ana"]
    assert ana.shown() == tuple(
        Decimal(repr(value)).quantize(Decimal("0.01"), ROUND_HALF_UP)
        for value in (ana.ordinal, ana.mu, ana.sigma)
    )
    assert ana.shown()[1] == Decimal("27.80")
    # The rating list: highest ordinal first.
    assert [row[0] for row in ratings.table()] == ["Ana", "Ben", "Cho", "Dai"]


def test_a_shared_place_is_a_draw_between_the_tied_players() -> None:
    """Places 1, 2, 2, 4 (two tied on points at 2nd). The sums for the teams ranked 2 hold the three
    teams ranked 2 or lower: p(2) = 1/3 for each tied player, A_2 = 2. Both tied players end equal, and
    between the winner and the last."""
    ratings = rate([Game("h1", ("Ana", "Ben", "Cho", "Dai"), (1, 2, 2, 4))])
    ben, cho = ratings.skills["Ben"], ratings.skills["Cho"]
    assert ben.mu == pytest.approx(cho.mu, abs=1e-12) and ben.sigma == pytest.approx(cho.sigma, abs=1e-12)
    # Ben: Omega = s2/c x (-1/4 + (1 - 1/3)/2 - (1/3)/2) = s2/c x (-1/4 + 1/3 - 1/6) = s2/c x (-1/12).
    assert ben.mu == pytest.approx(MU - S2 / C / 12, abs=1e-9)
    assert ratings.skills["Ana"].mu > ben.mu > ratings.skills["Dai"].mu


def test_invariants_over_a_sequence_and_the_history() -> None:
    games = [
        Game(("t", 1, 1), ("Ana", "Ben", "Cho", "Dai"), (1, 2, 3, 4)),
        Game(("t", 1, 2), ("Eve", "Fay", "Gus", "Hal"), (4, 3, 2, 1)),
        Game(("t", 2, 1), ("Ana", "Eve", "Gus", "Ben"), (1, 4, 3, 2)),
    ]
    ratings = rate(games)
    ana = ratings.history["Ana"]
    assert [step.key for step in ana] == [("t", 1, 1), ("t", 2, 1)]
    # The winner's mu rises with each first place; every sigma shrinks from the prior.
    assert MU < ana[0].skill.mu < ana[1].skill.mu
    assert all(skill.sigma < SIGMA for skill in ratings.skills.values())
    assert ana[1].skill.sigma < ana[0].skill.sigma
    # The last of a table loses mu.
    assert ratings.skills["Dai"].mu < MU and ratings.skills["Eve"].mu < MU
    # Order matters (documented): the same games in another order give other ratings.
    reordered = rate([games[2], games[0], games[1]])
    assert reordered.skills["Ana"].mu != pytest.approx(ratings.skills["Ana"].mu, abs=1e-9)
    # Reproducible: the same games in the same order give the same ratings.
    assert rate(games).skills == ratings.skills


def test_bad_games_are_refused() -> None:
    with pytest.raises(ValueError, match="once"):
        rate([Game("x", ("Ana", "Ana", "Cho", "Dai"), (1, 2, 3, 4))])
    with pytest.raises(ValueError, match="places"):
        rate([Game("x", ("Ana", "Ben", "Cho", "Dai"), (1, 2, 3, 5))])
    with pytest.raises(ValueError, match="one place"):
        rate([Game("x", ("Ana", "Ben", "Cho"), (1, 2, 3, 4))])


def test_places_from_points_share_equal_points() -> None:
    assert places_from_points([32000, 25000, 25000, 38000]) == (2, 3, 3, 1)
