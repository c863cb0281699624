/* Exaç state: make/unmake with history and the end of the game (rules 1-6 of exac.md). */
#include <string.h>

#include "games/exac/exac.h"
#include "games/exac/exac_bits.h"

void exac_state_reset(exac_state *s)
{
    s->ply = 0;
    s->pad = 0;
    memset(s->hist, 0, sizeof s->hist);
}

void exac_make(exac_state *s, gv_move m)
{
    exac_pos *p = &s->pos;
    exac_hist *h = &s->hist[s->ply % EX_HIST];
    int from = EX_FROM(m), to = EX_TO(m), me = p->stm, them = !me;
    h->key = p->key;
    h->move = m;
    h->toppled_before = p->toppled;
    h->quiet_before = p->quiet;
    h->captured = (p->bb[them] >> to & 1) != 0;
    p->key = exac_key_after(p, m);
    p->toppled = 0;
    if (h->captured) {
        /* Rule 1 looks at the captured piece in the position before the move. */
        p->toppled = (int)(exac_yachi_of(p->bb[them]) >> to & 1);
        p->bb[them] &= ~EX_BIT(to);
        p->quiet = 0;
    } else {
        p->quiet++;
    }
    p->bb[me] ^= EX_BIT(from) | EX_BIT(to);
    if (me == EX_SECOND)
        p->movenum++;
    p->stm = (uint8_t)them;
    s->ply++;
}

void exac_unmake(exac_state *s)
{
    exac_pos *p = &s->pos;
    s->ply--;
    exac_hist *h = &s->hist[s->ply % EX_HIST];
    int from = EX_FROM(h->move), to = EX_TO(h->move);
    int me = !p->stm, them = p->stm;
    p->stm = (uint8_t)me;
    if (me == EX_SECOND)
        p->movenum--;
    p->bb[me] ^= EX_BIT(from) | EX_BIT(to);
    if (h->captured)
        p->bb[them] |= EX_BIT(to);
    p->key = h->key;
    p->toppled = h->toppled_before;
    p->quiet = h->quiet_before;
    memset(h, 0, sizeof *h);
}

void exac_make_null(exac_state *s, exac_pos *undo)
{
    exac_pos *p = &s->pos;
    *undo = *p;
    p->key ^= exac_side_key();
    if (p->stm == EX_SECOND)
        p->movenum++;
    p->stm = (uint8_t)!p->stm;
    p->toppled = 0;
    p->quiet++;
}

void exac_unmake_null(exac_state *s, const exac_pos *undo)
{
    s->pos = *undo;
}

int exac_mover_wins(const exac_pos *p, const char **reason)
{
    int them = p->stm, mover = !them;
    if (p->toppled) {
        *reason = "yachi toppled";
        return 1;
    }
    uint64_t camp = exac_enemy_camp(mover);   /* them's own camp */
    int theirs = __builtin_popcountll(p->bb[them] & camp);
    if (theirs >= 1 && theirs == __builtin_popcountll(p->bb[mover] & camp)) {
        *reason = "camp parity";
        return 1;
    }
    if (__builtin_popcountll(p->bb[them]) <= 3) {
        *reason = "three or fewer";
        return 1;
    }
    return 0;
}

/* Third occurrence of the position (board and side to move) since it was set. */
static int threefold(const exac_state *s)
{
    /* Only the plies since the last capture can repeat, and there are at most pos.quiet
     * of them in the history (a capture sets it to 0, every other move and a null move
     * add 1, a set-up position may start above 0): the loop stops at the same entry as
     * without this bound, sooner after a capture (most nodes of a search). */
    uint32_t avail = s->ply < EX_HIST - 1 ? s->ply : EX_HIST - 1;
    if (avail > s->pos.quiet)
        avail = s->pos.quiet;
    int seen = 1;
    for (uint32_t back = 1; back <= avail; back++) {
        const exac_hist *h = &s->hist[(s->ply - back) % EX_HIST];
        if (h->captured)
            break;
        if (!(back & 1) && h->key == s->pos.key && ++seen >= 3)
            return 1;
    }
    return 0;
}

int exac_ended_by_rule(const exac_state *s, gv_result *res)
{
    const exac_pos *p = &s->pos;
    const char *why;
    if (exac_mover_wins(p, &why)) {
        res->status = GV_WIN;
        res->winner = !p->stm;
        strcpy(res->reason, why);
        return 1;
    }
    int repeated = p->opt.repetition && threefold(s);
    if (repeated || (p->opt.quiet_limit && p->quiet >= p->opt.quiet_limit)) {
        res->status = GV_DRAW;
        res->winner = -1;
        strcpy(res->reason, repeated ? "repetition" : "quiet limit");
        return 1;
    }
    return 0;
}

gv_status exac_status(exac_state *s, gv_result *res)
{
    gv_result tmp;
    if (!res)
        res = &tmp;
    memset(res, 0, sizeof *res);
    res->winner = -1;
    if (exac_ended_by_rule(s, res))
        return res->status;
    gv_move buf[GV_MAX_MOVES];
    if (exac_gen_moves(&s->pos, buf) == 0) {
        res->status = GV_WIN;
        res->winner = !s->pos.stm;
        strcpy(res->reason, "no legal move");
        return res->status;
    }
    res->status = GV_ONGOING;
    return GV_ONGOING;
}

int exac_legal_moves(exac_state *s, gv_move *out)
{
    gv_result r;
    if (exac_ended_by_rule(s, &r))
        return 0;
    return exac_gen_moves(&s->pos, out);
}
