/* The terminal game: people and AI players at one terminal -- seats, the turn loop, the
 * AI's thinking with progress and "move now", commands (hint, undo, moves, save, ...). The
 * boards and each game's questions live in the game's view (gv_game.term); every rule
 * question goes to the rules core through the engine. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/gv_core.h"
#include "term/play.h"

/* Prints "gravulien: play: <msg>" to stderr and returns PLAY_USAGE. */
static int usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gravulien: play: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return PLAY_USAGE;
}

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

/* What the search reports (on its thread) and what the waiting terminal shows. */
typedef struct think_box {
    pthread_mutex_t lock;
    play *p;
    const char *who;
    int have_info;
    gv_search_info info;
    char best[PLAY_MOVE_TEXT];
    int64_t t0;
    int show, watching, quit, stopped;
} think_box;

static void on_info(void *ctx, const gv_search_info *in)
{
    think_box *b = ctx;
    pthread_mutex_lock(&b->lock);
    b->info = *in;
    b->have_info = 1;
    if (in->npv > 0 && gv_engine_move_text(b->p->e, in->pv[0], b->best, sizeof b->best) < 0)
        b->best[0] = 0;
    pthread_mutex_unlock(&b->lock);
}

static void progress_line(const play *p, const char *who, const gv_search_info *in,
                          const char *best, int64_t ms)
{
    char line[256], score[32];
    int n = snprintf(line, sizeof line, "%s thinking... %.1fs", who, ms / 1000.0);
    if (in && p->view->thinking) {
        p->view->thinking(p, in, best, line + n, sizeof line - (size_t)n);
        n += (int)strlen(line + n);
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

/* While the AI thinks: its progress on one line; a key makes it move now ('q' or the end
 * of input while only AIs play also leaves the game). */
static int think_tick(void *ctx)
{
    think_box *b = ctx;
    play *p = b->p;
    pthread_mutex_lock(&b->lock);
    int have = b->have_info;
    gv_search_info in = b->info;
    char best[PLAY_MOVE_TEXT];
    memcpy(best, b->best, sizeof best);
    pthread_mutex_unlock(&b->lock);
    if (b->show)
        progress_line(p, b->who, have ? &in : NULL, best, gv_now_ms() - b->t0);
    if (!p->term.tty_in)
        return 0;
    int k = play_term_key(100);
    if (k < 0 && k != -2)
        return 0;
    if (b->watching && (k == 'q' || k == 'Q' || k == -2))
        b->quit = 1;
    b->stopped = 1;
    return 1;
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
    b.p = p;
    b.who = who;
    b.show = p->term.tty_out;
    b.watching = humans(p) == 0;
    gv_go go;
    memset(&go, 0, sizeof go);
    go.movetime_ms = movetime_ms;
    gv_engine_cb cb = {on_info, NULL, &b};
    /* With keys to read, each tick waits for one (up to 100 ms) itself. */
    gv_engine_waiter w = {think_tick, &b, p->term.tty_in ? 1 : 50};
    b.t0 = gv_now_ms();
    play_term_raw(&p->term, 1);
    int rc = gv_engine_go_wait(p->e, &go, &cb, &w, res, err, sizeof err);
    play_term_raw(&p->term, 0);
    if (b.stopped)
        play_term_flush_input(&p->term);
    if (b.show && rc == 0) {
        printf("\r\033[K");
        fflush(stdout);
    }
    pthread_mutex_destroy(&b.lock);
    if (rc != 0) {
        printf("The AI cannot move: %s\n", err);
        return 0;
    }
    *quit = b.quit;
    return res->best;
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
    if (p->g->parse_move(gv_engine_state(p->e), norm, &m, err, sizeof err) != 0) {
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
            play_print_moves(p->g, gv_engine_state(p->e), buf, "  ");
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
        if (p->g->parse_move(gv_engine_state(p->e), "resign", &m, NULL, 0) == 0)
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

/* Sets the seats from --seats, --watch, --hotseat or --you (default: you first against
 * the AI). Returns 0 or -1 after printing why. */
static int assign_seats(play *p, const play_config *a, int players, const char *saved_seats,
                        uint64_t seed)
{
    if (a->seats || (saved_seats && saved_seats[0] && !a->you && !a->watch && !a->hotseat)) {
        int n = parse_seats(a->seats ? a->seats : saved_seats, a->level, p->seat);
        if (n != players) {
            usage("--seats needs %d entries of human, ai or ai:LEVEL (one per player)",
                  players);
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
        usage("--you takes first, second, random or 1..%d", players);
        return -1;
    }
    p->seat[you].ai = 0;
    return 0;
}

/* Number of players of the current game. */
static int count_players(const play *p)
{
    return p->view->players ? p->view->players(p) : p->g->max_players;
}

/* The names of the games with a terminal view, separated by commas. */
static int has_term(const gv_game *g)
{
    return g->term != NULL;
}

/* ---- Setting up ------------------------------------------------------------------------ */

static int setup(play *p, const play_config *a, play_saved *saved)
{
    char err[GV_ERRLEN], buf[64], known[256];
    const char *game = a->game;
    if (saved) {
        if (game && strcmp(game, saved->game) != 0)
            return usage("%s holds a game of %s, not %s", a->load, saved->game, game);
        game = saved->game;
    }
    const gv_game *g = gv_game_find(game);
    p->view = g ? g->term : NULL;
    if (!p->view) {
        gv_game_names(known, sizeof known, ", ", 0, has_term);
        return usage("unknown game '%s' (known: %s)", game, known);
    }
    uint64_t seed = a->has_seed ? a->seed
                                : gv_mix64((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32));
    /* 1. Rule options: a game that draws its setup from a seed gets one, and a game whose
     * number of players is an option gets as many as seats, unless the options say
     * otherwise. */
    snprintf(p->options, sizeof p->options, "%s", saved ? saved->options : a->options ? a->options : "");
    if (!saved && g->seed_option && !has_option(p->options, g->seed_option)) {
        snprintf(buf, sizeof buf, "%s=%llu", g->seed_option, (unsigned long long)(seed % 1000000));
        add_option(p->options, sizeof p->options, buf);
    }
    if (!saved && g->players_option && a->seats && !has_option(p->options, g->players_option)) {
        play_seat tmp[PLAY_MAX_SEATS];
        int n = parse_seats(a->seats, a->level, tmp);
        if (n >= 2) {
            snprintf(buf, sizeof buf, "%s=%d", g->players_option, n);
            add_option(p->options, sizeof p->options, buf);
        }
    }
    p->e = gv_engine_new(game, p->options[0] ? p->options : NULL, err, sizeof err);
    if (!p->e)
        return usage("%s", err);
    p->g = gv_engine_game(p->e);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)seed);
    gv_engine_set_option(p->e, "seed", buf, err, sizeof err);
    /* 2. The start position. */
    const char *pos = saved ? (saved->start[0] ? saved->start : NULL) : a->position;
    if (pos && strcmp(pos, "startpos") != 0 &&
        gv_engine_set_position(p->e, pos, err, sizeof err) != 0)
        return usage("position: %s", err);
    if (p->g->get_position(gv_engine_state(p->e), p->start, sizeof p->start) < 0)
        return usage("position too long");
    /* 3. Seats. */
    if (assign_seats(p, a, count_players(p), saved ? saved->seats : NULL, seed) != 0)
        return PLAY_USAGE;
    name_seats(p);
    /* 4. The moves of a saved game. */
    if (saved) {
        p->replaying = 1;
        for (int i = 0; i < saved->nmoves; i++)   /* replayed by the record reader already */
            if (play_move(p, saved->moves[i], NULL) != 0)
                return PLAY_USAGE;
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
            return PLAY_OK;
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
                    return PLAY_FAIL;
            }
            if (quit || !m)
                return PLAY_OK;
            dirty = 1;
            if (watching && p->delay_ms > 0) {
                redraw(p);
                dirty = 0;
                int k = p->term.tty_in ? play_term_key(p->delay_ms) : (sleep_ms(p->delay_ms), -1);
                if (k == 'q' || k == 'Q')
                    return PLAY_OK;
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
            return PLAY_OK;
        }
        if (!p->term.tty_in)
            fputs(line, stdout);   /* a transcript shows what was typed */
        line[strcspn(line, "\r\n")] = 0;
        int r = command(p, line, over);
        if (r == 0)
            return PLAY_OK;
        if (r == 2)
            dirty = 1;
    }
}

int play_main(const play_config *c)
{
    const play_config a = *c;
    play *p = calloc(1, sizeof *p);
    play_saved *saved = NULL;
    int rc = PLAY_USAGE;
    if (!p)
        return PLAY_FAIL;
    p->ply = calloc(PLAY_MAX_PLIES, sizeof *p->ply);
    p->resigned = -1;
    p->last_human = -1;
    p->movetime_ms = a.movetime_ms;
    p->flip = a.flip;
    play_term_init(&p->term, a.ascii);
    p->native_pieces = p->term.unicode && (!a.pieces || !strcmp(a.pieces, "kanji"));
    if (!p->ply)
        goto done;
    if (a.load) {
        char err[GV_ERRLEN];
        saved = calloc(1, sizeof *saved);
        if (!saved || !(saved->moves = calloc(PLAY_MAX_PLIES, sizeof *saved->moves)))
            goto done;
        if (play_load(a.load, saved, err, sizeof err) != 0) {
            rc = usage("%s", err);
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
