/* gravulien selfplay: engine against engine, with openings drawn from a seed, and the
 * score with a 95% interval and an Elo estimate. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/match_stats.h"
#include "core/gv_core.h"
#include "engine/engine.h"

/* One player of a match: "level=N", "greedy", with ",nodes=N" / ",movetime=MS". */
typedef struct sp_player {
    char spec[64];
    int level, greedy;
    uint64_t nodes;
    int64_t movetime;
} sp_player;

typedef struct sp_match {
    const char *game, *rules;
    sp_player p[2];
    int games, openings, max_plies, concurrency, verbose, hash_mb;
    uint64_t seed;
    int64_t tc_base, tc_inc;    /* clock per side, ms (0 = none) */
    int resign_cp;              /* adjudication threshold (0 = off) */
    /* Results, for player 0 (A). */
    pthread_mutex_t lock;
    int next, wins, draws, losses, timeouts, illegal;
} sp_match;

static int parse_player(const char *s, sp_player *p)
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
    int n = match_random_opening(g, gv_engine_scratch(e[0]), plies < 128 ? plies : 128, seed,
                                 moves);
    for (int i = 0; i < n; i++) {
        gv_engine_play_move(e[0], moves[i], err, sizeof err);
        gv_engine_play_move(e[1], moves[i], err, sizeof err);
    }
}

/* Plays game number gi; returns +1 if A won, 0 draw, -1 if A lost. */
static int play_game(sp_match *mt, int gi, char *line, size_t linelen)
{
    char err[GV_ERRLEN], hash[16], rules[GV_MAX_TEXT];
    gv_engine *e[2];
    snprintf(hash, sizeof hash, "%d", mt->hash_mb);
    /* A game whose setup is drawn from a seed (Grav's parameters) gets a new draw for
     * every pair of games, unless the rules fix the seed. */
    snprintf(rules, sizeof rules, "%s", mt->rules ? mt->rules : "");
    const gv_game *gg = gv_game_find(mt->game);
    for (const gv_option_def *o = gg->options; o && o->name; o++)
        if (!strcmp(o->name, "seed") && !strstr(rules, "seed=")) {
            size_t l = strlen(rules);
            snprintf(rules + l, sizeof rules - l, "%sseed=%llu", l ? "," : "",
                     (unsigned long long)(gv_mix64(mt->seed + (uint64_t)(gi / 2)) >> 2));
        }
    for (int k = 0; k < 2; k++) {
        e[k] = gv_engine_new(mt->game, rules, err, sizeof err);
        if (!e[k]) {
            snprintf(line, linelen, "engine: %s", err);
            if (k)
                gv_engine_free(e[0]);
            return 0;
        }
        char v[32];
        gv_engine_set_option(e[k], "hash", hash, err, sizeof err);
        snprintf(v, sizeof v, "%d", mt->p[k].level);
        gv_engine_set_option(e[k], "level", v, err, sizeof err);
        gv_engine_set_option(e[k], "player", mt->p[k].greedy ? "greedy" : "search", err, sizeof err);
        snprintf(v, sizeof v, "%llu", (unsigned long long)(mt->seed + (uint64_t)gi * 7919 + (uint64_t)k));
        gv_engine_set_option(e[k], "seed", v, err, sizeof err);
    }
    const gv_game *g = gv_engine_game(e[0]);
    int first = g->to_move(gv_engine_state(e[0]));
    /* A pair of games shares an opening; A takes the first seat in even games. */
    play_opening(e, mt->openings, gv_mix64(mt->seed ^ (uint64_t)(gi / 2) * 0x9E3779B97F4A7C15ULL));
    /* Seat s (0 = the game's first player) is played by engine seat_engine[s]. */
    int a_seat = gi & 1;
    int64_t clock[2] = {mt->tc_base, mt->tc_base};
    int bad_streak[2] = {0, 0}, last[2] = {0, 0};
    int outcome = 0, plies = 0;
    const char *why = NULL;
    gv_result res;
    while (gv_engine_status(e[0], &res) == GV_ONGOING) {
        if (mt->max_plies && plies >= mt->max_plies) {
            why = "max plies, draw";
            break;
        }
        int seat = g->to_move(gv_engine_state(e[0])) - first;
        if (seat < 0 || seat > 1)
            seat = 0;
        int who = seat == a_seat ? 0 : 1;   /* engine index: 0 = A */
        gv_go go;
        memset(&go, 0, sizeof go);
        go.nodes = mt->p[who].nodes;
        go.movetime_ms = mt->p[who].movetime;
        if (mt->tc_base) {
            int side = g->to_move(gv_engine_state(e[who]));
            int opp = side == first ? first + 1 : first;
            go.has_time = 1;
            go.time_ms[side % GV_ENGINE_MAX_SIDES] = clock[who];
            go.inc_ms[side % GV_ENGINE_MAX_SIDES] = mt->tc_inc;
            go.time_ms[opp % GV_ENGINE_MAX_SIDES] = clock[!who];
            go.inc_ms[opp % GV_ENGINE_MAX_SIDES] = mt->tc_inc;
        }
        int64_t t0 = gv_now_ms();
        gv_search_result r = gv_engine_think(e[who], &go, NULL);
        int64_t spent = gv_now_ms() - t0;
        if (mt->tc_base) {
            clock[who] -= spent;
            if (clock[who] < 0) {
                outcome = who == 0 ? -1 : 1;
                why = "time";
                pthread_mutex_lock(&mt->lock);
                mt->timeouts++;
                pthread_mutex_unlock(&mt->lock);
                break;
            }
            clock[who] += mt->tc_inc;
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
        if (mt->resign_cp && !mt->p[0].greedy && !mt->p[1].greedy) {
            bad_streak[who] = r.score <= -mt->resign_cp ? bad_streak[who] + 1 : 0;
            if (bad_streak[who] >= 2 && last[!who] >= mt->resign_cp) {
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
    snprintf(line, linelen, "game %d: A (%s) %s: %s, %d plies (%s)", gi + 1, mt->p[0].spec,
             a_seat == 0 ? "first" : "second",
             outcome > 0 ? "A wins" : outcome < 0 ? "B wins" : "draw", plies, why);
    gv_engine_free(e[0]);
    gv_engine_free(e[1]);
    return outcome;
}

static void *worker(void *arg)
{
    sp_match *mt = arg;
    for (;;) {
        pthread_mutex_lock(&mt->lock);
        int gi = mt->next < mt->games ? mt->next++ : -1;
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
        if (mt->verbose) {
            printf("%s\n", line);
            fflush(stdout);
        }
        pthread_mutex_unlock(&mt->lock);
    }
}

int cli_selfplay(int argc, char **argv)
{
    sp_match mt;
    memset(&mt, 0, sizeof mt);
    if (argc < 1)
        return cli_usage_error("usage: gravulien selfplay <game> [--a SPEC] [--b SPEC] [--games N] ...");
    mt.game = argv[0];
    if (!gv_game_find(mt.game))
        return cli_usage_error("unknown game '%s' (known: chu, exac, grav)", mt.game);
    int is_grav = !strcmp(mt.game, "grav");
    mt.games = 20;
    mt.openings = is_grav ? 2 : 4;
    mt.max_plies = !strcmp(mt.game, "chu") ? 500 : !strcmp(mt.game, "exac") ? 300 : 0;
    mt.concurrency = 1;
    mt.verbose = 1;
    mt.hash_mb = 16;
    mt.resign_cp = !strcmp(mt.game, "chu") ? 2500 : !strcmp(mt.game, "exac") ? 1500 : 0;
    parse_player("level=10", &mt.p[0]);
    parse_player("level=9", &mt.p[1]);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (!strcmp(a, "--quiet")) {
            mt.verbose = 0;
            continue;
        }
        if (!v)
            return cli_usage_error("selfplay: %s needs a value", a);
        i++;
        if (!strcmp(a, "--a") || !strcmp(a, "--b")) {
            if (parse_player(v, &mt.p[a[2] == 'b']) != 0)
                return cli_usage_error("selfplay: bad player '%s' (level=N[,nodes=N][,movetime=MS] or greedy)", v);
        } else if (!strcmp(a, "--games") && gv_parse_int(v, 1, 100000, &n, NULL, 0) == 0) {
            mt.games = (int)n;
        } else if (!strcmp(a, "--openings") && gv_parse_int(v, 0, 100, &n, NULL, 0) == 0) {
            mt.openings = (int)n;
        } else if (!strcmp(a, "--max-plies") && gv_parse_int(v, 0, 100000, &n, NULL, 0) == 0) {
            mt.max_plies = (int)n;
        } else if (!strcmp(a, "--concurrency") && gv_parse_int(v, 1, 64, &n, NULL, 0) == 0) {
            mt.concurrency = (int)n;
        } else if (!strcmp(a, "--hash") && gv_parse_int(v, 1, 4096, &n, NULL, 0) == 0) {
            mt.hash_mb = (int)n;
        } else if (!strcmp(a, "--resign") && gv_parse_int(v, 0, 30000, &n, NULL, 0) == 0) {
            mt.resign_cp = (int)n;
        } else if (!strcmp(a, "--seed")) {
            if (gv_parse_u64(v, &mt.seed) != 0)
                return cli_usage_error("selfplay: bad seed '%s' (a whole number 0..2^64-1)", v);
        } else if (!strcmp(a, "--rules")) {
            mt.rules = v;
        } else if (!strcmp(a, "--tc")) {
            if (match_parse_tc(v, &mt.tc_base, &mt.tc_inc) != 0)
                return cli_usage_error("selfplay: bad time control '%s' (BASE+INC in seconds)", v);
        } else {
            return cli_usage_error("selfplay: bad option '%s %s'", a, v);
        }
    }
    char err[GV_ERRLEN];
    gv_engine *probe = gv_engine_new(mt.game, mt.rules, err, sizeof err);
    if (!probe)
        return cli_usage_error("selfplay: %s", err);
    gv_engine_free(probe);
    pthread_mutex_init(&mt.lock, NULL);
    printf("selfplay %s: A = %s, B = %s, %d games, seed %llu%s%s\n", mt.game, mt.p[0].spec,
           mt.p[1].spec, mt.games, (unsigned long long)mt.seed, mt.rules ? ", rules " : "",
           mt.rules ? mt.rules : "");
    fflush(stdout);
    pthread_t th[64];
    int started = 0;
    for (int i = 0; i < mt.concurrency; i++)
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
           "Elo %+.0f [%+.0f, %+.0f]", mt.p[0].spec, mt.p[1].spec, mt.wins, mt.draws,
           mt.losses, sc.games, 100 * sc.score, 100 * sc.lo, 100 * sc.hi, sc.elo, sc.elo_lo,
           sc.elo_hi);
    if (mt.timeouts || mt.illegal)
        printf(", %d losses on time, %d illegal moves", mt.timeouts, mt.illegal);
    printf("\n");
    return mt.illegal ? CLI_FAIL : CLI_OK;
}
