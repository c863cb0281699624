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

/* The reason exac_ended_by_rule writes for each code. */
static const char *const end_reason[] = {
    [EXAC_END_TOPPLED] = "yachi toppled",
    [EXAC_END_PARITY] = "camp parity",
    [EXAC_END_THREE] = "three or fewer",
    [EXAC_END_REPETITION] = "repetition",
    [EXAC_END_QUIET] = "quiet limit",
};

int exac_mover_wins(const exac_pos *p, const char **reason)
{
    int code = exac_mover_win_code(p);
    if (code)
        *reason = end_reason[code];
    return code != EXAC_END_NONE;
}

int exac_ended_by_rule(const exac_state *s, gv_result *res)
{
    int code = exac_end_code(s);
    if (!code)
        return 0;
    int draw = code == EXAC_END_REPETITION || code == EXAC_END_QUIET;
    res->status = draw ? GV_DRAW : GV_WIN;
    res->winner = draw ? -1 : !s->pos.stm;
    strcpy(res->reason, end_reason[code]);
    return 1;
}

gv_status exac_status(const exac_state *s, gv_result *res)
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

int exac_legal_moves(const exac_state *s, gv_move *out)
{
    gv_result r;
    if (exac_ended_by_rule(s, &r))
        return 0;
    return exac_gen_moves(&s->pos, out);
}
