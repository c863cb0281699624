/* make bench: perft speed per game (leaves per second, every leaf made and unmade). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "game/game.h"
#include "game/perft.h"

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

int main(int argc, char **argv)
{
    gv_games_init();
    int runs = argc > 1 ? atoi(argv[1]) : 7;
    if (runs < 1 || runs > 16)
        runs = 7;
    bench_perft("chu", 4, runs);
    bench_perft("exac", 4, runs);
    return 0;
}
