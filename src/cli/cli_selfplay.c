/* gravulien selfplay: the command line of self-play (src/match/selfplay.c plays it). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/gv_core.h"
#include "engine/engine.h"
#include "match/match_stats.h"
#include "match/selfplay.h"

int cli_selfplay(int argc, char **argv)
{
    if (argc < 1) {
        char game_arg[256];
        return cli_usage_error("usage: gravulien selfplay %s [--a SPEC] [--b SPEC] [--games N] ...",
                               cli_game_arg(game_arg, sizeof game_arg, cli_has_ai));
    }
    const gv_game *g = gv_game_find(argv[0]);
    if (!g || !g->ai) {
        char known[256];
        gv_game_names(known, sizeof known, ", ", 0, cli_has_ai);
        return cli_usage_error("unknown game '%s' (known: %s)", argv[0], known);
    }
    selfplay_spec mt;
    selfplay_spec_init(&mt, g);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (!strcmp(a, "--quiet")) {
            mt.verbose = 0;
            continue;
        }
        if (!v)
            return cli_usage_error("selfplay: %s needs a value", a);
        i++;
        if (!strcmp(a, "--a") || !strcmp(a, "--b")) {
            if (sp_parse_player(v, &mt.p[a[2] == 'b']) != 0)
                return cli_usage_error("selfplay: bad player '%s' (level=N[,nodes=N][,movetime=MS][,threads=N] or greedy)", v);
        } else if (!strcmp(a, "--games") && gv_parse_int(v, 1, 100000, &n, NULL, 0) == 0) {
            mt.games = (int)n;
        } else if (!strcmp(a, "--openings") && gv_parse_int(v, 0, 100, &n, NULL, 0) == 0) {
            mt.openings = (int)n;
        } else if (!strcmp(a, "--max-plies") && gv_parse_int(v, 0, 100000, &n, NULL, 0) == 0) {
            mt.max_plies = (int)n;
        } else if (!strcmp(a, "--concurrency") && gv_parse_int(v, 1, 64, &n, NULL, 0) == 0) {
            mt.concurrency = (int)n;
        } else if (!strcmp(a, "--hash") && gv_parse_int(v, 1, 4096, &n, NULL, 0) == 0) {
            mt.hash_mb = (int)n;
        } else if (!strcmp(a, "--resign") && gv_parse_int(v, 0, 30000, &n, NULL, 0) == 0) {
            mt.resign_cp = (int)n;
        } else if (!strcmp(a, "--seed")) {
            if (gv_parse_u64(v, &mt.seed) != 0)
                return cli_usage_error("selfplay: bad seed '%s' (a whole number 0..2^64-1)", v);
        } else if (!strcmp(a, "--rules")) {
            mt.rules = v;
        } else if (!strcmp(a, "--tc")) {
            if (match_parse_tc(v, &mt.tc_base, &mt.tc_inc) != 0)
                return cli_usage_error("selfplay: bad time control '%s' (BASE+INC in seconds)", v);
        } else {
            return cli_usage_error("selfplay: bad option '%s %s'", a, v);
        }
    }
    char err[GV_ERRLEN];
    gv_engine *probe = gv_engine_new(g->name, mt.rules, err, sizeof err);
    if (!probe)
        return cli_usage_error("selfplay: %s", err);
    gv_engine_free(probe);
    return selfplay_main(&mt) == 0 ? CLI_OK : CLI_FAIL;
}
