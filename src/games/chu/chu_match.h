/* Chu Shogi for engine matches (match/match.h): its XBoard moves and engines' rules. */
#ifndef GV_CHU_MATCH_H
#define GV_CHU_MATCH_H

struct gv_match_game;
extern const struct gv_match_game gv_chu_match;

#endif
