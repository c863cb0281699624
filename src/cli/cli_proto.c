/* gravulien usi / gravulien xboard: the engine protocols on standard input and output. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/gv_core.h"
#include "proto/usi.h"
#include "proto/xboard.h"

static int speaks_xboard(const gv_game *g)
{
    return (g->protocols & GV_PROTO_XBOARD) != 0;
}

/* The XBoard variant of the registered game named v, when it speaks XBoard; or NULL. */
static const char *xboard_variant(const char *v)
{
    const gv_game *g = gv_game_find(v);
    return g && speaks_xboard(g) ? g->xboard_variant : NULL;
}

/* Reads the options every protocol command takes; returns the index of a bad one, or 0. */
static int proto_options(int argc, char **argv, int *level, int *hash, int *threads,
                         const char **rules, const char **variant, const char **exac_rules)
{
    for (int i = 0; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (!v)
            return i + 1;
        if (!strcmp(a, "--level") && gv_parse_int(v, 1, 10, &n, NULL, 0) == 0)
            *level = (int)n;
        else if (!strcmp(a, "--hash") && gv_parse_int(v, 1, 4096, &n, NULL, 0) == 0)
            *hash = (int)n;
        else if (!strcmp(a, "--threads") && gv_parse_int(v, 1, 1024, &n, NULL, 0) == 0)
            *threads = (int)n;
        else if (!strcmp(a, "--rules"))
            *rules = v;
        else if (variant && !strcmp(a, "--variant") && xboard_variant(v))
            *variant = xboard_variant(v);
        else if (exac_rules && !strcmp(a, "--exac-rules"))
            *exac_rules = v;
        else
            return i + 1;
    }
    return 0;
}

int cli_usi(int argc, char **argv)
{
    gv_usi_opts o;
    memset(&o, 0, sizeof o);
    const char *rules = NULL;
    int bad = proto_options(argc, argv, &o.level, &o.hash_mb, &o.threads, &rules, NULL, NULL);
    if (bad)
        return cli_usage_error("usi: bad option '%s' (usage: gravulien usi [--level 1..10] "
                               "[--hash MB] [--threads N] [--rules k=v,...])", argv[bad - 1]);
    if (rules)
        snprintf(o.rules_now, sizeof o.rules_now, "%s", rules);
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    return gv_usi_session(STDIN_FILENO, stdout, &o) == 0 ? CLI_OK : CLI_FAIL;
}

int cli_xboard(int argc, char **argv)
{
    gv_xboard_opts o;
    memset(&o, 0, sizeof o);
    int bad = proto_options(argc, argv, &o.level, &o.hash_mb, &o.threads, &o.rules[0],
                            &o.variant, &o.rules[1]);
    if (bad) {
        char variants[256];
        gv_game_names(variants, sizeof variants, "|", 0, speaks_xboard);
        return cli_usage_error("xboard: bad option '%s' (usage: gravulien xboard [--level 1..10] "
                               "[--hash MB] [--threads N] [--variant %s] [--rules k=v,...] "
                               "[--exac-rules k=v,...])", argv[bad - 1], variants);
    }
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    return gv_xboard_session(STDIN_FILENO, stdout, &o) == 0 ? CLI_OK : CLI_FAIL;
}
