/* gv_tune: fits a game's evaluation weights to the results of self-play games (the
 * "Texel" method), or a search's parameters to match results (SPSA).
 *
 *   gv_tune gen GAME [options] -o FILE   plays self-play games and writes their quiet
 *                                        positions (--qleaf: the ends of their
 *                                        quiescence lines), each with the game's result
 *   gv_tune fit GAME FILE [options]      fits K, then the weights, to those positions and
 *                                        prints the tuned weights as a C initializer
 *   gv_tune check GAME FILE              checks that the tuning evaluation with the
 *                                        default weights is the search's evaluation
 *   gv_tune spsa GAME [options]          tunes the parameters of a game's own search
 *                                        (Grav's MCTS) from match results (SPSA)
 *   gv_tune match GAME [options]         plays one parameter vector against another
 *
 * The game's AI (gv_ai) gives the searcher's hooks and the tuning descriptor
 * (gv_eval_tune): the weights as one array of ints, and the evaluation with any array;
 * or, for spsa, the search's parameters (gv_search_tune). docs/tuning.md explains the
 * data, the fit and how the result becomes the defaults. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gv_core.h"
#include "game/game.h"
#include "match/match_stats.h"
#include "search/search.h"

static int usage(void)
{
    fprintf(stderr,
            "usage: gv_tune gen GAME [--games N] [--nodes N] [--random PLIES] [--skip PLIES]\n"
            "                        [--seed S] [--hash MB] [--max-plies N] [--qleaf] -o FILE\n"
            "       gv_tune fit GAME FILE [--passes N] [--step N] [--limit N] [--from WEIGHTS]\n"
            "                             [--freeze FIELD|FIELD[K],...] [-o FILE]\n"
            "       gv_tune check GAME FILE\n"
            "       gv_tune spsa GAME [--iterations N] [--games-per-iteration N]\n"
            "                         [--playouts N | --nodes N] [--seed S] [--rules R]\n"
            "                         [--from V] [--freeze NAME,...] [--a0 STEPS]\n"
            "       gv_tune match GAME [--a V] [--b V] [--games N] [--playouts N | --nodes N]\n"
            "                          [--seed S] [--rules R]\n");
    return 2;
}

/* A small seeded generator (xorshift64*) for the random opening plies. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static const gv_game *tunable_game(const char *name)
{
    const gv_game *g = gv_game_find(name);
    if (!g) {
        fprintf(stderr, "gv_tune: unknown game '%s'\n", name);
        return NULL;
    }
    if (!g->ai || !g->ai->ab || !g->ai->tune) {
        fprintf(stderr, "gv_tune: game '%s' has no tunable alpha-beta evaluation\n", name);
        return NULL;
    }
    return g;
}

/* ---- gen ----------------------------------------------------------------------------- */

/* Is st (not over) quiet: no noisy move, the mover not in check, and an evaluation that
 * weighs the position rather than announcing a win? */
static int quiet_position(const gv_game *g, const void *st, gv_move *buf, const int *w,
                          void *pos)
{
    const gv_ab_hooks *h = g->ai->ab;
    const gv_eval_tune *t = g->ai->tune;
    if (h->in_check(st) || h->noisy_moves(st, buf) > 0)
        return 0;
    t->pack(st, pos);
    int e = t->eval(pos, w);
    return e < t->decided && e > -t->decided;
}

/* ---- The end of the quiescence search (gen --qleaf) -----------------------------------
 * A small quiescence search with the game's hooks, shaped like the searcher's (ab.c):
 * stand pat on the static evaluation, then the noisy moves, most valuable victim first,
 * skipping those that cannot reach alpha even with the victim and two pawns more (delta
 * pruning), and from the fourth ply on only recaptures. It has no table and does not
 * answer checks with every move, and it keeps its principal variation: the position at
 * the end of that line is one whose static evaluation is the quiescence score, the
 * position the search's evaluation is asked about. */
enum {
    QL_MAX_PLY = 24,           /* deepest quiescence line followed */
    QL_RECAPTURE_PLY = 4,      /* from this ply on, only recaptures */
    QL_NODE_LIMIT = 200000,    /* a quiescence that needs more is given up (no position) */
};

typedef struct qleaf {
    const gv_game *g;
    const gv_ab_hooks *h;
    void *st;
    long nodes;
    int max_ply;               /* QL_MAX_PLY, or less when the game keeps less history */
    gv_move *moves;            /* per ply, room for GV_MAX_MOVES moves, */
    int *victims, *scores;     /* their victims' values and order scores */
    gv_move pv[QL_MAX_PLY + 1][QL_MAX_PLY + 1];
    int npv[QL_MAX_PLY + 1];
} qleaf;

/* The quiescence score of q->st (side to move's view); q->pv[ply] gets its line. A
 * search over its node budget returns 0 with q->nodes above the limit. */
static int qleaf_search(qleaf *q, int alpha, int beta, int ply, gv_move last)
{
    const gv_ab_hooks *h = q->h;
    q->npv[ply] = 0;
    if (++q->nodes > QL_NODE_LIMIT)
        return 0;
    int r;
    if (h->quick_end && h->quick_end(q->st, &r))
        return r > 0 ? GV_MATE - ply : r < 0 ? -(GV_MATE - ply) : 0;
    int stand = h->eval(q->st);
    if (stand >= beta || ply >= q->max_ply)
        return stand;
    if (stand > alpha)
        alpha = stand;
    size_t at = (size_t)ply * GV_MAX_MOVES;
    gv_move *mv = q->moves + at;
    int *vic = q->victims + at, *sc = q->scores + at;
    int n = h->noisy_moves(q->st, mv);
    for (int i = 0; i < n; i++) {
        vic[i] = h->victim_value(q->st, mv[i]);
        sc[i] = vic[i] > 0 ? vic[i] * 16 - h->mover_value(q->st, mv[i]) / 16 : -(1 << 20);
    }
    int best = stand, delta = 2 * h->pawn;
    int recapture_sq = ply >= QL_RECAPTURE_PLY ? GV_AB_MOVE_TO(last) : -1;
    for (int i = 0; i < n; i++) {
        /* The best remaining move first (selection: the first moves usually cut). */
        int b = i;
        for (int j = i + 1; j < n; j++)
            if (sc[j] > sc[b])
                b = j;
        gv_move m = mv[b];
        int v = vic[b];
        mv[b] = mv[i], vic[b] = vic[i], sc[b] = sc[i];
        mv[i] = m, vic[i] = v;
        if (stand + v + delta <= alpha && v < GV_MATE_BOUND / 2)
            continue;
        if (recapture_sq >= 0 && GV_AB_MOVE_TO(m) != recapture_sq && v < GV_MATE_BOUND / 2)
            continue;
        q->g->make(q->st, m);
        int s = -qleaf_search(q, -beta, -alpha, ply + 1, m);
        q->g->unmake(q->st);
        if (q->nodes > QL_NODE_LIMIT)
            return 0;
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                q->pv[ply][0] = m;
                memcpy(q->pv[ply] + 1, q->pv[ply + 1], sizeof(gv_move) * (size_t)q->npv[ply + 1]);
                q->npv[ply] = q->npv[ply + 1] + 1;
                if (s >= beta)
                    break;
            }
        }
    }
    return best;
}

/* The position at the end of the quiescence line from st (not over, its mover not in
 * check): its text into text and its mover into *mover. 0 when there is none to keep:
 * the leaf is in check or decided, or the search ran out of nodes. st is restored. */
static int qleaf_position(qleaf *q, void *st, const int *w, void *pos, char *text,
                          int *mover)
{
    const gv_eval_tune *t = q->g->ai->tune;
    q->st = st, q->nodes = 0;
    qleaf_search(q, -GV_INF, GV_INF, 0, 0);
    if (q->nodes > QL_NODE_LIMIT)
        return 0;
    int n = q->npv[0], ok = 1, r;
    for (int i = 0; i < n; i++)
        q->g->make(st, q->pv[0][i]);
    if ((q->h->quick_end && q->h->quick_end(st, &r)) || q->h->in_check(st)) {
        ok = 0;
    } else {
        t->pack(st, pos);
        int e = t->eval(pos, w);
        ok = e < t->decided && e > -t->decided && q->g->get_position(st, text, GV_MAX_TEXT) > 0;
        *mover = q->g->to_move(st);
    }
    for (int i = 0; i < n; i++)
        q->g->unmake(st);
    return ok;
}

static int cmd_gen(int argc, char **argv)
{
    if (argc < 1)
        return usage();
    const gv_game *g = tunable_game(argv[0]);
    if (!g)
        return 2;
    long games = 100, nodes = 5000, random_plies = 4, skip = 8, hash = 16, cap = 0;
    uint64_t seed = 1;
    const char *out_path = NULL;
    int use_qleaf = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--qleaf")) {
            use_qleaf = 1;
            continue;
        }
        if (!v)
            return usage();
        i++;
        if (!strcmp(a, "--games"))
            games = atol(v);
        else if (!strcmp(a, "--nodes"))
            nodes = atol(v);
        else if (!strcmp(a, "--random"))
            random_plies = atol(v);
        else if (!strcmp(a, "--skip"))
            skip = atol(v);
        else if (!strcmp(a, "--seed"))
            seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--hash"))
            hash = atol(v);
        else if (!strcmp(a, "--max-plies"))
            cap = atol(v);
        else if (!strcmp(a, "-o"))
            out_path = v;
        else
            return usage();
    }
    if (!out_path || cap < 0 || games < 1 || nodes < 1 || random_plies < 0 || skip < 0 || hash < 1)
        return usage();
    FILE *out = fopen(out_path, "w");
    if (!out) {
        perror(out_path);
        return 1;
    }
    const gv_ai *ai = g->ai;
    const gv_eval_tune *t = ai->tune;
    int max_plies = cap ? (int)cap : ai->selfplay_plies ? ai->selfplay_plies : 1000;
    void *st = malloc(g->state_size), *pos = malloc(t->pos_size);
    int *w = malloc(sizeof(int) * (size_t)t->count);
    gv_move *moves = malloc(sizeof(gv_move) * GV_MAX_MOVES);
    char (*texts)[GV_MAX_TEXT] = malloc(sizeof *texts * (size_t)max_plies);
    int *movers = malloc(sizeof(int) * (size_t)max_plies);
    gv_tt *tt = gv_tt_new((size_t)hash);
    qleaf q = {.g = g, .h = ai->ab, .max_ply = QL_MAX_PLY};
    if (g->undo_plies && q.max_ply > g->undo_plies)
        q.max_ply = g->undo_plies;
    if (use_qleaf) {
        size_t lists = (size_t)QL_MAX_PLY * GV_MAX_MOVES;
        q.moves = malloc(sizeof(gv_move) * lists);
        q.victims = malloc(sizeof(int) * lists);
        q.scores = malloc(sizeof(int) * lists);
    }
    if (!st || !pos || !w || !moves || !texts || !movers || !tt ||
        (use_qleaf && (!q.moves || !q.victims || !q.scores))) {
        fprintf(stderr, "gv_tune: out of memory\n");
        return 1;
    }
    t->defaults(w);
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 1;
    long kept_total = 0, score[3] = {0, 0, 0};
    for (long game = 0; game < games; game++) {
        char err[GV_ERRLEN];
        if (g->init(st, NULL, err, sizeof err) < 0) {
            fprintf(stderr, "gv_tune: %s\n", err);
            return 1;
        }
        gv_tt_clear(tt);
        int kept = 0, winner = -1, ply = 0; /* winner: player, or -1 for a draw */
        for (;; ply++) {
            int n = g->legal_moves(st, moves);
            if (n == 0) {
                gv_result res;
                if (g->status(st, &res) == GV_WIN)
                    winner = res.winner;
                break;
            }
            if (ply >= max_plies)
                break;
            gv_move m;
            if (ply < random_plies) {
                m = moves[rng_next(&rng) % (uint64_t)n];
            } else {
                if (ply >= skip && kept < max_plies) {
                    if (use_qleaf) {
                        if (!ai->ab->in_check(st) &&
                            qleaf_position(&q, st, w, pos, texts[kept], &movers[kept]))
                            kept++;
                    } else if (quiet_position(g, st, moves, w, pos) &&
                               g->get_position(st, texts[kept], GV_MAX_TEXT) > 0) {
                        movers[kept++] = g->to_move(st);
                    }
                }
                gv_limits lim = {.nodes = (uint64_t)nodes};
                gv_search_ctl ctl = {.start_ms = gv_now_ms()};
                atomic_init(&ctl.stop, 0);
                gv_search_result r = gv_ab_search(g, ai->ab, st, tt, &lim, &ctl, NULL, NULL);
                if (ai->resign_cp && r.score < -ai->resign_cp) {
                    winner = !g->to_move(st);
                    break;
                }
                m = r.best;
            }
            g->make(st, m);
        }
        score[winner < 0 ? 2 : winner]++;
        for (int k = 0; k < kept; k++) {
            const char *res = winner < 0 ? "0.5" : winner == movers[k] ? "1" : "0";
            fprintf(out, "%s %s\n", res, texts[k]);
        }
        kept_total += kept;
        fprintf(stderr, "game %ld: %d plies, %s, %d positions\n", game + 1, ply,
                winner < 0 ? "draw" : winner == 0 ? "first player wins" : "second player wins",
                kept);
    }
    fprintf(stderr, "%ld games (first %ld, second %ld, draws %ld), %ld positions\n", games,
            score[0], score[1], score[2], kept_total);
    fclose(out);
    gv_tt_free(tt);
    free(q.moves), free(q.victims), free(q.scores);
    free(movers), free(texts), free(moves), free(w), free(pos), free(st);
    return 0;
}

/* ---- fit ----------------------------------------------------------------------------- */

/* Reads weights printed by print_weights (".field = v," or ".field = {v, v, ...},", one
 * field a line) over w; fields it does not name keep their values. -1 on an unknown
 * field or a bad line. */
static int read_weights(const char *path, const gv_eval_tune *t, int *w)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    char line[4096], field[64], name[64];
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        char *p = line;
        while (*p == ' ')
            p++;
        if (*p != '.')
            continue;
        size_t n = strcspn(p + 1, " =");
        if (n == 0 || n >= sizeof field) {
            rc = -1;
            break;
        }
        memcpy(field, p + 1, n);
        field[n] = 0;
        p = strchr(p, '=');
        if (!p) {
            rc = -1;
            break;
        }
        p++;
        int first = -1;
        for (int i = 0; i < t->count && first < 0; i++) {
            gv_tune_name(t, i, name, sizeof name);
            size_t len = strcspn(name, "[");
            if (len == n && !strncmp(name, field, n))
                first = i;
        }
        if (first < 0) {
            fprintf(stderr, "%s: unknown weight '%s'\n", path, field);
            rc = -1;
            break;
        }
        for (int i = first; *p && *p != '\n'; i++) {
            char *end;
            p += strspn(p, " {,");
            if (*p == '}' || *p == '\n' || !*p)
                break;
            long v = strtol(p, &end, 10);
            if (end == p || i >= t->count) {
                rc = -1;
                break;
            }
            w[i] = (int)v;
            p = end;
        }
    }
    fclose(f);
    return rc;
}

typedef struct dataset {
    const gv_eval_tune *t;
    unsigned char *pos;        /* n packed positions */
    double *result;            /* the mover's result: 1, 0.5, 0 */
    size_t n;
} dataset;

static const void *pos_at(const dataset *d, size_t i)
{
    return d->pos + i * d->t->pos_size;
}

static int load(const gv_game *g, const char *path, long limit, dataset *d)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return -1;
    }
    const gv_eval_tune *t = g->ai->tune;
    void *st = malloc(g->state_size);
    char *line = malloc(GV_MAX_TEXT + 16);
    size_t cap = 0;
    d->t = t, d->pos = NULL, d->result = NULL, d->n = 0;
    char err[GV_ERRLEN];
    if (!st || !line || g->init(st, NULL, err, sizeof err) < 0)
        return -1;
    long lineno = 0;
    while (fgets(line, GV_MAX_TEXT + 16, f) && (limit <= 0 || (long)d->n < limit)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        char *sp = strchr(line, ' ');
        if (!sp)
            continue;
        *sp = 0;
        double r = atof(line);
        if (g->set_position(st, sp + 1, err, sizeof err) < 0) {
            fprintf(stderr, "%s:%ld: %s\n", path, lineno, err);
            continue;
        }
        if (d->n == cap) {
            cap = cap ? cap * 2 : 4096;
            d->pos = realloc(d->pos, cap * t->pos_size);
            d->result = realloc(d->result, cap * sizeof(double));
            if (!d->pos || !d->result)
                return -1;
        }
        t->pack(st, d->pos + d->n * t->pos_size);
        d->result[d->n++] = r;
    }
    fclose(f);
    free(line), free(st);
    return 0;
}

/* The expected result of an evaluation e (centipawns) with scale K: 1 / (1 + 10^(-K e/400)). */
static double sigmoid(double k, int e)
{
    return 1.0 / (1.0 + pow(10.0, -k * e / 400.0));
}

/* Mean squared error of the weights w over the data, with scale K; evals (may be NULL)
 * caches the evaluations for K-only fits. */
static double error_of(const dataset *d, const int *w, double k, int *evals)
{
    double sum = 0;
    for (size_t i = 0; i < d->n; i++) {
        int e = evals ? evals[i] : d->t->eval(pos_at(d, i), w);
        double diff = d->result[i] - sigmoid(k, e);
        sum += diff * diff;
    }
    return d->n ? sum / (double)d->n : 0;
}

/* The K that minimises the error of w: a scan over 0.01..100 by factors of 1.1, then
 * relative steps around the best, halved until they are below 0.01 %. */
static double fit_k(const dataset *d, const int *w)
{
    int *evals = malloc(sizeof(int) * (d->n ? d->n : 1));
    if (!evals)
        return 1.0;
    for (size_t i = 0; i < d->n; i++)
        evals[i] = d->t->eval(pos_at(d, i), w);
    double best = 1.0, best_e = error_of(d, w, best, evals);
    for (double k = 0.01; k <= 100.0; k *= 1.1) {
        double e = error_of(d, w, k, evals);
        if (e < best_e)
            best = k, best_e = e;
    }
    for (double step = 0.05; step > 1e-4; step /= 2) {
        double up = error_of(d, w, best * (1 + step), evals);
        double down = error_of(d, w, best * (1 - step), evals);
        if (up < best_e)
            best *= 1 + step, best_e = up;
        else if (down < best_e)
            best *= 1 - step, best_e = down;
    }
    free(evals);
    return best;
}

/* The weights as a C initializer: one line per field, an array's elements together. */
static void print_weights(FILE *f, const gv_eval_tune *t, const int *w)
{
    char name[64], next[64];
    for (int i = 0; i < t->count;) {
        gv_tune_name(t, i, name, sizeof name);
        char *br = strchr(name, '[');
        if (!br) {
            fprintf(f, "    .%s = %d,\n", name, w[i++]);
            continue;
        }
        *br = 0;
        fprintf(f, "    .%s = {", name);
        for (int first = 1; i < t->count; i++, first = 0) {
            gv_tune_name(t, i, next, sizeof next);
            char *nb = strchr(next, '[');
            if (!nb || (size_t)(nb - next) != strlen(name) || strncmp(next, name, strlen(name)))
                break;
            fprintf(f, "%s%d", first ? "" : ", ", w[i]);
        }
        fprintf(f, "},\n");
    }
}

static int cmd_fit(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const gv_game *g = tunable_game(argv[0]);
    if (!g)
        return 2;
    const char *data_path = argv[1], *out_path = NULL, *from = NULL, *freeze = "";
    long passes = 50, step0 = 8, limit = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return usage();
        i++;
        if (!strcmp(a, "--passes"))
            passes = atol(v);
        else if (!strcmp(a, "--step"))
            step0 = atol(v);
        else if (!strcmp(a, "--limit"))
            limit = atol(v);
        else if (!strcmp(a, "--from"))
            from = v;
        else if (!strcmp(a, "--freeze"))
            freeze = v;
        else if (!strcmp(a, "-o"))
            out_path = v;
        else
            return usage();
    }
    if (passes < 0 || step0 < 1)
        return usage();
    dataset d;
    if (load(g, data_path, limit, &d) < 0) {
        fprintf(stderr, "gv_tune: cannot load %s\n", data_path);
        return 1;
    }
    if (d.n == 0) {
        fprintf(stderr, "gv_tune: no positions in %s\n", data_path);
        return 1;
    }
    const gv_eval_tune *t = d.t;
    int *w = malloc(sizeof(int) * (size_t)t->count);
    if (!w)
        return 1;
    t->defaults(w);
    if (from && read_weights(from, t, w) < 0) {
        fprintf(stderr, "gv_tune: cannot read weights from %s\n", from);
        return 1;
    }
    double k = fit_k(&d, w);   /* for the starting weights, then fixed */
    /* The weights to fit: all but those --freeze names (comma-separated fields, or single
     * elements of an array field as "field[k]"). */
    char *fit = malloc((size_t)t->count);
    if (!fit)
        return 1;
    for (int i = 0; i < t->count; i++) {
        char name[64];
        gv_tune_name(t, i, name, sizeof name);
        size_t len = strcspn(name, "["), full = strlen(name);
        fit[i] = 1;
        for (const char *f = freeze; *f; f += strspn(f, ",")) {
            size_t n = strcspn(f, ",");
            if ((n == len || n == full) && !strncmp(f, name, n))
                fit[i] = 0;
            f += n;
        }
    }
    double e0 = error_of(&d, w, k, NULL), best = e0;
    printf("positions %zu, weights %d, K %.4f\n", d.n, t->count, k);
    printf("error before %.6f\n", e0);
    fflush(stdout);
    /* Local search: each weight in turn moves by +step, else -step, while that lowers the
     * error; a pass with no gain halves the step, down to 1. */
    long step = step0;
    for (long pass = 0; pass < passes; pass++) {
        int changed = 0;
        for (int i = 0; i < t->count; i++) {
            if (!fit[i])
                continue;
            int old = w[i];
            w[i] = old + (int)step;
            double e = error_of(&d, w, k, NULL);
            if (e < best) {
                best = e, changed++;
                continue;
            }
            w[i] = old - (int)step;
            e = error_of(&d, w, k, NULL);
            if (e < best) {
                best = e, changed++;
                continue;
            }
            w[i] = old;
        }
        fprintf(stderr, "pass %ld, step %ld: %d changed, error %.6f\n", pass + 1, step, changed,
                best);
        if (!changed) {
            if (step == 1)
                break;
            step /= 2;
        }
    }
    printf("error after %.6f\n", best);
    print_weights(stdout, t, w);
    if (out_path) {
        FILE *f = fopen(out_path, "w");
        if (!f) {
            perror(out_path);
            return 1;
        }
        print_weights(f, t, w);
        fclose(f);
    }
    free(fit), free(w), free(d.pos), free(d.result);
    return 0;
}

/* ---- check -------------------------------------------------------------------------- */

static int cmd_check(int argc, char **argv)
{
    if (argc != 2)
        return usage();
    const gv_game *g = tunable_game(argv[0]);
    if (!g)
        return 2;
    const gv_eval_tune *t = g->ai->tune;
    FILE *f = fopen(argv[1], "r");
    void *st = malloc(g->state_size), *pos = malloc(t->pos_size);
    int *w = malloc(sizeof(int) * (size_t)t->count);
    char *line = malloc(GV_MAX_TEXT + 16), err[GV_ERRLEN];
    if (!f || !st || !pos || !w || !line || g->init(st, NULL, err, sizeof err) < 0) {
        fprintf(stderr, "gv_tune: cannot read %s\n", argv[1]);
        return 1;
    }
    t->defaults(w);
    long n = 0, bad = 0;
    while (fgets(line, GV_MAX_TEXT + 16, f)) {
        line[strcspn(line, "\r\n")] = 0;
        char *sp = strchr(line, ' ');
        if (!sp || g->set_position(st, sp + 1, err, sizeof err) < 0)
            continue;
        t->pack(st, pos);
        int a = g->ai->ab->eval(st), b = t->eval(pos, w);
        n++;
        if (a != b && bad++ < 10)
            printf("differs: %s: search %d, tuning %d\n", sp + 1, a, b);
    }
    printf("%ld positions, %ld differ\n", n, bad);
    fclose(f);
    free(line), free(w), free(pos), free(st);
    return bad || !n ? 1 : 0;
}

/* ---- spsa ----------------------------------------------------------------------------
 * Tunes a game's own search (gv_ai.search_tune) from match results by simultaneous
 * perturbation stochastic approximation (Spall, "Implementation of the simultaneous
 * perturbation algorithm for stochastic optimization", 1998). Each iteration k draws a
 * sign +-1 for every parameter, plays theta+ = theta + c_k D against theta- = theta - c_k D
 * (each parameter scaled by its step, both clamped to the ranges) in pairs of games from
 * one start, each vector taking the first seat once per pair, and moves theta by
 * a_k (y+ - y-) / (2 c_k D) per parameter (in steps), where y+ - y- = 2 s - 1 for the
 * score s of theta+. Gains: a_k = a / (A + k + 1)^0.602, c_k = 1 / (k + 1)^0.101 steps,
 * A = a tenth of the iterations, and a such that the first iteration moves a parameter
 * by at most --a0 steps (when theta+ wins every game). --freeze keeps parameters where
 * they start (they are not perturbed). Two players: a game with a players option is
 * played by two, and a game with a seed option gets a fresh seed (its setup drawn from
 * it) for every pair unless the rules fix one. */
enum { SP_MAX_PARAMS = 32 };
#define SP_ALPHA 0.602
#define SP_GAMMA 0.101

typedef struct spsa_run {
    const gv_game *g;
    const gv_search_tune *t;
    const char *rules;         /* --rules, or NULL */
    uint64_t playouts, seed;
    int max_plies;
    void *st, *work;
    gv_move *moves;
} spsa_run;

/* Plays one game from the start with `rules`: the first player searches with vector
 * first, the second with second. Returns first's score: 2 win, 1 draw, 0 loss (a game
 * still going after max_plies is a draw), or -1 on an error (message printed). */
static int spsa_game(spsa_run *r, const char *rules, const double *first_v,
                     const double *second_v, uint64_t seed)
{
    const gv_game *g = r->g;
    char err[GV_ERRLEN];
    if (g->init(r->st, rules, err, sizeof err) < 0) {
        fprintf(stderr, "gv_tune: rules '%s': %s\n", rules, err);
        return -1;
    }
    int first = g->to_move(r->st);
    for (int ply = 0; ply < r->max_plies; ply++) {
        if (g->legal_moves(r->st, r->moves) == 0)
            break;
        int seat = g->to_move(r->st) - first;
        if (seat < 0 || seat > 1) {
            fprintf(stderr, "gv_tune: a third player is to move (spsa plays two)\n");
            return -1;
        }
        gv_limits lim;
        memset(&lim, 0, sizeof lim);
        lim.nodes = r->playouts;
        lim.seed = gv_mix64(seed + (uint64_t)ply);
        memcpy(r->work, r->st, g->state_size);
        gv_search_result res = r->t->search(r->work, &lim, NULL, NULL, NULL,
                                            seat ? second_v : first_v);
        if (!res.best) {
            fprintf(stderr, "gv_tune: the search found no move\n");
            return -1;
        }
        g->make(r->st, res.best);
    }
    gv_result res;
    if (g->status(r->st, &res) == GV_WIN)
        return res.winner == first ? 2 : 0;
    return 1;
}

/* The rules of pair p of iteration k: --rules, two players unless the rules say how many,
 * and a seed for the game's setup unless the rules fix it. */
static void spsa_rules(const spsa_run *r, int k, int p, char *buf, size_t len)
{
    const gv_game *g = r->g;
    char key[64];
    snprintf(buf, len, "%s", r->rules ? r->rules : "");
    if (g->players_option) {
        snprintf(key, sizeof key, "%s=", g->players_option);
        if (!strstr(buf, key)) {
            size_t l = strlen(buf);
            snprintf(buf + l, len - l, "%s%s2", l ? "," : "", key);
        }
    }
    if (g->seed_option) {
        snprintf(key, sizeof key, "%s=", g->seed_option);
        if (!strstr(buf, key)) {
            size_t l = strlen(buf);
            uint64_t s = gv_mix64(r->seed ^ gv_mix64((uint64_t)k << 20 | (uint64_t)p)) >> 2;
            snprintf(buf + l, len - l, "%s%s%llu", l ? "," : "", key, (unsigned long long)s);
        }
    }
}

/* v clamped to the parameters' ranges. */
static void spsa_clamp(const gv_search_tune *t, double *v)
{
    for (int i = 0; i < t->count; i++) {
        const gv_search_param *p = &t->params[i];
        if (!(v[i] >= p->lo))
            v[i] = p->lo;
        if (v[i] > p->hi)
            v[i] = p->hi;
    }
}

/* Reads --from: "name=value,..." (any of the parameters) or "v1,v2,..." (in order). */
static int spsa_read_vector(const gv_search_tune *t, const char *text, double *v)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    int pos = 0;
    for (char *tok = strtok(buf, ", "); tok; tok = strtok(NULL, ", "), pos++) {
        char *eq = strchr(tok, '='), *val = tok, *end;
        int i = pos;
        if (eq) {
            *eq = 0;
            val = eq + 1;
            for (i = 0; i < t->count && strcmp(t->params[i].name, tok); i++)
                ;
        }
        if (i >= t->count) {
            fprintf(stderr, "gv_tune: --from: no parameter %s\n", eq ? tok : "that many");
            return -1;
        }
        v[i] = strtod(val, &end);
        if (end == val || *end) {
            fprintf(stderr, "gv_tune: --from: bad value '%s' for %s\n", val, t->params[i].name);
            return -1;
        }
    }
    return 0;
}

/* Reads --freeze: names of parameters kept where they start ("name,name"). */
static int spsa_read_frozen(const gv_search_tune *t, const char *text, int *frozen)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *tok = strtok(buf, ", "); tok; tok = strtok(NULL, ", ")) {
        int i = 0;
        while (i < t->count && strcmp(t->params[i].name, tok))
            i++;
        if (i >= t->count) {
            fprintf(stderr, "gv_tune: --freeze: no parameter %s\n", tok);
            return -1;
        }
        frozen[i] = 1;
    }
    return 0;
}

/* The vector v as the search will use it: integers rounded. */
static double spsa_value(const gv_search_param *p, double x)
{
    return p->integer ? floor(x + 0.5) : x;
}

static void spsa_print_vector(FILE *f, const gv_search_tune *t, const double *v)
{
    for (int i = 0; i < t->count; i++)
        fprintf(f, "%s%s=%.4g", i ? " " : "", t->params[i].name, v[i]);
    fputc('\n', f);
}

static int cmd_spsa(int argc, char **argv)
{
    if (argc < 1)
        return usage();
    const gv_game *g = gv_game_find(argv[0]);
    if (!g) {
        fprintf(stderr, "gv_tune: unknown game '%s'\n", argv[0]);
        return 2;
    }
    if (!g->ai || !g->ai->search_tune) {
        fprintf(stderr, "gv_tune: game '%s' has no tunable search parameters\n", argv[0]);
        return 2;
    }
    const gv_search_tune *t = g->ai->search_tune;
    if (t->count < 1 || t->count > SP_MAX_PARAMS) {
        fprintf(stderr, "gv_tune: %d search parameters (spsa takes 1..%d)\n", t->count,
                SP_MAX_PARAMS);
        return 2;
    }
    spsa_run r = {.g = g, .t = t, .playouts = 10000, .seed = 1};
    long iterations = 100, games = 16;
    double a0 = 1.0, theta[SP_MAX_PARAMS];
    const char *from = NULL, *freeze = NULL;
    int frozen[SP_MAX_PARAMS] = {0};
    t->defaults(theta);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return usage();
        i++;
        if (!strcmp(a, "--iterations"))
            iterations = atol(v);
        else if (!strcmp(a, "--games-per-iteration"))
            games = atol(v);
        else if (!strcmp(a, "--playouts") || !strcmp(a, "--nodes"))
            r.playouts = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--seed"))
            r.seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--rules"))
            r.rules = v;
        else if (!strcmp(a, "--from"))
            from = v;
        else if (!strcmp(a, "--a0"))
            a0 = atof(v);
        else if (!strcmp(a, "--freeze"))
            freeze = v;
        else
            return usage();
    }
    if (iterations < 1 || games < 2 || games % 2 || r.playouts < 1 || !(a0 > 0))
        return usage();
    if (from && spsa_read_vector(t, from, theta) != 0)
        return 2;
    if (freeze && spsa_read_frozen(t, freeze, frozen) != 0)
        return 2;
    spsa_clamp(t, theta);
    r.max_plies = g->ai->selfplay_plies ? g->ai->selfplay_plies : g->ply_bound ? g->ply_bound : 10000;
    r.st = malloc(g->state_size);
    r.work = malloc(g->state_size);
    r.moves = malloc(sizeof(gv_move) * GV_MAX_MOVES);
    if (!r.st || !r.work || !r.moves) {
        fprintf(stderr, "gv_tune: out of memory\n");
        return 1;
    }
    double A = (double)iterations / 10, a = 2 * a0 * pow(A + 1, SP_ALPHA);
    char rules[GV_MAX_TEXT];
    spsa_rules(&r, 0, 0, rules, sizeof rules);
    printf("spsa %s: %ld iterations of %ld games, %llu playouts a move, seed %llu, "
           "first pair's rules '%s'\n",
           g->name, iterations, games, (unsigned long long)r.playouts,
           (unsigned long long)r.seed, rules);
    printf("start: ");
    spsa_print_vector(stdout, t, theta);
    if (freeze)
        printf("frozen: %s\n", freeze);
    fflush(stdout);
    int64_t t0 = gv_now_ms();
    long played = 0, plus_total = 0;
    uint64_t rng = r.seed ? r.seed : 1;
    for (long k = 0; k < iterations; k++) {
        double ck = 1.0 / pow((double)k + 1, SP_GAMMA);
        double ak = a / pow(A + (double)k + 1, SP_ALPHA);
        double delta[SP_MAX_PARAMS], plus[SP_MAX_PARAMS], minus[SP_MAX_PARAMS];
        for (int i = 0; i < t->count; i++) {
            delta[i] = rng_next(&rng) >> 63 ? 1.0 : -1.0;
            if (frozen[i])
                delta[i] = 0;
            plus[i] = theta[i] + ck * t->params[i].step * delta[i];
            minus[i] = theta[i] - ck * t->params[i].step * delta[i];
        }
        spsa_clamp(t, plus);
        spsa_clamp(t, minus);
        long points = 0;   /* theta+'s score in half points */
        for (long gi = 0; gi < games; gi++) {
            spsa_rules(&r, (int)k, (int)(gi / 2), rules, sizeof rules);
            uint64_t gseed = gv_mix64(r.seed + gv_mix64((uint64_t)k * 1000003 + (uint64_t)gi));
            int sc = gi % 2 == 0 ? spsa_game(&r, rules, plus, minus, gseed)
                                 : spsa_game(&r, rules, minus, plus, gseed);
            if (sc < 0)
                return 1;
            points += gi % 2 == 0 ? sc : 2 - sc;
        }
        played += games;
        plus_total += points;
        double sres = (double)points / (2.0 * (double)games);
        for (int i = 0; i < t->count; i++)
            if (!frozen[i])
                theta[i] += ak * t->params[i].step * (2 * sres - 1) / (2 * ck * delta[i]);
        spsa_clamp(t, theta);
        printf("iteration %ld: theta+ %.1f/%ld, ", k + 1, (double)points / 2, games);
        spsa_print_vector(stdout, t, theta);
        fflush(stdout);
    }
    int64_t ms = gv_now_ms() - t0;
    fprintf(stderr, "gv_tune: %ld games in %.1f s (%.1f a minute)\n", played, (double)ms / 1000,
            ms ? (double)played * 60000.0 / (double)ms : 0.0);
    printf("final after %ld iterations (%ld games; theta+ scored %.1f%% in all):\n", iterations,
           played, 50.0 * (double)plus_total / (double)played);
    for (int i = 0; i < t->count; i++) {
        const gv_search_param *p = &t->params[i];
        if (p->integer)
            printf("    .%s = %d,\n", p->name, (int)spsa_value(p, theta[i]));
        else
            printf("    .%s = %.4g,\n", p->name, theta[i]);
    }
    printf("--from ");
    for (int i = 0; i < t->count; i++)
        printf("%s%s=%.6g", i ? "," : "", t->params[i].name, theta[i]);
    printf("\n");
    free(r.moves), free(r.work), free(r.st);
    return 0;
}

/* ---- match ----------------------------------------------------------------------------
 * Checks a tuned vector: vector A against vector B (each the defaults unless given) in
 * pairs of games from one start, A taking the first seat in the first game of each
 * pair, two players, a fresh setup seed per pair as in spsa. Prints A's score with a 95%
 * interval over the games (as `gravulien selfplay` does) and one over the pairs (which
 * counts a pair's two games, played from one setup, as one result). */
static int cmd_match(int argc, char **argv)
{
    if (argc < 1)
        return usage();
    const gv_game *g = gv_game_find(argv[0]);
    if (!g || !g->ai || !g->ai->search_tune) {
        fprintf(stderr, "gv_tune: game '%s' has no tunable search parameters\n", argv[0]);
        return 2;
    }
    const gv_search_tune *t = g->ai->search_tune;
    if (t->count < 1 || t->count > SP_MAX_PARAMS)
        return 2;
    spsa_run r = {.g = g, .t = t, .playouts = 10000, .seed = 1};
    long games = 200;
    double va[SP_MAX_PARAMS], vb[SP_MAX_PARAMS];
    t->defaults(va);
    t->defaults(vb);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return usage();
        i++;
        if (!strcmp(a, "--games"))
            games = atol(v);
        else if (!strcmp(a, "--playouts") || !strcmp(a, "--nodes"))
            r.playouts = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--seed"))
            r.seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--rules"))
            r.rules = v;
        else if (!strcmp(a, "--a") || !strcmp(a, "--b")) {
            if (spsa_read_vector(t, v, a[2] == 'a' ? va : vb) != 0)
                return 2;
        } else
            return usage();
    }
    if (games < 2 || games % 2 || r.playouts < 1)
        return usage();
    spsa_clamp(t, va);
    spsa_clamp(t, vb);
    r.max_plies = g->ai->selfplay_plies ? g->ai->selfplay_plies : g->ply_bound ? g->ply_bound : 10000;
    r.st = malloc(g->state_size);
    r.work = malloc(g->state_size);
    r.moves = malloc(sizeof(gv_move) * GV_MAX_MOVES);
    if (!r.st || !r.work || !r.moves) {
        fprintf(stderr, "gv_tune: out of memory\n");
        return 1;
    }
    printf("match %s: %ld games, %llu playouts a move, seed %llu\nA: ", g->name, games,
           (unsigned long long)r.playouts, (unsigned long long)r.seed);
    spsa_print_vector(stdout, t, va);
    printf("B: ");
    spsa_print_vector(stdout, t, vb);
    fflush(stdout);
    int wins = 0, draws = 0, losses = 0, first_wins = 0;
    double pair_sum = 0, pair_sq = 0;
    char rules[GV_MAX_TEXT];
    int64_t t0 = gv_now_ms();
    for (long p = 0; p < games / 2; p++) {
        spsa_rules(&r, 0, (int)p, rules, sizeof rules);
        int pts = 0;
        for (int j = 0; j < 2; j++) {
            uint64_t gseed = gv_mix64(r.seed + gv_mix64((uint64_t)(2 * p + j)));
            int sc = j == 0 ? spsa_game(&r, rules, va, vb, gseed)
                            : spsa_game(&r, rules, vb, va, gseed);
            if (sc < 0)
                return 1;
            first_wins += sc == 2;
            int a_pts = j == 0 ? sc : 2 - sc;
            wins += a_pts == 2, draws += a_pts == 1, losses += a_pts == 0;
            pts += a_pts;
        }
        double ps = pts / 4.0;
        pair_sum += ps;
        pair_sq += ps * ps;
        if ((p + 1) % 10 == 0 || p + 1 == games / 2) {
            printf("after %ld games: A +%d =%d -%d\n", 2 * (p + 1), wins, draws, losses);
            fflush(stdout);
        }
    }
    int64_t ms = gv_now_ms() - t0;
    fprintf(stderr, "gv_tune: %ld games in %.1f s (%.1f a minute)\n", games, (double)ms / 1000,
            ms ? (double)games * 60000.0 / (double)ms : 0.0);
    match_score sc;
    match_score_compute(&sc, wins, draws, losses);
    long np = games / 2;
    double pm = pair_sum / (double)np, pv = pair_sq / (double)np - pm * pm;
    double ph = 1.96 * sqrt((pv > 0 ? pv : 0) / (double)np);
    printf("A: +%d =%d -%d of %d, score %.1f%% [95%% over games: %.1f%%, %.1f%%; over pairs: "
           "%.1f%%, %.1f%%], Elo %+.0f; the first seat won %d\n",
           wins, draws, losses, sc.games, 100 * sc.score, 100 * sc.lo, 100 * sc.hi,
           100 * (pm - ph), 100 * (pm + ph), sc.elo, first_wins);
    free(r.moves), free(r.work), free(r.st);
    return 0;
}

int main(int argc, char **argv)
{
    gv_games_init();
    if (argc < 2)
        return usage();
    if (!strcmp(argv[1], "gen"))
        return cmd_gen(argc - 2, argv + 2);
    if (!strcmp(argv[1], "fit"))
        return cmd_fit(argc - 2, argv + 2);
    if (!strcmp(argv[1], "check"))
        return cmd_check(argc - 2, argv + 2);
    if (!strcmp(argv[1], "spsa"))
        return cmd_spsa(argc - 2, argv + 2);
    if (!strcmp(argv[1], "match"))
        return cmd_match(argc - 2, argv + 2);
    return usage();
}
