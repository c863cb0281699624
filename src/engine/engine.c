/* Engine layer: a game in progress plus its AI player (alpha-beta or MCTS), searching on
 * its own thread, with time management and strength levels. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/gv_core.h"
#include "engine/engine.h"
#include "search/tt.h"

/* ---- Tunables: strength levels and time ------------------------------------------ */

/* Per-move budgets of levels 1..9 (level 10 has none): alpha-beta nodes (about 2.7
 * times the level below, 3.75 for level 9: with no root margin above level 7 the top
 * levels differ by budget alone) and MCTS playouts (2.5 to 10 times: below ~100
 * playouts Grav's MCTS is not monotonic -- 20 playouts, a one-ply look, beat 60 by
 * 17-7). Weaker levels also err more: in alpha-beta they pick among more near-best
 * moves (ab.c skill_margin); in MCTS they miss others' violations, and level 1 sometimes
 * prefers a near-best move (grav_mcts.c). */
static const uint64_t level_nodes_ab[10] = {0, 150, 400, 1100, 3000, 8000, 22000, 60000,
                                            160000, 600000};
static const uint64_t level_playouts[10] = {0, 20, 200, 700, 2500, 8000, 25000, 60000,
                                            150000, 400000};
/* Chance, in per mille, that a level plays a random legal move instead of its search's
 * choice, the way a beginner overlooks what a move leaves hanging. The draw is seeded
 * (same seed and position, same move). It makes level 1 weaker than the 1-ply greedy
 * player, and the chance falls fast so that each level still beats the one below. A game
 * may give its own table (gv_ai.blunder_permille). */
static const int level_blunder_permille[10] = {0, 450, 250, 120, 50, 20, 0, 0, 0, 0};
/* Moves the clock is spread over when the protocol gives no moves-to-go: the game's
 * estimate of the moves still to come (gv_ai.plies_left, kept within MOVES_TO_GO_MIN and
 * MOVES_TO_GO_MAX), or MOVES_TO_GO_DEFAULT. A moves-to-go the protocol gives is used when
 * it is smaller. */
enum {
    MOVES_TO_GO_DEFAULT = 40,
    MOVES_TO_GO_MIN = 10,
    MOVES_TO_GO_MAX = 200,
    MAX_SHARE_PERCENT = 40,
    HARD_FACTOR = 4,
};

struct gv_engine {
    const gv_game *g;
    const gv_ai *ai;                /* the game's AI (search.h): alpha-beta or its own */
    const gv_ab_hooks *hooks;       /* ai->ab: alpha-beta's hooks, or NULL */
    char rules[GV_MAX_TEXT];        /* rule options given at creation */
    void *st;                       /* the game in progress */
    void *work;                     /* the search's copy */
    gv_tt *tt;                      /* allocated at the first alpha-beta search */
    size_t hash_mb;
    int level, greedy;
    int threads, multipv;           /* alpha-beta's searching threads and lines (>= 1) */
    int may_blunder;                /* the running search plays (not analysis) */
    uint64_t seed;
    int plies;                      /* moves since the position was set */
    int undo_left;                  /* moves that can still be taken back (history kept) */

    /* The running search. */
    pthread_t thread;
    int running;                    /* a thread was started and not yet joined */
    int finished;                   /* its bestmove was delivered (join will not wait) */
    pthread_mutex_t lock;
    gv_search_ctl ctl;
    gv_limits lim;
    gv_engine_cb cb;
};

/* ---- Creation and options ------------------------------------------------------------ */

gv_engine *gv_engine_new(const char *name, const char *options, char *err, size_t errlen)
{
    const gv_game *g = gv_game_find(name ? name : "");
    if (!g) {
        gv_err(err, errlen, "unknown game '%s'", name ? name : "");
        return NULL;
    }
    gv_engine *e = calloc(1, sizeof *e);
    if (!e) {
        gv_err(err, errlen, "out of memory");
        return NULL;
    }
    e->g = g;
    pthread_mutex_init(&e->lock, NULL);
    e->st = malloc(g->state_size);
    e->work = malloc(g->state_size);
    if (!e->st || !e->work) {
        gv_err(err, errlen, "out of memory");
        gv_engine_free(e);
        return NULL;
    }
    if (g->init(e->st, options, err, errlen) != 0) {
        gv_engine_free(e);
        return NULL;
    }
    snprintf(e->rules, sizeof e->rules, "%s", options ? options : "");
    e->ai = g->ai;
    e->hooks = g->ai ? g->ai->ab : NULL;
    e->hash_mb = GV_ENGINE_DEFAULT_HASH_MB;
    e->level = 10;
    e->threads = e->multipv = 1;
    return e;
}

void gv_engine_free(gv_engine *e)
{
    if (!e)
        return;
    gv_engine_stop(e);
    pthread_mutex_destroy(&e->lock);
    gv_tt_free(e->tt);
    free(e->st);
    free(e->work);
    free(e);
}

const gv_game *gv_engine_game(const gv_engine *e) { return e->g; }
const void *gv_engine_state(const gv_engine *e) { return e->st; }
int gv_engine_level(const gv_engine *e) { return e->level; }
int gv_engine_threads(const gv_engine *e) { return e->threads; }
int gv_engine_multipv(const gv_engine *e) { return e->multipv; }
int gv_engine_max_threads(void) { return gv_ab_max_threads(); }
int gv_engine_plies(const gv_engine *e) { return e->plies; }

/* A search that ended by itself (bestmove delivered) is joined here, so the owner may
 * play its move at once. */
int gv_engine_busy(gv_engine *e)
{
    pthread_mutex_lock(&e->lock);
    int running = e->running, finished = e->finished;
    pthread_mutex_unlock(&e->lock);
    if (running && finished) {
        gv_engine_wait(e);
        running = 0;
    }
    return running;
}

static int refuse_busy(gv_engine *e, char *err, size_t errlen)
{
    if (gv_engine_busy(e)) {
        gv_err(err, errlen, "a search is running");
        return 1;
    }
    return 0;
}

int gv_engine_set_option(gv_engine *e, const char *name, const char *value, char *err,
                         size_t errlen)
{
    if (refuse_busy(e, err, errlen))
        return -1;
    long v;
    if (!strcmp(name, "hash")) {
        if (gv_parse_int(value, 1, 4096, &v, NULL, 0) != 0) {
            gv_err(err, errlen, "hash must be a whole number of MB from 1 to 4096");
            return -1;
        }
        if ((size_t)v != e->hash_mb) {
            gv_tt_free(e->tt);
            e->tt = NULL;
            e->hash_mb = (size_t)v;
        }
        return 0;
    }
    if (!strcmp(name, "level")) {
        if (gv_parse_int(value, 1, 10, &v, NULL, 0) != 0) {
            gv_err(err, errlen, "level must be a whole number from 1 to 10");
            return -1;
        }
        e->level = (int)v;
        return 0;
    }
    if (!strcmp(name, "threads")) {
        int max = gv_ab_max_threads();
        if (gv_parse_int(value, 1, max, &v, NULL, 0) != 0) {
            gv_err(err, errlen, "threads must be a whole number from 1 to %d", max);
            return -1;
        }
        e->threads = (int)v;
        return 0;
    }
    if (!strcmp(name, "multipv")) {
        if (gv_parse_int(value, 1, GV_MAX_MULTIPV, &v, NULL, 0) != 0) {
            gv_err(err, errlen, "multipv must be a whole number from 1 to %d", GV_MAX_MULTIPV);
            return -1;
        }
        e->multipv = (int)v;
        return 0;
    }
    if (!strcmp(name, "player")) {
        if (strcmp(value, "search") && strcmp(value, "greedy")) {
            gv_err(err, errlen, "player must be 'search' or 'greedy'");
            return -1;
        }
        e->greedy = !strcmp(value, "greedy");
        return 0;
    }
    if (!strcmp(name, "seed")) {
        char *end;
        unsigned long long s = strtoull(value, &end, 10);
        if (!*value || *end) {
            gv_err(err, errlen, "seed must be a whole number");
            return -1;
        }
        e->seed = s;
        return 0;
    }
    if (!strcmp(name, "rules")) {
        void *tmp = malloc(e->g->state_size);
        if (!tmp) {
            gv_err(err, errlen, "out of memory");
            return -1;
        }
        if (e->g->init(tmp, value, err, errlen) != 0) {
            free(tmp);
            return -1;
        }
        memcpy(e->st, tmp, e->g->state_size);
        free(tmp);
        snprintf(e->rules, sizeof e->rules, "%s", value);
        e->plies = e->undo_left = 0;
        if (e->tt)
            gv_tt_clear(e->tt);
        return 0;
    }
    gv_err(err, errlen, "unknown engine option '%s' (hash, level, threads, multipv, player, "
           "seed, rules)", name);
    return -1;
}

void gv_engine_forget(gv_engine *e)
{
    if (e->tt && !gv_engine_busy(e))
        gv_tt_clear(e->tt);
}

/* ---- The game in progress ------------------------------------------------------------ */

int gv_engine_prepare(gv_engine *e)
{
    if (!e->hooks || e->greedy || e->tt || gv_engine_busy(e))
        return 0;
    return (e->tt = gv_tt_new(e->hash_mb)) ? 0 : -1;
}

size_t gv_engine_table_bytes(const gv_engine *e) { return e->tt ? gv_tt_bytes(e->tt) : 0; }

int gv_engine_new_game(gv_engine *e)
{
    char err[GV_ERRLEN];
    if (refuse_busy(e, err, sizeof err))
        return -1;
    if (e->g->init(e->st, e->rules, err, sizeof err) != 0)
        return -1;
    e->plies = e->undo_left = 0;
    if (e->tt)
        gv_tt_clear(e->tt);
    gv_engine_prepare(e);
    return 0;
}

int gv_engine_set_position(gv_engine *e, const char *text, char *err, size_t errlen)
{
    if (refuse_busy(e, err, errlen))
        return -1;
    /* set_position leaves the state unchanged on error. */
    if (e->g->set_position(e->st, text, err, errlen) != 0)
        return -1;
    e->plies = e->undo_left = 0;
    return 0;
}

int gv_engine_play(gv_engine *e, const char *move, char *err, size_t errlen)
{
    if (refuse_busy(e, err, errlen))
        return -1;
    gv_move m;
    if (e->g->parse_move(e->st, move, &m, err, errlen) != 0)
        return -1;
    return gv_engine_play_move(e, m, err, errlen);
}

int gv_engine_play_move(gv_engine *e, gv_move m, char *err, size_t errlen)
{
    if (refuse_busy(e, err, errlen))
        return -1;
    gv_move *moves = malloc(GV_MAX_MOVES * sizeof *moves);
    if (!moves) {
        gv_err(err, errlen, "out of memory");
        return -1;
    }
    int n = e->g->legal_moves(e->st, moves), ok = 0;
    for (int i = 0; i < n && !ok; i++)
        ok = moves[i] == m;
    free(moves);
    if (!ok) {
        gv_err(err, errlen, n ? "not a legal move" : "the game is over");
        return -1;
    }
    e->g->make(e->st, m);
    e->plies++;
    if (e->undo_left < e->g->undo_plies)
        e->undo_left++;
    return 0;
}

int gv_engine_undo(gv_engine *e)
{
    char err[GV_ERRLEN];
    if (refuse_busy(e, err, sizeof err) || e->plies == 0 || e->undo_left == 0)
        return -1;
    e->g->unmake(e->st);
    e->plies--;
    e->undo_left--;
    return 0;
}

gv_status gv_engine_status(gv_engine *e, gv_result *res)
{
    return e->g->status(e->st, res);
}

/* ---- Time management and levels ------------------------------------------------------ */

/* The moves of the side to move the clock is spread over: half the plies the game
 * expects still to come. */
static int moves_to_go(const gv_engine *e)
{
    if (!e->ai || !e->ai->plies_left)
        return MOVES_TO_GO_DEFAULT;
    int mtg = (e->ai->plies_left(e->st) + 1) / 2;
    return mtg < MOVES_TO_GO_MIN ? MOVES_TO_GO_MIN : mtg > MOVES_TO_GO_MAX ? MOVES_TO_GO_MAX : mtg;
}

void gv_engine_limits(const gv_engine *e, const gv_go *go, gv_limits *out)
{
    memset(out, 0, sizeof *out);
    out->depth = go->depth;
    out->nodes = go->nodes;
    out->level = e->level;
    out->threads = e->threads;
    out->multipv = e->multipv;
    out->seed = e->seed ^ gv_mix64(e->g->hash(e->st));
    if (e->level < 10 && !go->infinite) {
        uint64_t cap = !e->hooks ? level_playouts[e->level] : level_nodes_ab[e->level];
        if (!out->nodes || out->nodes > cap)
            out->nodes = cap;
    }
    if (go->infinite)
        return;
    if (go->movetime_ms > 0) {
        int64_t t = go->movetime_ms - 5 > 1 ? go->movetime_ms - 5 : 1;
        out->soft_ms = out->hard_ms = t;
        return;
    }
    int side = e->g->to_move(e->st);
    if (side < 0 || side >= GV_ENGINE_MAX_SIDES)
        side = 0;
    if (go->has_time) {
        int64_t left = go->time_ms[side], inc = go->inc_ms[side], byo = go->byoyomi_ms;
        int64_t avail = left - GV_ENGINE_MOVE_OVERHEAD_MS;
        if (left <= 0 && byo > 0) {
            /* Byoyomi only: a fixed time per move. */
            int64_t t = byo - GV_ENGINE_MOVE_OVERHEAD_MS > 1 ? byo - GV_ENGINE_MOVE_OVERHEAD_MS : 1;
            out->soft_ms = out->hard_ms = t;
            return;
        }
        if (avail < 1)
            avail = 1;
        int mtg = moves_to_go(e);
        if (go->movestogo > 0 && go->movestogo < mtg)
            mtg = go->movestogo;
        int64_t target = avail / mtg + inc * 3 / 4 + (byo > 0 ? byo / 2 : 0);
        /* Never spend more than a share of what is left (plus byoyomi, which is not
         * lost by spending it). */
        int64_t cap = avail * MAX_SHARE_PERCENT / 100 + (byo > 0 ? byo - GV_ENGINE_MOVE_OVERHEAD_MS : 0);
        if (go->movestogo == 1)
            cap = avail * 80 / 100;
        int64_t hard = target * HARD_FACTOR;
        if (hard > cap)
            hard = cap;
        if (target > hard)
            target = hard;
        out->soft_ms = target > 1 ? target : 1;
        out->hard_ms = hard > 1 ? hard : 1;
    }
}

/* ---- Searching ----------------------------------------------------------------------- */

/* The 1-ply baseline: the move whose resulting position the evaluation likes best (a
 * win at once first); seeded ties -- or the game's own (Grav's). */
static gv_search_result greedy_move(gv_engine *e, void *st, const gv_limits *lim)
{
    gv_search_result r;
    memset(&r, 0, sizeof r);
    if (e->ai->greedy) {
        r.best = e->ai->greedy(st, lim->seed);
        r.nodes = 1;
        return r;
    }
    gv_move *moves = malloc(GV_MAX_MOVES * sizeof *moves);
    if (!moves)
        return r;
    int n = e->g->legal_moves(st, moves);
    gv_rng rng;
    gv_rng_seed(&rng, lim->seed);
    int best = INT_MIN;
    int me = e->g->to_move(st);
    for (int i = 0; i < n; i++) {
        e->g->make(st, moves[i]);
        r.nodes++;
        gv_result res;
        int s;
        if (e->g->status(st, &res) != GV_ONGOING)
            s = res.status == GV_DRAW ? 0 : res.winner == me ? GV_MATE : -GV_MATE;
        else
            s = -e->hooks->eval(st);
        e->g->unmake(st);
        s = s * 8 + (int)gv_rng_below(&rng, 8);
        if (s > best) {
            best = s;
            r.best = moves[i];
            r.score = s / 8;
        }
    }
    free(moves);
    r.depth = 1;
    return r;
}

/* A weaker level's blunder: with the level's chance, a seeded random legal move other
 * than resigning (0 when the level plays its search's choice). */
static gv_move blunder_move(gv_engine *e, void *st)
{
    const int *table = e->ai->blunder_permille ? e->ai->blunder_permille : level_blunder_permille;
    int permille = e->level >= 1 && e->level <= 9 ? table[e->level] : 0;
    if (!permille || !e->may_blunder || e->greedy)
        return 0;
    gv_rng rng;
    gv_rng_seed(&rng, e->lim.seed ^ 0x9e3779b97f4a7c15ull);
    if ((int)gv_rng_below(&rng, 1000) >= permille)
        return 0;
    gv_move *moves = malloc(GV_MAX_MOVES * sizeof *moves);
    if (!moves)
        return 0;
    int n = e->g->legal_moves(st, moves);
    /* Only the mover's own moves, and never its resignation. */
    int me = e->g->to_move(st), k = 0;
    gv_move resign = 0;
    if (!e->g->resign_move || e->g->resign_move(st, me, &resign) != 0)
        resign = 0;
    for (int i = 0; i < n; i++)
        if ((!e->g->move_player || e->g->move_player(st, moves[i]) == me) &&
            (!resign || moves[i] != resign))
            moves[k++] = moves[i];
    n = k;
    gv_move m = n > 0 ? moves[gv_rng_below(&rng, (uint32_t)n)] : 0;
    free(moves);
    return m;
}

static gv_search_result run_search(gv_engine *e)
{
    gv_search_result r;
    memcpy(e->work, e->st, e->g->state_size);
    gv_move blunder = blunder_move(e, e->work);
    if (blunder) {
        memset(&r, 0, sizeof r);
        r.best = blunder;
        r.depth = 1;
        r.nodes = 1;
    } else if (e->greedy) {
        r = greedy_move(e, e->work, &e->lim);
    } else if (!e->hooks) {
        r = e->ai->search(e->work, &e->lim, &e->ctl, e->cb.info, e->cb.ctx);
    } else {
        r = gv_ab_search(e->g, e->hooks, e->work, e->tt, &e->lim, &e->ctl, e->cb.info,
                         e->cb.ctx);
    }
    r.time_ms = gv_now_ms() - e->ctl.start_ms;
    return r;
}

static void *search_thread(void *arg)
{
    gv_engine *e = arg;
    gv_search_result r = run_search(e);
    if (e->cb.bestmove)
        e->cb.bestmove(e->cb.ctx, &r);
    pthread_mutex_lock(&e->lock);
    e->finished = 1;
    pthread_mutex_unlock(&e->lock);
    return NULL;
}

static int prepare(gv_engine *e, const gv_go *go, const gv_engine_cb *cb, char *err,
                   size_t errlen)
{
    if (refuse_busy(e, err, errlen))
        return -1;
    if (e->g->status(e->st, NULL) != GV_ONGOING) {
        gv_err(err, errlen, "the game is over");
        return -1;
    }
    /* The table, if gv_engine_prepare has not made it yet: before the search's clock starts. */
    if (!e->ai || (!e->hooks && !e->ai->search) || (e->greedy && !e->hooks && !e->ai->greedy)) {
        gv_err(err, errlen, "%s has no AI player", e->g->title);
        return -1;
    }
    if (e->hooks && !e->greedy && !e->tt && !(e->tt = gv_tt_new(e->hash_mb))) {
        gv_err(err, errlen, "out of memory for a %zu MB table", e->hash_mb);
        return -1;
    }
    gv_engine_limits(e, go, &e->lim);
    e->may_blunder = !go->infinite;
    if (cb)
        e->cb = *cb;
    else
        memset(&e->cb, 0, sizeof e->cb);
    atomic_store(&e->ctl.stop, 0);
    e->ctl.start_ms = gv_now_ms();
    return 0;
}

int gv_engine_go(gv_engine *e, const gv_go *go, const gv_engine_cb *cb, char *err,
                 size_t errlen)
{
    if (prepare(e, go, cb, err, errlen) != 0)
        return -1;
    pthread_mutex_lock(&e->lock);
    e->running = 1;
    e->finished = 0;
    pthread_mutex_unlock(&e->lock);
    if (pthread_create(&e->thread, NULL, search_thread, e) != 0) {
        pthread_mutex_lock(&e->lock);
        e->running = 0;
        pthread_mutex_unlock(&e->lock);
        gv_err(err, errlen, "cannot start a search thread");
        return -1;
    }
    return 0;
}

void gv_engine_wait(gv_engine *e)
{
    pthread_mutex_lock(&e->lock);
    int running = e->running;
    pthread_mutex_unlock(&e->lock);
    if (!running)
        return;
    pthread_join(e->thread, NULL);
    pthread_mutex_lock(&e->lock);
    e->running = 0;
    pthread_mutex_unlock(&e->lock);
}

void gv_engine_stop(gv_engine *e)
{
    atomic_store(&e->ctl.stop, 1);
    gv_engine_wait(e);
}

gv_search_result gv_engine_think(gv_engine *e, const gv_go *go, const gv_engine_cb *cb)
{
    gv_search_result r;
    memset(&r, 0, sizeof r);
    char err[GV_ERRLEN];
    if (prepare(e, go, cb, err, sizeof err) != 0)
        return r;
    r = run_search(e);
    return r;
}

/* The result of a search on the engine's thread, handed to the waiting caller. */
typedef struct go_waiting {
    gv_engine_cb user;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int done;
    gv_search_result res;
} go_waiting;

static void waiting_info(void *ctx, const gv_search_info *info)
{
    go_waiting *w = ctx;
    w->user.info(w->user.ctx, info);
}

static void waiting_bestmove(void *ctx, const gv_search_result *r)
{
    go_waiting *w = ctx;
    if (w->user.bestmove)
        w->user.bestmove(w->user.ctx, r);
    pthread_mutex_lock(&w->lock);
    w->res = *r;
    w->done = 1;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
}

int gv_engine_go_wait(gv_engine *e, const gv_go *go, const gv_engine_cb *cb,
                      const gv_engine_waiter *w, gv_search_result *res, char *err,
                      size_t errlen)
{
    memset(res, 0, sizeof *res);
    if (!w || !w->tick) {
        if (prepare(e, go, cb, err, errlen) != 0)
            return -1;
        *res = run_search(e);
        if (e->cb.bestmove)
            e->cb.bestmove(e->cb.ctx, res);
        return 0;
    }
    go_waiting g;
    memset(&g, 0, sizeof g);
    if (cb)
        g.user = *cb;
    pthread_mutex_init(&g.lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&g.cond, &attr);
    pthread_condattr_destroy(&attr);
    gv_engine_cb mine = {g.user.info ? waiting_info : NULL, waiting_bestmove, &g};
    int rc = gv_engine_go(e, go, &mine, err, errlen);
    if (rc == 0) {
        int64_t step = w->interval_ms > 0 ? w->interval_ms : 1;
        pthread_mutex_lock(&g.lock);
        while (!g.done) {
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            int64_t ns = ts.tv_nsec + step * 1000000;
            ts.tv_sec += (time_t)(ns / 1000000000);
            ts.tv_nsec = (long)(ns % 1000000000);
            pthread_cond_timedwait(&g.cond, &g.lock, &ts);
            if (g.done)
                break;
            pthread_mutex_unlock(&g.lock);
            int stop = w->tick(w->ctx);
            if (stop)
                gv_engine_stop(e);   /* returns once the result was delivered */
            pthread_mutex_lock(&g.lock);
        }
        *res = g.res;
        pthread_mutex_unlock(&g.lock);
        gv_engine_wait(e);
    }
    pthread_cond_destroy(&g.cond);
    pthread_mutex_destroy(&g.lock);
    return rc;
}

/* ---- Text ------------------------------------------------------------------------------ */

int gv_engine_pv_text(const gv_engine *e, const gv_move *pv, int npv, char *buf, size_t len)
{
    return gv_engine_pv_text_as(e, pv, npv, NULL, buf, len);
}

int gv_engine_pv_text_as(const gv_engine *e, const gv_move *pv, int npv, gv_move_writer write,
                         char *buf, size_t len)
{
    if (len)
        buf[0] = 0;
    void *st = malloc(e->g->state_size);
    gv_move *moves = malloc(GV_MAX_MOVES * sizeof *moves);
    size_t used = 0;
    if (st && moves) {
        memcpy(st, e->st, e->g->state_size);
        for (int i = 0; i < npv; i++) {
            int n = e->g->legal_moves(st, moves), ok = 0;
            for (int j = 0; j < n && !ok; j++)
                ok = moves[j] == pv[i];
            char mv[64];
            if (!ok || (write ? write(st, pv[i], mv, sizeof mv)
                              : e->g->write_move(st, pv[i], mv, sizeof mv)) < 0)
                break;
            size_t l = strlen(mv);
            if (used + l + 2 > len)
                break;
            if (used)
                buf[used++] = ' ';
            memcpy(buf + used, mv, l + 1);
            used += l;
            e->g->make(st, pv[i]);
        }
    }
    free(st);
    free(moves);
    return (int)used;
}

int gv_engine_move_text(const gv_engine *e, gv_move m, char *buf, size_t len)
{
    return e->g->write_move(e->st, m, buf, len);
}
