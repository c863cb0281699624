/* gravulien: one program, many subcommands (perft, moves, play, ...). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

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

void cli_known_games(char *buf, size_t len, int ai)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < gv_game_count() && n < len; i++) {
        const gv_game *g = gv_game_at(i);
        if (!ai || g->ai)
            n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", g->name);
    }
}

void *cli_new_state(const char *game, const char *options, const char *position,
                    const gv_game **out)
{
    const gv_game *g = gv_game_find(game);
    char err[GV_ERRLEN];
    if (!g) {
        char known[256];
        cli_known_games(known, sizeof known, 0);
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


static void usage(FILE *f)
{
    fputs("usage: gravulien <command> [arguments]\n"
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
          "  bench [game]\n"
          "        search a fixed set of positions; prints 'Nodes searched: N  results D'\n"
          "        (nodes and a digest of the best moves and scores: the search's signature)\n"
          "        and nodes per second\n"
          "  selfplay <game> [--a SPEC] [--b SPEC] [--games N] [--seed S] [--tc BASE+INC]\n"
          "        [--openings PLIES] [--max-plies N] [--concurrency N] [--rules k=v,...]\n"
          "        [--resign CP] [--hash MB] [--quiet]\n"
          "        engine against engine; SPEC is level=1..10[,nodes=N][,movetime=MS] or greedy;\n"
          "        prints A's score with a 95% interval and an Elo estimate\n"
          "  match <chu|exac> --e1 CMD --e2 CMD [--p1 xboard|usi] [--p2 xboard|usi] [--games N]\n"
          "        [--o1 NAME=VALUE] [--o2 NAME=VALUE]\n"
          "        [--seed S] [--tc BASE+INC | --st SECONDS] [--tc1|--tc2 BASE+INC] [--st1|--st2 S]\n"
          "        [--openings PLIES] [--max-plies N]\n"
          "        [--rules k=v,...] [--memory MB] [--refused loss|void] [--handshake SECONDS]\n"
          "        [--log FILE] [--quiet] [--verbose]\n"
          "        engine processes against each other, judged by our rules; see docs/match.md\n"
          "  usi [--level 1..10] [--hash MB] [--rules k=v,...]\n"
          "        Chu Shogi engine speaking USI (as lishogi drives engines) on stdin/stdout\n"
          "  xboard [--level 1..10] [--hash MB] [--variant chu|exac] [--rules k=v,...]\n"
          "        [--exac-rules k=v,...]\n"
          "        Chu Shogi and Exac engine speaking the XBoard/WinBoard protocol\n"
          "  gtp [--level 1..10] [--seed S] [--size N] [--bonus sync|full] [--movetime MS]\n"
          "        a GTP v2 engine for Grav on stdin/stdout (docs/gtp.md)\n"
          "  record <game> check|replay|convert FILE [--to kif|usi|pgn|json] [--out FILE]\n"
          "        read a game record (KIF or USI list, Exac PGN, Grav JSON); see docs/records.md\n"
          "  vectors grav FILE\n"
          "        replay Grav test vectors; one line per disagreement, then 'N passed, M failed'\n"
          "  games      list the games and their options\n"
          "  help       this text\n"
          "\n"
          "games: chu   Chu Shogi (positions are SFEN; 'startpos' is the start)\n"
          "       exac  Exac (positions like 1SSSSS1/SSSSSSS/7/7/7/FFFFFFF/1FFFFF1 f 0 1)\n"
          "       grav  Grav (options size=13,players=2,seed=0,...; see 'gravulien games')\n",
          f);
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
