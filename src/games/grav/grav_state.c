/* Grav turn flow: every action (place, pass, accept, "Grav!", declare, remove, resign) as a
 * move, with the referee's automatic events, and unmake. */
#include <string.h>

#include "core/gv_core.h"
#include "games/grav/grav.h"

#define BIT(p) (1u << ((p) - 1))

typedef struct flow {
    grav_state *s;
    grav_pos *p;
    grav_hist *h;
    grav_auto *autos;
    int nauto;
} flow;

static void emit(flow *f, int type, int player, int value)
{
    if (f->autos && f->nauto < GR_MAX_AUTO)
        f->autos[f->nauto] = (grav_auto){(uint8_t)type, (uint8_t)player, (uint16_t)value};
    f->nauto++;
}

static int active_mask(const grav_pos *p)
{
    return ((1 << p->players) - 1) & ~p->c.resigned;
}

static int is_active(const grav_pos *p, int pl)
{
    return pl >= 1 && pl <= p->players && !(p->c.resigned & BIT(pl));
}

int grav_next_active(const grav_pos *p, int pl)
{
    for (int i = 1; i <= p->players; i++) {
        int q = (pl - 1 + i) % p->players + 1;
        if (is_active(p, q))
            return q;
    }
    return pl;
}

int grav_reference(const grav_pos *p)
{
    return p->norder ? p->order[p->norder - 1] : -1;
}

uint64_t grav_stone_key(int q, int pl)
{
    return gv_mix64((uint64_t)(q * 8 + pl) ^ 0x4752415653544F4EULL);
}

/* ---- Stones --------------------------------------------------------------------- */

static void add_stone(flow *f, int q, int pl)
{
    grav_pos *p = f->p;
    p->board[q] = (uint8_t)pl;
    p->order[p->norder++] = (uint16_t)q;
    p->count[pl]++;
    p->key ^= grav_stone_key(q, pl);
    f->h->point = (int16_t)q;
    f->h->added = 1;
    f->h->owner = (uint8_t)pl;
    f->h->order_index = (uint16_t)(p->norder - 1);
}

static void remove_stone(flow *f, int q)
{
    grav_pos *p = f->p;
    int pl = p->board[q], idx = 0;
    while (idx < p->norder && p->order[idx] != q)
        idx++;
    memmove(&p->order[idx], &p->order[idx + 1], (size_t)(p->norder - idx - 1) * sizeof p->order[0]);
    p->norder--;
    p->order[p->norder] = 0;   /* slots past the last stone stay zero */
    p->board[q] = 0;
    p->count[pl]--;
    p->key ^= grav_stone_key(q, pl);
    f->h->point = (int16_t)q;
    f->h->added = 0;
    f->h->owner = (uint8_t)pl;
    f->h->order_index = (uint16_t)idx;
}

static int empty_points(const grav_pos *p)
{
    return p->n * p->n - p->norder;
}

/* An empty point where `pl` may place (with referee=strict: one that violates nothing). */
static int has_admissible_point(const grav_pos *p, int pl)
{
    uint8_t map[GR_POINTS];  /* strict: violation bits, 0xFF on occupied points */
    if (p->opt.strict)
        grav_violation_map(p->board, p->n, &p->prm, &p->opt, grav_reference(p), pl, map);
    for (int q = 0; q < p->n * p->n; q++)
        if (!p->board[q] && (!p->opt.strict || !map[q]))
            return 1;
    return 0;
}

/* ---- The end ---------------------------------------------------------------------- */

static void clear_pending(grav_ctl *c)
{
    c->pend_q = -1;
    c->pend_player = c->pend_kind = c->pend_viol = 0;
    c->nasked = 0;
    memset(c->asked, 0, sizeof c->asked);
}

static void finish(flow *f, int reason, int winner)
{
    grav_ctl *c = &f->p->c;
    clear_pending(c);
    c->caller = c->victim = 0;
    c->declare_k = -1;
    c->owed = 0;
    if (!winner) {
        /* Most stones among active players; ties to the latest in the order. */
        int best = -1;
        for (int pl = 1; pl <= f->p->players; pl++)
            if (is_active(f->p, pl) && f->p->count[pl] >= best) {
                best = f->p->count[pl];
                winner = pl;
            }
    }
    c->phase = GR_OVER;
    c->winner = (uint8_t)winner;
    c->reason = (uint8_t)reason;
    emit(f, GR_AUTO_END, winner, reason);
}

/* ---- Whose turn next ------------------------------------------------------------- */

/* Gives player pl its regular turn, skipping it (and the next ones) while skips are owed. */
static void start_regular(flow *f, int pl)
{
    grav_pos *p = f->p;
    grav_ctl *c = &p->c;
    uint32_t limit = p->opt.max_turns ? p->opt.max_turns : 8u * p->n * p->n;
    for (;;) {
        if (c->turns >= limit) {
            finish(f, GR_R_MAXTURNS, 0);
            return;
        }
        if (c->skips[pl - 1] > 0) {
            c->skips[pl - 1]--;
            emit(f, GR_AUTO_SKIP, pl, 0);
            pl = grav_next_active(p, pl);
            continue;
        }
        c->phase = GR_TURN;
        c->current = (uint8_t)pl;
        return;
    }
}

/* The placer's turn goes on with its owed bonus turns, or passes on. */
static void continue_turn(flow *f, int pl)
{
    grav_pos *p = f->p;
    grav_ctl *c = &p->c;
    c->declare_k = -1;
    if (c->owed > 0) {
        if (has_admissible_point(p, pl)) {
            c->phase = GR_BONUS;
            c->current = (uint8_t)pl;
            return;
        }
        emit(f, GR_AUTO_FORFEIT, pl, c->owed);
        c->owed = 0;
    }
    start_regular(f, grav_next_active(p, pl));
}

/* The pending (or strict) stone stands. */
static void stands(flow *f, int q, int pl)
{
    grav_pos *p = f->p;
    grav_ctl *c = &p->c;
    clear_pending(c);
    c->passed = 0;
    int k = grav_bonus_count(p->board, p->n, &p->opt, q);
    if (k > 0) {
        c->phase = GR_DECLARE;
        c->current = (uint8_t)pl;
        c->declare_k = (int16_t)k;
        return;
    }
    continue_turn(f, pl);
}

/* Would accepting the pending stone make it the (only) other player's regular turn? */
static int implicit_accept_allowed(const grav_pos *p)
{
    const grav_ctl *c = &p->c;
    if (c->phase != GR_WINDOW || __builtin_popcount((unsigned)active_mask(p)) != 2 || c->nasked != 1)
        return 0;
    int opp = c->asked[0];
    if (c->owed > 0 || grav_bonus_count(p->board, p->n, &p->opt, c->pend_q) > 0)
        return 0;
    uint32_t limit = p->opt.max_turns ? p->opt.max_turns : 8u * p->n * p->n;
    return grav_next_active(p, c->pend_player) == opp && c->skips[opp - 1] == 0 && c->turns < limit;
}

/* ---- Actions --------------------------------------------------------------------- */

static void do_place(flow *f, int pl, int q)
{
    grav_pos *p = f->p;
    grav_ctl *c = &p->c;
    int kind = c->phase == GR_BONUS;
    unsigned v = grav_violations(p->board, p->n, &p->prm, &p->opt, grav_reference(p), q, pl);
    if (kind)
        c->owed--;
    else
        c->turns++;
    add_stone(f, q, pl);
    if (!p->opt.strict) {
        clear_pending(c);
        for (int i = 1; i < p->players; i++) {
            int o = (pl - 1 + i) % p->players + 1;
            if (is_active(p, o))
                c->asked[c->nasked++] = (uint8_t)o;
        }
    }
    if (p->opt.strict || c->nasked == 0) {
        stands(f, q, pl);
        return;
    }
    c->phase = GR_WINDOW;
    c->current = (uint8_t)pl;
    c->pend_q = (int16_t)q;
    c->pend_player = (uint8_t)pl;
    c->pend_kind = (uint8_t)kind;
    c->pend_viol = (uint8_t)v;
}

static void do_pass(flow *f, int pl)
{
    grav_pos *p = f->p;
    grav_ctl *c = &p->c;
    c->turns++;
    c->passed |= (uint8_t)BIT(pl);
    if ((c->passed & active_mask(p)) == active_mask(p)) {
        finish(f, GR_R_PASSES, 0);
        return;
    }
    start_regular(f, grav_next_active(p, pl));
}

/* Takes pl off the list of players still to answer; the stone stands once nobody is
 * left. Returns 0 if pl was not on the list. */
static int answered(flow *f, int pl)
{
    grav_ctl *c = &f->p->c;
    int i = 0;
    while (i < c->nasked && c->asked[i] != pl)
        i++;
    if (i == c->nasked)
        return 0;
    memmove(&c->asked[i], &c->asked[i + 1], (size_t)(c->nasked - i - 1));
    c->asked[--c->nasked] = 0;
    if (c->nasked == 0)
        stands(f, c->pend_q, c->pend_player);
    return 1;
}

static void do_accept(flow *f, int pl)
{
    answered(f, pl);
}

static void do_grav(flow *f, int caller)
{
    grav_pos *p = f->p;
    grav_ctl *c = &p->c;
    int q = c->pend_q, placer = c->pend_player;
    if (!c->pend_viol) {
        /* Wrong call: the caller loses its next regular turn; the stone stands. */
        c->skips[caller - 1]++;
        stands(f, q, placer);
        return;
    }
    /* Correct call: the stone was never placed; the turn and owed bonus turns are lost. */
    remove_stone(f, q);
    clear_pending(c);
    c->owed = 0;
    c->declare_k = -1;
    if (p->count[placer] == 0) {
        emit(f, GR_AUTO_NO_REMOVAL, caller, 0);
        start_regular(f, caller);
        return;
    }
    c->phase = GR_REMOVE;
    c->current = (uint8_t)placer;
    c->caller = (uint8_t)caller;
    c->victim = (uint8_t)placer;
}

static void do_remove(flow *f, int caller, int q)
{
    grav_ctl *c = &f->p->c;
    remove_stone(f, q);
    c->passed = 0;
    c->caller = c->victim = 0;
    start_regular(f, caller);
}

static void do_resign(flow *f, int pl)
{
    grav_pos *p = f->p;
    grav_ctl *c = &p->c;
    int actives = __builtin_popcount((unsigned)active_mask(p));
    c->resigned |= (uint8_t)BIT(pl);
    c->resign_order[c->nresigned++] = (uint8_t)pl;
    if (actives <= 2) {
        finish(f, GR_R_RESIGN, grav_next_active(p, pl));
        return;
    }
    c->passed &= (uint8_t)~BIT(pl);
    /* Its turns, answers, declarations and removals are passed over. */
    switch (c->phase) {
    case GR_TURN:
    case GR_BONUS:
        if (c->current == pl) {
            c->owed = 0;
            start_regular(f, grav_next_active(p, pl));
        }
        break;
    case GR_WINDOW:
        if (c->pend_player == pl) {
            c->owed = 0;
            stands(f, c->pend_q, pl);
            if (c->phase == GR_DECLARE)
                continue_turn(f, pl);
        } else {
            answered(f, pl);
        }
        break;
    case GR_DECLARE:
        if (c->current == pl) {
            c->owed = 0;
            continue_turn(f, pl);
        }
        break;
    case GR_REMOVE:
        if (c->caller == pl) {
            c->caller = c->victim = 0;
            start_regular(f, grav_next_active(p, pl));
        } else if (c->victim == pl) {
            /* The removal still happens: the caller chooses among the stones left. */
        }
        break;
    }
    if (c->phase != GR_OVER && (c->passed & active_mask(p)) == active_mask(p) && c->passed)
        finish(f, GR_R_PASSES, 0);
}

/* ---- The game interface's view ------------------------------------------------- */

void grav_state_reset(grav_state *s)
{
    s->ply = 0;
    s->pad = 0;
    memset(s->hist, 0, sizeof s->hist);
}

int grav_setup(grav_pos *p, int n, int players, const grav_params *prm, const grav_options *opt,
               uint64_t seed, char *err, size_t errlen)
{
    if (!grav_valid_size(n))
        return gv_err(err, errlen, "board size %d is not a prime between 5 and 23", n);
    if (players < 2 || players > GR_MAXP)
        return gv_err(err, errlen, "players must be 2 to 6, not %d", players);
    if (grav_check_params(n, prm, err, errlen) < 0)
        return -1;
    memset(p, 0, sizeof *p);
    p->n = (uint8_t)n;
    p->players = (uint8_t)players;
    p->prm = *prm;
    p->opt = *opt;
    p->seed = seed;
    p->c.pend_q = p->c.declare_k = -1;
    p->c.phase = GR_TURN;
    p->c.current = 1;
    p->key = 0;
    return 0;
}

int grav_to_move(const grav_pos *p)
{
    const grav_ctl *c = &p->c;
    switch (c->phase) {
    case GR_WINDOW: return c->nasked ? c->asked[0] : c->current;
    case GR_REMOVE: return c->caller;
    default: return c->current;
    }
}

unsigned grav_placement_violations(const grav_pos *p, int q)
{
    return grav_violations(p->board, p->n, &p->prm, &p->opt, grav_reference(p), q,
                           grav_to_move(p));
}

static int add_placements(const grav_pos *p, int pl, gv_move *out, int n)
{
    uint8_t map[GR_POINTS];  /* strict: violation bits, 0xFF on occupied points */
    if (p->opt.strict)
        grav_violation_map(p->board, p->n, &p->prm, &p->opt, grav_reference(p), pl, map);
    for (int q = 0; q < p->n * p->n; q++)
        if (!p->board[q] && (!p->opt.strict || !map[q]))
            out[n++] = GR_MOVE(GA_PLACE, pl, q);
    return n;
}

int grav_legal_moves(const grav_state *s, gv_move *out)
{
    const grav_pos *p = &s->pos;
    const grav_ctl *c = &p->c;
    int n = 0;
    switch (c->phase) {
    case GR_OVER:
        return 0;
    case GR_TURN:
        n = add_placements(p, c->current, out, n);
        out[n++] = GR_MOVE(GA_PASS, c->current, 0);
        break;
    case GR_BONUS:
        n = add_placements(p, c->current, out, n);
        break;
    case GR_WINDOW: {
        int q = c->asked[0];
        out[n++] = GR_MOVE(GA_ACCEPT, q, 0);
        out[n++] = GR_MOVE(GA_GRAV, q, 0);
        if (implicit_accept_allowed(p)) {
            /* The opponent's own placement or pass accepts; it is judged on the board
             * where the pending stone stands (it is the reference stone then). */
            n = add_placements(p, q, out, n);
            out[n++] = GR_MOVE(GA_PASS, q, 0);
        }
        break;
    }
    case GR_DECLARE: {
        int room = empty_points(p) - c->owed, max = c->declare_k < room ? c->declare_k : room;
        for (int m = 0; m <= max; m++)
            out[n++] = GR_MOVE(GA_DECLARE, c->current, m);
        break;
    }
    case GR_REMOVE:
        for (int i = 0; i < p->norder; i++)
            if (p->board[p->order[i]] == c->victim)
                out[n++] = GR_MOVE(GA_REMOVE, c->caller, p->order[i]);
        break;
    }
    for (int pl = 1; pl <= p->players; pl++)
        if (is_active(p, pl))
            out[n++] = GR_MOVE(GA_RESIGN, pl, 0);
    return n;
}

int grav_make(grav_state *s, gv_move m, grav_auto *autos)
{
    grav_hist *h = &s->hist[s->ply % GR_HIST];
    grav_pos *p = &s->pos;
    h->c = p->c;
    h->point = -1;
    h->added = h->owner = 0;
    h->order_index = 0;
    flow f = {s, p, h, autos, 0};
    int pl = GR_PLAYER(m), arg = GR_ARG(m);
    switch (GR_ACT(m)) {
    case GA_PLACE:
    case GA_PASS:
        if (p->c.phase == GR_WINDOW) {
            /* Two players: the opponent's own action accepts the pending stone. */
            emit(&f, GR_AUTO_ACCEPT, pl, 0);
            stands(&f, p->c.pend_q, p->c.pend_player);
        }
        if (GR_ACT(m) == GA_PLACE)
            do_place(&f, pl, arg);
        else
            do_pass(&f, pl);
        break;
    case GA_ACCEPT: do_accept(&f, pl); break;
    case GA_GRAV: do_grav(&f, pl); break;
    case GA_DECLARE:
        p->c.owed = (uint16_t)(p->c.owed + arg);
        continue_turn(&f, pl);
        break;
    case GA_REMOVE: do_remove(&f, pl, arg); break;
    case GA_RESIGN: do_resign(&f, pl); break;
    }
    s->ply++;
    return f.nauto;
}

void grav_unmake(grav_state *s)
{
    s->ply--;
    grav_hist *h = &s->hist[s->ply % GR_HIST];
    grav_pos *p = &s->pos;
    if (h->point >= 0) {
        int q = h->point, pl = h->owner;
        if (h->added) {
            p->board[q] = 0;
            p->order[--p->norder] = 0;
            p->count[pl]--;
        } else {
            memmove(&p->order[h->order_index + 1], &p->order[h->order_index],
                    (size_t)(p->norder - h->order_index) * sizeof p->order[0]);
            p->order[h->order_index] = (uint16_t)q;
            p->norder++;
            p->board[q] = (uint8_t)pl;
            p->count[pl]++;
        }
        p->key ^= grav_stone_key(q, pl);
    }
    p->c = h->c;
    memset(h, 0, sizeof *h);
}

/* Mixes the control state's meaningful fields (not its unused slots). */
uint64_t grav_hash(const grav_pos *p)
{
    const grav_ctl *c = &p->c;
    uint64_t h = 0;
#define MIX(v) (h = gv_mix64(h ^ (uint64_t)(v)))
    MIX(c->phase); MIX(c->current); MIX(c->pend_q + 1); MIX(c->pend_player);
    MIX(c->pend_kind); MIX(c->pend_viol); MIX(c->passed); MIX(c->resigned);
    MIX(c->caller); MIX(c->victim); MIX(c->declare_k + 1); MIX(c->owed); MIX(c->turns);
    MIX(c->winner); MIX(c->reason); MIX(c->nasked); MIX(c->nresigned);
    for (int i = 0; i < c->nasked; i++)
        MIX(c->asked[i]);
    for (int i = 0; i < c->nresigned; i++)
        MIX(c->resign_order[i]);
    for (int i = 0; i < p->players; i++)
        MIX(c->skips[i]);
#undef MIX
    return p->key ^ h;
}

gv_status grav_status(const grav_state *s, gv_result *res)
{
    gv_result tmp;
    if (!res)
        res = &tmp;
    memset(res, 0, sizeof *res);
    res->winner = -1;
    const grav_ctl *c = &s->pos.c;
    if (c->phase != GR_OVER)
        return res->status = GV_ONGOING;
    res->status = GV_WIN;
    res->winner = c->winner - 1;
    strcpy(res->reason, c->reason == GR_R_PASSES ? "passes" :
                        c->reason == GR_R_MAXTURNS ? "max_turns" : "resign");
    return res->status;
}
