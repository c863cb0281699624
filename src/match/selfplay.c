/* Self-play: our engine against itself in process, with openings drawn from a seed, and
 * the score with a 95% interval and an Elo estimate. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "engine/engine.h"
#include "match/match_stats.h"
#include "match/selfplay.h"

typedef struct sp_match {
    const selfplay_spec *s;
    /* Results, for player 0 (A). */
    pthread_mutex_t lock;
    int next, wins, draws, losses, timeouts, illegal;
} sp_match;

int sp_parse_player(const char *s, sp_player *p)
{
    memset(p, 0, sizeof *p);
    snprintf(p->spec, sizeof p->spec, "%s", s);
    p->level = 10;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        long v;
        if (!strcmp(tok, "greedy"))
            p->greedy = 1;
        else if (!strncmp(tok, "level=", 6) && gv_parse_int(tok + 6, 1, 10, &v, NULL, 0) == 0)
            p->level = (int)v;
        else if (!strncmp(tok, "nodes=", 6) && gv_parse_int(tok + 6, 1, 2000000000L, &v, NULL, 0) == 0)
            p->nodes = (uint64_t)v;
        else if (!strncmp(tok, "movetime=", 9) && gv_parse_int(tok + 9, 1, 3600000, &v, NULL, 0) == 0)
            p->movetime = v;
        else if (!strncmp(tok, "threads=", 8) &&
                 gv_parse_int(tok + 8, 1, gv_engine_max_threads(), &v, NULL, 0) == 0)
            p->threads = (int)v;
        else
            return -1;
    }
    return 0;
}

/* Plays `plies` random moves drawn from seed on both engines. */
static void play_opening(gv_engine *e[2], int plies, uint64_t seed)
{
    const gv_game *g = gv_engine_game(e[0]);
    gv_move moves[128];
    char err[GV_ERRLEN];
    int n = match_random_opening(g, gv_engine_state(e[0]), plies < 128 ? plies : 128, seed,
                                 moves);
    for (int i = 0; i < n; i++) {
        gv_engine_play_move(e[0], moves[i], err, sizeof err);
        gv_engine_play_move(e[1], moves[i], err, sizeof err);
    }
}

/* Plays game number gi; returns +1 if A won, 0 draw, -1 if A lost. */
static int play_game(sp_match *mt, int gi, char *line, size_t linelen)
{
    const selfplay_spec *s = mt->s;
    char err[GV_ERRLEN], hash[16], rules[GV_MAX_TEXT];
    gv_engine *e[2];
    snprintf(hash, sizeof hash, "%d", s->hash_mb);
    /* A game whose setup is drawn from a seed (Grav's parameters) gets a new draw for
     * every pair of games, unless the rules fix the seed. */
    snprintf(rules, sizeof rules, "%s", s->rules ? s->rules : "");
    const char *seed_opt = s->g->seed_option;
    char seed_key[64];
    snprintf(seed_key, sizeof seed_key, "%s=", seed_opt ? seed_opt : "");
    if (seed_opt && !strstr(rules, seed_key)) {
        size_t l = strlen(rules);
        snprintf(rules + l, sizeof rules - l, "%s%s%llu", l ? "," : "", seed_key,
                 (unsigned long long)(gv_mix64(s->seed + (uint64_t)(gi / 2)) >> 2));
    }
    for (int k = 0; k < 2; k++) {
        e[k] = gv_engine_new(s->g->name, rules, err, sizeof err);
        if (!e[k]) {
            snprintf(line, linelen, "engine: %s", err);
            if (k)
                gv_engine_free(e[0]);
            return 0;
        }
        char v[32];
        gv_engine_set_option(e[k], "hash", hash, err, sizeof err);
        snprintf(v, sizeof v, "%d", s->p[k].level);
        gv_engine_set_option(e[k], "level", v, err, sizeof err);
        gv_engine_set_option(e[k], "player", s->p[k].greedy ? "greedy" : "search", err, sizeof err);
        snprintf(v, sizeof v, "%d", s->p[k].threads ? s->p[k].threads : 1);
        gv_engine_set_option(e[k], "threads", v, err, sizeof err);
        snprintf(v, sizeof v, "%llu", (unsigned long long)(s->seed + (uint64_t)gi * 7919 + (uint64_t)k));
        gv_engine_set_option(e[k], "seed", v, err, sizeof err);
    }
    const gv_game *g = gv_engine_game(e[0]);
    int first = g->to_move(gv_engine_state(e[0]));
    /* A pair of games shares an opening; A takes the first seat in even games. */
    play_opening(e, s->openings, gv_mix64(s->seed ^ (uint64_t)(gi / 2) * 0x9E3779B97F4A7C15ULL));
    /* Seat s (0 = the game's first player) is played by engine seat_engine[s]. */
    int a_seat = gi & 1;
    int64_t clock[2] = {s->tc_base, s->tc_base};
    int bad_streak[2] = {0, 0}, last[2] = {0, 0};
    int outcome = 0, plies = 0;
    const char *why = NULL;
    gv_result res;
    while (gv_engine_status(e[0], &res) == GV_ONGOING) {
        if (s->max_plies && plies >= s->max_plies) {
            why = "max plies, draw";
            break;
        }
        int seat = g->to_move(gv_engine_state(e[0])) - first;
        if (seat < 0 || seat > 1)
            seat = 0;
        int who = seat == a_seat ? 0 : 1;   /* engine index: 0 = A */
        gv_go go;
        memset(&go, 0, sizeof go);
        go.nodes = s->p[who].nodes;
        go.movetime_ms = s->p[who].movetime;
        if (s->tc_base) {
            int side = g->to_move(gv_engine_state(e[who]));
            int opp = side == first ? first + 1 : first;
            go.has_time = 1;
            go.time_ms[side % GV_ENGINE_MAX_SIDES] = clock[who];
            go.inc_ms[side % GV_ENGINE_MAX_SIDES] = s->tc_inc;
            go.time_ms[opp % GV_ENGINE_MAX_SIDES] = clock[!who];
            go.inc_ms[opp % GV_ENGINE_MAX_SIDES] = s->tc_inc;
        }
        int64_t t0 = gv_now_ms();
        gv_search_result r;
        gv_engine_go_wait(e[who], &go, NULL, NULL, &r, err, sizeof err);
        int64_t spent = gv_now_ms() - t0;
        if (s->tc_base) {
            clock[who] -= spent;
            if (clock[who] < 0) {
                outcome = who == 0 ? -1 : 1;
                why = "time";
                pthread_mutex_lock(&mt->lock);
                mt->timeouts++;
                pthread_mutex_unlock(&mt->lock);
                break;
            }
            clock[who] += s->tc_inc;
        }
        if (gv_engine_play_move(e[0], r.best, err, sizeof err) != 0 ||
            gv_engine_play_move(e[1], r.best, err, sizeof err) != 0) {
            outcome = who == 0 ? -1 : 1;
            why = "illegal move";
            pthread_mutex_lock(&mt->lock);
            mt->illegal++;
            pthread_mutex_unlock(&mt->lock);
            break;
        }
        plies++;
        /* Adjudication: the mover's own search sees itself lost by more than the
         * threshold on two moves in a row, and its opponent agrees. */
        last[who] = r.score;
        if (s->resign_cp && !s->p[0].greedy && !s->p[1].greedy) {
            bad_streak[who] = r.score <= -s->resign_cp ? bad_streak[who] + 1 : 0;
            if (bad_streak[who] >= 2 && last[!who] >= s->resign_cp) {
                outcome = who == 0 ? -1 : 1;
                why = "adjudicated";
                break;
            }
        }
    }
    if (!why) {
        if (res.status == GV_WIN) {
            int seat = res.winner - first;
            outcome = (seat == a_seat) ? 1 : -1;
        }
        why = res.reason;
    }
    snprintf(line, linelen, "game %d: A (%s) %s: %s, %d plies (%s)", gi + 1, s->p[0].spec,
             a_seat == 0 ? "first" : "second",
             outcome > 0 ? "A wins" : outcome < 0 ? "B wins" : "draw", plies, why);
    gv_engine_free(e[0]);
    gv_engine_free(e[1]);
    return outcome;
}

static void *worker(void *arg)
{
    sp_match *mt = arg;
    const selfplay_spec *s = mt->s;
    for (;;) {
        pthread_mutex_lock(&mt->lock);
        int gi = mt->next < s->games ? mt->next++ : -1;
        pthread_mutex_unlock(&mt->lock);
        if (gi < 0)
            return NULL;
        char line[512];
        int o = play_game(mt, gi, line, sizeof line);
        pthread_mutex_lock(&mt->lock);
        if (o > 0)
            mt->wins++;
        else if (o < 0)
            mt->losses++;
        else
            mt->draws++;
        if (s->verbose) {
            printf("%s\n", line);
            fflush(stdout);
        }
        pthread_mutex_unlock(&mt->lock);
    }
}

void selfplay_spec_init(selfplay_spec *s, const gv_game *g)
{
    memset(s, 0, sizeof *s);
    s->g = g;
    s->games = 20;
    /* Searches of their own (MCTS) need fewer random plies for varied games. */
    s->openings = g->ai && !g->ai->ab ? 2 : 4;
    s->max_plies = g->ai ? g->ai->selfplay_plies : 0;
    s->resign_cp = g->ai ? g->ai->resign_cp : 0;
    s->concurrency = 1;
    s->verbose = 1;
    s->hash_mb = 16;
    sp_parse_player("level=10", &s->p[0]);
    sp_parse_player("level=9", &s->p[1]);
}

int selfplay_main(const selfplay_spec *s)
{
    sp_match mt;
    memset(&mt, 0, sizeof mt);
    mt.s = s;
    pthread_mutex_init(&mt.lock, NULL);
    printf("selfplay %s: A = %s, B = %s, %d games, seed %llu%s%s\n", s->g->name, s->p[0].spec,
           s->p[1].spec, s->games, (unsigned long long)s->seed, s->rules ? ", rules " : "",
           s->rules ? s->rules : "");
    fflush(stdout);
    pthread_t th[64];
    int started = 0;
    for (int i = 0; i < s->concurrency; i++)
        if (pthread_create(&th[i], NULL, worker, &mt) == 0)
            started++;
    if (!started)
        worker(&mt);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_destroy(&mt.lock);

    /* Score of A with a 95% interval (normal approximation over game results). */
    match_score sc;
    match_score_compute(&sc, mt.wins, mt.draws, mt.losses);
    printf("A %s vs B %s: +%d =%d -%d of %d, score %.1f%% [95%%: %.1f%%, %.1f%%], "
           "Elo %+.0f [%+.0f, %+.0f]", s->p[0].spec, s->p[1].spec, mt.wins, mt.draws,
           mt.losses, sc.games, 100 * sc.score, 100 * sc.lo, 100 * sc.hi, sc.elo, sc.elo_lo,
           sc.elo_hi);
    if (mt.timeouts || mt.illegal)
        printf(", %d losses on time, %d illegal moves", mt.timeouts, mt.illegal);
    printf("\n");
    return mt.illegal ? 1 : 0;
}
