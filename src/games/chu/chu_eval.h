/* Chu Shogi evaluation and alpha-beta hooks (eval, noisy moves, move values, null move). */
#ifndef GV_CHU_EVAL_H
#define GV_CHU_EVAL_H

#include "search/search.h"

/* The hooks of game "chu"; every void * is a chu_state *. Eval is in centipawns
 * (Pawn = CHU_EVAL_PAWN) for the side to move and includes CHU_EVAL_TEMPO. */
extern const gv_ab_hooks gv_chu_hooks;
extern const gv_ai gv_chu_ai;   /* alpha-beta with these hooks */

enum {
    CHU_EVAL_PAWN = 100,          /* value of a Pawn */
    CHU_EVAL_TEMPO = 12,          /* bonus of the side to move */
    CHU_EVAL_ROYAL = 3000,        /* victim_value / mover_value of a King or Prince */
    CHU_EVAL_WIN_VICTIM = 20000,  /* victim_value of the last royal (a capture that wins) */
};

/* Material value in centipawns of a piece type (1..42, promoted types included) as the
 * move-ordering hooks use it: the seed's average values x 100, royals CHU_EVAL_ROYAL.
 * Returns 0 for CT_NONE or an out-of-range type. */
int gv_chu_piece_value(int type);

#endif
