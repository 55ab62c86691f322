"""Seat winds: who sits East, South, West and North at every table.

Every player should sit in each wind ``floor(R/4)`` to ``ceil(R/4)`` times. This is an edge colouring:
the bipartite multigraph "table of a hanchan — player" gets 4 colours, each table seeing each colour
once. Cut every player's hanchan, in order, into chunks of four; the graph "table — chunk" has maximum
degree 4, so by König's theorem it has a proper 4-edge-colouring (found with alternating-path flips).
A chunk of four then holds each wind once: every player ends with each wind ``floor(R/4)`` or
``ceil(R/4)`` times, and every four consecutive hanchan show each wind once.

When hanchan were already played, their winds count too: alternating paths ("this player takes South
instead of East at that table; the South player there takes East, and gives it back at another
table...") then even out the counts.
"""

from __future__ import annotations

Groups = list[list[int]]


def _colour_bipartite(edges: list[tuple[int, int]], left: int, right: int) -> list[int]:
    """Proper 4-edge-colouring of a bipartite graph of maximum degree 4 (edges are (left, right))."""
    at_left = [[-1] * 4 for _ in range(left)]  # colour -> right node
    at_right = [[-1] * 4 for _ in range(right)]  # colour -> left node
    edge_of: dict[tuple[int, int], int] = {}
    colour = [-1] * len(edges)
    for e, (u, v) in enumerate(edges):
        edge_of[(u, v)] = e
        lu = at_left[u]
        rv = at_right[v]
        a = lu.index(-1)
        if rv[a] == -1:
            c = a
        else:
            b = rv.index(-1)
            if lu[b] == -1:
                c = b
            else:
                # Flip the a/b alternating path that starts at v with its a-edge; then a is free at v.
                path: list[tuple[int, int, int]] = []
                node_right = v
                want = a
                while True:
                    u2 = at_right[node_right][want]
                    if u2 == -1:
                        break
                    path.append((u2, node_right, want))
                    other = b if want == a else a
                    v2 = at_left[u2][other]
                    if v2 == -1:
                        break
                    path.append((u2, v2, other))
                    node_right = v2
                for u2, v2, c_old in path:
                    at_left[u2][c_old] = -1
                    at_right[v2][c_old] = -1
                for u2, v2, c_old in path:
                    c_new = b if c_old == a else a
                    at_left[u2][c_new] = v2
                    at_right[v2][c_new] = u2
                    colour[edge_of[(u2, v2)]] = c_new
                c = a
        at_left[u][c] = v
        at_right[v][c] = u
        colour[e] = c
    return colour


def assign_winds(n: int, tables: list[Groups], history_winds: list[list[int]]) -> list[Groups]:
    """Order the players of every table (free hanchan, table order kept) East, South, West, North."""
    rounds = len(tables)
    table_ids: list[tuple[int, int]] = []
    appearance = [0] * n
    chunk_id: dict[tuple[int, int], int] = {}
    edges: list[tuple[int, int]] = []
    edge_player: list[int] = []
    for r in range(rounds):
        for t, group in enumerate(tables[r]):
            if not group:
                continue
            node = len(table_ids)
            table_ids.append((r, t))
            for p in group:
                key = (p, appearance[p] // 4)
                appearance[p] += 1
                if key not in chunk_id:
                    chunk_id[key] = len(chunk_id)
                edges.append((node, chunk_id[key]))
                edge_player.append(p)
    colours = _colour_bipartite(edges, len(table_ids), len(chunk_id))
    seats: list[list[int]] = [[-1, -1, -1, -1] for _ in table_ids]
    for e, (node, _chunk) in enumerate(edges):
        seats[node][colours[e]] = edge_player[e]
    if any(any(row) for row in history_winds):
        _even_out(n, seats, history_winds)
    out: list[Groups] = [[[] for _ in tables[r]] for r in range(rounds)]
    for node, (r, t) in enumerate(table_ids):
        out[r][t] = seats[node]
    return out


def _even_out(n: int, seats: list[list[int]], history_winds: list[list[int]]) -> None:
    """Alternating-path repair of the wind counts (history included), wind pair by wind pair."""
    count = [list(row) for row in history_winds]
    for row in seats:
        for seat, p in enumerate(row):
            count[p][seat] += 1
    improved = True
    rounds_left = 8 * n
    while improved and rounds_left > 0:
        improved = False
        rounds_left -= 1
        for p in range(n):
            row = count[p]
            hi = max(range(4), key=lambda w: row[w])
            lo = min(range(4), key=lambda w: row[w])
            if row[hi] - row[lo] < 2:
                continue
            if _augment(p, hi, lo, seats, count):
                improved = True


def _augment(start: int, a: int, b: int, seats: list[list[int]], count: list[list[int]]) -> bool:
    """Find players start = x0, x1, ..., xk and tables where x_i sits ``a`` and x_{i+1} sits ``b``;
    swapping along the path moves one ``a`` of ``start`` to a ``b`` and ends at a player who can take
    the extra ``a``. Returns whether such a path was found and applied."""
    parent: dict[int, tuple[int, int]] = {start: (-1, -1)}
    frontier = [start]
    tables_of: dict[int, list[int]] = {}
    for node, row in enumerate(seats):
        if row[a] >= 0:
            tables_of.setdefault(row[a], []).append(node)
    used_tables: set[int] = set()
    while frontier:
        nxt: list[int] = []
        for x in frontier:
            for node in tables_of.get(x, ()):
                if node in used_tables:
                    continue
                y = seats[node][b]
                if y in parent:
                    continue
                parent[y] = (x, node)
                used_tables.add(node)
                cy = count[y]
                if cy[a] < cy[b]:
                    # Apply: walk back, swapping a/b seats at every table of the path.
                    z = y
                    while z != start:
                        px, pnode = parent[z]
                        seats[pnode][a], seats[pnode][b] = z, px
                        count[z][a] += 1
                        count[z][b] -= 1
                        count[px][a] -= 1
                        count[px][b] += 1
                        z = px
                    return True
                nxt.append(y)
        frontier = nxt
    return False
