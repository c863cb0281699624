/* Chu Shogi piece-square tables (chu_psq in chu.h): material, promotion potential and
 * the row and column weights of the evaluation, by piece byte, which make and unmake keep
 * summed over the board (pos.psq). The evaluation (search/chu_eval.c) has its other
 * weights; the material column is in chu_psq.h. */
#include <stdint.h>

#include "games/chu/chu.h"
#include "games/chu/chu_psq.h"

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

/* ---- Tables built from the weights at compile time ------------------------------ */

#define APPLY(m, ...) m(__VA_ARGS__)
/* Material + row value + promotion share of a piece worth v with promotion gain g. */
#define RV(v, g, p, f) ((v) + (p) + (g) * (f) / 64)
/* A 16-entry line indexed by the board row (sq >> 4) or column (sq & 15), borders 0:
 * Sente reads its relative rows / columns in board order, Gote in reverse and negated,
 * so that the sum over the board is Sente's score. */
#define ROWS_S(v, g, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, f0, f1, f2, f3, f4,  \
               f5, f6, f7, f8, f9, f10, f11)                                               \
    {0, 0, RV(v, g, p0, f0), RV(v, g, p1, f1), RV(v, g, p2, f2), RV(v, g, p3, f3),         \
     RV(v, g, p4, f4), RV(v, g, p5, f5), RV(v, g, p6, f6), RV(v, g, p7, f7),               \
     RV(v, g, p8, f8), RV(v, g, p9, f9), RV(v, g, p10, f10), RV(v, g, p11, f11), 0, 0}
#define ROWS_G(v, g, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, f0, f1, f2, f3, f4,  \
               f5, f6, f7, f8, f9, f10, f11)                                               \
    {0, 0, -RV(v, g, p11, f11), -RV(v, g, p10, f10), -RV(v, g, p9, f9), -RV(v, g, p8, f8),  \
     -RV(v, g, p7, f7), -RV(v, g, p6, f6), -RV(v, g, p5, f5), -RV(v, g, p4, f4),           \
     -RV(v, g, p3, f3), -RV(v, g, p2, f2), -RV(v, g, p1, f1), -RV(v, g, p0, f0), 0, 0}
#define COLS_S(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11) \
    {0, 0, c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, 0, 0}
#define COLS_G(c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11) \
    {0, 0, -(c11), -(c10), -(c9), -(c8), -(c7), -(c6), -(c5), -(c4), -(c3), -(c2), -(c1), -(c0), 0, 0}

/* Indexed by the piece byte (type | colour). */
#define ROWTAB(t, v, g, kind)                                      \
    [t] = APPLY(ROWS_S, v, g, ROW_##kind, FRAC_##kind),            \
    [(t) | CHU_GOTE] = APPLY(ROWS_G, v, g, ROW_##kind, FRAC_##kind),
#define COLTAB(t, v, g, kind)                                      \
    [t] = APPLY(COLS_S, COL_##kind), [(t) | CHU_GOTE] = APPLY(COLS_G, COL_##kind),
const int16_t chu_psq_row[128][16] = {CHU_PSQ_PIECES(ROWTAB)};
const int16_t chu_psq_col[128][16] = {CHU_PSQ_PIECES(COLTAB)};
