/* Chu Shogi move generation: one move per distinct effect, lion powers, promotion,
 * the lion-trading rules, attack detection, and captures alone (for quiescence). */
#include <string.h>

#include "games/chu/chu.h"

/* Offsets of the eight squares a knight's move away: the part of a Lion's 5x5 area that
 * no line reaches. */
static const int8_t ring_knight[8] = {-33, -31, -18, -14, 14, 18, 31, 33};

static inline int is_piece(int p) { return p && p != CHU_EDGE; }

int chu_in_check(const chu_pos *p, int side)
{
    if (p->royals[side] != 1)
        return 0;
    /* Its only royal: the one royal bit among its pieces. */
    for (int w = 0; w < CHU_OCC_WORDS; w++) {
        uint64_t r = p->royal[w] & p->occ[side][w];
        if (r)
            return chu_attacked(p->board, 64 * w + __builtin_ctzll(r), !side);
    }
    return 0;
}

static inline int in_zone(int side, int sq)
{
    int r = CHU_ROW(sq);
    return side == CHU_SENTE ? r < 4 : r >= CHU_N - 4;
}

/* Step 2. Promotion. May `piece` moving from -> to (capturing or not) promote? Inlined
 * into the generators, which ask it of every plain move. */
static inline int can_promote(const chu_pos *p, int piece, int from, int to, int captures)
{
    int t = CHU_TYPE(piece), side = CHU_COLOR(piece);
    if (!chu_can_promote_type(t))
        return 0;
    int zf = in_zone(side, from), zt = in_zone(side, to);
    if (!zf && zt)
        return 1;
    if (captures && (zf || zt))
        return 1;
    if (t == CT_PAWN || t == CT_LANCE || (t == CT_GOBETWEEN && p->opt.gobetween_far)) {
        int last = side == CHU_SENTE ? 0 : CHU_N - 1;
        if (CHU_ROW(to) == last)
            return 1;
    }
    if (p->opt.promotion_msm && zf && zt)
        return 1;
    /* Heisei: a piece dropped unpromoted into the zone promotes on any move from inside. */
    if (__builtin_expect(p->opt.heisei, 0) && zf && chu_has_right(p, from))
        return 1;
    return 0;
}

/* Option last_rank=must: an unpromoted Pawn or Lance arriving on the last rank. */
static inline int must_promote(int piece, int to)
{
    int t = CHU_TYPE(piece);
    return (t == CT_PAWN || t == CT_LANCE) &&
           CHU_ROW(to) == (CHU_COLOR(piece) == CHU_SENTE ? 0 : CHU_N - 1);
}

int chu_can_promote(const chu_pos *p, int piece, int from, int to, int captures)
{
    return can_promote(p, piece, from, to, captures);
}

typedef struct gen_ctx {
    const chu_pos *p;
    gv_move *out;
    int n;
    int side;
    int own;      /* colour bits of the mover's pieces */
    int trades;   /* apply the lion-trading rules (0 only to explain refusals) */
    int all_igui; /* keep every capturer's igui (for reading notation) */
    int quiet;    /* keep only the moves that capture nothing (chu_gen_quiets) */
    uint64_t igui_done[2][CHU_SQUARES / 64];  /* victims taken by an igui, by whether
                                                 the igui sets the counter-strike */
} gen_ctx;

/* A generation of the moves of p's side to move into out. */
static inline gen_ctx gen_start(const chu_pos *p, gv_move *out, int trades, int all_igui)
{
    return (gen_ctx){p, out, 0, p->stm, p->stm ? CHU_GOTE : 0, trades, all_igui, 0,
                     {{0, 0, 0, 0}, {0, 0, 0, 0}}};
}

static inline int is_own(const gen_ctx *g, int pc)
{
    return is_piece(pc) && (pc & CHU_GOTE) == g->own;
}

static inline int is_enemy(const gen_ctx *g, int pc)
{
    return is_piece(pc) && (pc & CHU_GOTE) != g->own;
}

static inline int chebyshev(int a, int b)
{
    int dr = CHU_ROW(a) - CHU_ROW(b), dc = CHU_COL(a) - CHU_COL(b);
    if (dr < 0)
        dr = -dr;
    if (dc < 0)
        dc = -dc;
    return dr > dc ? dr : dc;
}

/* counter_strike=jcsa: is the Lion on victim_sq unprotected once the move from -> to
 * (capturing on mid too) is made? */
static int lion_unprotected_after(const chu_pos *p, int from, int mid, int to, int victim_sq)
{
    uint8_t board[CHU_SQUARES];
    memcpy(board, p->board, sizeof board);
    int pc = board[from], owner = CHU_COLOR(board[victim_sq]);
    board[from] = 0;
    if (mid)
        board[mid] = 0;
    board[to] = (uint8_t)pc;
    return !chu_attacked(board, victim_sq, owner);
}

/* Rule 3 (counter-strike): after a Lion was captured by a non-Lion, a non-Lion may
 * capture a Lion only on that same square -- or, with counter_strike=jcsa, a Lion left
 * unprotected by the capture. The move is from -> to, capturing on mid too. */
static inline int counterstrike_ok(const gen_ctx *g, int mover_t, int victim_sq, int from,
                                   int mid, int to)
{
    int v = g->p->board[victim_sq];
    if (!g->trades || !g->p->cs || chu_is_lion(mover_t) || !chu_is_lion(CHU_TYPE(v)))
        return 1;
    return victim_sq == g->p->cs ||
           (g->p->opt.counter_strike_jcsa &&
            lion_unprotected_after(g->p, from, mid, to, victim_sq));
}

/* Rule 2: may the Lion on `from` capture the non-adjacent enemy Lion on `to` (after
 * capturing on `mid`, 0 if nothing)? Judged on the board after the move; the option
 * lion_double=jcsa also forbids it when the victim was protected before the move. */
static int lion_trade_ok(const gen_ctx *g, int from, int mid, int to)
{
    const chu_pos *p = g->p;
    if (mid) {
        int first = CHU_TYPE(p->board[mid]);
        if (first != CT_PAWN && first != CT_GOBETWEEN)
            return 1;
    }
    int enemy = !g->side;
    if (p->opt.lion_double_jcsa && chu_attacked(p->board, to, enemy))
        return 0;
    uint8_t board[CHU_SQUARES];
    memcpy(board, p->board, sizeof board);
    board[to] = board[from];
    board[from] = 0;
    if (mid)
        board[mid] = 0;
    return !chu_attacked(board, to, enemy);
}

/* Is the move from -> to (capturing on mid too) legal under the lion-trading rules? */
static int trade_rules_ok(const gen_ctx *g, int t, int from, int mid, int to)
{
    const uint8_t *b = g->p->board;
    if (mid && !counterstrike_ok(g, t, mid, from, mid, to))
        return 0;
    if (!g->trades)
        return 1;
    if (to != from && is_enemy(g, b[to])) {
        if (!counterstrike_ok(g, t, to, from, mid, to))
            return 0;
        if (chu_is_lion(t) && chu_is_lion(CHU_TYPE(b[to])) && chebyshev(from, to) > 1 &&
            !lion_trade_ok(g, from, mid, to))
            return 0;
    }
    return 1;
}

static inline void push(gen_ctx *g, int from, int to, int mid, unsigned flags)
{
    g->out[g->n++] = CHU_MOVE(from, to, mid, flags);
}

/* A plain move (no lion power involved): both promotion choices where allowed (none
 * when promotes is 0: the type can never promote). */
static inline __attribute__((always_inline)) void add_plain_inline(gen_ctx *g, int pc,
                                                                   int from, int to,
                                                                   int promotes)
{
    int cap = g->p->board[to];
    if (cap && (g->quiet || !counterstrike_ok(g, CHU_TYPE(pc), to, from, 0, to)))
        return;
    if (promotes && can_promote(g->p, pc, from, to, cap != 0)) {
        push(g, from, to, 0, CHU_MF_PROMO);
        if (g->p->opt.last_rank_must && must_promote(pc, to))
            return;
    }
    push(g, from, to, 0, 0);
}

static void add_plain(gen_ctx *g, int pc, int from, int to)
{
    int cap = g->p->board[to];
    if (cap && (g->quiet || !counterstrike_ok(g, CHU_TYPE(pc), to, from, 0, to)))
        return;
    if (can_promote(g->p, pc, from, to, cap != 0)) {
        push(g, from, to, 0, CHU_MF_PROMO);
        if (g->p->opt.last_rank_must && must_promote(pc, to))
            return;
    }
    push(g, from, to, 0, 0);
}

int chu_igui_sets_cs(const chu_pos *p, int from, int mid)
{
    return !chu_is_lion(CHU_TYPE(p->board[from])) && chu_is_lion(CHU_TYPE(p->board[mid]));
}

/* A move of a piece with lion power (never promotes). Igui leaves the board the same
 * whichever piece captures, so it is one move per victim unless all_igui is set. */
static void add_lion(gen_ctx *g, int t, int from, int mid, int to)
{
    if (g->quiet && ((mid && g->p->board[mid]) || (to != from && g->p->board[to])))
        return;
    int igui = mid && to == from;
    int cs = igui && chu_igui_sets_cs(g->p, from, mid);
    if (igui && !g->all_igui && (g->igui_done[cs][mid >> 6] >> (mid & 63) & 1))
        return;
    if (!trade_rules_ok(g, t, from, mid, to))
        return;
    if (igui)
        g->igui_done[cs][mid >> 6] |= 1ULL << (mid & 63);
    push(g, from, to, mid, 0);
}

/* ---- Neighbourhood words ----------------------------------------------------------
 * The capture generator looks at the 8 squares around a piece at once: three 4-byte
 * loads (the rows in front, at and behind it for Sente, starting one file to its left)
 * turned into one word with a flag bit per square: bit 8k + j for byte k (0..2) of row j
 * (0 in front, 1 same row, 2 behind). A direction mask (bit d = absolute direction d,
 * Sente's frame) becomes that layout with NB_LAYOUT. */
#define NB_BIT(m, d, pos) ((((unsigned)(m) >> (d)) & 1u) << (pos))
#define NB_LAYOUT(m)                                                                     \
    (NB_BIT(m, D_FL, 0) | NB_BIT(m, D_F, 8) | NB_BIT(m, D_FR, 16) | NB_BIT(m, D_L, 1) |   \
     NB_BIT(m, D_R, 17) | NB_BIT(m, D_BL, 2) | NB_BIT(m, D_B, 10) | NB_BIT(m, D_BR, 18))
/* Gote's relative direction d is Sente's direction d + 4. */
#define NB_ROT4(m) ((((unsigned)(m) << 4) | ((unsigned)(m) >> 4)) & 0xFFu)

/* Square offset of layout bit b. */
static inline int nb_offset(int b)
{
    return ((b & 7) << 4) - 17 + (b >> 3);
}

static inline uint32_t load32(const uint8_t *p)
{
    uint32_t x;
    memcpy(&x, p, sizeof x);
    return x;
}

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the SWAR helpers read little-endian");

/* Flags (bit 0 of each byte) of the bytes of x holding a piece of colour bit `gote`
 * (CHU_GOTE or 0), and of the empty bytes. A type is never 0; CHU_EDGE has no type bits. */
static inline uint32_t swar_colour(uint32_t x, unsigned gote)
{
    const uint32_t low6 = 0x3F3F3F3Fu, bit6 = 0x40404040u;
    uint32_t any = ((x & low6) + low6) & bit6;
    return (any & (gote ? x : ~x)) >> 6;
}

static inline uint32_t swar_empty(uint32_t x)
{
    const uint32_t low7 = 0x7F7F7F7Fu;
    return (~(((x & low7) + low7) | x) & 0x80808080u) >> 7;
}

/* The 8 squares around sq: flags of enemy pieces and of empty squares in the layout. */
static inline void neighbours(const uint8_t *b, int sq, unsigned enemy_bit, uint32_t *enemy,
                              uint32_t *empty)
{
    uint32_t a = load32(b + sq - 17), m = load32(b + sq - 1), c = load32(b + sq + 15);
    *enemy = (swar_colour(a, enemy_bit) | swar_colour(m, enemy_bit) << 1 |
              swar_colour(c, enemy_bit) << 2) & 0x070707u;
    *empty = (swar_empty(a) | swar_empty(m) << 1 | swar_empty(c) << 2) & 0x070707u;
}

/* chu_moves in the neighbourhood layout (per side) for steps and slide starts, and as
 * relative-direction masks for jumps and lion lines, so the capture generator tests a
 * piece's whole neighbourhood at once instead of switching on every direction.
 * tests/test_chu_search.c checks every type against chu_gen_moves on random boards. */
typedef struct type_masks {
    uint32_t step[2], slide[2];   /* layouts, [side] */
    uint8_t jump, lionline;       /* relative directions */
    uint8_t dirs;                 /* relative directions it moves in at all */
    /* For chu_attacked, by the attacker's side: bit d (absolute direction, Sente's
     * frame) set when a piece of this type standing one step (near: step, slide or lion
     * line), further along a line of empty squares (slide) or two steps (far: jump or
     * lion line) from a square in direction d attacks that square. */
    uint8_t near_att[2], slide_att[2], far_att[2];
} type_masks;

/* A piece of Sente seen from direction d moves towards d + 4; Gote's relative
 * direction d is Sente's d + 4. */
#define TM(step, jump, slide, lionline)                                                   \
    {{NB_LAYOUT(step), NB_LAYOUT(NB_ROT4(step))},                                         \
     {NB_LAYOUT(slide), NB_LAYOUT(NB_ROT4(slide))}, jump, lionline,                       \
     (step) | (jump) | (slide) | (lionline),                                              \
     {NB_ROT4((step) | (slide) | (lionline)), (step) | (slide) | (lionline)},              \
     {NB_ROT4(slide), slide},                                                             \
     {NB_ROT4((jump) | (lionline)), (jump) | (lionline)}}
#define P CHU_PROMO
static const type_masks tmasks[CHU_NTYPES] = {
    /*                       step  jump  slide lionline */
    [CT_LANCE]         = TM(0x00, 0x00, 0x01, 0x00),
    [CT_LEOPARD]       = TM(0xBB, 0x00, 0x00, 0x00),
    [CT_COPPER]        = TM(0x93, 0x00, 0x00, 0x00),
    [CT_SILVER]        = TM(0xAB, 0x00, 0x00, 0x00),
    [CT_GOLD]          = TM(0xD7, 0x00, 0x00, 0x00),
    [CT_KING]          = TM(0xFF, 0x00, 0x00, 0x00),
    [CT_ELEPHANT]      = TM(0xEF, 0x00, 0x00, 0x00),
    [CT_CHARIOT]       = TM(0x00, 0x00, 0x11, 0x00),
    [CT_BISHOP]        = TM(0x00, 0x00, 0xAA, 0x00),
    [CT_TIGER]         = TM(0xFE, 0x00, 0x00, 0x00),
    [CT_PHOENIX]       = TM(0x55, 0xAA, 0x00, 0x00),
    [CT_KIRIN]         = TM(0xAA, 0x55, 0x00, 0x00),
    [CT_SIDE]          = TM(0x11, 0x00, 0x44, 0x00),
    [CT_VERTICAL]      = TM(0x44, 0x00, 0x11, 0x00),
    [CT_ROOK]          = TM(0x00, 0x00, 0x55, 0x00),
    [CT_HORSE]         = TM(0x55, 0x00, 0xAA, 0x00),
    [CT_DRAGON]        = TM(0xAA, 0x00, 0x55, 0x00),
    [CT_QUEEN]         = TM(0x00, 0x00, 0xFF, 0x00),
    [CT_LION]          = TM(0x00, 0x00, 0x00, 0xFF),
    [CT_PAWN]          = TM(0x01, 0x00, 0x00, 0x00),
    [CT_GOBETWEEN]     = TM(0x11, 0x00, 0x00, 0x00),
    [CT_LANCE + P]     = TM(0x00, 0x00, 0x93, 0x00),   /* White Horse */
    [CT_LEOPARD + P]   = TM(0x00, 0x00, 0xAA, 0x00),   /* Bishop */
    [CT_COPPER + P]    = TM(0x11, 0x00, 0x44, 0x00),   /* Side Mover */
    [CT_SILVER + P]    = TM(0x44, 0x00, 0x11, 0x00),   /* Vertical Mover */
    [CT_GOLD + P]      = TM(0x00, 0x00, 0x55, 0x00),   /* Rook */
    [CT_ELEPHANT + P]  = TM(0xFF, 0x00, 0x00, 0x00),   /* Prince */
    [CT_CHARIOT + P]   = TM(0x00, 0x00, 0x39, 0x00),   /* Whale */
    [CT_BISHOP + P]    = TM(0x55, 0x00, 0xAA, 0x00),   /* Dragon Horse */
    [CT_TIGER + P]     = TM(0xEE, 0x00, 0x11, 0x00),   /* Flying Stag */
    [CT_PHOENIX + P]   = TM(0x00, 0x00, 0xFF, 0x00),   /* Queen */
    [CT_KIRIN + P]     = TM(0x00, 0x00, 0x00, 0xFF),   /* Lion */
    [CT_SIDE + P]      = TM(0x00, 0x00, 0xEE, 0x00),   /* Free Boar */
    [CT_VERTICAL + P]  = TM(0x00, 0x00, 0xBB, 0x00),   /* Flying Ox */
    [CT_ROOK + P]      = TM(0xAA, 0x00, 0x55, 0x00),   /* Dragon King */
    [CT_HORSE + P]     = TM(0x00, 0x00, 0xFE, 0x01),   /* Horned Falcon */
    [CT_DRAGON + P]    = TM(0x00, 0x00, 0x7D, 0x82),   /* Soaring Eagle */
    [CT_PAWN + P]      = TM(0xD7, 0x00, 0x00, 0x00),   /* Gold */
    [CT_GOBETWEEN + P] = TM(0xEF, 0x00, 0x00, 0x00),   /* Drunk Elephant */
};
#undef P
#undef TM

/* Step 1. Attacks. Does side `by` attack sq on this board? Pieces count whatever their
 * own restrictions (lion trading, counter-strike): this is "could capture there". A
 * board byte XOR the colour bit of `by` is a type (below CHU_NTYPES) exactly for the
 * pieces of `by`; empty squares give 0 or CHU_GOTE, whose masks are 0 or out of range. */
int chu_attacked(const uint8_t *board, int sq, int by)
{
    const unsigned flip = by ? CHU_GOTE : 0;
    for (int d = 0; d < 8; d++) {
        int v = chu_dir[0][d], s = sq + v;
        unsigned p = board[s];
        if (p) {
            unsigned x = p ^ flip;
            if (x < CHU_NTYPES && (tmasks[x].near_att[by] >> d & 1))
                return 1;
        } else {
            do
                s += v;
            while (!(p = board[s]));
            unsigned x = p ^ flip;
            if (x < CHU_NTYPES && (tmasks[x].slide_att[by] >> d & 1))
                return 1;
        }
        unsigned x2 = board[sq + 2 * v] ^ flip;
        if (x2 < CHU_NTYPES && (tmasks[x2].far_att[by] >> d & 1))
            return 1;
    }
    /* Lions a knight's move away, tested together (bit = side of the Lion). */
    static const uint8_t lion_side[256] = {
        [CT_LION] = 1, [CT_LIONP] = 1, [CT_LION | CHU_GOTE] = 2, [CT_LIONP | CHU_GOTE] = 2,
    };
    unsigned lions = 0;
    for (int i = 0; i < 8; i++)
        lions |= lion_side[board[sq + ring_knight[i]]];
    return lions >> by & 1;
}

/* Step 3. Moves of one piece. Returns 1 if it could pass (an empty square on a lion
 * line next to it). */
static int gen_piece(gen_ctx *g, int from)
{
    const uint8_t *b = g->p->board;
    int pc = b[from], t = CHU_TYPE(pc);
    const int8_t *dir = chu_dir[g->side];
    int can_pass = 0;

    if (chu_is_lion(t)) {
        for (int d = 0; d < 8; d++) {
            int m = from + dir[d], pm = b[m];
            if (pm == CHU_EDGE || is_own(g, pm))
                continue;
            if (!pm) {
                can_pass = 1;
                add_lion(g, t, from, 0, m);
                continue;
            }
            add_lion(g, t, from, 0, m);            /* step capture */
            add_lion(g, t, from, m, from);         /* igui */
            for (int e = 0; e < 8; e++) {          /* capture, then a second step */
                int to = m + dir[e];
                if (to == from || b[to] == CHU_EDGE || is_own(g, b[to]))
                    continue;
                add_lion(g, t, from, m, to);
            }
        }
        for (int d = 0; d < 8; d++) {              /* jumps to the 5x5 ring */
            int to = from + 2 * dir[d];
            if (b[to] != CHU_EDGE && !is_own(g, b[to]))
                add_lion(g, t, from, 0, to);
        }
        for (int i = 0; i < 8; i++) {
            int to = from + ring_knight[i];
            if (b[to] != CHU_EDGE && !is_own(g, b[to]))
                add_lion(g, t, from, 0, to);
        }
        return can_pass;
    }

    /* Only the directions the piece moves in, in order; a piece that can never
     * promote skips the promotion test of each move. */
    int promotes = chu_can_promote_type(t);
    for (unsigned dm = tmasks[t].dirs; dm; dm &= dm - 1) {
        int d = __builtin_ctz(dm);
        int code = chu_moves[t][d];
        int v = dir[d];
        int to = from + v;
        switch (code) {
        case MV_STEP:
            if (b[to] != CHU_EDGE && !is_own(g, b[to]))
                add_plain_inline(g, pc, from, to, promotes);
            break;
        case MV_JUMP:
            to += v;
            if (b[to] != CHU_EDGE && !is_own(g, b[to]))
                add_plain_inline(g, pc, from, to, promotes);
            break;
        case MV_SLIDE:
            for (; b[to] != CHU_EDGE; to += v) {
                if (is_own(g, b[to]))
                    break;
                add_plain_inline(g, pc, from, to, promotes);
                if (b[to])
                    break;
            }
            break;
        case MV_LIONLINE: {
            int m = to, far = from + 2 * v;
            if (b[m] == CHU_EDGE || is_own(g, b[m])) {
                /* Blocked first step: only the jump remains. */
                if (b[far] != CHU_EDGE && !is_own(g, b[far]))
                    add_lion(g, t, from, 0, far);
                break;
            }
            add_lion(g, t, from, 0, m);
            if (b[far] != CHU_EDGE && !is_own(g, b[far]))
                add_lion(g, t, from, 0, far);
            if (!b[m]) {
                can_pass = 1;
            } else {
                add_lion(g, t, from, m, from);     /* igui */
                if (b[far] != CHU_EDGE && !is_own(g, b[far]))
                    add_lion(g, t, from, m, far);  /* capture, then on along the line */
            }
            break;
        }
        }
    }
    return can_pass;
}

/* Every piece's moves in increasing square order, then the pass (by the first piece that
 * has one). Returns the count. */
/* Heisei: may a reserve piece of type t be dropped by side on empty square sq next to one
 * of side's pieces (promoted: promo)? Only the Lance's farthest rank is closed to it
 * unpromoted; a promoted drop must be in the zone. */
static inline int drop_ok(int side, int t, int sq, int promo)
{
    if (promo)
        return in_zone(side, sq);
    return !(t == CT_LANCE && CHU_ROW(sq) == (side == CHU_SENTE ? 0 : CHU_N - 1));
}

int chu_next_to_own(const chu_pos *p, int side, int sq)
{
    for (int d = 0; d < 8; d++) {
        int pc = p->board[sq + chu_dir[0][d]];
        if (is_piece(pc) && CHU_COLOR(pc) == side)
            return 1;
    }
    return 0;
}

/* Heisei's drops: every reserve kind on every empty square next to an own piece,
 * unpromoted and (in the zone) promoted; squares in increasing order. */
static void gen_drops(gen_ctx *g)
{
    const chu_pos *p = g->p;
    int side = p->stm;
    uint64_t near[CHU_OCC_WORDS] = {0, 0, 0, 0};
    for (int w = 0; w < CHU_OCC_WORDS; w++)
        for (uint64_t bits = p->occ[side][w]; bits; bits &= bits - 1) {
            int sq = 64 * w + __builtin_ctzll(bits);
            for (int d = 0; d < 8; d++) {
                int t = sq + chu_dir[0][d];
                if (!p->board[t])
                    near[t >> 6] |= 1ULL << (t & 63);
            }
        }
    for (int w = 0; w < CHU_OCC_WORDS; w++)
        for (uint64_t bits = near[w]; bits; bits &= bits - 1) {
            int sq = 64 * w + __builtin_ctzll(bits);
            for (int k = 0; k < CHU_HAND_KINDS; k++) {
                if (!p->hand[side][k])
                    continue;
                int t = chu_hand_type[k];
                if (drop_ok(side, t, sq, 0))
                    push(g, 0, sq, t, CHU_MF_DROP);
                if (drop_ok(side, t, sq, 1))
                    push(g, 0, sq, t, CHU_MF_DROP | CHU_MF_PROMO);
            }
        }
}

static int gen_all(gen_ctx *g)
{
    const chu_pos *p = g->p;
    int pass_from = 0;
    for (int w = 0; w < CHU_OCC_WORDS; w++)
        for (uint64_t bits = p->occ[p->stm][w]; bits; bits &= bits - 1) {
            int sq = 64 * w + __builtin_ctzll(bits);
            if (gen_piece(g, sq) && !pass_from)
                pass_from = sq;
        }
    if (pass_from)
        push(g, pass_from, pass_from, 0, CHU_MF_PASS);
    if (__builtin_expect(p->opt.heisei, 0) && chu_has_hand(p, p->stm))
        gen_drops(g);
    return g->n;
}

int chu_gen_moves_ex(const chu_pos *p, gv_move *out, int trades, int all_igui)
{
    gen_ctx g = gen_start(p, out, trades, all_igui);
    return gen_all(&g);
}

int chu_gen_moves(const chu_pos *p, gv_move *out)
{
    return chu_gen_moves_ex(p, out, 1, 0);
}

/* The moves of chu_gen_moves that capture nothing, in its order: the same generation,
 * dropping each capture before its checks (counter-strike, lion trading, igui). */
int chu_gen_quiets(const chu_pos *p, gv_move *out)
{
    gen_ctx g = gen_start(p, out, 1, 0);
    g.quiet = 1;
    return gen_all(&g);
}

int chu_is_move(const chu_pos *p, gv_move m)
{
    int from = CHU_FROM(m), to = CHU_TO(m), pc = p->board[from];
    if (CHU_FLAGS(m) & CHU_MF_DROP) {
        /* Only a board square is empty (0): the border holds CHU_EDGE. */
        int t = CHU_MID(m), k = chu_hand_kind(t), promo = (CHU_FLAGS(m) & CHU_MF_PROMO) != 0;
        return p->opt.heisei && from == 0 && k >= 0 && p->hand[p->stm][k] &&
               (CHU_FLAGS(m) & ~(CHU_MF_DROP | CHU_MF_PROMO)) == 0 && p->board[to] == 0 &&
               chu_next_to_own(p, p->stm, to) && drop_ok(p->stm, t, to, promo);
    }
    /* Anything else wrong with m (its squares, flags) makes it match no generated move. */
    if (!is_piece(pc) || (pc & CHU_GOTE) != (p->stm ? CHU_GOTE : 0))
        return 0;
    gv_move buf[GV_MAX_MOVES];
    int n;
    if (to == from) {
        /* A pass or an igui: one of each per resulting position is kept, by the order of
         * the whole generation (see gen_ctx.igui_done). */
        n = chu_gen_moves(p, buf);
    } else {
        gen_ctx g = gen_start(p, buf, 1, 0);
        gen_piece(&g, from);
        n = g.n;
    }
    for (int i = 0; i < n; i++)
        if (buf[i] == m)
            return 1;
    return 0;
}

/* Adds relative rows lo..hi of `side` (0 = the far rank) to an occupancy mask. */
static void add_rows(uint64_t mask[CHU_OCC_WORDS], int side, int lo, int hi)
{
    for (int rr = lo; rr <= hi; rr++) {
        int row = (side == CHU_SENTE ? rr : CHU_N - 1 - rr) + 2;
        mask[row >> 2] |= 0xFFFFULL << (16 * (row & 3));
    }
}

int chu_gen_quiet_promotions(const chu_pos *p, uint64_t types, gv_move *out)
{
    /* Where such a move can start. Outside the zone (relative rows 0..3) a piece
     * promotes without capturing only by entering it, which a piece that neither slides
     * nor has lion lines does from rows 4..5 alone; inside it only a Pawn or Lance
     * reaching the last rank, or any piece under promotion=msm. */
    uint64_t where[CHU_OCC_WORDS] = {0, 0, 0, 0};
    int far = 0;
    for (uint64_t m = types; m && !far; m &= m - 1) {
        int t = __builtin_ctzll(m);
        far = t < CHU_NTYPES && (tmasks[t].slide[0] | tmasks[t].lionline);
    }
    if (far) {
        add_rows(where, p->stm, 0, CHU_N - 1);
    } else {
        add_rows(where, p->stm, 4, 5);
        if (p->opt.promotion_msm || (types >> CT_PAWN & 1) ||
            (p->opt.gobetween_far && (types >> CT_GOBETWEEN & 1)))
            add_rows(where, p->stm, 0, 3);
        /* Heisei: a piece dropped unpromoted into the zone promotes from inside it. */
        if (__builtin_expect(p->opt.heisei, 0))
            for (int w = 0; w < CHU_OCC_WORDS; w++)
                where[w] |= p->right[w];
    }

    gv_move buf[256];   /* the moves of one piece: at most 2 x 8 x 11 */
    gen_ctx g = gen_start(p, buf, 1, 0);
    int n = 0;
    for (int w = 0; w < CHU_OCC_WORDS; w++)
        for (uint64_t bits = p->occ[p->stm][w] & where[w]; bits; bits &= bits - 1) {
            int sq = 64 * w + __builtin_ctzll(bits), t = CHU_TYPE(p->board[sq]);
            if (!(types >> t & 1) || !chu_can_promote_type(t))
                continue;
            g.n = 0;
            gen_piece(&g, sq);
            for (int i = 0; i < g.n; i++) {
                gv_move m = buf[i];
                if ((CHU_FLAGS(m) & CHU_MF_PROMO) && !CHU_MID(m) && !p->board[CHU_TO(m)])
                    out[n++] = m;
            }
        }
    return n;
}

/* Step 4. Captures only: the moves of gen_piece that take at least one piece, found
 * without walking past a ray's first occupied square or trying empty targets. The same
 * add_plain / add_lion filters run in the same piece order, so the igui chosen for each
 * victim and the lion-trading verdicts are those of chu_gen_moves. */


/* A Lion's captures: for each adjacent enemy the step capture, the igui and every
 * second step; then the enemies two squares away (jumps). */
static void gen_lion_captures(gen_ctx *g, int t, int from)
{
    const uint8_t *b = g->p->board;
    const int8_t *dir = chu_dir[g->side];
    for (int d = 0; d < 8; d++) {
        int m = from + dir[d];
        if (!is_enemy(g, b[m]))
            continue;
        add_lion(g, t, from, 0, m);            /* step capture */
        add_lion(g, t, from, m, from);         /* igui */
        for (int e = 0; e < 8; e++) {          /* capture, then a second step */
            int to = m + dir[e];
            if (to == from || b[to] == CHU_EDGE || is_own(g, b[to]))
                continue;
            add_lion(g, t, from, m, to);
        }
    }
    for (int d = 0; d < 8; d++) {              /* jumps to the 5x5 ring */
        int to = from + 2 * dir[d];
        if (is_enemy(g, b[to]))
            add_lion(g, t, from, 0, to);
    }
    for (int i = 0; i < 8; i++) {
        int to = from + ring_knight[i];
        if (is_enemy(g, b[to]))
            add_lion(g, t, from, 0, to);
    }
}

/* Jumps (Kirin, Phoenix) and lion lines (Horned Falcon, Soaring Eagle). */
static void gen_rare_captures(gen_ctx *g, int t, int from, const type_masks *mk)
{
    const uint8_t *b = g->p->board;
    const int8_t *dir = chu_dir[g->side];
    for (unsigned m = mk->jump; m; m &= m - 1) {
        int to = from + 2 * dir[__builtin_ctz(m)];
        if (is_enemy(g, b[to]))
            add_plain(g, b[from], from, to);
    }
    for (unsigned m = mk->lionline; m; m &= m - 1) {
        int v = dir[__builtin_ctz(m)], mid = from + v, far = from + 2 * v;
        if (!is_enemy(g, b[mid])) {                    /* own, edge or empty: only a jump */
            if (is_enemy(g, b[far]))
                add_lion(g, t, from, 0, far);
            continue;
        }
        add_lion(g, t, from, 0, mid);                  /* step capture */
        if (is_enemy(g, b[far]))
            add_lion(g, t, from, 0, far);
        add_lion(g, t, from, mid, from);               /* igui */
        if (b[far] != CHU_EDGE && !is_own(g, b[far]))
            add_lion(g, t, from, mid, far);            /* capture, then on along the line */
    }
}

static void gen_piece_captures(gen_ctx *g, int from)
{
    const uint8_t *b = g->p->board;
    int pc = b[from], t = CHU_TYPE(pc);
    if (chu_is_lion(t)) {
        gen_lion_captures(g, t, from);
        return;
    }
    const type_masks *mk = &tmasks[t];
    uint32_t enemy, empty, slide = mk->slide[g->side];
    neighbours(b, from, (unsigned)g->own ^ CHU_GOTE, &enemy, &empty);
    /* Adjacent enemies taken by a step or by the first square of a slide. */
    for (uint32_t m = enemy & (mk->step[g->side] | slide); m; m &= m - 1)
        add_plain(g, pc, from, from + nb_offset(__builtin_ctz(m)));
    /* Slides that start on an empty square: the first piece further on. */
    for (uint32_t m = empty & slide; m; m &= m - 1) {
        int v = nb_offset(__builtin_ctz(m)), to = from + 2 * v;
        while (!b[to])
            to += v;
        if (is_enemy(g, b[to]))
            add_plain(g, pc, from, to);
    }
    if (mk->jump | mk->lionline)
        gen_rare_captures(g, t, from, mk);
}

/* The squares next to (or on) a square of set e, for occupancy words. A board square's
 * neighbours in its row are in the same word (columns 1..14); rows move by 16 bits, up
 * to a neighbouring word. */
static void grow_by_one(const uint64_t e[CHU_OCC_WORDS], uint64_t out[CHU_OCC_WORDS])
{
    uint64_t h[CHU_OCC_WORDS];
    for (int w = 0; w < CHU_OCC_WORDS; w++)
        h[w] = e[w] | e[w] << 1 | e[w] >> 1;
    for (int w = 0; w < CHU_OCC_WORDS; w++) {
        out[w] = h[w] | h[w] << 16 | h[w] >> 16;
        if (w > 0)
            out[w] |= h[w - 1] >> 48;
        if (w < CHU_OCC_WORDS - 1)
            out[w] |= h[w + 1] << 48;
    }
}

int chu_gen_captures(const chu_pos *p, gv_move *out)
{
    gen_ctx g = gen_start(p, out, 1, 0);
    /* A piece that only steps captures nothing unless an enemy stands next to it. */
    uint64_t near[CHU_OCC_WORDS];
    grow_by_one(p->occ[!p->stm], near);
    /* The mover's pieces next to an enemy or reaching further (the core's far bits: the
     * types that do not only step), in increasing square order: the order of
     * chu_gen_moves, which decides which capturer's igui is kept. */
    for (int w = 0; w < CHU_OCC_WORDS; w++)
        for (uint64_t bits = p->occ[p->stm][w] & (near[w] | p->far[w]); bits; bits &= bits - 1)
            gen_piece_captures(&g, 64 * w + __builtin_ctzll(bits));
    return g.n;
}
