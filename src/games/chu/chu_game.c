/* Chu Shogi adapter to the game interface: options, position text, moves. */
#include <string.h>

#include "core/gv_core.h"
#include "games/chu/chu.h"
#include "games/chu/chu_eval.h"
#include "games/chu/chu_game.h"
#include "games/chu/chu_record.h"

_Static_assert(sizeof(chu_pos) <= 1024, "a Chu position must fit in 1 KB");

static const char *const chu_seat_names[] = {"Sente", "Gote"};

static const gv_option_def chu_option_defs[] = {
    {"lion_double", "move_after|jcsa", "move_after",
     "double capture of a protected Lion through a Pawn/Go-Between (seed case V): "
     "judged after the move, or forbidden as the JCSA rules it"},
    {"promotion", "standard|msm", "standard",
     "msm: a piece inside the zone may also promote on a move within the zone"},
    {"bare_king", "on|off", "on", "a side left with a bare royal loses"},
    {"repetition", "on|off", "on", "fourth occurrence ends the game (perpetual checker loses)"},
    {"last_rank", "may|must", "may",
     "must: a Pawn or Lance reaching the last rank must promote (as HaChu plays)"},
    {NULL, NULL, NULL, NULL},
};

void gv_chu_init_tables(void)
{
    /* Chu's tables are compile-time constants and its keys are computed on demand. */
}

static int set_option(void *ctx, int idx, const char *v)
{
    chu_options *o = ctx;
    switch (idx) {
    case 0: o->lion_double_jcsa = strcmp(v, "jcsa") == 0; break;
    case 1: o->promotion_msm = strcmp(v, "msm") == 0; break;
    case 2: o->bare_king = strcmp(v, "on") == 0; break;
    case 3: o->repetition = strcmp(v, "on") == 0; break;
    case 4: o->last_rank_must = strcmp(v, "must") == 0; break;
    default: return -1;
    }
    return 0;
}

static int g_init(void *st, const char *options, char *err, size_t errlen)
{
    chu_state *s = st;
    memset(s, 0, sizeof *s);
    chu_options o = {0, 0, 1, 1, 0};
    if (gv_options_apply(chu_option_defs, options, set_option, &o, err, errlen) < 0)
        return -1;
    s->pos.opt = o;
    if (chu_set_sfen(&s->pos, chu_start_sfen, err, errlen) < 0)
        return -1;
    chu_state_reset(s);
    return 0;
}

static int g_set_position(void *st, const char *text, char *err, size_t errlen)
{
    chu_state *s = st;
    chu_pos p = s->pos;
    if (text && strcmp(text, "startpos") == 0)
        text = chu_start_sfen;
    if (chu_set_sfen(&p, text ? text : "", err, errlen) < 0)
        return -1;
    s->pos = p;
    chu_state_reset(s);
    return 0;
}

static int g_get_position(const void *st, char *buf, size_t len)
{
    return chu_get_sfen(&((const chu_state *)st)->pos, buf, len);
}

static int g_legal_moves(void *st, gv_move *out)
{
    return chu_legal_moves(st, out);
}

static void g_make(void *st, gv_move m)
{
    chu_make(st, m);
}

static void g_unmake(void *st)
{
    chu_unmake(st);
}

static int g_to_move(const void *st)
{
    return ((const chu_state *)st)->pos.stm;
}

static gv_status g_status(void *st, gv_result *res)
{
    return chu_status(st, res);
}

static uint64_t g_hash(const void *st)
{
    return ((const chu_state *)st)->pos.key;
}

static int g_parse_move(void *st, const char *text, gv_move *m, char *err, size_t errlen)
{
    return chu_parse_move(st, text, m, err, errlen);
}

static int g_write_move(void *st, gv_move m, char *buf, size_t len)
{
    return chu_write_usi(&((chu_state *)st)->pos, m, buf, len);
}

const gv_game gv_chu_game = {
    .agreed_draws = 1,
    .name = "chu",
    .title = "Chu Shogi",
    .state_size = sizeof(chu_state),
    .max_players = 2,
    .ply_bound = 1000,
    .undo_plies = CHU_HIST - 1,
    .options = chu_option_defs,
    .init = g_init,
    .set_position = g_set_position,
    .get_position = g_get_position,
    .legal_moves = g_legal_moves,
    .make = g_make,
    .unmake = g_unmake,
    .to_move = g_to_move,
    .status = g_status,
    .hash = g_hash,
    .parse_move = g_parse_move,
    .write_move = g_write_move,
    .seat_names = chu_seat_names,
    .protocols = GV_PROTO_USI | GV_PROTO_XBOARD,
    .xboard_variant = "chu",
    .ai = &gv_chu_ai,
    .records = chu_record_codecs,
};
