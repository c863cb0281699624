/* make bench: perft speed per game (leaves per second, every leaf made and unmade). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/game.h"
#include "game/perft.h"
#include "games/grav/grav.h"
#include "core/gv_core.h"
#include "engine/engine.h"

/* Benchmarks of the AI players' parts (bench_chu.c, bench_exac.c, bench_grav.c). */
void bench_chu_eval(void);
void bench_exac_eval(void);
void bench_grav_mcts(void);
void bench_chu_texts(void);

/* The measured calls' results are added here, so that the compiler keeps the work. */
static volatile unsigned bench_sink;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void bench_perft(const char *game, int depth, int runs)
{
    const gv_game *g = gv_game_find(game);
    void *st = calloc(1, g->state_size);
    char err[GV_ERRLEN];
    g->init(st, NULL, err, sizeof err);
    double rates[16];
    uint64_t nodes = 0;
    for (int i = 0; i < runs; i++) {
        double t0 = now();
        nodes = gv_perft(g, st, depth);
        double dt = now() - t0;
        rates[i] = (double)nodes / dt;
    }
    qsort(rates, (size_t)runs, sizeof rates[0], cmp_double);
    printf("%s perft d%d: %llu leaves, median %.2f M leaves/s (min %.2f, max %.2f, %d runs)\n",
           game, depth, (unsigned long long)nodes, rates[runs / 2] / 1e6, rates[0] / 1e6,
           rates[runs - 1] / 1e6, runs);
    free(st);
}

/* Grav on a 23x23 board half full of random stones (4 players): the time to compute the
 * set of points where the player to move would violate nothing, and one bonus count. */
static void bench_grav(int runs)
{
    enum { N = 23 };
    grav_params prm = {4, 3, 6, 2, 10};
    grav_options opt = {0, 0, 0, 1, 0};
    grav_pos *p = calloc(1, sizeof *p);
    char err[GV_ERRLEN];
    if (!p || grav_setup(p, N, 4, &prm, &opt, 0, err, sizeof err) < 0) {
        printf("grav: setup failed: %s\n", err);
        free(p);
        return;
    }
    gv_rng r;
    gv_rng_seed(&r, 12345);
    while (p->norder < N * N / 2) {
        int q = (int)gv_rng_below(&r, N * N);
        if (!p->board[q]) {
            p->board[q] = (uint8_t)(1 + gv_rng_below(&r, 4));
            p->order[p->norder++] = (uint16_t)q;
        }
    }
    int ref = p->order[p->norder - 1];
    double map_us[16], bonus_us[16];
    for (int i = 0; i < runs; i++) {
        int reps = 200;
        double t0 = now();
        for (int k = 0; k < reps; k++) {
            uint8_t map[N * N];
            grav_violation_map(p->board, N, &prm, &opt, ref, 1, map);
            for (int q = 0; q < N * N; q++)
                bench_sink += map[q] == 0;
        }
        map_us[i] = (now() - t0) / reps * 1e6;
        t0 = now();
        reps = 2000;
        for (int k = 0; k < reps; k++) {
            int q = p->order[(unsigned)k % p->norder];
            bench_sink += (unsigned)grav_bonus_count(p->board, N, &opt, q);
        }
        bonus_us[i] = (now() - t0) / reps * 1e6;
    }
    qsort(map_us, (size_t)runs, sizeof map_us[0], cmp_double);
    qsort(bonus_us, (size_t)runs, sizeof bonus_us[0], cmp_double);
    printf("grav 23x23 half full: violation-free point set median %.1f us (target < 50), "
           "bonus count median %.2f us (target < 20), %d runs\n",
           map_us[runs / 2], bonus_us[runs / 2], runs);
    free(p);
}

/* Search speed: nodes per second of the whole alpha-beta search from a few positions,
 * each searched to a fixed node budget (median over runs). */
static void bench_search(const char *game, const char *const *positions, uint64_t nodes,
                         double target, int runs)
{
    double rates[16];
    for (int i = 0; i < runs; i++) {
        uint64_t total = 0;
        int64_t ms = 0;
        for (const char *const *pos = positions; *pos; pos++) {
            char err[GV_ERRLEN];
            gv_engine *e = gv_engine_new(game, NULL, err, sizeof err);
            if (!e || gv_engine_set_position(e, *pos, err, sizeof err) != 0) {
                printf("%s search: %s\n", game, err);
                gv_engine_free(e);
                return;
            }
            gv_go go;
            memset(&go, 0, sizeof go);
            go.nodes = nodes;
            gv_search_result r = gv_engine_think(e, &go, NULL);
            total += r.nodes;
            ms += r.time_ms;
            gv_engine_free(e);
        }
        rates[i] = ms ? total * 1000.0 / (double)ms : 0;
    }
    qsort(rates, (size_t)runs, sizeof rates[0], cmp_double);
    printf("%s search: median %.2f M nodes/s (min %.2f, max %.2f, %d runs; target %.1f M)\n",
           game, rates[runs / 2] / 1e6, rates[0] / 1e6, rates[runs - 1] / 1e6, runs, target / 1e6);
}

/* How long gv_engine_stop takes to end an infinite search, for every game (the engine's
 * promise: a few milliseconds), median and worst of runs stops after 100 ms of search. */
static void best_ignored(void *ctx, const gv_search_result *r)
{
    (void)ctx;
    (void)r;
}

static void bench_stop(int runs)
{
    for (int gi = 0; gi < gv_game_count(); gi++) {
        const char *name = gv_game_at(gi)->name;
        char err[GV_ERRLEN];
        double ms[16];
        int n = 0;
        for (int i = 0; i < runs; i++) {
            gv_engine *e = gv_engine_new(name, NULL, err, sizeof err);
            if (!e)
                break;
            gv_engine_set_option(e, "hash", "16", err, sizeof err);
            gv_go go;
            memset(&go, 0, sizeof go);
            go.infinite = 1;
            gv_engine_cb cb = {NULL, best_ignored, NULL};
            if (gv_engine_go(e, &go, &cb, err, sizeof err) == 0) {
                struct timespec nap = {0, 100 * 1000000L};
                nanosleep(&nap, NULL);
                double t0 = now();
                gv_engine_stop(e);
                ms[n++] = (now() - t0) * 1000.0;
            }
            gv_engine_free(e);
        }
        if (!n)
            continue;
        qsort(ms, (size_t)n, sizeof ms[0], cmp_double);
        printf("%s stop: median %.2f ms, worst %.2f ms (%d stops after 100 ms of an infinite search)\n",
               name, ms[n / 2], ms[n - 1], n);
    }
}

static const char *const chu_search_positions[] = {
    "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/"
    "MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1",
    "lfcsgekgscfl/a1b1txot1bva/mvr1dq1d1r1m/pppp1p1pp1p1/3ipn3p1p/6pN3h/8I3/3IP2P3Q/"
    "PPPP1PP1PPPP/MVRHD2D1RVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 25",
    "5k6/12/3g1p2g3/4pn1p4/5I6/3N1b6/6P5/2+H9/12/12/4+D7/5K6 b - 1",
    NULL,
};

static const char *const exac_search_positions[] = {
    "1SSSSS1/SSSSSSS/7/7/7/FFFFFFF/1FFFFF1 f 0 1",
    "2SS1S1/S1SSSSS/3S1S1/7/2FF3/FF1FF1F/2FFFF1 f 0 5",
    "3SSS1/S1SSSS1/3SS2/7/2F4/FFFFFFF/3FF2 f 5 9",
    NULL,
};

int main(int argc, char **argv)
{
    gv_games_init();
    int runs = argc > 1 ? atoi(argv[1]) : 7;
    if (runs < 1 || runs > 16)
        runs = 7;
    /* An optional second argument runs one part only: perft, grav, search, chu-search,
     * exac-search, eval (the AI players' parts), texts (the server's move texts), stop (how
     * long stopping a search takes). */
    const char *only = argc > 2 ? argv[2] : NULL;
#define PART(name) (!only || !strcmp(only, name))
    if (PART("perft")) {
        bench_perft("chu", 4, runs);
        bench_perft("exac", 4, runs);
    }
    if (PART("grav"))
        bench_grav(runs);
    if (PART("search") || PART("chu-search"))
        bench_search("chu", chu_search_positions, 1000000, 1.5e6, runs < 5 ? runs : 5);
    if (PART("search") || PART("exac-search"))
        bench_search("exac", exac_search_positions, 3000000, 5e6, runs < 5 ? runs : 5);
    if (PART("eval")) {
        bench_chu_eval();
        bench_exac_eval();
        bench_grav_mcts();
    }
    if (PART("texts"))
        bench_chu_texts();
    if (PART("stop"))
        bench_stop(runs);
#undef PART
    return 0;
}
