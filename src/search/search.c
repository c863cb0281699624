/* Search: the pieces every searcher shares (the clock). */
#include <time.h>

#include "search/search.h"

int64_t gv_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
