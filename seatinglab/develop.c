/* Simulated annealing over one base hanchan of a cyclic shape (players (x, i), x in Z_m, i one of k
 * types, no fixed player) developed m times, plus transversal hanchan, with the leave's shared
 * strangers in the objective. Loaded by seatinglab/native.py with ctypes; offline only.
 *
 * The caller gives the difference class of every pair (`cls`, n * n, from cyclic.Classes: m odd, so
 * every class holds m pairs and the development seats each pair of a class used once exactly once).
 * The schedule is repeat-free when no class is used twice: by the base hanchan's tables and by the
 * transversal hanchan {(v_i + t, i)}, each using the class of (v_i, i) and (v_j, j) for i < j. The
 * classes never used are the leave: the pairs who never meet. Two strangers p, q share as opponents
 * everyone but their own strangers, so their common opponents grow with the players r who are
 * strangers of both (`shared`); the same for every pair of a class, so one pair per class is counted.
 *
 * Cost: `weight` per excess use of a class, plus for every leave class `goal - shared` when below
 * `goal`, plus the leave classes at exactly `goal` beyond `at_most` (when `at_most` >= 0). The goal:
 * cost 0. Moves: two players of different base tables change places; now and then one entry of a
 * transversal vector changes (the type-0 entry stays 0). Metropolis at a constant `temperature`, the
 * threshold drawn before the leave is counted, so a move whose excess uses alone exceed it is refused
 * without counting. Deterministic for a seed until `seconds` cut it short.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "search.h"

#define MAXN 256
#define MAXC 4096
#define MAXT 8

typedef struct {
    int n, m, tables, ntrans, nclass, goal, at_most;
    const int *cls;
    int use[MAXC];
    int rep[MAXC][2];
    int members[MAXN / 4][4];
    int table_of[MAXN];
    int vec[MAXT][4];
    long excess;
} Base;

static void add_class(Base *b, int c) {
    if (b->use[c] >= 1) b->excess++;
    b->use[c]++;
}

static void remove_class(Base *b, int c) {
    b->use[c]--;
    if (b->use[c] >= 1) b->excess--;
}

static int pair_class(const Base *b, int p, int q) { return b->cls[p * b->n + q]; }

static void table_classes(Base *b, int t, int sign) {
    for (int a = 0; a < 4; a++)
        for (int c = a + 1; c < 4; c++) {
            int k = pair_class(b, b->members[t][a], b->members[t][c]);
            if (sign > 0) add_class(b, k); else remove_class(b, k);
        }
}

static void transversal_classes(Base *b, int h, int sign) {
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++) {
            int k = pair_class(b, i * b->m + b->vec[h][i], j * b->m + b->vec[h][j]);
            if (sign > 0) add_class(b, k); else remove_class(b, k);
        }
}

/* The leave's cost: how far its classes fall short of `goal` shared strangers, plus those at it
 * beyond `at_most`; `low` gets the fewest shared strangers of any leave class. */
static long leave_cost(const Base *b, int *low) {
    long short_by = 0, at_goal = 0;
    int fewest = MAXN;
    for (int c = 0; c < b->nclass; c++) {
        if (b->use[c]) continue;
        int p = b->rep[c][0], q = b->rep[c][1], shared = 0;
        const int *row_p = b->cls + p * b->n, *row_q = b->cls + q * b->n;
        for (int r = 0; r < b->n; r++)
            if (r != p && r != q && !b->use[row_p[r]] && !b->use[row_q[r]]) shared++;
        if (shared < b->goal) short_by += b->goal - shared;
        if (shared == b->goal) at_goal++;
        if (shared < fewest) fewest = shared;
    }
    if (low) *low = fewest;
    if (b->at_most >= 0 && at_goal > b->at_most) short_by += at_goal - b->at_most;
    return short_by;
}

static void exchange(Base *b, int p, int q) {
    int tp = b->table_of[p], tq = b->table_of[q];
    for (int a = 0; a < 4; a++) {
        if (b->members[tp][a] == p) b->members[tp][a] = q;
        if (b->members[tq][a] == q) b->members[tq][a] = p;
    }
    b->table_of[p] = tq;
    b->table_of[q] = tp;
}

/* Exchange p and q (different tables) with the class counts kept up to date. */
static void exchange_counted(Base *b, int p, int q) {
    int tp = b->table_of[p], tq = b->table_of[q];
    for (int a = 0; a < 4; a++) {
        int r = b->members[tp][a], s = b->members[tq][a];
        if (r != p) remove_class(b, pair_class(b, p, r));
        if (s != q) remove_class(b, pair_class(b, q, s));
    }
    exchange(b, p, q);
    for (int a = 0; a < 4; a++) {
        int r = b->members[tq][a], s = b->members[tp][a];
        if (r != p) add_class(b, pair_class(b, p, r));
        if (s != q) add_class(b, pair_class(b, q, s));
    }
}

/* The problem's fields and one pair per class; -1 for arguments out of range. */
static int setup(Base *b, int n, int m, const int *cls, int nclass, int ntrans, int goal, int at_most) {
    if (n > MAXN || n % 4 || m < 3 || n % m || nclass > MAXC || ntrans > MAXT || (ntrans && n != 4 * m))
        return -1;
    memset(b, 0, sizeof *b);
    b->n = n;
    b->m = m;
    b->tables = n / 4;
    b->ntrans = ntrans;
    b->nclass = nclass;
    b->goal = goal;
    b->at_most = at_most;
    b->cls = cls;
    for (int c = 0; c < nclass; c++) b->rep[c][0] = -1;
    for (int p = 0; p < n; p++)
        for (int q = p + 1; q < n; q++) {
            int c = cls[p * n + q];
            if (c < 0 || c >= nclass) return -1;
            if (b->rep[c][0] < 0) {
                b->rep[c][0] = p;
                b->rep[c][1] = q;
            }
        }
    return 0;
}

/* The state `base` (table t at base[4t..4t+3]) and `vec` (four entries per transversal hanchan), its
 * classes counted afresh. */
static void place(Base *b, const int *base, const int *vec) {
    memset(b->use, 0, sizeof b->use);
    b->excess = 0;
    for (int t = 0; t < b->tables; t++)
        for (int a = 0; a < 4; a++) {
            b->members[t][a] = base[t * 4 + a];
            b->table_of[base[t * 4 + a]] = t;
        }
    for (int h = 0; h < b->ntrans; h++)
        for (int i = 0; i < 4; i++) b->vec[h][i] = vec[h * 4 + i];
    for (int t = 0; t < b->tables; t++) table_classes(b, t, 1);
    for (int h = 0; h < b->ntrans; h++) transversal_classes(b, h, 1);
}

static void save(const Base *b, int *base, int *vec) {
    for (int t = 0; t < b->tables; t++)
        for (int a = 0; a < 4; a++) base[t * 4 + a] = b->members[t][a];
    for (int h = 0; h < b->ntrans; h++)
        for (int i = 0; i < 4; i++) vec[h * 4 + i] = b->vec[h][i];
}

/* Entry `i` (a type 1..3) of transversal vector `h` set to `value`, the counts kept up to date;
 * returns the old value, for a second call to put back. */
static int set_entry(Base *b, int h, int i, int value) {
    int old = b->vec[h][i];
    transversal_classes(b, h, -1);
    b->vec[h][i] = value;
    transversal_classes(b, h, 1);
    return old;
}

/* stats: steps, repeat-free states reached, the least leave cost among them (-1: none), the fewest
 * shared strangers of that state. Returns 1 when the goal is reached (base and vec hold it), 0 when
 * `seconds` ran out (they hold the last state), -1 for arguments out of range. */
int develop(int n, int m, const int *cls, int nclass, int ntrans, int goal, int at_most, int weight,
            double temperature, double seconds, uint64_t seed, int *base, int *vec, long long *stats) {
    static Base b;
    if (setup(&b, n, m, cls, nclass, ntrans, goal, at_most) < 0) return -1;
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    if (!rng_state) rng_state = 1;
    int order[MAXN], start_vec[MAXT * 4] = {0};
    for (int p = 0; p < n; p++) order[p] = p;
    for (int p = n - 1; p > 0; p--) {
        int j = below_n(p + 1), t = order[p];
        order[p] = order[j];
        order[j] = t;
    }
    for (int h = 0; h < ntrans; h++)
        for (int i = 1; i < 4; i++) start_vec[h * 4 + i] = below_n(m);
    place(&b, order, start_vec);

    double deadline = now_seconds() + seconds;
    long cost = weight * b.excess + leave_cost(&b, NULL);
    long long steps = 0, reached_free = 0;
    long best_free = -1;
    int best_low = -1, reached = 0;
    for (;;) {
        if (b.excess == 0) {
            int low;
            long leave = cost;
            if (best_free < 0 || leave < best_free) {
                leave_cost(&b, &low);
                best_free = leave;
                best_low = low;
            }
            if (leave == 0) {
                reached = 1;
                break;
            }
        }
        if ((steps & 4095) == 0 && now_seconds() > deadline) break;
        steps++;
        /* Accept when the new cost is at most the threshold (Metropolis, drawn first). */
        double threshold = (double)cost - temperature * log(1.0 - uniform());
        long old_excess = b.excess;
        if (ntrans && below_n(50) == 0) {
            int h = below_n(ntrans), i = 1 + below_n(3);
            int old = set_entry(&b, h, i, below_n(m));
            long next = weight * b.excess;
            if (next <= threshold) next += leave_cost(&b, NULL);
            if (next <= threshold)
                cost = next;
            else
                set_entry(&b, h, i, old);
        } else {
            int p = below_n(n), q = below_n(n);
            if (b.table_of[p] == b.table_of[q]) continue;
            exchange_counted(&b, p, q);
            long next = weight * b.excess;
            if (next <= threshold) next += leave_cost(&b, NULL);
            if (next <= threshold)
                cost = next;
            else
                exchange_counted(&b, p, q);
        }
        if (b.excess == 0 && old_excess != 0) reached_free++;
    }
    save(&b, base, vec);
    stats[0] = steps;
    stats[1] = reached_free;
    stats[2] = best_free;
    stats[3] = best_low;
    return reached;
}

/* For the tests: after `moves` random moves (exchanges and transversal entries), each kept or undone,
 * whether the class counts and the excess uses kept up to date equal a fresh count (0: they do). */
int develop_selfcheck(int n, int m, const int *cls, int nclass, int ntrans, int moves, uint64_t seed) {
    static Base b, fresh;
    int base[MAXN], vec[MAXT * 4];
    long long stats[4];
    if (develop(n, m, cls, nclass, ntrans, 0, -1, 1, 1.0, 0.0, seed, base, vec, stats) < 0) return -1;
    setup(&b, n, m, cls, nclass, ntrans, 0, -1);
    place(&b, base, vec);
    for (int s = 0; s < moves; s++) {
        int p = below_n(n), q = below_n(n);
        if (b.table_of[p] != b.table_of[q]) {
            exchange_counted(&b, p, q);
            if (below_n(2)) exchange_counted(&b, p, q);
        }
        if (ntrans) {
            int h = below_n(ntrans), i = 1 + below_n(3);
            int old = set_entry(&b, h, i, below_n(m));
            if (below_n(2)) set_entry(&b, h, i, old);
        }
    }
    for (int t = 0; t < b.tables; t++)
        for (int a = 0; a < 4; a++)
            if (b.table_of[b.members[t][a]] != t) return 1;
    save(&b, base, vec);
    setup(&fresh, n, m, cls, nclass, ntrans, 0, -1);
    place(&fresh, base, vec);
    return memcmp(fresh.use, b.use, sizeof b.use) != 0 || fresh.excess != b.excess;
}
