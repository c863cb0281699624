/* Exaç in XBoard's terms (exac_xboard.c): what the XBoard session asks of the game. */
#ifndef GV_EXAC_XBOARD_H
#define GV_EXAC_XBOARD_H

#include "proto/xboard_game.h"

extern const gv_xboard_game gv_exac_xboard;

#endif
