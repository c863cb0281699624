/* Chu Shogi for engine matches (match/match.h): its XBoard and USI moves. */
#ifndef GV_CHU_MATCH_H
#define GV_CHU_MATCH_H

struct gv_match_game;
extern const struct gv_match_game gv_chu_match;

#endif
