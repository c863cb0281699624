/* What engine-against-engine runners share (`selfplay` in process, `match` over pipes):
 * seeded random openings and the score of a match with its interval and Elo. */
#ifndef GV_MATCH_STATS_H
#define GV_MATCH_STATS_H

#include <stdint.h>

#include "game/game.h"

/* A match result seen from one player, with a 95% interval (normal approximation over the
 * game results) and the Elo differences those scores mean. */
typedef struct match_score {
    int wins, draws, losses, games;
    double score, lo, hi;          /* fractions in [0, 1] */
    double elo, elo_lo, elo_hi;    /* clamped to +-1320 (scores of 0.05% and 99.95%) */
} match_score;

void match_score_compute(match_score *s, int wins, int draws, int losses);

/* Draws up to `plies` random legal moves from seed, played one after another from start (a
 * state of g, left as it is: they are played on a copy), skipping moves that resign or
 * pass, end the game or leave the opponent a win in one move. Writes the moves into out
 * (room for `plies`) and returns their count (fewer when no suitable move turns up), or
 * -1 when out of memory. */
int match_random_opening(const gv_game *g, const void *start, int plies, uint64_t seed,
                         gv_move *out);

/* Reads a time control "BASE+INC" or "BASE" in seconds (decimals allowed; BASE > 0) into
 * milliseconds. Returns 0, or -1 if s is not one. */
int match_parse_tc(const char *s, int64_t *base_ms, int64_t *inc_ms);

#endif
