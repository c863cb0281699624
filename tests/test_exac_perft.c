/* Exaç perft table (shared/rules/exac.md, "Perft"): finished games are leaves. */
#include <stdlib.h>

#include "game/game.h"
#include "game/perft.h"
#include "tharness.h"

static unsigned long long exac_perft(const char *pos, const char *options, int depth)
{
    const gv_game *g = gv_game_find("exac");
    void *st = calloc(1, g->state_size);
    char err[GV_ERRLEN];
    CHECK(g->init(st, options, err, sizeof err) == 0);
    CHECK(g->set_position(st, pos, err, sizeof err) == 0);
    unsigned long long n = gv_perft(g, st, depth);
    free(st);
    return n;
}

/* The published counts, from an independent implementation of exac.md. */
static void test_perft_start_published(void)
{
    CHECK_EQ_INT(exac_perft("startpos", NULL, 1), 43);
    CHECK_EQ_INT(exac_perft("startpos", NULL, 2), 1849);
    CHECK_EQ_INT(exac_perft("startpos", NULL, 3), 105189);
}

/* Deeper, our own count (a regression signature, not independently confirmed). */
static void test_perft_start_depth4(void)
{
    const char *slow = getenv("GV_SLOW_TESTS");
    if (slow && atoi(slow) == 0)
        return;
    CHECK_EQ_INT(exac_perft("startpos", NULL, 4), 5931543);
}

const t_case exac_perft_tests[] = {
    T(test_perft_start_published),
    T(test_perft_start_depth4),
    {0},
};
