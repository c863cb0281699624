/* Chu Shogi evaluation and the alpha-beta hooks of game "chu": material with promotion
 * potential, piece-square terms, slider mobility, king shelter and danger, lion safety;
 * noisy moves for quiescence, move values for ordering, and the null move. */
#include <stddef.h>
#include <stdint.h>

#include "games/chu/chu.h"
#include "search/chu_eval.h"

/* ---- Tunables ---------------------------------------------------------------------
 * Every weight of the evaluation is here. Rows are "relative rows": 0 is the enemy's
 * back rank, 3 the edge of the promotion zone, 11 the owner's back rank; columns are
 * seen from the owner too (0 = its left edge). */

enum {
    MOB_SLIDE = 4,            /* per square a major slider reaches, two at most per ray */
    LION_HIT_LESSER = 200,    /* mover's Lion attacked by a piece worth less than it */
    LION_HIT_HANGING = 120,   /* mover's Lion attacked by a Lion and unprotected */
    DANGER_QUAD = 512,        /* king danger = units + units^2 / DANGER_QUAD */
    NULL_MIN_PIECES = 6,      /* null move only with this many non-royal pieces */
};

/* Flags: pieces the board pass looks at more closely (EF_MOB: mobility is counted). */
enum { EF_KING = 1, EF_PRINCE = 2, EF_LION = 4, EF_MOB = 8 };

/* The piece table: type, material (the seed's averages x 100), promotion gain (value of
 * the promoted piece - value; 0: cannot promote), kind (which row/column tables below),
 * flags, the relative directions it slides in (bit d = D_F .. D_FL), its worth as a
 * guard next to its own King and its danger near the enemy King. */
#define P CHU_PROMO
#define CHU_EVAL_PIECES(X)                                                   \
    X(CT_LANCE,           300,  400, LANCE, 0,         0x01, 4, 10)          \
    X(CT_LEOPARD,         300,  200, STEP,  0,         0x00, 7, 10)          \
    X(CT_COPPER,          200,  200, STEP,  0,         0x00, 6, 8)           \
    X(CT_SILVER,          200,  200, STEP,  0,         0x00, 6, 8)           \
    X(CT_GOLD,            300,  300, STEP,  0,         0x00, 8, 10)          \
    X(CT_KING,              0,    0, KING,  EF_KING,   0x00, 0, 6)           \
    X(CT_ELEPHANT,        300,  200, STEP,  0,         0x00, 8, 10)          \
    X(CT_CHARIOT,         300,  200, SLIDE, 0,         0x11, 3, 10)          \
    X(CT_BISHOP,          500,  200, SLIDE, 0,         0xAA, 3, 12)          \
    X(CT_TIGER,           300,  300, STEP,  0,         0x00, 8, 10)          \
    X(CT_PHOENIX,         300,  900, STEP,  0,         0x00, 4, 12)          \
    X(CT_KIRIN,           300, 1700, STEP,  0,         0x00, 4, 12)          \
    X(CT_SIDE,            400,  400, SLIDE, 0,         0x44, 4, 12)          \
    X(CT_VERTICAL,        400,  400, SLIDE, 0,         0x11, 4, 12)          \
    X(CT_ROOK,            600,  200, SLIDE, EF_MOB,    0x55, 3, 16)          \
    X(CT_HORSE,           700,  300, SLIDE, EF_MOB,    0xAA, 3, 20)          \
    X(CT_DRAGON,          800,  300, SLIDE, EF_MOB,    0x55, 3, 20)          \
    X(CT_QUEEN,          1200,    0, SLIDE, EF_MOB,    0xFF, 2, 30)          \
    X(CT_LION,           2000,    0, LION,  EF_LION,   0x00, 0, 50)          \
    X(CT_PAWN,            100,  200, PAWN,  0,         0x00, 3, 5)           \
    X(CT_GOBETWEEN,       100,  200, STEP,  0,         0x00, 4, 5)           \
    X(CT_LANCE + P,       700,    0, SLIDE, EF_MOB,    0x93, 3, 16)          \
    X(CT_LEOPARD + P,     500,    0, SLIDE, 0,         0xAA, 3, 12)          \
    X(CT_COPPER + P,      400,    0, SLIDE, 0,         0x44, 4, 12)          \
    X(CT_SILVER + P,      400,    0, SLIDE, 0,         0x11, 4, 12)          \
    X(CT_GOLD + P,        600,    0, SLIDE, EF_MOB,    0x55, 3, 16)          \
    X(CT_ELEPHANT + P,    500,    0, STEP,  EF_PRINCE, 0x00, 8, 10)          \
    X(CT_CHARIOT + P,     500,    0, SLIDE, 0,         0x39, 3, 14)          \
    X(CT_BISHOP + P,      700,    0, SLIDE, EF_MOB,    0xAA, 3, 20)          \
    X(CT_TIGER + P,       600,    0, SLIDE, 0,         0x11, 5, 16)          \
    X(CT_PHOENIX + P,    1200,    0, SLIDE, EF_MOB,    0xFF, 2, 30)          \
    X(CT_KIRIN + P,      2000,    0, LION,  EF_LION,   0x00, 0, 50)          \
    X(CT_SIDE + P,        800,    0, SLIDE, EF_MOB,    0xEE, 3, 24)          \
    X(CT_VERTICAL + P,    800,    0, SLIDE, EF_MOB,    0xBB, 3, 24)          \
    X(CT_ROOK + P,        800,    0, SLIDE, EF_MOB,    0x55, 3, 20)          \
    X(CT_HORSE + P,      1000,    0, SLIDE, EF_MOB,    0xFE, 2, 30)          \
    X(CT_DRAGON + P,     1100,    0, SLIDE, EF_MOB,    0x7D, 2, 30)          \
    X(CT_PAWN + P,        300,    0, STEP,  0,         0x00, 8, 10)          \
    X(CT_GOBETWEEN + P,   300,    0, STEP,  0,         0x00, 8, 10)
/* The promoted types: White Horse, Bishop, Side Mover, Vertical Mover, Rook, Prince
 * (royal), Whale, Dragon Horse, Flying Stag, Queen, Lion, Free Boar, Flying Ox, Dragon
 * King, Horned Falcon, Soaring Eagle, Gold, Drunk Elephant. */

/* Per kind, by relative row 0..11: positional value (ROW_), and the share in 64ths of
 * the promotion gain a promotable piece is worth (FRAC_): most just outside the zone
 * (it may promote on entering), less inside it (only a capture promotes there), little
 * at home; sliders promote more easily than steppers. A Pawn or Lance on row 0 did not
 * promote and can never move again ("dead"). By owner's column 0..11: COL_. */
#define ROW_PAWN   -90, 20, 18, 16, 10, 6, 3, 1, 0, 0, 0, 0
#define FRAC_PAWN  0, 40, 20, 14, 10, 6, 4, 4, 4, 4, 4, 4
#define COL_PAWN   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define ROW_LANCE  -280, 6, 6, 6, 4, 2, 0, 0, 0, 0, 0, 0
#define FRAC_LANCE 0, 20, 20, 20, 22, 18, 14, 12, 12, 12, 12, 12
#define COL_LANCE  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define ROW_STEP   12, 14, 16, 16, 14, 10, 6, 3, 0, 0, 0, 0
#define FRAC_STEP  8, 9, 10, 12, 18, 12, 7, 5, 4, 4, 4, 4
#define COL_STEP   0, 2, 4, 6, 8, 8, 8, 8, 6, 4, 2, 0
#define ROW_SLIDE  8, 8, 8, 8, 6, 6, 6, 4, 4, 2, 0, -6
#define FRAC_SLIDE 12, 12, 12, 12, 24, 20, 18, 16, 14, 12, 12, 12
#define COL_SLIDE  0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0
#define ROW_LION   10, 20, 30, 30, 30, 28, 24, 18, 12, 6, 0, 0
#define FRAC_LION  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define COL_LION   0, 4, 8, 12, 16, 18, 18, 16, 12, 8, 4, 0
#define ROW_KING   -160, -150, -140, -130, -120, -100, -80, -60, -40, -20, -5, 0
#define FRAC_KING  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define COL_KING   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0

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

#define APPLY(m, ...) m(__VA_ARGS__)
/* Material + row value + promotion share of a piece worth v with promotion gain g. */
#define RV(v, g, p, f) ((v) + (p) + (g) * (f) / 64)
/* A 16-entry line indexed by the board row (sq >> 4) or column (sq & 15), borders 0:
 * Sente reads its relative rows / columns in board order, Gote in reverse and negated,
 * so that the sum over the board is Sente's score. */
#define ROWS_S(v, g, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, f0, f1, f2, f3, f4,  \
               f5, f6, f7, f8, f9, f10, f11)                                               \
    {0, 0, RV(v, g, p0, f0), RV(v, g, p1, f1), RV(v, g, p2, f2), RV(v, g, p3, f3),         \
     RV(v, g, p4, f4), RV(v, g, p5, f5), RV(v, g, p6, f6), RV(v, g, p7, f7),               \
     RV(v, g, p8, f8), RV(v, g, p9, f9), RV(v, g, p10, f10), RV(v, g, p11, f11), 0, 0}
#define ROWS_G(v, g, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, f0, f1, f2, f3, f4,  \
               f5, f6, f7, f8, f9, f10, f11)                                               \
    {0, 0, -RV(v, g, p11, f11), -RV(v, g, p10, f10), -RV(v, g, p9, f9), -RV(v, g, p8, f8),  \
     -RV(v, g, p7, f7), -RV(v, g, p6, f6), -RV(v, g, p5, f5), -RV(v, g, p4, f4),           \
     -RV(v, g, p3, f3), -RV(v, g, p2, f2), -RV(v, g, p1, f1), -RV(v, g, p0, f0), 0, 0}
#define COLS_S(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11) \
    {0, 0, c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, 0, 0}
#define COLS_G(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11) \
    {0, 0, -(c11), -(c10), -(c9), -(c8), -(c7), -(c6), -(c5), -(c4), -(c3), -(c2), -(c1), -(c0), 0, 0}

/* Indexed by the piece byte (type | colour). The row and column tables are the core's
 * chu_psq (chu.h): make and unmake keep their sum over the board in pos.psq. */
#define ROWTAB(t, v, g, kind, flags, slides, shell, attack)       \
    [t] = APPLY(ROWS_S, v, g, ROW_##kind, FRAC_##kind),           \
    [(t) | CHU_GOTE] = APPLY(ROWS_G, v, g, ROW_##kind, FRAC_##kind),
#define COLTAB(t, v, g, kind, flags, slides, shell, attack) \
    [t] = APPLY(COLS_S, COL_##kind), [(t) | CHU_GOTE] = APPLY(COLS_G, COL_##kind),
#define FLAGTAB(t, v, g, kind, flags, slides, shell, attack) [t] = flags, [(t) | CHU_GOTE] = flags,
const int16_t chu_psq_row[128][16] = {CHU_EVAL_PIECES(ROWTAB)};
const int16_t chu_psq_col[128][16] = {CHU_EVAL_PIECES(COLTAB)};
static const uint8_t flag_tab[128] = {CHU_EVAL_PIECES(FLAGTAB)};
/* Bit t set: pieces of type t have flags (a closer look in the evaluation). */
#define SPECIALBIT(t, v, g, kind, flags, slides, shell, attack) | ((flags) ? 1ULL << (t) : 0)
static const uint64_t special_types = 0 CHU_EVAL_PIECES(SPECIALBIT);

/* Indexed by type. order_value: material for move ordering, CHU_EVAL_ROYAL for a King or
 * Prince, 0 for CT_NONE. */
#define ORDER(t, v, g, kind, flags, slides, shell, attack) \
    [t] = (t) == CT_KING || (t) == CT_ELEPHANT + P ? CHU_EVAL_ROYAL : (v),
#define SLIDES(t, v, g, kind, flags, slides, shell, attack) [t] = slides,
static const int16_t order_value[CHU_NTYPES] = {CHU_EVAL_PIECES(ORDER)};
static const uint8_t slide_tab[CHU_NTYPES] = {CHU_EVAL_PIECES(SLIDES)};

/* Guard and danger weights indexed by a board byte XOR a colour bit: an own (for guards)
 * or enemy (for danger) piece lands on its type, anything else on 0. */
#define SHELL(t, v, g, kind, flags, slides, shell, attack) [t] = shell,
#define ATTACK(t, v, g, kind, flags, slides, shell, attack) [t] = attack,
static const uint8_t shell_tab[256] = {CHU_EVAL_PIECES(SHELL)};
static const uint8_t attack_tab[256] = {CHU_EVAL_PIECES(ATTACK)};
#undef P

int gv_chu_piece_value(int type)
{
    if (type <= CT_NONE || type >= CHU_NTYPES)
        return 0;
    return order_value[type];
}

/* ---- Evaluation ---------------------------------------------------------------- */

/* What a slider meets on a square, indexed by the board byte XOR the slider's colour
 * bit: 0 empty (0, or 0 ^ CHU_GOTE), 1 an enemy piece, 2 an own piece or the edge. */
static const uint8_t meet_tab[256] = {
    [1 ... CHU_NTYPES - 1] = 2,
    [CHU_GOTE + 1 ... CHU_GOTE + CHU_NTYPES - 1] = 1,
    [CHU_EDGE] = 2,
    [CHU_EDGE | CHU_GOTE] = 2,
};
/* Squares counted for a ray by what its first and second squares hold: an empty first
 * square counts, and the second if it is empty or an enemy; an enemy first square counts
 * alone. */
static const uint8_t ray_mob[3][3] = {{2, 2, 1}, {1, 1, 1}, {0, 0, 0}};

/* Squares a slider reaches along its slide rays, looking two squares deep (the second
 * square of a ray is inside the two-square border even when the first is an edge). */
static inline int slider_mobility(const uint8_t *b, int sq, unsigned mask, const int8_t *dir,
                                  int own)
{
    int n = 0;
    for (; mask; mask &= mask - 1) {
        int v = dir[__builtin_ctz(mask)];
        n += ray_mob[meet_tab[b[sq + v] ^ own]][meet_tab[b[sq + 2 * v] ^ own]];
    }
    return n;
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
static int king_safety(const chu_pos *p, int ks, int side)
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
    return shelter - units - units * units / DANGER_QUAD;
}

/* Static evaluation in centipawns for the side to move.
 * Step 1. Material, promotion potential, rows and columns (chu_psq, summed by the
 *         core as pos.psq); one pass over the pieces (the core's occupancy bits) for
 *         slider mobility, and to note Kings and the mover's Lions.
 * Step 2. King shelter and danger around each King.
 * Step 3. Lion safety of the side to move. */
static int chu_eval(void *st)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    const uint8_t *b = p->board;
    int stm = p->stm;
    int score = p->psq;             /* Sente's view */
    int king[2] = {0, 0}, prince[2] = {0, 0};
    int lions[4], nlions = 0;

    /* Step 1: the table terms of every piece are the core's running sum (psq). A
     * branch-free pass marks the pieces needing a closer look, then those, in square
     * order. */
    for (int w = 0; w < CHU_OCC_WORDS; w++) {
        uint64_t special = 0;
        for (uint64_t bits = p->occ[0][w] | p->occ[1][w]; bits; bits &= bits - 1) {
            int i = __builtin_ctzll(bits);
            special |= (special_types >> (b[64 * w + i] & 0x3F) & 1) << i;
        }
        for (; special; special &= special - 1) {
            int sq = 64 * w + __builtin_ctzll(special), pc = b[sq], fl = flag_tab[pc];
            int side = pc >> 6;
            if (fl & EF_MOB) {
                int m = MOB_SLIDE * slider_mobility(b, sq, slide_tab[pc & 0x3F],
                                                    chu_dir[side], pc & CHU_GOTE);
                score += side ? -m : m;
            } else if (fl & EF_KING) {
                king[side] = sq;
            } else if (fl & EF_PRINCE) {
                prince[side] = sq;
            } else if (side == stm && nlions < 4) {
                lions[nlions++] = sq;
            }
        }
    }

    /* Step 2: a Prince stands in for a missing King. */
    for (int side = 0; side < 2; side++) {
        int ks = king[side] ? king[side] : prince[side];
        if (ks) {
            int k = king_safety(p, ks, side);
            score += side ? -k : k;
        }
    }

    /* Step 3 */
    int lion = 0;
    for (int i = 0; i < nlions; i++) {
        if (!chu_attacked(b, lions[i], !stm))
            continue;
        if (attacked_by_lesser(b, lions[i], !stm))
            lion -= LION_HIT_LESSER;
        else if (!chu_attacked(b, lions[i], stm))
            lion -= LION_HIT_HANGING;
    }

    return (stm ? -score : score) + lion + CHU_EVAL_TEMPO;
}

/* ---- Moves for quiescence and ordering ------------------------------------------ */

/* Captures, plus the quiet promotions of a Kirin (to Lion) or Phoenix (to Queen): the
 * two promotions worth more than most captures. */
static int chu_noisy(void *st, gv_move *out)
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
    return order_value[CHU_TYPE(b[CHU_FROM(m)])];
}

static int chu_hook_in_check(const void *st)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    return chu_in_check(p, p->stm);
}

/* The endings the core decides without move generation (chu_end_by_material: a royal
 * captured, a bare king). Repetition and "only the two Kings" are left to legal_moves. */
static int chu_quick_end(void *st, int *result)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    int winner;
    if (!chu_end_by_material(p, &winner, NULL))
        return 0;
    *result = winner == p->stm ? 1 : -1;
    return 1;
}

/* The moves of a state chu_quick_end found not over: the core's legal moves without
 * asking chu_end_by_material again. */
static int chu_hook_moves(void *st, gv_move *out)
{
    return chu_legal_moves_unless_drawn(st, out);
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
    .game = "chu",
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
};
