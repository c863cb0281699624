/* Chu Shogi perft table: start position (shared/rules/chu.md) and positions of our own. */
#include <stdlib.h>

#include "game/game.h"
#include "game/perft.h"
#include "tharness.h"

typedef struct perft_case {
    const char *sfen;
    const char *options;
    int depth;
    unsigned long long nodes;
} perft_case;

static unsigned long long run(const perft_case *c)
{
    const gv_game *g = gv_game_find("chu");
    void *st = calloc(1, g->state_size);
    char err[GV_ERRLEN];
    CHECK(g->init(st, c->options, err, sizeof err) == 0);
    CHECK(g->set_position(st, c->sfen, err, sizeof err) == 0);
    unsigned long long n = gv_perft(g, st, c->depth);
    free(st);
    return n;
}

static void test_perft_start(void)
{
    static const perft_case cases[] = {
        {"startpos", NULL, 1, 36},
        {"startpos", NULL, 2, 1296},
        {"startpos", NULL, 3, 48315},
        {"startpos", NULL, 4, 1801639},
    };
    int slow = getenv("GV_SLOW_TESTS") == NULL || atoi(getenv("GV_SLOW_TESTS")) != 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].depth >= 4 && !slow)
            continue;
        CHECK_EQ_INT(run(&cases[i]), cases[i].nodes);
    }
}

const t_case chu_perft_tests[] = {
    T(test_perft_start),
    {0},
};
