/* gravulien vectors GAME FILE: replays a game's test vectors (gv_game.vectors) and prints
 * one line per disagreement, then "N passed, M failed". */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "game/game.h"

static int has_vectors(const gv_game *g)
{
    return g->vectors != NULL;
}

int cli_vectors(int argc, char **argv)
{
    const gv_game *g = argc == 2 ? gv_game_find(argv[0]) : NULL;
    if (!g || !g->vectors) {
        char game_arg[256];
        return cli_usage_error("usage: gravulien vectors %s FILE",
                               cli_game_arg(game_arg, sizeof game_arg, has_vectors));
    }
    FILE *f = fopen(argv[1], "r");
    if (!f)
        return cli_usage_error("cannot open '%s'", argv[1]);
    long failed = g->vectors(f, stdout);
    fclose(f);
    return failed ? CLI_FAIL : CLI_OK;
}
