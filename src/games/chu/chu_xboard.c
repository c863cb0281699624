/* Chu Shogi in XBoard's terms (XBoard 4.8+ `variant chu`): squares a1..l12 (files a..l
 * left to right and ranks 1..12 bottom to top, as Sente sees the board), moves in
 * coordinate form with lion moves as two legs `c4d5,d5e4`, and XBoard's FEN, where the
 * side that moves first (Sente, upper case) is XBoard's "white". A pass (jitto: a lion-power
 * piece steps to an empty neighbour and back) is XBoard's null move `@@@@`, as HaChu and
 * XBoard send and expect it; the two-leg form `g7g8,g8g7` is read too.
 *
 * Everything is translated to and from the USI and SFEN forms, so the checks (and the
 * reasons given for refusals) are those of chu_notation.c and chu_position.c. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/chu/chu.h"
#include "games/chu/chu_xboard.h"

int chu_xb_square_name(int sq, char *buf)
{
    return sprintf(buf, "%c%d", 'a' + CHU_COL(sq), CHU_N - CHU_ROW(sq));
}

int chu_xb_parse_square(const char *s, int *sq)
{
    if (s[0] < 'a' || s[0] >= 'a' + CHU_N || !isdigit((unsigned char)s[1]))
        return 0;
    int n = 1, rank = 0;
    while (isdigit((unsigned char)s[n]) && n < 3)
        rank = rank * 10 + (s[n++] - '0');
    if (rank < 1 || rank > CHU_N || s[1] == '0' || isdigit((unsigned char)s[n]))
        return 0;
    *sq = CHU_SQ(CHU_N - rank, s[0] - 'a');
    return n;
}

int chu_write_xboard(const chu_pos *p, gv_move m, char *buf, size_t len)
{
    /* The USI form names the squares of the move (a pass through an empty neighbour,
     * a lion move through its middle square); XBoard writes the same squares as legs. */
    char usi[32], tmp[40];
    int sq[3], k = 0, n = 0;
    if (CHU_FLAGS(m) & CHU_MF_PASS) {
        if (len < 5)
            return -1;
        memcpy(buf, "@@@@", 5);
        return 4;
    }
    if (chu_write_usi(p, m, usi, sizeof usi) < 0)
        return -1;
    for (const char *c = usi; k < 3 && isdigit((unsigned char)*c);) {
        int used = chu_parse_square(c, &sq[k]);
        if (!used)
            return -1;
        c += used;
        k++;
    }
    if (k < 2)
        return -1;
    n += chu_xb_square_name(sq[0], tmp + n);
    n += chu_xb_square_name(sq[1], tmp + n);
    if (k == 3) {
        tmp[n++] = ',';
        n += chu_xb_square_name(sq[1], tmp + n);
        n += chu_xb_square_name(sq[2], tmp + n);
    }
    if (CHU_FLAGS(m) & CHU_MF_PROMO)
        tmp[n++] = '+';
    tmp[n] = 0;
    return gv_text_out(buf, len, tmp, n);
}

int chu_parse_xboard(const chu_state *s, const char *text, gv_move *m, char *err, size_t errlen)
{
    const char *c = text;
    int sq[4], k = 0, comma = 0;
    if (!text || strlen(text) > 24)
        return gv_err(err, errlen, "'%.24s' is not an XBoard move (like h4h5, h4h5+ or "
                      "c4d5,d5e4)", text ? text : "");
    if (strcmp(text, "@@@@") == 0) {
        gv_move legal[GV_MAX_MOVES];
        int n = chu_legal_moves(s, legal);
        for (int i = 0; i < n; i++)
            if (CHU_FLAGS(legal[i]) & CHU_MF_PASS) {
                *m = legal[i];
                return 0;
            }
        return gv_err(err, errlen, n ? "'@@@@' (a lion's pass) is not possible here: no "
                      "lion-power piece has an empty neighbour" : "the game is over");
    }
    /* One leg (two squares) or two legs (four squares, the second starting where the
     * first ended). */
    while (k < 4) {
        int used = chu_xb_parse_square(c, &sq[k]);
        if (!used)
            break;
        c += used;
        k++;
        if (k == 2 && *c == ',')
            c++, comma = 1;
        else if (k == 2)
            break;
    }
    char suffix = 0;
    if (*c == '+' || *c == '=')
        suffix = *c++;
    if (!(k == (comma ? 4 : 2)) || *c)
        return gv_err(err, errlen, "'%s' is not an XBoard move (like h4h5, h4h5+, "
                      "c4d5,d5e4 or @@@@)", text);
    if (k == 4 && sq[2] != sq[1])
        return gv_err(err, errlen, "in '%s' the second leg must start where the first "
                      "ended", text);
    char usi[32];
    int n = 0;
    n += chu_square_name(sq[0], usi + n);
    n += chu_square_name(sq[1], usi + n);
    if (k == 4)
        n += chu_square_name(sq[3], usi + n);
    if (suffix)
        usi[n++] = suffix;
    usi[n] = 0;
    return chu_parse_usi(s, usi, m, err, errlen);
}

/* XBoard's FEN: the SFEN board, then "w"/"b" for Sente/Gote to move, castling and e.p.
 * fields (always "-": Chu has neither), the plies since the last capture and the move
 * number (grows after Gote's move). */
int chu_get_xboard_fen(const chu_pos *p, char *buf, size_t len)
{
    char sfen[512];
    if (chu_get_sfen(p, sfen, sizeof sfen) < 0)
        return -1;
    char *sp = strchr(sfen, ' ');
    if (!sp)
        return -1;
    *sp = 0;
    unsigned full = (p->movenum + 1) / 2;
    int n = snprintf(buf, len, "%s %c - - 0 %u", sfen, p->stm ? 'b' : 'w', full ? full : 1);
    return n < 0 || (size_t)n >= len ? -1 : n;
}

int chu_xboard_fen_to_sfen(const char *fen, char *sfen, size_t len, char *err, size_t errlen)
{
    char board[400], side[4] = "w";
    unsigned full = 1;
    if (!fen || strlen(fen) > 380)
        return gv_err(err, errlen, "not an XBoard FEN (too long)");
    int got = sscanf(fen, "%399s %3s", board, side);
    if (got < 1)
        return gv_err(err, errlen, "empty FEN");
    if (strcmp(side, "w") != 0 && strcmp(side, "b") != 0)
        return gv_err(err, errlen, "FEN side to move must be 'w' (Sente) or 'b' (Gote), "
                      "not '%s'", side);
    /* The remaining fields (castling, e.p., half-move clock) carry nothing for Chu; the
     * last number, when present, is the move number. */
    const char *last = strrchr(fen, ' ');
    if (got == 2 && last) {
        char *end;
        unsigned long v = strtoul(last + 1, &end, 10);
        if (*end == 0 && v >= 1 && v < 100000)
            full = (unsigned)v;
    }
    int stm = side[0] == 'b';
    int n = snprintf(sfen, len, "%s %c - %u", board, stm ? 'w' : 'b', 2 * (full - 1) + 1 + stm);
    if (n < 0 || (size_t)n >= len)
        return gv_err(err, errlen, "FEN too long");
    return 0;
}

/* ---- The XBoard session's view of the game ------------------------------------------ */

static int xb_parse_square(const char *s, int *sq)
{
    return chu_xb_parse_square(s, sq);
}

static void xb_square_rc(int sq, int *row, int *col)
{
    *row = CHU_ROW(sq);
    *col = CHU_COL(sq);
}

static void xb_move_squares(const void *st, gv_move m, int *from, int *to, int *mid)
{
    (void)st;
    *from = CHU_FROM(m);
    *to = CHU_TO(m);
    /* A lion's middle square (none for a pass, which only steps there and back; square
     * 0 is off the board). */
    *mid = CHU_MID(m) && !(CHU_FLAGS(m) & CHU_MF_PASS) ? CHU_MID(m) : -1;
}

static int xb_occupied(const void *st, int sq)
{
    int pc = ((const chu_state *)st)->pos.board[sq];
    return pc && pc != CHU_EDGE;
}

static int xb_write_move(const void *st, gv_move m, char *buf, size_t len)
{
    return chu_write_xboard(&((const chu_state *)st)->pos, m, buf, len);
}

static int xb_parse_move(const void *st, const char *text, gv_move *m, char *err, size_t errlen)
{
    return chu_parse_xboard(st, text, m, err, errlen);
}

static int xb_get_fen(const void *st, char *buf, size_t len)
{
    return chu_get_xboard_fen(&((const chu_state *)st)->pos, buf, len);
}

/* XBoard 4.8+ knows `variant chu`: no setup or piece commands. */
static const char *xb_refuse(const void *st)
{
    if (((const chu_state *)st)->pos.opt.heisei)
        return "Heisei Chu (variant=heisei) has drops, which XBoard's variant chu cannot "
               "express: play it over USI (gravulien usi) or in gravulien play";
    return NULL;
}

const gv_xboard_game gv_chu_xboard = {
    .files = CHU_N,
    .ranks = CHU_N,
    .parse_square = xb_parse_square,
    .square_rc = xb_square_rc,
    .move_squares = xb_move_squares,
    .occupied = xb_occupied,
    .write_move = xb_write_move,
    .parse_move = xb_parse_move,
    .get_fen = xb_get_fen,
    .fen_to_position = chu_xboard_fen_to_sfen,
    .refuse = xb_refuse,
};

/* ---- WinBoard SAN ------------------------------------------------------------------
 * The short algebraic notation WinBoard writes for `variant chu`: the piece's XBoard
 * letter (its SFEN letter in upper case, '+' before a promoted piece), the origin's file
 * and/or rank only when another piece of that kind makes a move of the same shape to the
 * same square, 'x' before a captured square, the destination; a lion's double move names
 * its middle square first (`+Dxf6-g7`, `Nxf6xg7`; igui returns to the origin,
 * `Nxf6-e5`); '+' after a move that promotes (no suffix: promotion deferred); a pass is
 * `-`. Drops (Heisei Chu) have no SAN. */

/* Writes m with the given disambiguation: 0 none, 1 the origin's file, 2 its rank, 3 both. */
static int san_format(const chu_pos *p, gv_move m, int level, char *buf, size_t len)
{
    unsigned fl = CHU_FLAGS(m);
    if (fl & CHU_MF_PASS)
        return snprintf(buf, len, "-");
    if (fl & CHU_MF_DROP)
        return -1;
    int from = CHU_FROM(m), to = CHU_TO(m), mid = CHU_MID(m), pc = p->board[from];
    int t = CHU_TYPE(pc);
    char tmp[48], sq[8];
    int n = 0;
    if (t > CHU_PROMO)
        tmp[n++] = '+';
    tmp[n++] = (char)toupper((unsigned char)chu_type_letter(t));
    chu_xb_square_name(from, sq);
    if (level & 1)
        tmp[n++] = sq[0];
    if (level & 2)
        n += sprintf(tmp + n, "%s", sq + 1);
    if (mid) {
        tmp[n++] = 'x';
        n += chu_xb_square_name(mid, tmp + n);
        tmp[n++] = (to != from && p->board[to]) ? 'x' : '-';
    } else if (p->board[to] && to != from) {
        tmp[n++] = 'x';
    }
    n += chu_xb_square_name(to, tmp + n);
    if (fl & CHU_MF_PROMO)
        tmp[n++] = '+';
    tmp[n] = 0;
    return gv_text_out(buf, len, tmp, n);
}

/* The least disambiguation that tells m apart from the legal moves of other pieces of
 * the same kind written the same way. */
static int san_level(const chu_pos *p, const gv_move *legal, int n, gv_move m)
{
    char mine[48], other[48];
    int clash[4] = {0, 0, 0, 0};
    for (int level = 0; level < 4; level++) {
        if (san_format(p, m, level, mine, sizeof mine) < 0)
            return 0;
        for (int i = 0; i < n && !clash[level]; i++)
            if (CHU_FROM(legal[i]) != CHU_FROM(m) && !(CHU_FLAGS(legal[i]) & CHU_MF_DROP) &&
                san_format(p, legal[i], level, other, sizeof other) > 0 && !strcmp(mine, other))
                clash[level] = 1;
        if (!clash[level])
            return level;
    }
    return 3;
}

int chu_write_san(const chu_state *s, gv_move m, char *buf, size_t len)
{
    gv_move *legal = malloc(GV_MAX_MOVES * sizeof *legal);
    if (!legal)
        return -1;
    int n = chu_legal_moves(s, legal);
    int k = san_format(&s->pos, m, san_level(&s->pos, legal, n, m), buf, len);
    free(legal);
    return k;
}

/* SAN's squares are a file letter then a rank number, so a SAN move ends with a digit
 * (before a '+' and annotations); TSA's and USI's end with a rank letter. */
int chu_san_shaped(const char *text)
{
    if (!strcmp(text, "-"))
        return 1;
    const char *c = text + (text[0] == '+');
    if (!isupper((unsigned char)c[0]))
        return 0;
    size_t k = strlen(text);
    while (k && strchr("!?#", text[k - 1]))
        k--;
    if (k && text[k - 1] == '+')
        k--;
    return k > 1 && isdigit((unsigned char)text[k - 1]);
}

int chu_parse_san(const chu_state *s, const char *text, gv_move *out, char *err, size_t errlen)
{
    char want[48];
    size_t k = strlen(text);
    while (k && strchr("!?#", text[k - 1]))
        k--;   /* annotations */
    if (k == 0 || k >= sizeof want)
        return gv_err(err, errlen, "'%s' is not a WinBoard SAN move", text);
    memcpy(want, text, k);
    want[k] = 0;
    gv_move *legal = malloc(GV_MAX_MOVES * sizeof *legal);
    if (!legal)
        return gv_err(err, errlen, "out of memory");
    int n = chu_legal_moves(s, legal), found = 0;
    gv_move match = 0;
    for (int i = 0; i < n; i++) {
        char form[48];
        for (int level = 0; level < 4; level++)
            if (san_format(&s->pos, legal[i], level, form, sizeof form) > 0 &&
                !strcmp(form, want)) {
                if (found && match != legal[i]) {
                    free(legal);
                    return gv_err(err, errlen, "'%s' is ambiguous: add the origin's file or "
                                  "rank after the piece (like Gfe2)", text);
                }
                found = 1;
                match = legal[i];
                break;
            }
    }
    free(legal);
    if (!found) {
        if (!n)
            return gv_err(err, errlen, "the game is over");
        return gv_err(err, errlen, "'%s' is not a legal move in WinBoard SAN here (like Pe5, "
                      "Bxf6, +Dxf6-g7, Pe10+, - for a pass)", text);
    }
    *out = match;
    return 0;
}
