/* Chu Shogi for engine matches (match/match.h): moves in XBoard's and USI's notations
 * (chu_xboard.c, chu_notation.c) and the position as XBoard's FEN. */
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

static int write_usi(void *st, gv_move m, char *buf, size_t len)
{
    return chu_write_usi(&((const chu_state *)st)->pos, m, buf, len);
}

static int parse_usi(void *st, const char *text, gv_move *m, char *err, size_t errlen)
{
    return chu_parse_usi(st, text, m, err, errlen);
}

static int xboard_fen(const void *st, char *buf, size_t len)
{
    return chu_get_xboard_fen(&((const chu_state *)st)->pos, buf, len);
}

const gv_match_game gv_chu_match = {
    .write_xboard = write_xboard,
    .parse_xboard = parse_xboard,
    .write_usi = write_usi,
    .parse_usi = parse_usi,
    .xboard_fen = xboard_fen,
    .usi_variant = "chushogi",
    .max_plies = 600,
    /* HaChu promotes on the last rank always, knows no bare-king rule and refuses
     * repetitions (docs/match.md). */
    .engine_name = "HaChu",
    .engine_rules = "last_rank=must,bare_king=off,repetition=off",
};
