/* Chu Shogi adapter to the game interface: options, position text, moves. */
#include <stdio.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/chu/chu.h"
#include "games/chu/chu_eval.h"
#include "games/chu/chu_game.h"
#include "games/chu/chu_match.h"
#include "games/chu/chu_term.h"
#include "games/chu/chu_web.h"
#include "games/chu/chu_xboard.h"
#include "games/chu/chu_record.h"
#include "games/chu/chu_web.h"

_Static_assert(sizeof(chu_pos) <= 1024, "a Chu position must fit in 1 KB");

static const char *const chu_seat_names[] = {"Sente", "Gote"};

/* The options, in the order `gravulien games` lists them. A rule set names values for
 * the options of its family (ruleset_values); an option given explicitly overrides it,
 * wherever it stands in the text. */
enum {
    OPT_LION_DOUBLE, OPT_PROMOTION, OPT_BARE_KING, OPT_REPETITION, OPT_LAST_RANK,
    OPT_COUNTER_STRIKE, OPT_GOBETWEEN_FAR, OPT_RULESET, OPT_HANDICAP, OPT_VARIANT, OPT_COUNT
};

static const gv_option_def chu_option_defs[] = {
    [OPT_LION_DOUBLE] = {"lion_double", "move_after|jcsa", "move_after",
     "double capture of a protected Lion through a Pawn/Go-Between (case V of docs/chu.md): "
     "judged after the move, or forbidden as the JCSA rules it"},
    [OPT_PROMOTION] = {"promotion", "standard|msm", "standard",
     "msm: a piece inside the zone may also promote on a move within the zone"},
    [OPT_BARE_KING] = {"bare_king", "on|off", "on", "a side left with a bare royal loses"},
    [OPT_REPETITION] = {"repetition", "on|off|strict|jcsa", "on",
     "on: the fourth occurrence ends the game (perpetual checker loses); strict: no move "
     "may return to an earlier position (except out of check); jcsa: the side that checks "
     "or attacks throughout the cycle, or passed first, must deviate"},
    [OPT_LAST_RANK] = {"last_rank", "may|must", "may",
     "must: a Pawn or Lance reaching the last rank must promote (as HaChu plays)"},
    [OPT_COUNTER_STRIKE] = {"counter_strike", "edo|jcsa", "edo",
     "after a Lion is taken by a non-Lion, a non-Lion may take a Lion only on that square "
     "(edo), or also a Lion left unprotected (jcsa, case VII of docs/chu.md)"},
    [OPT_GOBETWEEN_FAR] = {"gobetween_far", "off|on", "off",
     "on: a Go-Between reaching the farthest rank may promote"},
    [OPT_RULESET] = {"ruleset", "lishogi|jcsa|historical", "lishogi",
     "a family of the options above at once (lishogi: the defaults; jcsa: the association; "
     "historical: Edo sources); options given as well override it"},
    [OPT_HANDICAP] = {"handicap",
     "none|gold|leopard|silver|copper|side-mover|vertical-mover|rook|dragon-king|queen|"
     "two-kings|two-lions|three-lions+", "none",
     "presets joined by '+' (three-lions+gold); Gote, the stronger, moves first"},
    [OPT_VARIANT] = {"variant", "standard|heisei", "standard",
     "heisei: Heisei Chu, 14 pieces a side held in reserve and dropped next to one's own"},
    [OPT_COUNT] = {NULL, NULL, NULL, NULL},
};

/* The values each rule set gives the options of its family (NULL: not in the family). */
static const char *const ruleset_values[3][OPT_COUNT] = {
    /* lishogi */
    {"move_after", "standard", "on", "on", NULL, "edo", "off", NULL, NULL, NULL},
    /* jcsa */
    {"jcsa", "standard", "on", "jcsa", NULL, "jcsa", "off", NULL, NULL, NULL},
    /* historical */
    {"move_after", "msm", "on", "strict", NULL, "edo", "on", NULL, NULL, NULL},
};


void gv_chu_init_tables(void)
{
    /* Chu's tables are compile-time constants and its keys are computed on demand. */
}

/* The options as given: which were, and their values (checked by gv_options_apply). */
typedef struct opt_text {
    int given[OPT_COUNT];
    char value[OPT_COUNT][160];
} opt_text;

static int note_option(void *ctx, int idx, const char *v)
{
    opt_text *t = ctx;
    if (idx < 0 || idx >= OPT_COUNT || strlen(v) >= sizeof t->value[0])
        return -1;
    t->given[idx] = 1;
    snprintf(t->value[idx], sizeof t->value[idx], "%s", v);
    return 0;
}

static int handicap_bits(const char *v, uint16_t *bits, char *err, size_t errlen)
{
    *bits = 0;
    if (!strcmp(v, "none"))
        return 0;
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, "+");
        int found = -1;
        for (int i = 0; i < CHU_HANDICAPS; i++)
            if (strlen(chu_handicaps[i].name) == n && !strncmp(chu_handicaps[i].name, p, n))
                found = i;
        if (found < 0)
            return gv_err(err, errlen, "handicap: '%.*s' is not a preset (or 'none' joined "
                          "with others)", (int)n, p);
        if (*bits >> found & 1)
            return gv_err(err, errlen, "handicap: '%s' is named twice", chu_handicaps[found].name);
        *bits |= (uint16_t)(1u << found);
        p += n + (p[n] == '+');
    }
    return 0;
}

/* Reads options text into o: the rule set first, then the options given. */
static int read_options(const char *options, chu_options *o, char *err, size_t errlen)
{
    opt_text t;
    memset(&t, 0, sizeof t);
    if (gv_options_apply(chu_option_defs, options, note_option, &t, err, errlen) < 0)
        return -1;
    int rs = !t.given[OPT_RULESET] ? 0 : !strcmp(t.value[OPT_RULESET], "jcsa") ? 1
           : !strcmp(t.value[OPT_RULESET], "historical") ? 2 : 0;
    const char *v[OPT_COUNT];
    for (int i = 0; i < OPT_COUNT; i++)
        v[i] = t.given[i] ? t.value[i] : ruleset_values[rs][i] ? ruleset_values[rs][i]
                                                              : chu_option_defs[i].def;
    memset(o, 0, sizeof *o);
    o->lion_double_jcsa = !strcmp(v[OPT_LION_DOUBLE], "jcsa");
    o->promotion_msm = !strcmp(v[OPT_PROMOTION], "msm");
    o->bare_king = !strcmp(v[OPT_BARE_KING], "on");
    o->repetition = !strcmp(v[OPT_REPETITION], "on") ? CHU_REP_ON
                  : !strcmp(v[OPT_REPETITION], "strict") ? CHU_REP_STRICT
                  : !strcmp(v[OPT_REPETITION], "jcsa") ? CHU_REP_JCSA : CHU_REP_OFF;
    o->last_rank_must = !strcmp(v[OPT_LAST_RANK], "must");
    o->counter_strike_jcsa = !strcmp(v[OPT_COUNTER_STRIKE], "jcsa");
    o->gobetween_far = !strcmp(v[OPT_GOBETWEEN_FAR], "on");
    o->heisei = !strcmp(v[OPT_VARIANT], "heisei");
    return handicap_bits(v[OPT_HANDICAP], &o->handicap, err, errlen);
}

static int g_init(void *st, const char *options, char *err, size_t errlen)
{
    chu_state *s = st;
    memset(s, 0, sizeof *s);
    chu_options o;
    if (read_options(options, &o, err, errlen) < 0 ||
        chu_start_position(&s->pos, &o, err, errlen) < 0)
        return -1;
    chu_state_reset(s);
    return 0;
}

static int g_set_position(void *st, const char *text, char *err, size_t errlen)
{
    chu_state *s = st;
    chu_pos p = s->pos;
    if (text && strcmp(text, "startpos") == 0) {
        if (chu_start_position(&p, &s->pos.opt, err, errlen) < 0)
            return -1;
    } else if (chu_set_sfen(&p, text ? text : "", err, errlen) < 0) {
        return -1;
    }
    s->pos = p;
    chu_state_reset(s);
    return 0;
}

static int g_get_position(const void *st, char *buf, size_t len)
{
    return chu_get_sfen(&((const chu_state *)st)->pos, buf, len);
}

static int g_legal_moves(const void *st, gv_move *out)
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

static int g_text_complete(const void *st)
{
    return !chu_any_right(&((const chu_state *)st)->pos);
}

static int g_to_move(const void *st)
{
    return ((const chu_state *)st)->pos.stm;
}

static gv_status g_status(const void *st, gv_result *res)
{
    return chu_status(st, res);
}

static uint64_t g_hash(const void *st)
{
    return ((const chu_state *)st)->pos.key;
}

static int g_parse_move(const void *st, const char *text, gv_move *m, char *err, size_t errlen)
{
    return chu_parse_move(st, text, m, err, errlen);
}

static int g_write_move(const void *st, gv_move m, char *buf, size_t len)
{
    return chu_write_usi(&((const chu_state *)st)->pos, m, buf, len);
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
    .prepare = gv_chu_init_tables,
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
    .text_complete = g_text_complete,
    .seat_names = chu_seat_names,
    .protocols = GV_PROTO_USI | GV_PROTO_XBOARD,
    .xboard_variant = "chu",
    .ai = &gv_chu_ai,
    .term = &gv_chu_term_view,
    .web = &gv_chu_web,
    .match = &gv_chu_match,
    .usi_variant = "chushogi",
    .xboard = &gv_chu_xboard,
    .records = chu_record_codecs,
    .usage_note = "positions are SFEN; 'startpos' is the start",
};
