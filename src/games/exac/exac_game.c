/* Exaç adapter to the game interface: options, position text, moves. */
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/exac/exac.h"
#include "games/exac/exac_eval.h"
#include "games/exac/exac_game.h"
#include "games/exac/exac_match.h"
#include "games/exac/exac_term.h"
#include "games/exac/exac_xboard.h"
#include "games/exac/exac_web.h"
#include "games/exac/exac_record.h"

static const gv_option_def exac_option_defs[] = {
    {"repetition", "on|off", "on", "the third occurrence of a position is a draw"},
    {"quiet_limit", "0..10000", "100", "plies without a capture that draw the game (0 = off)"},
    {NULL, NULL, NULL, NULL},
};

void gv_exac_init_tables(void)
{
    exac_init_tables();
}

static int set_option(void *ctx, int idx, const char *v)
{
    exac_options *o = ctx;
    switch (idx) {
    case 0: o->repetition = strcmp(v, "on") == 0; break;
    case 1: o->quiet_limit = (uint16_t)atoi(v); break;
    default: return -1;
    }
    return 0;
}

static int g_init(void *st, const char *options, char *err, size_t errlen)
{
    exac_state *s = st;
    memset(s, 0, sizeof *s);
    exac_options o = {1, 0, 100};
    if (gv_options_apply(exac_option_defs, options, set_option, &o, err, errlen) < 0)
        return -1;
    s->pos.opt = o;
    if (exac_set_text(&s->pos, exac_start_text, err, errlen) < 0)
        return -1;
    exac_state_reset(s);
    return 0;
}

static int g_set_position(void *st, const char *text, char *err, size_t errlen)
{
    exac_state *s = st;
    exac_pos p = s->pos;
    if (text && strcmp(text, "startpos") == 0)
        text = exac_start_text;
    if (exac_set_text(&p, text ? text : "", err, errlen) < 0)
        return -1;
    s->pos = p;
    exac_state_reset(s);
    return 0;
}

static int g_get_position(const void *st, char *buf, size_t len)
{
    return exac_get_text(&((const exac_state *)st)->pos, buf, len);
}

static int g_legal_moves(const void *st, gv_move *out)
{
    return exac_legal_moves(st, out);
}

static void g_make(void *st, gv_move m)
{
    exac_make(st, m);
}

static void g_unmake(void *st)
{
    exac_unmake(st);
}

static int g_to_move(const void *st)
{
    return ((const exac_state *)st)->pos.stm;
}

static gv_status g_status(const void *st, gv_result *res)
{
    return exac_status(st, res);
}

static uint64_t g_hash(const void *st)
{
    return ((const exac_state *)st)->pos.key;
}

static int g_parse_move(const void *st, const char *text, gv_move *m, char *err, size_t errlen)
{
    return exac_parse_move(st, text, m, err, errlen);
}

static int g_write_move(const void *st, gv_move m, char *buf, size_t len)
{
    return exac_write_move(st, m, buf, len);
}

static int g_describe_move(const void *st, gv_move m, char *buf, size_t len)
{
    return exac_describe_move(st, m, buf, len);
}

static const char *const exac_seat_names[] = {"First", "Second"};

const gv_game gv_exac_game = {
    .agreed_draws = 1,
    .name = "exac",
    .title = "Exac",
    .state_size = sizeof(exac_state),
    .max_players = 2,
    .ply_bound = 600,
    .undo_plies = EX_HIST - 1,
    .options = exac_option_defs,
    .prepare = gv_exac_init_tables,
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
    .describe_move = g_describe_move,
    .seat_names = exac_seat_names,
    .protocols = GV_PROTO_XBOARD,
    .xboard_variant = "exac",
    .ai = &gv_exac_ai,
    .term = &gv_exac_term_view,
    .match = &gv_exac_match,
    .xboard = &gv_exac_xboard,
    .web = &gv_exac_web,
    .records = exac_record_codecs,
    .usage_note = "positions like 1SSSSS1/SSSSSSS/7/7/7/FFFFFFF/1FFFFF1 f 0 1",
};
