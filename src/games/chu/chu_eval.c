/* Chu Shogi evaluation and the alpha-beta hooks of game "chu": material with promotion
 * potential, piece-square terms, slider mobility, king shelter and danger, lion safety;
 * noisy moves for quiescence, move values for ordering, and the null move. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "games/chu/chu.h"
#include "games/chu/chu_psq.h"
#include "games/chu/chu_eval.h"

/* ---- Tunables ---------------------------------------------------------------------
 * Every weight of the evaluation is here, except material, promotion potential and the
 * row and column values: those are the rules core's piece-square tables (games/chu/
 * chu_psq.h and chu_psq.c), as make and unmake keep their sum over the board.
 * gv_chu_weights_default (below) holds them all. */

enum {
    MOB_SLIDE = 4,            /* per square a major slider reaches, two at most per ray */
    LION_HIT_LESSER = 200,    /* mover's Lion attacked by a piece worth less than it */
    LION_HIT_HANGING = 120,   /* mover's Lion attacked by a Lion and unprotected */
    DANGER_QUAD = 512,        /* king danger = units + units^2 / DANGER_QUAD */
    NULL_MIN_PIECES = 6,      /* null move only with this many non-royal pieces */
};

/* Flags: pieces the evaluation looks at more closely (EF_MOB: mobility is counted; EF_LION:
 * safety of the mover's Lions). Kings and Princes are the core's royal bits. */
enum { EF_LION = 4, EF_MOB = 8 };

/* The piece table (material, promotion gain and the row and column weights are the
 * core's chu_psq.h / chu_psq.c, which make and unmake sum over the board as pos.psq):
 * type, flags, the relative directions it slides in (bit d = D_F .. D_FL), its worth as
 * a guard next to its own King and its danger near the enemy King. */
#define P CHU_PROMO
/*    type              flags      slides shell attack */
#define CHU_EVAL_PIECES(X)                       \
    X(CT_LANCE,         0,         0x01, 4, 10)  \
    X(CT_LEOPARD,       0,         0x00, 7, 10)  \
    X(CT_COPPER,        0,         0x00, 6, 8)   \
    X(CT_SILVER,        0,         0x00, 6, 8)   \
    X(CT_GOLD,          0,         0x00, 8, 10)  \
    X(CT_KING,          0,         0x00, 0, 6)   \
    X(CT_ELEPHANT,      0,         0x00, 8, 10)  \
    X(CT_CHARIOT,       0,         0x11, 3, 10)  \
    X(CT_BISHOP,        0,         0xAA, 3, 12)  \
    X(CT_TIGER,         0,         0x00, 8, 10)  \
    X(CT_PHOENIX,       0,         0x00, 4, 12)  \
    X(CT_KIRIN,         0,         0x00, 4, 12)  \
    X(CT_SIDE,          0,         0x44, 4, 12)  \
    X(CT_VERTICAL,      0,         0x11, 4, 12)  \
    X(CT_ROOK,          EF_MOB,    0x55, 3, 16)  \
    X(CT_HORSE,         EF_MOB,    0xAA, 3, 20)  \
    X(CT_DRAGON,        EF_MOB,    0x55, 3, 20)  \
    X(CT_QUEEN,         EF_MOB,    0xFF, 2, 30)  \
    X(CT_LION,          EF_LION,   0x00, 0, 50)  \
    X(CT_PAWN,          0,         0x00, 3, 5)   \
    X(CT_GOBETWEEN,     0,         0x00, 4, 5)   \
    X(CT_LANCE + P,     EF_MOB,    0x93, 3, 16)  \
    X(CT_LEOPARD + P,   0,         0xAA, 3, 12)  \
    X(CT_COPPER + P,    0,         0x44, 4, 12)  \
    X(CT_SILVER + P,    0,         0x11, 4, 12)  \
    X(CT_GOLD + P,      EF_MOB,    0x55, 3, 16)  \
    X(CT_ELEPHANT + P,  0,         0x00, 8, 10)  \
    X(CT_CHARIOT + P,   0,         0x39, 3, 14)  \
    X(CT_BISHOP + P,    EF_MOB,    0xAA, 3, 20)  \
    X(CT_TIGER + P,     0,         0x11, 5, 16)  \
    X(CT_PHOENIX + P,   EF_MOB,    0xFF, 2, 30)  \
    X(CT_KIRIN + P,     EF_LION,   0x00, 0, 50)  \
    X(CT_SIDE + P,      EF_MOB,    0xEE, 3, 24)  \
    X(CT_VERTICAL + P,  EF_MOB,    0xBB, 3, 24)  \
    X(CT_ROOK + P,      EF_MOB,    0x55, 3, 20)  \
    X(CT_HORSE + P,     EF_MOB,    0xFE, 2, 30)  \
    X(CT_DRAGON + P,    EF_MOB,    0x7D, 2, 30)  \
    X(CT_PAWN + P,      0,         0x00, 8, 10)  \
    X(CT_GOBETWEEN + P, 0,         0x00, 8, 10)

/* King shelter: weight of a guard on each square next to its King, by relative
 * direction (D_F .. D_FL): the front three most, the sides, then behind. */
static const uint8_t shell_dir[8] = {3, 3, 2, 1, 1, 1, 2, 3};
/* King danger: weight of an enemy on the 5x5 area around a King (board rows top to
 * bottom, columns left to right; the King in the middle). */
static const uint8_t danger_w[5][5] = {
    {1, 1, 1, 1, 1},
    {1, 3, 3, 3, 1},
    {1, 3, 0, 3, 1},
    {1, 3, 3, 3, 1},
    {1, 1, 1, 1, 1},
};

/* ---- Tables built from the tunables at compile time ----------------------------- */

/* Bit t set: pieces of type t have flags (a closer look in the evaluation). */
#define SPECIALBIT(t, flags, slides, shell, attack) | ((flags) ? 1ULL << (t) : 0)
static const uint64_t special_types = 0 CHU_EVAL_PIECES(SPECIALBIT);

/* Indexed by type. order_value: material for move ordering, CHU_EVAL_ROYAL for a King or
 * Prince, 0 for CT_NONE. */
#define ORDER(t, v, g, kind) [t] = (t) == CT_KING || (t) == CT_PRINCE ? CHU_EVAL_ROYAL : (v),
static const int16_t order_value[CHU_NTYPES] = {CHU_PSQ_PIECES(ORDER)};

/* Guard and danger weights indexed by a board byte XOR a colour bit: an own (for guards)
 * or enemy (for danger) piece lands on its type, anything else on 0. */
#define SHELL(t, flags, slides, shell, attack) [t] = shell,
#define ATTACK(t, flags, slides, shell, attack) [t] = attack,
static const uint8_t shell_tab[256] = {CHU_EVAL_PIECES(SHELL)};
static const uint8_t attack_tab[256] = {CHU_EVAL_PIECES(ATTACK)};
#undef P

int gv_chu_piece_value(int type)
{
    if (type <= CT_NONE || type >= CHU_NTYPES)
        return 0;
    return order_value[type];
}

/* The kind (row and column weights) of each type: 1 + its index in gv_chu_weights's
 * kinds, 0 for the types CHU_PSQ_PIECES does not list (worth nothing). */
enum { K_PAWN, K_LANCE, K_STEP, K_SLIDE, K_LION, K_KING, K_COUNT };
#define KINDOF(t, v, g, kind) [t] = K_##kind + 1,
static const uint8_t kind_of[CHU_NTYPES] = {CHU_PSQ_PIECES(KINDOF)};

#define MATERIAL(t, v, g, kind) [t] = v,
#define PROMOTION(t, v, g, kind) [t] = g,
const gv_chu_weights gv_chu_weights_default = {
    .material = {CHU_PSQ_PIECES(MATERIAL)},
    .promotion = {CHU_PSQ_PIECES(PROMOTION)},
    .row_pawn = {ROW_PAWN}, .frac_pawn = {FRAC_PAWN}, .col_pawn = {COL_PAWN},
    .row_lance = {ROW_LANCE}, .frac_lance = {FRAC_LANCE}, .col_lance = {COL_LANCE},
    .row_step = {ROW_STEP}, .frac_step = {FRAC_STEP}, .col_step = {COL_STEP},
    .row_slide = {ROW_SLIDE}, .frac_slide = {FRAC_SLIDE}, .col_slide = {COL_SLIDE},
    .row_lion = {ROW_LION}, .frac_lion = {FRAC_LION}, .col_lion = {COL_LION},
    .row_king = {ROW_KING}, .frac_king = {FRAC_KING}, .col_king = {COL_KING},
    .mobility = MOB_SLIDE,
    .lion_hit_lesser = LION_HIT_LESSER,
    .lion_hit_hanging = LION_HIT_HANGING,
    .danger_quad = DANGER_QUAD,
    .tempo = CHU_EVAL_TEMPO,
};

/* Where each kind's row, promotion-share and column weights are in gv_chu_weights. */
static const size_t kind_rows[K_COUNT][3] = {
#define KROW(k) {offsetof(gv_chu_weights, row_##k), offsetof(gv_chu_weights, frac_##k), \
                 offsetof(gv_chu_weights, col_##k)}
    KROW(pawn), KROW(lance), KROW(step), KROW(slide), KROW(lion), KROW(king),
#undef KROW
};

static const int *kind_weights(const gv_chu_weights *w, int kind, int which)
{
    return (const int *)((const char *)w + kind_rows[kind][which]);
}

/* The sum chu_psq.c's tables give (pos.psq: Sente's view), computed from w. */
static int psq_of(const chu_pos *p, const gv_chu_weights *w)
{
    int sum = 0;
    for (int r = 0; r < 12; r++)
        for (int c = 0; c < 12; c++) {
            int pc = p->board[CHU_SQ(r, c)];
            if (!pc)
                continue;
            int t = CHU_TYPE(pc), side = CHU_COLOR(pc), k = kind_of[t];
            int v = w->material[t];
            if (k) {
                int rr = side ? 11 - r : r, cc = side ? 11 - c : c;
                v += kind_weights(w, k - 1, 0)[rr] +
                     w->promotion[t] * kind_weights(w, k - 1, 1)[rr] / 64 +
                     kind_weights(w, k - 1, 2)[cc];
            }
            sum += side ? -v : v;
        }
    return sum;
}

/* ---- Evaluation ---------------------------------------------------------------- */

/* ---- Slider mobility, a neighbourhood at a time ------------------------------------
 * The squares one step away from a piece are flag bits of a word, bit 8k + j for column
 * offset k - 1 and row offset j - 1 (rows from the top of the board: Sente's front row is
 * j = 0, the layout of the core's capture generator); the squares two steps away in the
 * same directions (offsets doubled) sit on the same bits of a second word. A ray then is
 * one bit in both words. */
#define NB_BIT(m, d, pos) ((((unsigned)(m) >> (d)) & 1u) << (pos))
#define NB_LAYOUT(m)                                                                     \
    (NB_BIT(m, D_FL, 0) | NB_BIT(m, D_F, 8) | NB_BIT(m, D_FR, 16) | NB_BIT(m, D_L, 1) |   \
     NB_BIT(m, D_R, 17) | NB_BIT(m, D_BL, 2) | NB_BIT(m, D_B, 10) | NB_BIT(m, D_BR, 18))
/* Gote's relative direction d is Sente's direction d + 4. */
#define NB_ROT4(m) ((((unsigned)(m) << 4) | ((unsigned)(m) >> 4)) & 0xFFu)
/* Slide rays of the pieces whose mobility counts (EF_MOB) in that layout, by piece byte. */
#define MOBRAYS(t, flags, slides, shell, attack)                          \
    [t] = ((flags) & EF_MOB) ? NB_LAYOUT(slides) : 0,                    \
    [(t) | CHU_GOTE] = ((flags) & EF_MOB) ? NB_LAYOUT(NB_ROT4(slides)) : 0,
#define P CHU_PROMO
static const uint32_t mob_rays[128] = {CHU_EVAL_PIECES(MOBRAYS)};
#undef P

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the SWAR helpers read little-endian");

static inline uint32_t ld32(const uint8_t *p)
{
    uint32_t x;
    memcpy(&x, p, sizeof x);
    return x;
}

static inline uint64_t ld64(const uint8_t *p)
{
    uint64_t x;
    memcpy(&x, p, sizeof x);
    return x;
}

/* Flags (bit 0 of each byte) of the bytes of x a piece of colour bit `own` may move to:
 * empty or an enemy (a type, of the other colour), not its own nor the edge (0x80, no
 * type bits). */
static inline uint64_t swar_open(uint64_t x, unsigned own)
{
    const uint64_t low6 = 0x3F3F3F3F3F3F3F3FULL, bit6 = 0x4040404040404040ULL;
    uint64_t mine = ((x & low6) + low6) & bit6 & (own ? x : ~x);
    uint64_t edge = (x >> 1) & bit6;
    return (~(mine | edge) & bit6) >> 6;
}

/* Flags of the empty bytes of x. */
static inline uint64_t swar_empty(uint64_t x)
{
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
    return (~(((x & low7) + low7) | x) & 0x8080808080808080ULL) >> 7;
}

/* Squares a slider on sq (colour bit own, rays in the layout) reaches along its rays,
 * looking two squares deep: a ray counts its first square if empty or an enemy, and its
 * second too if the first is empty and the second empty or an enemy. The second squares
 * lie inside the two-square border (every load stays on the board's 256 bytes). */
static inline int slider_mobility(const uint8_t *b, int sq, uint32_t rays, unsigned own)
{
    uint32_t a = ld32(b + sq - 17), m = ld32(b + sq - 1), c = ld32(b + sq + 15);
    uint32_t open1 = (uint32_t)(swar_open(a, own) | swar_open(m, own) << 1 |
                                swar_open(c, own) << 2);
    uint32_t empty1 = (uint32_t)(swar_empty(a) | swar_empty(m) << 1 | swar_empty(c) << 2);
    /* Rows -2, 0, +2; columns -2, 0, +2 are bytes 0, 2, 4 (bits 0, 16, 32), packed to
     * bits 0, 8, 16. */
    const uint64_t cols = 0x0000000100010001ULL;
    uint64_t f = (swar_open(ld64(b + sq - 34), own) & cols) |
                 (swar_open(ld64(b + sq - 2), own) & cols) << 1 |
                 (swar_open(ld64(b + sq + 27), own) >> 24 & cols) << 2;
    uint32_t open2 = (uint32_t)((f & 0x7) | (f >> 8 & 0x700) | (f >> 16 & 0x70000));
    return __builtin_popcount(open1 & rays) + __builtin_popcount(empty1 & open2 & rays);
}

/* Is sq attacked by a piece of side `by` other than a Lion (so worth less than one)? */
static int attacked_by_lesser(const uint8_t *b, int sq, int by)
{
    for (int d = 0; d < 8; d++) {
        int v = chu_dir[0][d];
        int rel = by == CHU_SENTE ? (d + 4) & 7 : d;
        int s = sq + v, k = 1;
        while (!b[s]) {
            s += v;
            k++;
        }
        int p = b[s];
        if (p != CHU_EDGE && CHU_COLOR(p) == by && !chu_is_lion(CHU_TYPE(p))) {
            int code = chu_moves[CHU_TYPE(p)][rel];
            if (code == MV_SLIDE || (k == 1 && (code == MV_STEP || code == MV_LIONLINE)))
                return 1;
        }
        int p2 = b[sq + 2 * v];
        if (p2 && p2 != CHU_EDGE && CHU_COLOR(p2) == by && !chu_is_lion(CHU_TYPE(p2))) {
            int code = chu_moves[CHU_TYPE(p2)][rel];
            if (code == MV_JUMP || code == MV_LIONLINE)
                return 1;
        }
    }
    return 0;
}

/* Shelter minus danger around the King of `side` on ks. The enemies of the 5x5 area
 * are read from the occupancy bits, five squares of a row at a time (a row's 16 squares
 * never straddle two words; rows beyond the board's edge hold no bits). */
static inline int king_safety(const chu_pos *p, int ks, int side, int danger_quad)
{
    const uint8_t *b = p->board;
    unsigned own = side ? CHU_GOTE : 0, enemy = own ^ CHU_GOTE;
    const int8_t *dir = chu_dir[side];
    const uint64_t *occ = p->occ[!side];
    int shelter = 0, units = 0;
    for (int d = 0; d < 8; d++)
        shelter += shell_tab[b[ks + dir[d]] ^ own] * shell_dir[d];
    for (int dr = 0; dr < 5; dr++) {
        int row0 = ks + CHU_W * (dr - 2) - 2;
        for (unsigned m = (unsigned)(occ[row0 >> 6] >> (row0 & 63)) & 0x1Fu; m; m &= m - 1) {
            int dc = __builtin_ctz(m);
            units += attack_tab[b[row0 + dc] ^ enemy] * danger_w[dr][dc];
        }
    }
    return shelter - units - units * units / danger_quad;
}

/* Static evaluation in centipawns for the side to move, psq being the table terms'
 * sum (Sente's view) and wt the other weights.
 * Step 1. Material, promotion potential, rows and columns (chu_psq, summed by the
 *         core as pos.psq); one pass over the far pieces (the core's far bits) for
 *         slider mobility and the mover's Lions, and the Kings from the royal bits.
 * Step 2. King shelter and danger around each King.
 * Step 3. Lion safety of the side to move. */
static inline int eval_with(const chu_pos *p, int psq, const gv_chu_weights *wt)
{
    const uint8_t *b = p->board;
    int stm = p->stm;
    int score = psq;                /* Sente's view */
    int king[2] = {0, 0}, prince[2] = {0, 0};
    int lions[4], nlions = 0;

    /* Step 1: the table terms of every piece are the core's running sum (psq). A
     * branch-free pass over the pieces that reach beyond their neighbours (the core's
     * far bits) marks those needing a closer look, then those, in square order. */
    for (int w = 0; w < CHU_OCC_WORDS; w++) {
        uint64_t special = 0;
        for (uint64_t bits = p->far[w]; bits; bits &= bits - 1) {
            int i = __builtin_ctzll(bits);
            special |= (special_types >> (b[64 * w + i] & 0x3F) & 1) << i;
        }
        for (; special; special &= special - 1) {
            int sq = 64 * w + __builtin_ctzll(special), pc = b[sq];
            int side = pc >> 6;
            uint32_t rays = mob_rays[pc];
            if (rays) {
                int m = wt->mobility * slider_mobility(b, sq, rays, pc & CHU_GOTE);
                score += side ? -m : m;
            } else if (side == stm && nlions < 4) {
                lions[nlions++] = sq;
            }
        }
        /* Kings and Princes (the core's royal bits). */
        for (uint64_t bits = p->royal[w]; bits; bits &= bits - 1) {
            int sq = 64 * w + __builtin_ctzll(bits), pc = b[sq];
            if (CHU_TYPE(pc) == CT_KING)
                king[pc >> 6] = sq;
            else
                prince[pc >> 6] = sq;
        }
    }

    /* Step 2: a Prince stands in for a missing King. */
    for (int side = 0; side < 2; side++) {
        int ks = king[side] ? king[side] : prince[side];
        if (ks) {
            int k = king_safety(p, ks, side, wt->danger_quad);
            score += side ? -k : k;
        }
    }

    /* Step 3 */
    int lion = 0;
    for (int i = 0; i < nlions; i++) {
        if (!chu_attacked(b, lions[i], !stm))
            continue;
        if (attacked_by_lesser(b, lions[i], !stm))
            lion -= wt->lion_hit_lesser;
        else if (!chu_attacked(b, lions[i], stm))
            lion -= wt->lion_hit_hanging;
    }

    /* Heisei: a reserve piece is worth what it is on the board (it can come in anywhere
     * next to one's own pieces, promoted inside the zone). */
    if (p->opt.heisei)
        for (int k = 0; k < CHU_HAND_KINDS; k++)
            score += (p->hand[0][k] - p->hand[1][k]) * wt->material[chu_hand_type[k]];

    return (stm ? -score : score) + lion + wt->tempo;
}

/* The hooks' evaluation: the defaults, the table terms from the core's running sum. */
static int chu_eval(const void *st)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    return eval_with(p, p->psq, &gv_chu_weights_default);
}

int gv_chu_eval(const chu_pos *p, const gv_chu_weights *w)
{
    return eval_with(p, psq_of(p, w), w);
}

/* ---- Moves for quiescence and ordering ------------------------------------------ */

/* Captures, plus the quiet promotions of a Kirin (to Lion) or Phoenix (to Queen): the
 * two promotions worth more than most captures. */
static int chu_noisy(const void *st, gv_move *out)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    int n = chu_gen_captures(p, out);
    return n + chu_gen_quiet_promotions(p, 1ULL << CT_KIRIN | 1ULL << CT_PHOENIX, out + n);
}

/* A capture of the last royal wins the game: it is worth more than any material, so
 * that quiescence's delta pruning never drops it. */
static int chu_capture_value(const chu_pos *p, int pc)
{
    int t = CHU_TYPE(pc);
    if (chu_is_royal(t) && p->royals[CHU_COLOR(pc)] == 1)
        return CHU_EVAL_WIN_VICTIM;
    return order_value[t];
}

/* A drop captures nothing: its mid (the piece type, at most 21) names a border square,
 * whose byte is CHU_EDGE, of type 0 and value 0 -- so the victim values need no test. */
static int chu_victim_value(const void *st, gv_move m)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    const uint8_t *b = p->board;
    int from = CHU_FROM(m), to = CHU_TO(m), mid = CHU_MID(m), v = 0;
    if (mid)
        v += chu_capture_value(p, b[mid]);
    if (to != from && b[to])
        v += chu_capture_value(p, b[to]);
    return v;
}

static void chu_victim_values(const void *st, const gv_move *moves, int n, int *out)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    const uint8_t *b = p->board;
    for (int i = 0; i < n; i++) {
        gv_move m = moves[i];
        int from = CHU_FROM(m), to = CHU_TO(m), mid = CHU_MID(m), v = 0;
        if (mid)
            v += chu_capture_value(p, b[mid]);
        if (to != from && b[to])
            v += chu_capture_value(p, b[to]);
        out[i] = v;
    }
}

static int chu_mover_value(const void *st, gv_move m)
{
    const uint8_t *b = ((const chu_state *)st)->pos.board;
    if (CHU_FLAGS(m) & CHU_MF_DROP)
        return order_value[CHU_MID(m)];
    return order_value[CHU_TYPE(b[CHU_FROM(m)])];
}

static int chu_hook_in_check(const void *st)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    return chu_in_check(p, p->stm);
}

/* Every ending the core decides without move generation (chu_ended_by_rule: a royal
 * captured, a bare king, only the two royals left, repetition), before the node searches
 * any move: the table move alone comes first (staged generation). */
static int chu_quick_end(const void *st, int *result)
{
    gv_result r;
    if (!chu_ended_by_rule(st, &r))
        return 0;
    *result = r.status == GV_DRAW ? 0 : r.winner == ((const chu_state *)st)->pos.stm ? 1 : -1;
    return 1;
}

/* The moves of a state chu_quick_end found not over: no end checks left to make (but
 * repetition=strict|jcsa forbid some returns to earlier positions). */
static int chu_hook_moves(const void *st, gv_move *out)
{
    const chu_state *s = st;
    int n = chu_gen_moves(&s->pos, out);
    return s->pos.opt.repetition >= CHU_REP_STRICT ? chu_rep_filter(s, out, n) : n;
}

/* Staged generation (search.h): the table move checked alone, then the captures, then the
 * other moves. */
static int chu_move_ok(const void *st, gv_move m)
{
    const chu_state *s = st;
    return chu_is_move(&s->pos, m) &&
           (s->pos.opt.repetition < CHU_REP_STRICT || chu_rep_allows(s, m));
}

static int chu_captures(const void *st, gv_move *out, void *cache)
{
    (void)cache;
    return chu_gen_captures(&((const chu_state *)st)->pos, out);
}

static int chu_quiets(const void *st, gv_move *out)
{
    /* Captures and promotions never return to an earlier position: only quiet moves may
     * be forbidden by the repetition rule. */
    const chu_state *s = st;
    int n = chu_gen_quiets(&s->pos, out);
    return s->pos.opt.repetition >= CHU_REP_STRICT ? chu_rep_filter(s, out, n) : n;
}

static uint64_t chu_hook_key_after(const void *st, gv_move m)
{
    return chu_key_after(&((const chu_state *)st)->pos, m);
}

/* ---- Null move ------------------------------------------------------------------
 * The core passes the turn (chu_make_null). Repetition sees no false cycle after a null
 * move: the key carries the side to move, so no position before the null move matches
 * one after it. */
static int chu_null_ok(const void *st)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    return p->count[p->stm] - p->royals[p->stm] >= NULL_MIN_PIECES;
}

static void chu_hook_make_null(void *st, void *undo)
{
    chu_make_null(&((chu_state *)st)->pos, undo);
}

static void chu_hook_unmake_null(void *st, const void *undo)
{
    chu_unmake_null(&((chu_state *)st)->pos, undo);
}

const gv_ab_hooks gv_chu_hooks = {
    .eval = chu_eval,
    .noisy_moves = chu_noisy,
    .victim_value = chu_victim_value,
    .mover_value = chu_mover_value,
    .in_check = chu_hook_in_check,
    .null_ok = chu_null_ok,
    .make_null = chu_hook_make_null,
    .unmake_null = chu_hook_unmake_null,
    .null_undo_size = sizeof(chu_null_undo),
    .pawn = CHU_EVAL_PAWN,
    .quick_end = chu_quick_end,
    .moves = chu_hook_moves,
    .key_after = chu_hook_key_after,
    .victim_values = chu_victim_values,
    .move_ok = chu_move_ok,
    .captures = chu_captures,
    .quiets = chu_quiets,
};

/* ---- Tuning ---------------------------------------------------------------------
 * gv_chu_weights is all ints, so the tuner's array is the struct itself, field by field in
 * declaration order. */
#define TF(f, n) {#f, offsetof(gv_chu_weights, f), n}
#define TK(k) TF(row_##k, 12), TF(frac_##k, 12), TF(col_##k, 12)
static const gv_tune_field tune_fields[] = {
    TF(material, CHU_NTYPES), TF(promotion, CHU_NTYPES), TK(pawn), TK(lance), TK(step),
    TK(slide), TK(lion), TK(king), TF(mobility, 1), TF(lion_hit_lesser, 1),
    TF(lion_hit_hanging, 1), TF(danger_quad, 1), TF(tempo, 1),
};
#undef TK
#undef TF
enum { TUNE_COUNT = (int)(sizeof(gv_chu_weights) / sizeof(int)) };
_Static_assert(sizeof(gv_chu_weights) % sizeof(int) == 0, "gv_chu_weights is all ints");

static void t_defaults(int *w)
{
    memcpy(w, &gv_chu_weights_default, sizeof(gv_chu_weights));
}

static void t_pack(const void *st, void *pos)
{
    memcpy(pos, &((const chu_state *)st)->pos, sizeof(chu_pos));
}

static int t_eval(const void *pos, const int *w)
{
    gv_chu_weights ws;
    memcpy(&ws, w, sizeof ws);
    if (ws.danger_quad < 1)
        ws.danger_quad = 1;
    return gv_chu_eval(pos, &ws);
}

static const gv_eval_tune chu_tune = {
    .count = TUNE_COUNT,
    .fields = tune_fields,
    .nfields = (int)(sizeof tune_fields / sizeof tune_fields[0]),
    .defaults = t_defaults,
    .pos_size = sizeof(chu_pos),
    .pack = t_pack,
    .eval = t_eval,
    .decided = GV_MATE_BOUND,
};

/* The start, a middlegame with lions and a Falcon, lion tactics, an endgame with promoted
 * pieces. */
static const gv_bench_pos chu_bench[] = {
    {NULL, "startpos", 7, 0},
    {NULL, "lfcsgekgscfl/a1b1txot1b1a/mvrhdq1dhrvm/pppppppppppp/3i4i3/12/6n5/3I4I3/"
           "PPPPPPPPPPPP/MVRHD1QDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - 1", 6, 0},
    {NULL, "5k6/12/3g1p2g3/4pn1p4/5I6/3N1b6/6P5/2+H9/12/12/4+D7/5K6 b - 1", 7, 0},
    {NULL, "4k7/3n1n6/2g1s1p5/3P1P6/4N7/12/3+H4+d3/12/12/5+D6/5K6/12 b - 1", 7, 0},
    {NULL, "3k8/3p1p6/2+h1r7/12/12/4+D1+d5/12/2P1+H7/12/12/12/6K5 b - 1", 7, 0},
    {NULL, "lfcsgekgscfl/a1b1txot1bva/mvr1dq1d1r1m/pppp1p1pp1p1/3ipn3p1p/6pN3h/8I3/"
           "3IP2P3Q/PPPP1PP1PPPP/MVRHD2D1RVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 25", 7, 0},
    {NULL, NULL, 0, 0},
};

/* Time management: the plies a game may still last. Chu games are long and their end is
 * hard to foresee from the board: in games against HaChu at 10+0.1 s the plies still to
 * come stayed near 150-250 (median) whatever the material, as long endgames with few
 * pieces are common. So the estimate leans only a little on the pieces left, on the
 * board and in hand: TM_PLIES_BASE plus one ply per piece (92 at the start: 192 plies,
 * 96 moves each; 20 pieces: 120). */
enum { TM_PLIES_BASE = 100 };

static int chu_plies_left(const void *st)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    int pieces = p->count[0] + p->count[1];
    for (int k = 0; k < CHU_HAND_KINDS; k++)
        pieces += p->hand[0][k] + p->hand[1][k];
    return TM_PLIES_BASE + pieces;
}

const gv_ai gv_chu_ai = {
    .ab = &gv_chu_hooks,
    .plies_left = chu_plies_left,
    .bench = chu_bench,
    .selfplay_plies = 500,
    .resign_cp = 2500,
    .tune = &chu_tune,
};
