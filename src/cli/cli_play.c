/* gravulien play: a game at the terminal between two people at one keyboard.
 * (The AI players and the full terminal interface come with the engine layer.) */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* Draws a Chu SFEN board as a 12x12 grid (files 12..1, ranks a..l). Gote's pieces are
 * lower case, promoted pieces carry '+'. */
static void draw_sfen_board(const char *sfen, FILE *out)
{
    fputs("\n   ", out);
    for (int f = 12; f >= 1; f--)
        fprintf(out, "%3d", f);
    fputs("\n", out);
    const char *s = sfen;
    for (int r = 0; r < 12; r++) {
        fprintf(out, " %c ", 'a' + r);
        int col = 0;
        while (*s && *s != '/' && *s != ' ') {
            if (isdigit((unsigned char)*s)) {
                int n = *s++ - '0';
                if (isdigit((unsigned char)*s))
                    n = n * 10 + (*s++ - '0');
                for (int i = 0; i < n && col < 12; i++, col++)
                    fputs("  .", out);
            } else {
                char tag[3] = {' ', ' ', 0};
                if (*s == '+')
                    tag[0] = *s++;
                tag[1] = *s ? *s++ : '?';
                fprintf(out, " %s", tag);
                col++;
            }
        }
        if (*s == '/')
            s++;
        fputs("\n", out);
    }
}

/* Draws an Exac position text as a 7x7 grid (files g..z, ranks 1..7 from the top). */
static void draw_exac_board(const char *text, FILE *out)
{
    fputs("\n    g n m s d v z\n", out);
    const char *s = text;
    for (int r = 1; r <= 7; r++) {
        fprintf(out, " %d  ", r);
        while (*s && *s != '/' && *s != ' ') {
            if (isdigit((unsigned char)*s)) {
                for (int i = 0; i < *s - '0'; i++)
                    fputs(". ", out);
            } else {
                fprintf(out, "%c ", *s);
            }
            s++;
        }
        if (*s == '/')
            s++;
        fputs("\n", out);
    }
}

/* Draws the board= field of a Grav position text as a grid ('.' empty, digits stones). */
static void draw_grav_board(const char *text, FILE *out)
{
    const char *b = strstr(text, " board=");
    if (!b)
        return;
    b += 7;
    int n = (int)strcspn(b, "/ ");
    fputs("\n    ", out);
    for (int x = 0; x < n; x++)
        fprintf(out, "%c ", n == 7 ? "gnmsdvz"[x] : 'a' + x);
    fputs("\n", out);
    for (int y = 1; *b && *b != ' '; y++) {
        fprintf(out, "%3d ", y);
        for (; *b && *b != '/' && *b != ' '; b++)
            fprintf(out, "%c ", *b);
        fputs("\n", out);
        if (*b == '/')
            b++;
    }
}

static void show(const gv_game *g, void *st)
{
    char pos[GV_MAX_TEXT];
    g->get_position(st, pos, sizeof pos);
    if (strcmp(g->name, "chu") == 0)
        draw_sfen_board(pos, stdout);
    else if (strcmp(g->name, "exac") == 0)
        draw_exac_board(pos, stdout);
    else if (strcmp(g->name, "grav") == 0)
        draw_grav_board(pos, stdout);
    printf("\nposition: %s\n", pos);
}

static const char play_help[] =
    "Chu: type a move in USI (7i7h, 7i7h+, lion 6i5h4h, igui 6i5h6i, pass 7g7f7g) or TSA\n"
    "(P-7h, Px7d=, Lnx!9d, Lnx3hx2i, pass). Exac: the game's notation (m5, Hxd3) or\n"
    "from-to (m6-m5). Grav: a point (d4), pass, accept, grav, declare <m>, remove <point>.\n"
    "Commands: moves, undo, board, help, resign, quit.\n";

static const char *side_name(const gv_game *g, int side)
{
    static const char *const players[] = {"Player 1", "Player 2", "Player 3", "Player 4",
                                          "Player 5", "Player 6"};
    if (strcmp(g->name, "chu") == 0)
        return side ? "Gote" : "Sente";
    if (strcmp(g->name, "exac") == 0)
        return side ? "Second" : "First";
    return side >= 0 && side < 6 ? players[side] : "nobody";
}

int cli_play(int argc, char **argv)
{
    const char *game = NULL, *options = NULL, *position = NULL;
    for (int i = 0; i < argc; i++) {
        if ((strcmp(argv[i], "--options") == 0 || strcmp(argv[i], "-o") == 0) && i + 1 < argc)
            options = argv[++i];
        else if (strcmp(argv[i], "--position") == 0 && i + 1 < argc)
            position = argv[++i];
        else if (argv[i][0] == '-')
            return cli_usage_error("unknown option '%s'", argv[i]);
        else if (!game)
            game = argv[i];
        else
            return cli_usage_error("unexpected argument '%s'", argv[i]);
    }
    if (!game)
        return cli_usage_error("usage: gravulien play <game> [--options k=v] [--position TEXT]");
    const gv_game *g;
    void *st = cli_new_state(game, options, position, &g);
    if (!st)
        return CLI_USAGE;
    gv_move *moves = malloc(sizeof(gv_move) * GV_MAX_MOVES);
    if (!moves) {
        free(st);
        return CLI_FAIL;
    }
    printf("%s, two players at one keyboard.\n%s", g->title, play_help);
    show(g, st);
    int made = 0;
    char line[256];
    for (;;) {
        gv_result res;
        if (g->status(st, &res) != GV_ONGOING) {
            if (res.status == GV_DRAW)
                printf("Game over: draw (%s).\n", res.reason);
            else
                printf("Game over: %s wins (%s).\n", side_name(g, res.winner), res.reason);
            break;
        }
        printf("%s to move> ", side_name(g, g->to_move(st)));
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin))
            break;
        line[strcspn(line, "\r\n")] = 0;
        char *cmd = line;
        while (*cmd == ' ')
            cmd++;
        if (!*cmd)
            continue;
        if (strcmp(cmd, "quit") == 0)
            break;
        if (strcmp(cmd, "help") == 0) {
            fputs(play_help, stdout);
        } else if (strcmp(cmd, "board") == 0) {
            show(g, st);
        } else if (strcmp(cmd, "moves") == 0) {
            cli_print_moves(g, st, moves, " ");
        } else if (strcmp(cmd, "undo") == 0) {
            if (made == 0) {
                puts("Nothing to undo.");
            } else {
                g->unmake(st);
                made--;
                show(g, st);
            }
        } else if (strcmp(cmd, "resign") == 0 && !g->parse_move(st, cmd, &(gv_move){0}, NULL, 0)) {
            /* Games where resigning is a move of their own (Grav) take it as one. */
            gv_move m;
            g->parse_move(st, cmd, &m, NULL, 0);
            g->make(st, m);
            made++;
            show(g, st);
        } else if (strcmp(cmd, "resign") == 0) {
            printf("%s resigns; %s wins.\n", side_name(g, g->to_move(st)),
                   side_name(g, !g->to_move(st)));
            break;
        } else {
            gv_move m;
            char err[GV_ERRLEN];
            if (g->parse_move(st, cmd, &m, err, sizeof err) < 0) {
                printf("Illegal move: %s\n", err);
                continue;
            }
            g->make(st, m);
            made++;
            show(g, st);
        }
    }
    free(moves);
    free(st);
    return CLI_OK;
}
