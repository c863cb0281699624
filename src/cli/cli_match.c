/* gravulien match: the command line of an engine match (src/match/ runs it). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/gv_core.h"
#include "match/match.h"
#include "match/match_stats.h"

static int parse_proto(const char *v, me_proto *p)
{
    if (!strcmp(v, "xboard") || !strcmp(v, "cecp"))
        *p = ME_XBOARD;
    else if (!strcmp(v, "usi"))
        *p = ME_USI;
    else
        return -1;
    return 0;
}

static int speaks_usi(const gv_game *g)
{
    return match_game_ok(g) && (g->protocols & GV_PROTO_USI);
}

int cli_match(int argc, char **argv)
{
    char list[256];
    if (argc < 1 || argv[0][0] == '-')
        return cli_usage_error(
            "usage: gravulien match %s --e1 CMD --e2 CMD [--p1 xboard|usi] [--p2 xboard|usi]\n"
            "       [--o1 NAME=VALUE ...] [--o2 NAME=VALUE ...]\n"
            "       [--games N] [--seed S] [--tc BASE+INC | --st SECONDS]\n"
            "       [--tc1|--tc2 BASE+INC] [--st1|--st2 SECONDS] (one engine's own time: odds)\n"
            "       [--openings PLIES] [--max-plies N] [--rules k=v,...] [--memory MB] "
            "[--refused loss|void]\n"
            "       [--handshake SECONDS] [--log FILE] [--quiet] [--verbose]",
            cli_game_arg(list, sizeof list, match_game_ok));
    const gv_game *g = gv_game_find(argv[0]);
    if (!match_game_ok(g)) {
        gv_game_names(list, sizeof list, ", ", 0, match_game_ok);
        return cli_usage_error("match: unknown game '%s' (known: %s)", argv[0], list);
    }
    match_spec m;
    match_spec_init(&m, g);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (!strcmp(a, "--quiet")) {
            m.quiet = 1;
            continue;
        }
        if (!strcmp(a, "--verbose")) {
            m.verbose = 1;
            continue;
        }
        if (!v)
            return cli_usage_error("match: %s needs a value", a);
        i++;
        if (!strcmp(a, "--e1") || !strcmp(a, "--e2")) {
            if (!*v)
                return cli_usage_error("match: %s needs a command", a);
            m.e[a[3] - '1'].cmd = v;
        } else if (!strcmp(a, "--p1") || !strcmp(a, "--p2")) {
            if (parse_proto(v, &m.e[a[3] - '1'].proto) < 0)
                return cli_usage_error("match: bad protocol '%s' (xboard or usi)", v);
        } else if (!strcmp(a, "--o1") || !strcmp(a, "--o2")) {
            match_engine *e = &m.e[a[3] - '1'];
            if (!strchr(v, '=') || *v == '=' || e->noptions == ME_MAX_OPTIONS)
                return cli_usage_error("match: bad engine option '%s' (NAME=VALUE, at most %d "
                                       "per engine)", v, ME_MAX_OPTIONS);
            e->options[e->noptions++] = v;
        } else if (!strcmp(a, "--games") && gv_parse_int(v, 1, 1000000, &n, NULL, 0) == 0) {
            m.games = (int)n;
        } else if (!strcmp(a, "--openings") && gv_parse_int(v, 0, 100, &n, NULL, 0) == 0) {
            m.openings = (int)n;
        } else if (!strcmp(a, "--max-plies") && gv_parse_int(v, 1, 100000, &n, NULL, 0) == 0) {
            m.max_plies = (int)n;
        } else if (!strcmp(a, "--memory") && gv_parse_int(v, 1, 65536, &n, NULL, 0) == 0) {
            m.mc.memory_mb = (int)n;
        } else if (!strcmp(a, "--handshake") && gv_parse_int(v, 1, 3600, &n, NULL, 0) == 0) {
            m.mc.handshake_ms = (int)n * 1000;
        } else if (!strcmp(a, "--seed")) {
            if (gv_parse_u64(v, &m.seed) != 0)
                return cli_usage_error("match: bad seed '%s' (a whole number 0..2^64-1)", v);
        } else if (!strcmp(a, "--tc")) {
            if (match_parse_tc(v, &m.mc.tc_base_ms, &m.mc.tc_inc_ms) != 0)
                return cli_usage_error("match: bad time control '%s' (BASE+INC in seconds)", v);
            m.mc.st_ms = 0;
        } else if (!strcmp(a, "--st")) {
            int64_t inc;
            if (match_parse_tc(v, &m.mc.st_ms, &inc) != 0 || inc)
                return cli_usage_error("match: bad time per move '%s' (seconds)", v);
            m.mc.tc_base_ms = m.mc.tc_inc_ms = 0;
        } else if ((!strcmp(a, "--tc1") || !strcmp(a, "--tc2"))) {
            /* Time odds: one engine's own clock. */
            int k = a[4] - '1';
            if (match_parse_tc(v, &m.time[k].tc_base_ms, &m.time[k].tc_inc_ms) != 0)
                return cli_usage_error("match: bad time control '%s' (BASE+INC in seconds)", v);
            m.time[k].st_ms = 0;
            m.time[k].set = 1;
        } else if ((!strcmp(a, "--st1") || !strcmp(a, "--st2"))) {
            int k = a[4] - '1';
            int64_t inc;
            if (match_parse_tc(v, &m.time[k].st_ms, &inc) != 0 || inc)
                return cli_usage_error("match: bad time per move '%s' (seconds)", v);
            m.time[k].tc_base_ms = m.time[k].tc_inc_ms = 0;
            m.time[k].set = 1;
        } else if (!strcmp(a, "--rules")) {
            m.rules = v;
        } else if (!strcmp(a, "--refused")) {
            if (strcmp(v, "loss") != 0 && strcmp(v, "void") != 0)
                return cli_usage_error("match: bad --refused '%s' (loss or void)", v);
            m.refused_is_loss = !strcmp(v, "loss");
        } else if (!strcmp(a, "--log")) {
            m.log_path = v;
        } else {
            return cli_usage_error("match: bad option '%s %s'", a, v);
        }
    }
    for (int k = 0; k < 2; k++) {
        if (!m.e[k].cmd)
            return cli_usage_error("match: --e%d CMD is required (the engine's command line)",
                                   k + 1);
        if (m.e[k].proto == ME_USI && !speaks_usi(g)) {
            gv_game_names(list, sizeof list, " and ", 1, speaks_usi);
            return cli_usage_error("match: USI is for %s only (use --p%d xboard)",
                                   list[0] ? list : "no game", k + 1);
        }
    }
    return match_main(&m);
}
