/* Alpha-beta: iterative-deepening PVS with quiescence, a transposition table, null move,
 * late-move reductions, killer and history ordering, check extensions, MultiPV, the
 * weaker root choice of levels 1-9, and Lazy SMP: helper threads search the same root on
 * their own copies of the state, at other depths, sharing only the transposition table;
 * the main thread's search decides. Legality and game end come from the game (game.h);
 * the hooks (search.h) only evaluate and sort. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Threads: POSIX threads, except in a WebAssembly build without them, where a search has
 * one thread whatever it is asked for. */
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define AB_THREADS 0
#else
#define AB_THREADS 1
#include <pthread.h>
#endif

#include "core/gv_core.h"
#include "search/search.h"
#include "search/tt.h"

#if defined(__SANITIZE_ADDRESS__)
#define GV_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GV_ASAN 1
#endif
#endif
#ifdef GV_ASAN
#include <sanitizer/asan_interface.h>
#endif

/* ---- Tunables ----------------------------------------------------------------------- */
enum {
    CHECK_EVERY = 1024,        /* nodes between looks at the clock and the node limit */
    HIST_SIZE = 1 << 16,       /* history slots: the low 16 bits of a move (from, to) */
    HIST_MAX = 1 << 14,
    ASPIRATION_DEPTH = 4,      /* first iteration searched with an aspiration window */
    RFP_DEPTH = 6,             /* reverse futility pruning up to this depth */
    NULL_MIN_DEPTH = 2,
    LMR_MIN_DEPTH = 3,
    LMR_MIN_MOVES = 3,
    LMP_DEPTH = 3,             /* late quiet moves pruned up to this depth */
    QS_EVASION_PLIES = 1,      /* quiescence plies that answer a check with every move */
    QS_RECAPTURE_PLY = 4,      /* from this quiescence ply on, only recaptures */
    EVAL_FIRST_DEPTH = 1,      /* with eval_first, pvs evaluates before the probe up to here */
};
#define RFP_MARGIN_PAWNS 0.8   /* per depth */
#define ASPIRATION_PAWNS 0.35
#define DELTA_PAWNS 2.0        /* quiescence delta pruning margin */
#define TIME_SCALE_STABLE 0.7  /* time_scale: the best move did not change lately */
#define TIME_SCALE_CHANGE 0.8  /* ... plus this per recent change of the best move */
#define TIME_SCALE_DROP 0.5    /* ... times up to 1 + this when the score fell 2 pawns */
#define TIME_SCALE_MAX 2.5

typedef struct ab_root {
    gv_move move;
    int score;                 /* score of the last completed search of this move */
    int prev;                  /* score from the iteration before (ordering) */
    int depth;                 /* iteration that gave score (0: only an ordering guess) */
    int npv;                   /* MultiPV: the line of this move (when among the best) */
    gv_move pv[GV_MAX_PV];
} ab_root;

/* What the threads of one search share besides the table. */
typedef struct ab_shared {
    atomic_int done;                           /* the main thread finished: helpers stop */
    _Atomic uint64_t nodes[GV_AB_MAX_THREADS]; /* each thread's nodes, as of its last check */
    int threads;
} ab_shared;

typedef struct ab_ply {
    gv_move current;           /* the move being searched from this ply */
    gv_move moves[GV_MAX_MOVES];
    int scores[GV_MAX_MOVES];
    int victims[GV_MAX_MOVES];  /* victim_value of each move, kept with it */
    gv_move killers[2];
    int tt_index;              /* where score_moves found the table move, or -1 */
    gv_move pv[GV_MAX_PLY + 1];
    int npv;
} ab_ply;

typedef struct ab {
    const gv_game *g;
    const gv_ab_hooks *h;
    void *st;
    gv_tt *tt;
    const gv_limits *lim;
    gv_search_ctl *ctl;
    ab_shared *sh;                   /* NULL when the search has one thread */
    int id;                          /* 0: the main thread; helpers 1, 2, ... */
    gv_limits own_lim;               /* a helper's limits (lim points here) */
    void *own_st;                    /* a helper's copy of the state (st points here) */
    uint64_t nodes;
    uint64_t next_check;             /* should_stop looks at the limits from this node on */
    int seldepth, stop, root_depth, pawn;
    int history[2][HIST_SIZE];
    unsigned char *null_undo;        /* GV_MAX_PLY slots of h->null_undo_size bytes */
    void *cache;                     /* h->cache_size bytes for the *_c hooks */
    int nroot;
    ab_root root[GV_MAX_MOVES];
    ab_ply ply[GV_MAX_PLY + 1];
} ab;

/* Late-move reductions by depth and by the number of moves searched before: the same for
 * every search, made once by the first (lmr_state: 0 not made, 1 being made, 2 made; the
 * others wait the microseconds it takes). */
static int8_t lmr[64][64];
static _Atomic int lmr_state;

static void lmr_make(void)
{
    if (atomic_load_explicit(&lmr_state, memory_order_acquire) == 2)
        return;
    int none = 0;
    if (atomic_compare_exchange_strong(&lmr_state, &none, 1)) {
        for (int d = 1; d < 64; d++)
            for (int i = 1; i < 64; i++)
                lmr[d][i] = (int8_t)(0.75 + log(d) * log(i) / 2.25);
        atomic_store_explicit(&lmr_state, 2, memory_order_release);
    }
    while (atomic_load_explicit(&lmr_state, memory_order_acquire) != 2)
        ;
}

/* ---- Helpers ------------------------------------------------------------------------ */

/* All threads' nodes: the caller's own count and the others' as of their last check. */
static uint64_t total_nodes(const ab *a)
{
    if (!a->sh)
        return a->nodes;
    uint64_t n = a->nodes;
    for (int i = 0; i < a->sh->threads; i++)
        if (i != a->id)
            n += atomic_load_explicit(&a->sh->nodes[i], memory_order_relaxed);
    return n;
}

/* The node limit (with threads: of all of them together, which the main thread watches;
 * a helper stops when the main thread is done), the stop flag and the clock. */
static __attribute__((noinline)) int check_limits(ab *a)
{
    if (a->sh) {
        atomic_store_explicit(&a->sh->nodes[a->id], a->nodes, memory_order_relaxed);
        if (a->id && atomic_load_explicit(&a->sh->done, memory_order_relaxed))
            return a->stop = 1;
        if (!a->id && a->lim->nodes && total_nodes(a) >= a->lim->nodes)
            return a->stop = 1;
    } else if (a->lim->nodes && a->nodes >= a->lim->nodes) {
        return a->stop = 1;
    }
    if (atomic_load_explicit(&a->ctl->stop, memory_order_relaxed))
        return a->stop = 1;
    if (a->lim->hard_ms && gv_now_ms() - a->ctl->start_ms >= a->lim->hard_ms)
        return a->stop = 1;
    return 0;
}

/* Asked at every node: whether to stop. The stop flag is looked at every node, so that a
 * search stopped from outside ends at once (a `stop` right after `go infinite` waits for
 * no more than one node); the other limits once every CHECK_EVERY nodes and when the node
 * limit is reached. */
static inline int should_stop(ab *a)
{
    if (a->stop)
        return 1;
    if (a->nodes < a->next_check) {
        if (atomic_load_explicit(&a->ctl->stop, memory_order_relaxed))
            return a->stop = 1;
        return 0;
    }
    int r = check_limits(a);
    a->next_check = (a->nodes | (CHECK_EVERY - 1)) + 1;
    if (a->lim->nodes && a->lim->nodes < a->next_check)
        a->next_check = a->lim->nodes;
    return r;
}

static int score_to_tt(int s, int ply)
{
    return s >= GV_MATE_BOUND ? s + ply : s <= -GV_MATE_BOUND ? s - ply : s;
}

static int score_from_tt(int s, int ply)
{
    return s >= GV_MATE_BOUND ? s - ply : s <= -GV_MATE_BOUND ? s + ply : s;
}

/* The hooks that may share work through the cache (search.h). */
static inline int h_eval(ab *a)
{
    return a->h->eval_c ? a->h->eval_c(a->st, a->cache) : a->h->eval(a->st);
}

static inline int h_in_check(ab *a)
{
    return a->h->in_check_c ? a->h->in_check_c(a->st, a->cache) : a->h->in_check(a->st);
}

static inline int h_noisy_moves(ab *a, gv_move *out)
{
    return a->h->noisy_moves_c ? a->h->noisy_moves_c(a->st, out, a->cache)
                               : a->h->noisy_moves(a->st, out);
}

/* Score of a state with no legal move, as the game decides it. */
static int terminal_score(ab *a, int ply)
{
    gv_result r;
    if (a->g->status(a->st, &r) == GV_WIN)
        return r.winner == a->g->to_move(a->st) ? GV_MATE - ply : -(GV_MATE - ply);
    return 0;
}

static inline int *hist_slot(ab *a, int side, gv_move m)
{
    return &a->history[side & 1][m & (HIST_SIZE - 1)];
}

static void hist_update(int *slot, int bonus)
{
    *slot += bonus - *slot * abs(bonus) / HIST_MAX;
}

/* Ordering scores: the table move, captures by most valuable victim / least valuable
 * mover, killers, then history. quiet: the moves are known to capture nothing (victim 0). */
static void score_moves(ab *a, ab_ply *P, int n, gv_move ttm, int quiet)
{
    int side = a->g->to_move(a->st);
    if (quiet)
        memset(P->victims, 0, (size_t)n * sizeof P->victims[0]);
    else if (a->h->victim_values)
        a->h->victim_values(a->st, P->moves, n, P->victims);
    else
        for (int i = 0; i < n; i++)
            P->victims[i] = a->h->victim_value(a->st, P->moves[i]);
    P->tt_index = -1;
    for (int i = 0; i < n; i++) {
        gv_move m = P->moves[i];
        int v = P->victims[i];
        if (m == ttm)
            P->scores[i] = 1 << 30, P->tt_index = i;
        else if (v > 0)
            P->scores[i] = (1 << 28) + v * 16 - a->h->mover_value(a->st, m) / 16;
        else if (m == P->killers[0])
            P->scores[i] = (1 << 27);
        else if (m == P->killers[1])
            P->scores[i] = (1 << 27) - 1;
        else
            P->scores[i] = *hist_slot(a, side, m);
    }
}

/* Four scores side by side (GCC and Clang vector extension: SSE2 on x86-64). */
typedef int32_t score4 __attribute__((vector_size(16)));

static inline score4 load4(const int *p)
{
    score4 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Swaps the move at best (with its score and victim) to i and returns it. */
static inline gv_move swap_to(ab_ply *P, int best, int i)
{
    gv_move m = P->moves[best];
    int s = P->scores[best], v = P->victims[best];
    P->moves[best] = P->moves[i];
    P->scores[best] = P->scores[i];
    P->victims[best] = P->victims[i];
    P->moves[i] = m;
    P->scores[i] = s;
    P->victims[i] = v;
    return m;
}

/* Moves the best-scored of moves[i..n) to i (the first of equals) and returns it. Four
 * scores at a time: their maximum, then the first index holding it. (A one-pass version
 * that kept each lane's first index of its maximum ran fewer loops but was 3 % slower on
 * the Exaç bench: medians of 15 alternating runs.) */
static gv_move pick_next(ab_ply *P, int i, int n)
{
    const int *sc = P->scores;
    int top = sc[i], j = i + 1;
    if (n - j >= 8) {
        score4 m = load4(sc + j);
        for (j += 4; j + 4 <= n; j += 4) {
            score4 v = load4(sc + j);
            score4 gt = v > m;
            m = (v & gt) | (m & ~gt);
        }
        for (int k = 0; k < 4; k++)
            top = m[k] > top ? m[k] : top;
    }
    for (; j < n; j++)
        top = sc[j] > top ? sc[j] : top;
    int best = i;
    while (sc[best] != top)
        best++;
    return swap_to(P, best, i);
}

/* Starts loading the table entry of the state after move m into the cache. */
static inline void prefetch_after(ab *a, gv_move m)
{
    gv_tt_prefetch(a->tt, a->h->key_after(a->st, m));
}

/* The move to search i-th: pick_next's. With the hooks' key_after, the move after it is
 * picked already (the order is the same: the scores do not change during the loop) and
 * the table entry after it prefetched, so that it is in the cache when its search starts
 * -- most children probe the table at once and stop there or soon after. */
static gv_move next_move(ab *a, ab_ply *P, int i, int n)
{
    if (!a->h->key_after)
        return pick_next(P, i, n);
    /* The table move, scored above every other, is first: no need to look for it. */
    if (i == 0) {
        prefetch_after(a, P->tt_index >= 0 ? swap_to(P, P->tt_index, 0) : pick_next(P, 0, n));
        if (n > 1)
            prefetch_after(a, pick_next(P, 1, n));
    }
    if (i + 2 < n)
        prefetch_after(a, pick_next(P, i + 2, n));
    return P->moves[i];
}

/* The legal moves of a state that quick_end found not over. */
static int node_moves(ab *a, gv_move *out)
{
    return a->h->moves && a->h->quick_end ? a->h->moves(a->st, out)
                                          : a->g->legal_moves(a->st, out);
}

/* Makes m, counts the node and, without key_after, prefetches the table entry. */
static inline void make_move(ab *a, gv_move m)
{
    a->g->make(a->st, m);
    a->nodes++;
    if (!a->h->key_after)
        gv_tt_prefetch(a->tt, a->g->hash(a->st));
}

static void pv_update(ab *a, int ply, gv_move m)
{
    ab_ply *P = &a->ply[ply], *C = &a->ply[ply + 1];
    P->pv[0] = m;
    int n = C->npv;
    if (n > GV_MAX_PLY - 1)
        n = GV_MAX_PLY - 1;
    memcpy(P->pv + 1, C->pv, (size_t)n * sizeof(gv_move));
    P->npv = n + 1;
}

/* ---- Quiescence ---------------------------------------------------------------------- */

/* in_check: whether the side to move is in check, or -1 when not known yet. */
static int qsearch(ab *a, int alpha, int beta, int ply, int qply, int in_check)
{
    ab_ply *P = &a->ply[ply];
    P->npv = 0;
    if (ply > a->seldepth)
        a->seldepth = ply;
    if (should_stop(a))
        return 0;
    int r;
    if (a->h->quick_end && a->h->quick_end(a->st, &r))
        return r > 0 ? GV_MATE - ply : r < 0 ? -(GV_MATE - ply) : 0;
    if (ply >= GV_MAX_PLY - 1)
        return h_eval(a);

    /* Step 1. The table: a bound from any earlier search of this position. With
     * eval_first, the static evaluation comes first, while the table's line is on its way
     * (the same value as computed after the probe). */
    int ev = a->h->eval_first ? h_eval(a) : 0;
    uint64_t key = a->g->hash(a->st);
    gv_tt_entry te;
    gv_tt_entry *e = gv_tt_probe(a->tt, key, &te) ? &te : NULL;
    if (e) {
        int s = score_from_tt(e->score, ply), bound = e->genbound & 3;
        if (bound == TT_EXACT || (bound == TT_LOWER && s >= beta) ||
            (bound == TT_UPPER && s <= alpha))
            return s;
    }
    int orig_alpha = alpha;
    gv_move bestm = 0;

    /* Step 2. In check near the horizon: every move is an answer; otherwise stand pat
     * and look at noisy moves only. */
    int check = qply < QS_EVASION_PLIES && (in_check >= 0 ? in_check : h_in_check(a));
    int best, n = 0;
    if (check) {
        n = node_moves(a, P->moves);
        if (n == 0)
            return terminal_score(a, ply);
    }
    int stand = e ? e->eval : a->h->eval_first ? ev : h_eval(a);
    if (check) {
        best = -(GV_MATE - ply);   /* stand is only stored, for later visits */
    } else {
        if (stand >= beta) {
            if (!e)
                gv_tt_store(a->tt, key, 0, score_to_tt(stand, ply), stand, 0, TT_LOWER);
            return stand;
        }
        if (stand > alpha)
            alpha = stand;
        best = stand;
        n = h_noisy_moves(a, P->moves);
    }

    /* Step 3. Captures, most valuable victim first; deep in quiescence only recaptures
     * (the destination, bits 8..15 of a move, is the square of the last capture). */
    int recapture_sq = qply >= QS_RECAPTURE_PLY && ply > 0 ? GV_AB_MOVE_TO(a->ply[ply - 1].current) : -1;
    P->tt_index = -1;
    for (int i = 0; i < n; i++) {
        gv_move m = P->moves[i];
        int v = a->h->victim_value(a->st, m);
        P->victims[i] = v;
        P->scores[i] = v > 0 ? v * 16 - a->h->mover_value(a->st, m) / 16 : -(1 << 20);
    }
    int delta = (int)(DELTA_PAWNS * a->pawn);
    for (int i = 0; i < n; i++) {
        gv_move m = next_move(a, P, i, n);
        if (!check) {
            int v = P->victims[i];
            /* Delta pruning: even winning the victim cannot reach alpha. */
            if (stand + v + delta <= alpha && v < GV_MATE_BOUND / 2)
                continue;
            if (recapture_sq >= 0 && GV_AB_MOVE_TO(m) != recapture_sq && v < GV_MATE_BOUND / 2)
                continue;
        }
        P->current = m;
        make_move(a, m);
        int s = -qsearch(a, -beta, -alpha, ply + 1, qply + 1, -1);
        a->g->unmake(a->st);
        if (a->stop)
            return 0;
        if (s > best) {
            best = s;
            bestm = m;
            if (s > alpha) {
                alpha = s;
                pv_update(a, ply, m);
                if (s >= beta)
                    break;
            }
        }
    }
    int bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
    gv_tt_store(a->tt, key, bestm, score_to_tt(best, ply), stand, 0, bound);
    return best;
}

/* ---- Principal variation search ---------------------------------------------------- */

/* Where a node's move list comes from: the table move alone, then the captures, then the
 * other moves (staged generation: most nodes end at the table move or at a capture, before
 * the quiet moves are generated, scored and sorted); or every legal move at once. */
enum { STAGE_TT, STAGE_CAPTURES, STAGE_QUIETS, STAGE_ALL };

/* The moves of a stage (captures or quiets) into P, without the table move ttm (searched
 * already), scored in the order of score_moves. Returns their count. */
static int stage_moves(ab *a, ab_ply *P, int stage, gv_move ttm)
{
    int n = stage == STAGE_CAPTURES ? a->h->captures(a->st, P->moves, a->cache)
                                    : a->h->quiets(a->st, P->moves);
    for (int i = 0; ttm && i < n; i++)
        if (P->moves[i] == ttm) {
            memmove(P->moves + i, P->moves + i + 1, (size_t)(n - i - 1) * sizeof(gv_move));
            n--;
            break;
        }
    score_moves(a, P, n, 0, stage == STAGE_QUIETS);
    return n;
}

static int pvs(ab *a, int alpha, int beta, int depth, int ply, int null_ok)
{
    ab_ply *P = &a->ply[ply];
    P->npv = 0;
    int pv = beta - alpha > 1;
    if (ply >= GV_MAX_PLY - 1)
        return h_eval(a);
    if (should_stop(a))
        return 0;

    /* Step 1. Extend checks; at the horizon, quiescence. */
    int check = h_in_check(a);
    if (check && ply < 2 * a->root_depth + 4)
        depth++;
    if (depth <= 0)
        return qsearch(a, alpha, beta, ply, 0, check);

    /* Step 2. Ends the rules core decides without generating moves (a royal taken, a
     * bare king...); repetition and "no legal move" are decided in step 7. */
    int decided;
    if (a->h->quick_end && a->h->quick_end(a->st, &decided))
        return decided > 0 ? GV_MATE - ply : decided < 0 ? -(GV_MATE - ply) : 0;
    if (ply > a->seldepth)
        a->seldepth = ply;
    /* Step 3. Mate distance pruning. */
    if (alpha < -(GV_MATE - ply))
        alpha = -(GV_MATE - ply);
    if (beta > GV_MATE - ply - 1)
        beta = GV_MATE - ply - 1;
    if (alpha >= beta)
        return alpha;

    /* Step 4. Transposition table; with eval_first, next to the horizon (most nodes new,
     * needing the static evaluation) that evaluation first, as in quiescence. */
    int eval_first = a->h->eval_first && depth <= EVAL_FIRST_DEPTH;
    int ev = eval_first ? h_eval(a) : 0;
    uint64_t key = a->g->hash(a->st);
    gv_tt_entry te;
    gv_tt_entry *e = gv_tt_probe(a->tt, key, &te) ? &te : NULL;
    gv_move ttm = 0;
    if (e) {
        ttm = e->move;
        int s = score_from_tt(e->score, ply), bound = e->genbound & 3;
        if (!pv && e->depth - 1 >= depth &&
            (bound == TT_EXACT || (bound == TT_LOWER && s >= beta) ||
             (bound == TT_UPPER && s <= alpha)))
            return s;
        ev = e->eval;
    } else if (!eval_first) {
        ev = h_eval(a);
    }

    /* Step 5. Reverse futility: far above beta near the horizon. */
    int rfp = (int)(RFP_MARGIN_PAWNS * a->pawn);
    if (!pv && !check && depth <= RFP_DEPTH && ev - rfp * depth >= beta &&
        beta > -GV_MATE_BOUND && beta < GV_MATE_BOUND)
        return ev;

    /* Step 6. Null move. */
    if (!pv && !check && null_ok && a->h->make_null && depth >= NULL_MIN_DEPTH && ev >= beta &&
        beta < GV_MATE_BOUND && a->h->null_ok(a->st)) {
        int R = 3 + depth / 4;
        void *undo = a->null_undo + (size_t)ply * a->h->null_undo_size;
        P->current = 0;
        a->h->make_null(a->st, undo);
        a->nodes++;
        gv_tt_prefetch(a->tt, a->g->hash(a->st));
        int s = -pvs(a, -beta, -beta + 1, depth - 1 - R, ply + 1, 0);
        a->h->unmake_null(a->st, undo);
        if (a->stop)
            return 0;
        if (s >= beta)
            return s >= GV_MATE_BOUND ? beta : s;
    }

    /* Step 7. Legal moves and the end of the game, as the rules decide. Staged (when
     * the hooks allow it): the table move alone first, the captures and then the other
     * moves only when it did not end the node (see stage_moves). */
    int n, stage, nlegal;
    if (a->h->captures) {
        stage = STAGE_TT;
        n = 0;
        if (ttm && a->h->move_ok(a->st, ttm)) {
            P->moves[0] = ttm;
            P->victims[0] = a->h->victim_value(a->st, ttm);
            P->scores[0] = 1 << 30;
            P->tt_index = 0;
            n = 1;
        } else {
            ttm = 0;
        }
    } else {
        stage = STAGE_ALL;
        n = node_moves(a, P->moves);
        if (n == 0)
            return terminal_score(a, ply);
        score_moves(a, P, n, ttm, 0);
    }
    nlegal = n;

    /* Step 8. The moves, best first. */
    int best = -GV_INF, orig_alpha = alpha, searched = 0, quiets = 0;
    gv_move bestm = 0;
    gv_move tried[64];
    int ntried = 0;
    for (int i = 0;; i++) {
        if (i == n) {
            if (stage >= STAGE_QUIETS)
                break;
            n = stage_moves(a, P, ++stage, ttm);
            nlegal += n;
            if (stage == STAGE_QUIETS && nlegal == 0)
                return terminal_score(a, ply);
            i = -1;
            continue;
        }
        gv_move m = next_move(a, P, i, n);
        int quiet = P->victims[i] <= 0;
        int killer = m == P->killers[0] || m == P->killers[1];
        /* Late move pruning: quiet moves far down the list near the horizon. The moves
         * left are quiet too (captures, scored above 1 << 28, come before every quiet
         * move but the table's) and nothing in this test changes when a move is pruned:
         * they would all be pruned, so the loop ends here. */
        if (!pv && !check && quiet && depth <= LMP_DEPTH && searched > 0 &&
            quiets >= 4 + 3 * depth * depth && best > -GV_MATE_BOUND)
            break;
        P->current = m;
        make_move(a, m);
        int nd = depth - 1, s;
        if (searched == 0) {
            s = -pvs(a, -beta, -alpha, nd, ply + 1, 1);
        } else {
            int r = 0;
            if (depth >= LMR_MIN_DEPTH && searched >= LMR_MIN_MOVES && quiet && !check) {
                r = lmr[depth < 64 ? depth : 63][searched < 64 ? searched : 63];
                r -= pv + killer;
                if (r < 0)
                    r = 0;
                if (r > nd - 1)
                    r = nd - 1 > 0 ? nd - 1 : 0;
            }
            s = -pvs(a, -alpha - 1, -alpha, nd - r, ply + 1, 1);
            if (s > alpha && r)
                s = -pvs(a, -alpha - 1, -alpha, nd, ply + 1, 1);
            if (s > alpha && s < beta)
                s = -pvs(a, -beta, -alpha, nd, ply + 1, 1);
        }
        a->g->unmake(a->st);
        if (a->stop)
            return 0;
        searched++;
        if (quiet) {
            quiets++;
            if (ntried < 64)
                tried[ntried++] = m;
        }
        if (s > best) {
            best = s;
            bestm = m;
            if (s > alpha) {
                alpha = s;
                pv_update(a, ply, m);
                if (s >= beta) {
                    if (quiet) {
                        if (P->killers[0] != m) {
                            P->killers[1] = P->killers[0];
                            P->killers[0] = m;
                        }
                        int bonus = depth * depth > 400 ? 400 : depth * depth;
                        int side = a->g->to_move(a->st);
                        hist_update(hist_slot(a, side, m), bonus * 16);
                        for (int k = 0; k < ntried - 1; k++)
                            hist_update(hist_slot(a, side, tried[k]), -bonus * 16);
                    }
                    break;
                }
            }
        }
    }
    /* Step 9. Remember. */
    int bound = best >= beta ? TT_LOWER : best > orig_alpha ? TT_EXACT : TT_UPPER;
    gv_tt_store(a->tt, key, bestm, score_to_tt(best, ply), ev, depth, bound);
    return best;
}

/* ---- Root ---------------------------------------------------------------------------- */

static int cmp_root(const void *x, const void *y)
{
    const ab_root *p = x, *q = y;
    return (q->score > p->score) - (q->score < p->score);
}

/* Margin within which a weaker level may prefer another move: about 4 pawns at level 1,
 * 1/3 pawn at level 6, 1/12 at level 7, none from level 8 (quadratic: low levels err
 * much more than high ones). Scoring every root move to within the margin costs depth,
 * more than a tiny margin is worth (a level 9 with a 0.05-pawn margin was no stronger
 * than level 8), so levels 8-10 differ by their node budgets only. */
static int skill_margin(const ab *a)
{
    int level = a->lim->level <= 0 || a->lim->level > 8 ? 8 : a->lim->level;
    return (8 - level) * (8 - level) * a->pawn / 12;
}

/* The lines searched at the root: lim->multipv, at most the number of root moves; 1
 * when a weaker level's margin decides (it scores the moves its own way). */
static int multipv(const ab *a)
{
    int k = a->lim->multipv;
    if (k <= 1 || skill_margin(a))
        return 1;
    return k < a->nroot ? k : a->nroot;
}

/* One iteration over the root moves. Returns the best score, or -GV_INF when stopped
 * before the first move finished. With a skill margin, every move is searched with a
 * window that gives its exact score down to (best - margin). */
static int root_search(ab *a, int depth, int alpha, int beta)
{
    int margin = skill_margin(a), best = -GV_INF;
    ab_ply *P = &a->ply[0];
    for (int i = 0; i < a->nroot; i++) {
        gv_move m = a->root[i].move;
        P->current = m;
        a->g->make(a->st, m);
        a->nodes++;
        gv_tt_prefetch(a->tt, a->g->hash(a->st));
        int s;
        if (margin) {
            int lo = best == -GV_INF ? -GV_INF : best - margin;
            s = -pvs(a, -GV_INF, -lo, depth - 1, 1, 1);
        } else if (i == 0) {
            s = -pvs(a, -beta, -alpha, depth - 1, 1, 1);
        } else {
            s = -pvs(a, -alpha - 1, -alpha, depth - 1, 1, 1);
            if (s > alpha && s < beta)
                s = -pvs(a, -beta, -alpha, depth - 1, 1, 1);
        }
        a->g->unmake(a->st);
        if (a->stop)
            return i == 0 ? -GV_INF : best;
        a->root[i].score = s;
        a->root[i].depth = depth;
        if (s > best) {
            best = s;
            /* The best move leads the list (order of the others is kept). */
            ab_root r = a->root[i];
            memmove(&a->root[1], &a->root[0], (size_t)i * sizeof r);
            a->root[0] = r;
            pv_update(a, 0, m);
            if (!margin && s > alpha) {
                alpha = s;
                if (s >= beta)
                    return s;
            }
        }
    }
    return best;
}

/* One MultiPV iteration: the exact scores and lines of the k best root moves, which end
 * up in root[0..k), best first. The first k moves get a full window; each later one a
 * null window at the k-th best score so far, and a full window above it when it beats
 * that. Returns the best score, or -GV_INF when stopped before the first move finished. */
static int root_search_multi(ab *a, int depth, int k)
{
    ab_ply *P = &a->ply[0];
    for (int i = 0; i < a->nroot; i++) {
        gv_move m = a->root[i].move;
        P->current = m;
        a->g->make(a->st, m);
        a->nodes++;
        gv_tt_prefetch(a->tt, a->g->hash(a->st));
        int s, kth = i < k ? -GV_INF : a->root[k - 1].score;
        if (i < k) {
            s = -pvs(a, -GV_INF, GV_INF, depth - 1, 1, 1);
        } else {
            s = -pvs(a, -kth - 1, -kth, depth - 1, 1, 1);
            if (s > kth)
                s = -pvs(a, -GV_INF, -kth, depth - 1, 1, 1);
        }
        a->g->unmake(a->st);
        if (a->stop)
            return i == 0 ? -GV_INF : a->root[0].score;
        a->root[i].score = s;
        a->root[i].depth = depth;
        if (i >= k && s <= kth)
            continue;
        /* Among the k best: its line, and its place in root[0..k) by score. */
        ab_root r = a->root[i];
        ab_ply *C = &a->ply[1];
        r.pv[0] = m;
        r.npv = 1 + (C->npv < GV_MAX_PV - 1 ? C->npv : GV_MAX_PV - 1);
        memcpy(r.pv + 1, C->pv, (size_t)(r.npv - 1) * sizeof(gv_move));
        int top = i < k ? i : k - 1, j = 0;
        while (j < top && a->root[j].score >= s)
            j++;
        memmove(&a->root[j + 1], &a->root[j], (size_t)(i - j) * sizeof r);
        a->root[j] = r;
        if (j == 0)
            pv_update(a, 0, m);
    }
    return a->root[0].score;
}

/* Weaker levels: among moves within the margin of the best, prefer one by score plus a
 * seeded random bonus (a plausible inaccuracy, never a move worse by more than margin). */
static int skill_pick(ab *a)
{
    int margin = skill_margin(a);
    if (!margin || a->nroot < 2)
        return 0;
    gv_rng rng;
    gv_rng_seed(&rng, a->lim->seed ^ a->g->hash(a->st));
    int top = a->root[0].score, pick = 0, pick_val = -GV_INF;
    for (int i = 0; i < a->nroot; i++) {
        int s = a->root[i].score;
        /* Only moves the last iteration scored (a stopped one scores only some). */
        if (a->root[i].depth < a->root[0].depth || s < top - margin || s <= -GV_MATE_BOUND)
            continue;
        int val = s + (int)(gv_rng_next(&rng) % (uint64_t)(margin + 1));
        if (val > pick_val) {
            pick_val = val;
            pick = i;
        }
    }
    return pick;
}

/* ---- One thread's search ------------------------------------------------------------- */

/* Searchers' memory (8 MB each with its plies), kept from the last search for the next:
 * up to SPARES of them, one per thread of a search of that many threads, so that such a
 * search does not map and fault in a fresh block for each helper every time. Under
 * AddressSanitizer a fresh block costs more than a short search (each is mapped, its
 * shadow written, quarantined and unmapped). Taken and given back by atomic exchange, so
 * searches on several threads are safe: one that finds none allocates its own, and one
 * given back when every slot is full is freed (at most 64 MB are kept). */
enum { SPARES = 8 };
static _Atomic(ab *) spare[SPARES];

/* Under AddressSanitizer the kept block is poisoned while it waits, so that a stale
 * pointer into a finished search is still reported as a use after free would be. */
#ifdef GV_ASAN
#define SPARE_PARK(a) ASAN_POISON_MEMORY_REGION((a), sizeof *(a))
#define SPARE_TAKE(a) ASAN_UNPOISON_MEMORY_REGION((a), sizeof *(a))
#else
#define SPARE_PARK(a) ((void)(a))
#define SPARE_TAKE(a) ((void)(a))
#endif

static void ab_free(ab *a)
{
    if (!a)
        return;
    free(a->null_undo);
    free(a->cache);
    free(a->own_st);
    SPARE_PARK(a);                      /* before another thread can take it */
    for (int i = 0; i < SPARES; i++) {
        ab *none = NULL;
        if (atomic_compare_exchange_strong(&spare[i], &none, a))
            return;
    }
    SPARE_TAKE(a);
    free(a);
}

/* A kept searcher made as calloc would leave it, for what the search reads before it
 * writes: everything but the plies' move lists and the root moves (root_init clears
 * those it uses), which are 7 of the 8 MB. */
static void ab_clear(ab *a)
{
    memset(a, 0, offsetof(ab, root));
    for (int p = 0; p <= GV_MAX_PLY; p++) {
        ab_ply *y = &a->ply[p];
        y->current = 0;
        memset(&y->killers, 0, sizeof *y - offsetof(ab_ply, killers));
    }
}

/* A searcher of st with the given limits; NULL when out of memory. */
static ab *ab_new(const gv_game *g, const gv_ab_hooks *h, void *st, gv_tt *tt,
                  const gv_limits *lim, gv_search_ctl *ctl)
{
    ab *a = NULL;
    for (int i = 0; i < SPARES && !a; i++)
        a = atomic_exchange(&spare[i], NULL);
    if (a) {
        SPARE_TAKE(a);
        ab_clear(a);
    } else if (!(a = calloc(1, sizeof *a))) {
        return NULL;
    }
    a->g = g;
    a->h = h;
    a->st = st;
    a->tt = tt;
    a->lim = lim;
    a->ctl = ctl;
    a->pawn = h->pawn > 0 ? h->pawn : 100;
    a->next_check = lim->nodes && lim->nodes < CHECK_EVERY ? lim->nodes : CHECK_EVERY;
    a->null_undo = h->null_undo_size ? calloc(GV_MAX_PLY + 1, h->null_undo_size) : NULL;
    a->cache = h->cache_size ? calloc(1, h->cache_size) : NULL;
    if ((h->null_undo_size && !a->null_undo) || (h->cache_size && !a->cache)) {
        ab_free(a);
        return NULL;
    }
    lmr_make();
    return a;
}

/* The root moves, ordered by a first look: the table's move, then captures (the
 * iterations then re-sort by score). Returns their count (0: the game is over). */
static int root_init(ab *a)
{
    const gv_ab_hooks *h = a->h;
    a->nroot = a->g->legal_moves(a->st, a->ply[0].moves);
    for (int i = 0; i < a->nroot; i++) {
        memset(&a->root[i], 0, sizeof a->root[i]);
        a->root[i].move = a->ply[0].moves[i];
        a->root[i].score = a->root[i].prev = -GV_INF;
    }
    gv_tt_entry te;
    gv_tt_entry *e = gv_tt_probe(a->tt, a->g->hash(a->st), &te) ? &te : NULL;
    for (int i = 0; i < a->nroot; i++) {
        gv_move m = a->root[i].move;
        int v = h->victim_value(a->st, m);
        a->root[i].prev = (e && e->move == m) ? GV_INF : v > 0 ? v * 16 - h->mover_value(a->st, m) / 16 : -GV_INF + 1;
        a->root[i].score = a->root[i].prev;
    }
    qsort(a->root, (size_t)a->nroot, sizeof a->root[0], cmp_root);
    return a->nroot;
}

/* Helpers search other depths than the main thread, and than one another: helper i
 * skips depth d when ((d + phase) / size) is odd, with the size and phase of its row
 * (helper 1 searches the even depths, helper 2 the odd ones, helpers 3-6 two depths out
 * of four...), so that their table entries are ready when the main thread gets there. */
static const int8_t skip_size[20] = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
static const int8_t skip_phase[20] = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7};

static int skip_depth(const ab *a, int depth)
{
    if (a->id == 0)
        return 0;
    int row = (a->id - 1) % 20;
    return ((depth + skip_phase[row]) / skip_size[row]) % 2;
}

/* Reports one line of the search (info may be NULL): the best move's, or MultiPV's
 * line `line` (1-based; 0 when MultiPV is off). */
static void report(ab *a, gv_info_fn info, void *info_ctx, int depth, int score, int line,
                   const gv_move *pv, int npv)
{
    if (!info)
        return;
    gv_search_info in;
    memset(&in, 0, sizeof in);
    in.depth = depth;
    in.seldepth = a->seldepth;
    in.score = score;
    in.is_mate = score >= GV_MATE_BOUND || score <= -GV_MATE_BOUND;
    in.nodes = total_nodes(a);
    in.time_ms = gv_now_ms() - a->ctl->start_ms;
    in.multipv = line;
    in.npv = npv < GV_MAX_PV ? npv : GV_MAX_PV;
    memcpy(in.pv, pv, (size_t)in.npv * sizeof(gv_move));
    info(info_ctx, &in);
}

/* How much of the soft limit an iteration may start after, relative to the plain rule
 * (no new iteration after half the soft limit, as the next one would not finish): with a
 * clock (a soft limit below the hard one), less when the best move stays the same, up to
 * TIME_SCALE_MAX times more when it changed in the last iterations (unstable: see deepen)
 * or the score fell by `drop` centipawns since the iteration before (the search is
 * finding trouble: more time may find the way out). */
static double time_scale(const ab *a, double unstable, int drop)
{
    if (!a->lim->hard_ms || a->lim->hard_ms <= a->lim->soft_ms)
        return 1.0;   /* a fixed time per move: the rule as it is */
    double scale = TIME_SCALE_STABLE + unstable * TIME_SCALE_CHANGE;
    if (drop > a->pawn / 4) {
        int d = drop < 2 * a->pawn ? drop : 2 * a->pawn;
        scale *= 1.0 + TIME_SCALE_DROP * d / (2.0 * a->pawn);
    }
    return scale > TIME_SCALE_MAX ? TIME_SCALE_MAX : scale;
}

/* Iterative deepening of one thread, into res (best, score, depth, ponder); the main
 * thread reports its iterations through info. */
static void deepen(ab *a, gv_search_result *res, gv_info_fn info, void *info_ctx)
{
    const gv_limits *lim = a->lim;
    int max_depth = lim->depth > 0 && lim->depth < GV_MAX_PLY - 8 ? lim->depth : GV_MAX_PLY - 8;
    int prev_score = 0, aspiration = (int)(ASPIRATION_PAWNS * a->pawn), lines = multipv(a);
    gv_move best_pv[GV_MAX_PV];
    int best_npv = 0;
    res->best = a->root[0].move;
    /* Time management: the best move of the last iteration, its score, and how often the
     * best move changed lately (each change counts 1, halved at every iteration). */
    gv_move last_best = 0;
    int last_score = 0;
    double unstable = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        if (skip_depth(a, depth))
            continue;
        a->root_depth = depth;
        a->seldepth = 0;
        for (int i = 0; i < a->nroot; i++)
            a->root[i].prev = a->root[i].score;
        int alpha = -GV_INF, beta = GV_INF, window = aspiration, s;
        if (depth >= ASPIRATION_DEPTH && !skill_margin(a) && lines == 1 &&
            prev_score > -GV_MATE_BOUND && prev_score < GV_MATE_BOUND) {
            alpha = prev_score - window;
            beta = prev_score + window;
        }
        for (;;) {
            s = lines > 1 ? root_search_multi(a, depth, lines) : root_search(a, depth, alpha, beta);
            if (a->stop)
                break;
            if (s <= alpha && alpha > -GV_INF) {
                window *= 2;
                alpha = s - window < -GV_INF ? -GV_INF : s - window;
            } else if (s >= beta && beta < GV_INF) {
                window *= 2;
                beta = s + window > GV_INF ? GV_INF : s + window;
            } else {
                break;
            }
        }
        if (a->stop && s == -GV_INF)
            break;  /* nothing finished in this iteration */
        /* A stopped iteration still counts when its first (best so far) move finished. */
        int complete = !a->stop;
        if (complete || res->depth == 0 || a->root[0].score > prev_score) {
            res->best = a->root[0].move;
            res->score = a->root[0].score;
            res->depth = depth;
            best_npv = a->ply[0].npv < GV_MAX_PV ? a->ply[0].npv : GV_MAX_PV;
            memcpy(best_pv, a->ply[0].pv, (size_t)best_npv * sizeof(gv_move));
            if (best_npv == 0 || best_pv[0] != res->best) {
                best_pv[0] = res->best;
                best_npv = 1;
            }
            prev_score = res->score;
        }
        if (complete) {
            /* Keep the order for the next iteration: best first, then by score (with
             * MultiPV the best lines are in order already). */
            qsort(a->root + 1, (size_t)(a->nroot - 1), sizeof a->root[0], cmp_root);
        }
        if (complete && lines > 1) {
            for (int k = 0; k < lines; k++) {
                const ab_root *r = &a->root[k];
                if (k == 0)
                    report(a, info, info_ctx, res->depth, res->score, 1, best_pv, best_npv);
                else
                    report(a, info, info_ctx, depth, r->score, k + 1, r->pv, r->npv);
            }
        } else {
            report(a, info, info_ctx, res->depth, res->score, lines > 1, best_pv, best_npv);
        }
        if (!complete)
            break;
        /* Stop early: a forced result found, a single move, or the soft limit reached
         * (the next iteration would not finish in time). */
        if (res->score >= GV_MATE_BOUND || res->score <= -GV_MATE_BOUND)
            if (depth >= 2 * (GV_MATE - abs(res->score)) + 2 || depth >= max_depth)
                break;
        if (a->nroot == 1 && depth >= 4 && !lim->depth && !lim->nodes)
            break;
        if (lim->soft_ms) {
            if (last_best && res->best != last_best)
                unstable += 1.0;
            last_best = res->best;
            int drop = depth > 1 ? last_score - res->score : 0;
            last_score = res->score;
            if (gv_now_ms() - a->ctl->start_ms >= lim->soft_ms / 2 * time_scale(a, unstable, drop))
                break;
            unstable *= 0.5;
        }
    }

    /* A weaker level may prefer another good move. */
    if (res->depth > 0 && skill_margin(a)) {
        int k = skill_pick(a);
        if (k) {
            res->best = a->root[k].move;
            res->score = a->root[k].score;
            best_npv = 1;
            best_pv[0] = res->best;
        }
    }
    res->ponder = best_npv > 1 ? best_pv[1] : 0;
}

/* ---- Threads -------------------------------------------------------------------------- */

int gv_ab_max_threads(void)
{
    return AB_THREADS ? GV_AB_MAX_THREADS : 1;
}

#if AB_THREADS
static void *helper_main(void *arg)
{
    ab *a = arg;
    gv_search_result r;
    memset(&r, 0, sizeof r);
    deepen(a, &r, NULL, NULL);
    atomic_store_explicit(&a->sh->nodes[a->id], a->nodes, memory_order_relaxed);
    return NULL;
}
#endif

gv_search_result gv_ab_search(const gv_game *g, const gv_ab_hooks *h, void *st, gv_tt *tt,
                              const gv_limits *lim, gv_search_ctl *ctl, gv_info_fn info,
                              void *info_ctx)
{
    gv_search_result res;
    memset(&res, 0, sizeof res);
    ab *a = ab_new(g, h, st, tt, lim, ctl);
    if (!a)
        return res;
    gv_tt_new_search(tt);

    /* Step 1. Root moves. */
    if (root_init(a) == 0) {
        ab_free(a);
        return res;
    }

    /* Step 2. Helper threads (weaker levels, whose budgets are node counts, use one):
     * each on its own copy of the state, with no limit but the clock and the main
     * thread's end, and one line. */
    int threads = lim->threads < 1 ? 1 : lim->threads > gv_ab_max_threads() ? gv_ab_max_threads()
                                                                            : lim->threads;
    if (skill_margin(a) || (lim->level > 0 && lim->level < 10))
        threads = 1;
#if AB_THREADS
    ab *helper[GV_AB_MAX_THREADS] = {0};
    pthread_t tid[GV_AB_MAX_THREADS];
    int started = 0;
    ab_shared *sh = threads > 1 ? calloc(1, sizeof *sh) : NULL;
    if (sh) {
        sh->threads = threads;
        a->sh = sh;
        for (int i = 1; i < threads; i++) {
            ab *b = ab_new(g, h, NULL, tt, lim, ctl);
            if (b && (b->own_st = malloc(g->state_size))) {
                memcpy(b->own_st, st, g->state_size);
                b->st = b->own_st;
                b->own_lim = *lim;
                b->own_lim.nodes = 0;
                b->own_lim.soft_ms = 0;
                b->own_lim.multipv = 1;
                b->lim = &b->own_lim;
                b->next_check = CHECK_EVERY;
                b->sh = sh;
                b->id = i;
                if (root_init(b) > 0 && pthread_create(&tid[started], NULL, helper_main, b) == 0) {
                    helper[started++] = b;
                    continue;
                }
            }
            ab_free(b);   /* out of memory or of threads: search with fewer (ids 1..started) */
            break;
        }
    }
#else
    (void)threads;
#endif

    /* Step 3. Iterative deepening on this thread, which decides. */
    deepen(a, &res, info, info_ctx);

#if AB_THREADS
    if (sh) {
        atomic_store(&sh->done, 1);
        for (int i = 0; i < started; i++) {
            pthread_join(tid[i], NULL);
            a->nodes += helper[i]->nodes;
            ab_free(helper[i]);
        }
        a->sh = NULL;
        free(sh);
    }
#endif
    res.is_mate = res.score >= GV_MATE_BOUND || res.score <= -GV_MATE_BOUND;
    res.nodes = a->nodes;
    res.time_ms = gv_now_ms() - ctl->start_ms;
    ab_free(a);
    return res;
}
