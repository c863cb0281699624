/* Chu Shogi move generation: one move per distinct effect, lion powers, promotion,
 * the lion-trading rules, and attack detection. */
#include <string.h>

#include "games/chu/chu.h"

/* Offsets of the eight squares a knight's move away: the part of a Lion's 5x5 area that
 * no line reaches. */
static const int8_t ring_knight[8] = {-33, -31, -18, -14, 14, 18, 31, 33};

static inline int is_piece(int p) { return p && p != CHU_EDGE; }

/* Step 1. Attacks. Does side `by` attack sq on this board? Pieces count whatever their
 * own restrictions (lion trading, counter-strike): this is "could capture there". */
int chu_attacked(const uint8_t *board, int sq, int by)
{
    for (int d = 0; d < 8; d++) {
        int v = chu_dir[0][d];
        /* An attacker standing at sq + k*v reaches sq in its relative direction rel. */
        int rel = by == CHU_SENTE ? (d + 4) & 7 : d;
        int s = sq + v;
        int k = 1;
        for (;; s += v, k++) {
            int p = board[s];
            if (p == CHU_EDGE)
                break;
            if (!p)
                continue;
            if (CHU_COLOR(p) == by) {
                int t = CHU_TYPE(p);
                int code = chu_moves[t][rel];
                if (code == MV_SLIDE || (k == 1 && (code == MV_STEP || code == MV_LIONLINE)))
                    return 1;
            }
            break;
        }
        int p2 = board[sq + 2 * v];
        if (is_piece(p2) && CHU_COLOR(p2) == by) {
            int code = chu_moves[CHU_TYPE(p2)][rel];
            if (code == MV_JUMP || code == MV_LIONLINE)
                return 1;
        }
    }
    for (int i = 0; i < 8; i++) {
        int p = board[sq + ring_knight[i]];
        if (is_piece(p) && CHU_COLOR(p) == by && chu_is_lion(CHU_TYPE(p)))
            return 1;
    }
    return 0;
}

int chu_in_check(const chu_pos *p, int side)
{
    if (p->royals[side] != 1)
        return 0;
    for (int sq = 0; sq < CHU_SQUARES; sq++) {
        int pc = p->board[sq];
        if (is_piece(pc) && CHU_COLOR(pc) == side && chu_is_royal(CHU_TYPE(pc)))
            return chu_attacked(p->board, sq, !side);
    }
    return 0;
}

static inline int in_zone(int side, int sq)
{
    int r = CHU_ROW(sq);
    return side == CHU_SENTE ? r < 4 : r >= CHU_N - 4;
}

/* Step 2. Promotion. May `piece` moving from -> to (capturing or not) promote? */
int chu_can_promote(const chu_pos *p, int piece, int from, int to, int captures)
{
    int t = CHU_TYPE(piece), side = CHU_COLOR(piece);
    if (!chu_can_promote_type(t))
        return 0;
    int zf = in_zone(side, from), zt = in_zone(side, to);
    if (!zf && zt)
        return 1;
    if (captures && (zf || zt))
        return 1;
    if (t == CT_PAWN || t == CT_LANCE) {
        int last = side == CHU_SENTE ? 0 : CHU_N - 1;
        if (CHU_ROW(to) == last)
            return 1;
    }
    if (p->opt.promotion_msm && zf && zt)
        return 1;
    return 0;
}

typedef struct gen_ctx {
    const chu_pos *p;
    gv_move *out;
    int n;
    int side;
    int own;      /* colour bits of the mover's pieces */
    int trades;   /* apply the lion-trading rules (0 only to explain refusals) */
    int all_igui; /* keep every capturer's igui (for reading notation) */
    uint64_t igui_done[2][CHU_SQUARES / 64];  /* victims taken by an igui, by whether
                                                 the igui sets the counter-strike */
} gen_ctx;

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

/* Rule 3 (counter-strike): after a Lion was captured by a non-Lion, a non-Lion may
 * capture a Lion only on that same square. */
static inline int counterstrike_ok(const gen_ctx *g, int mover_t, int victim_sq)
{
    int v = g->p->board[victim_sq];
    if (!g->trades || !g->p->cs || chu_is_lion(mover_t) || !chu_is_lion(CHU_TYPE(v)))
        return 1;
    return victim_sq == g->p->cs;
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
    if (mid && !counterstrike_ok(g, t, mid))
        return 0;
    if (!g->trades)
        return 1;
    if (to != from && is_enemy(g, b[to])) {
        if (!counterstrike_ok(g, t, to))
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

/* A plain move (no lion power involved): both promotion choices where allowed. */
static void add_plain(gen_ctx *g, int pc, int from, int to)
{
    int cap = g->p->board[to];
    if (cap && !counterstrike_ok(g, CHU_TYPE(pc), to))
        return;
    if (chu_can_promote(g->p, pc, from, to, cap != 0))
        push(g, from, to, 0, CHU_MF_PROMO);
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

    for (int d = 0; d < 8; d++) {
        int code = chu_moves[t][d];
        if (!code)
            continue;
        int v = dir[d];
        int to = from + v;
        switch (code) {
        case MV_STEP:
            if (b[to] != CHU_EDGE && !is_own(g, b[to]))
                add_plain(g, pc, from, to);
            break;
        case MV_JUMP:
            to += v;
            if (b[to] != CHU_EDGE && !is_own(g, b[to]))
                add_plain(g, pc, from, to);
            break;
        case MV_SLIDE:
            for (; b[to] != CHU_EDGE; to += v) {
                if (is_own(g, b[to]))
                    break;
                add_plain(g, pc, from, to);
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

int chu_gen_moves_ex(const chu_pos *p, gv_move *out, int trades, int all_igui)
{
    gen_ctx g = {p, out, 0, p->stm, p->stm ? CHU_GOTE : 0, trades, all_igui, {{0, 0, 0, 0}, {0, 0, 0, 0}}};
    int pass_from = 0;
    for (int r = 0; r < CHU_N; r++) {
        for (int c = 0; c < CHU_N; c++) {
            int sq = CHU_SQ(r, c), pc = p->board[sq];
            if (!pc || (pc & CHU_GOTE) != g.own)
                continue;
            if (gen_piece(&g, sq) && !pass_from)
                pass_from = sq;
        }
    }
    if (pass_from)
        push(&g, pass_from, pass_from, 0, CHU_MF_PASS);
    return g.n;
}

int chu_gen_moves(const chu_pos *p, gv_move *out)
{
    return chu_gen_moves_ex(p, out, 1, 0);
}
