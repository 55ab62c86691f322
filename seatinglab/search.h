/* Random numbers and the clock, shared by the compiled searches of the offline finder (anneal.c,
 * develop.c): xorshift64* seeded by the caller through `rng_state`, and a monotonic clock. */
#ifndef SEATING_FINDER_SEARCH_H
#define SEATING_FINDER_SEARCH_H

#include <stdint.h>
#include <time.h>

static uint64_t rng_state;

static uint64_t next_random(void) {
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static int below_n(int bound) { return (int)((next_random() >> 33) % (uint64_t)bound); }

static double uniform(void) { return (double)(next_random() >> 11) / 9007199254740992.0; }

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
