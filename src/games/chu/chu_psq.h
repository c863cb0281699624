/* Chu Shogi material and piece-square weights: the part of the evaluation (chu_eval.c)
 * that the rules core keeps summed over the board (pos.psq; chu_psq in chu.h). chu_psq.c
 * builds the tables from these; the evaluation takes its move-ordering values from the
 * same material column, and its weights struct (gv_chu_weights) its defaults from all of
 * them. */
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

/* Per kind, by relative row 0..11: positional value (ROW_), and the share in 64ths of
 * the promotion gain a promotable piece is worth (FRAC_): most just outside the zone
 * (it may promote on entering), less inside it (only a capture promotes there), little
 * at home; sliders promote more easily than steppers. A Pawn or Lance on row 0 did not
 * promote and can never move again ("dead"). By owner's column 0..11: COL_. */
#define ROW_PAWN   -90, 20, 18, 16, 10, 6, 3, 1, 0, 0, 0, 0
#define FRAC_PAWN  0, 40, 20, 14, 10, 6, 4, 4, 4, 4, 4, 4
#define COL_PAWN   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define ROW_LANCE  -280, 6, 6, 6, 4, 2, 0, 0, 0, 0, 0, 0
#define FRAC_LANCE 0, 20, 20, 20, 22, 18, 14, 12, 12, 12, 12, 12
#define COL_LANCE  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define ROW_STEP   12, 14, 16, 16, 14, 10, 6, 3, 0, 0, 0, 0
#define FRAC_STEP  8, 9, 10, 12, 18, 12, 7, 5, 4, 4, 4, 4
#define COL_STEP   0, 2, 4, 6, 8, 8, 8, 8, 6, 4, 2, 0
#define ROW_SLIDE  8, 8, 8, 8, 6, 6, 6, 4, 4, 2, 0, -6
#define FRAC_SLIDE 12, 12, 12, 12, 24, 20, 18, 16, 14, 12, 12, 12
#define COL_SLIDE  0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0
#define ROW_LION   10, 20, 30, 30, 30, 28, 24, 18, 12, 6, 0, 0
#define FRAC_LION  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define COL_LION   0, 4, 8, 12, 16, 18, 18, 16, 12, 8, 4, 0
#define ROW_KING   -160, -150, -140, -130, -120, -100, -80, -60, -40, -20, -5, 0
#define FRAC_KING  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
#define COL_KING   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0

#endif
