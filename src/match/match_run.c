/* The engine-match runner: two engine processes (ours or others, XBoard/CECP or USI) play
 * a series of games; our rules core judges every move and every ending, and the runner
 * keeps the clocks and prints the score with a 95% interval and an Elo estimate. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/gv_core.h"
#include "match/match.h"
#include "match/match_engine.h"
#include "match/match_stats.h"
#include "proto/xboard_game.h"

/* Move texts kept per ply: each protocol's notation and our own (for reports). */
enum { TXT_XBOARD = ME_XBOARD, TXT_USI = ME_USI, TXT_OURS, TXT_KINDS };

typedef struct match_run {
    const char *game, *rules;
    const gv_game *g;
    const gv_match_game *mg;
    match_engine e[2];
    me_config mc[2];                /* what each engine is told (its own time control) */
    int games, openings, max_plies, quiet, refused_is_loss, verbose;
    uint64_t seed;
    FILE *log;
    /* Per game: the moves and their texts (room for max_plies). */
    int cap;
    gv_move *hist;
    char (*txt[TXT_KINDS])[ME_MOVE_TEXT];
    void *st, *work;
    /* Tally, seen from e1. */
    int wins, draws, losses;
    int refused_by_us, refused_by_engine, time_losses, no_results, failures, resigns;
    /* Thinking time per engine, as the runner measures it: from sending `go` to the move
     * line, over the moves it played (opening plies are not thought). */
    int64_t think_ms[2], think_max_ms[2];
    int think_moves[2];
} match_run;

/* Engine process groups, for the signal handler only: an interrupted match must not
 * leave engines thinking behind it. */
static volatile pid_t match_pids[2];

static void match_on_signal(int sig)
{
    for (int i = 0; i < 2; i++)
        mproc_kill(match_pids[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void note_pids(const match_run *m)
{
    for (int i = 0; i < 2; i++)
        match_pids[i] = m->e[i].proc.pid;
}

/* ---- Notation: the cores' converters for each protocol -------------------------------- */

/* USI's moves are the game's own (match.h). */
static int write_in(const match_run *m, int kind, const void *st, gv_move mv, char *buf,
                    size_t len)
{
    if (kind == TXT_XBOARD)
        return m->g->xboard->write_move(st, mv, buf, len);
    return m->g->write_move(st, mv, buf, len);
}

static int parse_in(const match_run *m, me_proto p, const void *st, const char *text, gv_move *mv,
                    char *err, size_t errlen)
{
    if (p == ME_USI)
        return m->g->parse_move(st, text, mv, err, errlen);
    return m->g->xboard->parse_move(st, text, mv, err, errlen);
}

/* Plays mv on m->st, keeping its texts as ply `ply`. A notation no engine of the match
 * speaks may lack the move (XBoard has no Heisei drops): its text is then left empty. */
static int record_move(match_run *m, int ply, gv_move mv)
{
    for (int k = 0; k < TXT_KINDS; k++)
        if (write_in(m, k, m->st, mv, m->txt[k][ply], ME_MOVE_TEXT) < 0) {
            int spoken = k == TXT_OURS || (int)m->e[0].proto == k || (int)m->e[1].proto == k;
            if (spoken)
                return -1;
            m->txt[k][ply][0] = 0;
        }
    m->hist[ply] = mv;
    m->g->make(m->st, mv);
    return 0;
}

/* Prints the position before ply `ply` (replayed from the start) and the moves to it. */
static void print_position(match_run *m, int ply)
{
    char err[GV_ERRLEN], text[2048], fen[2048];
    m->g->init(m->work, m->rules, err, sizeof err);
    for (int i = 0; i < ply; i++)
        m->g->make(m->work, m->hist[i]);
    if (m->g->get_position(m->work, text, sizeof text) < 0)
        text[0] = 0;
    int nf = m->g->xboard->get_fen(m->work, fen, sizeof fen);
    printf("  position: %s\n", text);
    if (nf > 0)
        printf("  XBoard FEN: %s\n", fen);
    printf("  moves from the start (%d):%s", ply, ply ? "" : " none");
    for (int i = 0; i < ply; i++)
        printf(" %s", m->txt[TXT_OURS][i]);
    printf("\n");
}

/* The --verbose line of a move: who played it, the time it took and both clocks after
 * it (increment included); an engine on a fixed time per move has no clock. */
static void print_move_time(const match_run *m, int gi, int ply, int who, int64_t spent_ms,
                            const int64_t clock[2])
{
    printf("  game %d, ply %d: %s %s in %.3f s", gi + 1, ply + 1, m->e[who].label,
           m->txt[TXT_OURS][ply], spent_ms / 1000.0);
    for (int k = 0; k < 2; k++)
        if (m->mc[k].tc_base_ms)
            printf("%s %s %.3f s", k ? "," : "; clocks", m->e[k].label, clock[k] / 1000.0);
    printf("\n");
    fflush(stdout);
}

/* The thinking time of each engine: its moves, their total, average and longest time,
 * and the ratio of the averages (e1's to e2's), prefixed by `lead`. */
static void print_times(const match_run *m, const char *lead)
{
    double avg[2];
    for (int k = 0; k < 2; k++) {
        int n = m->think_moves[k];
        avg[k] = n ? m->think_ms[k] / 1000.0 / n : 0.0;
        printf("%sThinking time of %s (%s): %d moves, total %.3f s, average %.3f s per move, "
               "longest %.3f s\n", lead, m->e[k].label, m->e[k].name, n,
               m->think_ms[k] / 1000.0, avg[k], m->think_max_ms[k] / 1000.0);
    }
    if (avg[1] > 0)
        printf("%sTime ratio e1/e2: %.3f (average per move)\n", lead, avg[0] / avg[1]);
    else
        printf("%sTime ratio e1/e2: none (e2 thought no time)\n", lead);
    fflush(stdout);
}

/* ---- Engines -------------------------------------------------------------------------- */

/* Makes sure engine i runs and is ready for a game; restarts it when it is not. Returns
 * 0, or -1 after printing why it cannot play. */
static int ready_engine(match_run *m, int i)
{
    char err[GV_ERRLEN];
    match_engine *e = &m->e[i];
    if (e->running && me_new_game(e, &m->mc[i], err, sizeof err) == 0)
        return 0;
    if (e->running) {
        fprintf(stderr, "gravulien: match: %s; restarting it\n", err);
        me_stop(e);
    }
    if (me_start(e, &m->mc[i], m->log, err, sizeof err) < 0 ||
        me_new_game(e, &m->mc[i], err, sizeof err) < 0) {
        fprintf(stderr, "gravulien: match: %s\n", err);
        me_stop(e);
        note_pids(m);
        return -1;
    }
    note_pids(m);
    return 0;
}

/* ---- One game ------------------------------------------------------------------------- */

enum { OUT_FIRST = 1, OUT_DRAW = 0, OUT_SECOND = -1, OUT_NONE = 2 };

/* Plays game gi (0-based). Returns 0, or -1 if an engine cannot be (re)started. */
static int play_game(match_run *m, int gi)
{
    const gv_game *g = m->g;
    char err[GV_ERRLEN], reason[320] = "";
    int first_eng = gi & 1;            /* the engine that plays the game's first player */
    int outcome = OUT_NONE, failed[2] = {0, 0};

    /* 1. The opening: random legal plies from the seed, the same for both games of a pair. */
    g->init(m->st, m->rules, err, sizeof err);
    int first_player = g->to_move(m->st);
    gv_move opening[128];
    int nopen = match_random_opening(g, m->st, m->openings, gv_mix64(m->seed ^
                                     (uint64_t)(gi / 2) * 0x9E3779B97F4A7C15ULL), opening);
    int ply = 0;
    for (int i = 0; i < nopen; i++)
        if (record_move(m, ply, opening[i]) == 0) {
            if (m->verbose)
                printf("  game %d, ply %d: opening %s\n", gi + 1, ply + 1, m->txt[TXT_OURS][ply]);
            ply++;
        }

    /* 2. Both engines ready for a new game. */
    for (int i = 0; i < 2; i++)
        if (ready_engine(m, i) < 0)
            return -1;

    /* 3. Moves until our rules end the game (or an engine fails). */
    int64_t clock[2] = {m->mc[0].tc_base_ms, m->mc[1].tc_base_ms};
    gv_result res;
    for (;;) {
        if (g->status(m->st, &res) != GV_ONGOING) {
            outcome = res.status == GV_DRAW ? OUT_DRAW
                      : res.winner == first_player ? OUT_FIRST : OUT_SECOND;
            snprintf(reason, sizeof reason, "%s", res.reason);
            break;
        }
        if (ply >= m->max_plies) {
            outcome = OUT_DRAW;
            snprintf(reason, sizeof reason, "ply cap (%d)", m->max_plies);
            break;
        }
        int side = g->to_move(m->st), mover_first = side == first_player;
        int who = mover_first ? first_eng : !first_eng;
        match_engine *e = &m->e[who];
        int64_t own = m->mc[who].tc_base_ms ? clock[who] : m->mc[who].st_ms;
        int64_t opp = m->mc[!who].tc_base_ms ? clock[!who] : m->mc[!who].st_ms;
        int64_t have = own > 0 ? own : 0;
        int64_t allowed = have + MATCH_GRACE_MS + have * MATCH_GRACE_PERCENT / 100;
        me_reply r;
        me_go(e, &m->mc[who], m->txt[e->proto], ply, mover_first, own, opp, allowed, &r);
        int loss = mover_first ? OUT_SECOND : OUT_FIRST;
        if (r.claim[0])
            printf("claim ignored (game %d, ply %d): %s (%s) says '%s'; our rules: the game "
                   "goes on\n", gi + 1, ply + 1, e->label, e->name, r.claim);
        if (r.kind == MR_RESIGN) {
            outcome = loss;
            m->resigns++;
            snprintf(reason, sizeof reason, "%s resigns ('%.160s')", e->label, r.line);
            break;
        }
        if (r.kind == MR_TIMEOUT) {
            outcome = loss;
            m->time_losses++;
            snprintf(reason, sizeof reason, "%s loses on time (no move in %lld ms)", e->label,
                     (long long)r.spent_ms);
            break;
        }
        if (r.kind == MR_DIED) {
            outcome = loss;
            m->failures++;
            failed[who] = 1;
            char how[64];
            mproc_exit_text(&e->proc, how, sizeof how);
            snprintf(reason, sizeof reason, "%s stopped answering%s%s%s", e->label,
                     how[0] ? " (" : "", how, how[0] ? ")" : "");
            break;
        }
        if (r.kind == MR_NOMOVE) {
            outcome = loss;
            snprintf(reason, sizeof reason, "%s gave no move ('%.160s')", e->label, r.line);
            break;
        }
        if (r.kind == MR_REFUSED) {
            /* The engine refused a move our rules allow: the rules differ, nobody is to
             * blame; the game has no result. */
            int at = ply - 1;
            while (at > 0 && strcmp(m->txt[e->proto][at], r.refused) != 0)
                at--;
            m->refused_by_engine++;
            outcome = OUT_NONE;
            snprintf(reason, sizeof reason, "%s refused %s, which our rules allow", e->label,
                     r.refused);
            printf("rule difference (game %d, ply %d): %s (%s) refused '%s', which our rules "
                   "allow; it said '%s'\n", gi + 1, at + 1, e->label, e->name, r.refused, r.line);
            print_position(m, at);
            break;
        }
        /* MR_MOVE: in time? then legal by our rules? */
        m->think_ms[who] += r.spent_ms;
        m->think_moves[who]++;
        if (r.spent_ms > m->think_max_ms[who])
            m->think_max_ms[who] = r.spent_ms;
        if (m->mc[who].tc_base_ms) {
            clock[who] -= r.spent_ms;
            if (clock[who] < 0)
                clock[who] = 0;   /* the overrun was within the grace */
            clock[who] += m->mc[who].tc_inc_ms;
        }
        gv_move mv;
        if (parse_in(m, e->proto, m->st, r.text, &mv, err, sizeof err) < 0) {
            m->refused_by_us++;
            outcome = m->refused_is_loss ? loss : OUT_NONE;
            snprintf(reason, sizeof reason, "%s played %s, which our rules refuse", e->label,
                     r.text);
            printf("rule difference (game %d, ply %d): %s (%s) played '%s', which our rules "
                   "refuse: %s\n", gi + 1, ply + 1, e->label, e->name, r.text, err);
            print_position(m, ply);
            break;
        }
        if (record_move(m, ply, mv) < 0) {
            outcome = OUT_NONE;
            snprintf(reason, sizeof reason, "cannot write move %s", r.text);
            break;
        }
        if (m->verbose)
            print_move_time(m, gi, ply, who, r.spent_ms, clock);
        ply++;
    }

    /* 4. The end: both engines hear the last moves and the result; any disagreement is
     * printed. */
    const char *result = outcome == OUT_FIRST ? "1-0" : outcome == OUT_SECOND ? "0-1"
                         : outcome == OUT_DRAW ? "1/2-1/2" : "*";
    for (int i = 0; i < 2; i++) {
        match_engine *e = &m->e[i];
        if (failed[i] || !e->running)
            continue;
        me_reply r;
        int t = me_game_over(e, &m->mc[i], m->txt[e->proto], ply, i == first_eng, result, reason,
                             &r);
        if (t < 0) {
            fprintf(stderr, "gravulien: match: %s (%s) did not answer after game %d; it will "
                    "be restarted\n", e->label, e->name, gi + 1);
            me_stop(e);
            continue;
        }
        if (t > 0 && outcome != OUT_NONE) {
            m->refused_by_engine++;
            printf("rule difference (game %d, ply %d): %s (%s) refused '%s', the last move, "
                   "which our rules allow; it said '%s'\n", gi + 1, ply, e->label, e->name,
                   r.refused, r.line);
            print_position(m, ply - 1);
            outcome = OUT_NONE;
            snprintf(reason, sizeof reason, "%s refused the last move", e->label);
            result = "*";
        }
        if (r.claim[0] && strncmp(r.claim, result, strlen(result)) != 0)
            printf("claim ignored (game %d, end): %s (%s) says '%s'; our rules: %s\n", gi + 1,
                   e->label, e->name, r.claim, result);
    }
    for (int i = 0; i < 2; i++)
        if (failed[i])
            me_stop(&m->e[i]);
    note_pids(m);

    /* 5. The tally, from e1's side. */
    int e1_score = outcome == OUT_NONE || outcome == OUT_DRAW ? 0
                   : (outcome == OUT_FIRST) == (first_eng == 0) ? 1 : -1;
    if (outcome == OUT_NONE)
        m->no_results++;
    else if (e1_score > 0)
        m->wins++;
    else if (e1_score < 0)
        m->losses++;
    else
        m->draws++;
    if (!m->quiet) {
        const char *verdict = outcome == OUT_NONE ? "no result"
                              : outcome == OUT_DRAW ? "draw"
                              : e1_score > 0 ? "e1 wins" : "e2 wins";
        printf("game %d: %s first, %s second: %s %s (%s), %d plies\n", gi + 1,
               m->e[first_eng].label, m->e[!first_eng].label, result, verdict, reason, ply);
        fflush(stdout);
    }
    if (m->verbose)
        print_times(m, "  so far: ");
    return 0;
}

/* ---- The match ------------------------------------------------------------------------ */

static int usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gravulien: match: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return MATCH_USAGE;
}

int match_game_ok(const gv_game *g)
{
    return g && g->match && (g->protocols & GV_PROTO_XBOARD) && g->xboard_variant && g->xboard;
}

void match_spec_init(match_spec *s, const gv_game *g)
{
    memset(s, 0, sizeof *s);
    s->g = g;
    s->games = MATCH_DEFAULT_GAMES;
    s->openings = MATCH_DEFAULT_OPENINGS;
    s->max_plies = g && g->match ? g->match->max_plies : 0;
    s->seed = 1;
    s->refused_is_loss = 1;
    s->mc.memory_mb = MATCH_DEFAULT_MEMORY;
    s->mc.handshake_ms = MATCH_HANDSHAKE_S * 1000;
    s->mc.tc_base_ms = 10000;
    s->mc.tc_inc_ms = 100;
    for (int k = 0; k < 2; k++)
        snprintf(s->e[k].label, sizeof s->e[k].label, "e%d", k + 1);
}

/* Does the rule text hold every "k=v" of want? */
static int rules_hold(const char *rules, const char *want)
{
    char buf[GV_MAX_TEXT], *save = NULL;
    snprintf(buf, sizeof buf, "%s", want);
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (!rules || !strstr(rules, t))
            return 0;
    return 1;
}

int match_main(match_spec *s)
{
    match_run m;
    memset(&m, 0, sizeof m);
    m.g = s->g;
    m.mg = s->g->match;
    m.game = s->g->name;
    m.rules = s->rules;
    memcpy(m.e, s->e, sizeof m.e);
    for (int k = 0; k < 2; k++) {
        m.mc[k] = s->mc;
        m.mc[k].xb_variant = s->g->xboard_variant;
        m.mc[k].usi_variant = m.g->usi_variant;
        if (s->time[k].set) {
            m.mc[k].tc_base_ms = s->time[k].tc_base_ms;
            m.mc[k].tc_inc_ms = s->time[k].tc_inc_ms;
            m.mc[k].st_ms = s->time[k].st_ms;
        }
    }
    for (int k = 0; k < 2; k++)   /* the other side's increment, for USI's go */
        m.mc[k].opp_inc_ms = m.mc[!k].tc_base_ms ? m.mc[!k].tc_inc_ms : 0;
    m.games = s->games;
    m.openings = s->openings;
    m.max_plies = s->max_plies;
    m.quiet = s->quiet;
    m.verbose = s->verbose;
    m.refused_is_loss = s->refused_is_loss;
    m.seed = s->seed;
    const char *log_path = s->log_path;
    /* The rules both engines play by, checked once here. */
    char err[GV_ERRLEN];
    m.st = calloc(1, m.g->state_size);
    m.work = calloc(1, m.g->state_size);
    m.cap = m.max_plies + m.openings + 1;
    m.hist = calloc((size_t)m.cap, sizeof *m.hist);
    for (int k = 0; k < TXT_KINDS; k++)
        m.txt[k] = calloc((size_t)m.cap, sizeof *m.txt[k]);
    int rc = MATCH_OK;
    if (!m.st || !m.work || !m.hist || !m.txt[0] || !m.txt[1] || !m.txt[2]) {
        fputs("gravulien: out of memory\n", stderr);
        rc = MATCH_FAIL;
        goto done;
    }
    if (m.g->init(m.st, m.rules, err, sizeof err) < 0) {
        rc = usage("%s: %s", m.game, err);
        goto done;
    }
    if (log_path && !(m.log = fopen(log_path, "w"))) {
        rc = usage("cannot write log '%s'", log_path);
        goto done;
    }

    /* Engines: started once, restarted after a failure; stopped on any signal. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, match_on_signal);
    signal(SIGTERM, match_on_signal);
    signal(SIGHUP, match_on_signal);
    for (int k = 0; k < 2; k++) {
        if (me_start(&m.e[k], &m.mc[k], m.log, err, sizeof err) < 0) {
            fprintf(stderr, "gravulien: match: %s\n", err);
            rc = MATCH_FAIL;
            goto done;
        }
        note_pids(&m);
    }
    char tc[160], one[2][64];
    for (int k = 0; k < 2; k++) {
        if (m.mc[k].tc_base_ms)
            snprintf(one[k], sizeof one[k], "%g+%g s", m.mc[k].tc_base_ms / 1000.0,
                     m.mc[k].tc_inc_ms / 1000.0);
        else
            snprintf(one[k], sizeof one[k], "%g s per move", m.mc[k].st_ms / 1000.0);
    }
    if (!strcmp(one[0], one[1]))
        snprintf(tc, sizeof tc, "%s", one[0]);
    else
        snprintf(tc, sizeof tc, "e1 %s, e2 %s", one[0], one[1]);
    printf("match %s: e1 = %s (%s: %s), e2 = %s (%s: %s)\n", m.game, m.e[0].name,
           m.e[0].proto == ME_XBOARD ? "xboard" : "usi", m.e[0].cmd, m.e[1].name,
           m.e[1].proto == ME_XBOARD ? "xboard" : "usi", m.e[1].cmd);
    printf("%d games, seed %llu, %d opening plies, cap %d plies, time %s (+%d ms + %d%% "
           "grace), rules %s\n", m.games, (unsigned long long)m.seed, m.openings, m.max_plies,
           tc, MATCH_GRACE_MS, MATCH_GRACE_PERCENT, m.rules && *m.rules ? m.rules : "default");
    fflush(stdout);
    const char *known = m.mg->engine_name;
    for (int k = 0; k < 2 && known; k++)
        if (!strncmp(m.e[k].name, known, strlen(known)) && !rules_hold(m.rules, m.mg->engine_rules))
            fprintf(stderr, "gravulien: match: note: %s is %s; it plays --rules %s (see "
                    "docs/match.md)\n", m.e[k].label, known, m.mg->engine_rules);

    int played = 0;
    for (int gi = 0; gi < m.games; gi++, played++)
        if (play_game(&m, gi) < 0) {
            fprintf(stderr, "gravulien: match: stopped after %d of %d games\n", played, m.games);
            rc = MATCH_FAIL;
            break;
        }

    match_score sc;
    match_score_compute(&sc, m.wins, m.draws, m.losses);
    printf("Score of %s (%s) vs %s (%s): %d - %d - %d [%.3f] %d games, 95%% interval "
           "[%.3f, %.3f], Elo %+.0f [%+.0f, %+.0f]\n", m.e[0].label, m.e[0].name, m.e[1].label,
           m.e[1].name, m.wins, m.losses, m.draws, sc.score, sc.games, sc.lo, sc.hi, sc.elo,
           sc.elo_lo, sc.elo_hi);
    printf("Rule differences: %d (engine moves our rules refuse: %d, our moves an engine "
           "refused: %d); time losses: %d; resignations: %d; engine failures: %d; "
           "no results: %d\n", m.refused_by_us + m.refused_by_engine, m.refused_by_us,
           m.refused_by_engine, m.time_losses, m.resigns, m.failures, m.no_results);
    print_times(&m, "");

done:
    for (int k = 0; k < 2; k++)
        me_stop(&m.e[k]);
    match_pids[0] = match_pids[1] = 0;
    if (m.log)
        fclose(m.log);
    free(m.st);
    free(m.work);
    free(m.hist);
    for (int k = 0; k < TXT_KINDS; k++)
        free(m.txt[k]);
    return rc;
}
