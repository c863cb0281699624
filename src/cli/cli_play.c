/* gravulien play: people and AI players at one terminal -- seats, the turn loop, the AI's
 * thinking with progress and "move now", commands (hint, undo, moves, save, ...). The
 * boards and each game's questions live in the views (play_chu.c, play_exac.c,
 * play_grav.c); every rule question goes to the rules core through the engine. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/play.h"
#include "core/gv_core.h"
#include "games/grav/grav.h"

/* ---- Small helpers --------------------------------------------------------------- */

void play_log(play *p, const char *fmt, ...)
{
    if (p->nlog == PLAY_LOG_LINES) {
        memmove(p->log[0], p->log[1], sizeof p->log[0] * (PLAY_LOG_LINES - 1));
        p->nlog--;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->log[p->nlog++], PLAY_LOG_LEN, fmt, ap);
    va_end(ap);
    /* Without a redrawn screen the log is the transcript: print it as it comes. */
    if (!p->term.clear && !p->replaying)
        printf("%s\n", p->log[p->nlog - 1]);
}

void play_note(play *p, const char *fmt, ...)
{
    size_t n = strlen(p->note);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->note + n, sizeof p->note - n, fmt, ap);
    va_end(ap);
}

static void flush_note(play *p)
{
    fputs(p->note, stdout);
    p->note[0] = 0;
    fflush(stdout);
}

void play_who(const play *p, int side, char *buf, size_t len)
{
    char mark[64] = "";
    p->view->side_mark(p, side, mark, sizeof mark);
    const char *name = side >= 0 && side < p->nseats ? p->seat[side].name : "?";
    snprintf(buf, len, "%s%s%s (%s)", p->view->side_name(p, side), mark[0] ? " " : "", mark,
             name);
}

gv_move play_last_move(const play *p)
{
    return p->nplies ? p->ply[p->nplies - 1].move : 0;
}

static int humans(const play *p)
{
    int n = 0;
    for (int i = 0; i < p->nseats; i++)
        n += !p->seat[i].ai;
    return n;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The outcome, counting a resignation outside the rules core. */
static gv_status outcome(play *p, gv_result *res)
{
    if (p->resigned >= 0 && p->nseats == 2) {
        res->status = GV_WIN;
        res->winner = !p->resigned;
        snprintf(res->reason, sizeof res->reason, "resignation");
        return GV_WIN;
    }
    return gv_engine_status(p->e, res);
}

/* ---- Drawing ------------------------------------------------------------------------ */

static void redraw(play *p)
{
    char who[128], b1[16], b2[16];
    play_term_clear(&p->term);
    printf("%s%s%s", play_sgr(&p->term, "1", b1, sizeof b1), p->g->title,
           play_sgr_reset(&p->term));
    for (int i = 0; i < p->nseats; i++) {
        play_who(p, i, who, sizeof who);
        printf("%s%s", i ? "  vs  " : "  --  ", who);
    }
    printf("\n");
    p->view->draw(p, stdout);
    if (p->term.clear && p->nlog) {
        printf("\n");
        for (int i = 0; i < p->nlog; i++)
            printf("  %s%s%s\n", i == p->nlog - 1 ? play_sgr(&p->term, "1", b2, sizeof b2) : "",
                   p->log[i], i == p->nlog - 1 ? play_sgr_reset(&p->term) : "");
    }
    if (p->note[0])
        printf("\n");
    flush_note(p);
}

/* ---- The AI ------------------------------------------------------------------------- */

typedef struct think_box {
    pthread_mutex_t lock;
    gv_engine *e;
    int done, have_info;
    gv_search_info info;
    gv_search_result res;
    char best[PLAY_MOVE_TEXT];
} think_box;

static void on_info(void *ctx, const gv_search_info *in)
{
    think_box *b = ctx;
    pthread_mutex_lock(&b->lock);
    b->info = *in;
    b->have_info = 1;
    if (in->npv > 0 && gv_engine_move_text(b->e, in->pv[0], b->best, sizeof b->best) < 0)
        b->best[0] = 0;
    pthread_mutex_unlock(&b->lock);
}

static void on_bestmove(void *ctx, const gv_search_result *r)
{
    think_box *b = ctx;
    pthread_mutex_lock(&b->lock);
    b->res = *r;
    b->done = 1;
    pthread_mutex_unlock(&b->lock);
}

static void progress_line(const play *p, const char *who, const gv_search_info *in,
                          const char *best, int64_t ms)
{
    char line[256], score[32];
    int n = snprintf(line, sizeof line, "%s thinking... %.1fs", who, ms / 1000.0);
    if (in && !strcmp(p->g->name, "grav")) {
        n += snprintf(line + n, sizeof line - (size_t)n, "  playouts %llu  best %s  share %.2f",
                      (unsigned long long)in->nodes, best, in->score / 1000.0);
    } else if (in) {
        if (in->is_mate)
            snprintf(score, sizeof score, "%s mate in %d", in->score > 0 ? "wins:" : "loses:",
                     abs(gv_mate_moves(in->score)));
        else
            snprintf(score, sizeof score, "%+.2f", in->score / 100.0);
        n += snprintf(line + n, sizeof line - (size_t)n, "  depth %d  best %s  score %s  nodes %llu",
                      in->depth, best, score, (unsigned long long)in->nodes);
    }
    if (p->term.tty_in && n < (int)sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, "  (any key: move now)");
    /* One line that updates in place: never wider than the terminal. The text is ASCII
     * but for the side's mark, so a byte count errs on the short side. */
    int width = play_term_width() - 1;
    if (width > 0 && width < (int)sizeof line && (int)strlen(line) > width)
        line[width] = 0;
    printf("\r\033[K%s", line);
    fflush(stdout);
}

/* Lets the AI choose a move for the player to act, at `level`, showing its progress on
 * one line; a key press makes it move at once ('q' in watch mode also sets *quit).
 * Returns the move (0 if there is none) and its search result in *res. */
static gv_move think(play *p, int level, int64_t movetime_ms, const char *who, int *quit,
                     gv_search_result *res)
{
    char err[GV_ERRLEN], lv[8];
    snprintf(lv, sizeof lv, "%d", level);
    gv_engine_set_option(p->e, "level", lv, err, sizeof err);
    think_box b;
    memset(&b, 0, sizeof b);
    pthread_mutex_init(&b.lock, NULL);
    b.e = p->e;
    gv_go go;
    memset(&go, 0, sizeof go);
    go.movetime_ms = movetime_ms;
    gv_engine_cb cb = {on_info, on_bestmove, &b};
    int64_t t0 = gv_now_ms();
    if (gv_engine_go(p->e, &go, &cb, err, sizeof err) != 0) {
        printf("The AI cannot move: %s\n", err);
        pthread_mutex_destroy(&b.lock);
        return 0;
    }
    int show = p->term.tty_out, watching = humans(p) == 0;
    play_term_raw(&p->term, 1);
    for (;;) {
        pthread_mutex_lock(&b.lock);
        int done = b.done, have = b.have_info;
        gv_search_info in = b.info;
        char best[PLAY_MOVE_TEXT];
        memcpy(best, b.best, sizeof best);
        pthread_mutex_unlock(&b.lock);
        if (done)
            break;
        if (show)
            progress_line(p, who, have ? &in : NULL, best, gv_now_ms() - t0);
        if (p->term.tty_in) {
            int k = play_term_key(100);
            if (k >= 0 || k == -2) {
                if (watching && (k == 'q' || k == 'Q' || k == -2))
                    *quit = 1;
                gv_engine_stop(p->e);
                play_term_flush_input(&p->term);
            }
        } else {
            sleep_ms(50);
        }
    }
    play_term_raw(&p->term, 0);
    if (show) {
        printf("\r\033[K");
        fflush(stdout);
    }
    gv_engine_wait(p->e);
    pthread_mutex_destroy(&b.lock);
    *res = b.res;
    return b.res.best;
}

/* ---- Playing moves ------------------------------------------------------------------ */

/* Plays legal move m for the player to act, logs it and keeps it for undo and save. */
static int play_move(play *p, gv_move m, const char *suffix)
{
    char err[GV_ERRLEN], desc[160], who[128];
    if (p->nplies >= PLAY_MAX_PLIES) {
        printf("The game is too long to go on (%d moves).\n", PLAY_MAX_PLIES);
        return -1;
    }
    int side = p->g->to_move(gv_engine_state(p->e));
    play_ply *pl = &p->ply[p->nplies];
    if (gv_engine_move_text(p->e, m, pl->text, sizeof pl->text) < 0) {
        printf("Cannot write that move.\n");
        return -1;
    }
    p->view->describe(p, m, desc, sizeof desc);
    void *before = malloc(p->g->state_size);
    if (!before)
        return -1;
    memcpy(before, gv_engine_state(p->e), p->g->state_size);
    if (gv_engine_play_move(p->e, m, err, sizeof err) != 0) {
        printf("Illegal move: %s\n", err);
        free(before);
        return -1;
    }
    pl->move = m;
    pl->side = side;
    p->nplies++;
    play_who(p, side, who, sizeof who);
    play_log(p, "%s: %s%s", who, desc, suffix ? suffix : "");
    if (p->view->after_move)
        p->view->after_move(p, m, before);
    free(before);
    return 0;
}

/* Reads a person's move in the game's notation; on error prints the core's reason. */
static int human_move(play *p, const char *text)
{
    char norm[256], err[GV_ERRLEN];
    p->view->normalize(p, text, norm, sizeof norm);
    gv_move m;
    if (p->g->parse_move(gv_engine_scratch(p->e), norm, &m, err, sizeof err) != 0) {
        printf("Illegal move: %s\n", err);
        return -1;
    }
    return play_move(p, m, NULL);
}

/* Takes back moves until a person is to act again, at least one of them a person's move
 * (against the AI: back to your previous turn). Returns the moves taken back. */
static int undo(play *p)
{
    int n = 0, human_seen = 0;
    while (p->nplies > 0) {
        if (gv_engine_undo(p->e) != 0)
            break;
        p->nplies--;
        n++;
        if (!p->seat[p->ply[p->nplies].side].ai)
            human_seen = 1;
        int side = p->g->to_move(gv_engine_state(p->e));
        if (human_seen && side >= 0 && side < p->nseats && !p->seat[side].ai)
            break;
    }
    return n;
}

/* ---- Commands ----------------------------------------------------------------------- */

static const char common_help[] =
    "Commands:\n"
    "  hint         the AI's suggestion for you (it thinks; any key makes it answer now)\n"
    "  undo         take back your last move (against the AI: and its answer)\n"
    "  moves        every legal move here\n"
    "  board        draw the board again      flip   turn the board around\n"
    "  save FILE    save the game (resume with: gravulien play --load FILE)\n"
    "  resign       give up the game          quit   leave (also Ctrl-D)\n"
    "  help         this text\n";

static void show_help(const play *p)
{
    fputs(p->view->help, stdout);
    fputs(common_help, stdout);
}

static void do_hint(play *p)
{
    char why[160];
    if (p->view->hint_ok && !p->view->hint_ok(p, why, sizeof why)) {
        printf("No hint: %s\n", why);
        return;
    }
    int level = PLAY_HINT_LEVEL;
    int64_t ms = p->movetime_ms < PLAY_HINT_MOVETIME_MS ? p->movetime_ms : PLAY_HINT_MOVETIME_MS;
    int quit = 0;
    gv_search_result r;
    gv_move m = think(p, level, ms, "Hint", &quit, &r);
    if (!m) {
        printf("No hint: there is no move.\n");
        return;
    }
    char desc[160];
    p->view->describe(p, m, desc, sizeof desc);
    printf("Hint: %s\n", desc);
}

/* Handles one line of a person's input. Returns 1 to go on, 0 to leave the game, 2 when
 * the position changed (redraw). */
static int command(play *p, char *line, int over)
{
    char *cmd = line;
    while (*cmd == ' ' || *cmd == '\t')
        cmd++;
    size_t n = strlen(cmd);
    while (n && (cmd[n - 1] == ' ' || cmd[n - 1] == '\t'))
        cmd[--n] = 0;
    if (!*cmd)
        return 1;
    char word[32], *arg = cmd + strcspn(cmd, " \t");
    snprintf(word, sizeof word, "%.*s", (int)(arg - cmd), cmd);
    while (*arg == ' ' || *arg == '\t')
        arg++;
    if (!strcmp(word, "quit") || !strcmp(word, "exit"))
        return 0;
    if (!strcmp(word, "help") || !strcmp(word, "?")) {
        show_help(p);
        return 1;
    }
    if (!strcmp(word, "board"))
        return 2;
    if (!strcmp(word, "flip")) {
        p->flip = !p->flip;
        return 2;
    }
    if (!strcmp(word, "moves")) {
        gv_move *buf = malloc(sizeof(gv_move) * GV_MAX_MOVES);
        if (buf) {
            cli_print_moves(p->g, gv_engine_scratch(p->e), buf, "  ");
            free(buf);
        }
        return 1;
    }
    if (!strcmp(word, "save")) {
        char err[GV_ERRLEN];
        if (!*arg)
            printf("save needs a file name: save FILE\n");
        else if (play_save(p, arg, err, sizeof err) != 0)
            printf("Not saved: %s\n", err);
        else
            printf("Saved to %s (%d moves). Resume with: gravulien play --load %s\n", arg,
                   p->nplies, arg);
        return 1;
    }
    if (!strcmp(word, "undo") && p->resigned >= 0) {
        p->resigned = -1;
        play_log(p, "Resignation taken back.");
        return 2;
    }
    if (!strcmp(word, "undo")) {
        int k = undo(p);
        if (k == 0) {
            printf("Nothing to undo.\n");
            return 1;
        }
        play_log(p, "Took back %d move%s.", k, k == 1 ? "" : "s");
        return 2;
    }
    if (over) {
        printf("The game is over: undo, save FILE, board or quit.\n");
        return 1;
    }
    if (!strcmp(word, "hint")) {
        do_hint(p);
        return 1;
    }
    if (!strcmp(word, "resign") && !*arg) {
        gv_move m;
        int side = p->g->to_move(gv_engine_state(p->e));
        /* Games where resigning is a move of their own (Grav) take it as one. */
        if (p->g->parse_move(gv_engine_scratch(p->e), "resign", &m, NULL, 0) == 0)
            return play_move(p, m, NULL) == 0 ? 2 : 1;
        char who[128];
        play_who(p, side, who, sizeof who);
        p->resigned = side;
        play_log(p, "%s resigns.", who);
        return 2;
    }
    int r = p->view->command ? p->view->command(p, word, arg) : 0;
    if (r == 1)
        flush_note(p);
    if (r)
        return r;
    return human_move(p, cmd) == 0 ? 2 : 1;
}

/* ---- Seats and options -------------------------------------------------------------- */

/* Reads "human,ai:5,ai" into the seats. Returns the count or -1. */
static int parse_seats(const char *spec, int def_level, play_seat *seat)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec);
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == PLAY_MAX_SEATS)
            return -1;
        play_seat *s = &seat[n++];
        memset(s, 0, sizeof *s);
        long lv;
        if (!strcmp(t, "human") || !strcmp(t, "h")) {
            s->ai = 0;
        } else if (!strcmp(t, "ai")) {
            s->ai = 1;
            s->level = def_level;
        } else if (!strncmp(t, "ai:", 3) && gv_parse_int(t + 3, 1, 10, &lv, NULL, 0) == 0) {
            s->ai = 1;
            s->level = (int)lv;
        } else {
            return -1;
        }
    }
    return n;
}

static void name_seats(play *p)
{
    int h = humans(p);
    for (int i = 0; i < p->nseats; i++) {
        play_seat *s = &p->seat[i];
        if (s->ai)
            snprintf(s->name, sizeof s->name, "AI level %d", s->level);
        else if (h == 1)
            snprintf(s->name, sizeof s->name, "you");
        else
            snprintf(s->name, sizeof s->name, "human");
    }
}

/* Does the option text set key? */
static int has_option(const char *opts, const char *key)
{
    size_t k = strlen(key);
    for (const char *s = opts; s && *s;) {
        if (!strncmp(s, key, k) && s[k] == '=')
            return 1;
        s = strchr(s, ',');
        if (s)
            s++;
    }
    return 0;
}

static void add_option(char *opts, size_t len, const char *kv)
{
    size_t n = strlen(opts);
    snprintf(opts + n, len - n, "%s%s", n ? "," : "", kv);
}

static const char play_usage[] =
    "usage: gravulien play <chu|exac|grav> [--you first|second|random|N] [--level 1..10]\n"
    "       [--seats human,ai:5,...] [--watch] [--hotseat] [--options k=v,...]\n"
    "       [--position TEXT] [--load FILE] [--movetime MS] [--delay MS] [--seed S]\n"
    "       [--pieces kanji|abbrev] [--ascii] [--flip]   (see docs/play.md)";

typedef struct play_args {
    const char *game, *options, *position, *load, *seats, *you, *pieces;
    int level, watch, hotseat, ascii, flip, delay_ms;
    int64_t movetime_ms;
    uint64_t seed;
    int has_seed;
} play_args;

static int parse_args(int argc, char **argv, play_args *a)
{
    memset(a, 0, sizeof *a);
    a->level = PLAY_DEFAULT_LEVEL;
    a->movetime_ms = PLAY_DEFAULT_MOVETIME_MS;
    a->delay_ms = -1;
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (!strcmp(o, "--watch")) {
            a->watch = 1;
        } else if (!strcmp(o, "--hotseat")) {
            a->hotseat = 1;
        } else if (!strcmp(o, "--ascii")) {
            a->ascii = 1;
        } else if (!strcmp(o, "--flip")) {
            a->flip = 1;
        } else if (o[0] == '-' && o[1]) {
            if (!v)
                return cli_usage_error("play: %s needs a value\n%s", o, play_usage);
            i++;
            if (!strcmp(o, "--options") || !strcmp(o, "-o"))
                a->options = v;
            else if (!strcmp(o, "--position"))
                a->position = v;
            else if (!strcmp(o, "--load"))
                a->load = v;
            else if (!strcmp(o, "--seats"))
                a->seats = v;
            else if (!strcmp(o, "--you"))
                a->you = v;
            else if (!strcmp(o, "--pieces") && (!strcmp(v, "kanji") || !strcmp(v, "abbrev")))
                a->pieces = v;
            else if (!strcmp(o, "--level") && gv_parse_int(v, 1, 10, &n, NULL, 0) == 0)
                a->level = (int)n;
            else if (!strcmp(o, "--movetime") && gv_parse_int(v, 10, 3600000, &n, NULL, 0) == 0)
                a->movetime_ms = n;
            else if (!strcmp(o, "--delay") && gv_parse_int(v, 0, 60000, &n, NULL, 0) == 0)
                a->delay_ms = (int)n;
            else if (!strcmp(o, "--seed") && gv_parse_int(v, 0, 2147483647L, &n, NULL, 0) == 0) {
                a->seed = (uint64_t)n;
                a->has_seed = 1;
            } else
                return cli_usage_error("play: bad option '%s %s'\n%s", o, v, play_usage);
        } else if (!a->game) {
            a->game = o;
        } else {
            return cli_usage_error("play: unexpected argument '%s'\n%s", o, play_usage);
        }
    }
    if (!a->game && !a->load)
        return cli_usage_error("%s", play_usage);
    return 0;
}

/* Sets the seats from --seats, --watch, --hotseat or --you (default: you first against
 * the AI). Returns 0 or -1 after printing why. */
static int assign_seats(play *p, const play_args *a, int players, const char *saved_seats,
                        uint64_t seed)
{
    if (a->seats || (saved_seats && saved_seats[0] && !a->you && !a->watch && !a->hotseat)) {
        int n = parse_seats(a->seats ? a->seats : saved_seats, a->level, p->seat);
        if (n != players) {
            cli_usage_error("play: --seats needs %d entries of human, ai or ai:LEVEL "
                            "(one per player)", players);
            return -1;
        }
        p->nseats = n;
        return 0;
    }
    p->nseats = players;
    for (int i = 0; i < players; i++) {
        p->seat[i].ai = !a->hotseat;
        p->seat[i].level = a->level;
    }
    if (a->watch || a->hotseat)
        return 0;
    int you = 0;
    const char *y = a->you ? a->you : "first";
    long n;
    if (!strcmp(y, "first"))
        you = 0;
    else if (!strcmp(y, "second"))
        you = 1;
    else if (!strcmp(y, "random"))
        you = (int)(gv_mix64(seed ^ 0x796F75ULL) % (uint64_t)players);
    else if (gv_parse_int(y, 1, players, &n, NULL, 0) == 0)
        you = (int)n - 1;
    else {
        cli_usage_error("play: --you takes first, second, random or 1..%d", players);
        return -1;
    }
    p->seat[you].ai = 0;
    return 0;
}

static const play_view *view_for(const char *game)
{
    if (!strcmp(game, "chu"))
        return &play_chu_view;
    if (!strcmp(game, "exac"))
        return &play_exac_view;
    if (!strcmp(game, "grav"))
        return &play_grav_view;
    return NULL;
}

/* Number of players of the current game (Grav: as its core holds it). */
static int count_players(play *p)
{
    if (strcmp(p->g->name, "grav") != 0)
        return 2;
    return ((const grav_state *)gv_engine_state(p->e))->pos.players;
}

/* ---- Setting up ------------------------------------------------------------------------ */

static int setup(play *p, const play_args *a, play_saved *saved)
{
    char err[GV_ERRLEN], buf[32];
    const char *game = a->game;
    if (saved) {
        if (game && strcmp(game, saved->game) != 0)
            return cli_usage_error("play: %s holds a game of %s, not %s", a->load, saved->game,
                                   game);
        game = saved->game;
    }
    p->view = view_for(game);
    if (!p->view)
        return cli_usage_error("play: unknown game '%s' (known: chu, exac, grav)", game);
    uint64_t seed = a->has_seed ? a->seed
                                : gv_mix64((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32));
    /* 1. Rule options: a Grav game gets a seed for its parameters and as many players as
     * seats, unless the options say otherwise. */
    snprintf(p->options, sizeof p->options, "%s", saved ? saved->options : a->options ? a->options : "");
    if (!saved && !strcmp(game, "grav")) {
        if (!has_option(p->options, "seed")) {
            snprintf(buf, sizeof buf, "seed=%llu", (unsigned long long)(seed % 1000000));
            add_option(p->options, sizeof p->options, buf);
        }
        if (a->seats && !has_option(p->options, "players")) {
            play_seat tmp[PLAY_MAX_SEATS];
            int n = parse_seats(a->seats, a->level, tmp);
            if (n >= 2) {
                snprintf(buf, sizeof buf, "players=%d", n);
                add_option(p->options, sizeof p->options, buf);
            }
        }
    }
    p->e = gv_engine_new(game, p->options[0] ? p->options : NULL, err, sizeof err);
    if (!p->e)
        return cli_usage_error("play: %s", err);
    p->g = gv_engine_game(p->e);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)seed);
    gv_engine_set_option(p->e, "seed", buf, err, sizeof err);
    /* 2. The start position. */
    const char *pos = saved ? (saved->start[0] ? saved->start : NULL) : a->position;
    if (pos && strcmp(pos, "startpos") != 0 &&
        gv_engine_set_position(p->e, pos, err, sizeof err) != 0)
        return cli_usage_error("play: position: %s", err);
    if (p->g->get_position(gv_engine_state(p->e), p->start, sizeof p->start) < 0)
        return cli_usage_error("play: position too long");
    /* 3. Seats. */
    if (assign_seats(p, a, count_players(p), saved ? saved->seats : NULL, seed) != 0)
        return CLI_USAGE;
    name_seats(p);
    /* 4. The moves of a saved game. */
    if (saved) {
        p->replaying = 1;
        for (int i = 0; i < saved->nmoves; i++)   /* replayed by the record reader already */
            if (play_move(p, saved->moves[i], NULL) != 0)
                return CLI_USAGE;
        p->resigned = saved->resigned < p->nseats ? saved->resigned : -1;
        p->nlog = 0;
        p->replaying = 0;
        play_log(p, "Resumed %s from %s after %d moves.", p->g->title, a->load, saved->nmoves);
    }
    return 0;
}

/* ---- The game loop ------------------------------------------------------------------ */

static void show_result(play *p, const gv_result *res)
{
    char who[128];
    if (res->status == GV_DRAW) {
        play_log(p, "Game over: a draw (%s).", res->reason);
    } else {
        play_who(p, res->winner, who, sizeof who);
        play_log(p, "Game over: %s wins (%s).", who, res->reason);
    }
}

static int run(play *p)
{
    char line[512], ask[256], who[128], b1[16], b2[16];
    int dirty = 1, announced = 0, watching = humans(p) == 0;
    for (;;) {
        gv_result res;
        int over = outcome(p, &res) != GV_ONGOING;
        if (over && !announced) {
            show_result(p, &res);
            announced = 1;
            dirty = 1;
        }
        if (!over)
            announced = 0;
        if (dirty) {
            if (p->term.clear || over || p->nplies == 0 || !watching)
                redraw(p);
            dirty = 0;
        }
        if (over && watching)
            return CLI_OK;
        int side = p->g->to_move(gv_engine_state(p->e));
        if (!over && side >= 0 && side < p->nseats && p->seat[side].ai) {
            /* The AI's turn. */
            int quit = 0;
            gv_search_result r;
            play_who(p, side, who, sizeof who);
            gv_move m = think(p, p->seat[side].level, p->movetime_ms, who, &quit, &r);
            if (m) {
                char extra[64] = "";
                if (r.time_ms >= 1000)
                    snprintf(extra, sizeof extra, "   (%.1fs)", r.time_ms / 1000.0);
                if (play_move(p, m, extra) != 0)
                    return CLI_FAIL;
            }
            if (quit || !m)
                return CLI_OK;
            dirty = 1;
            if (watching && p->delay_ms > 0) {
                redraw(p);
                dirty = 0;
                int k = p->term.tty_in ? play_term_key(p->delay_ms) : (sleep_ms(p->delay_ms), -1);
                if (k == 'q' || k == 'Q')
                    return CLI_OK;
            }
            continue;
        }
        /* A person's turn (or the game is over and a person may still undo or save). */
        if (over) {
            snprintf(ask, sizeof ask, "Game over. undo, save FILE, board, quit");
        } else {
            if (humans(p) > 1 && side != p->last_human) {
                play_who(p, side, who, sizeof who);
                printf("\n%s=== %s: your turn ===%s\n", play_sgr(&p->term, "7", b1, sizeof b1),
                       who, play_sgr_reset(&p->term));
            }
            p->last_human = side;
            p->view->ask(p, ask, sizeof ask);
        }
        printf("%s%s%s> ", play_sgr(&p->term, "1", b2, sizeof b2), ask, play_sgr_reset(&p->term));
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) {
            printf("\n");
            return CLI_OK;
        }
        if (!p->term.tty_in)
            fputs(line, stdout);   /* a transcript shows what was typed */
        line[strcspn(line, "\r\n")] = 0;
        int r = command(p, line, over);
        if (r == 0)
            return CLI_OK;
        if (r == 2)
            dirty = 1;
    }
}

int cli_play(int argc, char **argv)
{
    play_args a;
    if (parse_args(argc, argv, &a) != 0)
        return CLI_USAGE;
    play *p = calloc(1, sizeof *p);
    play_saved *saved = NULL;
    int rc = CLI_USAGE;
    if (!p)
        return CLI_FAIL;
    p->ply = calloc(PLAY_MAX_PLIES, sizeof *p->ply);
    p->resigned = -1;
    p->last_human = -1;
    p->mark_from = -1;
    p->movetime_ms = a.movetime_ms;
    p->flip = a.flip;
    play_term_init(&p->term, a.ascii);
    p->kanji = p->term.unicode && (!a.pieces || !strcmp(a.pieces, "kanji"));
    if (!p->ply)
        goto done;
    if (a.load) {
        char err[GV_ERRLEN];
        saved = calloc(1, sizeof *saved);
        if (!saved || !(saved->moves = calloc(PLAY_MAX_PLIES, sizeof *saved->moves)))
            goto done;
        if (play_load(a.load, saved, err, sizeof err) != 0) {
            rc = cli_usage_error("play: %s", err);
            goto done;
        }
    }
    if (a.pieces && !strcmp(a.pieces, "kanji") && !p->term.unicode)
        fprintf(stderr, "gravulien: kanji need a UTF-8 terminal; using abbreviations\n");
    if (setup(p, &a, saved) != 0)
        goto done;
    p->delay_ms = a.delay_ms >= 0 ? a.delay_ms : (p->term.tty_out ? 700 : 0);
    /* Against a person sitting second, the board is drawn from their side. */
    if (humans(p) == 1 && p->nseats == 2 && !p->seat[1].ai)
        p->flip = !p->flip;
    if (!saved) {
        char who[128];
        play_who(p, p->g->to_move(gv_engine_state(p->e)), who, sizeof who);
        play_log(p, "New game of %s. %s moves first. Type help for commands.", p->g->title, who);
    }
    rc = run(p);
done:
    if (p->e)
        gv_engine_free(p->e);
    if (saved)
        free(saved->moves);
    free(saved);
    free(p->ply);
    free(p);
    return rc;
}
