/* Grav's GTP commands (grav_gtp.c): what the GTP session asks of the game. */
#ifndef GV_GRAV_GTP_H
#define GV_GRAV_GTP_H

#include "proto/gtp_game.h"

extern const gv_gtp_game gv_grav_gtp;

#endif
