/* Grav behind the common game interface. */
#ifndef GV_GRAV_GAME_H
#define GV_GRAV_GAME_H

#include "game/game.h"

extern const gv_game gv_grav_game;

#endif
