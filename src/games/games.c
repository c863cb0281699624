/* The games this build knows: one line per game. Everything above the rules finds them
 * through the registry (src/game/registry.c) and their descriptors (src/game/game.h). */
#include "game/game.h"
#include "games/chu/chu_game.h"
#include "games/exac/exac_game.h"
#include "games/grav/grav_game.h"

static const gv_game *const built_in[] = {
    &gv_chu_game,
    &gv_exac_game,
    &gv_grav_game,
};

void gv_games_init(void)
{
    for (size_t i = 0; i < sizeof built_in / sizeof built_in[0]; i++)
        gv_game_register(built_in[i]);
}
