/* Chu Shogi evaluation and the alpha-beta hooks of game "chu": material with promotion
 * potential, piece-square terms, slider mobility, king shelter and danger, lion safety;
 * noisy moves for quiescence, move values for ordering, and the null move. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
/* King danger: weight of an enemy on the 5x5 area around a King (square offsets). */
static const struct {
    int8_t off;
    uint8_t w;
} danger_sq[24] = {
    {-34, 1}, {-33, 1}, {-32, 1}, {-31, 1}, {-30, 1},
    {-18, 1}, {-17, 3}, {-16, 3}, {-15, 3}, {-14, 1},
    {-2, 1},  {-1, 3},            {1, 3},   {2, 1},
    {14, 1},  {15, 3},  {16, 3},  {17, 3},  {18, 1},
    {30, 1},  {31, 1},  {32, 1},  {33, 1},  {34, 1},
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

/* Indexed by the piece byte (type | colour). */
#define ROWTAB(t, v, g, kind, flags, slides, shell, attack)       \
    [t] = APPLY(ROWS_S, v, g, ROW_##kind, FRAC_##kind),           \
    [(t) | CHU_GOTE] = APPLY(ROWS_G, v, g, ROW_##kind, FRAC_##kind),
#define COLTAB(t, v, g, kind, flags, slides, shell, attack) \
    [t] = APPLY(COLS_S, COL_##kind), [(t) | CHU_GOTE] = APPLY(COLS_G, COL_##kind),
#define FLAGTAB(t, v, g, kind, flags, slides, shell, attack) [t] = flags, [(t) | CHU_GOTE] = flags,
static const int16_t row_tab[128][16] = {CHU_EVAL_PIECES(ROWTAB)};
static const int16_t col_tab[128][16] = {CHU_EVAL_PIECES(COLTAB)};
static const uint8_t flag_tab[128] = {CHU_EVAL_PIECES(FLAGTAB)};

/* Indexed by type. */
#define VALUE(t, v, g, kind, flags, slides, shell, attack) [t] = v,
#define SLIDES(t, v, g, kind, flags, slides, shell, attack) [t] = slides,
static const int16_t piece_value[CHU_NTYPES] = {CHU_EVAL_PIECES(VALUE)};
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
    if (chu_is_royal(type))
        return CHU_EVAL_ROYAL;
    return piece_value[type];
}

/* ---- Evaluation ---------------------------------------------------------------- */

static inline int is_enemy_of(int pc, int own)
{
    return pc && pc != CHU_EDGE && (pc & CHU_GOTE) != own;
}

/* Squares a slider reaches along its slide rays, looking two squares deep. */
static inline int slider_mobility(const uint8_t *b, int sq, unsigned mask, const int8_t *dir,
                                  int own)
{
    int n = 0;
    while (mask) {
        int v = dir[__builtin_ctz(mask)];
        mask &= mask - 1;
        int p1 = b[sq + v];
        if (!p1)
            n += 1 + (b[sq + 2 * v] == 0 || is_enemy_of(b[sq + 2 * v], own));
        else
            n += is_enemy_of(p1, own);
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

/* Shelter minus danger around the King of `side` on ks. */
static int king_safety(const uint8_t *b, int ks, int side)
{
    unsigned own = side ? CHU_GOTE : 0, enemy = own ^ CHU_GOTE;
    const int8_t *dir = chu_dir[side];
    int shelter = 0, units = 0;
    for (int d = 0; d < 8; d++)
        shelter += shell_tab[b[ks + dir[d]] ^ own] * shell_dir[d];
    for (int i = 0; i < 24; i++)
        units += attack_tab[b[ks + danger_sq[i].off] ^ enemy] * danger_sq[i].w;
    return shelter - units - units * units / DANGER_QUAD;
}

/* Bit 0 of each byte of the result: that byte of x holds a piece (a type is never 0;
 * CHU_EDGE has no type bits). */
static inline uint64_t piece_flags8(uint64_t x)
{
    const uint64_t low6 = 0x3F3F3F3F3F3F3F3FULL;
    return (((x & low6) + low6) >> 6) & 0x0101010101010101ULL;
}

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "piece_flags8 reads little-endian");

/* Static evaluation in centipawns for the side to move.
 * Step 1. One pass over the pieces (found 64 squares at a time): material, promotion
 *         potential, rows and columns (row_tab, col_tab); slider mobility; note Kings
 *         and the mover's Lions.
 * Step 2. King shelter and danger around each King.
 * Step 3. Lion safety of the side to move. */
static int chu_eval(void *st)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    const uint8_t *b = p->board;
    int stm = p->stm;
    int score = 0;                  /* Sente's view */
    int king[2] = {0, 0}, prince[2] = {0, 0};
    int lions[4], nlions = 0;

    /* Step 1 */
    for (int w = 0; w < 3; w++) {
        int base = (4 * w + 2) * CHU_W;   /* bit i of `bits` is square base + i */
        uint64_t bits = 0;
        for (int k = 0; k < 8; k++) {
            uint64_t x;
            memcpy(&x, b + base + 8 * k, sizeof x);
            bits |= ((piece_flags8(x) * 0x0102040810204080ULL) >> 56) << (8 * k);
        }
        for (; bits; bits &= bits - 1) {
            int sq = base + __builtin_ctzll(bits), pc = b[sq];
            score += row_tab[pc][sq >> 4] + col_tab[pc][sq & 15];
            int fl = flag_tab[pc];
            if (!fl)
                continue;
            int side = pc >> 6;
            if (fl & EF_MOB) {
                int m = MOB_SLIDE * slider_mobility(b, sq, slide_tab[pc & 0x3F], chu_dir[side],
                                                    pc & CHU_GOTE);
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
            int k = king_safety(b, ks, side);
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

/* Captures, plus the quiet promotions of a Kirin (to Lion) or Phoenix (to Queen)
 * entering the zone: the two promotions worth more than most captures. */
static int chu_noisy(void *st, gv_move *out)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    const uint8_t *b = p->board;
    int n = chu_gen_captures(p, out);
    int stm = p->stm, own = stm ? CHU_GOTE : 0;
    const int8_t *dir = chu_dir[stm];
    /* A Kirin or Phoenix enters the zone (relative rows 0..3) from row 4 or 5. */
    for (int rr = 4; rr <= 5; rr++) {
        int r = stm ? CHU_N - 1 - rr : rr;
        for (int c = 0; c < CHU_N; c++) {
            int from = CHU_SQ(r, c), pc = b[from];
            if (!pc || (pc & CHU_GOTE) != own)
                continue;
            int t = CHU_TYPE(pc);
            if (t != CT_KIRIN && t != CT_PHOENIX)
                continue;
            for (int d = 0; d < 8; d++) {
                int code = chu_moves[t][d];
                int to = from + (code == MV_JUMP ? 2 : 1) * dir[d];
                if (b[to] == 0 && chu_can_promote(p, pc, from, to, 0))
                    out[n++] = CHU_MOVE(from, to, 0, CHU_MF_PROMO);
            }
        }
    }
    return n;
}

/* A capture of the last royal wins the game: it is worth more than any material, so
 * that quiescence's delta pruning never drops it. */
static int chu_capture_value(const chu_pos *p, int pc)
{
    int t = CHU_TYPE(pc);
    if (chu_is_royal(t) && p->royals[CHU_COLOR(pc)] == 1)
        return CHU_EVAL_WIN_VICTIM;
    return gv_chu_piece_value(t);
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

static int chu_mover_value(const void *st, gv_move m)
{
    const uint8_t *b = ((const chu_state *)st)->pos.board;
    return gv_chu_piece_value(CHU_TYPE(b[CHU_FROM(m)]));
}

/* Square of the only royal of `side` (royals[side] == 1), found 8 squares at a time:
 * the lowest byte equal to its King or Prince (the zero-byte test may also flag bytes
 * above a true match, never below one). */
static int find_royal(const uint8_t *b, int side)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t king = ones * (uint64_t)(CT_KING | (side ? CHU_GOTE : 0));
    uint64_t prince = ones * (uint64_t)(CT_PRINCE | (side ? CHU_GOTE : 0));
    for (int sq = CHU_SQ(0, 0) - 2; sq < CHU_SQ(CHU_N, 0) - 2; sq += 8) {
        uint64_t x;
        memcpy(&x, b + sq, sizeof x);
        uint64_t k = x ^ king, q = x ^ prince;
        uint64_t m = ((k - ones) & ~k & highs) | ((q - ones) & ~q & highs);
        if (m)
            return sq + (__builtin_ctzll(m) >> 3);
    }
    return 0;
}

/* chu_in_check's answer for the side to move. */
static int chu_hook_in_check(const void *st)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    int side = p->stm;
    if (p->royals[side] != 1)
        return 0;
    int sq = find_royal(p->board, side);
    return sq && chu_attacked(p->board, sq, !side);
}

/* The endings chu_status decides without move generation: a royal captured, then the
 * bare-king rule (when on). Repetition and "only the two Kings" are left to legal_moves. */
static int chu_quick_end(void *st, int *result)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    int me = p->stm;
    if (!p->royals[me] || !p->royals[!me]) {
        *result = p->royals[me] ? 1 : -1;
        return 1;
    }
    if (p->opt.bare_king) {
        if (chu_is_bared(p, me)) {
            *result = -1;
            return 1;
        }
        if (chu_is_bared(p, !me)) {
            *result = 1;
            return 1;
        }
    }
    return 0;
}

/* ---- Null move ------------------------------------------------------------------
 * Passing flips the side to move and clears the counter-strike square (it only binds
 * the very next move), exactly as a move does in pos_make; board, counts and history are
 * untouched. Repetition sees no false cycle after a null move: the key carries the side
 * to move, so no position before the null move matches one after it. */
typedef struct chu_null_undo {
    uint64_t key;
    uint8_t cs;
} chu_null_undo;

static int chu_null_ok(const void *st)
{
    const chu_pos *p = &((const chu_state *)st)->pos;
    return p->count[p->stm] - p->royals[p->stm] >= NULL_MIN_PIECES;
}

static void chu_make_null(void *st, void *undo)
{
    chu_pos *p = &((chu_state *)st)->pos;
    chu_null_undo *u = undo;
    u->key = p->key;
    u->cs = p->cs;
    if (p->cs)
        p->key ^= chu_cs_key(p->cs);
    p->cs = 0;
    p->stm ^= 1;
    p->key ^= chu_side_key();
}

static void chu_unmake_null(void *st, const void *undo)
{
    chu_pos *p = &((chu_state *)st)->pos;
    const chu_null_undo *u = undo;
    p->stm ^= 1;
    p->cs = u->cs;
    p->key = u->key;
}

const gv_ab_hooks gv_chu_hooks = {
    .game = "chu",
    .eval = chu_eval,
    .noisy_moves = chu_noisy,
    .victim_value = chu_victim_value,
    .mover_value = chu_mover_value,
    .in_check = chu_hook_in_check,
    .null_ok = chu_null_ok,
    .make_null = chu_make_null,
    .unmake_null = chu_unmake_null,
    .null_undo_size = sizeof(chu_null_undo),
    .pawn = CHU_EVAL_PAWN,
    .quick_end = chu_quick_end,
};
