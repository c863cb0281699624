/* Exaç for engine matches (match/match.h): moves in XBoard's notation (exac_xboard.c) and
 * the position as XBoard's FEN. */
#include "games/exac/exac.h"
#include "games/exac/exac_match.h"
#include "match/match.h"

static int write_xboard(void *st, gv_move m, char *buf, size_t len)
{
    (void)st;
    return exac_write_xboard(m, buf, len);
}

static int parse_xboard(void *st, const char *text, gv_move *m, char *err, size_t errlen)
{
    return exac_parse_xboard(st, text, m, err, errlen);
}

static int xboard_fen(const void *st, char *buf, size_t len)
{
    return exac_get_xboard_fen(&((const exac_state *)st)->pos, buf, len);
}

const gv_match_game gv_exac_match = {
    .write_xboard = write_xboard,
    .parse_xboard = parse_xboard,
    .xboard_fen = xboard_fen,
    .max_plies = 300,
};
