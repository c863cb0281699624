/* Search: the pieces every searcher shares (the clock, the games' alpha-beta hooks). */
#include <string.h>
#include <time.h>

#include "search/chu_eval.h"
#include "search/exac_eval.h"
#include "search/search.h"

static const gv_ab_hooks *const ab_hooks[] = {&gv_chu_hooks, &gv_exac_hooks};

const gv_ab_hooks *gv_ab_hooks_find(const char *game)
{
    for (size_t i = 0; i < sizeof ab_hooks / sizeof ab_hooks[0]; i++)
        if (!strcmp(ab_hooks[i]->game, game))
            return ab_hooks[i];
    return NULL;
}

int64_t gv_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
