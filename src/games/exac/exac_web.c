/* Exaç's part of the server's JSON views: what each piece is where it stands (its roles
 * come from its square and its neighbours), whether it is boosted and the squares each
 * role gives it, the last move's squares, and the squares of the legal moves (the moves
 * are written in the game's notation, "Hdm5", and a board needs their squares); and the
 * roles for the page's help (GET /api/meta's "pieces"), with example positions whose
 * destinations the rules core computes. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "games/exac/exac.h"
#include "games/exac/exac_web.h"
#include "server/web_view.h"

static const char *const exac_role_names[EX_NROLES] = {"Polus", "Yachi", "Perits", "Adrib",
                                                        "Potersin", "Lapah"};

/* The squares of bitboard b as an array of names. */
static json_t *square_list(uint64_t b)
{
    json_t *a = json_array();
    char name[4];
    for (; b; b &= b - 1) {
        exac_square_name(__builtin_ctzll(b), name);
        json_array_append_new(a, json_string(name));
    }
    return a;
}

/* The squares each role the piece holds gives it, {"Polus": ["m5"], ...} (boost 0), or
 * those only its boost adds, for the roles it adds some to (boost 1). */
static json_t *role_squares(const exac_dests *d, int boost)
{
    json_t *o = json_object();
    for (int k = 0; k < EX_NROLES; k++)
        if (d->has_role[k] && (!boost || d->boost[k]))
            json_object_set_new(o, exac_role_names[k], square_list(boost ? d->boost[k] : d->base[k]));
    return o;
}

/* Exaç has no royal piece, but capturing a Yachi wins ("Yachi toppled"): the view's
 * "checks" are the squares of the Yachis (exac_yachis) that a piece of the other side
 * reaches now (exac_piece_dests, boost included), of both sides: the side to move's are
 * threatened, the other side's can be taken at once. */
static json_t *exac_checks(const exac_pos *p)
{
    uint64_t hit = 0;
    for (int side = 0; side < 2; side++) {
        uint64_t reach = 0;
        for (uint64_t b = p->bb[!side]; b; b &= b - 1) {
            exac_dests d;
            exac_piece_dests(p, __builtin_ctzll(b), &d);
            for (int k = 0; k < EX_NROLES; k++)
                reach |= d.base[k] | d.boost[k];
        }
        hit |= exac_yachis(p, side) & reach;
    }
    return square_list(hit);
}

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
        json_object_set_new(o, "by_role", role_squares(&d, 0));
        if (d.boosted)
            json_object_set_new(o, "boost_by_role", role_squares(&d, 1));
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
    json_object_set_new(view, "checks", exac_checks(p));
}

/* Whether the side to move in s can capture a Yachi (and so win) at once. */
static int yachi_capture_ready(exac_state *s)
{
    gv_move mv[GV_MAX_MOVES];
    int n = exac_legal_moves(s, mv), found = 0;
    for (int i = 0; i < n && !found; i++) {
        exac_make(s, mv[i]);
        found = s->pos.toppled;
        exac_unmake(s);
    }
    return found;
}

/* Whether move m of the side to move leaves one of its Yachis where the opponent can
 * capture it (a move that wins at once leaves nothing to take). */
static int leaves_yachi_en_prise(exac_state *s, gv_move m)
{
    exac_make(s, m);
    int bad = exac_status(s, NULL) == GV_ONGOING && yachi_capture_ready(s);
    exac_unmake(s);
    return bad;
}

/* The seat's legal moves when it is to move: {move, from, to}, plus "exposes_yachi": true
 * on a move after which the opponent can capture one of its Yachis (the page may warn
 * before such a move is played). */
static void exac_you(const void *st, int seat, int live, json_t *you)
{
    const exac_state *s = st;
    json_t *a = json_array();
    exac_state *work = live && s->pos.stm == seat ? malloc(sizeof *work) : NULL;
    if (work) {
        *work = *s;
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
            if (leaves_yachi_en_prise(work, mv[i]))
                json_object_set_new(o, "exposes_yachi", json_true());
            json_array_append_new(a, o);
        }
        free(work);
    }
    json_object_set_new(you, "moves", a);
}

/* ---- The roles for the page's help ----------------------------------------------------- */

/* What each role needs and gives, in words (shared/rules/exac.md's table). */
static const struct {
    const char *condition, *base, *boosted;
} role_text[EX_NROLES] = {
    [EX_POLUS] = {"always: every piece is a Polus", "one step straight forward",
                  "two steps straight forward, if the first square is empty"},
    [EX_YACHI] = {"at least 3 of the 4 diagonally adjacent squares hold friendly pieces; "
                  "capturing an enemy Yachi wins the game",
                  "one step along the 4 orthogonals", "nothing more"},
    [EX_PERITS] = {"the piece stands on an edge of the board",
                   "slides away from each edge it stands on, straight across the board",
                   "one step each way along the edge"},
    [EX_ADRIB] = {"a friendly piece on at least one of the 4 orthogonally adjacent squares",
                  "towards each orthogonally adjacent friend, a knight's leap: two squares that "
                  "way and one to the side",
                  "from a knight square that is empty, one more step on in the friend's "
                  "direction or to the side"},
    [EX_POTERSIN] = {"at least 3 friendly pieces on the 8 surrounding squares",
                     "one step in any of the 8 directions",
                     "the 12 squares two away that are not on a diagonal, through an empty "
                     "neighbour"},
    [EX_LAPAH] = {"the piece stands in the opponent's camp (its three home ranks)",
                  "slides along the 4 orthogonals and one step along the 4 diagonals",
                  "slides along the diagonals too (a queen)"},
};

/* An example per role for First (moving up the page): the role's piece on `square`, on
 * the board `plain`, and on `boosted`, the same with a friendly Yachi next to it (with the
 * three diagonal friends a Yachi needs). Chosen so that the role's condition holds. */
static const struct {
    const char *square, *plain, *boosted;
} role_example[EX_NROLES] = {
    [EX_POLUS] = {"s4", "7/7/7/3F3/7/7/7 f 0 1", "7/7/7/3F3/2F4/1F1F3/7 f 0 1"},
    [EX_YACHI] = {"s4", "7/7/2F4/3F3/2F1F2/7/7 f 0 1", NULL},
    [EX_PERITS] = {"g4", "7/7/7/F6/7/7/7 f 0 1", "7/7/7/F6/1F5/F1F4/7 f 0 1"},
    [EX_ADRIB] = {"m4", "7/7/2F4/2FF3/7/7/7 f 0 1", "7/7/2F4/2FF3/1F5/F1F4/7 f 0 1"},
    [EX_POTERSIN] = {"s4", "7/7/7/3F3/2FFF2/7/7 f 0 1", "7/7/7/3F3/2FFF2/1F1F3/7 f 0 1"},
    [EX_LAPAH] = {"s3", "7/7/3F3/7/7/7/7 f 0 1", "7/7/3F3/2F4/1F1F3/7/7 f 0 1"},
};

/* One example: the position, the piece, its friends and their Yachis, and the squares
 * role k gives it there (by exac_piece_dests). NULL if the text is not a position. */
static json_t *example(int k, const char *square, const char *text)
{
    exac_pos p;
    int sq;
    char err[128];
    memset(&p, 0, sizeof p);
    if (exac_set_text(&p, text, err, sizeof err) < 0 || !exac_parse_square(square, &sq))
        return NULL;
    exac_dests d;
    exac_piece_dests(&p, sq, &d);
    return json_pack("{ss ss so so sb so so}", "position", text, "square", square, "friends",
                     square_list(p.bb[EX_FIRST] & ~EX_BIT(sq)), "yachis",
                     square_list(exac_yachis(&p, EX_FIRST) & ~EX_BIT(sq)), "boosted",
                     d.boosted, "base", square_list(d.base[k]), "boost",
                     square_list(d.boost[k]));
}

static void exac_pieces(json_t *out)
{
    json_t *roles = json_array();
    for (int k = 0; k < EX_NROLES; k++) {
        char letter[2] = {exac_role_letter[k], 0};
        json_t *ex = json_array(), *e;
        if ((e = example(k, role_example[k].square, role_example[k].plain)))
            json_array_append_new(ex, e);
        if (role_example[k].boosted &&
            (e = example(k, role_example[k].square, role_example[k].boosted)))
            json_array_append_new(ex, e);
        json_array_append_new(roles, json_pack("{ss ss ss ss ss so}", "name", exac_role_names[k],
                                               "letter", letter, "condition",
                                               role_text[k].condition, "moves", role_text[k].base,
                                               "boosted", role_text[k].boosted, "examples", ex));
    }
    json_object_set_new(out, "roles", roles);
    /* The roles a lone piece of each side has on each square: those its square alone
     * gives (Polus everywhere, Perits on the edges, Lapah in the opponent's camp). */
    json_t *squares = json_array();
    for (int sq = 0; sq < EX_SQUARES; sq++) {
        char name[4];
        exac_square_name(sq, name);
        json_t *o = json_pack("{ss}", "square", name);
        for (int side = 0; side < 2; side++) {
            exac_pos p;
            memset(&p, 0, sizeof p);
            p.bb[side] = EX_BIT(sq);
            exac_dests d;
            exac_piece_dests(&p, sq, &d);
            json_t *a = json_array();
            for (int k = 0; k < EX_NROLES; k++)
                if (d.has_role[k])
                    json_array_append_new(a, json_string(exac_role_names[k]));
            json_object_set_new(o, side ? "second" : "first", a);
        }
        json_array_append_new(squares, o);
    }
    json_object_set_new(out, "squares", squares);
    json_object_set_new(out, "boost",
                        json_string("A piece with a friendly Yachi on one of its 8 surrounding "
                                    "squares is boosted: each of its roles gains its boosted "
                                    "moves (shown ★ on the board)."));
    json_object_set_new(out, "about",
                        json_string("All pieces are alike: what a piece may do depends on "
                                    "where it stands and on its neighbours. It always moves as "
                                    "a Polus, and also by every role whose condition it meets "
                                    "before the move; its moves are the union. A move ends on "
                                    "an empty square or captures the enemy piece there."));
}

const struct gv_web_view gv_exac_web = {
    .view = exac_view,
    .you = exac_you,
    .pieces = exac_pieces,
};
