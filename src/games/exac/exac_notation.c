/* Exaç move notation (interim: origin-destination only; the spec's notation follows). */
#include <stdio.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/exac/exac.h"

int exac_write_move(exac_state *s, gv_move m, char *buf, size_t len)
{
    (void)s;
    char a[4], b[4];
    exac_square_name(EX_FROM(m), a);
    exac_square_name(EX_TO(m), b);
    int n = snprintf(buf, len, "%s-%s", a, b);
    return n < 0 || (size_t)n >= len ? -1 : n;
}

int exac_parse_move(exac_state *s, const char *text, gv_move *out, char *err, size_t errlen)
{
    int from, to;
    if (!exac_parse_square(text, &from) || text[2] != '-' || !exac_parse_square(text + 3, &to) ||
        text[5])
        return gv_err(err, errlen, "'%s' is not a move like m6-m5", text);
    gv_move all[GV_MAX_MOVES];
    int n = exac_legal_moves(s, all);
    for (int i = 0; i < n; i++)
        if (all[i] == EX_MOVE(from, to)) {
            *out = all[i];
            return 0;
        }
    return gv_err(err, errlen, "%s is not legal here", text);
}
