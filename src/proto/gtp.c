/* GTP v2 engine session for Grav: framing, the standard commands and the grav-*
 * extensions, translated to engine calls (see gtp.h and docs/gtp.md). */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/gv_core.h"
#include "engine/engine.h"
#include "games/grav/grav.h"
#include "proto/gtp.h"
#include "search/search.h"

#define GTP_NAME "Gravulien"

enum {
    GTP_MAX_ARGS = 16,       /* arguments kept per command (more make it a syntax error) */
    GTP_SETTLE_GUARD = 4 * GR_POINTS,   /* default decisions in a row, at most */
};

/* Vertex letters: A..Z without I, left to right (GTP 2, section 2.11). */
static const char gtp_letters[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/* ---- Growable text buffer --------------------------------------------------------- */

typedef struct gtp_buf {
    char *p;
    size_t len, cap;
} gtp_buf;

static void buf_clear(gtp_buf *b)
{
    b->len = 0;
    if (b->p)
        b->p[0] = 0;
}

static void buf_vprintf(gtp_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + (size_t)n + 1 > cap)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p)
            return;    /* out of memory: the text is cut, nothing else breaks */
        b->p = p;
        b->cap = cap;
    }
    vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    b->len += (size_t)n;
}

static void buf_printf(gtp_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_printf(gtp_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

static const char *buf_str(const gtp_buf *b)
{
    return b->p && b->len ? b->p : "";
}

/* ---- The session ---------------------------------------------------------------------- */

/* One side's clock (GTP's Canadian byo-yomi: main time, then periods of byo_ms for
 * byo_stones moves). */
typedef struct gtp_clock {
    int64_t main_ms, period_ms;
    int stones;                     /* moves left in the current period */
    int in_byo;
} gtp_clock;

struct gv_gtp {
    gv_engine *e;
    grav_state *work;               /* a copy of the engine's state to ask the core on */
    gv_move *moves;                 /* room for GV_MAX_MOVES */
    int size;
    uint64_t game_seed;
    long abcde[5];                  /* given parameters (0: drawn from game_seed) */
    double komi;
    int bonus_full;
    int64_t movetime_ms;
    /* Undo: engine plies before each command that changed the game. */
    int *marks;
    int nmarks, capmarks;
    int undo_left;                  /* moves the engine can still take back (mirrors it) */
    /* What the command being run did, and what the last one that changed the game did. */
    gtp_buf events, last;
    /* Clocks. */
    int timed;
    int64_t main_ms, byo_ms;
    int byo_stones;
    gtp_clock clk[2];
};

static const grav_pos *pos(const gv_gtp *s)
{
    return &((const grav_state *)gv_engine_state(s->e))->pos;
}

/* A private copy of the current state, to ask the core questions on. */
static grav_state *work_copy(gv_gtp *s)
{
    memcpy(s->work, gv_engine_state(s->e), sizeof *s->work);
    return s->work;
}

static int is_over(const gv_gtp *s)
{
    return pos(s)->c.phase == GR_OVER;
}

/* The player (1 black, 2 white) who must act now, 0 when the game is over. */
static int actor(const gv_gtp *s)
{
    return is_over(s) ? 0 : grav_to_move(pos(s));
}

static const char *color_name(int pl)
{
    return pl == 1 ? "black" : "white";
}

static void vertex_name(int n, int q, char *buf, size_t len)
{
    /* n <= 23 and 0 <= q < n*n: at most a letter and two digits. */
    snprintf(buf, len, "%c%d", gtp_letters[q % n], (n - q / n) % 100);
}

static void reset_clocks(gv_gtp *s)
{
    for (int i = 0; i < 2; i++) {
        gtp_clock *c = &s->clk[i];
        c->main_ms = s->main_ms;
        c->in_byo = s->main_ms <= 0 && s->byo_stones > 0;
        c->period_ms = c->in_byo ? s->byo_ms : 0;
        c->stones = c->in_byo ? s->byo_stones : 0;
    }
}

/* After a new game: no history to undo, no turn to report. */
static void reset_game(gv_gtp *s)
{
    s->nmarks = 0;
    s->undo_left = 0;
    buf_clear(&s->events);
    buf_clear(&s->last);
    reset_clocks(s);
}

void gv_gtp_config_default(gv_gtp_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->level = 10;
    cfg->hash_mb = GV_ENGINE_DEFAULT_HASH_MB;
    cfg->size = 13;
}

/* Sets the engine's rules from size, seed and parameters; the game restarts. Returns 0,
 * or -1 with the core's message in err (nothing changed). */
static int apply_rules(gv_gtp *s, int size, uint64_t seed, const long abcde[5], char *err,
                       size_t errlen)
{
    char rules[256];
    snprintf(rules, sizeof rules, "size=%d,players=2,referee=strict,seed=%llu,a=%ld,b=%ld,c=%ld,"
             "d=%ld,e=%ld", size, (unsigned long long)seed, abcde[0], abcde[1], abcde[2],
             abcde[3], abcde[4]);
    if (gv_engine_set_option(s->e, "rules", rules, err, errlen) != 0)
        return -1;
    s->size = size;
    s->game_seed = seed;
    memmove(s->abcde, abcde, sizeof s->abcde);
    reset_game(s);
    return 0;
}

gv_gtp *gv_gtp_new(const gv_gtp_config *cfg, char *err, size_t errlen)
{
    gv_gtp *s = calloc(1, sizeof *s);
    if (!s) {
        gv_err(err, errlen, "out of memory");
        return NULL;
    }
    s->work = malloc(sizeof *s->work);
    s->moves = malloc(GV_MAX_MOVES * sizeof *s->moves);
    s->e = gv_engine_new(gv_game_for_protocol(GV_PROTO_GTP)->name, "players=2,referee=strict", err, errlen);
    if (!s->work || !s->moves || !s->e) {
        if (s->e)
            gv_err(err, errlen, "out of memory");
        gv_gtp_free(s);
        return NULL;
    }
    char num[32];
    snprintf(num, sizeof num, "%d", cfg->level);
    if (gv_engine_set_option(s->e, "level", num, err, errlen) != 0) {
        gv_gtp_free(s);
        return NULL;
    }
    snprintf(num, sizeof num, "%llu", (unsigned long long)cfg->seed);
    gv_engine_set_option(s->e, "seed", num, err, errlen);
    snprintf(num, sizeof num, "%d", cfg->hash_mb);
    if (gv_engine_set_option(s->e, "hash", num, err, errlen) != 0 ||
        gv_engine_set_option(s->e, "player", cfg->greedy ? "greedy" : "search", err, errlen) != 0) {
        gv_gtp_free(s);
        return NULL;
    }
    s->bonus_full = cfg->bonus_full != 0;
    s->movetime_ms = cfg->movetime_ms > 0 ? cfg->movetime_ms : 0;
    long none[5] = {0, 0, 0, 0, 0};
    if (apply_rules(s, cfg->size, cfg->game_seed, none, err, errlen) != 0) {
        gv_gtp_free(s);
        return NULL;
    }
    return s;
}

void gv_gtp_free(gv_gtp *s)
{
    if (!s)
        return;
    gv_engine_free(s->e);
    free(s->work);
    free(s->moves);
    free(s->marks);
    free(s->events.p);
    free(s->last.p);
    free(s);
}

/* ---- Moves, the turn log and undo -------------------------------------------------- */

static void log_move(gv_gtp *s, const grav_pos *p, gv_move m, int by_default)
{
    const char *who = color_name(GR_PLAYER(m));
    char v[16];
    switch (GR_ACT(m)) {
    case GA_PLACE:
        vertex_name(p->n, GR_ARG(m), v, sizeof v);
        buf_printf(&s->events, "%s place %s", who, v);
        break;
    case GA_PASS: buf_printf(&s->events, "%s pass", who); break;
    case GA_DECLARE: buf_printf(&s->events, "%s declare %d", who, GR_ARG(m)); break;
    case GA_RESIGN: buf_printf(&s->events, "%s resign", who); break;
    default: {
        char t[64] = "?";
        grav_write_move(p, m, t, sizeof t);
        buf_printf(&s->events, "%s", t);
    }
    }
    buf_printf(&s->events, "%s\n", by_default ? " (default)" : "");
}

static void log_auto(gv_gtp *s, const grav_auto *a)
{
    static const char *const reasons[] = {"none", "passes", "max_turns", "resign"};
    switch (a->type) {
    case GR_AUTO_FORFEIT:
        buf_printf(&s->events, "%s forfeit %u\n", color_name(a->player), a->value);
        break;
    case GR_AUTO_END:
        buf_printf(&s->events, "game over: %s wins (%s)\n", color_name(a->player),
                   a->value < 4 ? reasons[a->value] : "?");
        break;
    case GR_AUTO_SKIP: buf_printf(&s->events, "%s skip\n", color_name(a->player)); break;
    default: buf_printf(&s->events, "auto %u\n", a->type); break;
    }
}

/* Plays a core move through the engine (which checks it is legal) and logs it with the
 * referee's automatic events. Returns 0, or -1 with the reason in err. */
static int do_move(gv_gtp *s, gv_move m, int by_default, char *err, size_t errlen)
{
    grav_state *w = work_copy(s);
    if (gv_engine_play_move(s->e, m, err, errlen) != 0)
        return -1;
    if (s->undo_left < gv_engine_game(s->e)->undo_plies)
        s->undo_left++;
    log_move(s, &w->pos, m, by_default);
    grav_auto autos[GR_MAX_AUTO];
    int na = grav_make(w, m, autos);   /* the same move on the copy, for its events */
    for (int i = 0; i < na && i < GR_MAX_AUTO; i++)
        log_auto(s, &autos[i]);
    return 0;
}

/* Takes back the moves played since the engine had `mark` plies. */
static void rollback(gv_gtp *s, int mark)
{
    while (gv_engine_plies(s->e) > mark && gv_engine_undo(s->e) == 0)
        s->undo_left--;
}

/* Starts a command that may change the game: returns its undo mark. */
static int begin_change(gv_gtp *s)
{
    buf_clear(&s->events);
    return gv_engine_plies(s->e);
}

/* Ends it: on success the turn log is kept and the mark pushed (when anything was
 * played); on failure everything is taken back. */
static int end_change(gv_gtp *s, int mark, int ok)
{
    if (!ok) {
        rollback(s, mark);
        buf_clear(&s->events);
        return -1;
    }
    if (gv_engine_plies(s->e) == mark)
        return 0;
    if (s->nmarks == s->capmarks) {
        int cap = s->capmarks ? 2 * s->capmarks : 64;
        int *m = realloc(s->marks, (size_t)cap * sizeof *m);
        if (m) {
            s->marks = m;
            s->capmarks = cap;
        }
    }
    if (s->nmarks < s->capmarks)
        s->marks[s->nmarks++] = mark;
    buf_clear(&s->last);
    buf_printf(&s->last, "%s", buf_str(&s->events));
    return 0;
}

/* ---- The AI and the clocks -------------------------------------------------------------- */

static void make_go(gv_gtp *s, gv_go *go)
{
    memset(go, 0, sizeof *go);
    if (s->timed) {
        go->has_time = 1;
        for (int i = 0; i < 2; i++)
            go->time_ms[i] = s->clk[i].in_byo ? s->clk[i].period_ms : s->clk[i].main_ms;
        int side = actor(s) == 2 ? 1 : 0;
        const gtp_clock *c = &s->clk[side];
        if (c->in_byo)
            go->movestogo = c->stones > 0 ? c->stones : 1;
        else if (s->byo_stones > 0)
            go->byoyomi_ms = s->byo_ms / s->byo_stones;
        return;
    }
    if (s->movetime_ms > 0)
        go->movetime_ms = s->movetime_ms;
    else if (gv_engine_level(s->e) >= 10)
        go->movetime_ms = GV_GTP_DEFAULT_MOVETIME_MS;
}

/* Charges `used` ms to side's clock (GTP's Canadian byo-yomi). */
static void charge(gv_gtp *s, int side, int64_t used)
{
    if (!s->timed)
        return;
    gtp_clock *c = &s->clk[side];
    if (!c->in_byo) {
        c->main_ms -= used;
        if (c->main_ms >= 0 || s->byo_stones <= 0) {
            if (c->main_ms < 0)
                c->main_ms = 0;
            return;
        }
        used = -c->main_ms;
        c->main_ms = 0;
        c->in_byo = 1;
        c->period_ms = s->byo_ms;
        c->stones = s->byo_stones;
    }
    c->period_ms -= used;
    if (c->period_ms < 0)
        c->period_ms = 0;
    if (--c->stones <= 0) {
        c->period_ms = s->byo_ms;
        c->stones = s->byo_stones;
    }
}

/* The AI's choice for the player to act (0 if the game is over). */
static gv_move ai_move(gv_gtp *s)
{
    gv_go go;
    make_go(s, &go);
    return gv_engine_think(s->e, &go, NULL).best;
}

/* Settles the open follow-up decisions of the player who is not pl (a declaration, owed
 * bonus stones) by the documented defaults, so that pl may act: a declaration is 0 in
 * sync mode and the AI's choice in full mode; owed bonus stones are placed by the AI. */
static int settle(gv_gtp *s, int pl, char *err, size_t errlen)
{
    for (int i = 0; i < GTP_SETTLE_GUARD; i++) {
        const grav_pos *p = pos(s);
        int who = actor(s), ph = p->c.phase;
        if (!who || who == pl || (ph != GR_DECLARE && ph != GR_BONUS))
            return 0;
        gv_move m = ph == GR_DECLARE && !s->bonus_full ? GR_MOVE(GA_DECLARE, who, 0) : ai_move(s);
        if (!m)
            return gv_err(err, errlen, "the AI found no move");
        if (do_move(s, m, 1, err, errlen) != 0)
            return -1;
    }
    return gv_err(err, errlen, "too many default decisions");
}

/* ---- Argument parsing ---------------------------------------------------------------- */

/* A GTP color, case-insensitive: 1 black, 2 white, 0 neither. */
static int parse_color(const char *t)
{
    if (!strcasecmp(t, "b") || !strcasecmp(t, "black"))
        return 1;
    if (!strcasecmp(t, "w") || !strcasecmp(t, "white"))
        return 2;
    return 0;
}

/* A GTP vertex ("D4", case-insensitive) to the core's point. Returns 1 (point in *q),
 * 0 when t is not a vertex, -1 when it is one but off this board. */
static int parse_vertex(int n, const char *t, int *q)
{
    int c = toupper((unsigned char)t[0]);
    const char *f = c ? strchr(gtp_letters, c) : NULL;
    size_t len = strlen(t);
    if (!f || len < 2 || len > 3 || !isdigit((unsigned char)t[1]) || t[1] == '0' ||
        (len == 3 && !isdigit((unsigned char)t[2])))
        return 0;
    int x = (int)(f - gtp_letters), row = atoi(t + 1);
    if (row > 25)
        return 0;
    if (x >= n || row > n)
        return -1;
    *q = (n - row) * n + x;
    return 1;
}

static int parse_long(const char *t, long lo, long hi, long *out)
{
    return gv_parse_int(t, lo, hi, out, NULL, 0);
}

/* ---- Commands ------------------------------------------------------------------------- */

typedef int (*gtp_fn)(gv_gtp *s, int argc, char **argv, gtp_buf *r);

#define FAIL(...) (buf_printf(r, __VA_ARGS__), -1)
#define NEED_ARGS(k) do { if (argc != (k)) return FAIL("syntax error"); } while (0)

static int cmd_protocol_version(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    (void)s, (void)argv;
    NEED_ARGS(0);
    buf_printf(r, "2");
    return 0;
}

static int cmd_name(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    (void)s, (void)argv;
    NEED_ARGS(0);
    buf_printf(r, GTP_NAME);
    return 0;
}

static int cmd_version(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    (void)s, (void)argv;
    NEED_ARGS(0);
    buf_printf(r, GV_VERSION);
    return 0;
}

static int cmd_known_command(gv_gtp *s, int argc, char **argv, gtp_buf *r);
static int cmd_list_commands(gv_gtp *s, int argc, char **argv, gtp_buf *r);

static int cmd_quit(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    (void)s, (void)argc, (void)argv, (void)r;
    return 0;   /* arguments are ignored: quit always ends the session */
}

static int cmd_boardsize(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    long n;
    NEED_ARGS(1);
    if (parse_long(argv[0], 0, 1000000, &n) != 0)
        return FAIL("syntax error");
    if (!grav_valid_size((int)n))
        return FAIL("unacceptable size");
    char err[GV_ERRLEN];
    if (apply_rules(s, (int)n, s->game_seed, s->abcde, err, sizeof err) != 0)
        return FAIL("unacceptable size: %s", err);
    return 0;
}

static int cmd_clear_board(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    if (gv_engine_new_game(s->e) != 0)
        return FAIL("cannot clear the board");
    reset_game(s);
    return 0;
}

static int cmd_komi(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    NEED_ARGS(1);
    char *end;
    double k = strtod(argv[0], &end);
    if (end == argv[0] || *end || !isfinite(k))
        return FAIL("syntax error");
    s->komi = k;   /* stored only: Grav's result is a stone count (docs/gtp.md) */
    return 0;
}

static int cmd_play(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    NEED_ARGS(2);
    int pl = parse_color(argv[0]), q = -1, pass = 0;
    if (!pl)
        return FAIL("syntax error");
    char low[8];
    snprintf(low, sizeof low, "%s", argv[1]);
    for (char *c = low; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    if (!strcmp(low, "pass") && strlen(argv[1]) == 4) {
        pass = 1;
    } else {
        int v = parse_vertex(pos(s)->n, argv[1], &q);
        if (v == 0)
            return FAIL("syntax error");
        if (v < 0)
            return FAIL("illegal move: %s is off the %dx%d board", argv[1], pos(s)->n, pos(s)->n);
    }
    char err[GV_ERRLEN];
    int mark = begin_change(s);
    if (settle(s, pl, err, sizeof err) != 0) {
        end_change(s, mark, 0);
        return FAIL("illegal move: %s", err);
    }
    const grav_pos *p = pos(s);
    int who = actor(s);
    if (who && who != pl) {
        end_change(s, mark, 0);
        return FAIL("illegal move: it is %s's turn", color_name(who));
    }
    if (who == pl && p->c.phase == GR_DECLARE) {
        end_change(s, mark, 0);
        return FAIL("illegal move: %s must first declare its bonus turns "
                    "(grav-declare 0..%d)", color_name(pl), p->c.declare_k);
    }
    /* The core's notation for the move; its parser says why one is illegal. */
    char text[32], pt[8];
    if (pass) {
        snprintf(text, sizeof text, "%d pass", pl);
    } else {
        grav_point_name(p, q, pt);
        snprintf(text, sizeof text, "%d place %s", pl, pt);
    }
    gv_move m;
    if (grav_parse_move(work_copy(s), text, &m, err, sizeof err) != 0 ||
        do_move(s, m, 0, err, sizeof err) != 0) {
        end_change(s, mark, 0);
        return FAIL("illegal move: %s", err);
    }
    return end_change(s, mark, 1);
}

static int cmd_genmove(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    NEED_ARGS(1);
    int pl = parse_color(argv[0]);
    if (!pl)
        return FAIL("syntax error");
    char err[GV_ERRLEN];
    int mark = begin_change(s);
    if (settle(s, pl, err, sizeof err) != 0) {
        end_change(s, mark, 0);
        return FAIL("%s", err);
    }
    if (is_over(s)) {
        /* Nothing to play: the game is over (final_score tells the result). */
        end_change(s, mark, 1);
        buf_printf(r, "pass");
        return 0;
    }
    const grav_pos *p = pos(s);
    if (actor(s) != pl) {
        end_change(s, mark, 0);
        return FAIL("it is %s's turn", color_name(actor(s)));
    }
    if (p->c.phase == GR_DECLARE) {
        end_change(s, mark, 0);
        return FAIL("%s must first declare its bonus turns (grav-declare 0..%d or "
                    "grav-declare auto)", color_name(pl), p->c.declare_k);
    }
    int64_t start = gv_now_ms();
    gv_move m = ai_move(s);
    if (!m || do_move(s, m, 0, err, sizeof err) != 0) {
        end_change(s, mark, 0);
        return FAIL("the AI found no move");
    }
    char answer[16] = "pass";
    if (GR_ACT(m) == GA_PLACE)
        vertex_name(pos(s)->n, GR_ARG(m), answer, sizeof answer);
    else if (GR_ACT(m) == GA_RESIGN)
        snprintf(answer, sizeof answer, "resign");
    /* The rest of the turn: sync mode declares nothing (one stone per genmove), full
     * mode lets the AI declare and place its bonus stones now. */
    for (int i = 0; i < GTP_SETTLE_GUARD && actor(s) == pl; i++) {
        int ph = pos(s)->c.phase;
        gv_move f = 0;
        if (ph == GR_DECLARE)
            f = s->bonus_full ? ai_move(s) : GR_MOVE(GA_DECLARE, pl, 0);
        else if (ph == GR_BONUS && s->bonus_full)
            f = ai_move(s);
        if (!f || do_move(s, f, 0, err, sizeof err) != 0)
            break;
    }
    charge(s, pl - 1, gv_now_ms() - start);
    end_change(s, mark, 1);
    buf_printf(r, "%s", answer);
    return 0;
}

static int cmd_undo(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    if (!s->nmarks)
        return FAIL("cannot undo");
    int mark = s->marks[s->nmarks - 1], n = gv_engine_plies(s->e) - mark;
    if (n < 0 || n > s->undo_left)
        return FAIL("cannot undo");
    rollback(s, mark);
    s->nmarks--;
    buf_clear(&s->last);
    return 0;
}

static void describe_phase(const gv_gtp *s, gtp_buf *r)
{
    static const char *const reasons[] = {"none", "passes", "max_turns", "resign"};
    const grav_pos *p = pos(s);
    const grav_ctl *c = &p->c;
    int who = actor(s);
    switch (c->phase) {
    case GR_OVER:
        buf_printf(r, "over %s %s", color_name(c->winner), c->reason < 4 ? reasons[c->reason] : "?");
        break;
    case GR_DECLARE: buf_printf(r, "declare %s %d", color_name(who), c->declare_k); break;
    case GR_BONUS: buf_printf(r, "bonus %s %u", color_name(who), c->owed); break;
    case GR_TURN: buf_printf(r, "turn %s", color_name(who)); break;
    default: buf_printf(r, "%s %s", c->phase == GR_WINDOW ? "window" : "remove", color_name(who));
    }
}

static int cmd_showboard(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    const grav_pos *p = pos(s);
    int n = p->n, ref = grav_reference(p);
    buf_printf(r, "\n   ");
    for (int x = 0; x < n; x++)
        buf_printf(r, " %c", gtp_letters[x]);
    buf_printf(r, "\n");
    for (int y = 0; y < n; y++) {
        buf_printf(r, "%2d ", n - y);
        for (int x = 0; x < n; x++) {
            int q = y * n + x, v = p->board[q];
            /* The reference stone (the last one on the board) is shown in brackets. */
            buf_printf(r, "%c%c", q == ref ? '(' : (q - 1 == ref && x > 0 ? ')' : ' '),
                       v == 1 ? 'X' : v == 2 ? 'O' : '.');
        }
        buf_printf(r, "%c%d\n", y * n + n - 1 == ref ? ')' : ' ', n - y);
    }
    buf_printf(r, "   ");
    for (int x = 0; x < n; x++)
        buf_printf(r, " %c", gtp_letters[x]);
    char v[16] = "-";
    if (ref >= 0)
        vertex_name(n, ref, v, sizeof v);
    buf_printf(r, "\nBlack (X) %d stones, White (O) %d stones, last stone %s\n", p->count[1],
               p->count[2], v);
    buf_printf(r, "a=%d b=%d c=%d d=%d e=%d seed=%llu, turns %u, bonus mode %s\nstate: ",
               p->prm.a, p->prm.b, p->prm.c, p->prm.d, p->prm.e, (unsigned long long)p->seed,
               p->c.turns, s->bonus_full ? "full" : "sync");
    describe_phase(s, r);
    return 0;
}

/* The winner if the game ended now (1 or 2): the core's verdict when it is over; else
 * the core's verdict after the players to act pass (declaring nothing), which leaves the
 * stones as they are; 0 when a bonus stone is owed (it cannot be passed). */
static int projected_winner(gv_gtp *s)
{
    grav_state *w = work_copy(s);
    for (int i = 0; i < 8 && w->pos.c.phase != GR_OVER; i++) {
        int who = grav_to_move(&w->pos);
        if (w->pos.c.phase == GR_DECLARE)
            grav_make(w, GR_MOVE(GA_DECLARE, who, 0), NULL);
        else if (w->pos.c.phase == GR_TURN)
            grav_make(w, GR_MOVE(GA_PASS, who, 0), NULL);
        else
            return 0;
    }
    return w->pos.c.phase == GR_OVER ? w->pos.c.winner : 0;
}

static int cmd_final_score(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    const grav_pos *p = pos(s);
    int diff = p->count[1] - p->count[2];
    if (p->c.phase == GR_OVER && p->c.reason == GR_R_RESIGN) {
        buf_printf(r, "%c+R", p->c.winner == 1 ? 'B' : 'W');
        return 0;
    }
    int winner = projected_winner(s);
    if (!winner)   /* mid-turn with a bonus stone owed: most stones, ties to white */
        winner = diff > 0 ? 1 : 2;
    buf_printf(r, "%c+%d", winner == 1 ? 'B' : 'W', abs(diff));
    return 0;
}

static int cmd_time_settings(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    long main_s, byo_s, stones;
    NEED_ARGS(3);
    if (parse_long(argv[0], 0, 100000000, &main_s) != 0 ||
        parse_long(argv[1], 0, 100000000, &byo_s) != 0 ||
        parse_long(argv[2], 0, 100000000, &stones) != 0)
        return FAIL("syntax error");
    /* byo_yomi_time > 0 with byo_yomi_stones = 0 means no time limit (GTP 2, 4.2). */
    s->timed = !(byo_s > 0 && stones == 0);
    s->main_ms = main_s * 1000;
    s->byo_ms = byo_s * 1000;
    s->byo_stones = (int)stones;
    reset_clocks(s);
    return 0;
}

static int cmd_time_left(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    long t, stones;
    NEED_ARGS(3);
    int pl = parse_color(argv[0]);
    if (!pl || parse_long(argv[1], 0, 100000000, &t) != 0 ||
        parse_long(argv[2], 0, 100000000, &stones) != 0)
        return FAIL("syntax error");
    gtp_clock *c = &s->clk[pl - 1];
    s->timed = 1;
    c->in_byo = stones > 0;
    if (c->in_byo) {
        c->period_ms = t * 1000;
        c->stones = (int)stones;
    } else {
        c->main_ms = t * 1000;
    }
    return 0;
}

static int cmd_grav_params(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    const grav_pos *p = pos(s);
    buf_printf(r, "a=%d b=%d c=%d d=%d e=%d seed=%llu", p->prm.a, p->prm.b, p->prm.c, p->prm.d,
               p->prm.e, (unsigned long long)p->seed);
    return 0;
}

static int cmd_grav_set_params(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    long v[5];
    NEED_ARGS(5);
    for (int i = 0; i < 5; i++)
        if (parse_long(argv[i], -1000000, 1000000, &v[i]) != 0)
            return FAIL("syntax error");
    char err[GV_ERRLEN];
    if (apply_rules(s, s->size, s->game_seed, v, err, sizeof err) != 0)
        return FAIL("%s", err);
    return 0;
}

static int cmd_grav_seed(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    uint64_t seed;
    NEED_ARGS(1);
    if (gv_parse_u64(argv[0], &seed) != 0)
        return FAIL("syntax error");
    char err[GV_ERRLEN];
    if (apply_rules(s, s->size, seed, s->abcde, err, sizeof err) != 0)
        return FAIL("%s", err);
    return 0;
}

static int cmd_grav_declare(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    long m = 0;
    NEED_ARGS(1);
    int is_auto = !strcmp(argv[0], "auto");
    if (!is_auto && parse_long(argv[0], 0, 100000, &m) != 0)
        return FAIL("syntax error");
    if (is_over(s) || pos(s)->c.phase != GR_DECLARE)
        return FAIL("no bonus declaration is open");
    int who = actor(s);
    char err[GV_ERRLEN], text[32];
    gv_move mv = 0;
    if (is_auto) {
        mv = ai_move(s);
        m = GR_ARG(mv);
    } else {
        snprintf(text, sizeof text, "%d declare %ld", who, m);
        if (grav_parse_move(work_copy(s), text, &mv, err, sizeof err) != 0)
            return FAIL("illegal move: %s", err);
    }
    int mark = begin_change(s);
    if (!mv || do_move(s, mv, 0, err, sizeof err) != 0) {
        end_change(s, mark, 0);
        return FAIL("illegal move: %s", mv ? err : "no declaration");
    }
    end_change(s, mark, 1);
    buf_printf(r, "%ld", m);
    return 0;
}

static int cmd_grav_resign(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    NEED_ARGS(1);
    int pl = parse_color(argv[0]);
    if (!pl)
        return FAIL("syntax error");
    char err[GV_ERRLEN], text[16];
    gv_move m;
    snprintf(text, sizeof text, "%d resign", pl);
    if (grav_parse_move(work_copy(s), text, &m, err, sizeof err) != 0)
        return FAIL("illegal move: %s", err);
    int mark = begin_change(s);
    if (do_move(s, m, 0, err, sizeof err) != 0) {
        end_change(s, mark, 0);
        return FAIL("illegal move: %s", err);
    }
    return end_change(s, mark, 1);
}

static int cmd_grav_bonus(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    if (argc > 1)
        return FAIL("syntax error");
    if (argc == 1) {
        if (!strcmp(argv[0], "sync"))
            s->bonus_full = 0;
        else if (!strcmp(argv[0], "full"))
            s->bonus_full = 1;
        else
            return FAIL("syntax error");
    }
    buf_printf(r, "%s", s->bonus_full ? "full" : "sync");
    return 0;
}

static int cmd_grav_state(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    describe_phase(s, r);
    return 0;
}

static int cmd_grav_legal(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    grav_state *w = work_copy(s);
    int n = grav_legal_moves(w, s->moves), k = 0;
    for (int i = 0; i < n; i++) {
        gv_move m = s->moves[i];
        char v[16];
        switch (GR_ACT(m)) {
        case GA_PLACE:
            vertex_name(w->pos.n, GR_ARG(m), v, sizeof v);
            buf_printf(r, "%s%s", k++ ? " " : "", v);
            break;
        case GA_PASS: buf_printf(r, "%spass", k++ ? " " : ""); break;
        case GA_DECLARE: buf_printf(r, "%sdeclare-%d", k++ ? " " : "", GR_ARG(m)); break;
        default: break;   /* resigning (always possible) is not listed */
        }
    }
    return 0;
}

static int cmd_grav_last_turn(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    const char *t = buf_str(&s->last);
    size_t len = strlen(t);
    buf_printf(r, "%.*s", (int)(len && t[len - 1] == '\n' ? len - 1 : len), t);
    return 0;
}

static const struct {
    const char *name;
    gtp_fn fn;
} commands[] = {
    {"protocol_version", cmd_protocol_version},
    {"name", cmd_name},
    {"version", cmd_version},
    {"known_command", cmd_known_command},
    {"list_commands", cmd_list_commands},
    {"quit", cmd_quit},
    {"boardsize", cmd_boardsize},
    {"clear_board", cmd_clear_board},
    {"komi", cmd_komi},
    {"play", cmd_play},
    {"genmove", cmd_genmove},
    {"undo", cmd_undo},
    {"showboard", cmd_showboard},
    {"final_score", cmd_final_score},
    {"time_settings", cmd_time_settings},
    {"time_left", cmd_time_left},
    {"grav-params", cmd_grav_params},
    {"grav-set-params", cmd_grav_set_params},
    {"grav-seed", cmd_grav_seed},
    {"grav-declare", cmd_grav_declare},
    {"grav-resign", cmd_grav_resign},
    {"grav-bonus", cmd_grav_bonus},
    {"grav-state", cmd_grav_state},
    {"grav-legal", cmd_grav_legal},
    {"grav-last-turn", cmd_grav_last_turn},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

/* Command names are case-sensitive, as in the reference implementation (GNU Go). */
static gtp_fn find_command(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i].name, name))
            return commands[i].fn;
    return NULL;
}

static int cmd_known_command(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    (void)s;
    NEED_ARGS(1);
    buf_printf(r, "%s", find_command(argv[0]) ? "true" : "false");
    return 0;
}

static int cmd_list_commands(gv_gtp *s, int argc, char **argv, gtp_buf *r)
{
    (void)s, (void)argv;
    NEED_ARGS(0);
    for (int i = 0; i < NCOMMANDS; i++)
        buf_printf(r, "%s%s", i ? "\n" : "", commands[i].name);
    return 0;
}

/* ---- Framing ------------------------------------------------------------------------- */

/* Writes "=id text\n\n" or "?id text\n\n"; the text never holds an empty line or a
 * control character, so the response cannot end early. */
static void respond(FILE *out, int ok, const char *id, const char *text)
{
    fputc(ok ? '=' : '?', out);
    fputs(id, out);
    if (*text) {
        fputc(' ', out);
        char prev = 0;
        for (const char *c = text; *c; c++) {
            char ch = *c;
            if (ch == '\n' && (prev == '\n' || !c[1]))
                continue;   /* no empty line inside, no newline at the end */
            if (ch != '\n' && (unsigned char)ch < 32)
                ch = ' ';
            fputc(ch, out);
            prev = ch;
        }
    }
    fputs("\n\n", out);
    fflush(out);
}

int gv_gtp_handle(gv_gtp *s, const char *line, size_t len, FILE *out)
{
    /* 1. Preprocessing (GTP 2, section 3.1): control characters but HT and LF go, text
     * from '#' on is a comment, HT becomes a space; the command ends at a newline. */
    char *text = malloc(len + 1);
    if (!text) {
        respond(out, 0, "", "out of memory");
        return 0;
    }
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c == '\n' || c == '#')
            break;
        if (c == '\t')
            c = ' ';
        if (c < 32 || c == 127)
            continue;
        text[k++] = (char)c;
    }
    text[k] = 0;

    /* 2. Words: [id] command_name [arguments]. */
    char *words[GTP_MAX_ARGS + 2];
    int nw = 0, total = 0;
    char *save = NULL;
    for (char *w = strtok_r(text, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (nw < GTP_MAX_ARGS + 2)
            words[nw++] = w;
        total++;
    }
    if (total == 0) {   /* empty or white-space only: ignored, no response */
        free(text);
        return 0;
    }
    const char *id = "";
    int first = 0;
    if (strspn(words[0], "0123456789") == strlen(words[0])) {
        id = words[0];
        first = 1;
    }
    gtp_buf r = {0};
    int quit = 0, ok = 0;
    gtp_fn fn = first < nw ? find_command(words[first]) : NULL;
    if (!fn) {
        buf_printf(&r, "unknown command");
    } else {
        int argc = total - first - 1;
        if (argc > GTP_MAX_ARGS) {
            buf_printf(&r, "syntax error");
        } else {
            ok = fn(s, argc, words + first + 1, &r) == 0;
            quit = ok && fn == cmd_quit;
        }
    }
    respond(out, ok, id, buf_str(&r));
    free(r.p);
    free(text);
    return quit;
}

int gv_gtp_run(gv_gtp *s, FILE *in, FILE *out)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, in)) >= 0)
        if (gv_gtp_handle(s, line, (size_t)n, out))
            break;
    free(line);
    return 0;
}
