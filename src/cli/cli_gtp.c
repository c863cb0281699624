/* gravulien gtp: a GTP v2 engine for Grav on stdin/stdout (see docs/gtp.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/gv_core.h"
#include "proto/gtp.h"

static const char gtp_usage[] =
    "usage: gravulien gtp [--level 1..10] [--seed S] [--hash MB] [--player search|greedy]\n"
    "       [--size N] [--game-seed S] [--bonus sync|full] [--movetime MS]";

int cli_gtp(int argc, char **argv)
{
    gv_gtp_config cfg;
    gv_gtp_config_default(&cfg);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            puts(gtp_usage);
            return CLI_OK;
        }
        if (!v)
            return cli_usage_error("gtp: %s needs a value (try 'gravulien gtp --help')", a);
        i++;
        if (!strcmp(a, "--level") && gv_parse_int(v, 1, 10, &n, NULL, 0) == 0)
            cfg.level = (int)n;
        else if (!strcmp(a, "--seed") && gv_parse_u64(v, &cfg.seed) == 0)
            ;
        else if (!strcmp(a, "--hash") && gv_parse_int(v, 1, 4096, &n, NULL, 0) == 0)
            cfg.hash_mb = (int)n;
        else if (!strcmp(a, "--player") && (!strcmp(v, "search") || !strcmp(v, "greedy")))
            cfg.greedy = !strcmp(v, "greedy");
        else if (!strcmp(a, "--size") && gv_parse_int(v, 5, 23, &n, NULL, 0) == 0)
            cfg.size = (int)n;
        else if (!strcmp(a, "--game-seed") && gv_parse_u64(v, &cfg.game_seed) == 0)
            ;
        else if (!strcmp(a, "--bonus") && (!strcmp(v, "sync") || !strcmp(v, "full")))
            cfg.bonus_full = !strcmp(v, "full");
        else if (!strcmp(a, "--movetime") && gv_parse_int(v, 1, 3600000, &n, NULL, 0) == 0)
            cfg.movetime_ms = n;
        else
            return cli_usage_error("gtp: bad option '%s %s' (try 'gravulien gtp --help')", a, v);
    }
    char err[GV_ERRLEN];
    gv_gtp *s = gv_gtp_new(&cfg, err, sizeof err);
    if (!s)
        return cli_usage_error("gtp: %s", err);
    gv_gtp_run(s, stdin, stdout);
    gv_gtp_free(s);
    return CLI_OK;
}
