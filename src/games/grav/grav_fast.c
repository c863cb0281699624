/* A fast model of the turn flow for AI players, where every player calls "Grav!" exactly
 * on violations, equal to the full flow of grav_state.c under that assumption (tested).
 *
 * The model. A violating placement is never made: a player places a stone on a point that
 * violates nothing, or passes (regular turn), or forfeits the rest of its owed bonus turns
 * (a bonus turn with no such point: the same as having declared fewer). A placement
 * stands, all its bonus turns are declared (bounded as the core bounds them), skips owed
 * from earlier wrong calls are honoured, the game ends on passes or max_turns as in the
 * core. Windows, declarations and removals are not moves of the model. */
#include <stddef.h>
#include <string.h>

#include "games/grav/grav_fast.h"

/* ---- Placement rules, fast ----------------------------------------------------------- */

static void fast_rules_init(grav_fast_rules *r, int n, const grav_params *prm,
                            const grav_options *opt)
{
    r->n = n;
    r->a = prm->a;
    r->b = prm->b;
    r->c = prm->c;
    r->d = prm->d;
    r->e = prm->e;
    r->own = opt->consecutive_own;
    /* a + 1 points at spacing s span a * s <= n - 1 points. */
    r->smax = (n - 1) / prm->a;
}

/* Would some b x b square holding (qx, qy) have more than c stones with it? Column counts
 * over the square's rows, then a sliding sum along the row of squares. */
static int too_dense(const grav_fast_rules *r, const uint8_t *board, int qx, int qy)
{
    int n = r->n, b = r->b, c = r->c;
    int x0 = qx - b + 1 > 0 ? qx - b + 1 : 0, x1 = qx < n - b ? qx : n - b;
    int y0 = qy - b + 1 > 0 ? qy - b + 1 : 0, y1 = qy < n - b ? qy : n - b;
    int w = x1 - x0 + b;
    for (int sy = y0; sy <= y1; sy++) {
        int col[2 * GR_MAXN];
        for (int i = 0; i < w; i++) {
            const uint8_t *cell = board + sy * n + x0 + i;
            int k = x0 + i == qx;   /* q counts as a stone */
            for (int j = 0; j < b; j++)
                k += cell[j * n] != 0;
            col[i] = k;
        }
        /* The sum of the b columns ending at i, from i = b - 1 on. */
        int sum = 0;
        for (int i = 0; i < w; i++) {
            sum += col[i] - (i >= b ? col[i - b] : 0);
            if (i >= b - 1 && sum > c)
                return 1;
        }
    }
    return 0;
}

/* Would (qx, qy) be one of a+1 or more counted stones at equal spacing along a line? */
static int too_long(const grav_fast_rules *r, const uint8_t *board, int qx, int qy, int pl)
{
    static const int ldx[4] = {1, 0, 1, 1}, ldy[4] = {0, 1, 1, -1};
    unsigned n = (unsigned)r->n;
    for (int dir = 0; dir < 4; dir++) {
        for (int s = 1; s <= r->smax; s++) {
            int dx = ldx[dir] * s, dy = ldy[dir] * s, run = 1;
            for (int sign = -1; sign <= 1; sign += 2) {
                int x = qx + sign * dx, y = qy + sign * dy;
                while ((unsigned)x < n && (unsigned)y < n) {
                    uint8_t cell = board[y * (int)n + x];
                    if (r->own ? cell != pl : !cell)
                        break;
                    if (++run > r->a)
                        return 1;
                    x += sign * dx;
                    y += sign * dy;
                }
            }
        }
    }
    return 0;
}

/* Density and consecutive rules (the distance rule is the caller's). */
static int breaks_rules(const grav_fast_rules *r, const uint8_t *board, int qx, int qy, int pl)
{
    return too_dense(r, board, qx, qy) || too_long(r, board, qx, qy, pl);
}

static int out_of_band(const grav_fast_rules *r, int ref, int qx, int qy)
{
    if (ref < 0)
        return 0;
    int dx = qx - ref % r->n, dy = qy - ref / r->n;
    int dist = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
    return dist < r->d || dist > r->e;
}

int grav_fast_violates(const uint8_t *board, int n, const grav_params *prm,
                       const grav_options *opt, int ref, int q, int player)
{
    grav_fast_rules r;
    fast_rules_init(&r, n, prm, opt);
    int qx = q % n, qy = q / n;
    return out_of_band(&r, ref, qx, qy) || breaks_rules(&r, board, qx, qy, player);
}

/* The bonus count by the connected reading, on row bitsets (occ: bit x of row y set for a
 * stone; rev: the same rows reversed, bit 31 - x). A shape holding q is connected, so it
 * lies in q's group G of 8-connected stones, and so does the centre's other end r (q's
 * mirror). For each r in G, K_c is flooded from q through the stones whose mirror about
 * c = (q + r) / 2 is a stone; it counts when it reaches r and has >= 4 stones, and when
 * no other counting set strictly contains it. More than FAST_BONUS_SETS counting sets go
 * to grav_bonus_count. */
enum { FAST_BONUS_SETS = 12 };

typedef struct bonus_set {
    uint32_t row[GR_MAXN + 2];   /* row y at index y + 1; rows -1 and n stay empty */
    int lo, hi, size;
} bonus_set;

static int popcount32(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (int)((((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

/* The stones of row y whose mirror about the doubled centre (sx, sy) is a stone. */
static uint32_t mirrored_row(const uint32_t *occ, const uint32_t *rev, int n, int sx, int sy,
                             int y)
{
    int my = sy - y;
    if (my < 0 || my >= n)
        return 0;
    uint32_t m = sx <= 31 ? rev[my] >> (31 - sx) : rev[my] << (sx - 31);
    return occ[y] & m;
}

/* Grows k (rows lo..hi non-empty) to its 8-connected component within the rows S(y) =
 * occ[y] & (mirror about (sx, sy), unless sx < 0). */
static void bonus_flood(const uint32_t *occ, const uint32_t *rev, int n, int sx, int sy,
                        bonus_set *k)
{
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int y = k->lo > 0 ? k->lo - 1 : 0; y <= k->hi + 1 && y < n; y++) {
            uint32_t d = k->row[y] | k->row[y + 1] | k->row[y + 2];
            if (!d)
                continue;
            uint32_t srow = sx < 0 ? occ[y] : mirrored_row(occ, rev, n, sx, sy, y);
            d = (d | d << 1 | d >> 1) & srow;
            if (d == k->row[y + 1])
                continue;
            for (uint32_t e; (e = (d | d << 1 | d >> 1) & srow) != d;)
                d = e;
            k->row[y + 1] = d;
            changed = 1;
            k->lo = y < k->lo ? y : k->lo;
            k->hi = y > k->hi ? y : k->hi;
        }
    }
    k->size = 0;
    for (int y = k->lo; y <= k->hi; y++)
        k->size += popcount32(k->row[y + 1]);
}

static int bonus_subset(const bonus_set *a, const bonus_set *b)
{
    if (a->size >= b->size || a->lo < b->lo || a->hi > b->hi)
        return 0;
    for (int y = a->lo; y <= a->hi; y++)
        if (a->row[y + 1] & ~b->row[y + 1])
            return 0;
    return 1;
}

/* The count, or -1 when there are too many counting sets to compare here. */
static int bonus_rows(const uint32_t *occ, const uint32_t *rev, int n, int q)
{
    bonus_set g, found[FAST_BONUS_SETS];
    int nfound = 0, qx = q % n, qy = q / n;

    /* Step 1. The group G of q. */
    memset(g.row, 0, sizeof g.row);
    g.row[qy + 1] = 1u << qx;
    g.lo = g.hi = qy;
    bonus_flood(occ, rev, n, -1, 0, &g);
    if (g.size < 4)
        return 0;

    /* Step 2. Each centre (q + r) / 2, r in G: q needs a touching stone whose mirror is a
     * stone, then K_c is flooded from q. */
    uint32_t qbit = 1u << qx, near = (qbit | qbit << 1 | qbit >> 1);
    for (int ry = g.lo; ry <= g.hi; ry++) {
        for (uint32_t bits = g.row[ry + 1]; bits; bits &= bits - 1) {
            int rx = __builtin_ctz(bits), sx = qx + rx, sy = qy + ry;
            uint32_t around = mirrored_row(occ, rev, n, sx, sy, qy) & ~qbit;
            if (qy > 0)
                around |= mirrored_row(occ, rev, n, sx, sy, qy - 1);
            if (qy + 1 < n)
                around |= mirrored_row(occ, rev, n, sx, sy, qy + 1);
            if (!(around & near))
                continue;
            bonus_set *k = &found[nfound];
            memset(k->row, 0, sizeof(uint32_t) * (size_t)(n + 2));
            k->row[qy + 1] = qbit;
            k->lo = k->hi = qy;
            bonus_flood(occ, rev, n, sx, sy, k);
            if (k->size < 4 || !(k->row[ry + 1] >> rx & 1))
                continue;
            if (++nfound == FAST_BONUS_SETS)
                return -1;
        }
    }

    /* Step 3. The maximal ones. */
    int count = 0;
    for (int i = 0; i < nfound; i++) {
        int maximal = 1;
        for (int j = 0; j < nfound && maximal; j++)
            if (j != i && bonus_subset(&found[i], &found[j]))
                maximal = 0;
        count += maximal;
    }
    return count;
}

/* Row bitsets of the stones of a board. */
static void board_rows(const uint8_t *board, int n, uint32_t *occ, uint32_t *rev)
{
    for (int y = 0; y < n; y++) {
        uint32_t o = 0, r = 0;
        for (int x = 0; x < n; x++) {
            uint32_t st = board[y * n + x] != 0;
            o |= st << x;
            r |= st << (31 - x);
        }
        occ[y] = o;
        rev[y] = r;
    }
}

int grav_fast_bonus(const uint8_t *board, int n, const grav_options *opt, int q)
{
    if (opt->shapes_any || !board[q])
        return grav_bonus_count(board, n, opt, q);
    uint32_t occ[GR_MAXN], rev[GR_MAXN];
    board_rows(board, n, occ, rev);
    int k = bonus_rows(occ, rev, n, q);
    return k >= 0 ? k : grav_bonus_count(board, n, opt, q);
}

/* ---- The model ---------------------------------------------------------------------- */

void grav_model_init(grav_model *m, const grav_pos *p)
{
    int n = p->n;
    fast_rules_init(&m->r, n, &p->prm, &p->opt);
    m->nn = n * n;
    m->players = p->players;
    m->opt = p->opt;
    m->max_turns = p->opt.max_turns ? p->opt.max_turns : 8u * (uint32_t)(n * n);
    m->noff = 0;
    for (int dy = -(n - 1); dy <= n - 1; dy++) {
        for (int dx = -(n - 1); dx <= n - 1; dx++) {
            int dist = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
            if (dist >= m->r.d && dist <= m->r.e && m->noff < GRAV_MAX_OFF) {
                m->offx[m->noff] = (int8_t)dx;
                m->offy[m->noff++] = (int8_t)dy;
            }
        }
    }
    m->sample_board = m->noff > m->nn;
}

static int sim_next_active(const grav_model *m, const grav_sim *s, int pl)
{
    for (int i = 1; i <= m->players; i++) {
        int q = (pl - 1 + i) % m->players + 1;
        if (s->active >> (q - 1) & 1)
            return q;
    }
    return pl;
}

/* Gives pl its regular turn, honouring owed skips and max_turns. */
static void sim_start_regular(const grav_model *m, grav_sim *s, int pl)
{
    for (;;) {
        if (s->turns >= m->max_turns) {
            s->phase = GRAV_SIM_OVER;
            return;
        }
        if (s->skips[pl - 1]) {
            s->skips[pl - 1]--;
            pl = sim_next_active(m, s, pl);
            continue;
        }
        s->phase = GRAV_SIM_TURN;
        s->mover = (uint8_t)pl;
        return;
    }
}

/* The mover places a (non-violating) stone on q; it stands and its bonus turns are all
 * declared. k: the bonus count of the placement when known, else -1. Returns the count. */
int grav_sim_place(const grav_model *m, grav_sim *s, int q, int k)
{
    int pl = s->mover, n = m->r.n;
    s->board[q] = (uint8_t)pl;
    s->occ[q / n] |= 1u << (q % n);
    s->rev[q / n] |= 1u << (31 - q % n);
    s->count[pl]++;
    s->stones++;
    s->ref = (int16_t)q;
    s->passed = 0;
    if (s->phase == GRAV_SIM_BONUS)
        s->owed--;
    else
        s->turns++;
    if (k < 0 && !m->opt.shapes_any)
        k = bonus_rows(s->occ, s->rev, n, q);
    if (k < 0)
        k = grav_bonus_count(s->board, n, &m->opt, q);
    int bonus = k;
    if (k > 0) {
        int room = m->nn - s->stones - s->owed;
        s->owed = (uint16_t)(s->owed + (k < room ? k : room));
    }
    if (s->owed > 0 && s->stones < m->nn) {
        s->phase = GRAV_SIM_BONUS;
        return bonus;
    }
    s->owed = 0;
    sim_start_regular(m, s, sim_next_active(m, s, pl));
    return bonus;
}

void grav_sim_pass(const grav_model *m, grav_sim *s)
{
    int pl = s->mover;
    s->turns++;
    s->passed |= (uint8_t)(1u << (pl - 1));
    if ((s->passed & s->active) == s->active) {
        s->phase = GRAV_SIM_OVER;
        return;
    }
    sim_start_regular(m, s, sim_next_active(m, s, pl));
}

void grav_sim_forfeit(const grav_model *m, grav_sim *s)
{
    s->owed = 0;
    sim_start_regular(m, s, sim_next_active(m, s, s->mover));
}

int grav_sim_apply(const grav_model *m, grav_sim *s, int mv, int k)
{
    if (mv == GRAV_SIM_PASS)
        grav_sim_pass(m, s);
    else if (mv == GRAV_SIM_FORFEIT)
        grav_sim_forfeit(m, s);
    else
        return grav_sim_place(m, s, mv, k);
    return 0;
}

void grav_sim_from_pos(const grav_model *m, const grav_pos *p, grav_sim *s)
{
    memset(s, 0, sizeof *s);
    memcpy(s->board, p->board, (size_t)m->nn);
    board_rows(s->board, m->r.n, s->occ, s->rev);
    s->phase = p->c.phase == GR_TURN    ? GRAV_SIM_TURN
               : p->c.phase == GR_BONUS ? GRAV_SIM_BONUS
                                        : GRAV_SIM_OVER;
    s->mover = p->c.current;
    s->passed = p->c.passed;
    s->active = (uint8_t)(((1u << p->players) - 1) & ~(unsigned)p->c.resigned);
    s->ref = (int16_t)grav_reference(p);
    s->owed = p->c.owed;
    s->stones = p->norder;
    memcpy(s->count, p->count, sizeof s->count);
    memcpy(s->skips, p->c.skips, sizeof s->skips);
    s->turns = p->c.turns;
}

/* Does the mover violate nothing on the empty point (x, y)? */
static int sim_ok(const grav_model *m, const grav_sim *s, int x, int y)
{
    return !out_of_band(&m->r, s->ref, x, y) && !breaks_rules(&m->r, s->board, x, y, s->mover);
}

int grav_sim_moves(const grav_model *m, const grav_sim *s, uint16_t *out)
{
    int k = 0, n = m->r.n;
    if (s->phase == GRAV_SIM_OVER)
        return 0;
    if (s->ref < 0 || m->sample_board) {
        for (int q = 0; q < m->nn; q++)
            if (!s->board[q] && sim_ok(m, s, q % n, q / n))
                out[k++] = (uint16_t)q;
    } else {
        int rx = s->ref % n, ry = s->ref / n;
        for (int i = 0; i < m->noff; i++) {
            int x = rx + m->offx[i], y = ry + m->offy[i];
            if ((unsigned)x < (unsigned)n && (unsigned)y < (unsigned)n && !s->board[y * n + x] &&
                !breaks_rules(&m->r, s->board, x, y, s->mover))
                out[k++] = (uint16_t)(y * n + x);
        }
    }
    if (s->phase == GRAV_SIM_TURN)
        out[k++] = GRAV_SIM_PASS;
    else if (!k)
        out[k++] = GRAV_SIM_FORFEIT;
    return k;
}

/* A random non-violating point for the mover, or -1 when there is none: `tries` random
 * points of the band, then a scan from a random start. */
int grav_sim_pick(const grav_model *m, const grav_sim *s, gv_rng *rng, int tries)
{
    int n = m->r.n;
    if (s->ref < 0 || m->sample_board) {
        for (int t = 0; t < tries; t++) {
            int q = (int)gv_rng_below(rng, (uint32_t)m->nn);
            if (!s->board[q] && sim_ok(m, s, q % n, q / n))
                return q;
        }
        int start = (int)gv_rng_below(rng, (uint32_t)m->nn);
        for (int i = 0; i < m->nn; i++) {
            int q = start + i < m->nn ? start + i : start + i - m->nn;
            if (!s->board[q] && sim_ok(m, s, q % n, q / n))
                return q;
        }
        return -1;
    }
    int rx = s->ref % n, ry = s->ref / n;
    for (int t = 0; t < tries; t++) {
        int i = (int)gv_rng_below(rng, (uint32_t)m->noff);
        int x = rx + m->offx[i], y = ry + m->offy[i];
        if ((unsigned)x < (unsigned)n && (unsigned)y < (unsigned)n && !s->board[y * n + x] &&
            !breaks_rules(&m->r, s->board, x, y, s->mover))
            return y * n + x;
    }
    int start = (int)gv_rng_below(rng, (uint32_t)m->noff);
    for (int j = 0; j < m->noff; j++) {
        int i = start + j < m->noff ? start + j : start + j - m->noff;
        int x = rx + m->offx[i], y = ry + m->offy[i];
        if ((unsigned)x < (unsigned)n && (unsigned)y < (unsigned)n && !s->board[y * n + x] &&
            !breaks_rules(&m->r, s->board, x, y, s->mover))
            return y * n + x;
    }
    return -1;
}

/* The bonus count of the stone just put on q (board and rows already hold it). */
static int sim_bonus(const grav_model *m, const grav_sim *s, int q)
{
    int k = m->opt.shapes_any ? -1 : bonus_rows(s->occ, s->rev, m->r.n, q);
    return k >= 0 ? k : grav_bonus_count(s->board, m->r.n, &m->opt, q);
}

int grav_sim_bonus_of(const grav_model *m, grav_sim *s, int q)
{
    int n = m->r.n;
    uint32_t bit = 1u << (q % n), rbit = 1u << (31 - q % n);
    s->board[q] = s->mover;
    s->occ[q / n] |= bit;
    s->rev[q / n] |= rbit;
    int k = sim_bonus(m, s, q);
    s->board[q] = 0;
    s->occ[q / n] &= ~bit;
    s->rev[q / n] &= ~rbit;
    return k;
}

int grav_sim_owed_after(const grav_model *m, const grav_sim *s, int k)
{
    int owed = s->owed - (s->phase == GRAV_SIM_BONUS), after = s->stones + 1;
    int room = m->nn - after - owed;
    owed += k < room ? k : room;
    return owed > 0 && after < m->nn ? owed : 0;
}

/* ---- The pending stone ------------------------------------------------------------------ */

unsigned grav_pending_violations(const grav_pos *p)
{
    const grav_ctl *c = &p->c;
    if (c->phase != GR_WINDOW || c->pend_q < 0)
        return 0;
    /* The pending stone is the last one in the order; the reference it was judged against
     * is the stone before it. */
    uint8_t board[GR_POINTS];
    memcpy(board, p->board, (size_t)(p->n * p->n));
    board[c->pend_q] = 0;
    int ref = p->norder >= 2 ? p->order[p->norder - 2] : -1;
    return grav_violations(board, p->n, &p->prm, &p->opt, ref, c->pend_q, c->pend_player);
}
