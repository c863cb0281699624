/* Exaç behind the common game interface. */
#ifndef GV_EXAC_GAME_H
#define GV_EXAC_GAME_H

#include "game/game.h"

extern const gv_game gv_exac_game;
void gv_exac_init_tables(void);

#endif
