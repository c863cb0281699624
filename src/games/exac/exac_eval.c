/* Exaç evaluation and alpha-beta hooks: roles and reach of whole sides from the rules core. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "games/exac/exac.h"
#include "games/exac/exac_bits.h"
#include "games/exac/exac_eval.h"

/* ---- Tunables ------------------------------------------------------------------------ */
enum {
    NULL_MIN_PIECES = 6,       /* null move only with at least this many pieces to move */
};

const gv_exac_weights gv_exac_weights_default = {
    /* 4 pieces is one capture from losing (rule 3), so each piece counts more when few
     * are left; 0-3 only occur for the side not to move in a set-up position. */
    .material = {-600, -450, -300, -150, 0,    250,  450,  620,  770,  900,
                 1020, 1130, 1230, 1330, 1430, 1530, 1630, 1730, 1830, 1930,
                 2030, 2130, 2230, 2330, 2430, 2530, 2630, 2730, 2830, 2930,
                 3030, 3130, 3230, 3330, 3430, 3530, 3630, 3730, 3830, 3930,
                 4030, 4130, 4230, 4330, 4430, 4530, 4630, 4730, 4830, 4930},
    .mobility = 4,
    .tempo = 15,
    .threat = {0, 60, 300},
    .hanging = 10,
    /* d = -3 .. 6 (see gv_exac_weights). */
    .par_attack = {20, 60, 150, 200, 150, 100, 50, 25, 10, 0},
    .par_defend = {20, 50, 80, 100, 80, 60, 35, 15, 5, 0},
    .par_linear = 5,
    .lapah = 10,
    .potersin = 5,
    .adrib = 3,
    .yachi = 0,
    .quiet_fade = 20,
};

/* Population count: the instruction when the build targets it (-mpopcnt), else a
 * branch-free SWAR count (faster than libgcc's __popcountdi2 call). */
EXAC_INLINE int pc(uint64_t b)
{
#ifdef __POPCNT__
    return __builtin_popcountll(b);
#else
    b = b - ((b >> 1) & 0x5555555555555555ULL);
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((b * 0x0101010101010101ULL) >> 56);
#endif
}

/* Can side (r its roles), moving now, win at once by camp parity? a = the opponent's
 * pieces in its own camp, b = side's pieces there; after the move a == b >= 1 wins. */
EXAC_INLINE int parity_win(const exac_roles *r, int side)
{
    uint64_t camp = exac_enemy_camp(side), in = r->own & camp, out = r->own & ~camp;
    int a = pc(r->opp & camp), d = a - pc(in);
    if (a < 1 || d < -1 || d > 2)
        return 0;
    switch (d) {
    case -1:   /* a piece leaves the camp (quietly or by a capture outside it) */
        return (exac_reach(r, side, in) & ~camp & ~r->own) != 0;
    case 0:    /* a move that changes neither count */
        return ((exac_reach(r, side, out) & ~camp & ~r->own) |
                (exac_reach(r, side, in) & camp & r->empty)) != 0;
    case 1:    /* a piece enters quietly, or one inside captures there (a stays >= 1) */
        return (exac_reach(r, side, out) & camp & r->empty) != 0 ||
               (a >= 2 && (exac_reach(r, side, in) & camp & r->opp) != 0);
    default:   /* 2: a piece enters capturing */
        return a >= 2 && (exac_reach(r, side, out) & camp & r->opp) != 0;
    }
}

/* parity_win for lane k of a pair (side its side): the counts first, and the lane's roles
 * taken out only when they decide (d in -1..2 with a >= 1). */
EXAC_INLINE int parity_win2(const exac_roles2 *r, int k, int side)
{
    uint64_t camp = exac_enemy_camp(side);
    int a = pc(r->opp[k] & camp), d = a - pc(r->own[k] & camp);
    if (a < 1 || d < -1 || d > 2)
        return 0;
    exac_roles one;
    exac_roles2_lane(r, k, &one);
    return parity_win(&one, side);
}

uint64_t gv_exac_reach(const exac_pos *p, int side, uint64_t from)
{
    exac_roles r;
    exac_roles_of(p, side, &r);
    return exac_reach(&r, side, from);
}

int gv_exac_parity_win_now(const exac_pos *p, int side)
{
    exac_roles r;
    exac_roles_of(p, side, &r);
    return parity_win(&r, side);
}

/* Camp-parity table entry for d = a - b (a >= 1), and the linear part's d in 0..12. */
EXAC_INLINE int par_entry(const int *table, int d)
{
    d = d < GV_EXAC_PAR_LO ? GV_EXAC_PAR_LO : d > GV_EXAC_PAR_HI ? GV_EXAC_PAR_HI : d;
    return table[d - GV_EXAC_PAR_LO];
}

EXAC_INLINE int par_lin(int d)
{
    return d < 0 ? 0 : d > 12 ? 12 : d;
}

/* What the hooks share on one position (search.h, cache_size): the roles and reach of
 * both sides (lane 0 the side to move), which in_check, eval and noisy_moves all need. */
typedef struct exac_cache {
    exac_roles2 r;             /* exac_roles2_of the position */
    exac_v2 reach;             /* exac_reach2: every square each side's pieces reach */
    uint64_t bb[2];            /* the position it describes: boards and side to move */
    uint8_t stm, valid;
} exac_cache;

/* The cache, brought up to date for p. */
EXAC_INLINE const exac_cache *both_info(const exac_pos *p, exac_cache *c)
{
    if (!c->valid || c->bb[0] != p->bb[0] || c->bb[1] != p->bb[1] || c->stm != p->stm) {
        exac_roles2_of(p, &c->r);
        c->reach = exac_reach2(&c->r, p->stm);
        c->bb[0] = p->bb[0];
        c->bb[1] = p->bb[1];
        c->stm = p->stm;
        c->valid = 1;
    }
    return c;
}

EXAC_INLINE void cache_clear(exac_cache *c)
{
    c->valid = 0, c->stm = 0, c->bb[0] = c->bb[1] = 0;   /* every field the validity test reads */
}

/* gv_exac_eval with both sides' roles and reach from the cache. */
EXAC_INLINE int eval_cached(const exac_pos *p, const gv_exac_weights *w, exac_cache *cache)
{
    int me = p->stm, op = !me;
    const exac_cache *c = both_info(p, cache);
    const exac_roles2 *r = &c->r;
    uint64_t reach_me = c->reach[0], reach_op = c->reach[1];
    uint64_t mine = r->own[0], theirs = r->own[1];
    int nm = pc(mine), no = pc(theirs);

    /* Step 1. The side to move wins on this move: it topples a Yachi, takes the
     * opponent down to three (any move does when a set-up position has it there
     * already), or makes camp parity. */
    if ((reach_me & r->yachi[1]) || no <= 3 || (no == 4 && (reach_me & theirs)) ||
        parity_win2(r, 0, me))
        return GV_EXAC_WIN;

    /* Step 2. Material (by count: the fewer left, the more each counts) and mobility. */
    int score = w->material[nm] - w->material[no] + w->tempo;
    score += w->mobility * (pc(reach_me & ~mine) - pc(reach_op & ~theirs));

    /* Step 3. The opponent's threats: the ways it would win at once if the mover passed
     * (each attacked Yachi, a capture down to three, camp parity); loose pieces. */
    int threats = pc(reach_op & r->yachi[0]) + (nm <= 4 && (reach_op & mine) != 0) +
                  parity_win2(r, 1, op);
    score -= w->threat[threats > 2 ? 2 : threats];
    score -= w->hanging * pc(reach_op & mine & ~reach_me);

    /* Step 4. Camp parity: d = (defenders in a camp) - (invaders there), for the mover
     * in the opponent's camp and for the opponent in the mover's camp. */
    uint64_t campo = exac_enemy_camp(me), campm = exac_enemy_camp(op);
    int a = pc(theirs & campo), dm = a - pc(mine & campo);
    int cm = pc(mine & campm), dop = cm - pc(theirs & campm);
    if (a >= 1)
        score += par_entry(w->par_attack, dm);
    if (cm >= 1)
        score -= par_entry(w->par_defend, dop);
    score += w->par_linear * (par_lin(dop) - par_lin(dm));

    /* Step 5. Roles. */
    exac_v2 adr = r->adrib[0] | r->adrib[1] | r->adrib[2] | r->adrib[3];
    score += w->lapah * (pc(r->lapah[0]) - pc(r->lapah[1])) +
             w->potersin * (pc(r->potersin[0]) - pc(r->potersin[1])) +
             w->adrib * (pc(adr[0]) - pc(adr[1])) +
             w->yachi * (pc(r->yachi[0]) - pc(r->yachi[1]));

    /* Step 6. Near the quiet limit the game heads for a draw. */
    if (p->opt.quiet_limit && w->quiet_fade) {
        int left = (int)p->opt.quiet_limit - (int)p->quiet;
        if (left < w->quiet_fade)
            score = left <= 0 ? 0 : score * left / w->quiet_fade;
    }
    return score;
}

int gv_exac_eval(const exac_pos *p, const gv_exac_weights *w)
{
    exac_cache c;
    cache_clear(&c);
    return eval_cached(p, w, &c);
}

/* ---- Hooks ----------------------------------------------------------------------------- */

static int h_eval(const void *st)
{
    return gv_exac_eval(&((const exac_state *)st)->pos, &gv_exac_weights_default);
}

GV_CLONES static int h_eval_c(const void *st, void *cache)
{
    return eval_cached(&((const exac_state *)st)->pos, &gv_exac_weights_default, cache);
}

/* Quiescence moves: the captures whose destination the opponent's pieces cannot reach
 * (in the position before the capture), and every capture that wins the game at once
 * (a Yachi toppled, camp parity, the opponent down to three). Even trades are left to the
 * main search: with all captures, quiescence ran 15+ plies deep (4 plies less depth in
 * the same time, and 22-38 in self-play against this set). */
EXAC_INLINE int noisy_cached(const exac_pos *p, gv_move *out, exac_cache *c)
{
    int me = p->stm;
    uint64_t theirs = p->bb[!me];
    const exac_cache *bi = both_info(p, c);
    uint64_t keep = ~bi->reach[1] | bi->r.yachi[1], camp = exac_enemy_camp(me);
    int a = pc(theirs & camp), b = pc(p->bb[me] & camp);
    /* With four or fewer pieces left to the opponent every capture wins. Otherwise a
     * capture from -> to leaves a2 = a - [to in camp] of their pieces in the camp and
     * b2 = b - [from in camp] + [to in camp] of the mover's: it makes parity (a2 == b2)
     * only when a - b is 2 [to in camp] - [from in camp], between -1 and 2. When it cannot,
     * the noisy moves are the captures on unguarded squares and Yachis alone. */
    int all = pc(theirs) <= 4, parity = a - b >= -1 && a - b <= 2;
    uint64_t targets = bi->reach[0] & theirs & (all || parity ? ~0ULL : keep);
    if (!targets)
        return 0;
    exac_roles mine;
    exac_roles2_lane(&bi->r, 0, &mine);
    int n = exac_gen_captures_roles(p, &mine, targets, out), k = 0;
    if (all || !parity)
        return n;
    for (int i = 0; i < n; i++) {
        int from = EX_FROM(out[i]), to = EX_TO(out[i]);
        int in_to = (int)(camp >> to & 1), a2 = a - in_to;
        if ((keep >> to & 1) || (a2 >= 1 && a2 == b - (int)(camp >> from & 1) + in_to))
            out[k++] = out[i];
    }
    return k;
}

static int h_noisy_moves(const void *st, gv_move *out)
{
    exac_cache c;
    cache_clear(&c);
    return noisy_cached(&((const exac_state *)st)->pos, out, &c);
}

GV_CLONES static int h_noisy_moves_c(const void *st, gv_move *out, void *cache)
{
    return noisy_cached(&((const exac_state *)st)->pos, out, cache);
}

/* Is the piece of `side` on sq a Yachi (3 of its 4 diagonal neighbours friendly)? */
EXAC_INLINE int is_yachi(const exac_pos *p, int side, int sq)
{
    return pc(p->bb[side] & exac_diag_mask(sq)) >= 3;
}

/* A capture that wins at once scores GV_EXAC_WIN_VICTIM (so delta pruning keeps it);
 * otherwise the piece's worth at the opponent's piece count. */
EXAC_INLINE int victim_value(const exac_pos *p, gv_move m)
{
    int me = p->stm, op = !me, from = EX_FROM(m), to = EX_TO(m);
    uint64_t theirs = p->bb[op], tb = EX_BIT(to);
    if (!(theirs & tb))
        return 0;
    int no = pc(theirs);
    if (no <= 4 || is_yachi(p, op, to))
        return GV_EXAC_WIN_VICTIM;
    uint64_t camp = exac_enemy_camp(me), mine = (p->bb[me] & ~EX_BIT(from)) | tb;
    int a = pc(theirs & ~tb & camp);
    if (a >= 1 && a == pc(mine & camp))
        return GV_EXAC_WIN_VICTIM;
    const int *mat = gv_exac_weights_default.material;
    return mat[no] - mat[no - 1];
}

static int h_victim_value(const void *st, gv_move m)
{
    return victim_value(&((const exac_state *)st)->pos, m);
}

/* victim_value of every move, with what all captures share computed once: the
 * opponent's count and Yachis, and both sides' counts in the camp parity counts. */
static void h_victim_values(const void *st, const gv_move *moves, int n, int *out)
{
    const exac_pos *p = &((const exac_state *)st)->pos;
    int me = p->stm, op = !me;
    uint64_t theirs = p->bb[op];
    int no = pc(theirs);
    if (no <= 4) {
        for (int i = 0; i < n; i++)
            out[i] = (theirs >> EX_TO(moves[i]) & 1) ? GV_EXAC_WIN_VICTIM : 0;
        return;
    }
    uint64_t yachi = exac_yachi_of(theirs);
    uint64_t camp = exac_enemy_camp(me);
    /* After a capture from -> to: a = their pieces in the camp, b = mine there. */
    int a0 = pc(theirs & camp), b0 = pc(p->bb[me] & camp);
    const int *mat = gv_exac_weights_default.material;
    int plain = mat[no] - mat[no - 1];
    for (int i = 0; i < n; i++) {
        int from = EX_FROM(moves[i]), to = EX_TO(moves[i]);
        if (!(theirs >> to & 1)) {
            out[i] = 0;
            continue;
        }
        int in_to = (int)(camp >> to & 1), a = a0 - in_to;
        int b = b0 - (int)(camp >> from & 1) + in_to;
        out[i] = (yachi >> to & 1) || (a >= 1 && a == b) ? GV_EXAC_WIN_VICTIM : plain;
    }
}

/* The mover's worth at its side's piece count, more for a Yachi (moving it gives up its
 * boost). */
static int h_mover_value(const void *st, gv_move m)
{
    const exac_pos *p = &((const exac_state *)st)->pos;
    int me = p->stm, from = EX_FROM(m), n = pc(p->bb[me]);
    const int *mat = gv_exac_weights_default.material;
    int v = n >= 1 ? mat[n] - mat[n - 1] : 0;
    return v + (is_yachi(p, me, from) ? GV_EXAC_PAWN / 2 : 0);
}

/* in_check: the side to move has a Yachi (a piece with at least 3 friendly diagonal
 * neighbours) on a square the opponent's pieces could move to, were the opponent to move
 * now -- i.e. the opponent threatens to topple it and win. */
EXAC_INLINE int in_check_cached(const exac_pos *p, exac_cache *c)
{
    uint64_t y = exac_yachi_of(p->bb[p->stm]);
    if (!y)
        return 0;
    return (both_info(p, c)->reach[1] & y) != 0;
}

static int h_in_check(const void *st)
{
    exac_cache c;
    cache_clear(&c);
    return in_check_cached(&((const exac_state *)st)->pos, &c);
}

GV_CLONES static int h_in_check_c(const void *st, void *cache)
{
    return in_check_cached(&((const exac_state *)st)->pos, cache);
}

/* Null move is refused with few pieces (zugzwang is likelier) and when the mover already
 * has camp parity (passing would end the game in its favour by rule 2). */
static int h_null_ok(const void *st)
{
    const exac_pos *p = &((const exac_state *)st)->pos;
    int me = p->stm;
    if (pc(p->bb[me]) < NULL_MIN_PIECES)
        return 0;
    uint64_t camp = exac_enemy_camp(me);
    int a = pc(p->bb[!me] & camp);
    return !(a >= 1 && a == pc(p->bb[me] & camp));
}

/* The rules core's null move (exac_make_null); undo holds the whole exac_pos. */
static void h_make_null(void *st, void *undo)
{
    exac_make_null(st, undo);
}

static void h_unmake_null(void *st, const void *undo)
{
    exac_unmake_null(st, undo);
}

/* Every ending but "no legal move" (which needs move generation and never happens while
 * the mover has a piece), as the rules core decides it. */
static int h_quick_end(const void *st, int *result)
{
    int code = exac_end_code(st);
    if (!code)
        return 0;
    /* Rules 1-3: the side that just moved (not the side to move) has won. */
    *result = code == EXAC_END_REPETITION || code == EXAC_END_QUIET ? 0 : -1;
    return 1;
}

/* Moves of a state h_quick_end found not over: no end checks left to make. */
static int h_moves(const void *st, gv_move *out)
{
    return exac_gen_moves(&((const exac_state *)st)->pos, out);
}

static int h_move_ok(const void *st, gv_move m)
{
    return exac_is_move(&((const exac_state *)st)->pos, m);
}

/* The captures, generated only onto the enemy pieces the mover's pieces reach (from the
 * cache): none at all, often, without a look at any move. */
GV_CLONES static int h_captures(const void *st, gv_move *out, void *cache)
{
    const exac_pos *p = &((const exac_state *)st)->pos;
    const exac_cache *bi = both_info(p, cache);
    if (!(bi->reach[0] & p->bb[!p->stm]))
        return 0;
    exac_roles mine;
    exac_roles2_lane(&bi->r, 0, &mine);
    return exac_gen_captures_roles(p, &mine, bi->reach[0], out);
}

static int h_quiets(const void *st, gv_move *out)
{
    return exac_gen_quiets(&((const exac_state *)st)->pos, out);
}

static uint64_t h_key_after(const void *st, gv_move m)
{
    return exac_key_after(&((const exac_state *)st)->pos, m);
}

const gv_ab_hooks gv_exac_hooks = {
    .eval = h_eval,
    .noisy_moves = h_noisy_moves,
    .victim_value = h_victim_value,
    .mover_value = h_mover_value,
    .in_check = h_in_check,
    .null_ok = h_null_ok,
    .make_null = h_make_null,
    .unmake_null = h_unmake_null,
    .null_undo_size = sizeof(exac_pos),
    .pawn = GV_EXAC_PAWN,
    .quick_end = h_quick_end,
    .moves = h_moves,
    .key_after = h_key_after,
    .victim_values = h_victim_values,
    .cache_size = sizeof(exac_cache),
    .in_check_c = h_in_check_c,
    .eval_c = h_eval_c,
    .noisy_moves_c = h_noisy_moves_c,
    .move_ok = h_move_ok,
    .captures = h_captures,
    .quiets = h_quiets,
    .eval_first = 1,
};

/* ---- Tuning ---------------------------------------------------------------------------
 * gv_exac_weights is all ints, so the tuner's array is the struct itself, field by field in
 * declaration order. */
#define TF(f, n) {#f, offsetof(gv_exac_weights, f), n}
static const gv_tune_field tune_fields[] = {
    TF(material, EX_SQUARES + 1), TF(mobility, 1), TF(tempo, 1), TF(threat, 3),
    TF(hanging, 1), TF(par_attack, GV_EXAC_PAR_SPAN), TF(par_defend, GV_EXAC_PAR_SPAN),
    TF(par_linear, 1), TF(lapah, 1), TF(potersin, 1), TF(adrib, 1), TF(yachi, 1),
    TF(quiet_fade, 1),
};
#undef TF
enum { TUNE_COUNT = (int)(sizeof(gv_exac_weights) / sizeof(int)) };
_Static_assert(sizeof(gv_exac_weights) % sizeof(int) == 0, "gv_exac_weights is all ints");

static void t_defaults(int *w)
{
    memcpy(w, &gv_exac_weights_default, sizeof(gv_exac_weights));
}

static void t_pack(const void *st, void *pos)
{
    memcpy(pos, &((const exac_state *)st)->pos, sizeof(exac_pos));
}

static int t_eval(const void *pos, const int *w)
{
    gv_exac_weights ws;
    memcpy(&ws, w, sizeof ws);
    return gv_exac_eval(pos, &ws);
}

static const gv_eval_tune exac_tune = {
    .count = TUNE_COUNT,
    .fields = tune_fields,
    .nfields = (int)(sizeof tune_fields / sizeof tune_fields[0]),
    .defaults = t_defaults,
    .pos_size = sizeof(exac_pos),
    .pack = t_pack,
    .eval = t_eval,
    .decided = GV_EXAC_WIN,
};

/* The start and positions after a few moves. */
static const gv_bench_pos exac_bench[] = {
    {NULL, "startpos", 8, 0},
    {NULL, "2SS1S1/S1SSSSS/3S1S1/7/2FF3/FF1FF1F/2FFFF1 f 0 5", 9, 0},
    {NULL, "3SSS1/S1SSSS1/3SS2/7/2F4/FFFFFFF/3FF2 f 5 9", 10, 0},
    {NULL, NULL, 0, 0},
};

const gv_ai gv_exac_ai = {
    .ab = &gv_exac_hooks,
    .bench = exac_bench,
    .selfplay_plies = 300,
    .resign_cp = 1500,
    .tune = &exac_tune,
};
