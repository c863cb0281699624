/* Grav's part of the server's JSON views: its parameters, phase, stones and marks (all
 * public facts; whether a pending stone breaks a rule is never told until a call reveals
 * it), the placer's private hint, and each move in words for the move list ("P2 places
 * d4", a call with its verdict). Read from the rules core's state. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/grav/grav.h"
#include "games/grav/grav_web.h"
#include "server/web_view.h"

static json_t *point(const grav_pos *p, int q)
{
    char nm[8];
    if (q < 0)
        return json_null();
    grav_point_name(p, q, nm);
    return json_string(nm);
}

static const char *const phase_names[] = {"turn", "bonus", "window", "declare", "remove", "over"};

static void grav_view(const void *st, const gv_move *last_move, json_t *view)
{
    (void)last_move;
    const grav_pos *p = &((const grav_state *)st)->pos;
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

/* While a stone awaits its answers, whether it breaks a rule is the referee's secret (the
 * rules: never told until a call reveals it), and an engine analysing the position would
 * tell it: by its search, or by a variation that calls "Grav!". */
static const char *grav_analysis_closed(const void *st)
{
    const grav_pos *p = &((const grav_state *)st)->pos;
    return p->c.phase == GR_WINDOW
               ? "A placement awaits its answers. The engine knows whether the stone breaks "
                 "a rule, and no one may be told while the players answer."
               : NULL;
}

/* Is seat the one placing a stone now? */
static int placing(const grav_pos *p, int seat, int live)
{
    return (p->c.phase == GR_TURN || p->c.phase == GR_BONUS) && grav_to_move(p) == seat + 1 &&
           live;
}

static void grav_you(const void *st, int seat, int live, json_t *you)
{
    const grav_pos *p = &((const grav_state *)st)->pos;
    json_object_set_new(you, "can_hint", json_boolean(p->opt.hints && placing(p, seat, live)));
}

static int grav_hint(const void *st, int seat, int live, const char *pt, json_t *out,
                     char *err, size_t errlen)
{
    const grav_pos *p = &((const grav_state *)st)->pos;
    if (!p->opt.hints)
        return gv_err(err, errlen, "hints are off in this game (option hints)");
    if (!placing(p, seat, live))
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

/* "the distance rule", "the consecutive and density rules" for the rules of bits v. */
static int rule_words(unsigned v, char *buf, size_t len)
{
    int n = snprintf(buf, len, "the ");
    int k = 0, total = __builtin_popcount(v & 7);
    for (int b = 0; b < 3; b++) {
        if (!(v >> b & 1))
            continue;
        n += snprintf(buf + n, len - (size_t)n, "%s%s", k == 0 ? "" : k == total - 1 ? " and " : ", ",
                      grav_rule_names[b]);
        k++;
    }
    return n + snprintf(buf + n, len - (size_t)n, " rule%s", total > 1 ? "s" : "");
}

static const char *const grav_notations[] = {"words", NULL};

/* The move in words, from the position before it: who does what, and for a "Grav!" call
 * the referee's verdict, which the call makes public. */
static int grav_move_texts(const void *st, gv_move m, char *buf, size_t len)
{
    const grav_pos *p = &((const grav_state *)st)->pos;
    const grav_ctl *c = &p->c;
    int pl = GR_PLAYER(m);
    char pt[8] = "", pend[8] = "", rules[64], tmp[192], also[48] = "";
    if (c->pend_q >= 0) {
        grav_point_name(p, c->pend_q, pend);
        if (c->phase == GR_WINDOW)
            snprintf(also, sizeof also, ", accepting P%d's stone on %s", c->pend_player, pend);
    }
    int n;
    switch (GR_ACT(m)) {
    case GA_PLACE:
        grav_point_name(p, GR_ARG(m), pt);
        n = snprintf(tmp, sizeof tmp, "P%d places %s%s%s", pl, pt,
                     c->phase == GR_BONUS ? " (bonus turn)" : "", also);
        break;
    case GA_PASS:
        n = snprintf(tmp, sizeof tmp, "P%d passes%s", pl, also);
        break;
    case GA_ACCEPT:
        n = snprintf(tmp, sizeof tmp, "P%d accepts P%d's stone on %s", pl, c->pend_player, pend);
        break;
    case GA_GRAV:
        if (c->pend_viol) {
            rule_words(c->pend_viol, rules, sizeof rules);
            n = snprintf(tmp, sizeof tmp, "P%d calls Grav! on %s, a correct call: the stone "
                         "broke %s and is taken back", pl, pend, rules);
        } else {
            n = snprintf(tmp, sizeof tmp, "P%d calls Grav! on %s, a wrong call: the stone "
                         "broke no rule and stays; P%d loses its next turn", pl, pend, pl);
        }
        break;
    case GA_DECLARE:
        n = GR_ARG(m) ? snprintf(tmp, sizeof tmp, "P%d declares %d bonus turn%s", pl, GR_ARG(m),
                                 GR_ARG(m) > 1 ? "s" : "")
                      : snprintf(tmp, sizeof tmp, "P%d declares no bonus turn", pl);
        break;
    case GA_REMOVE:
        grav_point_name(p, GR_ARG(m), pt);
        n = snprintf(tmp, sizeof tmp, "P%d removes P%d's stone on %s", pl, c->victim, pt);
        break;
    case GA_RESIGN:
        n = snprintf(tmp, sizeof tmp, "P%d resigns", pl);
        break;
    default:
        return -1;
    }
    if (n < 0 || (size_t)n + 1 > len || (size_t)n >= sizeof tmp)
        return -1;
    memcpy(buf, tmp, (size_t)n + 1);
    return n + 1;
}

const struct gv_web_view gv_grav_web = {
    .view = grav_view,
    .analysis_closed = grav_analysis_closed,
    .you = grav_you,
    .hint = grav_hint,
    .notations = grav_notations,
    .move_texts = grav_move_texts,
};
