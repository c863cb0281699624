/* Grav AI players: max-n Monte-Carlo tree search over a fast model of the turn flow,
 * and the 1-ply greedy baseline.
 *
 * The model (the rules core's, games/grav/grav_fast.h). Every AI player calls "Grav!"
 * exactly on violations, so in the tree (and in rollouts) a violating placement is never
 * made: a player places a stone on a point that violates nothing, or passes (regular
 * turn), or forfeits the rest of its owed bonus turns (a bonus turn with no such point:
 * the same as having declared fewer). A placement stands, all its bonus turns are
 * declared, and the turn passes on as in the core. Windows, declarations and removals
 * are not moves of the model: at the root they are decided by fixed rules (window: call
 * exactly on violations; declaration: every bonus turn that can be used) or by the tree
 * (removal: one root edge per stone).
 *
 * The tree. Max-n UCT: each edge holds its visits and the summed reward of the player who
 * chose it -- the only player who ever reads it, since the player to act at a node picks
 * by UCT on its own reward; this is max-n's per-player backup stored where it is used.
 * When a node gets its edges, every edge is evaluated once at once (the state after the
 * move, scored as a leaf, without making the move: the bonus count is all it costs), and
 * the count is kept in the edge so later descents never recount it. Edges come from one
 * pool allocated per search; a node gets its edges on its edge's expand_visits-th visit
 * (more as the pool fills), and when the pool is full the tree stops growing while
 * playouts go on through it.
 *
 * A playout is one descent, a rollout of `horizon` uniformly random non-violating
 * placements (random points of the distance band tried a few times, then a scan), and
 * the score: each player's share of the stones, counting the owed bonus turns of a
 * player in a bonus turn as stones to come, optionally mixed with a bonus for the leader.
 * Measured in matches on 13x13 (seed 0 parameters, two players): in this game bonus
 * chains decide and random continuations only add noise, so the best horizon is 0 --
 * the leaf is scored as it stands and a "playout" is one descent of the tree plus that
 * score. Horizon 0 beat horizon 2 9-1 at equal time, and was no worse than horizons 1 and
 * 4 even at equal playouts (6-4 each); the share alone beat the share mixed half with a
 * leader bonus 10-0; exploration 0.02 beat 0.05 9-1, 0.05 beat 0.15 10-0, 0.15 beat 0.4
 * 9-1 (0.005-0.05 are even at 50,000 playouts a move). Tuned by SPSA over 3,360 games
 * at 10,000 playouts a move (gv_tune spsa, docs/tuning.md), the leader bonus stayed at 0
 * and the exploration constant wandered over 0.001-0.023 to end at 0.0144, which scored
 * 49.5% [44.6%, 54.4%] against 0.02 in 400 games: the defaults below stand. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/grav/grav.h"
#include "games/grav/grav_fast.h"
#include "games/grav/grav_mcts.h"

/* ---- Tunables ----------------------------------------------------------------------- */
enum {
    GM_TRIES = 8,              /* random points tried before a scan of the band */
    GM_MAX_EDGES = 1 << 21,    /* tree pool bound (16 bytes each: 32 MB; <= 2^21, edge.link) */
    GM_CLOCK_EVERY = 16,       /* playouts between looks at the clock */
    GM_INFO_MS = 100,          /* progress report period */
    GM_MAX_DEPTH = 512,        /* longest tree path */
    GM_TAB = 4096,             /* visit counts with tabled 1/n, 1/sqrt(n) and ln(n + 1) */
};
#define GM_MISS_LEVEL1 0.5     /* chance to miss a violation at level 1 (0 at level 10) */
#define GM_TEMP_LEVEL1 0.05    /* root choice temperature at level 1, in stone share,
                                  falling to 0 above level GM_TEMP_LEVELS */
#define GM_TEMP_LEVELS 1

/* The defaults (see the measurements above and docs/tuning.md), written as `gv_tune
 * spsa grav` prints a tuned vector. */
static const gv_grav_mcts_params gm_defaults = {
    .horizon = 0,
    .win_weight = 0,
    .uct_c = 0.02,
    .expand_visits = 4,
};

void gv_grav_mcts_default_params(gv_grav_mcts_params *out)
{
    *out = gm_defaults;
}

/* The tunables as a vector, in the order of gv_grav_mcts_params (gv_tune spsa prints its
 * result as that struct's initializer). The ranges keep the search sane: a horizon of at
 * most 16 placements (a playout to the end is not tuned: it costs far more per playout),
 * an exploration constant up to 0.5 (rewards are in 0..1) and an expansion on up to
 * the 64th visit. */
static const gv_search_param grav_tune_params[] = {
    {"horizon", 0, 16, 1, 1},
    {"win_weight", 0, 1, 0.1, 0},
    {"uct_c", 0.001, 0.5, 0.01, 0},
    {"expand_visits", 1, 64, 2, 1},
};
enum { GM_TUNE_COUNT = sizeof grav_tune_params / sizeof grav_tune_params[0] };

static void tune_defaults(double *v)
{
    gv_grav_mcts_params d;
    gv_grav_mcts_default_params(&d);
    v[0] = d.horizon;
    v[1] = d.win_weight;
    v[2] = d.uct_c;
    v[3] = d.expand_visits;
}

/* v[i] within parameter i's range (NaN counts as its low end). */
static double tune_clamp(const double *v, int i, int *clamped)
{
    const gv_search_param *sp = &grav_tune_params[i];
    double x = v[i];
    if (!(x >= sp->lo))
        x = sp->lo;
    if (x > sp->hi)
        x = sp->hi;
    *clamped += x != v[i];
    return sp->integer ? floor(x + 0.5) : x;
}

int gv_grav_mcts_params_from(const double *v, gv_grav_mcts_params *out)
{
    int clamped = 0;
    out->horizon = (int)tune_clamp(v, 0, &clamped);
    out->win_weight = tune_clamp(v, 1, &clamped);
    out->uct_c = tune_clamp(v, 2, &clamped);
    out->expand_visits = (int)tune_clamp(v, 3, &clamped);
    return clamped;
}

/* ---- Fixed rules for the other decisions ----------------------------------------------- */

/* Empty points where `pl` violates nothing, with the reference stone `ref`. */
static int legal_point_count(const grav_pos *p, const uint8_t *board, int ref, int pl)
{
    uint8_t map[GR_POINTS];
    int k = 0;
    grav_violation_map(board, p->n, &p->prm, &p->opt, ref, pl, map);
    for (int q = 0; q < p->n * p->n; q++)
        k += map[q] == 0;
    return k;
}

/* The declaration: every bonus turn that can be used, bounded by the points where the
 * player could place right now (a bonus turn cannot be passed, and a violating bonus
 * stone would be called). */
static int declare_count(const grav_pos *p)
{
    const grav_ctl *c = &p->c;
    int room = p->n * p->n - p->norder - c->owed;
    int max = c->declare_k < room ? c->declare_k : room;
    int legal = legal_point_count(p, p->board, grav_reference(p), c->current);
    return max < legal ? max : legal;
}

/* A bonus turn without a legal point must still place: the empty point breaking the
 * fewest rules (the first one). */
static gv_move forced_placement(const grav_pos *p, int pl)
{
    uint8_t map[GR_POINTS];
    int best = -1, bestbits = 99;
    grav_violation_map(p->board, p->n, &p->prm, &p->opt, grav_reference(p), pl, map);
    for (int q = 0; q < p->n * p->n; q++) {
        if (map[q] == 0xFF)
            continue;
        int bits = __builtin_popcount(map[q]);
        if (bits < bestbits) {
            bestbits = bits;
            best = q;
        }
    }
    return best < 0 ? 0 : GR_MOVE(GA_PLACE, pl, best);
}

static double rng_unit(gv_rng *r)
{
    return (double)(gv_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* ---- The tree ------------------------------------------------------------------------ */

enum { GM_KIDS_BITS = 21 };
#define GM_KIDS_MASK ((1u << GM_KIDS_BITS) - 1)

typedef struct edge {
    uint16_t move;       /* a point, GRAV_SIM_PASS or GRAV_SIM_FORFEIT (removal points at a
                            remove root) */
    uint16_t nkids;      /* edges of the node below (0: not expanded yet) */
    uint32_t visits;     /* playouts through the edge, plus one for its first evaluation */
    float sum;           /* summed reward of the player who chose this edge */
    uint32_t link;       /* bits 0-20: the node below's first edge; 21-31: the move's bonus
                            count + 1 (0: not known) */
} edge;

static uint32_t edge_kids(const edge *e)
{
    return e->link & GM_KIDS_MASK;
}

static int edge_bonus(const edge *e)
{
    return (int)(e->link >> GM_KIDS_BITS) - 1;
}

static void edge_set_bonus(edge *e, int k)
{
    if (k >= 0 && k + 1 < (1 << (32 - GM_KIDS_BITS)))
        e->link = (e->link & GM_KIDS_MASK) | (uint32_t)(k + 1) << GM_KIDS_BITS;
}

typedef struct visit_tab {
    float inv, isq;            /* 1 / n and 1 / sqrt(n) */
} visit_tab;

typedef struct search {
    grav_model m;
    gv_grav_mcts_params prm;
    gv_rng rng;
    edge *pool;
    uint32_t cap, used;
    int nroot, root_mover, maxdepth;
    uint64_t root_visits;      /* the root's visits: its edges' first evaluations + playouts */
    uint32_t expand_at;        /* visits of an edge before its node gets edges: grows with the
                                  pool's use, so that a long search keeps growing its best
                                  lines instead of filling the pool early */
    grav_sim root;             /* the model at the root (regular or bonus turn) */
    grav_sim *root_kids;       /* remove root: the model after each removal */
    double *root_share;        /* root mover's stone share summed per root edge */
    uint64_t playouts;
    grav_state core;           /* scratch copy for the PV and the root moves */
    gv_move legal[GV_MAX_MOVES];
    uint16_t moves[GR_POINTS + 2];
    visit_tab vt[GM_TAB];      /* for UCT without divisions (vt[0] unused) */
    float ln[GM_TAB];          /* ln(n + 1) */
} search;

/* Rewards per player from stones per player: the share of the stones, mixed with 1 for
 * the leader (most stones among the active players, ties to the latest in the order, as
 * the game is won). */
static void score_stones(const search *S, const int *stones, unsigned active, float *r,
                         float *share)
{
    int players = S->m.players, leader = 0, best = -1, total = 0;
    for (int pl = 1; pl <= players; pl++) {
        total += stones[pl];
        if ((active >> (pl - 1) & 1) && stones[pl] >= best) {
            best = stones[pl];
            leader = pl;
        }
    }
    float w = (float)S->prm.win_weight;
    for (int pl = 1; pl <= players; pl++) {
        share[pl] = total ? (float)stones[pl] / (float)total : 1.0f / (float)players;
        r[pl] = (1.0f - w) * share[pl] + (pl == leader ? w : 0.0f);
    }
}

/* The rewards of a model state: stones on the board, counting the owed bonus turns of
 * the player in a bonus turn as stones to come. */
static void rewards(const search *S, const grav_sim *s, float *r, float *share)
{
    int stones[GR_MAXP + 1];
    for (int pl = 1; pl <= S->m.players; pl++)
        stones[pl] = s->count[pl] +
                     (s->phase == GRAV_SIM_BONUS && pl == s->mover ? s->owed : 0);
    score_stones(S, stones, s->active, r, share);
}

/* The first evaluation of the mover's move mv in s: the rewards of the state after it
 * (as `rewards` would give them) without making it; the bonus count goes to *bonus. s is
 * restored before returning. */
static void first_value(const search *S, grav_sim *s, int mv, int *bonus, float *r,
                        float *share)
{
    const grav_model *m = &S->m;
    int stones[GR_MAXP + 1];
    for (int p = 1; p <= m->players; p++)
        stones[p] = s->count[p];
    *bonus = 0;
    if (mv < m->nn) {
        int k = grav_sim_bonus_of(m, s, mv);
        stones[s->mover] += 1 + grav_sim_owed_after(m, s, k);
        *bonus = k;
    }
    score_stones(S, stones, s->active, r, share);
}

static void shuffle_moves(gv_rng *rng, uint16_t *mv, int k)
{
    for (int i = k - 1; i > 0; i--) {
        int j = (int)gv_rng_below(rng, (uint32_t)i + 1);
        uint16_t t = mv[i];
        mv[i] = mv[j];
        mv[j] = t;
    }
}

/* Writes the edges of the node with state s at kids (room for nn + 1): the model's moves
 * in random order, each with its first evaluation. Returns their number. */
static int make_edges(search *S, grav_sim *s, edge *kids, double *shares)
{
    int k = grav_sim_moves(&S->m, s, S->moves);
    shuffle_moves(&S->rng, S->moves, k);
    for (int i = 0; i < k; i++) {
        float r[GR_MAXP + 1], share[GR_MAXP + 1];
        int bonus;
        first_value(S, s, S->moves[i], &bonus, r, share);
        kids[i] = (edge){S->moves[i], 0, 1, r[s->mover], 0};
        edge_set_bonus(&kids[i], bonus);
        if (shares)
            shares[i] = share[s->mover];
    }
    return k;
}

/* Gives the node below e (state s) its edges. Returns 0 when the pool has no room. */
static int expand(search *S, edge *e, grav_sim *s)
{
    if (S->used + (uint32_t)S->m.nn + 1 > S->cap)
        return 0;
    int k = make_edges(S, s, S->pool + S->used, NULL);
    e->link = (e->link & ~GM_KIDS_MASK) | S->used;
    e->nkids = (uint16_t)k;
    S->used += (uint32_t)k;
    /* Doubled with each quarter of the pool used (x8 in the last quarter). */
    S->expand_at = (uint32_t)S->prm.expand_visits << (4 * (uint64_t)S->used / S->cap);
    return 1;
}

/* UCT on the chooser's own reward (every edge has been evaluated once). */
static edge *uct_select(const search *S, edge *kids, int nk, uint64_t parent_visits)
{
    float lg = parent_visits < GM_TAB ? S->ln[parent_visits] : logf((float)parent_visits + 1.0f);
    float sl = (float)S->prm.uct_c * sqrtf(lg);
    edge *best = kids;
    float bv = -1e30f;
    for (int i = 0; i < nk; i++) {
        edge *e = &kids[i];
        uint32_t n = e->visits;
        float inv, isq;
        if (n < GM_TAB) {
            inv = S->vt[n].inv;
            isq = S->vt[n].isq;
        } else {
            inv = 1.0f / (float)n;
            isq = sqrtf(inv);
        }
        float v = e->sum * inv + sl * isq;
        if (v > bv) {
            bv = v;
            best = e;
        }
    }
    return best;
}

/* Plays random non-violating moves from s until the game ends or `horizon` placements
 * are made (horizon < 0: to the end). */
static void rollout(search *S, grav_sim *s)
{
    int placed = 0, h = S->prm.horizon;
    while (s->phase != GRAV_SIM_OVER && (h < 0 || placed < h)) {
        int q = grav_sim_pick(&S->m, s, &S->rng, GM_TRIES);
        if (q >= 0) {
            grav_sim_place(&S->m, s, q, -1);
            placed++;
        } else if (s->phase == GRAV_SIM_BONUS) {
            grav_sim_forfeit(&S->m, s);
        } else {
            grav_sim_pass(&S->m, s);
        }
    }
}

/* One playout: descent by UCT (growing the tree), rollout, backup. */
static void playout(search *S)
{
    grav_sim s;
    edge *path[GM_MAX_DEPTH];
    uint8_t who[GM_MAX_DEPTH];
    int depth = 0;
    edge *kids = S->pool;
    int nk = S->nroot;
    uint64_t pvis = S->root_visits;
    s = S->root;
    for (;;) {
        edge *e = uct_select(S, kids, nk, pvis);
        path[depth] = e;
        who[depth] = (uint8_t)(depth == 0 ? S->root_mover : s.mover);
        depth++;
        if (depth == 1 && S->root_kids)
            s = S->root_kids[e - S->pool];
        else
            edge_set_bonus(e, grav_sim_apply(&S->m, &s, e->move, edge_bonus(e)));
        if (s.phase == GRAV_SIM_OVER || depth >= GM_MAX_DEPTH)
            break;
        if (!e->nkids && (e->visits < S->expand_at || !expand(S, e, &s)))
            break;
        kids = S->pool + edge_kids(e);
        nk = e->nkids;
        pvis = e->visits;
    }
    if (depth > S->maxdepth)
        S->maxdepth = depth;
    rollout(S, &s);
    float r[GR_MAXP + 1], share[GR_MAXP + 1];
    rewards(S, &s, r, share);
    for (int i = 0; i < depth; i++) {
        path[i]->visits++;
        path[i]->sum += r[who[i]];
    }
    S->root_share[path[0] - S->pool] += share[S->root_mover];
    S->root_visits++;
    S->playouts++;
}

/* The root edge with the most visits (ties: the better mean), or -1 when unvisited. */
static int best_root(const search *S)
{
    int best = -1;
    for (int i = 0; i < S->nroot; i++) {
        const edge *e = &S->pool[i], *b = best >= 0 ? &S->pool[best] : NULL;
        if (e->visits && (!b || e->visits > b->visits ||
                          (e->visits == b->visits && e->sum > b->sum)))
            best = i;
    }
    return best;
}

/* The line from root edge bi on by the most visited edges: model moves as core moves
 * (placements and passes with their player; a forfeit ends it). */
static int tree_line(const search *S, int bi, gv_move *line, int max)
{
    int k = 0;
    if (bi < 0)
        return 0;
    const edge *e = &S->pool[bi];
    grav_sim s;
    if (S->root_kids) {
        line[k++] = GR_MOVE(GA_REMOVE, S->root_mover, e->move);
        s = S->root_kids[bi];
    } else {
        s = S->root;
        line[k++] = e->move == GRAV_SIM_PASS ? GR_MOVE(GA_PASS, s.mover, 0)
                                       : GR_MOVE(GA_PLACE, s.mover, e->move);
        grav_sim_apply(&S->m, &s, e->move, edge_bonus(e));
    }
    while (k < max && e->nkids && s.phase != GRAV_SIM_OVER) {
        const edge *kids = S->pool + edge_kids(e), *b = NULL;
        for (int i = 0; i < e->nkids; i++)
            if (!b || kids[i].visits > b->visits)
                b = &kids[i];
        if (!b || b->visits < 2 || b->move == GRAV_SIM_FORFEIT)
            break;
        line[k++] = b->move == GRAV_SIM_PASS ? GR_MOVE(GA_PASS, s.mover, 0)
                                       : GR_MOVE(GA_PLACE, s.mover, b->move);
        grav_sim_apply(&S->m, &s, b->move, edge_bonus(b));
        e = b;
    }
    return k;
}

static int is_legal(search *S, gv_move mv)
{
    int k = grav_legal_moves(&S->core, S->legal);
    for (int i = 0; i < k; i++)
        if (S->legal[i] == mv)
            return 1;
    return 0;
}

/* The line as a legal sequence of core moves from st: the window answers and the
 * declarations the fixed rules make are put in between. Returns its length. */
static int core_pv(search *S, const grav_state *st, const gv_move *line, int nline, gv_move *pv)
{
    int k = 0;
    memcpy(&S->core, st, sizeof S->core);
    for (int i = 0; i < nline && k < GV_MAX_PV; i++) {
        for (;;) {
            const grav_pos *p = &S->core.pos;
            gv_move fill;
            if (p->c.phase == GR_WINDOW) {
                if (GR_PLAYER(line[i]) == grav_to_move(p) && is_legal(S, line[i]))
                    break;
                if (grav_pending_violations(p))
                    return k;
                fill = GR_MOVE(GA_ACCEPT, grav_to_move(p), 0);
            } else if (p->c.phase == GR_DECLARE) {
                fill = GR_MOVE(GA_DECLARE, p->c.current, declare_count(p));
            } else {
                break;
            }
            if (k >= GV_MAX_PV)
                return k;
            pv[k++] = fill;
            grav_make(&S->core, fill, NULL);
        }
        if (k >= GV_MAX_PV || !is_legal(S, line[i]))
            return k;
        pv[k++] = line[i];
        grav_make(&S->core, line[i], NULL);
    }
    return k;
}

/* Reports the search so far, with the line from root edge bi. */
static void report(search *S, const grav_state *st, int bi, int64_t elapsed, gv_info_fn info,
                   void *info_ctx)
{
    gv_search_info in;
    gv_move line[GV_MAX_PV];
    memset(&in, 0, sizeof in);
    int nline = tree_line(S, bi, line, GV_MAX_PV);
    in.depth = nline;
    in.seldepth = S->maxdepth;
    in.score = bi >= 0 ? (int)lround(1000.0 * S->root_share[bi] / S->pool[bi].visits) : 0;
    in.nodes = S->playouts;
    in.time_ms = elapsed;
    in.npv = core_pv(S, st, line, nline, in.pv);
    info(info_ctx, &in);
}

/* Weaker levels: a root move drawn among the searched ones (the most visited, and those
 * visited past their expansion, so that the opponent's best reply has been seen: no
 * blunder is ever chosen this way) with weight exp(-(best mean - mean) / T), T falling
 * from GM_TEMP_LEVEL1 at level 1 to 0 at level 10. (Values, not visit counts: with the
 * small exploration constant the visits pile up on one move.) */
static int choose_root(search *S, int level)
{
    int bi = best_root(S);
    if (bi < 0 || level >= 10)
        return bi;
    /* Only level 1: with more playouts more root moves count as searched, so a
     * temperature at higher levels made more playouts play worse (level 4 lost to level
     * 3 by 8-16, level 2 to level 1 by 6-18); levels 2-9 differ by their budgets. */
    if (level > GM_TEMP_LEVELS)
        return bi;
    double temp = GM_TEMP_LEVEL1 * (GM_TEMP_LEVELS + 1 - level) / GM_TEMP_LEVELS, total = 0;
    double top = S->pool[bi].sum / S->pool[bi].visits, w[GR_POINTS + 2];
    uint32_t searched = (uint32_t)S->prm.expand_visits + 1;
    for (int i = 0; i < S->nroot; i++) {
        const edge *e = &S->pool[i];
        double v = e->sum / e->visits;
        w[i] = i != bi && e->visits < searched ? 0.0 : v >= top ? 1.0 : exp((v - top) / temp);
        total += w[i];
    }
    double x = rng_unit(&S->rng) * total;
    for (int i = 0; i < S->nroot; i++) {
        if (w[i] > 0 && x < w[i])
            return i;
        x -= w[i];
    }
    return bi;
}

/* ---- Entry points ----------------------------------------------------------------------- */

/* A decision made without the tree: reported once. */
static gv_search_result fixed_result(const grav_state *st, gv_move mv, int64_t start,
                                     gv_info_fn info, void *info_ctx)
{
    gv_search_result res;
    memset(&res, 0, sizeof res);
    res.best = mv;
    const grav_pos *p = &st->pos;
    int mover = grav_to_move(p);
    res.score = p->norder ? 1000 * p->count[mover] / p->norder : 1000 / p->players;
    res.time_ms = gv_now_ms() - start;
    if (info && mv) {
        gv_search_info in;
        memset(&in, 0, sizeof in);
        in.score = res.score;
        in.time_ms = res.time_ms;
        in.npv = 1;
        in.pv[0] = mv;
        info(info_ctx, &in);
    }
    return res;
}

/* Sets up the root of a search on the model state S->root (regular or bonus turn).
 * Returns the number of root edges. */
static int root_from_model(search *S)
{
    S->root_mover = S->root.mover;
    return make_edges(S, &S->root, S->pool, S->root_share);
}

/* Sets up a remove root: one edge per stone of the victim, with the model after it. */
static int root_from_removals(search *S, const grav_state *st)
{
    const grav_pos *p = &st->pos;
    int k = 0;
    memcpy(&S->core, st, sizeof S->core);
    for (int i = 0; i < p->norder; i++) {
        int q = p->order[i];
        if (p->board[q] != p->c.victim)
            continue;
        float r[GR_MAXP + 1], share[GR_MAXP + 1];
        grav_make(&S->core, GR_MOVE(GA_REMOVE, p->c.caller, q), NULL);
        grav_sim_from_pos(&S->m, &S->core.pos, &S->root_kids[k]);
        grav_unmake(&S->core);
        rewards(S, &S->root_kids[k], r, share);
        S->pool[k] = (edge){(uint16_t)q, 0, 1, r[p->c.caller], 0};
        S->root_share[k++] = share[p->c.caller];
    }
    S->root_mover = p->c.caller;
    return k;
}

static void search_free(search *S)
{
    free(S->pool);
    free(S->root_share);
    free(S->root_kids);
    free(S);
}

gv_search_result gv_grav_mcts(const grav_state *st, const gv_limits *lim, gv_search_ctl *ctl,
                              gv_info_fn info, void *info_ctx)
{
    return gv_grav_mcts_ex(st, lim, ctl, info, info_ctx, NULL);
}

gv_search_result gv_grav_mcts_ex(const grav_state *st, const gv_limits *lim, gv_search_ctl *ctl,
                                 gv_info_fn info, void *info_ctx,
                                 const gv_grav_mcts_params *params)
{
    int64_t start = ctl ? ctl->start_ms : gv_now_ms();
    const grav_pos *p = &st->pos;
    int mover = grav_to_move(p), level = lim->level <= 0 || lim->level > 10 ? 10 : lim->level;
    gv_rng rng;
    gv_rng_seed(&rng, lim->seed);

    /* Step 1. Decisions by fixed rule: game over, declarations, window answers (a weaker
     * player misses a violation now and then). */
    switch (p->c.phase) {
    case GR_OVER:
        return fixed_result(st, 0, start, info, info_ctx);
    case GR_DECLARE:
        return fixed_result(st, GR_MOVE(GA_DECLARE, mover, declare_count(p)), start, info,
                            info_ctx);
    case GR_WINDOW: {
        int viol = grav_pending_violations(p) != 0;
        if (viol && rng_unit(&rng) < GM_MISS_LEVEL1 * (10 - level) / 9.0)
            viol = 0;
        if (viol)
            return fixed_result(st, GR_MOVE(GA_GRAV, mover, 0), start, info, info_ctx);
        break;
    }
    default:
        break;
    }

    search *S = malloc(sizeof *S);
    if (!S)
        return fixed_result(st, gv_grav_greedy(st, lim->seed), start, info, info_ctx);
    memset(S, 0, offsetof(search, core));
    grav_model_init(&S->m, p);
    if (params)
        S->prm = *params;
    else
        gv_grav_mcts_default_params(&S->prm);
    if (S->prm.expand_visits < 1)
        S->prm.expand_visits = 1;
    S->expand_at = (uint32_t)S->prm.expand_visits;
    S->rng = rng;
    for (int i = 1; i < GM_TAB; i++)
        S->vt[i] = (visit_tab){1.0f / (float)i, 1.0f / sqrtf((float)i)};
    for (int i = 0; i < GM_TAB; i++)
        S->ln[i] = logf((float)i + 1.0f);

    /* Step 2. The root: a window answered by the player's own move (two players), a
     * removal, or a regular or bonus turn. */
    gv_move only = 0;
    uint64_t cap = GM_MAX_EDGES;
    if (lim->nodes) {
        uint64_t expansions = 2 + lim->nodes / (uint64_t)S->prm.expand_visits;
        uint64_t want = 1024 + (uint64_t)(S->m.nn + 1) * expansions;
        cap = want < cap ? want : cap;
    }
    S->cap = (uint32_t)cap;
    S->pool = malloc(sizeof *S->pool * S->cap);
    S->root_share = calloc((size_t)S->m.nn + 2, sizeof *S->root_share);
    if (p->c.phase == GR_REMOVE)
        S->root_kids = malloc(sizeof *S->root_kids * (size_t)(p->count[p->c.victim] + 1));
    if (!S->pool || !S->root_share || (p->c.phase == GR_REMOVE && !S->root_kids)) {
        search_free(S);
        return fixed_result(st, gv_grav_greedy(st, lim->seed), start, info, info_ctx);
    }
    if (p->c.phase == GR_WINDOW) {
        memcpy(&S->core, st, sizeof S->core);
        if (!is_legal(S, GR_MOVE(GA_PASS, mover, 0))) {
            only = GR_MOVE(GA_ACCEPT, mover, 0);
        } else {
            grav_make(&S->core, GR_MOVE(GA_ACCEPT, mover, 0), NULL);
            grav_sim_from_pos(&S->m, &S->core.pos, &S->root);
        }
    } else if (p->c.phase != GR_REMOVE) {
        grav_sim_from_pos(&S->m, p, &S->root);
    }
    if (!only) {
        S->nroot = p->c.phase == GR_REMOVE ? root_from_removals(S, st) : root_from_model(S);
        S->used = (uint32_t)S->nroot;
        S->root_visits = (uint64_t)S->nroot;
        if (S->nroot == 1 && S->pool[0].move == GRAV_SIM_FORFEIT)
            only = forced_placement(p, mover);
        else if (S->nroot == 1)
            only = S->root_kids ? GR_MOVE(GA_REMOVE, mover, S->pool[0].move)
                   : S->pool[0].move == GRAV_SIM_PASS ? GR_MOVE(GA_PASS, mover, 0)
                                                : GR_MOVE(GA_PLACE, mover, S->pool[0].move);
    }
    if (only) {
        search_free(S);
        return fixed_result(st, only, start, info, info_ctx);
    }

    /* Step 3. Playouts until a limit or a stop request. */
    int64_t next_info = GM_INFO_MS;
    uint64_t info_every = lim->nodes ? (lim->nodes + 7) / 8 : 0;
    if (lim->hard_ms && lim->hard_ms / 8 < next_info)
        next_info = lim->hard_ms / 8 > 1 ? lim->hard_ms / 8 : 1;
    int64_t info_period = next_info, elapsed = 0;
    for (;;) {
        if (lim->nodes && S->playouts >= lim->nodes)
            break;
        if (ctl && atomic_load_explicit(&ctl->stop, memory_order_relaxed))
            break;
        if (S->playouts % GM_CLOCK_EVERY == 0) {
            elapsed = gv_now_ms() - start;
            if ((lim->hard_ms && elapsed >= lim->hard_ms) ||
                (lim->soft_ms && elapsed >= lim->soft_ms))
                break;
            if (info && !info_every && elapsed >= next_info && S->playouts) {
                report(S, st, best_root(S), elapsed, info, info_ctx);
                next_info = elapsed + info_period;
            }
        }
        playout(S);
        if (info && info_every && S->playouts % info_every == 0 && S->playouts < lim->nodes)
            report(S, st, best_root(S), gv_now_ms() - start, info, info_ctx);
    }

    /* Step 4. The move: the most visited (weaker levels: a near-best one). */
    gv_search_result res;
    memset(&res, 0, sizeof res);
    int bi = choose_root(S, level);
    if (bi < 0)
        bi = 0;   /* no playout at all: the first (random) root move */
    const edge *e = &S->pool[bi];
    res.best = S->root_kids ? GR_MOVE(GA_REMOVE, mover, e->move)
               : e->move == GRAV_SIM_PASS ? GR_MOVE(GA_PASS, mover, 0)
                                    : GR_MOVE(GA_PLACE, mover, e->move);
    gv_move line[GV_MAX_PV], pv[GV_MAX_PV];
    int nline = tree_line(S, bi, line, GV_MAX_PV);
    int npv = core_pv(S, st, line, nline, pv);
    res.ponder = npv >= 2 && pv[0] == res.best ? pv[1] : 0;
    res.score = e->visits ? (int)lround(1000.0 * S->root_share[bi] / e->visits) : 0;
    res.depth = nline;
    res.nodes = S->playouts;
    res.time_ms = gv_now_ms() - start;
    if (info)
        report(S, st, bi, res.time_ms, info, info_ctx);
    search_free(S);
    return res;
}

/* ---- The greedy baseline ----------------------------------------------------------------- */

/* Best placement: most stones gained (1 + bonus turns), then fewest legal points left to
 * the next player; ties by the rng. Returns -1 when no point is legal. */
static int greedy_point(const grav_pos *p, int pl, gv_rng *rng)
{
    uint8_t map[GR_POINTS], board[GR_POINTS];
    int n = p->n, nn = n * n, best = -1, ties = 0;
    long bestscore = 0;
    grav_violation_map(p->board, n, &p->prm, &p->opt, grav_reference(p), pl, map);
    memcpy(board, p->board, (size_t)nn);
    int next = grav_next_active(p, pl);
    for (int q = 0; q < nn; q++) {
        if (map[q])
            continue;
        board[q] = (uint8_t)pl;
        int k = grav_fast_bonus(board, n, &p->opt, q);
        int room = nn - p->norder - 1 - (p->c.owed - (p->c.phase == GR_BONUS));
        long score = 10000L * (1 + (k < room ? k : room)) - legal_point_count(p, board, q, next);
        board[q] = 0;
        if (best < 0 || score > bestscore) {
            best = q;
            bestscore = score;
            ties = 1;
        } else if (score == bestscore && gv_rng_below(rng, (uint32_t)++ties) == 0) {
            best = q;
        }
    }
    return best;
}

/* Removal: the victim's stone whose removal leaves the caller the most legal points. */
static int greedy_removal(const grav_pos *p, gv_rng *rng)
{
    uint8_t board[GR_POINTS];
    int best = -1, bestscore = -1, ties = 0;
    memcpy(board, p->board, (size_t)(p->n * p->n));
    for (int i = 0; i < p->norder; i++) {
        int q = p->order[i];
        if (p->board[q] != p->c.victim)
            continue;
        board[q] = 0;
        int ref = -1;
        for (int j = p->norder - 1; j >= 0 && ref < 0; j--)
            if (p->order[j] != q)
                ref = p->order[j];
        int score = legal_point_count(p, board, ref, p->c.caller);
        board[q] = p->board[q];
        if (score > bestscore) {
            best = q;
            bestscore = score;
            ties = 1;
        } else if (score == bestscore && gv_rng_below(rng, (uint32_t)++ties) == 0) {
            best = q;
        }
    }
    return best;
}

gv_move gv_grav_greedy(const grav_state *st, uint64_t seed)
{
    const grav_pos *p = &st->pos;
    int mover = grav_to_move(p);
    gv_rng rng;
    gv_rng_seed(&rng, seed);
    switch (p->c.phase) {
    case GR_WINDOW:
        return GR_MOVE(grav_pending_violations(p) ? GA_GRAV : GA_ACCEPT, mover, 0);
    case GR_DECLARE:
        return GR_MOVE(GA_DECLARE, mover, declare_count(p));
    case GR_REMOVE:
        return GR_MOVE(GA_REMOVE, mover, greedy_removal(p, &rng));
    case GR_TURN:
    case GR_BONUS: {
        int q = greedy_point(p, mover, &rng);
        if (q >= 0)
            return GR_MOVE(GA_PLACE, mover, q);
        return p->c.phase == GR_TURN ? GR_MOVE(GA_PASS, mover, 0) : forced_placement(p, mover);
    }
    default:
        return 0;
    }
}

static gv_search_result ai_search(void *st, const gv_limits *lim, gv_search_ctl *ctl,
                                  gv_info_fn info, void *info_ctx)
{
    return gv_grav_mcts(st, lim, ctl, info, info_ctx);
}

static gv_search_result ai_search_tuned(void *st, const gv_limits *lim, gv_search_ctl *ctl,
                                        gv_info_fn info, void *info_ctx, const double *v)
{
    gv_grav_mcts_params prm;
    gv_grav_mcts_params_from(v, &prm);
    return gv_grav_mcts_ex(st, lim, ctl, info, info_ctx, &prm);
}

const gv_search_tune gv_grav_search_tune = {
    .count = GM_TUNE_COUNT,
    .params = grav_tune_params,
    .defaults = tune_defaults,
    .search = ai_search_tuned,
};

static gv_move ai_greedy(const void *st, uint64_t seed)
{
    return gv_grav_greedy(st, seed);
}

/* 13x13 two players (seed 0: a=4 b=2 c=3 d=1 e=5), 23x23 four players, 7x7 three. */
static const gv_bench_pos grav_bench[] = {
    {"size=13,players=2,seed=0", NULL, 0, 200000},
    {"size=23,players=4,seed=7", NULL, 0, 50000},
    {"size=7,players=3,seed=3", NULL, 0, 100000},
    {NULL, NULL, 0, 0},
};

const gv_ai gv_grav_ai = {
    .search = ai_search,
    .bench = grav_bench,
    .greedy = ai_greedy,
    .search_tune = &gv_grav_search_tune,
};
