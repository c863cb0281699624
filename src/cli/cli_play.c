/* gravulien play: the command line of the terminal game (src/term/ plays it). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/gv_core.h"
#include "term/play.h"

static int has_term(const gv_game *g)
{
    return g->term != NULL;
}

static int parse_args(int argc, char **argv, play_config *a)
{
    char game_arg[256], play_usage[1024];
    snprintf(play_usage, sizeof play_usage,
             "usage: gravulien play %s [--you first|second|random|N] [--level 1..10]\n"
             "       [--seats human,ai:5,...] [--watch] [--hotseat] [--options k=v,...]\n"
             "       [--position TEXT] [--load FILE] [--movetime MS] [--delay MS] [--seed S]\n"
             "       [--pieces kanji|abbrev] [--ascii] [--flip]   (see docs/play.md)",
             cli_game_arg(game_arg, sizeof game_arg, has_term));
    memset(a, 0, sizeof *a);
    a->level = PLAY_DEFAULT_LEVEL;
    a->movetime_ms = PLAY_DEFAULT_MOVETIME_MS;
    a->delay_ms = -1;
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (!strcmp(o, "--watch")) {
            a->watch = 1;
        } else if (!strcmp(o, "--hotseat")) {
            a->hotseat = 1;
        } else if (!strcmp(o, "--ascii")) {
            a->ascii = 1;
        } else if (!strcmp(o, "--flip")) {
            a->flip = 1;
        } else if (o[0] == '-' && o[1]) {
            if (!v)
                return cli_usage_error("play: %s needs a value\n%s", o, play_usage);
            i++;
            if (!strcmp(o, "--options") || !strcmp(o, "-o"))
                a->options = v;
            else if (!strcmp(o, "--position"))
                a->position = v;
            else if (!strcmp(o, "--load"))
                a->load = v;
            else if (!strcmp(o, "--seats"))
                a->seats = v;
            else if (!strcmp(o, "--you"))
                a->you = v;
            else if (!strcmp(o, "--pieces") && (!strcmp(v, "kanji") || !strcmp(v, "abbrev")))
                a->pieces = v;
            else if (!strcmp(o, "--level") && gv_parse_int(v, 1, 10, &n, NULL, 0) == 0)
                a->level = (int)n;
            else if (!strcmp(o, "--movetime") && gv_parse_int(v, 10, 3600000, &n, NULL, 0) == 0)
                a->movetime_ms = n;
            else if (!strcmp(o, "--delay") && gv_parse_int(v, 0, 60000, &n, NULL, 0) == 0)
                a->delay_ms = (int)n;
            else if (!strcmp(o, "--seed") && gv_parse_int(v, 0, 2147483647L, &n, NULL, 0) == 0) {
                a->seed = (uint64_t)n;
                a->has_seed = 1;
            } else
                return cli_usage_error("play: bad option '%s %s'\n%s", o, v, play_usage);
        } else if (!a->game) {
            a->game = o;
        } else {
            return cli_usage_error("play: unexpected argument '%s'\n%s", o, play_usage);
        }
    }
    if (!a->game && !a->load)
        return cli_usage_error("%s", play_usage);
    return 0;
}

int cli_play(int argc, char **argv)
{
    play_config c;
    if (parse_args(argc, argv, &c) != 0)
        return CLI_USAGE;
    return play_main(&c);
}
