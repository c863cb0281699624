/* Grav texts: point names, moves ("2 place d4") and the position text. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/grav/grav.h"

static const char files7[] = "gnmsdvz";

int grav_point_name(const grav_pos *p, int q, char *buf)
{
    int x = q % p->n, rank = q / p->n + 1, k = 0;
    buf[k++] = p->n == 7 ? files7[x] : (char)('a' + x);
    if (rank >= 10)
        buf[k++] = (char)('0' + rank / 10 % 10);
    buf[k++] = (char)('0' + rank % 10);
    buf[k] = 0;
    return k;
}

int grav_parse_point(const grav_pos *p, const char *s, int *q)
{
    int x;
    if (p->n == 7) {
        const char *f = s[0] ? strchr(files7, s[0]) : NULL;
        if (!f)
            return 0;
        x = (int)(f - files7);
    } else {
        if (s[0] < 'a' || s[0] >= 'a' + p->n)
            return 0;
        x = s[0] - 'a';
    }
    int k = 1, y = 0;
    while (isdigit((unsigned char)s[k]) && k < 3)
        y = y * 10 + (s[k++] - '0');
    if (k == 1 || y < 1 || y > p->n || (k == 3 && s[1] == '0'))
        return 0;
    *q = (y - 1) * p->n + x;
    return k;
}

static const char *const act_names[] = {"", "place", "pass", "accept", "grav", "declare",
                                        "remove", "resign"};

int grav_write_move(const grav_pos *p, gv_move m, char *buf, size_t len)
{
    char tmp[48], pt[8];
    int act = GR_ACT(m), n;
    if (act < GA_PLACE || act > GA_RESIGN)
        return -1;
    if (act == GA_PLACE || act == GA_REMOVE) {
        grav_point_name(p, GR_ARG(m), pt);
        n = snprintf(tmp, sizeof tmp, "%d %s %s", GR_PLAYER(m), act_names[act], pt);
    } else if (act == GA_DECLARE) {
        n = snprintf(tmp, sizeof tmp, "%d declare %d", GR_PLAYER(m), GR_ARG(m));
    } else {
        n = snprintf(tmp, sizeof tmp, "%d %s", GR_PLAYER(m), act_names[act]);
    }
    return gv_text_out(buf, len, tmp, n);
}

int grav_parse_move(const grav_state *s, const char *text, gv_move *out, char *err, size_t errlen)
{
    const grav_pos *p = &s->pos;
    char word[16];
    const char *t = text;
    int pl = 0;
    while (*t == ' ')
        t++;
    if (isdigit((unsigned char)*t)) {
        pl = *t++ - '0';
        if (isdigit((unsigned char)*t) || *t != ' ')
            return gv_err(err, errlen, "'%s': a move is like '2 place d4' or 'pass'", text);
        while (*t == ' ')
            t++;
    }
    int k = 0;
    while (isalpha((unsigned char)t[k]) && k < (int)sizeof word - 1) {
        word[k] = (char)tolower((unsigned char)t[k]);
        k++;
    }
    word[k] = 0;
    t += k;
    int act = 0;
    for (int i = GA_PLACE; i <= GA_RESIGN; i++)
        if (strcmp(word, act_names[i]) == 0)
            act = i;
    if (!act && k == 0 && isalpha((unsigned char)*text) == 0 && pl == 0)
        return gv_err(err, errlen, "'%s': a move is like '2 place d4' or 'pass'", text);
    int arg = 0;
    if (!act) {
        /* A bare point places. */
        int q, n = grav_parse_point(p, t - k, &q);
        if (!n || (t - k)[n])
            return gv_err(err, errlen, "'%s' is not a move: place <point>, pass, accept, grav, "
                          "declare <m>, remove <point>, resign", text);
        act = GA_PLACE;
        arg = q;
        t = t - k + n;
    } else if (act == GA_PLACE || act == GA_REMOVE) {
        while (*t == ' ')
            t++;
        int q, n = grav_parse_point(p, t, &q);
        if (!n)
            return gv_err(err, errlen, "'%s': expected a point like %s after %s", text,
                          p->n == 7 ? "m4" : "d4", act_names[act]);
        arg = q;
        t += n;
    } else if (act == GA_DECLARE) {
        while (*t == ' ')
            t++;
        int n = 0;
        while (isdigit((unsigned char)t[n]) && n < 4)
            arg = arg * 10 + (t[n++] - '0');
        if (!n)
            return gv_err(err, errlen, "'%s': declare needs a number of bonus turns", text);
        t += n;
    }
    while (*t == ' ')
        t++;
    if (*t)
        return gv_err(err, errlen, "'%s': unexpected '%s'", text, t);
    if (pl == 0)
        pl = grav_to_move(p);
    if (pl < 1 || pl > p->players)
        return gv_err(err, errlen, "there is no player %d", pl);
    gv_move want = GR_MOVE(act, pl, arg);
    gv_move all[GV_MAX_MOVES];
    int n = grav_legal_moves(s, all);
    for (int i = 0; i < n; i++)
        if (all[i] == want) {
            *out = want;
            return 0;
        }
    /* Why not. */
    const grav_ctl *c = &p->c;
    if (c->phase == GR_OVER)
        return gv_err(err, errlen, "the game is over");
    if (act == GA_RESIGN)
        return gv_err(err, errlen, "player %d has already resigned", pl);
    if (pl != grav_to_move(p))
        return gv_err(err, errlen, "it is player %d's action, not player %d's", grav_to_move(p), pl);
    if ((act == GA_PLACE || act == GA_REMOVE) && arg >= p->n * p->n)
        return gv_err(err, errlen, "no such point");
    static const char *const need[] = {"place or pass", "place (a bonus turn cannot pass)",
                                       "accept or grav", "declare 0..k", "remove a stone", ""};
    if (act == GA_PLACE && p->board[arg])
        return gv_err(err, errlen, "that point is occupied");
    if (act == GA_PLACE && p->opt.strict && (c->phase == GR_TURN || c->phase == GR_BONUS))
        return gv_err(err, errlen, "the referee refuses it: the placement breaks a rule");
    if (act == GA_DECLARE && c->phase == GR_DECLARE)
        return gv_err(err, errlen, "declare between 0 and %d", c->declare_k);
    if (act == GA_REMOVE && c->phase == GR_REMOVE)
        return gv_err(err, errlen, "remove one of player %d's stones", c->victim);
    return gv_err(err, errlen, "now player %d must %s", grav_to_move(p), need[c->phase]);
}

/* ---- Position text ----------------------------------------------------------------
 * Space-separated key=value fields, in this order when written:
 *   N players a b c d e seed consecutive referee shapes hints max_turns board order
 *   phase current owed skips passed pending asked caller victim declare_k resigned
 *   turns winner reason
 * board: ranks top to bottom joined by '/', '.' empty, digits 1..6 the players' stones;
 * order: the stones oldest first as points (comma separated, '-' for none); pending:
 * point:player:kind or '-' (the referee's verdict is never written). */

static const char *const phase_names[] = {"turn", "bonus", "window", "declare", "remove", "over"};
static const char *const reason_names[] = {"none", "passes", "max_turns", "resign"};

static int put_list(char *b, size_t len, const uint8_t *v, int n)
{
    if (n == 0)
        return snprintf(b, len, "-");
    int k = 0;
    for (int i = 0; i < n; i++)
        k += snprintf(b + k, len - (size_t)k, "%s%d", i ? "," : "", v[i]);
    return k;
}

static int mask_list(uint8_t mask, uint8_t *out)
{
    int n = 0;
    for (int p = 1; p <= GR_MAXP; p++)
        if (mask & (1u << (p - 1)))
            out[n++] = (uint8_t)p;
    return n;
}

int grav_get_text(const grav_pos *p, char *buf, size_t len)
{
    char tmp[8192];
    char *t = tmp;
    size_t cap = sizeof tmp;
    const grav_ctl *c = &p->c;
    int k = snprintf(t, cap, "N=%d players=%d a=%d b=%d c=%d d=%d e=%d seed=%llu consecutive=%s "
                     "referee=%s shapes=%s hints=%s max_turns=%u board=",
                     p->n, p->players, p->prm.a, p->prm.b, p->prm.c, p->prm.d, p->prm.e,
                     (unsigned long long)p->seed, p->opt.consecutive_own ? "own" : "all",
                     p->opt.strict ? "strict" : "normal", p->opt.shapes_any ? "any" : "connected",
                     p->opt.hints ? "on" : "off", p->opt.max_turns);
    for (int y = 0; y < p->n; y++) {
        for (int x = 0; x < p->n; x++) {
            int v = p->board[y * p->n + x];
            t[k++] = v ? (char)('0' + v) : '.';
        }
        t[k++] = y + 1 < p->n ? '/' : ' ';
    }
    k += snprintf(t + k, cap - (size_t)k, "order=");
    if (!p->norder)
        t[k++] = '-';
    for (int i = 0; i < p->norder; i++) {
        char pt[4];
        grav_point_name(p, p->order[i], pt);
        k += snprintf(t + k, cap - (size_t)k, "%s%s", i ? "," : "", pt);
    }
    k += snprintf(t + k, cap - (size_t)k, " phase=%s current=%d owed=%u skips=",
                  phase_names[c->phase], c->current, c->owed);
    for (int i = 0; i < p->players; i++)
        k += snprintf(t + k, cap - (size_t)k, "%s%u", i ? "," : "", c->skips[i]);
    uint8_t l[GR_MAXP];
    k += snprintf(t + k, cap - (size_t)k, " passed=");
    k += put_list(t + k, cap - (size_t)k, l, mask_list(c->passed, l));
    k += snprintf(t + k, cap - (size_t)k, " pending=");
    if (c->pend_q >= 0) {
        char pt[4];
        grav_point_name(p, c->pend_q, pt);
        /* The referee's verdict (pend_viol) is not written: the text is what every
         * player may see. It is recomputed when the text is read. */
        k += snprintf(t + k, cap - (size_t)k, "%s:%d:%s", pt, c->pend_player,
                      c->pend_kind ? "bonus" : "regular");
    } else {
        t[k++] = '-';
    }
    k += snprintf(t + k, cap - (size_t)k, " asked=");
    k += put_list(t + k, cap - (size_t)k, c->asked, c->nasked);
    k += snprintf(t + k, cap - (size_t)k, " caller=%d victim=%d declare_k=%d resigned=", c->caller,
                  c->victim, c->declare_k);
    k += put_list(t + k, cap - (size_t)k, c->resign_order, c->nresigned);
    k += snprintf(t + k, cap - (size_t)k, " turns=%u winner=%d reason=%s", c->turns, c->winner,
                  reason_names[c->reason]);
    return gv_text_out(buf, len, tmp, k);
}

/* Parses "1,2,3" or "-" into v (at most max values, each in 1..hi). Returns the count or
 * -1. */
static int get_list(const char *s, uint8_t *v, int max, int hi)
{
    if (strcmp(s, "-") == 0)
        return 0;
    int n = 0;
    while (*s) {
        if (!isdigit((unsigned char)*s) || n >= max)
            return -1;
        int x = 0, k = 0;
        while (isdigit((unsigned char)s[k]) && k < 3)
            x = x * 10 + (s[k++] - '0');
        if (x < 1 || x > hi)
            return -1;
        v[n++] = (uint8_t)x;
        s += k;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return n;
}

static int get_num(const char *s, long lo, long hi, long *out)
{
    return gv_parse_int(s, lo, hi, out, NULL, 0);
}

static const char *const keys[] = {
    "N", "players", "a", "b", "c", "d", "e", "seed", "consecutive", "referee", "shapes",
    "hints", "max_turns", "board", "order", "phase", "current", "owed", "skips", "passed",
    "pending", "asked", "caller", "victim", "declare_k", "resigned", "turns", "winner", "reason",
};
enum { NKEYS = sizeof keys / sizeof keys[0] };

int grav_set_text(grav_pos *out, const char *text, char *err, size_t errlen)
{
    const char *val[NKEYS] = {0};
    char copy[GV_MAX_TEXT];
    if (strlen(text) >= sizeof copy)
        return gv_err(err, errlen, "position text too long");
    strcpy(copy, text);
    char *save = NULL;
    for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            return gv_err(err, errlen, "field '%.20s' must be written key=value", tok);
        *eq = 0;
        int i = 0;
        while (i < NKEYS && strcmp(keys[i], tok) != 0)
            i++;
        if (i == NKEYS)
            return gv_err(err, errlen, "unknown field '%.20s'", tok);
        if (val[i])
            return gv_err(err, errlen, "field '%s' given twice", tok);
        val[i] = eq + 1;
    }
    for (int i = 0; i < NKEYS; i++)
        if (!val[i])
            return gv_err(err, errlen, "field '%s' is missing", keys[i]);

    /* 1. Size, players, parameters, options. */
    long n, pl, v[5], mt;
    if (get_num(val[0], 5, 23, &n) < 0 || !grav_valid_size((int)n))
        return gv_err(err, errlen, "N must be a prime from 5 to 23");
    if (get_num(val[1], 2, GR_MAXP, &pl) < 0)
        return gv_err(err, errlen, "players must be 2 to 6");
    for (int i = 0; i < 5; i++)
        if (get_num(val[2 + i], 0, 100000, &v[i]) < 0)
            return gv_err(err, errlen, "parameter %s must be a number", keys[2 + i]);
    grav_params prm = {(uint16_t)v[0], (uint16_t)v[1], (uint16_t)v[2], (uint16_t)v[3],
                       (uint16_t)v[4]};
    char *end;
    unsigned long long seed = strtoull(val[7], &end, 10);
    if (!isdigit((unsigned char)val[7][0]) || *end)
        return gv_err(err, errlen, "seed must be a number");
    grav_options opt = {0};
    if (strcmp(val[8], "all") && strcmp(val[8], "own"))
        return gv_err(err, errlen, "consecutive must be all or own");
    opt.consecutive_own = strcmp(val[8], "own") == 0;
    if (strcmp(val[9], "normal") && strcmp(val[9], "strict"))
        return gv_err(err, errlen, "referee must be normal or strict");
    opt.strict = strcmp(val[9], "strict") == 0;
    if (strcmp(val[10], "connected") && strcmp(val[10], "any"))
        return gv_err(err, errlen, "shapes must be connected or any");
    opt.shapes_any = strcmp(val[10], "any") == 0;
    if (strcmp(val[11], "on") && strcmp(val[11], "off"))
        return gv_err(err, errlen, "hints must be on or off");
    opt.hints = strcmp(val[11], "on") == 0;
    if (get_num(val[12], 0, 100000000, &mt) < 0)
        return gv_err(err, errlen, "max_turns must be a number");
    opt.max_turns = (uint32_t)mt;
    grav_pos p;
    if (grav_setup(&p, (int)n, (int)pl, &prm, &opt, seed, err, errlen) < 0)
        return -1;

    /* 2. Board and order. */
    const char *b = val[13];
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n; x++, b++) {
            if (*b == '.')
                continue;
            if (*b < '1' || *b > '0' + pl)
                return gv_err(err, errlen, "board rank %d, file %d: '%c' is not '.' or a player",
                              y + 1, x + 1, *b ? *b : ' ');
            p.board[y * n + x] = (uint8_t)(*b - '0');
            p.count[*b - '0']++;
        }
        if (*b != (y + 1 < n ? '/' : 0))
            return gv_err(err, errlen, "board rank %d must have %ld points", y + 1, n);
        if (*b)
            b++;
    }
    int stones = 0;
    for (int i = 1; i <= pl; i++)
        stones += p.count[i];
    if (strcmp(val[14], "-") != 0) {
        const char *o = val[14];
        while (*o) {
            int q, k = grav_parse_point(&p, o, &q);
            if (!k || !p.board[q])
                return gv_err(err, errlen, "order: '%.6s' is not a stone on the board", o);
            for (int i = 0; i < p.norder; i++)
                if (p.order[i] == q)
                    return gv_err(err, errlen, "order lists a stone twice");
            p.order[p.norder++] = (uint16_t)q;
            o += k;
            if (*o == ',')
                o++;
            else if (*o)
                return gv_err(err, errlen, "order must be points separated by commas");
        }
    }
    if (p.norder != stones)
        return gv_err(err, errlen, "order lists %d stones, the board has %d", p.norder, stones);

    /* 3. Control state. */
    grav_ctl *c = &p.c;
    int ph = 0;
    while (ph < 6 && strcmp(val[15], phase_names[ph]) != 0)
        ph++;
    if (ph == 6)
        return gv_err(err, errlen, "phase must be turn, bonus, window, declare, remove or over");
    c->phase = (uint8_t)ph;
    long x;
    if (get_num(val[16], 1, pl, &x) < 0)
        return gv_err(err, errlen, "current must be a player 1..%ld", pl);
    c->current = (uint8_t)x;
    if (get_num(val[17], 0, n * n, &x) < 0)
        return gv_err(err, errlen, "owed must be 0..%ld", n * n);
    c->owed = (uint16_t)x;
    const char *sk = val[18];
    for (int i = 0; i < pl; i++) {
        long s = 0;
        int k = 0;
        while (isdigit((unsigned char)sk[k]) && k < 5)
            s = s * 10 + (sk[k++] - '0');
        if (!k || (sk[k] != (i + 1 < pl ? ',' : 0)))
            return gv_err(err, errlen, "skips must list %ld numbers", pl);
        c->skips[i] = (uint16_t)s;
        sk += k + (sk[k] ? 1 : 0);
    }
    uint8_t l[GR_MAXP];
    int nl = get_list(val[19], l, GR_MAXP, (int)pl);
    if (nl < 0)
        return gv_err(err, errlen, "passed must be a list of players or -");
    for (int i = 0; i < nl; i++)
        c->passed |= (uint8_t)(1u << (l[i] - 1));
    if (strcmp(val[20], "-") != 0) {
        int q, k = grav_parse_point(&p, val[20], &q);
        const char *r = val[20] + k;
        int who = 0, used = 0;
        char kind[8] = "";
        if (!k || sscanf(r, ":%d:%7[a-z]%n", &who, kind, &used) != 2 || r[used] || who < 1 ||
            who > pl || (strcmp(kind, "regular") && strcmp(kind, "bonus")))
            return gv_err(err, errlen, "pending must be point:player:regular|bonus or -");
        if (p.board[q] != who || !p.norder || p.order[p.norder - 1] != q)
            return gv_err(err, errlen, "the pending stone must be the last stone placed");
        c->pend_q = (int16_t)q;
        c->pend_player = (uint8_t)who;
        c->pend_kind = strcmp(kind, "bonus") == 0;
        /* The referee's verdict: the stone judged on the board before it was placed. */
        p.board[q] = 0;
        c->pend_viol = (uint8_t)grav_violations(p.board, (int)n, &p.prm, &p.opt,
                                                p.norder >= 2 ? p.order[p.norder - 2] : -1, q, who);
        p.board[q] = (uint8_t)who;
    }
    int na = get_list(val[21], c->asked, GR_MAXP, (int)pl);
    if (na < 0)
        return gv_err(err, errlen, "asked must be a list of players or -");
    c->nasked = (uint8_t)na;
    if (get_num(val[22], 0, pl, &x) < 0)
        return gv_err(err, errlen, "caller must be 0..%ld", pl);
    c->caller = (uint8_t)x;
    if (get_num(val[23], 0, pl, &x) < 0)
        return gv_err(err, errlen, "victim must be 0..%ld", pl);
    c->victim = (uint8_t)x;
    if (get_num(val[24], -1, n * n, &x) < 0)
        return gv_err(err, errlen, "declare_k must be -1..%ld", n * n);
    c->declare_k = (int16_t)x;
    int nr = get_list(val[25], c->resign_order, GR_MAXP, (int)pl);
    if (nr < 0)
        return gv_err(err, errlen, "resigned must be a list of players or -");
    c->nresigned = (uint8_t)nr;
    for (int i = 0; i < nr; i++)
        c->resigned |= (uint8_t)(1u << (c->resign_order[i] - 1));
    if (get_num(val[26], 0, 100000000, &x) < 0)
        return gv_err(err, errlen, "turns must be a number");
    c->turns = (uint32_t)x;
    if (get_num(val[27], 0, pl, &x) < 0)
        return gv_err(err, errlen, "winner must be 0..%ld", pl);
    c->winner = (uint8_t)x;
    int rs = 0;
    while (rs < 4 && strcmp(val[28], reason_names[rs]) != 0)
        rs++;
    if (rs == 4)
        return gv_err(err, errlen, "reason must be none, passes, max_turns or resign");
    c->reason = (uint8_t)rs;

    /* 4. The phase's fields must agree with each other. */
    if ((ph == GR_WINDOW) != (c->pend_q >= 0) || (ph == GR_WINDOW && !c->nasked) ||
        (ph != GR_WINDOW && c->nasked))
        return gv_err(err, errlen, "pending and asked are set exactly in the window phase");
    if ((ph == GR_DECLARE) != (c->declare_k >= 1))
        return gv_err(err, errlen, "declare_k is set (>= 1) exactly in the declare phase");
    if ((ph == GR_REMOVE) != (c->caller != 0) || (ph == GR_REMOVE) != (c->victim != 0))
        return gv_err(err, errlen, "caller and victim are set exactly in the remove phase");
    if ((ph == GR_OVER) != (c->winner != 0) || (ph == GR_OVER) != (c->reason != 0))
        return gv_err(err, errlen, "winner and reason are set exactly when the game is over");
    if (ph == GR_BONUS && !c->owed)
        return gv_err(err, errlen, "a bonus turn needs owed >= 1");
    if (ph != GR_OVER && (c->resigned & (1u << (c->current - 1))))
        return gv_err(err, errlen, "the current player has resigned");
    if (ph != GR_OVER && __builtin_popcount(c->resigned) >= pl - 1)
        return gv_err(err, errlen, "at least two players must be active while the game is on");
    for (int i = 0; i < c->nasked; i++)
        if ((c->resigned & (1u << (c->asked[i] - 1))) || c->asked[i] == c->pend_player)
            return gv_err(err, errlen, "asked must list active players other than the placer");
    if (ph == GR_REMOVE && (c->caller == c->victim || !p.count[c->victim]))
        return gv_err(err, errlen, "the victim must have a stone to remove");
    p.key = 0;
    for (int q = 0; q < n * n; q++)
        if (p.board[q])
            p.key ^= grav_stone_key(q, p.board[q]);
    *out = p;
    return 0;
}
