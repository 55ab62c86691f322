/* Simulated annealing over a whole seating schedule, table numbers included: the compiled core of
 * seatinglab/anneal.py (same objective, same moves, about a hundred times the steps per second), loaded
 * by seatinglab/native.py with ctypes. Offline only: the generator never runs it.
 *
 * A schedule is `rounds` hanchan of `n / 4` tables of four players `0..n-1`, table `t` of hanchan `h`
 * at `sched[(h * tables + t) * 4 ..]`. The cost is `hard_weight` per unit beyond a hard limit (excess meetings
 * above `max_excess`, table repeats above `max_repeats`, any player at one table in consecutive
 * hanchan) plus, for every pair who never meet, 1 at `level` common opponents and 4 * BELOW^(level - c)
 * below it. The goal: no hard cost, nobody below `level`, at most `at_fewest` pairs at it (any number
 * if `at_fewest` < 0).
 *
 * Moves: two players of one hanchan change places; two groups of one hanchan change table numbers;
 * a chain of two or three player exchanges in one hanchan taken or refused as one (it reaches
 * regroupings that every single exchange on the way spoils); two players change places in every
 * hanchan from one on (a large step out of a valley); an exchange aimed at a pair of strangers at or
 * below the level (one of them joins an opponent of the other).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "search.h"

#define MAXN 256
#define WORDS (MAXN / 64)
#define MAXR 32
#define BELOW 8

typedef struct {
    int n, r, t, words;
    int *tab;                       /* r * t * 4 */
    int16_t where[MAXR][MAXN];      /* table of each player in each hanchan */
    int8_t seat[MAXR][MAXN];        /* place 0..3 at that table */
    uint8_t meet[MAXN][MAXN];
    uint64_t opp[MAXN][WORDS];
    int16_t common[MAXN][MAXN];
    uint8_t visits[MAXN][MAXN / 4];
    long excess, repeats, consecutive;
    long max_excess, max_repeats, hard_weight;
    int level;
    long soft, at_level, below;
    long weights[MAXN];             /* weight by missing common opponents, capped */
} State;

static int popcount_and(const uint64_t *a, const uint64_t *b, int words) {
    int c = 0;
    for (int w = 0; w < words; w++) c += __builtin_popcountll(a[w] & b[w]);
    return c;
}

/* What the pair p, q weighs and which counter it sits in. */
static inline void pair_add(State *s, int p, int q, int sign) {
    if (s->meet[p][q]) return;
    int c = s->common[p][q];
    if (c > s->level) return;
    if (c == s->level) {
        s->soft += sign;
        s->at_level += sign;
    } else {
        s->soft += sign * s->weights[s->level - c];
        s->below += sign;
    }
}

static long hard_cost(const State *s) {
    long h = s->consecutive;
    if (s->excess > s->max_excess) h += s->excess - s->max_excess;
    if (s->repeats > s->max_repeats) h += s->repeats - s->max_repeats;
    return h;
}

static long total_cost(const State *s) { return s->hard_weight * hard_cost(s) + s->soft; }

static void init_state(State *s, int n, int r, int *tab, long max_excess, long max_repeats, int level) {
    memset(s, 0, sizeof(*s));
    s->n = n;
    s->r = r;
    s->t = n / 4;
    s->words = (n + 63) / 64;
    s->tab = tab;
    s->max_excess = max_excess;
    s->max_repeats = max_repeats;
    s->level = level;
    long w = 4;
    for (int k = 1; k < MAXN; k++) {
        if (w < (1L << 40)) w *= BELOW;
        s->weights[k] = w;
    }
    for (int h = 0; h < r; h++)
        for (int t = 0; t < s->t; t++)
            for (int i = 0; i < 4; i++) {
                int p = tab[(h * s->t + t) * 4 + i];
                s->where[h][p] = (int16_t)t;
                s->seat[h][p] = (int8_t)i;
                s->visits[p][t]++;
                for (int j = 0; j < 4; j++) {
                    int q = tab[(h * s->t + t) * 4 + j];
                    if (q != p) s->meet[p][q]++;
                }
            }
    for (int p = 0; p < n; p++) {
        for (int q = p + 1; q < n; q++)
            if (s->meet[p][q] > 1) s->excess += s->meet[p][q] - 1;
        for (int t = 0; t < s->t; t++)
            if (s->visits[p][t] > 1) s->repeats += s->visits[p][t] - 1;
        for (int h = 0; h + 1 < r; h++)
            if (s->where[h][p] == s->where[h + 1][p]) s->consecutive++;
        for (int q = 0; q < n; q++)
            if (s->meet[p][q]) s->opp[p][q >> 6] |= 1ULL << (q & 63);
    }
    for (int p = 0; p < n; p++)
        for (int q = p + 1; q < n; q++) {
            s->common[p][q] = s->common[q][p] = (int16_t)popcount_and(s->opp[p], s->opp[q], s->words);
            pair_add(s, p, q, 1);
        }
}

/* Player p moves from table `from` to table `to` in hanchan h: visits and consecutive tables. */
static void move_seat(State *s, int h, int p, int from, int to) {
    int before = (h > 0 && s->where[h - 1][p] == from) + (h + 1 < s->r && s->where[h + 1][p] == from);
    int after = (h > 0 && s->where[h - 1][p] == to) + (h + 1 < s->r && s->where[h + 1][p] == to);
    s->consecutive += after - before;
    if (s->visits[p][from] >= 2) s->repeats--;
    s->visits[p][from]--;
    if (s->visits[p][to] >= 1) s->repeats++;
    s->visits[p][to]++;
    s->where[h][p] = (int16_t)to;
}

static void exchange_tables(State *s, int h, int t1, int t2) {
    int *g1 = &s->tab[(h * s->t + t1) * 4], *g2 = &s->tab[(h * s->t + t2) * 4];
    for (int i = 0; i < 4; i++) move_seat(s, h, g1[i], t1, t2);
    for (int i = 0; i < 4; i++) move_seat(s, h, g2[i], t2, t1);
    for (int i = 0; i < 4; i++) {
        int x = g1[i];
        g1[i] = g2[i];
        g2[i] = x;
    }
}

/* Player at place i of table t1 and player at place j of table t2 of hanchan h change places; the
 * same call undoes it. */
static void exchange_players(State *s, int h, int t1, int i, int t2, int j) {
    int *g1 = &s->tab[(h * s->t + t1) * 4], *g2 = &s->tab[(h * s->t + t2) * 4];
    int a = g1[i], b = g2[j];
    int cp[12], cq[12], cd[12], nc = 0;
    for (int k = 0; k < 4; k++) {
        if (k != i) {
            cp[nc] = a, cq[nc] = g1[k], cd[nc++] = -1;
            cp[nc] = b, cq[nc] = g1[k], cd[nc++] = 1;
        }
        if (k != j) {
            cp[nc] = b, cq[nc] = g2[k], cd[nc++] = -1;
            cp[nc] = a, cq[nc] = g2[k], cd[nc++] = 1;
        }
    }
    int touched[8], nt = 0;
    uint8_t mark[MAXN];
    for (int k = 0; k < nc; k++) {
        int before = s->meet[cp[k]][cq[k]];
        if ((cd[k] < 0 && before == 1) || (cd[k] > 0 && before == 0)) {
            int pq[2] = {cp[k], cq[k]};
            for (int e = 0; e < 2; e++) {
                int x = pq[e], seen = 0;
                for (int u = 0; u < nt; u++) seen |= touched[u] == x;
                if (!seen) touched[nt++] = x;
            }
        }
    }
    int n = s->n;
    memset(mark, 0, (size_t)n);
    for (int u = 0; u < nt; u++) mark[touched[u]] = 1;
    /* Pairs among the touched are counted once: from the smaller player. */
    for (int u = 0; u < nt; u++) {
        int x = touched[u];
        for (int q = 0; q < n; q++)
            if (q != x && (!mark[q] || q > x)) pair_add(s, x, q, -1);
    }
    for (int k = 0; k < nc; k++) {
        int p = cp[k], q = cq[k], before = s->meet[p][q];
        if (cd[k] < 0 && before >= 2) s->excess--;
        else if (cd[k] > 0 && before >= 1) s->excess++;
        s->meet[p][q] = s->meet[q][p] = (uint8_t)(before + cd[k]);
        if (before + cd[k] == 0) {
            s->opp[p][q >> 6] &= ~(1ULL << (q & 63));
            s->opp[q][p >> 6] &= ~(1ULL << (p & 63));
        } else if (before == 0) {
            s->opp[p][q >> 6] |= 1ULL << (q & 63);
            s->opp[q][p >> 6] |= 1ULL << (p & 63);
        }
    }
    for (int u = 0; u < nt; u++) {
        int x = touched[u];
        for (int q = 0; q < n; q++)
            if (q != x && (!mark[q] || q > x)) {
                s->common[x][q] = s->common[q][x] = (int16_t)popcount_and(s->opp[x], s->opp[q], s->words);
                pair_add(s, x, q, 1);
            }
    }
    move_seat(s, h, a, t1, t2);
    move_seat(s, h, b, t2, t1);
    s->seat[h][a] = (int8_t)j;
    s->seat[h][b] = (int8_t)i;
    g1[i] = b;
    g2[j] = a;
}

typedef struct {
    int kind; /* 0: players, 1: tables */
    int h, t1, i, t2, j;
} Step;

static void apply(State *s, const Step *m) {
    if (m->kind == 1) exchange_tables(s, m->h, m->t1, m->t2);
    else exchange_players(s, m->h, m->t1, m->i, m->t2, m->j);
}

/* A pair of strangers at or below the level (p first), found from a random player; 0 if p has none. */
static int low_pair(const State *s, int *p, int *q) {
    int n = s->n, a = below_n(n), from = below_n(n);
    for (int k = 0; k < n; k++) {
        int b = (from + k) % n;
        if (b != a && !s->meet[a][b] && s->common[a][b] <= s->level) {
            *p = a;
            *q = b;
            return 1;
        }
    }
    return 0;
}

/* Makes a random move of one to R steps (undone in reverse order) and returns how many. */
static int propose(State *s, Step *steps, double table_share, double chain_share, double suffix_share,
                   double focus_share) {
    int h = below_n(s->r), t1 = below_n(s->t), t2 = below_n(s->t - 1);
    t2 += t2 >= t1;
    double u = uniform();
    int p, q;
    if (u >= 1.0 - focus_share && low_pair(s, &p, &q)) {
        /* Aimed at a pair of strangers too low: p takes the seat of a tablemate of one of q's
         * opponents x whom p has not met, in hanchan h, so that p and q gain x in common. */
        int n = s->n, from = below_n(n);
        for (int k = 0; k < n; k++) {
            int x = (from + k) % n;
            if (x == p || x == q || !s->meet[q][x] || s->meet[p][x]) continue;
            int tp = s->where[h][p], tx = s->where[h][x];
            if (tp == tx) break;
            int j = below_n(3);
            j += j >= s->seat[h][x];
            steps[0] = (Step){0, h, tp, s->seat[h][p], tx, j};
            apply(s, &steps[0]);
            return 1;
        }
    }
    if (u < table_share) {
        steps[0] = (Step){1, h, t1, 0, t2, 0};
        apply(s, &steps[0]);
        return 1;
    }
    if (u < table_share + suffix_share) {
        /* Two players change places in every hanchan from h on. */
        int a = below_n(s->n), b = below_n(s->n - 1);
        b += b >= a;
        int count = 0;
        for (int k = h; k < s->r; k++) {
            int ta = s->where[k][a], tb = s->where[k][b];
            if (ta == tb) continue;
            steps[count] = (Step){0, k, ta, s->seat[k][a], tb, s->seat[k][b]};
            apply(s, &steps[count++]);
        }
        return count;
    }
    int length = 1;
    if (u < table_share + suffix_share + chain_share) length = 2 + (uniform() < 0.3);
    /* A chain: each exchange takes the player just moved on to another table. */
    int i = below_n(4), j = below_n(4);
    steps[0] = (Step){0, h, t1, i, t2, j};
    apply(s, &steps[0]);
    for (int k = 1; k < length; k++) {
        int t3 = below_n(s->t - 1);
        t3 += t3 >= t2;
        /* The player now at (t2, j) came from t1; send them on to t3. */
        int jj = below_n(4);
        steps[k] = (Step){0, h, t2, j, t3, jj};
        apply(s, &steps[k]);
        t2 = t3;
        j = jj;
    }
    return length;
}

/* The end of a run: the statistics, and the best state free of hard costs into `sched` when the goal
 * was not reached. */
static int finish(const State *s, int reached, int *sched, const int *best_tab, int size, int *found,
                  long long *stats, long long steps, long long accepted, long best_below, long best_at) {
    stats[0] = steps;
    stats[1] = accepted;
    stats[2] = best_below;
    stats[3] = best_at;
    stats[4] = s->excess;
    stats[5] = s->repeats;
    stats[6] = s->consecutive;
    if (!reached && *found) memcpy(sched, best_tab, sizeof(int) * (size_t)size);
    if (reached) *found = 1;
    return reached;
}

/* Returns 1 when the goal was reached (sched holds it), 0 otherwise (sched holds the best state free
 * of hard costs seen, if any: then found[0] is 1). stats: steps, accepted, best below, best at level,
 * final excess, repeats, consecutive. The temperature falls over `seconds` of wall-clock time or, when
 * `max_steps` is positive, over that many steps (the same run on any machine; `seconds` is then a cap). */
int anneal(int n, int r, int *sched, long max_excess, long max_repeats, int level, long at_fewest,
           long hard_weight, int adaptive, double seconds, long long max_steps, unsigned long long seed,
           double hot, double cold, double cycles,
           double table_share, double chain_share, double suffix_share, double focus_share, int *found,
           long long *stats) {
    static State state;
    static int best_tab[MAXR * MAXN];
    State *s = &state;
    if (n > MAXN || r > MAXR || n % 4 || n < 8) return -1;
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
    init_state(s, n, r, sched, max_excess, max_repeats, level);
    s->hard_weight = hard_weight;
    int size = r * s->t * 4;
    memcpy(best_tab, sched, sizeof(int) * (size_t)size);
    long best_below = -1, best_at = -1;
    *found = 0;
    double began = now_seconds(), temperature = hot, period = seconds / (cycles > 1 ? cycles : 1);
    double step_period = (double)max_steps / (cycles > 1 ? cycles : 1);
    long cost = total_cost(s);
    long long steps_done = 0, accepted = 0;
    Step steps[MAXR + 4];
    int reached = 0;
    for (;;) {
        if (!hard_cost(s) && s->below == 0 && (at_fewest < 0 || s->at_level <= at_fewest)) {
            reached = 1;
            break;
        }
        steps_done++;
        if ((steps_done & 1023) == 0) {
            double elapsed = now_seconds() - began;
            if (elapsed > seconds || (max_steps > 0 && steps_done > max_steps)) break;
            double phase = max_steps > 0 ? fmod((double)steps_done, step_period) / step_period
                                         : fmod(elapsed, period) / period;
            temperature = hot * pow(cold / hot, phase);
            if (adaptive && (steps_done & 4095) == 0) {
                /* Strategic oscillation: hard limits cost more while they are broken and less while
                 * they hold, so the search keeps crossing them without staying beyond. */
                if (hard_cost(s)) {
                    if (s->hard_weight < 100000) s->hard_weight += 1 + s->hard_weight / 16;
                } else if (s->hard_weight > 1) {
                    s->hard_weight -= 1 + s->hard_weight / 32;
                    if (s->hard_weight < 1) s->hard_weight = 1;
                }
                cost = total_cost(s);
            }
        }
        int count = propose(s, steps, table_share, chain_share, suffix_share, focus_share);
        long after = total_cost(s);
        long delta = after - cost;
        if (delta <= 0 || uniform() < exp(-(double)delta / temperature)) {
            cost = after;
            accepted++;
            if (!hard_cost(s) &&
                (best_below < 0 || s->below < best_below || (s->below == best_below && s->at_level < best_at))) {
                best_below = s->below;
                best_at = s->at_level;
                memcpy(best_tab, sched, sizeof(int) * (size_t)size);
                *found = 1;
            }
        } else {
            for (int k = count - 1; k >= 0; k--) apply(s, &steps[k]);
        }
    }
    return finish(s, reached, sched, best_tab, size, found, stats, steps_done, accepted, best_below, best_at);
}

/* For the tests: `moves` random moves from `sched` (each kept or undone at random), then the figures
 * kept up to date are compared with those counted afresh. Returns how many differ (0: all agree). */
int anneal_selfcheck(int n, int r, int *sched, int moves, unsigned long long seed, int level) {
    static State state, fresh;
    static int copy[MAXR * MAXN];
    if (n > MAXN || r > MAXR || n % 4 || n < 8) return -1;
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
    init_state(&state, n, r, sched, 3, 5, level);
    Step steps[MAXR + 4];
    for (int m = 0; m < moves; m++) {
        int count = propose(&state, steps, 0.15, 0.3, 0.05, 0.2);
        if (uniform() < 0.5)
            for (int k = count - 1; k >= 0; k--) apply(&state, &steps[k]);
    }
    memcpy(copy, sched, sizeof(int) * (size_t)(r * n));
    init_state(&fresh, n, r, copy, 3, 5, level);
    int differ = (state.excess != fresh.excess) + (state.repeats != fresh.repeats) +
                 (state.consecutive != fresh.consecutive) + (state.soft != fresh.soft) +
                 (state.at_level != fresh.at_level) + (state.below != fresh.below);
    for (int p = 0; p < n; p++) {
        for (int q = 0; q < n; q++)
            differ += (p != q && state.common[p][q] != fresh.common[p][q]) + (state.meet[p][q] != fresh.meet[p][q]);
        for (int h = 0; h < r; h++) {
            int t = state.where[h][p], i = state.seat[h][p];
            differ += sched[(h * state.t + t) * 4 + i] != p;
        }
    }
    return differ;
}

/* Excess meetings that exchanging the players at (t1, i) and (t2, j) of hanchan h would add (negative:
 * remove), counted from the meetings alone. */
static int excess_delta(const State *s, int h, int t1, int i, int t2, int j) {
    const int *g1 = &s->tab[(h * s->t + t1) * 4], *g2 = &s->tab[(h * s->t + t2) * 4];
    int a = g1[i], b = g2[j], d = 0;
    for (int k = 0; k < 4; k++) {
        if (k != i) d += (s->meet[b][g1[k]] >= 1) - (s->meet[a][g1[k]] >= 2);
        if (k != j) d += (s->meet[a][g2[k]] >= 1) - (s->meet[b][g2[k]] >= 2);
    }
    return d;
}

/* Tabu search over the same objective and hard limits as `anneal`: every iteration takes the best
 * exchange of two players (among those that keep the excess meetings within their limit) or, when it
 * lowers the cost, of two table numbers, whichever costs least, even when it costs more than the state now, unless it moves a
 * player who moved in that hanchan during the last `tenure` iterations (taken anyway when it beats
 * the best state seen). Where exchanges that keep the groups repeat-free are rare, it finds them all
 * each time instead of drawing them at random; `slack` more excess meetings than the limit may be
 * crossed (each costing `hard_weight`) where none keeps within it. Returns and fills as `anneal`. */
int tabu(int n, int r, int *sched, long max_excess, long max_repeats, int level, long at_fewest,
         long hard_weight, long slack, double seconds, unsigned long long seed, int tenure, int *found,
         long long *stats) {
    static State state;
    static int best_tab[MAXR * MAXN];
    static long long until[MAXR][MAXN];
    State *s = &state;
    if (n > MAXN || r > MAXR || n % 4 || n < 8) return -1;
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
    init_state(s, n, r, sched, max_excess, max_repeats, level);
    s->hard_weight = hard_weight;
    memset(until, 0, sizeof(until));
    int size = r * s->t * 4;
    memcpy(best_tab, sched, sizeof(int) * (size_t)size);
    long best_cost = total_cost(s), best_below = -1, best_at = -1;
    *found = 0;
    if (!hard_cost(s)) {
        /* The start counts: where no exchange keeps the limits, it is the best there is. */
        best_below = s->below;
        best_at = s->at_level;
        *found = 1;
    }
    double began = now_seconds();
    long long iteration = 0;
    int reached = 0;
    for (;;) {
        if (!hard_cost(s) && s->below == 0 && (at_fewest < 0 || s->at_level <= at_fewest)) {
            reached = 1;
            break;
        }
        if (now_seconds() - began > seconds) break;
        iteration++;
        long chosen_cost = -1, table_cost = -1, current = total_cost(s);
        Step chosen = {0, 0, 0, 0, 0, 0}, table_step = {0, 0, 0, 0, 0, 0};
        int ties = 0;
        for (int h = 0; h < r; h++)
            for (int t1 = 0; t1 < s->t; t1++)
                for (int t2 = t1 + 1; t2 < s->t; t2++) {
                    for (int m = -1; m < 16; m++) {
                        Step step;
                        if (m < 0) {
                            step = (Step){1, h, t1, 0, t2, 0};
                        } else {
                            int i = m >> 2, j = m & 3;
                            int a = s->tab[(h * s->t + t1) * 4 + i], b = s->tab[(h * s->t + t2) * 4 + j];
                            int d = excess_delta(s, h, t1, i, t2, j);
                            if (d > 0 && s->excess + d > s->max_excess + slack) continue;
                            step = (Step){0, h, t1, i, t2, j};
                            int taboo = until[h][a] > iteration || until[h][b] > iteration;
                            apply(s, &step);
                            long after = total_cost(s);
                            apply(s, &step);
                            if (taboo && after >= best_cost) continue;
                            if (chosen_cost < 0 || after < chosen_cost) {
                                chosen_cost = after;
                                chosen = step;
                                ties = 1;
                            } else if (after == chosen_cost && below_n(++ties) == 0) {
                                chosen = step;
                            }
                            continue;
                        }
                        apply(s, &step);
                        long after = total_cost(s);
                        apply(s, &step);
                        /* Table numbers only when they lower the cost: they cannot lead the groups
                         * anywhere, and walking them would crowd out the exchanges of players. */
                        if (after < current && (table_cost < 0 || after < table_cost)) {
                            table_cost = after;
                            table_step = step;
                        }
                    }
                }
        if (table_step.kind == 1 && (chosen_cost < 0 || table_cost <= chosen_cost)) {
            chosen = table_step;
            chosen_cost = table_cost;
        }
        if (chosen_cost < 0) {
            /* Every exchange is taboo or repeats a meeting: forget the taboos. */
            memset(until, 0, sizeof(until));
            continue;
        }
        if (chosen.kind == 0) {
            int a = s->tab[(chosen.h * s->t + chosen.t1) * 4 + chosen.i];
            int b = s->tab[(chosen.h * s->t + chosen.t2) * 4 + chosen.j];
            until[chosen.h][a] = until[chosen.h][b] = iteration + tenure + below_n(tenure + 1);
        }
        apply(s, &chosen);
        long now_cost = total_cost(s);
        if (now_cost < best_cost) best_cost = now_cost;
        if (!hard_cost(s) &&
            (best_below < 0 || s->below < best_below || (s->below == best_below && s->at_level < best_at))) {
            best_below = s->below;
            best_at = s->at_level;
            memcpy(best_tab, sched, sizeof(int) * (size_t)size);
            *found = 1;
        }
    }
    return finish(s, reached, sched, best_tab, size, found, stats, iteration, iteration, best_below, best_at);
}
