/* Chu Shogi piece-square tables (chu_psq in chu.h): material, promotion potential and
 * the row and column weights of the evaluation, by piece byte, which make and unmake keep
 * summed over the board (pos.psq). The evaluation (chu_eval.c) has its other weights; the
 * material column and the row and column weights are in chu_psq.h. */
#include <stdint.h>

#include "games/chu/chu.h"
#include "games/chu/chu_psq.h"

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
