/* Grav's test vectors (grav-vectors.md's format), the game's gv_game.vectors. */
#ifndef GV_GRAV_VECTORS_H
#define GV_GRAV_VECTORS_H

#include <stdio.h>

/* Replays the vectors read from in: one line per disagreement on out, then "N passed, M
 * failed". Returns the number of disagreements, or -1 when out of memory. */
long grav_vectors(FILE *in, FILE *out);

#endif
