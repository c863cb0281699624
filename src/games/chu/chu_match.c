/* Chu Shogi for engine matches (match/match.h): how long a game may run and what engines
 * are known to play. Its moves and FEN in XBoard's terms are in chu_xboard.c. */
#include "games/chu/chu_match.h"
#include "match/match.h"

const gv_match_game gv_chu_match = {
    .max_plies = 600,
    /* HaChu makes a Pawn or Lance on the last rank promote, knows no bare-king rule and
     * has no repetition rule of ours (docs/match.md). */
    .engine_name = "HaChu",
    .engine_rules = "last_rank=must,bare_king=off,repetition=off",
};
