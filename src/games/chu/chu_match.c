/* Chu Shogi for engine matches (match/match.h): moves in XBoard's notation (chu_xboard.c),
 * the position as XBoard's FEN, and what engines are told or known to play. */
#include "games/chu/chu.h"
#include "games/chu/chu_match.h"
#include "match/match.h"

static int write_xboard(void *st, gv_move m, char *buf, size_t len)
{
    return chu_write_xboard(&((const chu_state *)st)->pos, m, buf, len);
}

static int parse_xboard(void *st, const char *text, gv_move *m, char *err, size_t errlen)
{
    return chu_parse_xboard(st, text, m, err, errlen);
}

static int xboard_fen(const void *st, char *buf, size_t len)
{
    return chu_get_xboard_fen(&((const chu_state *)st)->pos, buf, len);
}

const gv_match_game gv_chu_match = {
    .write_xboard = write_xboard,
    .parse_xboard = parse_xboard,
    .xboard_fen = xboard_fen,
    .usi_variant = "chushogi",
    .max_plies = 600,
    /* HaChu makes a Pawn or Lance on the last rank promote, knows no bare-king rule and
     * has no repetition rule of ours (docs/match.md). */
    .engine_name = "HaChu",
    .engine_rules = "last_rank=must,bare_king=off,repetition=off",
};
