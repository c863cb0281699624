/* gravulien vectors GAME FILE: replays a game's test vectors (gv_game.vectors) and prints
 * one line per disagreement, then "N passed, M failed". */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "game/game.h"

int cli_vectors(int argc, char **argv)
{
    const gv_game *g = argc == 2 ? gv_game_find(argv[0]) : NULL;
    if (!g || !g->vectors) {
        /* The usage names the games that have vectors: "name", or "<a|b>" for several. */
        char names[256] = "";
        size_t o = 0;
        int n = 0;
        for (int i = 0; i < gv_game_count(); i++)
            if (gv_game_at(i)->vectors && o < sizeof names) {
                o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", n++ ? "|" : "",
                                      gv_game_at(i)->name);
            }
        return n > 1 ? cli_usage_error("usage: gravulien vectors <%s> FILE", names)
                     : cli_usage_error("usage: gravulien vectors %s FILE", n ? names : "GAME");
    }
    FILE *f = fopen(argv[1], "r");
    if (!f)
        return cli_usage_error("cannot open '%s'", argv[1]);
    long failed = g->vectors(f, stdout);
    fclose(f);
    return failed ? CLI_FAIL : CLI_OK;
}
