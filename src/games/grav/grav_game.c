/* Grav adapter to the game interface: options (size, players, parameters, seed, rule
 * switches), position text, moves. Player indices are 0-based here, 1-based inside. */
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/grav/grav.h"
#include "games/grav/grav_game.h"
#include "games/grav/grav_gtp.h"
#include "games/grav/grav_web.h"
#include "games/grav/grav_record.h"
#include "games/grav/grav_vectors.h"
#include "games/grav/grav_mcts.h"
#include "games/grav/grav_term.h"

static const gv_option_def grav_option_defs[] = {
    {"size", "5..23", "13", "board size N, a prime (5 7 11 13 17 19 23)"},
    {"players", "2..6", "2", "number of players"},
    {"seed", "0..9223372036854775807", "0", "seed the missing parameters are drawn from"},
    {"a", "0..1000", "0", "consecutive limit (0 = draw from the seed)"},
    {"b", "0..23", "0", "density square side (0 = draw)"},
    {"c", "0..529", "0", "stones allowed in a b x b square (0 = draw)"},
    {"d", "0..44", "0", "minimum distance from the reference stone (0 = draw)"},
    {"e", "0..44", "0", "maximum distance from the reference stone (0 = draw)"},
    {"consecutive", "all|own", "all", "which stones count for the consecutive rule"},
    {"referee", "normal|strict", "normal", "strict: violating placements are refused"},
    {"bonus_shapes", "connected|any", "connected", "which symmetric shapes earn bonus turns"},
    {"hints", "on|off", "on", "the placer may ask whether its own placement violates"},
    {"max_turns", "0..100000000", "0", "regular turns before the game ends (0 = 8 N^2)"},
    {NULL, NULL, NULL, NULL},
};

typedef struct grav_init {
    long size, players, abcde[5];
    unsigned long long seed;
    grav_options opt;
} grav_init;

static int set_option(void *ctx, int idx, const char *v)
{
    grav_init *g = ctx;
    switch (idx) {
    case 0: g->size = atol(v); break;
    case 1: g->players = atol(v); break;
    case 2: g->seed = strtoull(v, NULL, 10); break;
    case 3: case 4: case 5: case 6: case 7: g->abcde[idx - 3] = atol(v); break;
    case 8: g->opt.consecutive_own = strcmp(v, "own") == 0; break;
    case 9: g->opt.strict = strcmp(v, "strict") == 0; break;
    case 10: g->opt.shapes_any = strcmp(v, "any") == 0; break;
    case 11: g->opt.hints = strcmp(v, "on") == 0; break;
    case 12: g->opt.max_turns = (uint32_t)atol(v); break;
    default: return -1;
    }
    return 0;
}

static int g_init(void *st, const char *options, char *err, size_t errlen)
{
    grav_state *s = st;
    memset(s, 0, sizeof *s);
    grav_init g = {13, 2, {0, 0, 0, 0, 0}, 0, {0, 0, 0, 1, 0}};
    if (gv_options_apply(grav_option_defs, options, set_option, &g, err, errlen) < 0)
        return -1;
    if (!grav_valid_size((int)g.size))
        return gv_err(err, errlen, "size %ld is not a prime between 5 and 23", g.size);
    grav_given given;
    memset(&given, 0, sizeof given);
    for (int i = 0; i < 5; i++) {
        given.has[i] = g.abcde[i] != 0;
        given.val[i] = g.abcde[i];
    }
    grav_params prm;
    if (grav_draw_params((int)g.size, g.seed, &given, &prm, err, errlen) < 0)
        return -1;
    if (grav_setup(&s->pos, (int)g.size, (int)g.players, &prm, &g.opt, g.seed, err, errlen) < 0)
        return -1;
    grav_state_reset(s);
    return 0;
}

static int g_set_position(void *st, const char *text, char *err, size_t errlen)
{
    grav_state *s = st;
    grav_pos p;
    if (grav_set_text(&p, text ? text : "", err, errlen) < 0)
        return -1;
    s->pos = p;
    grav_state_reset(s);
    return 0;
}

static int g_get_position(const void *st, char *buf, size_t len)
{
    return grav_get_text(&((const grav_state *)st)->pos, buf, len);
}

static int g_legal_moves(const void *st, gv_move *out)
{
    return grav_legal_moves(st, out);
}

static void g_make(void *st, gv_move m)
{
    grav_make(st, m, NULL);
}

static void g_unmake(void *st)
{
    grav_unmake(st);
}

static int g_move_player(const void *st, gv_move m)
{
    (void)st;
    return GR_PLAYER(m) - 1;
}

static int g_resign_move(const void *st, int player, gv_move *m)
{
    gv_move all[GV_MAX_MOVES], want = GR_MOVE(GA_RESIGN, player + 1, 0);
    int n = grav_legal_moves(st, all);
    for (int i = 0; i < n; i++)
        if (all[i] == want) {
            *m = want;
            return 0;
        }
    return -1;
}

static int g_to_move(const void *st)
{
    return grav_to_move(&((const grav_state *)st)->pos) - 1;
}

static gv_status g_status(const void *st, gv_result *res)
{
    return grav_status(st, res);
}

static uint64_t g_hash(const void *st)
{
    return grav_hash(&((const grav_state *)st)->pos);
}

static int g_parse_move(const void *st, const char *text, gv_move *m, char *err, size_t errlen)
{
    return grav_parse_move(st, text, m, err, errlen);
}

static int g_write_move(const void *st, gv_move m, char *buf, size_t len)
{
    return grav_write_move(&((const grav_state *)st)->pos, m, buf, len);
}

const gv_game gv_grav_game = {
    .name = "grav",
    .title = "Grav",
    .state_size = sizeof(grav_state),
    .max_players = GR_MAXP,
    .ply_bound = 400,
    .undo_plies = GR_HIST - 1,
    .options = grav_option_defs,
    .init = g_init,
    .set_position = g_set_position,
    .get_position = g_get_position,
    .legal_moves = g_legal_moves,
    .make = g_make,
    .unmake = g_unmake,
    .to_move = g_to_move,
    .move_player = g_move_player,
    .resign_move = g_resign_move,
    .status = g_status,
    .hash = g_hash,
    .parse_move = g_parse_move,
    .write_move = g_write_move,
    .players_option = "players",
    .seed_option = "seed",
    .protocols = GV_PROTO_GTP,
    .ai = &gv_grav_ai,
    .term = &gv_grav_term_view,
    .gtp = &gv_grav_gtp,
    .web = &gv_grav_web,
    .records = grav_record_codecs,
    .vectors = grav_vectors,
    .usage_note = "options size=13,players=2,seed=0,...; see 'gravulien games'",
};
