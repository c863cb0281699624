/* What each game adds to the server's view of a game: Grav's parameters, phase, stones and
 * marks (all public facts; whether a pending stone breaks a rule is never told until a
 * call reveals it), and the placer's private hint. Everything is read from the rules
 * core's state; nothing here judges a move. */
#include <stdio.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/exac/exac.h"
#include "games/grav/grav.h"
#include "server/hub_internal.h"

static int is_grav(const room *r)
{
    return !strcmp(r->g->name, "grav");
}

static json_t *point(const grav_pos *p, int q)
{
    char nm[8];
    if (q < 0)
        return json_null();
    grav_point_name(p, q, nm);
    return json_string(nm);
}

static const char *const phase_names[] = {"turn", "bonus", "window", "declare", "remove", "over"};

static const char *const exac_role_names[EX_NROLES] = {"Polus", "Yachi", "Perits", "Adrib",
                                                        "Potersin", "Lapah"};

/* Exaç: what each piece is where it stands (its roles come from its square and its
 * neighbours) and whether it is boosted: the rules core's exac_piece_dests. */
static void exac_extra(const room *r, json_t *view)
{
    const exac_pos *p = &((const exac_state *)r->st)->pos;
    json_t *pieces = json_array();
    for (int sq = 0; sq < EX_SQUARES; sq++) {
        int side = (p->bb[0] >> sq & 1) ? 0 : (p->bb[1] >> sq & 1) ? 1 : -1;
        if (side < 0)
            continue;
        exac_dests d;
        exac_piece_dests(p, sq, &d);
        char name[4];
        exac_square_name(sq, name);
        json_t *o = json_object(), *roles = json_array(), *dests = json_array();
        json_object_set_new(o, "square", json_string(name));
        json_object_set_new(o, "side", json_integer(side));
        uint64_t all = 0;
        for (int k = 0; k < EX_NROLES; k++)
            if (d.has_role[k] || k == EX_POLUS) {
                json_array_append_new(roles, json_string(exac_role_names[k]));
                all |= d.base[k] | d.boost[k];
            }
        json_object_set_new(o, "roles", roles);
        json_object_set_new(o, "boosted", json_boolean(d.boosted));
        for (int t = 0; t < EX_SQUARES; t++)
            if (all >> t & 1) {
                exac_square_name(t, name);
                json_array_append_new(dests, json_string(name));
            }
        json_object_set_new(o, "reach", dests);
        json_array_append_new(pieces, o);
    }
    json_t *o = json_object();
    json_object_set_new(o, "pieces", pieces);
    /* The last move's squares, for the page to mark (the move text names only the
     * destination). A resignation is not a move here. */
    if (r->nmoves > 0 && r->moves) {
        char from[4], to[4];
        gv_move m = r->moves[r->nmoves - 1].m;
        exac_square_name(EX_FROM(m), from);
        exac_square_name(EX_TO(m), to);
        json_t *lm = json_object();
        json_object_set_new(lm, "from", json_string(from));
        json_object_set_new(lm, "to", json_string(to));
        json_object_set_new(o, "last_move", lm);
    } else {
        json_object_set_new(o, "last_move", json_null());
    }
    json_object_set_new(view, "exac", o);
}

void hub_view_extra(const room *r, json_t *view)
{
    if (!strcmp(r->g->name, "exac")) {
        exac_extra(r, view);
        return;
    }
    if (!is_grav(r))
        return;
    const grav_pos *p = &((const grav_state *)r->st)->pos;
    const grav_ctl *c = &p->c;
    json_t *o = json_object();
    json_object_set_new(o, "size", json_integer(p->n));
    json_object_set_new(o, "players", json_integer(p->players));
    json_t *prm = json_object();
    json_object_set_new(prm, "a", json_integer(p->prm.a));
    json_object_set_new(prm, "b", json_integer(p->prm.b));
    json_object_set_new(prm, "c", json_integer(p->prm.c));
    json_object_set_new(prm, "d", json_integer(p->prm.d));
    json_object_set_new(prm, "e", json_integer(p->prm.e));
    json_object_set_new(o, "params", prm);
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)p->seed);
    json_object_set_new(o, "seed", json_string(seed));
    json_object_set_new(o, "phase", json_string(c->phase <= GR_OVER ? phase_names[c->phase] : "?"));
    json_object_set_new(o, "current", json_integer(c->current ? c->current - 1 : 0));
    /* The board: one entry per point, 0 empty or the owner's seat + 1, rank 1 first. */
    json_t *b = json_array();
    for (int q = 0; q < p->n * p->n; q++)
        json_array_append_new(b, json_integer(p->board[q]));
    json_object_set_new(o, "board", b);
    int last = p->norder ? p->order[p->norder - 1] : -1;
    json_object_set_new(o, "last", point(p, last));
    json_object_set_new(o, "reference", point(p, grav_reference(p)));
    if (c->pend_q >= 0) {
        json_t *pd = json_object();
        json_object_set_new(pd, "point", point(p, c->pend_q));
        json_object_set_new(pd, "seat", json_integer(c->pend_player - 1));
        json_object_set_new(pd, "bonus", json_boolean(c->pend_kind == 1));
        json_object_set_new(o, "pending", pd);
    } else {
        json_object_set_new(o, "pending", json_null());
    }
    json_t *counts = json_array(), *skips = json_array(), *resigned = json_array();
    for (int pl = 1; pl <= p->players; pl++) {
        json_array_append_new(counts, json_integer(p->count[pl]));
        json_array_append_new(skips, json_integer(c->skips[pl - 1]));
        json_array_append_new(resigned, json_boolean(c->resigned >> (pl - 1) & 1));
    }
    json_object_set_new(o, "stones", counts);
    json_object_set_new(o, "skips", skips);
    json_object_set_new(o, "resigned", resigned);
    json_object_set_new(o, "owed", json_integer(c->owed));
    json_object_set_new(o, "declare_max", c->phase == GR_DECLARE ? json_integer(c->declare_k)
                                                                 : json_null());
    json_object_set_new(o, "victim", c->phase == GR_REMOVE ? json_integer(c->victim - 1)
                                                          : json_null());
    json_object_set_new(o, "caller", c->phase == GR_REMOVE ? json_integer(c->caller - 1)
                                                          : json_null());
    uint32_t limit = p->opt.max_turns ? p->opt.max_turns : 8u * p->n * p->n;
    json_object_set_new(o, "turns", json_integer(c->turns));
    json_object_set_new(o, "max_turns", json_integer(limit));
    json_object_set_new(o, "hints", json_boolean(p->opt.hints));
    json_object_set_new(view, "grav", o);
}

/* Exaç moves are written in the game's notation ("Hdm5"); a board needs their squares. */
static void exac_private(const room *r, int seat, json_t *you)
{
    json_t *a = json_array();
    if (r->status == ROOM_LIVE && hub_to_move_seat(r) == seat) {
        gv_move mv[GV_MAX_MOVES];
        int n = r->g->legal_moves(r->st, mv);
        for (int i = 0; i < n; i++) {
            char text[32], from[4], to[4];
            if (r->g->write_move(r->st, mv[i], text, sizeof text) < 0)
                continue;
            exac_square_name(EX_FROM(mv[i]), from);
            exac_square_name(EX_TO(mv[i]), to);
            json_t *o = json_object();
            json_object_set_new(o, "move", json_string(text));
            json_object_set_new(o, "from", json_string(from));
            json_object_set_new(o, "to", json_string(to));
            json_array_append_new(a, o);
        }
    }
    json_object_set_new(you, "moves", a);
}

void hub_view_private(const room *r, int seat, json_t *you)
{
    if (!strcmp(r->g->name, "exac")) {
        exac_private(r, seat, you);
        return;
    }
    if (!is_grav(r))
        return;
    const grav_pos *p = &((const grav_state *)r->st)->pos;
    int placing = (p->c.phase == GR_TURN || p->c.phase == GR_BONUS) &&
                  grav_to_move(p) == seat + 1 && r->status == ROOM_LIVE;
    json_object_set_new(you, "can_hint", json_boolean(p->opt.hints && placing));
}

int hub_hint(const room *r, int seat, const char *pt, json_t *out, char *err, size_t errlen)
{
    if (!is_grav(r))
        return gv_err(err, errlen, "hints are a Grav feature");
    const grav_pos *p = &((const grav_state *)r->st)->pos;
    if (!p->opt.hints)
        return gv_err(err, errlen, "hints are off in this game (option hints)");
    if (r->status != ROOM_LIVE || grav_to_move(p) != seat + 1 ||
        (p->c.phase != GR_TURN && p->c.phase != GR_BONUS))
        return gv_err(err, errlen, "a hint is for your own placement, on your turn; whether "
                      "someone else's stone breaks a rule is for you to find");
    int q;
    int k = pt ? grav_parse_point(p, pt, &q) : 0;
    if (!k || pt[k])
        return gv_err(err, errlen, "'%.16s' is not a point of this board", pt ? pt : "");
    if (p->board[q])
        return gv_err(err, errlen, "%s is occupied", pt);
    unsigned v = grav_placement_violations(p, q);
    json_object_set_new(out, "point", json_string(pt));
    json_object_set_new(out, "violates", json_boolean(v != 0));
    json_t *rules = json_array();
    for (int b = 0; b < 3; b++)
        if (v >> b & 1)
            json_array_append_new(rules, json_string(grav_rule_names[b]));
    json_object_set_new(out, "rules", rules);
    return 0;
}
