/* Search: what every searcher (alpha-beta for Chu and Exaç, MCTS for Grav) shares --
 * limits, the stop control, progress reports -- and the per-game hooks alpha-beta needs.
 *
 * A search runs on a caller's copy of a game state (game.h) and never reads input: it
 * stops when a limit is reached or when another thread sets ctl->stop. Nothing here has
 * mutable globals; several searches may run at once on different states. */
#ifndef GV_SEARCH_H
#define GV_SEARCH_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/gv_core.h"   /* gv_now_ms */
#include "game/game.h"

enum {
    GV_MAX_PLY = 128,          /* deepest ply a search reaches (quiescence included) */
    GV_INF = 32000,
    GV_MATE = 31000,           /* score of mate (royal lost) at the root; - ply per ply */
    GV_MATE_BOUND = GV_MATE - GV_MAX_PLY,
    GV_MAX_PV = 64,
    GV_AB_MAX_THREADS = 64,    /* alpha-beta's threads (gv_limits.threads) */
    GV_MAX_MULTIPV = 64,       /* lines of a MultiPV search (gv_limits.multipv) */
};


/* What a search may spend. Zero means "no limit" for each field. */
typedef struct gv_limits {
    int depth;                 /* alpha-beta: iterations; MCTS: unused */
    uint64_t nodes;            /* alpha-beta: nodes (make calls); MCTS: playouts */
    int64_t soft_ms;           /* do not start new work after this (time management) */
    int64_t hard_ms;           /* stop at once after this */
    int level;                 /* 1..10 strength (10 = full); 0 counts as 10 */
    uint64_t seed;             /* randomness of weaker levels and of MCTS */
    /* How, not how much (0 counts as 1; MCTS ignores both): */
    int threads;               /* alpha-beta: searching threads (Lazy SMP); levels 1-9 use one */
    int multipv;               /* alpha-beta: lines reported, the best root moves in order;
                                  levels 1-7, whose root choice has its own margin, one */
} gv_limits;

/* Shared between the searching thread and its owner. */
typedef struct gv_search_ctl {
    atomic_int stop;           /* set by anyone to stop the search soon (<= a few ms) */
    int64_t start_ms;          /* gv_now_ms() when the search started */
} gv_search_ctl;

/* A progress report (one per iteration, the last one perhaps stopped early; MCTS:
 * periodically and at the end). */
typedef struct gv_search_info {
    int depth, seldepth;
    int score;                 /* alpha-beta: centipawns for the side to move, or
                                  +-(GV_MATE - plies) for a forced win/loss;
                                  MCTS: the mover's expected stone share x 1000 */
    int is_mate;               /* score is a forced result */
    uint64_t nodes;            /* alpha-beta nodes or MCTS playouts so far */
    int64_t time_ms;
    int multipv;               /* MultiPV: the line's rank, 1 = best (one report per line,
                                  in order); 0 when the search has one line */
    int npv;
    gv_move pv[GV_MAX_PV];
} gv_search_info;

typedef void (*gv_info_fn)(void *ctx, const gv_search_info *info);

/* What a finished search returns. best is 0 only when the state had no legal move. */
typedef struct gv_search_result {
    gv_move best, ponder;
    int score, depth, is_mate;
    uint64_t nodes;
    int64_t time_ms;
} gv_search_result;

/* Moves of games searched by alpha-beta carry their destination square in bits 8..15
 * (Chu: CHU_TO, Exac: EX_TO); quiescence uses it to recognise recaptures. */
#define GV_AB_MOVE_TO(m) ((int)(((m) >> 8) & 0xFF))

/* ---- Alpha-beta hooks --------------------------------------------------------------
 * What alpha-beta needs to know about a game beyond game.h. Legality, game end and
 * hashing still come from the game (gv_game): hooks only evaluate and sort. */
typedef struct gv_ab_hooks {
    /* Static evaluation of a non-terminal state, centipawns for the side to move. */
    int (*eval)(const void *st);
    /* Noisy legal moves for quiescence (captures; promotions that matter) of a state
     * that is not over: a subset of game->legal_moves. Returns the count (room for
     * GV_MAX_MOVES). */
    int (*noisy_moves)(const void *st, gv_move *out);
    /* Ordering: value of everything m captures (0 for a quiet move) and of the piece
     * that moves; both in centipawns, from the state before m. */
    int (*victim_value)(const void *st, gv_move m);
    int (*mover_value)(const void *st, gv_move m);
    /* Is the side to move's royal (King, Prince, Yachi...) under attack? */
    int (*in_check)(const void *st);
    /* Null move (optional: NULL = none): passes the turn; undo holds what
     * unmake_null needs (null_undo_size bytes). Only called when !in_check and the
     * hooks' null_ok says the position is safe for it. */
    int (*null_ok)(const void *st);
    void (*make_null)(void *st, void *undo);
    void (*unmake_null)(void *st, const void *undo);
    size_t null_undo_size;
    /* Value of a pawn (for margins: futility, delta pruning). */
    int pawn;
    /* Cheap end test for quiescence, where the full game-end checks of legal_moves are
     * too costly (optional): returns 1 when the rules core says the state is decided
     * by a test that needs no move generation (a royal captured, a Yachi toppled...),
     * with *result = +1 (side to move won), -1 (lost) or 0 (draw). */
    int (*quick_end)(const void *st, int *result);
    /* Optional speed-ups; NULL = use the game's own functions.
     * moves: the legal moves of a state quick_end found not over -- game->legal_moves
     * without its game-end checks (room for GV_MAX_MOVES; needs quick_end).
     * key_after: the hash game->hash would give after make(st, m) of a legal move m,
     * without making it (the search prefetches table entries with it). */
    int (*moves)(const void *st, gv_move *out);
    uint64_t (*key_after)(const void *st, gv_move m);
    /* victim_values: victim_value of each of moves[0..n) into out, in one call. */
    void (*victim_values)(const void *st, const gv_move *moves, int n, int *out);
    /* Optional sharing of work between the calls made on one position: the search
     * allocates cache_size bytes (zeroed) once and passes them to the *_c hooks, which
     * answer exactly as in_check, eval and noisy_moves do. A hook may leave in the cache
     * what a later call on the same position reuses (Exac: the opponent's roles and
     * reach, which all three need), and checks that the cache describes st before
     * trusting it. NULL = the plain hooks. */
    size_t cache_size;
    int (*in_check_c)(const void *st, void *cache);
    int (*eval_c)(const void *st, void *cache);
    int (*noisy_moves_c)(const void *st, gv_move *out, void *cache);
    /* Optional staged move generation (all three or none; needs quick_end and moves):
     * the search tries the table move, then the captures, and generates the other moves
     * only if neither ended the node. move_ok: is m (any value: a table move may come from
     * another position) a legal move of a state quick_end found not over? captures: its
     * legal moves with victim_value > 0 (cache as for the *_c hooks); quiets: the others.
     * Together they are exactly what moves returns. */
    int (*move_ok)(const void *st, gv_move m);
    int (*captures)(const void *st, gv_move *out, void *cache);
    int (*quiets)(const void *st, gv_move *out);
    /* Nonzero when eval costs little next to a table line that has to come from memory
     * (Exac): quiescence and depth-1 nodes, which are mostly new positions, then evaluate
     * before they probe the table, while the line the parent prefetched is on its way.
     * The results are the same either way; with an expensive eval (Chu) the evaluations
     * wasted on table hits cost more than the wait. Set only when eval accepts every
     * state quick_end found not over (it then also sees states with no legal move). */
    int eval_first;
} gv_ab_hooks;

/* ---- A game's AI (gv_game.ai) ------------------------------------------------------
 * Either alpha-beta with the game's hooks, or a search of the game's own (Grav: MCTS). */

/* One position of `gravulien bench`: searched to a fixed depth (alpha-beta) or a fixed
 * number of playouts, with a 16 MB table. */
typedef struct gv_bench_pos {
    const char *rules;         /* rule options, NULL: the defaults */
    const char *position;      /* position text, NULL or "startpos": the start */
    int depth;
    uint64_t playouts;
} gv_bench_pos;

/* What a tuner needs to fit a game's evaluation (gv_ai.tune, optional): the weights as
 * one array of ints, each named, and the evaluation of a compact copy of a position with
 * any such array. */
typedef struct gv_tune_field {
    const char *name;
    size_t offset;             /* bytes from the start of the weights */
    int n;                     /* 1 for a scalar, else its elements */
} gv_tune_field;

typedef struct gv_eval_tune {
    int count;                 /* weights */
    /* The weights' fields in order (gv_tune_name names weight i from them). */
    const gv_tune_field *fields;
    int nfields;
    void (*defaults)(int *w);  /* the weights the hooks use, count of them */
    size_t pos_size;           /* bytes of a compact position */
    void (*pack)(const void *st, void *pos);   /* the compact position of state st */
    /* ab->eval of the packed position with weights w (centipawns, side to move). */
    int (*eval)(const void *pos, const int *w);
    /* |eval| >= decided with the defaults: the value says who wins on the move rather
     * than weighing the position; a tuner leaves such positions out. */
    int decided;
} gv_eval_tune;

/* What a match-based tuner needs to tune a game's own search (gv_ai.search_tune,
 * optional): its tunable parameters as one vector of doubles, each with a range and the
 * size of a change worth measuring, and the search with any such vector. */
typedef struct gv_search_param {
    const char *name;          /* as the search's own parameter is named */
    double lo, hi;             /* the range; the search clamps values outside it */
    double step;               /* a change a few matches can tell apart (SPSA's c) */
    int integer;               /* the search rounds it to a whole number */
} gv_search_param;

typedef struct gv_search_tune {
    int count;                 /* parameters */
    const gv_search_param *params;
    void (*defaults)(double *v);   /* the vector gv_ai.search uses (count values) */
    /* The search of state st (a copy it may play on) with the parameter vector v (count
     * values, each clamped to its range and rounded when integer). */
    gv_search_result (*search)(void *st, const gv_limits *lim, gv_search_ctl *ctl,
                               gv_info_fn info, void *info_ctx, const double *v);
} gv_search_tune;

typedef struct gv_ai {
    const gv_ab_hooks *ab;     /* alpha-beta hooks, or NULL when search is set */
    /* The game's own search of state st (a copy it may play on), when ab is NULL. */
    gv_search_result (*search)(void *st, const gv_limits *lim, gv_search_ctl *ctl,
                               gv_info_fn info, void *info_ctx);
    /* The 1-ply baseline player ("greedy"), when the game has one of its own; NULL: the
     * move whose position ab->eval likes best. */
    gv_move (*greedy)(const void *st, uint64_t seed);
    /* Self-play adjudication: a game still going after this many plies is a draw (0: the
     * game always ends by itself); a side whose score stays below -resign_cp resigns
     * (0: never). */
    int selfplay_plies;
    int resign_cp;
    /* Time management (optional): about how many more plies -- both sides' moves -- the
     * game in state st may still last. A clock with no moves-to-go is spread over the
     * mover's half of them. NULL: 80 plies, 40 moves each, for games that end sooner than
     * that or not much later. */
    int (*plies_left)(const void *st);
    /* Weaker levels' blunder chances (optional): per mille, indexed by level 1..9 (entry 0
     * unused), that the level plays a seeded random legal move instead of its search's
     * choice. NULL: the engine's table (engine.c). */
    const int *blunder_permille;
    /* The bench positions, ended by one with depth == 0 and playouts == 0. */
    const gv_bench_pos *bench;
    /* The evaluation's weights for tuning (tools/tune); NULL: not tunable. */
    const gv_eval_tune *tune;
    /* The own search's parameters, for tuning from matches (tools/tune spsa); NULL:
     * none. */
    const gv_search_tune *search_tune;
} gv_ai;

/* Writes the name of weight i of t into buf: "field", or "field[k]" for an element of an
 * array (a tuner prints consecutive elements of one field as one array); "wI" when no
 * field holds it. */
void gv_tune_name(const gv_eval_tune *t, int i, char *buf, size_t len);

/* Moves to a forced result from a mate score (is_mate): > 0 the side to move mates in
 * that many of its own moves, < 0 it is mated in that many. Plies: gv_mate_plies. */
static inline int gv_mate_plies(int score)
{
    return score > 0 ? GV_MATE - score : -(GV_MATE + score);
}
static inline int gv_mate_moves(int score)
{
    return score > 0 ? (GV_MATE - score + 1) / 2 : -((GV_MATE + score) / 2);
}

/* ---- Transposition table (tt.c) ---------------------------------------------------- */
typedef struct gv_tt gv_tt;
/* Allocates a table of about mb megabytes (at least 1). Returns NULL if out of memory. */
gv_tt *gv_tt_new(size_t mb);
void gv_tt_free(gv_tt *tt);
void gv_tt_clear(gv_tt *tt);
size_t gv_tt_bytes(const gv_tt *tt);
/* Permille of the table used by the current search generation (UCI hashfull). */
int gv_tt_hashfull(const gv_tt *tt);

/* ---- Alpha-beta (ab.c) -------------------------------------------------------------
 * Iterative-deepening PVS on state st of game g (st is played on and restored) with
 * quiescence, null move, LMR, killers and history. With one thread, deterministic for a
 * fixed node limit and an equal table state. Levels below 10 search less and choose among
 * the best root moves as a weaker player would. With lim->threads > 1, helper threads
 * search copies of st at other depths and fill the shared table (Lazy SMP); the calling
 * thread's search gives the result, whose nodes count all threads. info (may be NULL)
 * gets one report per finished iteration (with MultiPV, one per line), on the calling
 * thread. Returns the result; result.best is 0 only when st is over. */
gv_search_result gv_ab_search(const gv_game *g, const gv_ab_hooks *h, void *st, gv_tt *tt,
                              const gv_limits *lim, gv_search_ctl *ctl, gv_info_fn info,
                              void *info_ctx);
/* The most threads gv_ab_search uses: GV_AB_MAX_THREADS, or 1 in a build without threads. */
int gv_ab_max_threads(void);

#endif
