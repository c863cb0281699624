/* Chu Shogi behind the common game interface. */
#ifndef GV_CHU_GAME_H
#define GV_CHU_GAME_H

#include "game/game.h"

extern const gv_game gv_chu_game;
void gv_chu_init_tables(void);

#endif
