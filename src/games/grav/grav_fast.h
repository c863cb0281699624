/* A fast model of the turn flow for AI players, where every player calls "Grav!" exactly
 * on violations, equal to the full flow of grav_state.c under that assumption (tested). */
#ifndef GV_GRAV_FAST_H
#define GV_GRAV_FAST_H

#include <stdint.h>

#include "core/gv_core.h"
#include "games/grav/grav.h"

enum {
    GRAV_MAX_OFF = 4096,          /* points of the distance band: 2e(e+1) <= 3960 */
    GRAV_SIM_PASS = 0xFFFF,       /* model moves besides points (0..n*n-1) */
    GRAV_SIM_FORFEIT = 0xFFFE,
};

/* Phases of the model: a regular turn, a bonus turn, the game over. */
enum grav_sim_phase { GRAV_SIM_TURN, GRAV_SIM_BONUS, GRAV_SIM_OVER };

/* The placement rules of one game, unpacked for the fast tests. */
typedef struct grav_fast_rules {
    int n, a, b, c, d, e, own, smax;
} grav_fast_rules;

/* A state of the model. Only placements, passes and forfeits change it: a placement
 * stands and all its bonus turns are declared; there are no windows, declarations or
 * removals. */
typedef struct grav_sim {
    uint8_t phase, mover, passed, active;   /* phase: grav_sim_phase; passed, active: bit p-1 */
    int16_t ref;                            /* reference stone or -1 */
    uint16_t owed, stones;
    uint16_t count[GR_MAXP + 1];
    uint16_t skips[GR_MAXP];
    uint32_t turns;
    uint32_t occ[GR_MAXN], rev[GR_MAXN];    /* stones as row bitsets: bit x of row y, and
                                               the rows reversed (bit 31 - x) */
    uint8_t board[GR_POINTS];
} grav_sim;

/* What does not change during a game: rules, players, options and the distance band. */
typedef struct grav_model {
    grav_fast_rules r;
    int nn, players;
    grav_options opt;
    uint32_t max_turns;
    int noff, sample_board;                 /* sample_board: the band is the whole board */
    int8_t offx[GRAV_MAX_OFF], offy[GRAV_MAX_OFF];
} grav_model;

/* ---- Placement rules, fast ------------------------------------------------------------ */

/* Nonzero iff placing `player` on empty point q of board (with reference stone ref, -1
 * when none) violates a rule; agrees with grav_violations != 0. */
int grav_fast_violates(const uint8_t *board, int n, const grav_params *prm,
                       const grav_options *opt, int ref, int q, int player);
/* The bonus count of the stone on q: the same number as grav_bonus_count, computed on q's
 * group of touching stones only. */
int grav_fast_bonus(const uint8_t *board, int n, const grav_options *opt, int q);

/* Does the pending stone of a position in the window phase violate? Judged on the board
 * without it, against the reference stone before it (the referee's verdict is not read).
 * Returns the violation bits (0 when legal, or when p is not in the window phase). */
unsigned grav_pending_violations(const grav_pos *p);

/* ---- The model ------------------------------------------------------------------------- */

/* Fills m for the game of p (m is the caller's; nothing is allocated). */
void grav_model_init(grav_model *m, const grav_pos *p);
/* The model of a core position in a regular or bonus turn (any other phase gives a state
 * whose game is over). */
void grav_sim_from_pos(const grav_model *m, const grav_pos *p, grav_sim *s);
/* The mover places a stone on the empty, non-violating point q; it stands and its bonus
 * turns are all declared (bounded as the core bounds them), then the turn passes on as in
 * the core (skips, max_turns). k: the bonus count of the placement when known, else -1.
 * Returns the bonus count. */
int grav_sim_place(const grav_model *m, grav_sim *s, int q, int k);
/* The mover passes its regular turn (the game ends when every active player has passed
 * since the last placement). */
void grav_sim_pass(const grav_model *m, grav_sim *s);
/* The mover gives up the rest of its owed bonus turns (a bonus turn without a
 * non-violating point). */
void grav_sim_forfeit(const grav_model *m, grav_sim *s);
/* Plays a model move (a point, GRAV_SIM_PASS or GRAV_SIM_FORFEIT); k as for
 * grav_sim_place. Returns the bonus count (0 for a pass or forfeit). */
int grav_sim_apply(const grav_model *m, grav_sim *s, int mv, int k);
/* Writes every model move of s to out (room for n*n + 1): the non-violating points, then
 * a pass (regular turn) or a forfeit (a bonus turn without such a point). Returns their
 * number (0 when the game is over). */
int grav_sim_moves(const grav_model *m, const grav_sim *s, uint16_t *out);
/* A random non-violating point for the mover: `tries` random points of the distance
 * band (of the board without a reference), then a scan from a random start. Returns the
 * point, or -1 when there is none. */
int grav_sim_pick(const grav_model *m, const grav_sim *s, gv_rng *rng, int tries);
/* The bonus count the mover's stone on the empty point q would earn, without placing it
 * (s is changed during the call and restored before it returns). */
int grav_sim_bonus_of(const grav_model *m, grav_sim *s, int q);
/* The bonus turns the mover is owed after placing a stone that earns k: those it still
 * owes plus k, bounded by the room on the board; 0 when the turn then passes on. */
int grav_sim_owed_after(const grav_model *m, const grav_sim *s, int k);

#endif
