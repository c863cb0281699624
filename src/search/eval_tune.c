/* The names of an evaluation's weights for a tuner (gv_eval_tune, search.h). */
#include <stdio.h>

#include "search/search.h"

void gv_tune_name(const gv_eval_tune *t, int i, char *buf, size_t len)
{
    for (int f = 0; f < t->nfields; f++) {
        const gv_tune_field *fd = &t->fields[f];
        int first = (int)(fd->offset / sizeof(int));
        if (i >= first && i < first + fd->n) {
            if (fd->n == 1)
                snprintf(buf, len, "%s", fd->name);
            else
                snprintf(buf, len, "%s[%d]", fd->name, i - first);
            return;
        }
    }
    snprintf(buf, len, "w%d", i);
}
