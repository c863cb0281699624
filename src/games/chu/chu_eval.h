/* Chu Shogi evaluation and alpha-beta hooks (eval, noisy moves, move values, null move). */
#ifndef GV_CHU_EVAL_H
#define GV_CHU_EVAL_H

#include "games/chu/chu.h"
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

/* Every weight of the evaluation, in centipawns. The hooks use the compile-time tables
 * built from the same numbers (chu_psq.h, and the tunables of chu_eval.c), which
 * gv_chu_weights_default holds; gv_chu_eval takes any set (experiments, tuning).
 * Row and column weights are by kind (the last column of CHU_PSQ_PIECES) and by the
 * owner's relative row (0 = the far edge, the promotion side) or column. */
typedef struct gv_chu_weights {
    int material[CHU_NTYPES];   /* by piece type (royals 0) */
    int promotion[CHU_NTYPES];  /* the gain of promoting (0: cannot promote) */
    int row_pawn[12], frac_pawn[12], col_pawn[12];     /* frac: 64ths of the promotion */
    int row_lance[12], frac_lance[12], col_lance[12];  /* gain the piece is worth there */
    int row_step[12], frac_step[12], col_step[12];
    int row_slide[12], frac_slide[12], col_slide[12];
    int row_lion[12], frac_lion[12], col_lion[12];
    int row_king[12], frac_king[12], col_king[12];
    int mobility;               /* per square a major slider reaches, two at most per ray */
    int lion_hit_lesser;        /* mover's Lion attacked by a piece worth less than it */
    int lion_hit_hanging;       /* mover's Lion attacked by a Lion and unprotected */
    int danger_quad;            /* king danger = units + units^2 / danger_quad (> 0) */
    int tempo;                  /* for the side to move */
} gv_chu_weights;

extern const gv_chu_weights gv_chu_weights_default;

/* Static evaluation of p in centipawns for the side to move, with weights w: what the
 * hooks' eval gives when w is gv_chu_weights_default, with the material and piece-square
 * sum computed from w instead of read from p->psq. */
int gv_chu_eval(const chu_pos *p, const gv_chu_weights *w);

#endif
