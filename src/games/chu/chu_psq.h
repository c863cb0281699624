/* Chu Shogi material and piece-square weights: the part of the evaluation
 * (search/chu_eval.c) that the rules core keeps summed over the board (pos.psq; chu_psq
 * in chu.h). chu_psq.c builds the tables from these and its row and column weights; the
 * evaluation takes its move-ordering values from the same material column. */
#ifndef GV_CHU_PSQ_H
#define GV_CHU_PSQ_H

#include "games/chu/chu.h"

/* Per type: material (the seed's averages x 100), promotion gain (value of the promoted
 * piece - value; 0: cannot promote) and kind (the row and column weights of chu_psq.c
 * that apply). */
#define CHU_PSQ_PIECES(X)                                \
    X(CT_LANCE,                    300,   400, LANCE)    \
    X(CT_LEOPARD,                  300,   200, STEP)     \
    X(CT_COPPER,                   200,   200, STEP)     \
    X(CT_SILVER,                   200,   200, STEP)     \
    X(CT_GOLD,                     300,   300, STEP)     \
    X(CT_KING,                       0,     0, KING)     \
    X(CT_ELEPHANT,                 300,   200, STEP)     \
    X(CT_CHARIOT,                  300,   200, SLIDE)    \
    X(CT_BISHOP,                   500,   200, SLIDE)    \
    X(CT_TIGER,                    300,   300, STEP)     \
    X(CT_PHOENIX,                  300,   900, STEP)     \
    X(CT_KIRIN,                    300,  1700, STEP)     \
    X(CT_SIDE,                     400,   400, SLIDE)    \
    X(CT_VERTICAL,                 400,   400, SLIDE)    \
    X(CT_ROOK,                     600,   200, SLIDE)    \
    X(CT_HORSE,                    700,   300, SLIDE)    \
    X(CT_DRAGON,                   800,   300, SLIDE)    \
    X(CT_QUEEN,                   1200,     0, SLIDE)    \
    X(CT_LION,                    2000,     0, LION)     \
    X(CT_PAWN,                     100,   200, PAWN)     \
    X(CT_GOBETWEEN,                100,   200, STEP)     \
    X(CT_LANCE + CHU_PROMO,        700,     0, SLIDE)    \
    X(CT_LEOPARD + CHU_PROMO,      500,     0, SLIDE)    \
    X(CT_COPPER + CHU_PROMO,       400,     0, SLIDE)    \
    X(CT_SILVER + CHU_PROMO,       400,     0, SLIDE)    \
    X(CT_GOLD + CHU_PROMO,         600,     0, SLIDE)    \
    X(CT_ELEPHANT + CHU_PROMO,     500,     0, STEP)     \
    X(CT_CHARIOT + CHU_PROMO,      500,     0, SLIDE)    \
    X(CT_BISHOP + CHU_PROMO,       700,     0, SLIDE)    \
    X(CT_TIGER + CHU_PROMO,        600,     0, SLIDE)    \
    X(CT_PHOENIX + CHU_PROMO,     1200,     0, SLIDE)    \
    X(CT_KIRIN + CHU_PROMO,       2000,     0, LION)     \
    X(CT_SIDE + CHU_PROMO,         800,     0, SLIDE)    \
    X(CT_VERTICAL + CHU_PROMO,     800,     0, SLIDE)    \
    X(CT_ROOK + CHU_PROMO,         800,     0, SLIDE)    \
    X(CT_HORSE + CHU_PROMO,       1000,     0, SLIDE)    \
    X(CT_DRAGON + CHU_PROMO,      1100,     0, SLIDE)    \
    X(CT_PAWN + CHU_PROMO,         300,     0, STEP)     \
    X(CT_GOBETWEEN + CHU_PROMO,    300,     0, STEP)
/* The promoted types: White Horse, Bishop, Side Mover, Vertical Mover, Rook, Prince
 * (royal), Whale, Dragon Horse, Flying Stag, Queen, Lion, Free Boar, Flying Ox, Dragon
 * King, Horned Falcon, Soaring Eagle, Gold, Drunk Elephant. */

#endif
