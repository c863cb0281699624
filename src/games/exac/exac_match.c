/* Exaç for engine matches (match/match.h): how long a game may run. Its moves and FEN in
 * XBoard's terms are in exac_xboard.c. */
#include "games/exac/exac_match.h"
#include "match/match.h"

const gv_match_game gv_exac_match = {
    .max_plies = 300,
};
