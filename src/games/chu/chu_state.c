/* Chu Shogi state: make/unmake with history, and the end of the game (royal capture,
 * no legal move, bare king, repetition with the perpetual-check rule). */
#include <string.h>

#include "games/chu/chu.h"

static inline int is_piece(int p) { return p && p != CHU_EDGE; }

void chu_state_reset(chu_state *s)
{
    s->ply = 0;
    s->pad = 0;
    memset(s->hist, 0, sizeof s->hist);
}

/* Occupancy and class bits of piece pc on sq, set or cleared (branch-free). */
static inline void occ_flip(chu_pos *p, int pc, int sq)
{
    unsigned cl = chu_piece_class[CHU_TYPE(pc)];
    int w = sq >> 6, i = sq & 63;
    p->occ[CHU_COLOR(pc)][w] ^= 1ULL << i;
    p->far[w] ^= (uint64_t)(cl & CHU_CL_FAR) << i;
    p->royal[w] ^= (uint64_t)(cl >> 1) << i;
}

/* Board, occupancy and psq: make sets the key as a whole from move_key_delta. */
static inline void put(chu_pos *p, int sq, int pc)
{
    p->board[sq] = (uint8_t)pc;
    occ_flip(p, pc, sq);
    p->psq += chu_psq(pc, sq);
}

static inline void take(chu_pos *p, int sq)
{
    int pc = p->board[sq];
    occ_flip(p, pc, sq);
    p->psq -= chu_psq(pc, sq);
    p->board[sq] = 0;
}

static void count_capture(chu_pos *p, int pc, int delta)
{
    int c = CHU_COLOR(pc);
    p->count[c] = (uint8_t)(p->count[c] + delta);
    if (chu_is_royal(CHU_TYPE(pc)))
        p->royals[c] = (uint8_t)(p->royals[c] + delta);
}

/* The counter-strike square m sets: the square of a Lion that a non-Lion captures (on
 * the destination rather than the middle square if both), 0 if none. */
static inline int move_new_cs(const chu_pos *p, gv_move m)
{
    int from = CHU_FROM(m), to = CHU_TO(m), mid = CHU_MID(m);
    if (CHU_FLAGS(m) & (CHU_MF_PASS | CHU_MF_DROP))
        return 0;
    const uint8_t *b = p->board;
    if (chu_is_lion(CHU_TYPE(b[from])))
        return 0;
    if (to != from && b[to] && chu_is_lion(CHU_TYPE(b[to])))
        return to;
    if (mid && chu_is_lion(CHU_TYPE(b[mid])))
        return mid;
    return 0;
}

/* Heisei: is sq in the zone of side? */
static inline int in_zone(int side, int sq)
{
    int r = CHU_ROW(sq);
    return side == CHU_SENTE ? r < 4 : r >= CHU_N - 4;
}

/* A drop's piece, the reserve it leaves and the right an unpromoted drop into the zone
 * takes along, in the key. */
static uint64_t drop_key_delta(const chu_pos *p, gv_move m)
{
    int t = CHU_MID(m), to = CHU_TO(m), side = p->stm, kind = chu_hand_kind(t);
    int promo = (CHU_FLAGS(m) & CHU_MF_PROMO) != 0, n = p->hand[side][kind];
    uint64_t k = chu_hand_key(side, kind, n) ^ chu_hand_key(side, kind, n - 1);
    k ^= chu_piece_key((promo ? t + CHU_PROMO : t) | (side ? CHU_GOTE : 0), to);
    if (!promo && in_zone(side, to))
        k ^= chu_right_key(to);
    return k;
}

/* The promotion rights a board move m moves or takes away, in the key. */
static uint64_t rights_key_delta(const chu_pos *p, gv_move m)
{
    int from = CHU_FROM(m), to = CHU_TO(m), mid = CHU_MID(m);
    uint64_t k = 0;
    if (mid && chu_has_right(p, mid))
        k ^= chu_right_key(mid);
    if (to != from && chu_has_right(p, to))
        k ^= chu_right_key(to);
    if (chu_has_right(p, from)) {
        k ^= chu_right_key(from);
        if (!(CHU_FLAGS(m) & CHU_MF_PROMO))
            k ^= chu_right_key(to);
    }
    return k;
}

static inline void right_flip(chu_pos *p, int sq)
{
    p->right[sq >> 6] ^= 1ULL << (sq & 63);
}

/* What m changes in the key of p (from p, before m is made): the pieces that leave and
 * arrive, the counter-strike square (old and new_cs) and the side to move. make and
 * chu_key_after both use it. */
static inline uint64_t move_key_delta(const chu_pos *p, gv_move m, int new_cs)
{
    uint64_t k = chu_side_key();
    if (p->cs)
        k ^= chu_cs_key(p->cs);
    if (new_cs)
        k ^= chu_cs_key(new_cs);
    unsigned fl = CHU_FLAGS(m);
    if (fl & CHU_MF_PASS)
        return k;
    const uint8_t *b = p->board;
    int from = CHU_FROM(m), to = CHU_TO(m), mid = CHU_MID(m);
    if (fl & CHU_MF_DROP)
        return k ^ drop_key_delta(p, m);
    int pc = b[from];
    k ^= chu_piece_key(pc, from);
    if (mid)
        k ^= chu_piece_key(b[mid], mid);
    if (to != from && b[to])
        k ^= chu_piece_key(b[to], to);
    if (__builtin_expect(p->opt.heisei, 0) && chu_any_right(p))
        k ^= rights_key_delta(p, m);
    return k ^ chu_piece_key((fl & CHU_MF_PROMO) ? pc + CHU_PROMO : pc, to);
}

uint64_t chu_key_after(const chu_pos *p, gv_move m)
{
    return p->key ^ move_key_delta(p, m, move_new_cs(p, m));
}

/* Plays m on p, filling h with what unmake needs. */
static void pos_make(chu_pos *p, gv_move m, chu_hist *h)
{
    int from = CHU_FROM(m), to = CHU_TO(m), mid = CHU_MID(m);
    unsigned fl = CHU_FLAGS(m);
    int new_cs = move_new_cs(p, m);
    h->key = p->key;
    h->move = m;
    h->prev_cs = p->cs;
    h->cap_to = h->cap_mid = 0;
    h->irrev = 0;
    h->rights = 0;
    p->key ^= move_key_delta(p, m, new_cs);
    if (fl & CHU_MF_DROP) {
        int t = mid, side = p->stm;
        p->hand[side][chu_hand_kind(t)]--;
        put(p, to, ((fl & CHU_MF_PROMO) ? t + CHU_PROMO : t) | (side ? CHU_GOTE : 0));
        p->count[side]++;
        if (!(fl & CHU_MF_PROMO) && in_zone(side, to))
            right_flip(p, to);
        h->irrev = 1;
    } else if (!(fl & CHU_MF_PASS)) {
        if (__builtin_expect(p->opt.heisei, 0) && chu_any_right(p)) {
            if (mid && chu_has_right(p, mid)) {
                right_flip(p, mid);
                h->rights |= 4;
            }
            if (to != from && chu_has_right(p, to)) {
                right_flip(p, to);
                h->rights |= 2;
            }
            if (chu_has_right(p, from)) {
                right_flip(p, from);
                h->rights |= 1;
                if (!(fl & CHU_MF_PROMO))
                    right_flip(p, to);
            }
        }
        int pc = p->board[from], t = CHU_TYPE(pc);
        take(p, from);
        if (mid) {
            h->cap_mid = p->board[mid];
            count_capture(p, h->cap_mid, -1);
            take(p, mid);
        }
        if (p->board[to]) {
            h->cap_to = p->board[to];
            count_capture(p, h->cap_to, -1);
            take(p, to);
        }
        int placed = (fl & CHU_MF_PROMO) ? pc + CHU_PROMO : pc;
        if (fl & CHU_MF_PROMO) {
            if (chu_is_royal(CHU_TYPE(placed)))
                p->royals[CHU_COLOR(pc)]++;
        }
        put(p, to, placed);
        h->irrev = h->cap_to || h->cap_mid || (fl & CHU_MF_PROMO) || t == CT_PAWN ||
                   t == CT_LANCE;
    }
    p->cs = (uint8_t)new_cs;
    p->stm ^= 1;
    p->movenum++;
}

static void pos_unmake(chu_pos *p, const chu_hist *h)
{
    gv_move m = h->move;
    int from = CHU_FROM(m), to = CHU_TO(m), mid = CHU_MID(m);
    unsigned fl = CHU_FLAGS(m);
    p->stm ^= 1;
    p->movenum--;
    p->cs = h->prev_cs;
    if (fl & CHU_MF_DROP) {
        int side = p->stm;
        if (chu_has_right(p, to))
            right_flip(p, to);
        take(p, to);
        p->count[side]--;
        p->hand[side][chu_hand_kind(mid)]++;
    } else if (!(fl & CHU_MF_PASS)) {
        if (__builtin_expect(h->rights != 0, 0)) {
            if ((h->rights & 1) && !(fl & CHU_MF_PROMO))
                right_flip(p, to);
            if (h->rights & 1)
                right_flip(p, from);
            if (h->rights & 2)
                right_flip(p, to);
            if (h->rights & 4)
                right_flip(p, mid);
        }
        int placed = p->board[to];
        int pc = (fl & CHU_MF_PROMO) ? placed - CHU_PROMO : placed;
        if ((fl & CHU_MF_PROMO) && chu_is_royal(CHU_TYPE(placed)))
            p->royals[CHU_COLOR(pc)]--;
        take(p, to);
        if (h->cap_to) {
            put(p, to, h->cap_to);
            count_capture(p, h->cap_to, +1);
        }
        if (h->cap_mid) {
            put(p, mid, h->cap_mid);
            count_capture(p, h->cap_mid, +1);
        }
        put(p, from, pc);
    }
    p->key = h->key;
}

void chu_make(chu_state *s, gv_move m)
{
    chu_hist *h = &s->hist[s->ply % CHU_HIST];
    pos_make(&s->pos, m, h);
    s->ply++;
}

void chu_unmake(chu_state *s)
{
    s->ply--;
    chu_hist *h = &s->hist[s->ply % CHU_HIST];
    pos_unmake(&s->pos, h);
    memset(h, 0, sizeof *h);
}

void chu_make_null(chu_pos *p, chu_null_undo *u)
{
    u->key = p->key;
    u->cs = p->cs;
    p->key ^= move_key_delta(p, CHU_MOVE(0, 0, 0, CHU_MF_PASS), 0);
    p->cs = 0;
    p->stm ^= 1;
}

void chu_unmake_null(chu_pos *p, const chu_null_undo *u)
{
    p->stm ^= 1;
    p->cs = u->cs;
    p->key = u->key;
}

/* ---- Bare king (exactly as shogiops decides it) ------------------------------------ */

static int dead_rank(int side)
{
    return side == CHU_SENTE ? 0 : CHU_N - 1;
}

/* Pawns and Lances of `side` on its last rank: they never move again ("dead"). */
static int dead_pieces(const chu_pos *p, int side)
{
    /* None without a piece of its own on that rank (a row of occupancy bits lies in
     * one word). */
    int mrow = dead_rank(side) + 2;
    if (!(p->occ[side][mrow >> 2] >> (16 * (mrow & 3)) & 0xFFFF))
        return 0;
    const uint8_t *row = p->board + CHU_SQ(dead_rank(side), 0);
    int own = side ? CHU_GOTE : 0, n = 0;
    for (int c = 0; c < CHU_N; c++)
        n += row[c] == (CT_PAWN | own) || row[c] == (CT_LANCE | own);
    return n;
}

/* Was `side` bared: its only piece that counts is its royal, while the other side has
 * its royal and at least one piece that counts (Pawns, Go-Betweens and dead Lances never
 * do), the other royal is not attacked, and either the other side has two such pieces
 * or the bared royal does not attack the only one. */
int chu_is_bared(const chu_pos *p, int side)
{
    int other = !side;
    /* At most 12 dead pieces fit on a rank: more pieces than 13 can never be bare. */
    if (p->count[side] > 13 || p->royals[side] != 1 || p->royals[other] != 1)
        return 0;
    if (chu_has_hand(p, side))   /* Heisei: a side with reserve pieces is not bared */
        return 0;
    /* Only the royal and dead pieces may be left: checked on one rank before the board. */
    if (p->count[side] - dead_pieces(p, side) != 1)
        return 0;
    int ours = 0, theirs = 0, our_royal = -1, their_piece = -1;
    for (int sq = 0; sq < CHU_SQUARES; sq++) {
        int pc = p->board[sq];
        if (!is_piece(pc))
            continue;
        int t = CHU_TYPE(pc), c = CHU_COLOR(pc);
        if (c == side) {
            if ((t == CT_PAWN || t == CT_LANCE) && CHU_ROW(sq) == dead_rank(side))
                continue;
            ours++;
            if (chu_is_royal(t))
                our_royal = sq;
        } else {
            if (t == CT_PAWN || t == CT_GOBETWEEN ||
                (t == CT_LANCE && CHU_ROW(sq) == dead_rank(other)))
                continue;
            theirs++;
            if (!chu_is_royal(t))
                their_piece = sq;
        }
    }
    if (ours != 1 || our_royal < 0 || theirs < 2)
        return 0;
    if (chu_in_check(p, other))
        return 0;
    if (theirs > 2)
        return 1;
    /* Exactly one piece besides their royal: bared unless our royal attacks it. */
    for (int d = 0; d < 8; d++)
        if (our_royal + chu_dir[0][d] == their_piece)
            return 0;
    return 1;
}

/* Only the two royals remain (dead Pawns and Lances aside) and neither is attacked. */
static int kings_only_draw(const chu_pos *p)
{
    if (p->count[0] > 13 || p->count[1] > 13 || p->royals[0] != 1 || p->royals[1] != 1 ||
        chu_has_hand(p, 0) || chu_has_hand(p, 1))
        return 0;
    if (p->count[0] + p->count[1] - dead_pieces(p, 0) - dead_pieces(p, 1) != 2)
        return 0;
    int live = 0;
    for (int sq = 0; sq < CHU_SQUARES; sq++) {
        int pc = p->board[sq];
        if (!is_piece(pc))
            continue;
        int t = CHU_TYPE(pc), c = CHU_COLOR(pc);
        if ((t == CT_PAWN || t == CT_LANCE) && CHU_ROW(sq) == dead_rank(c))
            continue;
        live++;
    }
    return live == 2 && !chu_in_check(p, 0) && !chu_in_check(p, 1);
}

/* ---- Repetition ------------------------------------------------------------------- */

/* The ply of the first of the (at least four) occurrences of the current position. */
/* Has the current position occurred four times? Then 1, with *first the ply of the
 * earliest of its last four occurrences: where the cycle they close starts. */
static int fourfold_at(const chu_state *s, uint32_t *first)
{
    /* The slot the next move will overwrite is left out, so what is seen does not
     * depend on whether it was ever unmade into. */
    uint32_t avail = s->ply < CHU_HIST - 1 ? s->ply : CHU_HIST - 1;
    int seen = 1;
    *first = s->ply;
    for (uint32_t back = 1; back <= avail && seen < 4; back++) {
        const chu_hist *h = &s->hist[(s->ply - back) % CHU_HIST];
        if (h->irrev)
            break;
        if (!(back & 1) && h->key == s->pos.key) {
            seen++;
            *first = s->ply - back;
        }
    }
    return seen >= 4;
}

/* Returns 0 if the current position has not occurred four times; otherwise 1 and sets
 * *loser to the side that gave check with every one of its moves since the first of the
 * four occurrences (-1 if neither or both did). */
static int fourfold(const chu_state *s, int *loser)
{
    const chu_pos *p = &s->pos;
    uint32_t first;
    if (!fourfold_at(s, &first))
        return 0;
    /* Walk back from the present to `first`, noting for each move whether it left the
     * opponent in check. */
    chu_pos q = *p;
    int all_checks[2] = {1, 1}, moved[2] = {0, 0};
    for (uint32_t ply = s->ply; ply > first; ply--) {
        const chu_hist *h = &s->hist[(ply - 1) % CHU_HIST];
        int mover = !q.stm;
        moved[mover] = 1;
        if (!chu_in_check(&q, q.stm))
            all_checks[mover] = 0;
        pos_unmake(&q, h);
    }
    int a = moved[0] && all_checks[0], b = moved[1] && all_checks[1];
    *loser = a == b ? -1 : (a ? 0 : 1);
    return 1;
}

/* ---- Repetition as the association and the old principle rule it ------------------- */

/* Would m (a move of chu_gen_moves) be irreversible: a capture, a promotion, a Pawn's or
 * a Lance's move? The position after such a move can never have occurred before. */
static int move_irreversible(const chu_pos *p, gv_move m)
{
    unsigned fl = CHU_FLAGS(m);
    if (fl & CHU_MF_PASS)
        return 0;
    if (fl & CHU_MF_DROP)
        return 1;   /* the reserve never grows again */
    int from = CHU_FROM(m), to = CHU_TO(m), t = CHU_TYPE(p->board[from]);
    return (fl & CHU_MF_PROMO) || CHU_MID(m) || (to != from && p->board[to]) ||
           t == CT_PAWN || t == CT_LANCE;
}

/* How often the position after m (key `after`, the other side to move) occurred before,
 * and the ply of the third most recent of those occurrences (*first): where the cycle
 * that a fourth occurrence would close starts. */
static int occurrences_after(const chu_state *s, uint64_t after, int no_cs, uint32_t *first)
{
    uint32_t avail = s->ply < CHU_HIST - 1 ? s->ply : CHU_HIST - 1;
    int seen = 0;
    for (uint32_t back = 1; back <= avail; back++) {
        const chu_hist *h = &s->hist[(s->ply - back) % CHU_HIST];
        if (h->irrev)
            break;
        uint64_t key = no_cs && h->prev_cs ? h->key ^ chu_cs_key(h->prev_cs) : h->key;
        if ((back & 1) && key == after && ++seen <= 3)
            *first = s->ply - back;
    }
    return seen;
}

/* The side that made the earliest pass since the last irreversible move (last, when not
 * 0, is a move to be made now), or -1 when none passed. */
static int earliest_passer(const chu_state *s, gv_move last)
{
    int who = (last && (CHU_FLAGS(last) & CHU_MF_PASS)) ? s->pos.stm : -1;
    uint32_t avail = s->ply < CHU_HIST - 1 ? s->ply : CHU_HIST - 1;
    for (uint32_t back = 1; back <= avail; back++) {
        const chu_hist *h = &s->hist[(s->ply - back) % CHU_HIST];
        if (h->irrev)
            break;
        if (CHU_FLAGS(h->move) & CHU_MF_PASS)
            who = (int)((s->pos.stm + back) & 1);   /* the mover of that ply */
    }
    return who;
}

/* Does `side` attack a piece of the other side on board b? */
static int attacks_a_piece(const chu_pos *q, int side)
{
    for (int w = 0; w < CHU_OCC_WORDS; w++)
        for (uint64_t bits = q->occ[!side][w]; bits; bits &= bits - 1)
            if (chu_attacked(q->board, 64 * w + __builtin_ctzll(bits), side))
                return 1;
    return 0;
}

/* repetition=jcsa: the side that must deviate from the cycle that q (the position now,
 * after `last` when last is not 0) closes, from ply `first` on: (1) the side that gave
 * check with every one of its moves of the cycle; else (2) the side that attacked an
 * enemy piece with every one of its moves, the other not; else (3) the side that passed
 * first. -1 when no side must. */
static int cycle_obliged(const chu_state *s, chu_pos q, gv_move last, uint32_t first)
{
    chu_hist extra;
    if (last)
        pos_make(&q, last, &extra);
    int checks[2] = {1, 1}, attacks[2] = {1, 1}, moved[2] = {0, 0}, passed = 0;
    uint32_t ply = s->ply + (last ? 1 : 0);
    for (; ply > first; ply--) {
        const chu_hist *h = ply > s->ply ? &extra : &s->hist[(ply - 1) % CHU_HIST];
        int mover = !q.stm;
        moved[mover] = 1;
        if (!chu_in_check(&q, q.stm))
            checks[mover] = 0;
        if (attacks[mover] && !attacks_a_piece(&q, mover))
            attacks[mover] = 0;
        if (CHU_FLAGS(h->move) & CHU_MF_PASS)
            passed = 1;
        pos_unmake(&q, h);
    }
    for (int side = 0; side < 2; side++) {
        checks[side] &= moved[side];
        attacks[side] &= moved[side];
    }
    if (checks[0] != checks[1])
        return checks[0] ? 0 : 1;
    if (!checks[0] && attacks[0] != attacks[1])
        return attacks[0] ? 0 : 1;
    /* The first to pass, judged over the whole repeating stretch (since the last
     * irreversible move), so that every position of it names the same side. */
    return passed ? earliest_passer(s, last) : -1;
}

int chu_rep_allows(const chu_state *s, gv_move m)
{
    const chu_pos *p = &s->pos;
    if (p->opt.repetition < CHU_REP_STRICT || move_irreversible(p, m))
        return 1;
    uint32_t first = 0;
    uint64_t after = chu_key_after(p, m);
    if (p->opt.repetition == CHU_REP_STRICT) {
        /* The position is the board, the side to move and the reserves: a counter-strike
         * square does not make it another (so two passes in a row stay impossible). */
        int cs = move_new_cs(p, m);
        int seen = occurrences_after(s, cs ? after ^ chu_cs_key(cs) : after, 1, &first);
        return seen == 0 || chu_in_check(p, p->stm);
    }
    int seen = occurrences_after(s, after, 0, &first);
    return seen < 3 || cycle_obliged(s, *p, m, first) != p->stm;
}

int chu_rep_filter(const chu_state *s, gv_move *moves, int n)
{
    if (s->pos.opt.repetition < CHU_REP_STRICT)
        return n;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (chu_rep_allows(s, moves[i]))
            moves[k++] = moves[i];
    return k;
}

/* ---- End of the game -------------------------------------------------------------- */

int chu_end_by_material(const chu_pos *p, int *winner, const char **reason)
{
    int me = p->stm, them = !me;
    const char *why = NULL;
    if (p->royals[me] == 0 || p->royals[them] == 0) {
        *winner = p->royals[me] == 0 ? them : me;
        why = "royal captured";
    } else if (p->opt.bare_king && chu_is_bared(p, me)) {
        *winner = them;
        why = "bare king";
    } else if (p->opt.bare_king && chu_is_bared(p, them)) {
        *winner = me;
        why = "bare king";
    }
    if (reason)
        *reason = why;
    return why != NULL;
}

/* Decides every ending except "no legal move". Returns 1 if the game is over. */
int chu_ended_by_rule(const chu_state *s, gv_result *res)
{
    const chu_pos *p = &s->pos;
    int winner;
    const char *why;
    if (chu_end_by_material(p, &winner, &why)) {
        res->status = GV_WIN;
        res->winner = winner;
        strcpy(res->reason, why);
        return 1;
    }
    if (kings_only_draw(p)) {
        res->status = GV_DRAW;
        res->winner = -1;
        strcpy(res->reason, "kings only");
        return 1;
    }
    int loser;
    uint32_t first;
    if (p->opt.repetition == CHU_REP_JCSA && fourfold_at(s, &first)) {
        /* A fourth occurrence stands only when nobody had to deviate: a draw. (When a side
         * had to, it was the other side's move that repeated, and play goes on.) */
        if (cycle_obliged(s, *p, 0, first) < 0) {
            res->status = GV_DRAW;
            res->winner = -1;
            strcpy(res->reason, "repetition");
            return 1;
        }
        return 0;
    }
    if (p->opt.repetition == CHU_REP_ON && fourfold(s, &loser)) {
        if (loser >= 0) {
            res->status = GV_WIN;
            res->winner = !loser;
            strcpy(res->reason, "perpetual check");
        } else {
            res->status = GV_DRAW;
            res->winner = -1;
            strcpy(res->reason, "repetition");
        }
        return 1;
    }
    return 0;
}

gv_status chu_status(const chu_state *s, gv_result *res)
{
    gv_result tmp;
    if (!res)
        res = &tmp;
    memset(res, 0, sizeof *res);
    res->winner = -1;
    const chu_pos *p = &s->pos;
    /* Same order as shogiops: royals, then no legal move, then the other endings. */
    if (p->royals[p->stm] && p->royals[!p->stm]) {
        gv_move buf[GV_MAX_MOVES];
        if (chu_rep_filter(s, buf, chu_gen_moves(p, buf)) == 0) {
            res->status = GV_WIN;
            res->winner = !p->stm;
            strcpy(res->reason, "no legal move");
            return res->status;
        }
    }
    if (chu_ended_by_rule(s, res))
        return res->status;
    res->status = GV_ONGOING;
    return res->status;
}

int chu_legal_moves(const chu_state *s, gv_move *out)
{
    gv_result r;
    if (chu_ended_by_rule(s, &r))
        return 0;
    return chu_rep_filter(s, out, chu_gen_moves(&s->pos, out));
}
