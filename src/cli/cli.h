/* The gravulien command-line program: shared helpers of its subcommands. */
#ifndef GV_CLI_H
#define GV_CLI_H

#include <stddef.h>

#include "game/game.h"

/* Exit statuses: 0 ok, 1 runtime failure, 2 bad usage or input. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Prints "gravulien: <msg>" to stderr and returns CLI_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Has g an AI player? (A filter for gv_game_names and cli_game_arg.) */
int cli_has_ai(const gv_game *g);
/* A usage's game argument, naming the registered games keep accepts (NULL: every game):
 * "<chu|exac|grav>" for several, the name alone for one, "GAME" for none. Returns buf. */
const char *cli_game_arg(char *buf, size_t len, int (*keep)(const gv_game *g));

/* Plays a --moves list: moves separated by spaces or commas, each the fewest words (up to
 * four) that `play` takes, since a move may have spaces of its own (Grav's "1 place d4").
 * play(ctx, text, err, errlen) plays one move: 0, or -1 with a message (nothing played).
 * 0, or -1 after printing which move was refused and why (prefix: "think", "--moves"). */
int cli_play_moves(const char *list, int (*play)(void *ctx, const char *text, char *err,
                                                 size_t errlen),
                   void *ctx, const char *prefix);

/* Finds the game, allocates a state, applies options and the position (NULL = start).
 * Returns the state (free with free()) or NULL after printing an error. */
void *cli_new_state(const char *game, const char *options, const char *position,
                    const gv_game **g);

int cli_perft(int argc, char **argv);
int cli_moves(int argc, char **argv);
int cli_play(int argc, char **argv);
int cli_vectors(int argc, char **argv);
int cli_selfplay(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_think(int argc, char **argv);
int cli_usi(int argc, char **argv);
int cli_xboard(int argc, char **argv);
int cli_gtp(int argc, char **argv);
int cli_match(int argc, char **argv);
int cli_record(int argc, char **argv);
int cli_serve(int argc, char **argv);

#endif
