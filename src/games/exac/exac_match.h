/* Exaç for engine matches (match/match.h): its XBoard moves. */
#ifndef GV_EXAC_MATCH_H
#define GV_EXAC_MATCH_H

struct gv_match_game;
extern const struct gv_match_game gv_exac_match;

#endif
