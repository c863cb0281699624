/* Chu Shogi in XBoard's terms (chu_xboard.c): what the XBoard session asks of the game. */
#ifndef GV_CHU_XBOARD_H
#define GV_CHU_XBOARD_H

#include "proto/xboard_game.h"

extern const gv_xboard_game gv_chu_xboard;

#endif
