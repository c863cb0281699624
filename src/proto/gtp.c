/* GTP v2 engine session: framing, the standard commands that need no board, clocks and
 * undo; the game that speaks GTP adds its board commands and extensions (gtp_game.h; see
 * gtp.h and docs/gtp.md). */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/gv_core.h"
#include "engine/engine.h"
#include "game/game.h"
#include "proto/gtp.h"
#include "proto/gtp_game.h"
#include "search/search.h"

#define GTP_NAME "Gravulien"

enum {
    GTP_MAX_ARGS = 16,       /* arguments kept per command (more make it a syntax error) */
};

/* Vertex letters: A..Z without I, left to right (GTP 2, section 2.11). */
static const char gtp_letters[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

/* ---- Growable text buffer --------------------------------------------------------- */

void gv_gtp_buf_clear(gv_gtp_buf *b)
{
    b->len = 0;
    if (b->p)
        b->p[0] = 0;
}

static void buf_vprintf(gv_gtp_buf *b, const char *fmt, va_list ap)
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

void gv_gtp_printf(gv_gtp_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

const char *gv_gtp_buf_str(const gv_gtp_buf *b)
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
    const gv_gtp_game *game;        /* the game's commands */
    void *data;                     /* the game's part of the session */
    gv_gtp_command *commands;       /* the session's and the game's, as listed */
    int ncommands;
    double komi;
    int64_t movetime_ms;
    /* Undo: engine plies before each command that changed the game. */
    int *marks;
    int nmarks, capmarks;
    int undo_left;                  /* moves the engine can still take back (mirrors it) */
    /* What the command being run did, and what the last one that changed the game did. */
    gv_gtp_buf events, last;
    /* Clocks. */
    int timed;
    int64_t main_ms, byo_ms;
    int byo_stones;
    gtp_clock clk[2];
};

gv_engine *gv_gtp_engine(gv_gtp *s)
{
    return s->e;
}

void *gv_gtp_data(gv_gtp *s)
{
    return s->data;
}

gv_gtp_buf *gv_gtp_log(gv_gtp *s)
{
    return &s->events;
}

const char *gv_gtp_last_turn(const gv_gtp *s)
{
    return gv_gtp_buf_str(&s->last);
}

const char *gv_gtp_color_name(int pl)
{
    return pl == 1 ? "black" : "white";
}

char gv_gtp_column(int x)
{
    return x >= 0 && x < (int)sizeof gtp_letters - 1 ? gtp_letters[x] : '?';
}

void gv_gtp_vertex_name(int n, int q, char *buf, size_t len)
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
void gv_gtp_new_game(gv_gtp *s)
{
    s->nmarks = 0;
    s->undo_left = 0;
    gv_gtp_buf_clear(&s->events);
    gv_gtp_buf_clear(&s->last);
    reset_clocks(s);
}

void gv_gtp_config_default(gv_gtp_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->level = 10;
    cfg->hash_mb = GV_ENGINE_DEFAULT_HASH_MB;
    cfg->size = 13;
}


/* ---- Moves and undo --------------------------------------------------------------------- */

int gv_gtp_play(gv_gtp *s, gv_move m, char *err, size_t errlen)
{
    if (gv_engine_play_move(s->e, m, err, errlen) != 0)
        return -1;
    if (s->undo_left < gv_engine_game(s->e)->undo_plies)
        s->undo_left++;
    return 0;
}

/* Takes back the moves played since the engine had `mark` plies. */
static void rollback(gv_gtp *s, int mark)
{
    while (gv_engine_plies(s->e) > mark && gv_engine_undo(s->e) == 0)
        s->undo_left--;
}

/* Starts a command that may change the game: returns its undo mark. */
int gv_gtp_begin_change(gv_gtp *s)
{
    gv_gtp_buf_clear(&s->events);
    return gv_engine_plies(s->e);
}

/* Ends it: on success the turn log is kept and the mark pushed (when anything was
 * played); on failure everything is taken back. */
int gv_gtp_end_change(gv_gtp *s, int mark, int ok)
{
    if (!ok) {
        rollback(s, mark);
        gv_gtp_buf_clear(&s->events);
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
    gv_gtp_buf_clear(&s->last);
    gv_gtp_printf(&s->last, "%s", gv_gtp_buf_str(&s->events));
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
        /* The clock of the player to act: white is the second player. */
        int side = gv_engine_game(s->e)->to_move(gv_engine_state(s->e)) == 1 ? 1 : 0;
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
void gv_gtp_charge(gv_gtp *s, int side, int64_t used)
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
gv_move gv_gtp_ai_move(gv_gtp *s)
{
    gv_go go;
    make_go(s, &go);
    return gv_engine_think(s->e, &go, NULL).best;
}

/* ---- Argument parsing ---------------------------------------------------------------- */

/* A GTP color, case-insensitive: 1 black, 2 white, 0 neither. */
int gv_gtp_parse_color(const char *t)
{
    if (!strcasecmp(t, "b") || !strcasecmp(t, "black"))
        return 1;
    if (!strcasecmp(t, "w") || !strcasecmp(t, "white"))
        return 2;
    return 0;
}


/* A GTP vertex ("D4", case-insensitive) to the core's point. Returns 1 (point in *q),
 * 0 when t is not a vertex, -1 when it is one but off this board. */
int gv_gtp_parse_vertex(int n, const char *t, int *q)
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

#define FAIL(...) (gv_gtp_printf(r, __VA_ARGS__), -1)
#define NEED_ARGS(k) do { if (argc != (k)) return FAIL("syntax error"); } while (0)

static int cmd_protocol_version(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    (void)s, (void)argv;
    NEED_ARGS(0);
    gv_gtp_printf(r, "2");
    return 0;
}

static int cmd_name(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    (void)s, (void)argv;
    NEED_ARGS(0);
    gv_gtp_printf(r, GTP_NAME);
    return 0;
}

static int cmd_version(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    (void)s, (void)argv;
    NEED_ARGS(0);
    gv_gtp_printf(r, GV_VERSION);
    return 0;
}

static int cmd_known_command(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r);
static int cmd_list_commands(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r);

static int cmd_quit(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    (void)s, (void)argc, (void)argv, (void)r;
    return 0;   /* arguments are ignored: quit always ends the session */
}

static int cmd_clear_board(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    if (gv_engine_new_game(s->e) != 0)
        return FAIL("cannot clear the board");
    gv_gtp_new_game(s);
    return 0;
}

static int cmd_komi(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    NEED_ARGS(1);
    char *end;
    double k = strtod(argv[0], &end);
    if (end == argv[0] || *end || !isfinite(k))
        return FAIL("syntax error");
    s->komi = k;   /* stored only: the games score by their own rules (docs/gtp.md) */
    return 0;
}

static int cmd_undo(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
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
    gv_gtp_buf_clear(&s->last);
    return 0;
}

static int cmd_time_settings(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
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

static int cmd_time_left(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    long t, stones;
    NEED_ARGS(3);
    int pl = gv_gtp_parse_color(argv[0]);
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

/* GTP's standard commands in the specification's order; NULL: only the game has it. */
static const gv_gtp_command standard_commands[] = {
    {"protocol_version", cmd_protocol_version},
    {"name", cmd_name},
    {"version", cmd_version},
    {"known_command", cmd_known_command},
    {"list_commands", cmd_list_commands},
    {"quit", cmd_quit},
    {"boardsize", NULL},
    {"clear_board", cmd_clear_board},
    {"komi", cmd_komi},
    {"play", NULL},
    {"genmove", NULL},
    {"undo", cmd_undo},
    {"showboard", NULL},
    {"final_score", NULL},
    {"time_settings", cmd_time_settings},
    {"time_left", cmd_time_left},
};
enum { NSTANDARD = sizeof standard_commands / sizeof standard_commands[0] };

/* The entry of list (n entries) named name, or NULL. Command names are case-sensitive, as
 * in the reference implementation (GNU Go). */
static const gv_gtp_command *find_in(const gv_gtp_command *list, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(list[i].name, name))
            return &list[i];
    return NULL;
}

static gv_gtp_fn find_command(const gv_gtp *s, const char *name)
{
    const gv_gtp_command *c = find_in(s->commands, s->ncommands, name);
    return c ? c->fn : NULL;
}

/* The session's commands: the standard ones (the game's where it has its own), then the
 * game's others. Returns 0, or -1 when out of memory. */
static int build_commands(gv_gtp *s)
{
    const gv_gtp_command *own = s->game->commands;
    int n = 0;
    while (own && own[n].name)
        n++;
    s->commands = calloc((size_t)(NSTANDARD + n), sizeof *s->commands);
    if (!s->commands)
        return -1;
    for (int i = 0; i < NSTANDARD; i++) {
        const gv_gtp_command *c = find_in(own, n, standard_commands[i].name);
        if (!c || !c->fn)
            c = &standard_commands[i];
        if (c->fn)
            s->commands[s->ncommands++] = *c;
    }
    for (int i = 0; i < n; i++)
        if (own[i].fn && !find_in(standard_commands, NSTANDARD, own[i].name))
            s->commands[s->ncommands++] = own[i];
    return 0;
}

static int cmd_known_command(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    NEED_ARGS(1);
    gv_gtp_printf(r, "%s", find_command(s, argv[0]) ? "true" : "false");
    return 0;
}

static int cmd_list_commands(gv_gtp *s, int argc, char **argv, gv_gtp_buf *r)
{
    (void)argv;
    NEED_ARGS(0);
    for (int i = 0; i < s->ncommands; i++)
        gv_gtp_printf(r, "%s%s", i ? "\n" : "", s->commands[i].name);
    return 0;
}

/* ---- Creating a session ------------------------------------------------------------- */

gv_gtp *gv_gtp_new(const gv_gtp_config *cfg, char *err, size_t errlen)
{
    const gv_game *g = gv_game_for_protocol(GV_PROTO_GTP);
    if (!g || !g->gtp) {
        gv_err(err, errlen, "no game speaks GTP");
        return NULL;
    }
    gv_gtp *s = calloc(1, sizeof *s);
    if (!s) {
        gv_err(err, errlen, "out of memory");
        return NULL;
    }
    s->game = g->gtp;
    s->data = calloc(1, s->game->data_size ? s->game->data_size : 1);
    s->e = gv_engine_new(g->name, s->game->rules, err, errlen);
    if (!s->data || !s->e || build_commands(s) != 0) {
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
    s->movetime_ms = cfg->movetime_ms > 0 ? cfg->movetime_ms : 0;
    if (s->game->open && s->game->open(s, cfg, err, errlen) != 0) {
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
    free(s->data);
    free(s->commands);
    free(s->marks);
    free(s->events.p);
    free(s->last.p);
    free(s);
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
    gv_gtp_buf r = {0};
    int quit = 0, ok = 0;
    gv_gtp_fn fn = first < nw ? find_command(s, words[first]) : NULL;
    if (!fn) {
        gv_gtp_printf(&r, "unknown command");
    } else {
        int argc = total - first - 1;
        if (argc > GTP_MAX_ARGS) {
            gv_gtp_printf(&r, "syntax error");
        } else {
            ok = fn(s, argc, words + first + 1, &r) == 0;
            quit = ok && fn == cmd_quit;
        }
    }
    respond(out, ok, id, gv_gtp_buf_str(&r));
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
