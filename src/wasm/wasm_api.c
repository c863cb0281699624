/* The engine in the browser: what the WebAssembly build exports to JavaScript.
 *
 * One engine (engine/engine.h) at a time, driven by web/engine/worker.js. Everything
 * below the engine is the native build's code unchanged; this file is the only edge:
 * texts in and JSON texts out instead of files and protocols, and the search on the
 * caller's thread (gv_engine_go_wait without a waiter) instead of a thread of its own,
 * since a page's worker has no other.
 *
 * Stopping: the search reports progress through its info callback (alpha-beta after
 * every iteration, Grav's MCTS every 100 ms or eighth of its playouts). There the callback
 * hands the report to JavaScript and pauses through Asyncify, which unwinds the search's
 * few frames above the callback, lets the worker's message loop run (where a `stop`
 * message sets a flag), and rewinds them. If the flag is set the callback asks the
 * engine to stop, and the search ends at its next look at the stop flag with its best
 * move so far. Only the functions between the exported search calls and the callback are
 * instrumented (ASYNCIFY_ONLY in CMakeLists.txt): the rest of the search runs at full
 * speed. While a search is paused, the worker calls nothing else here.
 *
 * Every function returning text returns a pointer into one buffer, valid until the next
 * call. Texts are UTF-8; numbers too large for a JavaScript int (node counts) are passed as
 * doubles, exact below 2^53. */
#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "engine/engine.h"
#include "game/perft.h"
#include "server/web_view.h"

/* The hash table of a new engine: the server's AI seats use 16 MB; `hash` changes it. */
#define WASM_HASH_MB "16"

static gv_engine *eng;
static gv_move *played;            /* the moves played since the load, for the last move */
static int nplayed, played_cap;
static gv_buf out;                 /* the text last returned */
static char last_err[GV_ERRLEN];   /* why the last call failed */

/* JavaScript's side (worker.js sets Module.gvInfo, gvPause and gvStopRequested): a report
 * handed over; a pause while the worker's pending messages are handled (gvPause resolves
 * after them: a message to itself, which unlike a 0 ms timer is not slowed to 4 ms when
 * repeated), then whether a stop came. */
EM_JS(void, js_info, (const char *json), { Module.gvInfo(UTF8ToString(json)); });
EM_ASYNC_JS(int, js_pause, (void), {
    await Module.gvPause();
    return Module.gvStopRequested() ? 1 : 0;
});

static const char *out_reset(void)
{
    free(out.s);
    memset(&out, 0, sizeof out);
    return "";
}

static const char *out_text(void)
{
    return out.failed || !out.s ? "" : out.s;
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void put_json_string(gv_buf *b, const char *s)
{
    gv_buf_put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            char esc[2] = {'\\', (char)*p};
            gv_buf_put(b, esc, 2);
        } else if (*p < 0x20) {
            gv_buf_printf(b, "\\u%04x", *p);
        } else {
            gv_buf_put(b, (const char *)p, 1);
        }
    }
    gv_buf_put(b, "\"", 1);
}

static int fail(const char *msg)
{
    snprintf(last_err, sizeof last_err, "%s", msg);
    return -1;
}

EMSCRIPTEN_KEEPALIVE const char *gv_wasm_error(void) { return last_err; }

EMSCRIPTEN_KEEPALIVE void gv_wasm_init(void) { gv_games_init(); }

/* The games: name, title, search ("alphabeta" or "mcts"), players, rule options. */
EMSCRIPTEN_KEEPALIVE const char *gv_wasm_games(void)
{
    out_reset();
    gv_buf_put(&out, "[", 1);
    for (int i = 0; i < gv_game_count(); i++) {
        const gv_game *g = gv_game_at(i);
        gv_buf_printf(&out, "%s{\"name\":", i ? "," : "");
        put_json_string(&out, g->name);
        gv_buf_put(&out, ",\"title\":", 9);
        put_json_string(&out, g->title);
        gv_buf_printf(&out, ",\"search\":\"%s\",\"maxPlayers\":%d,\"options\":[",
                      !g->ai ? "none" : g->ai->ab ? "alphabeta" : "mcts", g->max_players);
        for (int k = 0; g->options && g->options[k].name; k++) {
            const gv_option_def *o = &g->options[k];
            gv_buf_put(&out, k ? ",{\"name\":" : "{\"name\":", k ? 9 : 8);
            put_json_string(&out, o->name);
            gv_buf_put(&out, ",\"values\":", 10);
            put_json_string(&out, o->values);
            gv_buf_put(&out, ",\"default\":", 11);
            put_json_string(&out, o->def);
            gv_buf_put(&out, "}", 1);
        }
        gv_buf_put(&out, "]}", 2);
    }
    gv_buf_put(&out, "]", 1);
    return out_text();
}

/* The bench positions of every game (those of `gravulien bench`, in its order). */
EMSCRIPTEN_KEEPALIVE const char *gv_wasm_bench_positions(void)
{
    out_reset();
    gv_buf_put(&out, "[", 1);
    int n = 0;
    for (int i = 0; i < gv_game_count(); i++) {
        const gv_game *g = gv_game_at(i);
        if (!g->ai || !g->ai->bench)
            continue;
        for (const gv_bench_pos *b = g->ai->bench; b->depth || b->playouts; b++) {
            gv_buf_printf(&out, "%s{\"game\":", n++ ? "," : "");
            put_json_string(&out, g->name);
            gv_buf_put(&out, ",\"rules\":", 9);
            put_json_string(&out, b->rules ? b->rules : "");
            gv_buf_put(&out, ",\"position\":", 12);
            put_json_string(&out, b->position ? b->position : "startpos");
            gv_buf_printf(&out, ",\"depth\":%d,\"playouts\":%llu}", b->depth,
                          (unsigned long long)b->playouts);
        }
    }
    gv_buf_put(&out, "]", 1);
    return out_text();
}

/* A new engine for game with rule options rules ("k=v,...", "" for the defaults) at
 * position (the game's position text; "" or "startpos": the start). 0, or -1 (error). */
EMSCRIPTEN_KEEPALIVE int gv_wasm_load(const char *game, const char *rules, const char *position)
{
    char err[GV_ERRLEN];
    gv_engine_free(eng);
    nplayed = 0;
    eng = gv_engine_new(game, rules && *rules ? rules : NULL, err, sizeof err);
    if (!eng)
        return fail(err);
    if (gv_engine_set_option(eng, "hash", WASM_HASH_MB, err, sizeof err) != 0)
        return fail(err);
    if (position && *position && strcmp(position, "startpos") != 0 &&
        gv_engine_set_position(eng, position, err, sizeof err) != 0) {
        gv_engine_free(eng);
        eng = NULL;
        return fail(err);
    }
    return 0;
}

static int need_engine(void)
{
    if (!eng)
        return fail("no game loaded");
    return 0;
}

/* An engine option (hash, level, player, seed, rules): engine.h. */
EMSCRIPTEN_KEEPALIVE int gv_wasm_set_option(const char *name, const char *value)
{
    char err[GV_ERRLEN];
    if (need_engine() != 0)
        return -1;
    if (gv_engine_set_option(eng, name, value, err, sizeof err) != 0)
        return fail(err);
    return 0;
}

/* Plays one move in the game's notation. */
EMSCRIPTEN_KEEPALIVE int gv_wasm_play(const char *move)
{
    char err[GV_ERRLEN];
    if (need_engine() != 0)
        return -1;
    const gv_game *g = gv_engine_game(eng);
    gv_move m;
    if (g->parse_move(gv_engine_state(eng), move, &m, err, sizeof err) != 0)
        return fail(err);
    if (nplayed == played_cap) {
        int cap = played_cap ? 2 * played_cap : 256;
        gv_move *p = realloc(played, (size_t)cap * sizeof *p);
        if (!p)
            return fail("out of memory");
        played = p;
        played_cap = cap;
    }
    if (gv_engine_play_move(eng, m, err, sizeof err) != 0)
        return fail(err);
    played[nplayed++] = m;
    return 0;
}

EMSCRIPTEN_KEEPALIVE int gv_wasm_undo(void)
{
    if (need_engine() != 0)
        return -1;
    if (gv_engine_undo(eng) != 0)
        return fail("no move to take back");
    if (nplayed > 0)
        nplayed--;
    return 0;
}

/* What the server's views of a game say of the current state (the game's web view hook,
 * server/web_view.h, with the last move played since the load): a JSON object with the
 * keys the hook adds to the server's view and positions (a game's own object, its
 * checks), {} for a game that adds nothing; "" (error). */
EMSCRIPTEN_KEEPALIVE const char *gv_wasm_view(void)
{
    out_reset();
    if (need_engine() != 0)
        return "";
    const gv_game *g = gv_engine_game(eng);
    json_t *v = json_object();
    if (!v) {
        fail("out of memory");
        return "";
    }
    if (g->web && g->web->view)
        g->web->view(gv_engine_state(eng), nplayed ? &played[nplayed - 1] : NULL, v);
    char *text = json_dumps(v, JSON_COMPACT);
    json_decref(v);
    if (!text) {
        fail("out of memory");
        return "";
    }
    gv_buf_put(&out, text, strlen(text));
    free(text);
    return out_text();
}

/* The game's further notations of moves (the web view's, as the server's move list shows
 * them: Chu's TSA and KIF, Grav's words), or NULL when it has none. */
static const struct gv_web_view *texts_view(const gv_game *g)
{
    const struct gv_web_view *w = g->web;
    return w && w->notations && w->move_texts ? w : NULL;
}

/* The state: {"position", "toMove", "plies", "status" ("ongoing", "win", "draw"),
 * "winner", "reason", "moves": [legal moves in the game's notation]}. */
EMSCRIPTEN_KEEPALIVE const char *gv_wasm_state(void)
{
    out_reset();
    if (need_engine() != 0)
        return "";
    const gv_game *g = gv_engine_game(eng);
    const void *st = gv_engine_state(eng);
    char *text = malloc(GV_MAX_TEXT);
    gv_move *moves = malloc(GV_MAX_MOVES * sizeof *moves);
    if (!text || !moves) {
        free(text);
        free(moves);
        fail("out of memory");
        return "";
    }
    if (g->get_position(st, text, GV_MAX_TEXT) < 0)
        text[0] = 0;
    gv_result res;
    memset(&res, 0, sizeof res);
    gv_status s = gv_engine_status(eng, &res);
    gv_buf_put(&out, "{\"game\":", 8);
    put_json_string(&out, g->name);
    gv_buf_put(&out, ",\"position\":", 12);
    put_json_string(&out, text);
    gv_buf_printf(&out, ",\"toMove\":%d,\"plies\":%d,\"status\":\"%s\"", g->to_move(st),
                  gv_engine_plies(eng),
                  s == GV_ONGOING ? "ongoing" : s == GV_WIN ? "win" : "draw");
    if (s == GV_WIN)
        gv_buf_printf(&out, ",\"winner\":%d", res.winner);
    if (s != GV_ONGOING) {
        gv_buf_put(&out, ",\"reason\":", 10);
        put_json_string(&out, res.reason);
    }
    const struct gv_web_view *w = texts_view(g);
    gv_buf_put(&out, ",\"notations\":[", 14);
    for (int j = 0; w && w->notations[j]; j++) {
        if (j)
            gv_buf_put(&out, ",", 1);
        put_json_string(&out, w->notations[j]);
    }
    gv_buf_put(&out, "]", 1);
    gv_buf_put(&out, ",\"moves\":[", 10);
    int n = g->legal_moves(st, moves);
    for (int i = 0; i < n; i++) {
        char mv[64];
        if (g->write_move(st, moves[i], mv, sizeof mv) < 0)
            continue;
        if (i)
            gv_buf_put(&out, ",", 1);
        put_json_string(&out, mv);
    }
    gv_buf_put(&out, "]}", 2);
    free(text);
    free(moves);
    return out_text();
}

/* Leaves of the legal-move tree to depth plies from the current state (-1: error). */
EMSCRIPTEN_KEEPALIVE double gv_wasm_perft(int depth)
{
    if (need_engine() != 0)
        return -1;
    if (depth < 0 || depth > 20)
        return fail("depth must be from 0 to 20");
    const gv_game *g = gv_engine_game(eng);
    void *st = malloc(g->state_size);
    if (!st)
        return fail("out of memory");
    memcpy(st, gv_engine_state(eng), g->state_size);
    double n = (double)gv_perft(g, st, depth);
    free(st);
    return n;
}

/* `,"pvTexts":{"tsa":[...],"kif":[...]}`: the line pv from st in each further notation,
 * move by move (stopping at a move it cannot write); nothing when the game has none. */
static void put_pv_texts(gv_buf *b, const gv_game *g, const void *st0, const gv_move *pv, int npv)
{
    const struct gv_web_view *w = texts_view(g);
    if (!w || npv <= 0)
        return;
    int k = 0;
    while (w->notations[k])
        k++;
    void *st = malloc(g->state_size);
    char *buf = malloc(1024);
    gv_buf *cols = calloc((size_t)k, sizeof *cols);
    if (st && buf && cols) {
        memcpy(st, st0, g->state_size);
        for (int i = 0; i < npv; i++) {
            int n = w->move_texts(st, pv[i], buf, 1024);
            if (n < 0)
                break;
            const char *t = buf;
            for (int j = 0; j < k; j++) {
                gv_buf_put(&cols[j], i ? "," : "[", 1);
                put_json_string(&cols[j], t);
                t += strlen(t) + 1;
            }
            g->make(st, pv[i]);
        }
        gv_buf_put(b, ",\"pvTexts\":{", 12);
        for (int j = 0; j < k; j++) {
            if (j)
                gv_buf_put(b, ",", 1);
            put_json_string(b, w->notations[j]);
            gv_buf_put(b, ":", 1);
            if (cols[j].s && !cols[j].failed) {
                gv_buf_put(b, cols[j].s, strlen(cols[j].s));
                gv_buf_put(b, "]", 1);
            } else {
                gv_buf_put(b, "[]", 2);
            }
        }
        gv_buf_put(b, "}", 1);
    }
    for (int j = 0; cols && j < k; j++)
        free(cols[j].s);
    free(cols);
    free(buf);
    free(st);
}

/* A legal move of the current state in the game's further notations, as JSON
 * {"tsa": "...", "kif": "..."} ({} when the game has none), or "" (error). */
EMSCRIPTEN_KEEPALIVE const char *gv_wasm_move_texts(const char *move)
{
    out_reset();
    if (need_engine() != 0)
        return "";
    const gv_game *g = gv_engine_game(eng);
    const void *st = gv_engine_state(eng);
    char err[GV_ERRLEN], buf[1024];
    gv_move m;
    if (g->parse_move(st, move, &m, err, sizeof err) != 0) {
        fail(err);
        return "";
    }
    const struct gv_web_view *w = texts_view(g);
    gv_buf_put(&out, "{", 1);
    if (w && w->move_texts(st, m, buf, sizeof buf) >= 0) {
        const char *t = buf;
        for (int j = 0; w->notations[j]; j++) {
            if (j)
                gv_buf_put(&out, ",", 1);
            put_json_string(&out, w->notations[j]);
            gv_buf_put(&out, ":", 1);
            put_json_string(&out, t);
            t += strlen(t) + 1;
        }
    }
    gv_buf_put(&out, "}", 1);
    return out_text();
}

/* The search's report as JSON: depth, seldepth, score (alpha-beta: centipawns for the
 * side to move; MCTS: its expected stone share x 1000), mate (moves to a forced result,
 * when there is one), nodes, time (ms), nps, pv (the game's notation). */
static void put_report(gv_buf *b, int depth, int seldepth, int score, int is_mate,
                       uint64_t nodes, int64_t ms, int multipv, const gv_move *pv, int npv)
{
    char *line = malloc(GV_MAX_TEXT);
    if (line && gv_engine_pv_text(eng, pv, npv, line, GV_MAX_TEXT) < 0)
        line[0] = 0;
    gv_buf_printf(b, "{\"depth\":%d,\"seldepth\":%d,\"score\":%d", depth, seldepth, score);
    if (is_mate)
        gv_buf_printf(b, ",\"mate\":%d", gv_mate_moves(score));
    gv_buf_printf(b, ",\"nodes\":%llu,\"time\":%lld,\"nps\":%llu,\"pv\":",
                  (unsigned long long)nodes, (long long)ms,
                  (unsigned long long)(ms > 0 ? nodes * 1000 / (uint64_t)ms : 0));
    put_json_string(b, line ? line : "");
    free(line);
    if (multipv)
        gv_buf_printf(b, ",\"multipv\":%d", multipv);
    put_pv_texts(b, gv_engine_game(eng), gv_engine_state(eng), pv, npv);
}

/* The info callback: hands the report over, then lets the worker's message loop run. */
static void search_info(void *ctx, const gv_search_info *in)
{
    (void)ctx;
    gv_buf b;
    memset(&b, 0, sizeof b);
    put_report(&b, in->depth, in->seldepth, in->score, in->is_mate, in->nodes, in->time_ms,
               in->multipv, in->pv, in->npv);
    gv_buf_put(&b, "}", 1);
    if (!b.failed)
        js_info(b.s);
    free(b.s);
    /* No thread was started (gv_engine_go_wait searches on this one), so gv_engine_stop
     * only raises the stop flag the search looks at; it has nothing to wait for. */
    if (js_pause())
        gv_engine_stop(eng);
}

static const char *search_with(const gv_go *go, int reports)
{
    out_reset();
    if (need_engine() != 0)
        return "";
    char err[GV_ERRLEN];
    if (gv_engine_status(eng, NULL) != GV_ONGOING) {
        fail("the game is over");
        return "";
    }
    gv_engine_cb cb = {reports ? search_info : NULL, NULL, NULL};
    /* gv_engine_go_wait without a waiter: gv_engine_think on this thread, refusals
     * (no AI, out of memory) reported. */
    gv_search_result r;
    if (gv_engine_go_wait(eng, go, &cb, NULL, &r, err, sizeof err) != 0) {
        fail(err);
        return "";
    }
    char best[64] = "", ponder[64] = "";
    if (r.best && gv_engine_move_text(eng, r.best, best, sizeof best) < 0)
        best[0] = 0;
    /* The reply expected: the second move of the line (a move's text may hold spaces). */
    gv_move line[2] = {r.best, r.ponder};
    char both[160];
    size_t lb = strlen(best);
    if (r.ponder && gv_engine_pv_text(eng, line, 2, both, sizeof both) > (int)lb + 1 &&
        !strncmp(both, best, lb) && both[lb] == ' ')
        snprintf(ponder, sizeof ponder, "%s", both + lb + 1);
    gv_buf_printf(&out, "{\"best\":");
    put_json_string(&out, best);
    gv_buf_put(&out, ",\"ponder\":", 10);
    put_json_string(&out, ponder);
    gv_buf_printf(&out, ",\"score\":%d,\"depth\":%d", r.score, r.depth);
    if (r.is_mate)
        gv_buf_printf(&out, ",\"mate\":%d", gv_mate_moves(r.score));
    gv_buf_printf(&out, ",\"nodes\":%llu,\"time\":%lld}", (unsigned long long)r.nodes,
                  (long long)r.time_ms);
    return out_text();
}

/* Searches the current state: depth (0: none), nodes (alpha-beta nodes or MCTS playouts;
 * 0: none), movetime_ms (0: none), infinite (until stopped). With no limit at all the
 * search is infinite. Reports through js_info unless reports is 0 (then it never yields
 * and cannot be stopped: for measuring speed); returns the result as JSON
 * {"best", "ponder", "score", "depth", "mate"?, "nodes", "time"}, or "" (error). */
EMSCRIPTEN_KEEPALIVE const char *gv_wasm_search(int depth, double nodes, double movetime_ms,
                                                int infinite, int reports)
{
    gv_go go;
    memset(&go, 0, sizeof go);
    go.depth = depth > 0 ? depth : 0;
    go.nodes = nodes > 0 ? (uint64_t)nodes : 0;
    go.movetime_ms = movetime_ms > 0 ? (int64_t)movetime_ms : 0;
    go.infinite = reports && (infinite || (!go.depth && !go.nodes && !go.movetime_ms));
    return search_with(&go, reports);
}

/* The move of the AI at level (1..10) as the server's AI seats choose it: the level and
 * seed set, a fresh table below level 10, movetime_ms to think (the seats' default is
 * 1000), or the mover's clock (clock_ms > 0, with increment inc_ms). */
EMSCRIPTEN_KEEPALIVE const char *gv_wasm_ai_move(int level, double seed, double movetime_ms,
                                                 double clock_ms, double inc_ms)
{
    out_reset();
    if (need_engine() != 0)
        return "";
    char err[GV_ERRLEN], v[32];
    int was = gv_engine_level(eng);
    snprintf(v, sizeof v, "%d", level);
    if (gv_engine_set_option(eng, "level", v, err, sizeof err) != 0) {
        fail(err);
        return "";
    }
    snprintf(v, sizeof v, "%llu", (unsigned long long)(seed > 0 ? seed : 0));
    gv_engine_set_option(eng, "seed", v, NULL, 0);
    if (level < 10)
        gv_engine_forget(eng);
    gv_go go;
    memset(&go, 0, sizeof go);
    if (clock_ms > 0) {
        int side = gv_engine_game(eng)->to_move(gv_engine_state(eng));
        if (side < 0 || side >= GV_ENGINE_MAX_SIDES)
            side = 0;
        go.has_time = 1;
        go.time_ms[side] = (int64_t)clock_ms;
        go.inc_ms[side] = inc_ms > 0 ? (int64_t)inc_ms : 0;
    } else {
        go.movetime_ms = movetime_ms > 0 ? (int64_t)movetime_ms : 1000;
    }
    const char *res = search_with(&go, 1);
    snprintf(v, sizeof v, "%d", was);
    gv_engine_set_option(eng, "level", v, NULL, 0);
    return res;
}
