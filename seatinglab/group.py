"""Offline finder: players moved by a finite abelian group, and the classes of pairs it makes.

G = Z_o1 x Z_o2 x ... (``orders``) acts on ``k`` *types* of ``|G|`` players ``(g, i)`` by translation,
on *short orbits* (one player per coset of a subgroup K, moved through G / K) and on *fixed* players.
Player numbers: type ``i`` holds ``i |G| .. (i + 1) |G| - 1`` in the order of ``elements``, then the
short orbits' players, then the fixed ones. A *class* is an orbit of pairs of players under G, named by
its least pair; a schedule that G maps to itself seats every pair of a class alike, which is what
:func:`.sat_group.sat_group_rounds` and :mod:`.leave` count on.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, product

# A player: ("type", i, g) is (g, i); ("short", j, g) the player of the coset of g in short orbit j;
# ("fixed", j, ()) fixed player j.
PlayerRef = tuple[str, int, tuple[int, ...]]
Pair = tuple[int, int]


class GroupAction:
    """The players of ``k`` types, the ``short`` orbits (each the generators of a subgroup K) and ``f``
    fixed players under G = Z_o1 x Z_o2 x ...; ``class_of`` maps every pair to its class and
    ``pairs_in`` counts each class's pairs."""

    def __init__(
        self, orders: tuple[int, ...], k: int, f: int, short: Sequence[list[tuple[int, ...]]] = ()
    ) -> None:
        self.orders = orders
        self.elements = list(product(*(range(o) for o in orders)))
        self.index = {g: i for i, g in enumerate(self.elements)}
        self.size = len(self.elements)
        self.finite = k * self.size
        # Short orbits: player number of (orbit, coset representative), and each element's coset.
        self.coset_player: dict[tuple[int, tuple[int, ...]], int] = {}
        self.coset_of: list[dict[tuple[int, ...], tuple[int, ...]]] = []
        for j, kernel in enumerate(short):
            stays = self.span(kernel)
            canon: dict[tuple[int, ...], tuple[int, ...]] = {}
            for g in self.elements:
                if g not in canon:
                    coset = [self.add(g, h) for h in stays]
                    rep = min(coset)
                    for member in coset:
                        canon[member] = rep
                    self.coset_player[j, rep] = self.finite + len(self.coset_player)
            self.coset_of.append(canon)
        self.player_coset = {p: key for key, p in self.coset_player.items()}
        self.n = self.finite + len(self.coset_player) + f
        self.class_of: dict[Pair, Pair] = {}
        self.pairs_in: dict[Pair, int] = {}
        for p, q in combinations(range(self.n), 2):
            c = self.class_of[p, q] = self.orbit(self.elements, p, q)
            self.pairs_in[c] = self.pairs_in.get(c, 0) + 1

    def add(self, g: tuple[int, ...], h: tuple[int, ...]) -> tuple[int, ...]:
        return tuple((a + b) % o for a, b, o in zip(g, h, self.orders, strict=True))

    def span(self, gens: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
        """The subgroup the elements ``gens`` generate, sorted."""
        group = {self.elements[0]}
        frontier = [self.elements[0]]
        while frontier:
            g = frontier.pop()
            for h in gens:
                image = self.add(g, h)
                if image not in group:
                    group.add(image)
                    frontier.append(image)
        return sorted(group)

    def act(self, g: tuple[int, ...], p: int) -> int:
        """Player ``p`` moved by ``g``."""
        if p < self.finite:
            return (p // self.size) * self.size + self.index[self.add(self.elements[p % self.size], g)]
        if p in self.player_coset:
            j, rep = self.player_coset[p]
            return self.coset_player[j, self.coset_of[j][self.add(rep, g)]]
        return p

    def orbit(self, group: Sequence[tuple[int, ...]], p: int, q: int) -> Pair:
        """The least pair of the orbit of ``{p, q}`` under the subgroup ``group`` (its elements)."""
        return min((min(self.act(g, p), self.act(g, q)), max(self.act(g, p), self.act(g, q))) for g in group)

    def player(self, ref: PlayerRef) -> int:
        kind, j, g = ref
        if kind == "type":
            return j * self.size + self.index[g]
        if kind == "short":
            return self.coset_player[j, self.coset_of[j][g]]
        return self.finite + len(self.coset_player) + j

    def ref(self, p: int) -> PlayerRef:
        """The inverse of :meth:`player`."""
        if p < self.finite:
            return ("type", p // self.size, self.elements[p % self.size])
        if p in self.player_coset:
            j, rep = self.player_coset[p]
            return ("short", j, rep)
        return ("fixed", p - self.finite - len(self.coset_player), ())

    def class_members(self) -> dict[Pair, list[Pair]]:
        """Every class's pairs."""
        members: dict[Pair, list[Pair]] = {}
        for pair, c in self.class_of.items():
            members.setdefault(c, []).append(pair)
        return members
