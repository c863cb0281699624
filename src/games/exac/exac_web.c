/* Exaç's part of the server's JSON views: what each piece is where it stands (its roles
 * come from its square and its neighbours) and whether it is boosted, the last move's
 * squares, and the squares of the legal moves (the moves are written in the game's
 * notation, "Hdm5", and a board needs their squares). Read from the rules core. */
#include <jansson.h>

#include "games/exac/exac.h"
#include "games/exac/exac_web.h"
#include "server/web_view.h"

static const char *const exac_role_names[EX_NROLES] = {"Polus", "Yachi", "Perits", "Adrib",
                                                        "Potersin", "Lapah"};

static void exac_view(const void *st, const gv_move *last, json_t *view)
{
    const exac_pos *p = &((const exac_state *)st)->pos;
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
    if (last) {
        char from[4], to[4];
        exac_square_name(EX_FROM(*last), from);
        exac_square_name(EX_TO(*last), to);
        json_t *lm = json_object();
        json_object_set_new(lm, "from", json_string(from));
        json_object_set_new(lm, "to", json_string(to));
        json_object_set_new(o, "last_move", lm);
    } else {
        json_object_set_new(o, "last_move", json_null());
    }
    json_object_set_new(view, "exac", o);
}

static void exac_you(const void *st, int seat, int live, json_t *you)
{
    const exac_state *s = st;
    json_t *a = json_array();
    if (live && s->pos.stm == seat) {
        gv_move mv[GV_MAX_MOVES];
        int n = exac_legal_moves(s, mv);
        for (int i = 0; i < n; i++) {
            char text[32], from[4], to[4];
            if (exac_write_move(s, mv[i], text, sizeof text) < 0)
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

const struct gv_web_view gv_exac_web = {
    .view = exac_view,
    .you = exac_you,
};
