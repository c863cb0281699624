/* Grav turn flow, rule by rule (shared/rules/grav.md "Turns", "Bonus turns", "Grav!",
 * "End and result", "Turn flow, precisely"), through the public API only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/grav/grav.h"
#include "tharness.h"

/* Default test parameters on an 11x11 board: a=5 b=2 c=3 d=1 e=20, so the distance rule
 * never applies and a placement violates when it completes a full 2x2 square (density). */
enum { N = 11 };
static int gn = N;   /* the board size of the game being built */
#define PT(x, y) ((y) * gn + (x))

static grav_state *game_n(int n, int players, grav_params prm, int strict, uint32_t max_turns)
{
    grav_state *s = calloc(1, sizeof *s);
    gn = n;
    grav_options opt = {0};
    opt.strict = (uint8_t)strict;
    opt.hints = 1;
    opt.max_turns = max_turns;
    char err[GV_ERRLEN] = "";
    int rc = grav_setup(&s->pos, n, players, &prm, &opt, 0, err, sizeof err);
    if (rc)
        fprintf(stderr, "  setup: %s\n", err);
    CHECK_EQ_INT(rc, 0);
    grav_state_reset(s);
    return s;
}

static grav_state *game(int players)
{
    return game_n(N, players, (grav_params){5, 2, 3, 1, 20}, 0, 0);
}

static int is_legal(grav_state *s, gv_move m)
{
    gv_move all[GV_MAX_MOVES];
    int n = grav_legal_moves(s, all);
    for (int i = 0; i < n; i++)
        if (all[i] == m)
            return 1;
    return 0;
}

static int count_legal(grav_state *s, int act)
{
    gv_move all[GV_MAX_MOVES];
    int n = grav_legal_moves(s, all), k = 0;
    for (int i = 0; i < n; i++)
        k += GR_ACT(all[i]) == act;
    return k;
}

static grav_auto last_autos[GR_MAX_AUTO];
static int last_nauto;

/* Plays one move, which must be legal; the automatic events go to last_autos. */
static int play(grav_state *s, int act, int pl, int arg)
{
    gv_move m = GR_MOVE(act, pl, arg);
    int legal = is_legal(s, m);
    if (!legal)
        fprintf(stderr, "  illegal move act=%d player=%d arg=%d (phase %d, to move %d)\n", act, pl,
                arg, s->pos.c.phase, grav_to_move(&s->pos));
    CHECK(legal);
    if (!legal)
        return -1;
    last_nauto = grav_make(s, m, last_autos);
    return last_nauto;
}

static int has_auto(int type, int player)
{
    for (int i = 0; i < last_nauto && i < GR_MAX_AUTO; i++)
        if (last_autos[i].type == type && (player < 0 || last_autos[i].player == player))
            return 1;
    return 0;
}

/* Every asked player accepts. */
static void accept_all(grav_state *s)
{
    while (s->pos.c.phase == GR_WINDOW)
        if (play(s, GA_ACCEPT, grav_to_move(&s->pos), 0) < 0)
            return;
}

/* The player to move places on (x,y); everyone accepts; a declaration is 0. */
static void put(grav_state *s, int x, int y)
{
    play(s, GA_PLACE, grav_to_move(&s->pos), PT(x, y));
    accept_all(s);
    if (s->pos.c.phase == GR_DECLARE)
        play(s, GA_DECLARE, s->pos.c.current, 0);
}

/* ---- "Grav!": correct call ------------------------------------------------------------ */

/* Correct call: the stone is taken back, the caller removes one of the placer's stones of
 * its choice, the caller moves next and the order continues from the caller. */
static void test_correct_call_takes_back_removes_and_caller_moves_next(void)
{
    grav_state *s = game(3);
    put(s, 0, 0);   /* 1 */
    put(s, 1, 0);   /* 2 */
    put(s, 0, 1);   /* 3 */
    put(s, 5, 5);   /* 1 */
    play(s, GA_PLACE, 2, PT(1, 1));   /* completes a full 2x2: density */
    CHECK_EQ_INT(s->pos.c.phase, GR_WINDOW);
    CHECK_EQ_INT(grav_to_move(&s->pos), 3);
    play(s, GA_ACCEPT, 3, 0);
    play(s, GA_GRAV, 1, 0);
    CHECK_EQ_INT(s->pos.board[PT(1, 1)], 0);           /* taken back */
    CHECK_EQ_INT(grav_reference(&s->pos), PT(5, 5));  /* it was never placed */
    CHECK_EQ_INT(s->pos.c.phase, GR_REMOVE);
    CHECK_EQ_INT(grav_to_move(&s->pos), 1);
    CHECK_EQ_INT(count_legal(s, GA_REMOVE), 1);        /* only player 2's stones */
    CHECK(is_legal(s, GR_MOVE(GA_REMOVE, 1, PT(1, 0))));
    CHECK(!is_legal(s, GR_MOVE(GA_REMOVE, 1, PT(0, 1))));
    play(s, GA_REMOVE, 1, PT(1, 0));
    CHECK_EQ_INT(s->pos.board[PT(1, 0)], 0);
    CHECK_EQ_INT(s->pos.count[2], 0);
    CHECK_EQ_INT(s->pos.c.phase, GR_TURN);
    CHECK_EQ_INT(s->pos.c.current, 1);   /* the caller, not player 3 */
    play(s, GA_PASS, 1, 0);
    CHECK_EQ_INT(s->pos.c.current, 2);   /* the order continues from the caller */
    free(s);
}

/* A correct call on a player with no stone on the board: no removal; the caller moves. */
static void test_correct_call_on_placer_without_stones_is_no_removal(void)
{
    grav_state *s = game(3);
    put(s, 0, 0);               /* 1 */
    play(s, GA_PASS, 2, 0);
    put(s, 1, 0);               /* 3 */
    put(s, 0, 1);               /* 1 */
    play(s, GA_PLACE, 2, PT(1, 1));   /* player 2's only stone, violating */
    play(s, GA_GRAV, 3, 0);
    CHECK(has_auto(GR_AUTO_NO_REMOVAL, 3));
    CHECK_EQ_INT(s->pos.count[2], 0);
    CHECK_EQ_INT(s->pos.norder, 3);
    CHECK_EQ_INT(s->pos.c.phase, GR_TURN);
    CHECK_EQ_INT(s->pos.c.current, 3);
    play(s, GA_PASS, 3, 0);
    CHECK_EQ_INT(s->pos.c.current, 1);
    free(s);
}

/* Builds a position where the player to move places (1,1) completing at least two shapes
 * (a 2x2 square and a line of five), then declares 2. Returns the declarer. */
static int two_bonus_turns(grav_state *s)
{
    put(s, 0, 0);
    put(s, 1, 0);
    put(s, 0, 1);
    put(s, 1, 2);
    put(s, 1, 3);
    put(s, 1, 4);
    int pl = grav_to_move(&s->pos);
    play(s, GA_PLACE, pl, PT(1, 1));   /* violates density, but nobody calls */
    accept_all(s);
    CHECK_EQ_INT(s->pos.c.phase, GR_DECLARE);
    CHECK(s->pos.c.declare_k >= 2);
    play(s, GA_DECLARE, pl, 2);
    CHECK_EQ_INT(s->pos.c.phase, GR_BONUS);
    CHECK_EQ_INT(s->pos.c.owed, 2);
    CHECK_EQ_INT(s->pos.c.current, pl);
    return pl;
}

/* Correct call: bonus turns still owed are lost. */
static void test_correct_call_loses_owed_bonus_turns(void)
{
    grav_state *s = game(2);
    int pl = two_bonus_turns(s), opp = 3 - pl;
    play(s, GA_PLACE, pl, PT(0, 2));   /* 2x2 (0,1)(1,1)(0,2)(1,2): density */
    CHECK_EQ_INT(s->pos.c.owed, 1);
    CHECK(!is_legal(s, GR_MOVE(GA_PASS, opp, 0)));   /* no implicit accept: a bonus turn follows */
    play(s, GA_GRAV, opp, 0);
    CHECK_EQ_INT(s->pos.c.owed, 0);
    CHECK_EQ_INT(s->pos.c.phase, GR_REMOVE);
    int victim_stones = s->pos.count[pl];
    CHECK_EQ_INT(count_legal(s, GA_REMOVE), victim_stones);
    play(s, GA_REMOVE, opp, PT(1, 1));
    CHECK_EQ_INT(s->pos.c.phase, GR_TURN);
    CHECK_EQ_INT(s->pos.c.current, opp);
    free(s);
}

/* ---- "Grav!": wrong call ------------------------------------------------------------------ */

/* Wrong call: the stone stays, the caller skips its next regular turn. */
static void test_wrong_call_stone_stays_and_caller_skips_next_turn(void)
{
    grav_state *s = game(3);
    play(s, GA_PLACE, 1, PT(0, 0));
    play(s, GA_GRAV, 2, 0);   /* the window ends at once: player 3 is not asked */
    CHECK_EQ_INT(s->pos.board[PT(0, 0)], 1);
    CHECK(has_auto(GR_AUTO_SKIP, 2));
    CHECK_EQ_INT(s->pos.c.skips[1], 0);
    CHECK_EQ_INT(s->pos.c.phase, GR_TURN);
    CHECK_EQ_INT(s->pos.c.current, 3);
    free(s);
}

/* Skips add up over several wrong calls; each regular turn that comes uses one. */
static void test_wrong_call_skips_add_up(void)
{
    grav_state *s = game(3);
    play(s, GA_PLACE, 1, PT(0, 0));
    play(s, GA_ACCEPT, 2, 0);
    play(s, GA_GRAV, 3, 0);           /* skip 1 for 3 */
    CHECK_EQ_INT(s->pos.c.current, 2);
    play(s, GA_PLACE, 2, PT(5, 5));
    play(s, GA_GRAV, 3, 0);           /* skip 2 for 3 */
    CHECK_EQ_INT(s->pos.c.skips[2], 1);   /* one already used: 3's turn came next */
    CHECK(has_auto(GR_AUTO_SKIP, 3));
    CHECK_EQ_INT(s->pos.c.current, 1);
    play(s, GA_PLACE, 1, PT(9, 9));
    play(s, GA_ACCEPT, 2, 0);
    play(s, GA_GRAV, 3, 0);           /* skip for 3 again: 2 owed now */
    CHECK_EQ_INT(s->pos.c.skips[2], 2);
    CHECK_EQ_INT(s->pos.c.current, 2);
    play(s, GA_PASS, 2, 0);
    CHECK(has_auto(GR_AUTO_SKIP, 3));
    CHECK_EQ_INT(s->pos.c.skips[2], 1);
    CHECK_EQ_INT(s->pos.c.current, 1);
    play(s, GA_PASS, 1, 0);
    play(s, GA_PASS, 2, 0);
    CHECK(has_auto(GR_AUTO_SKIP, 3));
    CHECK_EQ_INT(s->pos.c.skips[2], 0);
    CHECK_EQ_INT(s->pos.c.current, 1);
    free(s);
}

/* Wrong call: play goes on as if no call had been made; the placer finishes its bonus
 * turns, and the two-player implicit accept is not open to a player who must skip. */
static void test_wrong_call_placer_finishes_bonus_turns(void)
{
    grav_state *s = game(2);
    int pl = two_bonus_turns(s), opp = 3 - pl;
    play(s, GA_PLACE, pl, PT(8, 8));   /* legal bonus stone */
    play(s, GA_GRAV, opp, 0);
    CHECK_EQ_INT(s->pos.board[PT(8, 8)], pl);
    CHECK_EQ_INT(s->pos.c.skips[opp - 1], 1);
    CHECK_EQ_INT(s->pos.c.phase, GR_BONUS);
    CHECK_EQ_INT(s->pos.c.current, pl);
    CHECK_EQ_INT(s->pos.c.owed, 1);
    play(s, GA_PLACE, pl, PT(8, 6));
    CHECK(!is_legal(s, GR_MOVE(GA_PASS, opp, 0)));   /* opp must skip: no implicit accept */
    play(s, GA_ACCEPT, opp, 0);
    CHECK(has_auto(GR_AUTO_SKIP, opp));
    CHECK_EQ_INT(s->pos.c.phase, GR_TURN);
    CHECK_EQ_INT(s->pos.c.current, pl);
    free(s);
}

/* ---- Bonus turns ------------------------------------------------------------------------ */

/* The declaration is 0..k, and a bonus turn cannot be passed. */
static void test_bonus_declaration_range_and_no_pass(void)
{
    grav_state *s = game(2);
    put(s, 0, 0);
    put(s, 0, 1);
    put(s, 0, 2);
    int pl = grav_to_move(&s->pos);
    play(s, GA_PLACE, pl, PT(0, 3));   /* a line of four: one shape */
    accept_all(s);
    CHECK_EQ_INT(s->pos.c.phase, GR_DECLARE);
    CHECK_EQ_INT(s->pos.c.declare_k, 1);
    CHECK_EQ_INT(count_legal(s, GA_DECLARE), 2);
    CHECK(is_legal(s, GR_MOVE(GA_DECLARE, pl, 0)));
    CHECK(is_legal(s, GR_MOVE(GA_DECLARE, pl, 1)));
    CHECK(!is_legal(s, GR_MOVE(GA_DECLARE, pl, 2)));
    CHECK(!is_legal(s, GR_MOVE(GA_DECLARE, 3 - pl, 0)));
    play(s, GA_DECLARE, pl, 1);
    CHECK_EQ_INT(s->pos.c.phase, GR_BONUS);
    CHECK_EQ_INT(count_legal(s, GA_PASS), 0);
    CHECK(!is_legal(s, GR_MOVE(GA_PASS, pl, 0)));
    free(s);
}

/* The declaration is bounded by the empty points less the bonus turns already owed. */
static void test_bonus_declaration_bounded_by_empty_points_minus_owed(void)
{
    grav_state *s = game_n(5, 2, (grav_params){5, 2, 4, 1, 8}, 0, 0);
    char text[GV_MAX_TEXT], err[GV_ERRLEN] = "", board[64] = "", order[256] = "";
    /* 23 stones, 2 empty points (d5, e5); player 1 declares with k=3 and 1 owed. */
    int k = 0;
    for (int y = 0; y < 5; y++) {
        for (int x = 0; x < 5; x++) {
            int empty = y == 4 && x >= 3;
            board[k++] = empty ? '.' : (char)('1' + (x + y) % 2);
            if (!empty) {
                char pt[8];
                snprintf(pt, sizeof pt, "%s%c%d", order[0] ? "," : "", 'a' + x, y + 1);
                strcat(order, pt);
            }
        }
        if (y < 4)
            board[k++] = '/';
    }
    board[k] = 0;
    snprintf(text, sizeof text,
             "N=5 players=2 a=5 b=2 c=4 d=1 e=8 seed=0 consecutive=all referee=normal "
             "shapes=connected hints=on max_turns=0 board=%s order=%s phase=declare current=1 "
             "owed=1 skips=0,0 passed=- pending=- asked=- caller=0 victim=0 declare_k=3 "
             "resigned=- turns=10 winner=0 reason=none",
             board, order);
    int rc = grav_set_text(&s->pos, text, err, sizeof err);
    if (rc)
        fprintf(stderr, "  set_text: %s\n", err);
    CHECK_EQ_INT(rc, 0);
    grav_state_reset(s);
    if (rc == 0) {
        CHECK_EQ_INT(count_legal(s, GA_DECLARE), 2);   /* m = 0 or 1 = min(3, 2 - 1) */
        CHECK(is_legal(s, GR_MOVE(GA_DECLARE, 1, 1)));
        CHECK(!is_legal(s, GR_MOVE(GA_DECLARE, 1, 2)));
    }
    free(s);
}

/* A bonus placement may complete shapes and earn further bonus turns. */
static void test_bonus_placement_can_chain_further_bonuses(void)
{
    grav_state *s = game(2);
    put(s, 0, 0);
    put(s, 0, 1);
    put(s, 0, 2);
    int pl = grav_to_move(&s->pos);
    play(s, GA_PLACE, pl, PT(0, 3));
    accept_all(s);
    play(s, GA_DECLARE, pl, 1);
    play(s, GA_PLACE, pl, PT(0, 4));   /* a line of five: a new, larger shape */
    accept_all(s);
    CHECK_EQ_INT(s->pos.c.phase, GR_DECLARE);
    CHECK_EQ_INT(s->pos.c.current, pl);
    CHECK_EQ_INT(s->pos.c.declare_k, 1);
    play(s, GA_DECLARE, pl, 1);
    CHECK_EQ_INT(s->pos.c.phase, GR_BONUS);
    CHECK_EQ_INT(s->pos.c.current, pl);
    play(s, GA_PLACE, pl, PT(6, 6));
    accept_all(s);
    CHECK_EQ_INT(s->pos.c.phase, GR_TURN);
    CHECK_EQ_INT(s->pos.c.current, 3 - pl);
    free(s);
}

/* Owed bonus turns with no admissible point are dropped (forfeit) and the turn passes on.
 * referee=strict, N=5, d=1 e=2: every point within 2 of the last stone is taken. */
static void test_owed_bonus_turns_forfeited_without_admissible_point(void)
{
    grav_state *s = game_n(5, 2, (grav_params){100, 2, 4, 1, 2}, 1, 0);
    static const int path[6][2] = {{0, 2}, {1, 1}, {2, 0}, {1, 0}, {0, 1}, {0, 0}};
    for (int i = 0; i < 5; i++)
        put(s, path[i][0], path[i][1]);
    int pl = grav_to_move(&s->pos);
    CHECK_EQ_INT(pl, 2);
    play(s, GA_PLACE, pl, PT(0, 0));   /* completes the 2x2 square: k >= 1 */
    CHECK_EQ_INT(s->pos.c.phase, GR_DECLARE);
    play(s, GA_DECLARE, pl, 1);
    CHECK(has_auto(GR_AUTO_FORFEIT, pl));
    CHECK_EQ_INT(last_autos[0].value, 1);
    CHECK_EQ_INT(s->pos.c.owed, 0);
    CHECK_EQ_INT(s->pos.c.phase, GR_TURN);
    CHECK_EQ_INT(s->pos.c.current, 3 - pl);
    free(s);
}

/* referee=strict: violating placements are refused outright (and nobody is asked). */
static void test_strict_referee_refuses_violating_placements(void)
{
    grav_state *s = game_n(5, 2, (grav_params){100, 2, 4, 1, 2}, 1, 0);
    play(s, GA_PLACE, 1, PT(0, 2));
    CHECK_EQ_INT(s->pos.c.phase, GR_TURN);   /* no window */
    CHECK_EQ_INT(s->pos.c.current, 2);
    CHECK(!is_legal(s, GR_MOVE(GA_PLACE, 2, PT(4, 4))));   /* distance 6 > e */
    CHECK(!is_legal(s, GR_MOVE(GA_PLACE, 2, PT(0, 2))));   /* occupied */
    CHECK(is_legal(s, GR_MOVE(GA_PLACE, 2, PT(1, 1))));
    CHECK(grav_placement_violations(&s->pos, PT(4, 4)) & GR_V_DISTANCE);
    CHECK_EQ_INT(count_legal(s, GA_GRAV), 0);
    free(s);
}

/* ---- End and result ------------------------------------------------------------------------ */

/* The game ends when every active player passed since the last stone stood or was removed. */
static void test_end_when_all_passed_since_last_stone(void)
{
    grav_state *s = game(3);
    play(s, GA_PASS, 1, 0);
    play(s, GA_PASS, 2, 0);
    put(s, 4, 4);   /* player 3: the passes before it no longer count */
    play(s, GA_PASS, 1, 0);
    play(s, GA_PASS, 2, 0);
    CHECK(s->pos.c.phase != GR_OVER);
    play(s, GA_PASS, 3, 0);
    CHECK_EQ_INT(s->pos.c.phase, GR_OVER);
    CHECK(has_auto(GR_AUTO_END, 3));
    CHECK_EQ_INT(s->pos.c.reason, GR_R_PASSES);
    gv_result res;
    CHECK_EQ_INT(grav_status(s, &res), GV_WIN);
    CHECK_EQ_INT(res.winner, 2);   /* player 3, 0-based */
    CHECK_STR(res.reason, "passes");
    CHECK_EQ_INT(count_legal(s, GA_PASS) + count_legal(s, GA_RESIGN), 0);
    free(s);
}

/* After a correct call and its removal, the passes of every player end the game. */
static void test_game_ends_on_passes_after_a_removal(void)
{
    grav_state *s = game(2);
    put(s, 0, 0);
    put(s, 1, 0);
    put(s, 0, 1);
    play(s, GA_PLACE, 2, PT(1, 1));   /* violates */
    play(s, GA_GRAV, 1, 0);
    play(s, GA_REMOVE, 1, PT(1, 0));
    play(s, GA_PASS, 1, 0);
    CHECK(s->pos.c.phase != GR_OVER);
    play(s, GA_PASS, 2, 0);
    CHECK_EQ_INT(s->pos.c.phase, GR_OVER);
    CHECK_EQ_INT(s->pos.c.winner, 1);
    free(s);
}

/* A skipped turn is not a pass. */
static void test_skipped_turn_is_not_a_pass(void)
{
    grav_state *s = game(3);
    play(s, GA_PLACE, 1, PT(0, 0));
    play(s, GA_GRAV, 2, 0);   /* wrong: player 2 skips */
    CHECK(has_auto(GR_AUTO_SKIP, 2));
    play(s, GA_PASS, 3, 0);
    play(s, GA_PASS, 1, 0);
    CHECK(s->pos.c.phase != GR_OVER);   /* 2 skipped, it did not pass */
    CHECK_EQ_INT(s->pos.c.current, 2);
    play(s, GA_PASS, 2, 0);
    CHECK_EQ_INT(s->pos.c.phase, GR_OVER);
    CHECK_EQ_INT(s->pos.c.winner, 1);
    free(s);
}

/* Among players tied for most stones, the one latest in the order wins. */
static void test_tie_latest_in_order_wins(void)
{
    grav_state *s = game(3);
    put(s, 0, 0);
    put(s, 5, 5);
    put(s, 9, 9);
    play(s, GA_PASS, 1, 0);
    play(s, GA_PASS, 2, 0);
    play(s, GA_PASS, 3, 0);
    CHECK_EQ_INT(s->pos.c.phase, GR_OVER);
    CHECK_EQ_INT(s->pos.c.winner, 3);
    free(s);
    s = game(3);
    put(s, 0, 0);
    put(s, 5, 5);
    play(s, GA_PASS, 3, 0);
    play(s, GA_PASS, 1, 0);
    play(s, GA_PASS, 2, 0);
    CHECK_EQ_INT(s->pos.c.phase, GR_OVER);
    CHECK_EQ_INT(s->pos.c.winner, 2);   /* 1 and 2 tied, 3 behind */
    free(s);
}

/* The game ends after max_turns regular turns, scored by stones. */
static void test_max_turns_ends_the_game(void)
{
    grav_state *s = game_n(N, 2, (grav_params){5, 2, 3, 1, 20}, 0, 3);
    put(s, 0, 0);
    put(s, 5, 5);
    CHECK(s->pos.c.phase != GR_OVER);
    play(s, GA_PLACE, 1, PT(9, 9));
    play(s, GA_ACCEPT, 2, 0);
    CHECK_EQ_INT(s->pos.c.phase, GR_OVER);
    CHECK_EQ_INT(s->pos.c.reason, GR_R_MAXTURNS);
    CHECK_EQ_INT(s->pos.c.winner, 1);
    CHECK(has_auto(GR_AUTO_END, 1));
    free(s);
}

/* ---- Resignation ------------------------------------------------------------------------ */

static void test_resign_two_players_other_wins(void)
{
    grav_state *s = game(2);
    put(s, 0, 0);
    put(s, 5, 5);
    put(s, 9, 9);   /* player 1 leads on stones */
    play(s, GA_RESIGN, 1, 0);   /* even out of turn */
    CHECK_EQ_INT(s->pos.c.phase, GR_OVER);
    CHECK_EQ_INT(s->pos.c.winner, 2);
    CHECK_EQ_INT(s->pos.c.reason, GR_R_RESIGN);
    CHECK(has_auto(GR_AUTO_END, 2));
    free(s);
}

/* With three or more players a resigner becomes inactive: not asked, its turns passed over,
 * not counted for the most stones; when one active player is left it wins. */
static void test_resign_three_players_becomes_inactive(void)
{
    grav_state *s = game(3);
    put(s, 0, 0);   /* 1 */
    put(s, 5, 5);   /* 2 */
    put(s, 9, 9);   /* 3 */
    put(s, 5, 9);   /* 1 */
    put(s, 9, 5);   /* 2 */
    CHECK_EQ_INT(s->pos.count[2], 2);
    play(s, GA_RESIGN, 2, 0);   /* during player 3's turn */
    CHECK(s->pos.c.phase != GR_OVER);
    CHECK_EQ_INT(s->pos.c.current, 3);
    play(s, GA_PLACE, 3, PT(0, 9));
    CHECK_EQ_INT(s->pos.c.nasked, 1);   /* only player 1 is asked */
    CHECK_EQ_INT(grav_to_move(&s->pos), 1);
    play(s, GA_ACCEPT, 1, 0);
    CHECK_EQ_INT(s->pos.c.current, 1);
    play(s, GA_PASS, 1, 0);
    CHECK_EQ_INT(s->pos.c.current, 3);   /* 2 is passed over */
    play(s, GA_PASS, 3, 0);
    CHECK_EQ_INT(s->pos.c.phase, GR_OVER);
    CHECK_EQ_INT(s->pos.c.winner, 3);   /* 1 and 3 tied at 2; 2 (2 stones) is out */
    free(s);
    s = game(3);
    play(s, GA_RESIGN, 2, 0);
    CHECK(s->pos.c.phase != GR_OVER);
    play(s, GA_RESIGN, 1, 0);
    CHECK_EQ_INT(s->pos.c.phase, GR_OVER);
    CHECK_EQ_INT(s->pos.c.winner, 3);
    CHECK_EQ_INT(s->pos.c.reason, GR_R_RESIGN);
    free(s);
}

/* ---- Two-player implicit accept --------------------------------------------------------- */

static void test_two_player_implicit_accept_only_when_opponent_turn_follows(void)
{
    grav_state *s = game(2);
    play(s, GA_PLACE, 1, PT(0, 0));
    CHECK(is_legal(s, GR_MOVE(GA_PASS, 2, 0)));
    CHECK(is_legal(s, GR_MOVE(GA_PLACE, 2, PT(5, 5))));
    play(s, GA_PLACE, 2, PT(5, 5));
    CHECK_EQ_INT(last_autos[0].type, GR_AUTO_ACCEPT);
    CHECK_EQ_INT(last_autos[0].player, 2);
    CHECK_EQ_INT(s->pos.board[PT(0, 0)], 1);
    CHECK_EQ_INT(s->pos.c.phase, GR_WINDOW);
    CHECK_EQ_INT(grav_to_move(&s->pos), 1);
    play(s, GA_PASS, 1, 0);   /* implicit accept by a pass */
    CHECK(has_auto(GR_AUTO_ACCEPT, 1));
    CHECK_EQ_INT(s->pos.c.current, 2);
    CHECK(s->pos.c.passed & 1);
    free(s);
    /* Not when the stone completes a shape: a declaration follows, not the opponent's turn. */
    s = game(2);
    put(s, 0, 0);
    put(s, 0, 1);
    put(s, 0, 2);
    int pl = grav_to_move(&s->pos);
    play(s, GA_PLACE, pl, PT(0, 3));
    CHECK(!is_legal(s, GR_MOVE(GA_PASS, 3 - pl, 0)));
    CHECK(!is_legal(s, GR_MOVE(GA_PLACE, 3 - pl, PT(6, 6))));
    CHECK(is_legal(s, GR_MOVE(GA_ACCEPT, 3 - pl, 0)));
    free(s);
    /* Not with three players. */
    s = game(3);
    play(s, GA_PLACE, 1, PT(0, 0));
    CHECK(!is_legal(s, GR_MOVE(GA_PASS, 2, 0)));
    free(s);
}

/* ---- make / unmake --------------------------------------------------------------------- */

static void test_unmake_restores_state(void)
{
    for (int players = 2; players <= 4; players++) {
        grav_state *s = game(players);
        static char before[200][GV_MAX_TEXT];
        uint64_t hashes[200];
        gv_move moves[GV_MAX_MOVES];
        uint64_t rng = 99 + (uint64_t)players;
        int ply = 0;
        for (; ply < 200 && s->pos.c.phase != GR_OVER; ply++) {
            grav_get_text(&s->pos, before[ply], GV_MAX_TEXT);
            hashes[ply] = grav_hash(&s->pos);
            int n = grav_legal_moves(s, moves);
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            int c = (int)((rng >> 33) % (uint64_t)n);
            if (GR_ACT(moves[c]) == GA_RESIGN && (rng >> 20) % 8)
                c = 0;
            grav_make(s, moves[c], NULL);
        }
        for (int i = ply - 1; i >= 0; i--) {
            grav_unmake(s);
            char now[GV_MAX_TEXT];
            grav_get_text(&s->pos, now, sizeof now);
            if (strcmp(now, before[i]) != 0) {
                fprintf(stderr, "  ply %d:\n  %s\n  %s\n", i, now, before[i]);
                CHECK(0);
                break;
            }
            CHECK(grav_hash(&s->pos) == hashes[i]);
        }
        free(s);
    }
}

const t_case grav_flow_rules_tests[] = {
    T(test_correct_call_takes_back_removes_and_caller_moves_next),
    T(test_correct_call_on_placer_without_stones_is_no_removal),
    T(test_correct_call_loses_owed_bonus_turns),
    T(test_wrong_call_stone_stays_and_caller_skips_next_turn),
    T(test_wrong_call_skips_add_up),
    T(test_wrong_call_placer_finishes_bonus_turns),
    T(test_bonus_declaration_range_and_no_pass),
    T(test_bonus_declaration_bounded_by_empty_points_minus_owed),
    T(test_bonus_placement_can_chain_further_bonuses),
    T(test_owed_bonus_turns_forfeited_without_admissible_point),
    T(test_strict_referee_refuses_violating_placements),
    T(test_end_when_all_passed_since_last_stone),
    T(test_game_ends_on_passes_after_a_removal),
    T(test_skipped_turn_is_not_a_pass),
    T(test_tie_latest_in_order_wins),
    T(test_max_turns_ends_the_game),
    T(test_resign_two_players_other_wins),
    T(test_resign_three_players_becomes_inactive),
    T(test_two_player_implicit_accept_only_when_opponent_turn_follows),
    T(test_unmake_restores_state),
    {0},
};
