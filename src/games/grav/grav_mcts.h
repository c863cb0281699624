/* Grav AI players: max-n Monte-Carlo tree search for 2-6 players and a 1-ply greedy
 * baseline, both acting in every phase of the turn flow (grav.h). */
#ifndef GV_GRAV_MCTS_H
#define GV_GRAV_MCTS_H

#include <stdint.h>

#include "games/grav/grav.h"
#include "search/search.h"

/* Tunables of the search, a runtime option so that experiments need no rebuild. */
typedef struct gv_grav_mcts_params {
    int horizon;          /* placements per rollout after the tree (0: none, the leaf is
                             scored as it is; < 0: to the game's end) */
    double win_weight;    /* reward = (1 - w) * stone share + w * (1 if leading else 0) */
    double uct_c;         /* exploration constant (rewards are in 0..1) */
    int expand_visits;    /* an edge's node gets its own edges on this visit (>= 1) */
} gv_grav_mcts_params;

/* The parameters gv_grav_mcts uses (the measured best). */
void gv_grav_mcts_default_params(gv_grav_mcts_params *out);

/* The tunables from a vector in gv_grav_search_tune's order (horizon, win_weight, uct_c,
 * expand_visits): each value clamped to its range (NaN: the low end), integers rounded.
 * Returns how many values were out of range. */
int gv_grav_mcts_params_from(const double *v, gv_grav_mcts_params *out);

/* Chooses a move for the player to act in st (any phase) by Monte-Carlo tree search.
 * lim->nodes counts playouts (a descent of the tree and the leaf's score, with the
 * default horizon 0; see grav_mcts.c), lim->hard_ms and lim->soft_ms count from
 * ctl->start_ms (the search stops at either), lim->seed seeds every random choice (same
 * state, playout count and seed: same move and count), lim->level 1..10 (0 = 10) adds a
 * weaker player's imperfections (missed violations; at level 1 near-best root moves). All limits 0:
 * the search runs until ctl->stop is set. ctl may be NULL (no stop request; the clock
 * starts now). info (may be NULL) gets a report every 100 ms (or 1/8 of hard_ms, or of
 * lim->nodes when there is a node limit) and a last one at the end: depth = length of
 * the tree's best line, nodes = playouts, score = the mover's expected stone share x 1000,
 * pv = that line as legal moves (window answers and declarations included). Window
 * answers and declarations are decided without a search (nodes = 0), as is a turn with
 * a single choice. st is not changed. Returns best = 0 only when st has no legal move
 * (the game is over); the search's memory (at most about 32 MB of tree) is allocated and
 * freed inside (if it cannot be had, the greedy move is returned with nodes = 0). */
gv_search_result gv_grav_mcts(const grav_state *st, const gv_limits *lim, gv_search_ctl *ctl,
                              gv_info_fn info, void *info_ctx);
/* The same with explicit tunables (prm NULL: the defaults). */
gv_search_result gv_grav_mcts_ex(const grav_state *st, const gv_limits *lim, gv_search_ctl *ctl,
                                 gv_info_fn info, void *info_ctx,
                                 const gv_grav_mcts_params *prm);

/* The 1-ply greedy player, the comparison point for MCTS: places the non-violating stone
 * that earns the most bonus turns, then leaves the next player the fewest legal points
 * (ties broken by seed); passes when no point is legal; calls "Grav!" exactly on
 * violations; declares every bonus it can use; removes the stone whose removal leaves
 * it the most legal points. Returns a legal move of st, or 0 when the game is over. */
gv_move gv_grav_greedy(const grav_state *st, uint64_t seed);

/* The MCTS tunables for match-based tuning (gv_tune spsa); gv_grav_ai.search_tune. */
extern const gv_search_tune gv_grav_search_tune;

/* Grav's AI: MCTS, with the greedy player as its baseline. */
extern const gv_ai gv_grav_ai;

#endif
