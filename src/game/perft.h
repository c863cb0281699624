/* Generic perft over the game interface: counts leaf nodes, making every move. */
#ifndef GV_PERFT_H
#define GV_PERFT_H

#include <stdint.h>

#include "game/game.h"

/* Counts the leaves of the legal-move tree to `depth` plies from st (restored on
 * return). A position where the game has ended is a leaf. */
uint64_t gv_perft(const gv_game *g, void *st, int depth);

#endif
