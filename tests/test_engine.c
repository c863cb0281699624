/* Engine layer: positions and moves, threads and callbacks, stop latency, time
 * management on real clocks, levels, several engines at once. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "tharness.h"

static int slow_tests(void)
{
    const char *s = getenv("GV_SLOW_TESTS");
    return !s || atoi(s) != 0;
}

static const char *const games[] = {"chu", "exac", "grav"};

static void test_engine_new_refuses_bad_game_and_options(void)
{
    char err[GV_ERRLEN] = "";
    CHECK(gv_engine_new("go", NULL, err, sizeof err) == NULL);
    CHECK(strstr(err, "unknown game") != NULL);
    CHECK(gv_engine_new("chu", "lion_double=nope", err, sizeof err) == NULL);
    CHECK(gv_engine_new("grav", "size=12", err, sizeof err) == NULL);
    gv_engine *e = gv_engine_new("exac", NULL, err, sizeof err);
    CHECK(e != NULL);
    CHECK(gv_engine_set_option(e, "level", "11", err, sizeof err) == -1);
    CHECK(gv_engine_set_option(e, "level", "x", err, sizeof err) == -1);
    CHECK(gv_engine_set_option(e, "hash", "0", err, sizeof err) == -1);
    CHECK(gv_engine_set_option(e, "player", "random", err, sizeof err) == -1);
    CHECK(gv_engine_set_option(e, "colour", "red", err, sizeof err) == -1);
    CHECK(gv_engine_set_option(e, "level", "3", err, sizeof err) == 0);
    CHECK_EQ_INT(gv_engine_level(e), 3);
    gv_engine_free(e);
}

static void test_engine_bad_input_changes_nothing(void)
{
    char err[GV_ERRLEN], before[GV_MAX_TEXT], after[GV_MAX_TEXT];
    for (size_t i = 0; i < 3; i++) {
        gv_engine *e = gv_engine_new(games[i], NULL, err, sizeof err);
        const gv_game *g = gv_engine_game(e);
        g->get_position(gv_engine_state(e), before, sizeof before);
        CHECK(gv_engine_set_position(e, "garbage / / 12", err, sizeof err) == -1);
        CHECK(gv_engine_play(e, "zz99", err, sizeof err) == -1);
        CHECK(gv_engine_play(e, "", err, sizeof err) == -1);
        CHECK(gv_engine_play_move(e, 0xFFFFFFFFu, err, sizeof err) == -1);
        CHECK(gv_engine_undo(e) == -1);
        g->get_position(gv_engine_state(e), after, sizeof after);
        CHECK_STR(after, before);
        CHECK_EQ_INT(gv_engine_plies(e), 0);
        gv_engine_free(e);
    }
}

/* The table is made where a GUI waits (a new game, USI isready, XBoard memory), not on the
 * clock of the first move; a new hash size frees it until then. */
static void test_engine_table_made_before_the_clock(void)
{
    char err[GV_ERRLEN];
    gv_engine *e = gv_engine_new("chu", NULL, err, sizeof err);
    CHECK(e != NULL);
    if (!e)
        return;
    CHECK(gv_engine_set_option(e, "hash", "2", err, sizeof err) == 0);
    CHECK_EQ_INT((int)gv_engine_table_bytes(e), 0);
    CHECK(gv_engine_new_game(e) == 0);
    CHECK_EQ_INT((int)gv_engine_table_bytes(e), 2 << 20);
    CHECK(gv_engine_set_option(e, "hash", "4", err, sizeof err) == 0);
    CHECK_EQ_INT((int)gv_engine_table_bytes(e), 0);
    CHECK(gv_engine_prepare(e) == 0);
    CHECK_EQ_INT((int)gv_engine_table_bytes(e), 4 << 20);
    gv_engine_free(e);
    /* Grav's MCTS has no table. */
    e = gv_engine_new("grav", NULL, err, sizeof err);
    CHECK(e && gv_engine_new_game(e) == 0 && gv_engine_table_bytes(e) == 0);
    gv_engine_free(e);
}

static void test_engine_play_and_undo(void)
{
    char err[GV_ERRLEN], before[GV_MAX_TEXT], after[GV_MAX_TEXT];
    gv_engine *e = gv_engine_new("chu", NULL, err, sizeof err);
    const gv_game *g = gv_engine_game(e);
    g->get_position(gv_engine_state(e), before, sizeof before);
    CHECK(gv_engine_play(e, "3i3h", err, sizeof err) == 0);
    CHECK(gv_engine_play(e, "10d10e", err, sizeof err) == 0);
    CHECK_EQ_INT(gv_engine_plies(e), 2);
    CHECK(gv_engine_undo(e) == 0);
    CHECK(gv_engine_undo(e) == 0);
    g->get_position(gv_engine_state(e), after, sizeof after);
    CHECK_STR(after, before);
    gv_engine_free(e);
}

typedef struct cb_log {
    pthread_mutex_t lock;
    int infos, bests, last_depth, depth_went_down;
    gv_search_result best;
    gv_engine *e;
} cb_log;

static void log_info(void *ctx, const gv_search_info *in)
{
    cb_log *l = ctx;
    pthread_mutex_lock(&l->lock);
    l->infos++;
    if (in->depth < l->last_depth)
        l->depth_went_down = 1;
    l->last_depth = in->depth;
    pthread_mutex_unlock(&l->lock);
}

static void log_best(void *ctx, const gv_search_result *r)
{
    cb_log *l = ctx;
    pthread_mutex_lock(&l->lock);
    l->bests++;
    l->best = *r;
    pthread_mutex_unlock(&l->lock);
}

static int is_legal(gv_engine *e, gv_move m)
{
    const gv_game *g = gv_engine_game(e);
    gv_move *moves = malloc(GV_MAX_MOVES * sizeof *moves);
    int n = g->legal_moves(gv_engine_state(e), moves), ok = 0;
    for (int i = 0; i < n; i++)
        ok |= moves[i] == m;
    free(moves);
    return ok;
}

/* An infinite search stops when asked (here within a second, however loaded the machine:
 * how fast it answers is a benchmark's figure, not a test's), delivers bestmove once, and
 * the move is legal. */
static void test_engine_stop_answers_promptly(void)
{
    char err[GV_ERRLEN];
    for (size_t i = 0; i < 3; i++) {
        gv_engine *e = gv_engine_new(games[i], NULL, err, sizeof err);
        gv_engine_set_option(e, "hash", "8", err, sizeof err);
        cb_log l;
        memset(&l, 0, sizeof l);
        pthread_mutex_init(&l.lock, NULL);
        gv_engine_cb cb = {log_info, log_best, &l};
        gv_go go;
        memset(&go, 0, sizeof go);
        go.infinite = 1;
        CHECK(gv_engine_go(e, &go, &cb, err, sizeof err) == 0);
        /* Busy: a second go and changes of the position are refused. */
        CHECK(gv_engine_go(e, &go, &cb, err, sizeof err) == -1);
        CHECK(gv_engine_set_position(e, "startpos", err, sizeof err) == -1);
        CHECK(gv_engine_busy(e));
        usleep(150 * 1000);
        int64_t t0 = gv_now_ms();
        gv_engine_stop(e);
        int64_t dt = gv_now_ms() - t0;
        if (dt > 1000)
            fprintf(stderr, "  %s: stop took %lld ms\n", games[i], (long long)dt);
        CHECK(dt <= 1000);
        CHECK_EQ_INT(l.bests, 1);
        CHECK(!l.depth_went_down);
        CHECK(l.best.best != 0);
        CHECK(is_legal(e, l.best.best));
        CHECK(!gv_engine_busy(e));
        pthread_mutex_destroy(&l.lock);
        gv_engine_free(e);
    }
}

/* A search that ends by itself: once bestmove was delivered the owner may play the
 * move at once, without waiting for the thread. */
static void test_engine_idle_after_bestmove(void)
{
    char err[GV_ERRLEN];
    for (size_t i = 0; i < 3; i++) {
        gv_engine *e = gv_engine_new(games[i], NULL, err, sizeof err);
        gv_engine_set_option(e, "hash", "2", err, sizeof err);
        cb_log l;
        memset(&l, 0, sizeof l);
        pthread_mutex_init(&l.lock, NULL);
        gv_engine_cb cb = {log_info, log_best, &l};
        gv_go go;
        memset(&go, 0, sizeof go);
        go.nodes = 2000;
        CHECK(gv_engine_go(e, &go, &cb, err, sizeof err) == 0);
        for (int k = 0; k < 5000; k++) {
            pthread_mutex_lock(&l.lock);
            int done = l.bests;
            pthread_mutex_unlock(&l.lock);
            if (done)
                break;
            usleep(1000);
        }
        usleep(20 * 1000);  /* the thread returns just after its callback */
        CHECK_EQ_INT(l.bests, 1);
        CHECK(gv_engine_play_move(e, l.best.best, err, sizeof err) == 0);
        CHECK_EQ_INT(gv_engine_plies(e), 1);
        pthread_mutex_destroy(&l.lock);
        gv_engine_free(e);
    }
}

/* A weaker level's node cap does not end an infinite search (analysis): only stop does. */
static void test_engine_infinite_ignores_level_cap(void)
{
    char err[GV_ERRLEN];
    gv_engine *e = gv_engine_new("exac", NULL, err, sizeof err);
    gv_engine_set_option(e, "level", "1", err, sizeof err);
    gv_go go;
    memset(&go, 0, sizeof go);
    go.infinite = 1;
    gv_limits lim;
    gv_engine_limits(e, &go, &lim);
    CHECK(lim.nodes == 0 && lim.hard_ms == 0);
    gv_engine_free(e);
}

/* Same position, same node limit: same move and same node count. */
static void test_engine_fixed_nodes_is_deterministic(void)
{
    char err[GV_ERRLEN];
    const uint64_t budget[3] = {20000, 50000, 2000};
    for (size_t i = 0; i < 3; i++) {
        gv_search_result r[2];
        for (int k = 0; k < 2; k++) {
            gv_engine *e = gv_engine_new(games[i], NULL, err, sizeof err);
            gv_engine_set_option(e, "hash", "4", err, sizeof err);
            gv_go go;
            memset(&go, 0, sizeof go);
            go.nodes = budget[i];
            r[k] = gv_engine_think(e, &go, NULL);
            CHECK(is_legal(e, r[k].best));
            gv_engine_free(e);
        }
        CHECK_EQ_INT(r[0].best, r[1].best);
        CHECK_EQ_INT(r[0].nodes, r[1].nodes);
        CHECK(r[0].nodes >= budget[i] / 2 && r[0].nodes <= budget[i] + 1);
    }
}

/* The limits time management derives from a clock never exceed what is left. */
static void test_engine_time_limits_stay_within_the_clock(void)
{
    char err[GV_ERRLEN];
    gv_engine *e = gv_engine_new("chu", NULL, err, sizeof err);
    const int64_t lefts[] = {50, 200, 1000, 10000, 600000};
    for (size_t i = 0; i < sizeof lefts / sizeof lefts[0]; i++) {
        gv_go go;
        memset(&go, 0, sizeof go);
        go.has_time = 1;
        go.time_ms[0] = go.time_ms[1] = lefts[i];
        go.inc_ms[0] = go.inc_ms[1] = 100;
        gv_limits lim;
        gv_engine_limits(e, &go, &lim);
        CHECK(lim.hard_ms >= 1);
        CHECK(lim.soft_ms <= lim.hard_ms);
        CHECK(lim.hard_ms <= (lefts[i] > GV_ENGINE_MOVE_OVERHEAD_MS ? lefts[i] - GV_ENGINE_MOVE_OVERHEAD_MS : 1));
    }
    gv_go go;
    memset(&go, 0, sizeof go);
    go.movetime_ms = 300;
    gv_limits lim;
    gv_engine_limits(e, &go, &lim);
    CHECK(lim.hard_ms <= 300 && lim.hard_ms >= 250);
    /* Weaker levels search less. */
    gv_engine_set_option(e, "level", "1", err, sizeof err);
    memset(&go, 0, sizeof go);
    gv_engine_limits(e, &go, &lim);
    CHECK(lim.nodes > 0);
    uint64_t low = lim.nodes;
    gv_engine_set_option(e, "level", "9", err, sizeof err);
    gv_engine_limits(e, &go, &lim);
    CHECK(lim.nodes > low);
    gv_engine_set_option(e, "level", "10", err, sizeof err);
    gv_engine_limits(e, &go, &lim);
    CHECK(lim.nodes == 0);
    gv_engine_free(e);
}

/* A clock with no moves-to-go is spread over the moves the game expects: 40 for Exaç
 * (no estimate of its own), more for Chu's long games, and fewer as its pieces go. A
 * smaller moves-to-go from the protocol wins. */
static gv_limits clock_limits(gv_engine *e, int64_t left, int movestogo)
{
    gv_go go;
    memset(&go, 0, sizeof go);
    go.has_time = 1;
    go.time_ms[0] = go.time_ms[1] = left;
    go.inc_ms[0] = go.inc_ms[1] = 100;
    go.movestogo = movestogo;
    gv_limits lim;
    gv_engine_limits(e, &go, &lim);
    return lim;
}

static void test_engine_time_spread_over_the_game_s_moves(void)
{
    char err[GV_ERRLEN];
    gv_engine *ex = gv_engine_new("exac", NULL, err, sizeof err);
    gv_engine *chu = gv_engine_new("chu", NULL, err, sizeof err);
    int64_t avail = 10000 - GV_ENGINE_MOVE_OVERHEAD_MS;
    CHECK_EQ_INT(clock_limits(ex, 10000, 0).soft_ms, avail / 40 + 75);
    CHECK_EQ_INT(clock_limits(ex, 10000, 100).soft_ms, avail / 40 + 75);
    CHECK_EQ_INT(clock_limits(ex, 10000, 5).soft_ms, avail / 5 + 75);
    int64_t chu_start = clock_limits(chu, 10000, 0).soft_ms;
    CHECK(chu_start < avail / 40 + 75);
    CHECK(chu_start > avail / 200 + 75);
    CHECK_EQ_INT(clock_limits(chu, 10000, 5).soft_ms, avail / 5 + 75);
    /* Kings and a few pieces: fewer moves expected, more time each. */
    CHECK(gv_engine_set_position(chu, "5k6/12/3g1p2g3/4pn1p4/5I6/3N1b6/6P5/2+H9/12/12/4+D7/5K6 b - 1",
                                 err, sizeof err) == 0);
    int64_t chu_end = clock_limits(chu, 10000, 0).soft_ms;
    CHECK(chu_end > chu_start && chu_end < avail / 40 + 75);
    gv_engine_free(ex);
    gv_engine_free(chu);
}

/* The CPU time of this process, ms (the search runs on one thread of it). */
static int64_t cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Games at 1 s + 0.1 s per side: no engine ever runs out of time. */
static void test_engine_never_loses_on_time_at_1s_plus_100ms(void)
{
    char err[GV_ERRLEN];
    int max_plies = slow_tests() ? 60 : 16;
    for (size_t i = 0; i < 3; i++) {
        gv_engine *e = gv_engine_new(games[i], NULL, err, sizeof err);
        gv_engine_set_option(e, "hash", "16", err, sizeof err);
        const gv_game *g = gv_engine_game(e);
        int64_t clock[GV_ENGINE_MAX_SIDES];
        for (int s = 0; s < GV_ENGINE_MAX_SIDES; s++)
            clock[s] = 1000;
        for (int ply = 0; ply < max_plies && gv_engine_status(e, NULL) == GV_ONGOING; ply++) {
            int side = g->to_move(gv_engine_state(e));
            gv_go go;
            memset(&go, 0, sizeof go);
            go.has_time = 1;
            for (int s = 0; s < GV_ENGINE_MAX_SIDES; s++) {
                go.time_ms[s] = clock[s];
                go.inc_ms[s] = 100;
            }
            int64_t t0 = gv_now_ms(), c0 = cpu_ms();
            gv_search_result r = gv_engine_think(e, &go, NULL);
            int64_t wall = gv_now_ms() - t0, cpu = cpu_ms() - c0;
            /* On a machine too busy to give the search a core for a while, the wall
             * clock runs on while it waits: the move was over time on the clock only
             * when the search itself also spent more than was left. */
            if (clock[side] - wall < 0 && clock[side] - cpu >= 0) {
                fprintf(stderr, "  %s ply %d: over the clock by %lld ms of waiting for a "
                        "core (%lld ms of CPU, %lld of wall time)\n", games[i], ply,
                        (long long)(wall - clock[side]), (long long)cpu, (long long)wall);
                wall = clock[side];
            }
            clock[side] -= wall;
            if (clock[side] < 0)
                fprintf(stderr, "  %s ply %d: side %d out of time (%lld ms)\n", games[i], ply,
                        side, (long long)clock[side]);
            CHECK(clock[side] >= 0);
            clock[side] += 100;
            CHECK(gv_engine_play_move(e, r.best, err, sizeof err) == 0);
        }
        gv_engine_free(e);
    }
}

typedef struct par_job {
    const char *game;
    gv_search_result r;
    int legal;
} par_job;

static void *par_run(void *arg)
{
    par_job *j = arg;
    char err[GV_ERRLEN];
    gv_engine *e = gv_engine_new(j->game, NULL, err, sizeof err);
    gv_engine_set_option(e, "hash", "4", err, sizeof err);
    gv_go go;
    memset(&go, 0, sizeof go);
    go.nodes = 3000;
    j->r = gv_engine_think(e, &go, NULL);
    j->legal = is_legal(e, j->r.best);
    gv_engine_free(e);
    return NULL;
}

/* Several engines search at once in one process, each with its own result. */
static void test_engine_several_engines_at_once(void)
{
    par_job jobs[6];
    pthread_t th[6];
    for (int i = 0; i < 6; i++) {
        jobs[i].game = games[i % 3];
        pthread_create(&th[i], NULL, par_run, &jobs[i]);
    }
    for (int i = 0; i < 6; i++) {
        pthread_join(th[i], NULL);
        CHECK(jobs[i].legal);
    }
    /* Same game, same budget, same answer, even in parallel. */
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_INT(jobs[i].r.best, jobs[i + 3].r.best);
        CHECK_EQ_INT(jobs[i].r.nodes, jobs[i + 3].r.nodes);
    }
}

/* The greedy baseline and every level produce legal moves. */
static void test_engine_levels_and_greedy_play_legal_moves(void)
{
    char err[GV_ERRLEN];
    for (size_t i = 0; i < 3; i++) {
        for (int level = 1; level <= 10; level += 3) {
            gv_engine *e = gv_engine_new(games[i], NULL, err, sizeof err);
            gv_engine_set_option(e, "hash", "2", err, sizeof err);
            char v[8];
            snprintf(v, sizeof v, "%d", level);
            gv_engine_set_option(e, "level", v, err, sizeof err);
            if (level == 10)
                gv_engine_set_option(e, "player", "greedy", err, sizeof err);
            for (int ply = 0; ply < 6 && gv_engine_status(e, NULL) == GV_ONGOING; ply++) {
                gv_go go;
                memset(&go, 0, sizeof go);
                go.nodes = 2000;
                gv_search_result r = gv_engine_think(e, &go, NULL);
                CHECK(gv_engine_play_move(e, r.best, err, sizeof err) == 0);
            }
            gv_engine_free(e);
        }
    }
}

typedef struct tick_count {
    int ticks, stop_at;
} tick_count;

static int count_tick(void *ctx)
{
    tick_count *t = ctx;
    return ++t->ticks >= t->stop_at;
}

/* gv_engine_go_wait: without a waiter it answers what gv_engine_think answers (and calls
 * bestmove once); with one, a tick that says stop ends an infinite search with a legal
 * move, and the engine is idle again. */
static void test_engine_go_wait(void)
{
    char err[GV_ERRLEN];
    const uint64_t budget[3] = {20000, 50000, 2000};
    for (size_t i = 0; i < 3; i++) {
        gv_go go;
        memset(&go, 0, sizeof go);
        go.nodes = budget[i];
        gv_engine *e = gv_engine_new(games[i], NULL, err, sizeof err);
        gv_engine_set_option(e, "hash", "4", err, sizeof err);
        gv_search_result want = gv_engine_think(e, &go, NULL);
        gv_engine_free(e);

        e = gv_engine_new(games[i], NULL, err, sizeof err);
        gv_engine_set_option(e, "hash", "4", err, sizeof err);
        cb_log l;
        memset(&l, 0, sizeof l);
        pthread_mutex_init(&l.lock, NULL);
        gv_engine_cb cb = {log_info, log_best, &l};
        gv_search_result r;
        CHECK(gv_engine_go_wait(e, &go, &cb, NULL, &r, err, sizeof err) == 0);
        CHECK_EQ_INT(r.best, want.best);
        CHECK_EQ_INT(r.nodes, want.nodes);
        CHECK_EQ_INT(l.bests, 1);

        memset(&go, 0, sizeof go);
        go.infinite = 1;
        tick_count t = {0, 5};
        gv_engine_waiter w = {count_tick, &t, 10};
        int64_t t0 = gv_now_ms();
        CHECK(gv_engine_go_wait(e, &go, &cb, &w, &r, err, sizeof err) == 0);
        CHECK(gv_now_ms() - t0 < 5000);
        CHECK_EQ_INT(t.ticks, 5);
        CHECK_EQ_INT(l.bests, 2);
        CHECK(r.best != 0 && is_legal(e, r.best));
        CHECK(!gv_engine_busy(e));
        CHECK(gv_engine_play_move(e, r.best, err, sizeof err) == 0);
        pthread_mutex_destroy(&l.lock);
        gv_engine_free(e);
    }
}

/* Threads: the option's range; a search with two threads plays a legal move within its
 * time, counts every thread's nodes against a node limit, and stops at once when asked;
 * weaker levels search with one thread (the same node count as without the option). */
static void test_engine_threads(void)
{
    char err[GV_ERRLEN], big[16];
    int max = gv_engine_max_threads();
    snprintf(big, sizeof big, "%d", max + 1);
    gv_engine *e = gv_engine_new("chu", NULL, err, sizeof err);
    CHECK(gv_engine_set_option(e, "threads", "0", err, sizeof err) == -1);
    CHECK(gv_engine_set_option(e, "threads", big, err, sizeof err) == -1);
    CHECK(gv_engine_set_option(e, "multipv", "0", err, sizeof err) == -1);
    CHECK(gv_engine_set_option(e, "multipv", "65", err, sizeof err) == -1);
    CHECK_EQ_INT(gv_engine_threads(e), 1);
    gv_engine_free(e);
    if (max < 2)
        return;   /* a build without threads */
    for (size_t i = 0; i < 2; i++) {
        e = gv_engine_new(games[i], NULL, err, sizeof err);
        gv_engine_set_option(e, "hash", "8", err, sizeof err);
        CHECK(gv_engine_set_option(e, "threads", "2", err, sizeof err) == 0);
        CHECK_EQ_INT(gv_engine_threads(e), 2);
        gv_go go;
        memset(&go, 0, sizeof go);
        go.movetime_ms = 200;
        int64_t t0 = gv_now_ms();
        gv_search_result r = gv_engine_think(e, &go, NULL);
        CHECK(gv_now_ms() - t0 < 400);
        CHECK(is_legal(e, r.best));
        CHECK(r.nodes > 0);
        memset(&go, 0, sizeof go);
        go.nodes = 100000;
        r = gv_engine_think(e, &go, NULL);
        CHECK(is_legal(e, r.best));
        if (r.nodes < 100000 || r.nodes >= 300000)
            fprintf(stderr, "  %s, two threads: %llu nodes for a limit of 100000\n", games[i],
                    (unsigned long long)r.nodes);
        CHECK(r.nodes >= 100000 && r.nodes < 300000);
        /* Stop: both threads answer (within 100 ms: two threads of a loaded machine
         * have to be scheduled, where one takes 50). */
        memset(&go, 0, sizeof go);
        go.infinite = 1;
        CHECK(gv_engine_go(e, &go, NULL, err, sizeof err) == 0);
        usleep(100 * 1000);
        t0 = gv_now_ms();
        gv_engine_stop(e);
        int64_t dt = gv_now_ms() - t0;
        if (dt > 100)
            fprintf(stderr, "  %s, two threads: stop took %lld ms\n", games[i], (long long)dt);
        CHECK(dt <= 100);
        CHECK(!gv_engine_busy(e));
        gv_engine_free(e);
    }
    /* Level 6 with two threads: one thread, the same search as without the option. */
    gv_search_result r[2];
    for (int k = 0; k < 2; k++) {
        e = gv_engine_new("exac", NULL, err, sizeof err);
        gv_engine_set_option(e, "hash", "4", err, sizeof err);
        gv_engine_set_option(e, "level", "6", err, sizeof err);
        gv_engine_set_option(e, "threads", k ? "2" : "1", err, sizeof err);
        gv_go go;
        memset(&go, 0, sizeof go);
        r[k] = gv_engine_think(e, &go, NULL);
        gv_engine_free(e);
    }
    CHECK_EQ_INT(r[0].nodes, r[1].nodes);
    CHECK_EQ_INT(r[0].best, r[1].best);
}

/* What a MultiPV search reported at its deepest iteration. */
typedef struct mpv_log {
    int depth, n, out_of_order;
    gv_search_info line[GV_MAX_MULTIPV];
} mpv_log;

static void mpv_info(void *ctx, const gv_search_info *in)
{
    mpv_log *l = ctx;
    if (in->depth != l->depth) {
        l->depth = in->depth;
        l->n = 0;
    }
    if (in->multipv != l->n + 1)
        l->out_of_order = 1;
    if (l->n < GV_MAX_MULTIPV)
        l->line[l->n++] = *in;
}

/* MultiPV 3 at a fixed depth: each iteration reports lines 1, 2, 3; at the last one they
 * are three different moves ordered by score, and line 1 is the move of a one-line
 * search to the same depth. Chu: a position whose three best moves are far apart
 * (Sente keeps its Dragon Horse, gives it for the Rook, or loses it); Exac: one of the
 * bench positions, where they agree from depth 4 to 8. */
static void test_engine_multipv(void)
{
    char err[GV_ERRLEN];
    const int depth[2] = {5, 6};
    const char *position[2] = {"3k8/3p1p6/2+h1r7/12/12/4+D1+d5/12/2P1+H7/12/12/12/6K5 b - 1",
                               "3SSS1/S1SSSS1/3SS2/7/2F4/FFFFFFF/3FF2 f 5 9"};
    for (size_t i = 0; i < 2; i++) {
        gv_search_result one = {0}, three = {0};
        mpv_log l;
        memset(&l, 0, sizeof l);
        for (int k = 0; k < 2; k++) {
            gv_engine *e = gv_engine_new(games[i], NULL, err, sizeof err);
            gv_engine_set_option(e, "hash", "16", err, sizeof err);
            if (position[i])
                CHECK(gv_engine_set_position(e, position[i], err, sizeof err) == 0);
            CHECK(gv_engine_set_option(e, "multipv", k ? "3" : "1", err, sizeof err) == 0);
            gv_go go;
            memset(&go, 0, sizeof go);
            go.depth = depth[i];
            gv_engine_cb cb = {mpv_info, NULL, &l};
            if (k)
                three = gv_engine_think(e, &go, &cb);
            else
                one = gv_engine_think(e, &go, NULL);
            gv_engine_free(e);
        }
        CHECK_EQ_INT(l.depth, depth[i]);
        CHECK_EQ_INT(l.n, 3);
        CHECK(!l.out_of_order);
        if (l.n != 3)
            continue;
        for (int j = 0; j < 3; j++)
            CHECK(l.line[j].npv >= 1);
        gv_move m0 = l.line[0].pv[0], m1 = l.line[1].pv[0], m2 = l.line[2].pv[0];
        CHECK(m0 != m1 && m0 != m2 && m1 != m2);
        CHECK(l.line[0].score >= l.line[1].score && l.line[1].score >= l.line[2].score);
        CHECK_EQ_INT(m0, one.best);
        CHECK_EQ_INT(three.best, one.best);
    }
}

const t_case engine_tests[] = {
    T(test_engine_new_refuses_bad_game_and_options),
    T(test_engine_bad_input_changes_nothing),
    T(test_engine_table_made_before_the_clock),
    T(test_engine_play_and_undo),
    T(test_engine_stop_answers_promptly),
    T(test_engine_idle_after_bestmove),
    T(test_engine_infinite_ignores_level_cap),
    T(test_engine_fixed_nodes_is_deterministic),
    T(test_engine_time_limits_stay_within_the_clock),
    T(test_engine_time_spread_over_the_game_s_moves),
    T(test_engine_never_loses_on_time_at_1s_plus_100ms),
    T(test_engine_several_engines_at_once),
    T(test_engine_levels_and_greedy_play_legal_moves),
    T(test_engine_go_wait),
    T(test_engine_threads),
    T(test_engine_multipv),
    {0},
};
