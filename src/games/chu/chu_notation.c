/* Chu Shogi move notation: USI as lishogi/shogiops write it, and TSA (the English literature's). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/chu/chu.h"

static inline int is_piece(int p) { return p && p != CHU_EDGE; }

/* An empty square on one of the piece's lion lines, for spelling a pass (0 if none). */
static int pass_square(const chu_pos *p, int from)
{
    int t = CHU_TYPE(p->board[from]), side = CHU_COLOR(p->board[from]);
    for (int d = 0; d < 8; d++) {
        if (!chu_is_lion(t) && chu_moves[t][d] != MV_LIONLINE)
            continue;
        int m = from + chu_dir[side][d];
        if (p->board[m] == 0)
            return m;
    }
    return 0;
}

/* ---- USI ------------------------------------------------------------------------ */

int chu_write_usi(const chu_pos *p, gv_move m, char *buf, size_t len)
{
    char tmp[32];
    int n, from = CHU_FROM(m), to = CHU_TO(m), mid = CHU_MID(m);
    if (CHU_FLAGS(m) & CHU_MF_DROP) {
        /* As shogi writes a drop, upper case for both sides: L*5e, S*5c+. */
        n = snprintf(tmp, sizeof tmp, "%c*", toupper((unsigned char)chu_type_letter(mid)));
        n += chu_square_name(to, tmp + n);
    } else {
        if (CHU_FLAGS(m) & CHU_MF_PASS)
            mid = pass_square(p, from);
        n = chu_square_name(from, tmp);
        if (mid)
            n += chu_square_name(mid, tmp + n);
        n += chu_square_name(to, tmp + n);
    }
    if (CHU_FLAGS(m) & CHU_MF_PROMO)
        tmp[n++] = '+';
    tmp[n] = 0;
    return gv_text_out(buf, len, tmp, n);
}

/* Is `mid` a first lion step of the piece on from, and `to` a second step from mid? */
static int lion_path_ok(const chu_pos *p, int from, int mid, int to)
{
    int pc = p->board[from], t = CHU_TYPE(pc), side = CHU_COLOR(pc);
    for (int d = 0; d < 8; d++) {
        if (!chu_is_lion(t) && chu_moves[t][d] != MV_LIONLINE)
            continue;
        int v = chu_dir[side][d];
        if (from + v != mid)
            continue;
        if (chu_is_lion(t)) {
            for (int e = 0; e < 8; e++)
                if (mid + chu_dir[0][e] == to)
                    return 1;
            return 0;
        }
        return to == from || to == mid + v;   /* along the line, or back */
    }
    return 0;
}

static const char *side_name(int side)
{
    return side ? "Gote" : "Sente";
}

/* Explains why no legal move has this effect (the move list had none). */
static int explain(const chu_state *s, int from, int mid, int to, int promo, char *err, size_t errlen)
{
    const chu_pos *p = &s->pos;
    char a[8], b[8];
    chu_square_name(from, a);
    chu_square_name(to, b);
    gv_result r;
    if (chu_status(s, &r) != GV_ONGOING)
        return gv_err(err, errlen, "the game is over (%s)", r.reason);
    int pc = p->board[from];
    if (!is_piece(pc))
        return gv_err(err, errlen, "no piece on %s", a);
    if (CHU_COLOR(pc) != p->stm)
        return gv_err(err, errlen, "the piece on %s is not %s's", a, side_name(p->stm));
    gv_move all[GV_MAX_MOVES];
    int n = chu_gen_moves_ex(p, all, 0, 1), found = 0, other_promo = 0;
    for (int i = 0; i < n; i++) {
        gv_move m = all[i];
        if (CHU_FROM(m) == from && CHU_TO(m) == to && CHU_MID(m) == mid &&
            !(CHU_FLAGS(m) & CHU_MF_PASS)) {
            if (((CHU_FLAGS(m) & CHU_MF_PROMO) != 0) == promo)
                found = 1;
            else
                other_promo = 1;
        }
    }
    if (found)
        return gv_err(err, errlen, "%s%s is forbidden by the lion-trading rules", a, b);
    if (other_promo && promo)
        return gv_err(err, errlen, "the piece on %s cannot promote on this move", a);
    return gv_err(err, errlen, "the piece on %s cannot move to %s", a, b);
}

gv_move chu_canonical(const chu_pos *p, const gv_move *legal, int n, gv_move m)
{
    if (!CHU_MID(m) || CHU_TO(m) != CHU_FROM(m))
        return m;
    int cs = chu_igui_sets_cs(p, CHU_FROM(m), CHU_MID(m));
    for (int i = 0; i < n; i++)
        if (CHU_MID(legal[i]) == CHU_MID(m) && CHU_TO(legal[i]) == CHU_FROM(legal[i]) &&
            chu_igui_sets_cs(p, CHU_FROM(legal[i]), CHU_MID(legal[i])) == cs)
            return legal[i];
    return m;
}

/* A move the pieces allow may still be refused by repetition=strict|jcsa: 0 and *out = m
 * when the rule allows it, else -1 with the reason. */
static int rep_checked(const chu_state *s, gv_move m, gv_move *out, char *err, size_t errlen)
{
    if (chu_rep_allows(s, m)) {
        *out = m;
        return 0;
    }
    if (s->pos.opt.repetition == CHU_REP_STRICT)
        return gv_err(err, errlen, "this move returns to an earlier position, which the "
                      "rules forbid except out of check (repetition=strict)");
    return gv_err(err, errlen, "this move repeats a position for the fourth time, and %s, "
                  "who checked or attacked with every move of the cycle or passed first, must "
                  "deviate (repetition=jcsa)", side_name(s->pos.stm));
}

/* Finds the legal move with this effect (any pass when pass is set). */
static int find_move(const chu_state *s, int from, int mid, int to, int promo, int pass,
                     gv_move *out, char *err, size_t errlen)
{
    gv_move legal[GV_MAX_MOVES], all[GV_MAX_MOVES];
    int n = chu_legal_moves(s, legal);
    int na = n ? chu_gen_moves_ex(&s->pos, all, 1, 1) : 0;
    for (int i = 0; i < na; i++) {
        gv_move m = all[i];
        if (pass) {
            if (CHU_FLAGS(m) & CHU_MF_PASS)
                return rep_checked(s, m, out, err, errlen);
            continue;
        }
        if (CHU_FROM(m) == from && CHU_TO(m) == to && CHU_MID(m) == mid &&
            !(CHU_FLAGS(m) & CHU_MF_PASS) && ((CHU_FLAGS(m) & CHU_MF_PROMO) != 0) == promo) {
            return rep_checked(s, chu_canonical(&s->pos, legal, n, m), out, err, errlen);
        }
    }
    if (pass) {
        gv_result r;
        if (chu_status(s, &r) != GV_ONGOING)
            return gv_err(err, errlen, "the game is over (%s)", r.reason);
        return gv_err(err, errlen, "no pass is possible here");
    }
    return explain(s, from, mid, to, promo, err, errlen);
}

/* A drop in USI: "L*5e", "S*5c+" (the letter in either case). */
static int parse_usi_drop(const chu_state *s, const char *text, gv_move *out, char *err,
                          size_t errlen)
{
    const chu_pos *p = &s->pos;
    int sq, t = 0;
    for (int i = 1; i <= 21; i++)
        if (chu_type_letter(i) == tolower((unsigned char)text[0]))
            t = i;
    int n = chu_parse_square(text + 2, &sq);
    const char *rest = text + 2 + n;
    /* '+' enters promoted; '=' (TSA's mark) or nothing, unpromoted. */
    int promo = *rest == '+';
    if (!t || !n || ((*rest == '+' || *rest == '=') ? rest[1] : *rest))
        return gv_err(err, errlen, "'%s' is not a USI drop (like L*5e or S*5c+)", text);
    if (!p->opt.heisei)
        return gv_err(err, errlen, "drops are a Heisei Chu move (option variant=heisei)");
    int k = chu_hand_kind(t);
    if (k < 0)
        return gv_err(err, errlen, "'%c' is never held in reserve (only L C S M V A O X)",
                      text[0]);
    if (!p->hand[p->stm][k])
        return gv_err(err, errlen, "%s has no %c in reserve", side_name(p->stm),
                      toupper((unsigned char)text[0]));
    gv_result r;
    if (chu_status(s, &r) != GV_ONGOING)
        return gv_err(err, errlen, "the game is over (%s)", r.reason);
    if (p->board[sq])
        return gv_err(err, errlen, "%.*s is occupied", n, text + 2);
    gv_move m = CHU_MOVE(0, sq, t, CHU_MF_DROP | (promo ? CHU_MF_PROMO : 0));
    if (!chu_is_move(p, m)) {
        if (!chu_next_to_own(p, p->stm, sq))
            return gv_err(err, errlen, "a drop must be next to (orthogonally or diagonally) "
                          "one of %s's pieces", side_name(p->stm));
        if (promo)
            return gv_err(err, errlen, "a piece may enter promoted only in %s's zone (the "
                          "farthest four ranks)", side_name(p->stm));
        return gv_err(err, errlen, "a Lance dropped on the farthest rank could never move");
    }
    return rep_checked(s, m, out, err, errlen);
}

int chu_parse_usi(const chu_state *s, const char *text, gv_move *out, char *err, size_t errlen)
{
    const chu_pos *p = &s->pos;
    int sq[3], n = 0;
    const char *c = text;
    if (isalpha((unsigned char)text[0]) && text[1] == '*')
        return parse_usi_drop(s, text, out, err, errlen);
    while (n < 3 && isdigit((unsigned char)*c)) {
        int k = chu_parse_square(c, &sq[n]);
        if (!k)
            break;
        c += k;
        n++;
    }
    int promo = 0;
    if (*c == '+')
        promo = 1, c++;
    else if (*c == '=' || *c == '?')
        c++;
    if (n < 2 || *c)
        return gv_err(err, errlen, "'%s' is not a USI move (like 7i7h, 7i7h+ or 6i5h4h)", text);
    int from = sq[0], mid = n == 3 ? sq[1] : 0, to = sq[n - 1];
    if (n == 3) {
        int pc = p->board[from];
        if (!is_piece(pc))
            return gv_err(err, errlen, "no piece on %.3s", text);
        if (CHU_COLOR(pc) != p->stm)
            return gv_err(err, errlen, "the piece on %.3s is not %s's", text, side_name(p->stm));
        if (!chu_has_lionpower(CHU_TYPE(pc)))
            return gv_err(err, errlen, "only a piece with lion power moves in two steps");
        if (!lion_path_ok(p, from, mid, to))
            return gv_err(err, errlen, "'%s' is not a path of this piece's lion power", text);
        if (promo)
            return gv_err(err, errlen, "a piece with lion power cannot promote");
        int pm = p->board[mid];
        if (is_piece(pm) && CHU_COLOR(pm) == p->stm)
            return gv_err(err, errlen, "the first step lands on an own piece");
        if (!pm) {
            /* Through an empty square: the same effect as a direct move, or a pass. */
            if (to == from)
                return find_move(s, 0, 0, 0, 0, 1, out, err, errlen);
            mid = 0;
        } else if (to == mid) {
            return gv_err(err, errlen, "the second step must leave the first square");
        }
    }
    if (from == to && !mid)
        return gv_err(err, errlen, "a move must leave its square (a pass is written like 7g7f7g)");
    return find_move(s, from, mid, to, promo, 0, out, err, errlen);
}

/* ---- TSA ------------------------------------------------------------------------ */

static const char *const tsa_abbr[22] = {
    "?", "L", "FL", "C", "S", "G", "K", "DE", "RC", "B", "BT", "Ph",
    "Ky", "SM", "VM", "R", "DH", "DK", "FK", "Ln", "P", "GB",
};

int chu_tsa_piece(int t, char *buf)
{
    if (t > CHU_PROMO)
        return sprintf(buf, "+%s", tsa_abbr[t - CHU_PROMO]);
    return sprintf(buf, "%s", tsa_abbr[t]);
}

/* Writes m with or without its origin square. */
static int tsa_format(const chu_pos *p, gv_move m, int with_origin, int promo_choice,
                      char *buf)
{
    int from = CHU_FROM(m), to = CHU_TO(m), mid = CHU_MID(m);
    unsigned fl = CHU_FLAGS(m);
    if (fl & CHU_MF_PASS)
        return sprintf(buf, "pass");
    if (fl & CHU_MF_DROP) {
        int k = chu_tsa_piece(mid, buf);
        buf[k++] = '*';
        k += chu_square_name(to, buf + k);
        if (promo_choice)
            buf[k++] = (fl & CHU_MF_PROMO) ? '+' : '=';
        buf[k] = 0;
        return k;
    }
    int n = chu_tsa_piece(CHU_TYPE(p->board[from]), buf);
    if (with_origin)
        n += chu_square_name(from, buf + n);
    if (mid) {
        if (to == from) {
            buf[n++] = 'x';
            buf[n++] = '!';
            n += chu_square_name(mid, buf + n);
        } else {
            buf[n++] = 'x';
            n += chu_square_name(mid, buf + n);
            buf[n++] = p->board[to] ? 'x' : '-';
            n += chu_square_name(to, buf + n);
        }
    } else {
        buf[n++] = p->board[to] ? 'x' : '-';
        n += chu_square_name(to, buf + n);
    }
    if (promo_choice)
        buf[n++] = (fl & CHU_MF_PROMO) ? '+' : '=';
    buf[n] = 0;
    return n;
}

static int has_promo_twin(const gv_move *all, int n, gv_move m)
{
    gv_move twin = m ^ ((gv_move)CHU_MF_PROMO << 24);
    for (int i = 0; i < n; i++)
        if (all[i] == twin)
            return 1;
    return 0;
}

/* Needs the origin: another legal move of another piece writes the same way. Only a
 * piece of the same type can (each type has an abbreviation of its own), so only their
 * moves are written out. */
static int tsa_ambiguous(const chu_pos *p, const gv_move *all, int n, gv_move m)
{
    char a[48], b[48];
    tsa_format(p, m, 0, 0, a);
    int type = CHU_TYPE(p->board[CHU_FROM(m)]);
    for (int i = 0; i < n; i++) {
        if (CHU_FROM(all[i]) == CHU_FROM(m) || CHU_TYPE(p->board[CHU_FROM(all[i])]) != type)
            continue;
        tsa_format(p, all[i], 0, 0, b);
        if (strcmp(a, b) == 0)
            return 1;
    }
    return 0;
}

int chu_write_tsa(const chu_state *s, gv_move m, char *buf, size_t len)
{
    gv_move all[GV_MAX_MOVES];
    int n = chu_gen_moves(&s->pos, all);
    char tmp[48];
    int k = tsa_format(&s->pos, m, tsa_ambiguous(&s->pos, all, n, m),
                       has_promo_twin(all, n, m) || (CHU_FLAGS(m) & CHU_MF_PROMO), tmp);
    return gv_text_out(buf, len, tmp, k);
}

/* Normalises a TSA text: drops spaces and parentheses, lower-cases, and maps the piece
 * name to its canonical abbreviation (accepting Q for FK, Kr/Ki for Ky, N for Ln). */
static void tsa_normalise(const char *in, char *out, size_t len)
{
    static const char *const names[][2] = {
        {"fl", "fl"}, {"de", "de"}, {"rc", "rc"}, {"bt", "bt"}, {"ph", "ph"}, {"ky", "ky"},
        {"kr", "ky"}, {"ki", "ky"}, {"sm", "sm"}, {"vm", "vm"}, {"dh", "dh"}, {"dk", "dk"},
        {"fk", "fk"}, {"ln", "ln"}, {"gb", "gb"}, {"q", "fk"}, {"n", "ln"}, {"l", "l"},
        {"c", "c"}, {"s", "s"}, {"g", "g"}, {"k", "k"}, {"b", "b"}, {"r", "r"}, {"p", "p"},
    };
    char tmp[64];
    size_t n = 0;
    for (; *in && n + 1 < sizeof tmp; in++)
        if (*in != ' ' && *in != '(' && *in != ')')
            tmp[n++] = (char)tolower((unsigned char)*in);
    tmp[n] = 0;
    const char *p = tmp;
    size_t o = 0;
    if (*p == '+')
        out[o++] = *p++;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t k = strlen(names[i][0]);
        if (strncmp(p, names[i][0], k) != 0)
            continue;
        char nx = p[k];
        if (isdigit((unsigned char)nx) || nx == '-' ||
            (nx == 'x' && (isdigit((unsigned char)p[k + 1]) || p[k + 1] == '!'))) {
            o += (size_t)snprintf(out + o, len - o, "%s", names[i][1]);
            p += k;
            break;
        }
    }
    snprintf(out + o, len - o, "%s", p);
}

/* Whether a move of a piece of type t (the dropped type for a drop) can be written as the
 * normalised text want: every form of it starts with the piece's abbreviation, which
 * tsa_normalise leaves lower-cased, followed by a square, '-', 'x' or '*' (no
 * abbreviation holds an 'x'). Saves writing out the moves of every other piece. */
static int tsa_piece_fits(int t, const char *want)
{
    char ab[8];
    int k = chu_tsa_piece(t, ab);
    for (int i = 0; i < k; i++)
        if (want[i] != tolower((unsigned char)ab[i]))
            return 0;
    return want[k] && strchr("0123456789-x*", want[k]) != NULL;
}

int chu_parse_tsa(const chu_state *s, const char *text, gv_move *out, char *err, size_t errlen)
{
    char want[64], have[64], form[48];
    tsa_normalise(text, want, sizeof want);
    if (!want[0])
        return gv_err(err, errlen, "empty move");
    gv_move legal[GV_MAX_MOVES], all[GV_MAX_MOVES];
    int n = chu_legal_moves(s, legal);
    if (!n)
        return gv_err(err, errlen, "the game is over");
    if (strcmp(want, "pass") == 0 || strcmp(want, "--") == 0) {
        for (int i = 0; i < n; i++)
            if (CHU_FLAGS(legal[i]) & CHU_MF_PASS) {
                *out = legal[i];
                return 0;
            }
        for (int i = 0, na = chu_gen_moves(&s->pos, all); i < na; i++)
            if (CHU_FLAGS(all[i]) & CHU_MF_PASS)
                return rep_checked(s, all[i], out, err, errlen);
        return gv_err(err, errlen, "no pass is possible here");
    }
    /* Every legal move (igui by each capturer) is written in each accepted form; the
     * text must match moves of one effect only. */
    int na = chu_gen_moves_ex(&s->pos, all, 1, 1), found = 0;
    gv_move match = 0;
    for (int i = 0; i < na; i++) {
        gv_move m = all[i];
        int drop = (CHU_FLAGS(m) & CHU_MF_DROP) != 0;
        if (!tsa_piece_fits(drop ? CHU_MID(m) : CHU_TYPE(s->pos.board[CHU_FROM(m)]), want))
            continue;
        int promo = (CHU_FLAGS(m) & CHU_MF_PROMO) != 0;
        for (int form_i = 0; form_i < 4; form_i++) {
            int origin = form_i >> 1, mark = form_i & 1;
            if (promo && !mark)
                continue;              /* a promotion is always marked */
            tsa_format(&s->pos, m, origin, mark, form);
            tsa_normalise(form, have, sizeof have);
            if (strcmp(have, want) != 0)
                continue;
            gv_move c = chu_canonical(&s->pos, legal, n, m);
            if (found && c != match)
                return gv_err(err, errlen, "'%s' is ambiguous: add the origin square "
                              "after the piece (like G6i-5h)", text);
            found = 1;
            match = c;
            break;
        }
    }
    if (found)
        return rep_checked(s, match, out, err, errlen);
    return gv_err(err, errlen, "'%s' is not a legal move in TSA notation here "
                  "(like P-8f, Px7d=, Lnx!9d, Lnx3hx2i)", text);
}

int chu_parse_move(const chu_state *s, const char *text, gv_move *m, char *err, size_t errlen)
{
    if (!text || !*text)
        return gv_err(err, errlen, "empty move");
    if (strlen(text) > 40)
        return gv_err(err, errlen, "move text too long");
    if (isdigit((unsigned char)text[0]) || (isalpha((unsigned char)text[0]) && text[1] == '*'))
        return chu_parse_usi(s, text, m, err, errlen);
    return chu_parse_tsa(s, text, m, err, errlen);
}
