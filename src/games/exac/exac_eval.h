/* Alpha-beta hooks for Exaç: a bitboard evaluation, captures for quiescence, Yachi
 * threats (in_check), null move and a cheap end test. */
#ifndef GV_EXAC_EVAL_H
#define GV_EXAC_EVAL_H

#include <stdint.h>

#include "games/exac/exac.h"
#include "search/search.h"

/* The hooks alpha-beta uses for game "exac"; they take an exac_state *.
 *   eval          gv_exac_eval with gv_exac_weights_default (centipawns, pawn 100).
 *   noisy_moves   captures onto squares the opponent's pieces cannot reach, plus every
 *                 capture that wins at once (not all captures: see exac_eval.c).
 *   victim_value  0 for a quiet move; GV_EXAC_WIN_VICTIM for a capture that wins at once;
 *                 else the victim's worth at its side's piece count (100-250).
 *   in_check      the mover has a Yachi that the opponent could capture (topple) if it
 *                 were to move now.
 *   null move     refused below 6 pieces to move and when the mover already has camp
 *                 parity; flips side, key and move number, clears toppled, quiet + 1;
 *                 the history ring and ply are untouched; undo = the whole exac_pos.
 *   quick_end     every ending but "no legal move": rules 1-3 for the last mover,
 *                 repetition, quiet limit. */
extern const gv_ab_hooks gv_exac_hooks;
extern const gv_ai gv_exac_ai;   /* alpha-beta with these hooks */

enum {
    GV_EXAC_PAWN = 100,        /* an ordinary piece in the middle game (hooks.pawn) */
    GV_EXAC_WIN = 9000,        /* eval when the side to move can win on this move */
    GV_EXAC_WIN_VICTIM = 20000,/* victim_value of a capture that wins the game */
    GV_EXAC_PAR_LO = -3,       /* parity tables: index d - GV_EXAC_PAR_LO, d clamped */
    GV_EXAC_PAR_HI = 6,
    GV_EXAC_PAR_SPAN = GV_EXAC_PAR_HI - GV_EXAC_PAR_LO + 1,
};

/* Every weight of the evaluation, in centipawns. The hooks use gv_exac_weights_default;
 * gv_exac_eval takes any set (experiments, tuning). */
typedef struct gv_exac_weights {
    int material[EX_SQUARES + 1];      /* a side's material by its number of pieces */
    int mobility;                      /* per square a side's pieces can move to */
    int tempo;                         /* for the side to move */
    int threat[3];                     /* penalty by the number (0, 1, 2+) of ways the
                                          opponent would win at once if the mover passed */
    int hanging;                       /* per piece of the mover attacked and not defended */
    int par_attack[GV_EXAC_PAR_SPAN];  /* mover's camp-parity chances by d = a - b */
    int par_defend[GV_EXAC_PAR_SPAN];  /* penalty: the opponent's chances, by its d */
    int par_linear;                    /* per unit of (opponent's d - mover's d), d in 0..12 */
    int lapah, potersin, adrib, yachi; /* per piece having that role */
    int quiet_fade;                    /* plies before the quiet limit where eval fades */
} gv_exac_weights;

extern const gv_exac_weights gv_exac_weights_default;

/* Static evaluation of p (a position whose game is not over) in centipawns for the side
 * to move, with weights w. GV_EXAC_WIN when the side to move has a move that wins at
 * once (topples a Yachi, leaves the opponent three pieces, or makes camp parity). */
int gv_exac_eval(const exac_pos *p, const gv_exac_weights *w);

/* Every square the pieces of `side` standing on `from` could move to in p if side were
 * to move, friendly squares included (the squares they defend): the union over the
 * pieces' roles, as exac_gen_moves computes them, built with whole-board shifts. */
uint64_t gv_exac_reach(const exac_pos *p, int side, uint64_t from);

/* Would `side`, if it were to move in p, have a move that wins at once by camp parity
 * (rule 2 of exac.md)? Exact: the same answer as trying every move of exac_gen_moves. */
int gv_exac_parity_win_now(const exac_pos *p, int side);

#endif
