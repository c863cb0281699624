/* Exaç in XBoard's terms: XBoard knows nothing of the game, so the engine defines it as
 * a 7x7 variant. Squares a1..g7 (files a..g = g n m s d v z, ranks 1..7 bottom to top,
 * as First sees the board), moves in coordinate form (`a2a3`), and a FEN whose pieces are
 * all one piece type: EXAC_XB_PIECE for First (XBoard's "white", moving first), its lower
 * case for Second. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/exac/exac.h"
#include "games/exac/exac_xboard.h"

int exac_xb_square_name(int sq, char *buf)
{
    buf[0] = (char)('a' + EX_X(sq));
    buf[1] = (char)('0' + EX_N - EX_Y(sq));
    buf[2] = 0;
    return 2;
}

int exac_xb_parse_square(const char *s, int *sq)
{
    if (s[0] < 'a' || s[0] >= 'a' + EX_N || s[1] < '1' || s[1] > '0' + EX_N)
        return 0;
    *sq = EX_SQ(s[0] - 'a', EX_N - (s[1] - '0'));
    return 2;
}

int exac_write_xboard(gv_move m, char *buf, size_t len)
{
    if (len < 5)
        return -1;
    exac_xb_square_name(EX_FROM(m), buf);
    exac_xb_square_name(EX_TO(m), buf + 2);
    return 4;
}

int exac_parse_xboard(const exac_state *s, const char *text, gv_move *m, char *err, size_t errlen)
{
    int from, to;
    if (!text || !exac_xb_parse_square(text, &from) || !exac_xb_parse_square(text + 2, &to) ||
        text[4])
        return gv_err(err, errlen, "'%.16s' is not an XBoard move (like a2a3)",
                      text ? text : "");
    /* The from-to form of the game's own notation does every check and gives the reason. */
    char own[8];
    exac_square_name(from, own);
    own[2] = '-';
    exac_square_name(to, own + 3);
    return exac_parse_move(s, own, m, err, errlen);
}

int exac_get_xboard_fen(const exac_pos *p, char *buf, size_t len)
{
    /* The game's own position text, "<board> f|s <quiet> <move>", with XBoard's letters. */
    char text[128], board[64], side = 'f';
    unsigned quiet = 0, movenum = 1;
    if (exac_get_text(p, text, sizeof text) < 0 ||
        sscanf(text, "%63s %c %u %u", board, &side, &quiet, &movenum) != 4)
        return -1;
    for (char *c = board; *c; c++)
        *c = *c == 'F' ? EXAC_XB_PIECE : *c == 'S' ? (char)tolower(EXAC_XB_PIECE) : *c;
    int n = snprintf(buf, len, "%s %c - - %u %u", board, side == 's' ? 'b' : 'w', quiet, movenum);
    return n < 0 || (size_t)n >= len ? -1 : n;
}

int exac_xboard_fen_to_text(const char *fen, char *out, size_t len, char *err, size_t errlen)
{
    char board[128], side[4] = "w", f3[16] = "-", f4[16] = "-";
    unsigned long quiet = 0, full = 1;
    if (!fen || strlen(fen) > 120)
        return gv_err(err, errlen, "not an XBoard FEN for Exac (too long)");
    int got = sscanf(fen, "%127s %3s %15s %15s %lu %lu", board, side, f3, f4, &quiet, &full);
    if (got < 1)
        return gv_err(err, errlen, "empty FEN");
    if (strcmp(side, "w") != 0 && strcmp(side, "b") != 0)
        return gv_err(err, errlen, "FEN side to move must be 'w' (First) or 'b' (Second), "
                      "not '%s'", side);
    if (quiet > 100000 || full < 1 || full > 100000)
        return gv_err(err, errlen, "FEN counters out of range");
    for (char *c = board; *c; c++) {
        if (*c == EXAC_XB_PIECE)
            *c = 'F';
        else if (*c == tolower(EXAC_XB_PIECE))
            *c = 'S';
        else if (*c != '/' && !(*c >= '1' && *c <= '7'))
            return gv_err(err, errlen, "FEN piece '%c' is not '%c' (First) or '%c' (Second)",
                          *c, EXAC_XB_PIECE, tolower(EXAC_XB_PIECE));
    }
    int n = snprintf(out, len, "%s %c %lu %lu", board, side[0] == 'b' ? 's' : 'f', quiet, full);
    if (n < 0 || (size_t)n >= len)
        return gv_err(err, errlen, "FEN too long");
    return 0;
}

/* ---- The XBoard session's view of the game ------------------------------------------ */

static void xb_square_rc(int sq, int *row, int *col)
{
    *row = EX_Y(sq);
    *col = EX_X(sq);
}

static void xb_move_squares(const void *st, gv_move m, int *from, int *to, int *mid)
{
    (void)st;
    *from = EX_FROM(m);
    *to = EX_TO(m);
    *mid = -1;
}

static int xb_occupied(const void *st, int sq)
{
    const exac_pos *p = &((const exac_state *)st)->pos;
    return ((p->bb[0] | p->bb[1]) & EX_BIT(sq)) != 0;
}

static int xb_write_move(const void *st, gv_move m, char *buf, size_t len)
{
    (void)st;
    return exac_write_xboard(m, buf, len);
}

static int xb_parse_move(const void *st, const char *text, gv_move *m, char *err, size_t errlen)
{
    return exac_parse_xboard(st, text, m, err, errlen);
}

static int xb_get_fen(const void *st, char *buf, size_t len)
{
    return exac_get_xboard_fen(&((const exac_state *)st)->pos, buf, len);
}

/* XBoard does not know Exac: the engine defines it as a 7x7 fairy variant with one piece
 * type, a Queen that also jumps like a Knight, an Alfil and a Camel (every square an Exac
 * piece could ever reach), so XBoard lets every Exac move through and the engine judges
 * legality. The setup's piece list and the piece command use EXAC_XB_PIECE ('M'). */
_Static_assert(EXAC_XB_PIECE == 'M', "the setup and piece commands name the piece M");

const gv_xboard_game gv_exac_xboard = {
    .files = EX_N,
    .ranks = EX_N,
    .parse_square = exac_xb_parse_square,
    .square_rc = xb_square_rc,
    .move_squares = xb_move_squares,
    .occupied = xb_occupied,
    .write_move = xb_write_move,
    .parse_move = xb_parse_move,
    .get_fen = xb_get_fen,
    .fen_to_position = exac_xboard_fen_to_text,
    .setup = "(....M.....m.) 7x7+0_fairy",
    .piece = "M& QNAC",
};
