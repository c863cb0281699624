/* Exaç move notation (exac.md "Notation", "Precise conventions"): writing a move as role,
 * boost, disambiguator, capture, destination and suffix; reading it back (and plain
 * from-to); the line `gravulien moves exac` prints. */
#include <stdio.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/exac/exac.h"

static const char *const role_name[EX_NROLES] = {
    "a Polus", "a Yachi (A)", "a Perits (P)", "an Adrib (H)", "a Potersin (T)", "a Lapah (L)",
};
static const char *const role_short[EX_NROLES] = {
    "Polus", "Yachi (A)", "Perits (P)", "Adrib (H)", "Potersin (T)", "Lapah (L)",
};
static const char *const role_needs[EX_NROLES] = {
    "",
    "needs friendly pieces on at least 3 of its 4 diagonal neighbours",
    "must stand on an edge of the board",
    "needs a friendly piece on an orthogonally adjacent square",
    "needs at least 3 friendly pieces on its 8 surrounding squares",
    "must stand in the opponent's camp",
};
static const char *const side_name[2] = {"First", "Second"};

/* ---- Moves of one piece, by role ----------------------------------------------------- */

/* Does the piece with destinations d reach `to` as role (-1: any role), with the boost
 * exactly when star is 1, never when it is 0, or either way when it is -1? */
static int reaches(const exac_dests *d, int role, int to, int star)
{
    uint64_t b = EX_BIT(to);
    for (int r = role < 0 ? 0 : role; r < (role < 0 ? EX_NROLES : role + 1); r++) {
        if (!d->has_role[r])
            continue;
        if ((star != 1 && (d->base[r] & b)) || (star != 0 && (d->boost[r] & b)))
            return 1;
    }
    return 0;
}

/* The writer's role: the first of Polus, A, P, H, T, L that makes the move without the
 * boost, else the first that makes it with the boost. Returns -1 if none does. */
static int writer_role(const exac_dests *d, int to, int *star)
{
    for (*star = 0; *star <= 1; (*star)++)
        for (int r = 0; r < EX_NROLES; r++)
            if (reaches(d, r, to, *star))
                return r;
    return -1;
}

/* Pieces among `pool` that reach `to` as role with the given boost marking. */
static uint64_t pieces_reaching(const exac_pos *p, uint64_t pool, int role, int to, int star)
{
    uint64_t found = 0;
    exac_dests d;
    for (; pool; pool &= pool - 1) {
        int sq = __builtin_ctzll(pool);
        exac_piece_dests(p, sq, &d);
        if (reaches(&d, role, to, star))
            found |= EX_BIT(sq);
    }
    return found;
}

static uint64_t file_mask(int x)
{
    uint64_t m = 0;
    for (int y = 0; y < EX_N; y++)
        m |= EX_BIT(EX_SQ(x, y));
    return m;
}

static uint64_t rank_mask(int y)
{
    return ((1ULL << EX_N) - 1) << (y * EX_N);
}

/* Is (from, to) a move of the side to move: its own piece, to a destination of some role?
 * (Whether the game is over is not looked at.) */
static int is_move(const exac_pos *p, int from, int to)
{
    if (!(p->bb[p->stm] >> from & 1))
        return 0;
    exac_dests d;
    exac_piece_dests(p, from, &d);
    return reaches(&d, -1, to, -1);
}

/* ---- Suffixes ------------------------------------------------------------------------ */

/* The position after m in p, on a scratch copy (no history; rule 1's flag set). */
static void pos_after(const exac_pos *p, gv_move m, exac_pos *q)
{
    int from = EX_FROM(m), to = EX_TO(m), me = p->stm, them = !me;
    *q = *p;
    q->key = exac_key_after(p, m);
    q->toppled = 0;
    if (p->bb[them] >> to & 1) {
        q->toppled = (exac_yachis(p, them) >> to & 1) != 0;
        q->bb[them] &= ~EX_BIT(to);
        q->quiet = 0;
    } else {
        q->quiet++;
    }
    q->bb[me] ^= EX_BIT(from) | EX_BIT(to);
    if (me == EX_SECOND)
        q->movenum++;
    q->stm = (uint8_t)them;
}

/* Has the side to move in p any move (rule 4 is about its absence)? */
static int side_has_move(const exac_pos *p)
{
    exac_dests d;
    for (uint64_t b = p->bb[p->stm]; b; b &= b - 1) {
        exac_piece_dests(p, __builtin_ctzll(b), &d);
        for (int r = 0; r < EX_NROLES; r++)
            if (d.base[r] | d.boost[r])
                return 1;
    }
    return 0;
}

/* Does the side that just moved into q win by rules 1-4 (repetition and quiet limit not
 * looked at)? */
static int wins_at_once(const exac_pos *q)
{
    const char *why;
    return exac_mover_wins(q, &why) || !side_has_move(q);
}

/* The `+` test: in `after` (the position after the mover's move), with the mover to move
 * again, does it have a move that wins at once? The flipped position is only a board to
 * move on: it is not itself checked for an ending. */
static int threatens(const exac_pos *after)
{
    exac_pos again = *after, q;
    again.stm ^= 1;
    again.key ^= exac_side_key();
    again.toppled = 0;
    exac_dests d;
    for (uint64_t b = again.bb[again.stm]; b; b &= b - 1) {
        int sq = __builtin_ctzll(b);
        exac_piece_dests(&again, sq, &d);
        uint64_t all = 0;
        for (int r = 0; r < EX_NROLES; r++)
            all |= d.base[r] | d.boost[r];
        for (; all; all &= all - 1) {
            pos_after(&again, EX_MOVE(sq, __builtin_ctzll(all)), &q);
            if (wins_at_once(&q))
                return 1;
        }
    }
    return 0;
}

/* '#', '+' or 0 for legal move m of s: the ending (exac_status) of the position after m,
 * judged on a copy of the position and s's history without playing m, then the threat. */
static char suffix(const exac_state *s, gv_move m)
{
    exac_pos q;
    pos_after(&s->pos, m, &q);
    int code = exac_end_code_of(s, &q, 1);
    if (code == EXAC_END_REPETITION || code == EXAC_END_QUIET)
        return 0;
    if (code != EXAC_END_NONE || !side_has_move(&q))
        return '#';
    return threatens(&q) ? '+' : 0;
}

/* ---- Writing ------------------------------------------------------------------------- */

/* The disambiguator of (from, to) written as role/star: other pieces of the same side
 * whose move to `to` can be made by that role with the same boost marking are rivals;
 * file if no rival shares it, else rank, else both. Writes 0-2 characters into out. */
static int disambiguator(const exac_pos *p, int from, int to, int role, int star, char *out)
{
    int side = (p->bb[EX_SECOND] >> from & 1) ? EX_SECOND : EX_FIRST;
    uint64_t rivals = pieces_reaching(p, p->bb[side] & ~EX_BIT(from), role, to, star);
    if (!rivals)
        return 0;
    char name[3];
    exac_square_name(from, name);
    if (!(rivals & file_mask(EX_X(from)))) {
        out[0] = name[0];
        return 1;
    }
    if (!(rivals & rank_mask(EX_Y(from)))) {
        out[0] = name[1];
        return 1;
    }
    out[0] = name[0];
    out[1] = name[1];
    return 2;
}

int exac_write_move(const exac_state *s, gv_move m, char *buf, size_t len)
{
    const exac_pos *p = &s->pos;
    int from = EX_FROM(m), to = EX_TO(m), star;
    if (from >= EX_SQUARES || to >= EX_SQUARES || !is_move(p, from, to))
        return -1;
    exac_dests d;
    exac_piece_dests(p, from, &d);
    int role = writer_role(&d, to, &star);
    char out[16];
    int n = 0;
    if (exac_role_letter[role])
        out[n++] = exac_role_letter[role];
    if (star)
        out[n++] = '*';
    n += disambiguator(p, from, to, role, star, out + n);
    if (p->bb[!p->stm] >> to & 1)
        out[n++] = 'x';
    n += exac_square_name(to, out + n);
    char suf = suffix(s, m);
    if (suf)
        out[n++] = suf;
    out[n] = 0;
    if ((size_t)n >= len)
        return -1;
    memcpy(buf, out, (size_t)n + 1);
    return n;
}

int exac_describe_move(const exac_state *s, gv_move m, char *buf, size_t len)
{
    char from[3], to[3], text[16];
    if (exac_write_move(s, m, text, sizeof text) < 0)
        return -1;
    exac_square_name(EX_FROM(m), from);
    exac_square_name(EX_TO(m), to);
    int n = snprintf(buf, len, "%s-%s %s", from, to, text);
    return n < 0 || (size_t)n >= len ? -1 : n;
}

/* ---- Reading ------------------------------------------------------------------------- */

/* A move in the spec's notation, split into its parts. */
typedef struct ex_text {
    int role, star, dfile, drank, capture, to;
} ex_text;

/* The file (0-6) a letter names, or -1. */
static int file_of_letter(char c)
{
    char name[3];
    for (int x = 0; x < EX_N; x++)
        if (exac_square_name(EX_SQ(x, 0), name) && name[0] == c)
            return x;
    return -1;
}

static int role_of_letter(char c)
{
    for (int r = 1; r < EX_NROLES; r++)
        if (c && exac_role_letter[r] == c)
            return r;
    return -1;
}

/* Splits `role * disambiguator x destination suffix`. Returns 0, or -1 if t has another
 * shape. */
static int split_text(const char *t, ex_text *x)
{
    size_t n = strlen(t), i = 0;
    memset(x, 0, sizeof *x);
    x->dfile = x->drank = -1;
    if (n && (t[n - 1] == '+' || t[n - 1] == '#'))
        n--;
    if (i < n && role_of_letter(t[i]) > 0)
        x->role = role_of_letter(t[i++]);
    if (i < n && t[i] == '*') {
        x->star = 1;
        i++;
    }
    if (n < i + 2)
        return -1;
    size_t e = n - 2;
    char dest[3] = {t[e], t[e + 1], 0};
    if (!exac_parse_square(dest, &x->to))
        return -1;
    if (e > i && t[e - 1] == 'x') {
        x->capture = 1;
        e--;
    }
    /* The disambiguator: a file letter, a rank digit, or both. */
    size_t k = e - i;
    const char *dp = t + i;
    if (k && file_of_letter(dp[0]) >= 0) {
        x->dfile = file_of_letter(dp[0]);
        dp++;
        k--;
    }
    if (k && dp[0] >= '1' && dp[0] <= '7') {
        x->drank = dp[0] - '1';
        dp++;
        k--;
    }
    return k ? -1 : 0;
}

/* Plain from-to: `m6-m5`, `m6m5` or `m6xm5`, optionally with a suffix. Sets *capture to 1
 * when an `x` is written, else -1. Returns 1 if t has that shape. */
static int split_from_to(const char *t, int *from, int *to, int *capture)
{
    size_t i = 2;
    *capture = -1;
    if (!exac_parse_square(t, from))
        return 0;
    if (t[i] == '-') {
        i++;
    } else if (t[i] == 'x') {
        *capture = 1;
        i++;
    }
    if (!exac_parse_square(t + i, to))
        return 0;
    i += 2;
    if (t[i] == '+' || t[i] == '#')
        i++;
    return t[i] == 0;
}

/* Can the piece on `from` reach `to` as role (-1: any) once some piece in the way is taken
 * off? Taking a piece off never gives a role or a boost (conditions count friends), so a
 * move that appears is one that a piece blocks. Tries the squares between on a line all
 * at once, then each occupied square of the rectangle spanned by the two squares (every
 * path of every role stays inside it). */
static int blocked(const exac_pos *p, int from, int to, int role)
{
    int x0 = EX_X(from), y0 = EX_Y(from), x1 = EX_X(to), y1 = EX_Y(to);
    int lx = x0 < x1 ? x0 : x1, hx = x0 < x1 ? x1 : x0;
    int ly = y0 < y1 ? y0 : y1, hy = y0 < y1 ? y1 : y0;
    uint64_t box = 0, line = 0, occ = p->bb[0] | p->bb[1];
    for (int y = ly; y <= hy; y++)
        for (int x = lx; x <= hx; x++)
            box |= EX_BIT(EX_SQ(x, y));
    uint64_t cand = occ & box & ~EX_BIT(from) & ~EX_BIT(to);
    int ddx = x1 - x0, ddy = y1 - y0;
    int adx = ddx < 0 ? -ddx : ddx, ady = ddy < 0 ? -ddy : ddy;
    if (ddx == 0 || ddy == 0 || adx == ady) {
        int sx = (ddx > 0) - (ddx < 0), sy = (ddy > 0) - (ddy < 0);
        for (int x = x0 + sx, y = y0 + sy; x != x1 || y != y1; x += sx, y += sy)
            line |= EX_BIT(EX_SQ(x, y));
    }
    exac_dests d;
    for (int k = -1; cand; k++) {
        uint64_t rm;
        if (k < 0) {
            rm = line & cand;
            if (!rm)
                continue;
        } else {
            if (k >= EX_SQUARES)
                break;
            if (!(cand >> k & 1))
                continue;
            rm = EX_BIT(k);
        }
        exac_pos q = *p;
        q.bb[0] &= ~rm;
        q.bb[1] &= ~rm;
        exac_piece_dests(&q, from, &d);
        if (reaches(&d, role, to, -1))
            return 1;
    }
    return 0;
}

/* Why the piece on `from` (named by the text or a full disambiguator) cannot go to `to`
 * as role (-1: any). Returns 0 if it can, else -1 with the reason in err. */
static int explain_piece(const exac_pos *p, const char *text, int from, int to, int role,
                         char *err, size_t errlen)
{
    char f[3], t[3];
    exac_square_name(from, f);
    exac_square_name(to, t);
    int me = p->stm;
    if (!((p->bb[0] | p->bb[1]) >> from & 1))
        return gv_err(err, errlen, "'%s': there is no piece on %s", text, f);
    if (!(p->bb[me] >> from & 1))
        return gv_err(err, errlen, "'%s': the piece on %s is not yours (%s is to move)", text,
                      f, side_name[me]);
    if (from == to)
        return gv_err(err, errlen, "'%s': a move must leave its square", text);
    if (p->bb[me] >> to & 1)
        return gv_err(err, errlen, "'%s': %s holds one of your own pieces", text, t);
    exac_dests d;
    exac_piece_dests(p, from, &d);
    if (role >= 0 && !d.has_role[role])
        return gv_err(err, errlen, "'%s': the piece on %s is not %s here: %s %s", text, f,
                      role_name[role], role_short[role], role_needs[role]);
    if (reaches(&d, role, to, -1))
        return 0;
    if (blocked(p, from, to, role))
        return gv_err(err, errlen, "'%s': the way from %s to %s is blocked", text, f, t);
    if (role >= 0)
        return gv_err(err, errlen, "'%s': the %s on %s cannot reach %s", text, role_short[role],
                      f, t);
    char roles[64] = "";
    for (int r = 0; r < EX_NROLES; r++)
        if (d.has_role[r]) {
            size_t n = strlen(roles);
            char letter[2] = {exac_role_letter[r], 0};
            snprintf(roles + n, sizeof roles - n, "%s%s", n ? ", " : "", r ? letter : "Polus");
        }
    return gv_err(err, errlen, "'%s': the piece on %s cannot reach %s (here it moves as %s%s)",
                  text, f, t, roles, d.boosted ? ", boosted" : "");
}

/* Why no piece in pool (the side to move's pieces the disambiguator allows) makes the
 * move x. Always returns -1 with the reason in err. */
static int explain_none(const exac_pos *p, const char *text, const ex_text *x, uint64_t pool,
                        char *err, size_t errlen)
{
    char t[3], where[24] = "";
    exac_square_name(x->to, t);
    if (x->dfile >= 0 && x->drank >= 0) {
        if (explain_piece(p, text, EX_SQ(x->dfile, x->drank), x->to, x->role, err, errlen) < 0)
            return -1;
        return gv_err(err, errlen, "'%s' is not a legal move", text);
    }
    if (x->dfile >= 0) {
        char f[3];
        exac_square_name(EX_SQ(x->dfile, 0), f);
        snprintf(where, sizeof where, " on file %c", f[0]);
    }
    if (x->drank >= 0)
        snprintf(where, sizeof where, " on rank %d", x->drank + 1);
    if (!pool)
        return gv_err(err, errlen, "'%s': you have no piece%s", text, where);
    if (p->bb[p->stm] >> x->to & 1)
        return gv_err(err, errlen, "'%s': %s holds one of your own pieces", text, t);
    uint64_t with_role = 0;
    exac_dests d;
    for (uint64_t b = pool; b; b &= b - 1) {
        exac_piece_dests(p, __builtin_ctzll(b), &d);
        if (d.has_role[x->role])
            with_role |= EX_BIT(__builtin_ctzll(b));
    }
    if (!with_role)
        return gv_err(err, errlen, "'%s': none of your pieces%s is %s here (%s %s)", text,
                      where, role_name[x->role], role_short[x->role], role_needs[x->role]);
    for (uint64_t b = with_role; b; b &= b - 1)
        if (blocked(p, __builtin_ctzll(b), x->to, x->role)) {
            char f[3];
            exac_square_name(__builtin_ctzll(b), f);
            return gv_err(err, errlen, "'%s': the way from %s to %s is blocked", text, f, t);
        }
    return gv_err(err, errlen, "'%s': no %s of yours%s can reach %s", text, role_short[x->role],
                  where, t);
}

/* The `x` is right: written exactly when the move captures. Returns 0 or -1 with a message. */
static int check_capture(const exac_pos *p, const char *text, int to, int written, char *err,
                         size_t errlen)
{
    char t[3];
    exac_square_name(to, t);
    int captures = (p->bb[!p->stm] >> to & 1) != 0;
    if (written == 1 && !captures)
        return gv_err(err, errlen, "'%s': the move captures nothing (%s is empty), so no 'x'",
                      text, t);
    if (written == 0 && captures)
        return gv_err(err, errlen, "'%s': the move captures on %s, so it needs an 'x'", text, t);
    return 0;
}

int exac_parse_move(const exac_state *s, const char *text, gv_move *out, char *err, size_t errlen)
{
    const exac_pos *p = &s->pos;
    int from, to, cap;
    /* Step 1. Nothing is legal once the game is over. */
    gv_result res;
    if (exac_status(s, &res) != GV_ONGOING)
        return gv_err(err, errlen, "'%s': the game is over (%s)", text, res.reason);

    /* Step 2. Plain from-to: any role. */
    if (split_from_to(text, &from, &to, &cap)) {
        if (explain_piece(p, text, from, to, -1, err, errlen) < 0 ||
            check_capture(p, text, to, cap, err, errlen) < 0)
            return -1;
        *out = EX_MOVE(from, to);
        return 0;
    }

    /* Step 3. The notation: pieces the disambiguator allows that make the move as the
     * written role with the written boost marking, or with either marking if none does. */
    ex_text x;
    if (split_text(text, &x) < 0)
        return gv_err(err, errlen, "'%s' is not a move: write it like m5, Hxd3, *v4, Tzv5 or "
                      "m6-m5", text);
    uint64_t pool = p->bb[p->stm];
    if (x.dfile >= 0)
        pool &= file_mask(x.dfile);
    if (x.drank >= 0)
        pool &= rank_mask(x.drank);
    uint64_t found = pieces_reaching(p, pool, x.role, x.to, x.star);
    if (!found)
        found = pieces_reaching(p, pool, x.role, x.to, -1);
    if (!found)
        return explain_none(p, text, &x, pool, err, errlen);
    if (found & (found - 1)) {
        char a[3], b[3];
        exac_square_name(__builtin_ctzll(found), a);
        found &= found - 1;
        exac_square_name(__builtin_ctzll(found), b);
        return gv_err(err, errlen, "'%s' is ambiguous: the pieces on %s and %s%s can make it; "
                      "add the origin's file or rank", text, a, b,
                      (found & (found - 1)) ? " (and more)" : "");
    }
    from = __builtin_ctzll(found);
    if (check_capture(p, text, x.to, x.capture, err, errlen) < 0)
        return -1;
    *out = EX_MOVE(from, x.to);
    return 0;
}
