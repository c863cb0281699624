/* Chu Shogi's part of the server's JSON views: each move of the move list in TSA notation
 * (the English literature's, written by the rules core: P-8f, Px7d=, Lnx3hx2i) and in
 * Japanese as a KIF move line writes it (☗７八歩兵), besides its USI text. */
#include <jansson.h>
#include <string.h>

#include "games/chu/chu.h"
#include "games/chu/chu_record.h"
#include "games/chu/chu_web.h"
#include "server/web_view.h"

static const char *const chu_notations[] = {"tsa", "kif", NULL};

static int chu_move_texts(const void *st, gv_move m, char *buf, size_t len)
{
    const chu_state *s = st;
    int a = chu_write_tsa(s, m, buf, len);
    if (a < 0 || (size_t)a + 1 >= len)
        return -1;
    int b = chu_kif_move_text(s, m, buf + a + 1, len - (size_t)a - 1);
    if (b < 0)
        return -1;
    return a + 1 + b + 1;
}

const struct gv_web_view gv_chu_web = {
    .notations = chu_notations,
    .move_texts = chu_move_texts,
};
