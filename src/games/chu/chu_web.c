/* Chu Shogi's part of the server's JSON views:
 * - the pieces for the page's help (GET /api/meta's "pieces"), each kind with its names,
 *   its TSA abbreviation, what it promotes to and how it moves, read from the rules core's
 *   movement table (chu_moves) and its notation (chu_tsa_piece, chu_kif_piece_name): the
 *   page draws the diagrams from this and knows no move of its own;
 * - each move of the move list in TSA notation (the English literature's, written by the
 *   rules core: P-8f, Px7d=, Lnx3hx2i) and in Japanese as a KIF move line writes it
 *   (☗７八歩兵), besides its USI text;
 * - in the view, "checks": the square of each side's only royal that the other side
 *   attacks (the rules core's chu_in_check), for the page to mark. */
#include <jansson.h>
#include <string.h>

#include "games/chu/chu.h"
#include "games/chu/chu_record.h"
#include "games/chu/chu_web.h"
#include "server/web_view.h"

/* The English name of each piece type; types with the same name are one kind (a promoted
 * Gold is a Rook). The rules core has no names: these are the English literature's. */
static const char *const chu_names[CHU_NTYPES] = {
    [CT_LANCE] = "Lance", [CT_LEOPARD] = "Ferocious Leopard", [CT_COPPER] = "Copper General",
    [CT_SILVER] = "Silver General", [CT_GOLD] = "Gold General", [CT_KING] = "King",
    [CT_ELEPHANT] = "Drunk Elephant", [CT_CHARIOT] = "Reverse Chariot", [CT_BISHOP] = "Bishop",
    [CT_TIGER] = "Blind Tiger", [CT_PHOENIX] = "Phoenix", [CT_KIRIN] = "Kirin",
    [CT_SIDE] = "Side Mover", [CT_VERTICAL] = "Vertical Mover", [CT_ROOK] = "Rook",
    [CT_HORSE] = "Dragon Horse", [CT_DRAGON] = "Dragon King", [CT_QUEEN] = "Free King",
    [CT_LION] = "Lion", [CT_PAWN] = "Pawn", [CT_GOBETWEEN] = "Go-Between",
    [CT_LANCE + CHU_PROMO] = "White Horse", [CT_LEOPARD + CHU_PROMO] = "Bishop",
    [CT_COPPER + CHU_PROMO] = "Side Mover", [CT_SILVER + CHU_PROMO] = "Vertical Mover",
    [CT_GOLD + CHU_PROMO] = "Rook", [CT_ELEPHANT + CHU_PROMO] = "Prince",
    [CT_CHARIOT + CHU_PROMO] = "Whale", [CT_BISHOP + CHU_PROMO] = "Dragon Horse",
    [CT_TIGER + CHU_PROMO] = "Flying Stag", [CT_PHOENIX + CHU_PROMO] = "Free King",
    [CT_KIRIN + CHU_PROMO] = "Lion", [CT_SIDE + CHU_PROMO] = "Free Boar",
    [CT_VERTICAL + CHU_PROMO] = "Flying Ox", [CT_ROOK + CHU_PROMO] = "Dragon King",
    [CT_HORSE + CHU_PROMO] = "Horned Falcon", [CT_DRAGON + CHU_PROMO] = "Soaring Eagle",
    [CT_PAWN + CHU_PROMO] = "Gold General", [CT_GOBETWEEN + CHU_PROMO] = "Drunk Elephant",
};

/* Each relative direction (chu.h: D_F, D_FR, ... clockwise) as (right, forward). */
static const int dir_dx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int dir_dy[8] = {1, 1, 0, -1, -1, -1, 0, 1};

/* The SFEN text of type t: "r", "+r". */
static void sfen_code(int t, char *buf)
{
    int n = 0;
    if (t > CHU_PROMO)
        buf[n++] = '+';
    buf[n++] = chu_type_letter(t);
    buf[n] = 0;
}

/* Is t a piece type: a base type, or the promotion of one that promotes? */
static int is_type(int t)
{
    return t >= 1 && t < CHU_NTYPES &&
           (t <= CHU_PROMO || chu_can_promote_type(t - CHU_PROMO));
}

/* The first type (the kind's own) with t's name. */
static int kind_of(int t)
{
    for (int k = 1; k < t; k++)
        if (is_type(k) && !strcmp(chu_names[k], chu_names[t]))
            return k;
    return t;
}

/* How type t moves: one entry per direction it moves in, as chu_moves has it. */
static json_t *moves_of(int t)
{
    static const char *const what[] = {[MV_STEP] = "step", [MV_JUMP] = "jump",
                                       [MV_SLIDE] = "slide", [MV_LIONLINE] = "lion"};
    json_t *a = json_array();
    for (int d = 0; d < 8; d++) {
        int code = chu_moves[t][d];
        if (code == MV_NONE)
            continue;
        int far = code == MV_JUMP ? 2 : 1;
        json_array_append_new(a, json_pack("{si si ss}", "dx", dir_dx[d] * far, "dy",
                                           dir_dy[d] * far, "move", what[code]));
    }
    return a;
}

static void chu_pieces(json_t *out)
{
    json_t *kinds = json_array();
    for (int t = 1; t < CHU_NTYPES; t++) {
        if (!is_type(t) || kind_of(t) != t)
            continue;
        char code[4], abbr[8];
        sfen_code(t, code);
        chu_tsa_piece(t, abbr);
        json_t *k = json_object();
        json_object_set_new(k, "sfen", json_string(code));
        json_object_set_new(k, "name", json_string(chu_names[t]));
        json_object_set_new(k, "kanji", json_string(chu_kif_piece_name(t)));
        json_object_set_new(k, "abbr", json_string(abbr));
        json_object_set_new(k, "promoted_only", json_boolean(t > CHU_PROMO));
        if (chu_can_promote_type(t)) {
            sfen_code(kind_of(t + CHU_PROMO), code);
            json_object_set_new(k, "promotes_to", json_string(code));
        } else {
            json_object_set_new(k, "promotes_to", json_null());
        }
        json_object_set_new(k, "royal", json_boolean(chu_is_royal(t)));
        json_object_set_new(k, "moves", moves_of(t));
        /* The Lion's power reaches every square within two, by a jump or two king steps
         * (igui, a double capture, a pass); Falcon and Eagle have it on their lion lines. */
        if (chu_is_lion(t))
            json_object_set_new(k, "area", json_integer(2));
        /* Every SFEN code that shows this kind on a board: its own, and the promoted
         * types that become it (which never promote again). */
        json_t *codes = json_array();
        for (int u = 1; u < CHU_NTYPES; u++) {
            if (!is_type(u) || kind_of(u) != t)
                continue;
            json_t *c = json_object();
            sfen_code(u, code);
            json_object_set_new(c, "sfen", json_string(code));
            chu_tsa_piece(u, abbr);
            json_object_set_new(c, "abbr", json_string(abbr));
            json_object_set_new(c, "kanji", json_string(chu_kif_piece_name(u)));
            if (u > CHU_PROMO) {
                sfen_code(u - CHU_PROMO, code);
                json_object_set_new(c, "promoted_from", json_string(code));
            }
            json_array_append_new(codes, c);
        }
        json_object_set_new(k, "codes", codes);
        json_array_append_new(kinds, k);
    }
    json_object_set_new(out, "kinds", kinds);
}

static const char *const chu_notations[] = {"tsa", "kif", NULL};

static int chu_move_texts(const void *st, gv_move m, char *buf, size_t len)
{
    const chu_state *s = st;
    int a = chu_write_tsa(s, m, buf, len);
    if (a < 0 || (size_t)a + 1 >= len)
        return -1;
    int b = chu_kif_move_text(s, m, buf + a + 1, len - (size_t)a - 1);
    if (b < 0)
        return -1;
    return a + 1 + b + 1;
}

/* The view's "checks": the square of each side's royal in check (chu_in_check: a side
 * with one royal, King or Prince, that the other side attacks; a side with both is never
 * in check). Both sides are told: in Chu a move may leave its own King attacked. */
static void chu_view(const void *st, const gv_move *last, json_t *view)
{
    (void)last;
    const chu_pos *p = &((const chu_state *)st)->pos;
    json_t *a = json_array();
    for (int side = 0; side < 2; side++) {
        if (!chu_in_check(p, side))
            continue;
        for (int w = 0; w < CHU_OCC_WORDS; w++) {
            uint64_t r = p->royal[w] & p->occ[side][w];
            if (r) {
                char name[4];
                chu_square_name(64 * w + __builtin_ctzll(r), name);
                json_array_append_new(a, json_string(name));
                break;
            }
        }
    }
    json_object_set_new(view, "checks", a);
}

const struct gv_web_view gv_chu_web = {
    .view = chu_view,
    .pieces = chu_pieces,
    .notations = chu_notations,
    .move_texts = chu_move_texts,
};
