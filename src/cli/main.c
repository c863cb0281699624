/* gravulien: one program, many subcommands (perft, moves, play, ...). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "match/match.h"
#include "record/record.h"

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gravulien: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return CLI_USAGE;
}

int cli_has_ai(const gv_game *g)
{
    return g->ai != NULL;
}

int cli_play_moves(const char *list, int (*play)(void *ctx, const char *text, char *err,
                                                 size_t errlen),
                   void *ctx, const char *prefix)
{
    char buf[GV_MAX_TEXT], err[GV_ERRLEN], first_err[GV_ERRLEN];
    if (strlen(list) >= sizeof buf) {
        cli_usage_error("%s: the moves are too long", prefix);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", list);
    for (char *c = buf; *c; c++)
        if (*c == ',' || *c == '\t')
            *c = ' ';
    char *at = buf + strspn(buf, " ");
    for (int k = 1; *at; k++) {
        char *end = at;
        int ok = 0;
        for (int words = 1; words <= 4 && *end && !ok; words++) {
            end += strcspn(end, " ");
            char saved = *end;
            *end = 0;
            ok = play(ctx, at, err, sizeof err) == 0;
            if (!ok && words == 1)
                snprintf(first_err, sizeof first_err, "%s", err);
            *end = saved;
            if (!ok)
                end += strspn(end, " ");
        }
        if (!ok) {
            at[strcspn(at, " ")] = 0;
            cli_usage_error("%s: move %d '%s': %s", prefix, k, at, first_err);
            return -1;
        }
        at = end + strspn(end, " ");
    }
    return 0;
}

const char *cli_game_arg(char *buf, size_t len, int (*keep)(const gv_game *g))
{
    char names[256];
    int n = 0;
    for (int i = 0; i < gv_game_count(); i++)
        n += !keep || keep(gv_game_at(i));
    gv_game_names(names, sizeof names, "|", 0, keep);
    snprintf(buf, len, n > 1 ? "<%s>" : "%s", n ? names : "GAME");
    return buf;
}

void *cli_new_state(const char *game, const char *options, const char *position,
                    const gv_game **out)
{
    const gv_game *g = gv_game_find(game);
    char err[GV_ERRLEN];
    if (!g) {
        char known[256];
        gv_game_names(known, sizeof known, ", ", 0, NULL);
        cli_usage_error("unknown game '%s' (known: %s)", game ? game : "", known);
        return NULL;
    }
    void *st = calloc(1, g->state_size);
    if (!st) {
        fprintf(stderr, "gravulien: out of memory\n");
        return NULL;
    }
    if (g->init(st, options, err, sizeof err) < 0 ||
        (position && g->set_position(st, position, err, sizeof err) < 0)) {
        cli_usage_error("%s: %s", g->name, err);
        free(st);
        return NULL;
    }
    *out = g;
    return st;
}


/* Filters of the games the usage names for a command. */
static int speaks_usi(const gv_game *g)
{
    return (g->protocols & GV_PROTO_USI) != 0;
}

static int speaks_xboard(const gv_game *g)
{
    return (g->protocols & GV_PROTO_XBOARD) != 0;
}

static int speaks_gtp(const gv_game *g)
{
    return (g->protocols & GV_PROTO_GTP) != 0;
}

static int has_vectors(const gv_game *g)
{
    return g->vectors != NULL;
}

static int has_records(const gv_game *g)
{
    return g->records != NULL;
}

/* The usage; the games it names, and what it says of each, come from the registry. */
static void usage(FILE *f)
{
    char match_arg[256], variants[256], usi_titles[256], xb_titles[256], gtp_titles[256];
    char vec_arg[256], vec_titles[256];
    cli_game_arg(match_arg, sizeof match_arg, match_game_ok);
    gv_game_names(variants, sizeof variants, "|", 0, speaks_xboard);
    gv_game_names(usi_titles, sizeof usi_titles, " and ", 1, speaks_usi);
    gv_game_names(xb_titles, sizeof xb_titles, " and ", 1, speaks_xboard);
    gv_game_names(gtp_titles, sizeof gtp_titles, " and ", 1, speaks_gtp);
    cli_game_arg(vec_arg, sizeof vec_arg, has_vectors);
    gv_game_names(vec_titles, sizeof vec_titles, " and ", 1, has_vectors);
    /* "chu: kif, usi, tsa or san; exac: pgn; ..." */
    char formats[512] = "", one[128];
    size_t o = 0;
    for (int i = 0; i < gv_game_count() && o < sizeof formats; i++) {
        const gv_game *g = gv_game_at(i);
        if (has_records(g))
            o += (size_t)snprintf(formats + o, sizeof formats - o, "%s%s: %s", o ? "; " : "",
                                  g->name, gv_record_format_list(g, one, sizeof one));
    }
    fprintf(f,
            "usage: gravulien <command> [arguments]\n"
            "\n"
            "commands:\n"
            "  perft <game> <depth> [position] [--divide] [--options k=v,...]\n"
            "        count the leaves of the legal-move tree; last line 'nodes <N>'\n"
            "  moves <game> [position] [--options k=v,...]\n"
            "        list the legal moves, one per line, in the game's notation\n"
            "  moves <game> --batch [--options k=v,...]\n"
            "        read positions from stdin, one per line; print each one's moves on a line\n"
            "  serve [--port 8080] [--db gravulien.db] [--host ADDR] [--ai-threads N] ...\n"
            "        the game server: play in a browser, HTTP + WebSocket API (docs/api.md)\n"
            "  play <game> [--you first|second|random|N] [--level 1..10] [--seats human,ai:5,...]\n"
            "        [--watch] [--hotseat] [--options k=v,...] [--position TEXT] [--load FILE]\n"
            "        [--movetime MS] [--pieces kanji|abbrev] [--ascii]\n"
            "        play at the terminal: against the AI, people at one keyboard, or AI vs AI\n"
            "        (docs/play.md)\n"
            "  think <game> [position] [--options k=v,...] [--moves 'm1 m2 ...'] [--depth D]\n"
            "        [--nodes N] [--movetime MS] [--level 1..10] [--seed S]\n"
            "        let the AI search a position; prints its reports and 'bestmove <move>'\n"
            "  bench [game] [--threads N]\n"
            "        search a fixed set of positions; prints 'Nodes searched: N  results D'\n"
            "        (nodes and a digest of the best moves and scores: the search's signature)\n"
            "        and nodes per second\n"
            "  selfplay <game> [--a SPEC] [--b SPEC] [--games N] [--seed S] [--tc BASE+INC]\n"
            "        [--openings PLIES] [--max-plies N] [--concurrency N] [--rules k=v,...]\n"
            "        [--resign CP] [--hash MB] [--quiet]\n"
            "        engine against engine; SPEC is level=1..10[,nodes=N][,movetime=MS]\n"
            "        [,threads=N] or greedy;\n"
            "        prints A's score with a 95%% interval and an Elo estimate\n"
            "  match %s --e1 CMD --e2 CMD [--p1 xboard|usi] [--p2 xboard|usi] [--games N]\n"
            "        [--o1 NAME=VALUE] [--o2 NAME=VALUE]\n"
            "        [--seed S] [--tc BASE+INC | --st SECONDS] [--tc1|--tc2 BASE+INC] "
            "[--st1|--st2 S]\n"
            "        [--openings PLIES] [--max-plies N]\n"
            "        [--rules k=v,...] [--memory MB] [--refused loss|void] [--handshake SECONDS]\n"
            "        [--log FILE] [--quiet] [--verbose]\n"
            "        engine processes against each other, judged by our rules; see docs/match.md\n"
            "  usi [--level 1..10] [--hash MB] [--rules k=v,...]\n"
            "        %s engine speaking USI (as lishogi drives engines) on stdin/stdout\n"
            "  xboard [--level 1..10] [--hash MB] [--variant %s] [--rules k=v,...]\n"
            "        [--exac-rules k=v,...]\n"
            "        %s engine speaking the XBoard/WinBoard protocol\n"
            "  gtp [--level 1..10] [--seed S] [--size N] [--bonus sync|full] [--movetime MS]\n"
            "        a GTP v2 engine for %s on stdin/stdout (docs/gtp.md)\n"
            "  record <game> check|replay|convert FILE [--to FORMAT] [--out FILE]\n"
            "        read a game record (docs/records.md) in one of its game's formats:\n"
            "        %s\n"
            "  vectors %s FILE\n"
            "        replay %s test vectors; one line per disagreement, then 'N passed, M failed'\n"
            "  games      list the games and their options\n"
            "  help       this text\n"
            "\n",
            match_arg, usi_titles, variants, xb_titles, gtp_titles, formats, vec_arg, vec_titles);
    for (int i = 0; i < gv_game_count(); i++) {
        const gv_game *g = gv_game_at(i);
        fprintf(f, "%s %-5s %s%s%s%s\n", i ? "      " : "games:", g->name, g->title,
                g->usage_note ? " (" : "", g->usage_note ? g->usage_note : "",
                g->usage_note ? ")" : "");
    }
}

static int cmd_games(void)
{
    for (int i = 0; i < gv_game_count(); i++) {
        const gv_game *g = gv_game_at(i);
        printf("%s  %s\n", g->name, g->title);
        for (const gv_option_def *o = g->options; o && o->name; o++)
            printf("    %s=%s (default %s): %s\n", o->name, o->values, o->def, o->help);
    }
    return CLI_OK;
}

int main(int argc, char **argv)
{
    gv_games_init();
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "perft") == 0)
        return cli_perft(argc - 2, argv + 2);
    if (strcmp(cmd, "moves") == 0)
        return cli_moves(argc - 2, argv + 2);
    if (strcmp(cmd, "serve") == 0)
        return cli_serve(argc - 2, argv + 2);
    if (strcmp(cmd, "play") == 0)
        return cli_play(argc - 2, argv + 2);
    if (strcmp(cmd, "think") == 0)
        return cli_think(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0)
        return cli_bench(argc - 2, argv + 2);
    if (strcmp(cmd, "selfplay") == 0)
        return cli_selfplay(argc - 2, argv + 2);
    if (strcmp(cmd, "usi") == 0)
        return cli_usi(argc - 2, argv + 2);
    if (strcmp(cmd, "xboard") == 0)
        return cli_xboard(argc - 2, argv + 2);
    if (strcmp(cmd, "match") == 0)
        return cli_match(argc - 2, argv + 2);
    if (strcmp(cmd, "gtp") == 0)
        return cli_gtp(argc - 2, argv + 2);
    if (strcmp(cmd, "vectors") == 0)
        return cli_vectors(argc - 2, argv + 2);
    if (strcmp(cmd, "record") == 0)
        return cli_record(argc - 2, argv + 2);
    if (strcmp(cmd, "games") == 0)
        return cmd_games();
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    cli_usage_error("unknown command '%s' (try 'gravulien help')", cmd);
    return CLI_USAGE;
}
