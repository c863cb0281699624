/* The terminal game's Grav view (term/play.h): the board with coordinates, the last
 * stone, the reference stone and the distance band; the parameters shown to everyone;
 * each phase's question (place or pass, accept or Grav!, declare, remove); what the
 * referee did; the placer's private `check` (option hints); the AI's playouts and
 * expected share while it thinks. The view never tells anyone whether a placement
 * awaiting answers breaks a rule. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/grav/grav.h"
#include "games/grav/grav_term.h"
#include "term/play.h"

static const char *const stone_utf[GR_MAXP] = {"●", "○", "▲", "△", "■", "□"};
static const char *const stone_color[GR_MAXP] = {"1;31", "1;36", "1;32", "1;33", "1;35", "1;34"};

static const grav_pos *cur(const play *p)
{
    return &((const grav_state *)gv_engine_state(p->e))->pos;
}

static const char *grav_side_name(const play *p, int side)
{
    static const char *const names[GR_MAXP] = {"Player 1", "Player 2", "Player 3",
                                               "Player 4", "Player 5", "Player 6"};
    (void)p;
    return side >= 0 && side < GR_MAXP ? names[side] : "nobody";
}

/* The stone of player pl (1-based) as text, coloured when colours are on. */
static void stone(const play *p, int pl, char *buf, size_t len)
{
    char sgr[24];
    char g[8];
    if (p->term.unicode)
        snprintf(g, sizeof g, "%s", stone_utf[pl - 1]);
    else
        snprintf(g, sizeof g, "%d", pl);
    snprintf(buf, len, "%s%s%s", play_sgr(&p->term, stone_color[pl - 1], sgr, sizeof sgr), g,
             play_sgr_reset(&p->term));
}

static void grav_side_mark(const play *p, int side, char *buf, size_t len)
{
    if (side < 0 || side >= cur(p)->players || !p->term.unicode) {
        buf[0] = 0;
        return;
    }
    stone(p, side + 1, buf, len);
}

static int dist(const grav_pos *pos, int a, int b)
{
    return abs(a % pos->n - b % pos->n) + abs(a / pos->n - b / pos->n);
}

static void point_name(const grav_pos *pos, int q, char *buf)
{
    grav_point_name(pos, q, buf);
}

static void grav_draw(const play *p, FILE *out)
{
    const grav_pos *pos = cur(p);
    const grav_ctl *c = &pos->c;
    char sgr[24], st[48], nm[8];
    int n = pos->n, ref = grav_reference(pos);
    int last = pos->norder ? pos->order[pos->norder - 1] : -1;
    fputs("\n    ", out);
    for (int x = 0; x < n; x++)
        fprintf(out, " %c ", n == 7 ? "gnmsdvz"[x] : 'a' + x);
    fputs("\n", out);
    for (int y = 0; y < n; y++) {
        fprintf(out, " %2d ", y + 1);
        for (int x = 0; x < n; x++) {
            int q = y * n + x, pl = pos->board[q];
            if (pl) {
                stone(p, pl, st, sizeof st);
                char l = ' ', r = ' ';
                if (q == last)
                    l = '[', r = ']';
                else if (q == ref)
                    l = '(', r = ')';
                fprintf(out, "%c%s%c", l, st, r);
            } else if (ref >= 0 && dist(pos, q, ref) >= pos->prm.d && dist(pos, q, ref) <= pos->prm.e) {
                fprintf(out, " %s+%s ", play_sgr(&p->term, "32", sgr, sizeof sgr),
                        play_sgr_reset(&p->term));
            } else {
                fprintf(out, " %s%s%s ", play_sgr(&p->term, "2", sgr, sizeof sgr),
                        p->term.unicode ? "·" : ".", play_sgr_reset(&p->term));
            }
        }
        fprintf(out, " %d\n", y + 1);
    }
    /* Everyone sees the parameters. */
    fprintf(out, "\n  Rules: a=%d  no more than %d stones in a row on any line, at any equal spacing "
                 "(%s)\n",
            pos->prm.a, pos->prm.a, pos->opt.consecutive_own ? "own stones" : "all colours");
    fprintf(out, "         b=%d c=%d  at most %d stones in any %dx%d square\n", pos->prm.b,
            pos->prm.c, pos->prm.c, pos->prm.b, pos->prm.b);
    fprintf(out, "         d=%d e=%d  distance from the reference stone %d..%d (+ on the board)\n",
            pos->prm.d, pos->prm.e, pos->prm.d, pos->prm.e);
    fprintf(out, "  Seed %llu, referee %s, hints %s.  ", (unsigned long long)pos->seed,
            pos->opt.strict ? "strict" : "normal", pos->opt.hints ? "on" : "off");
    fprintf(out, "Stones:");
    for (int pl = 1; pl <= pos->players; pl++) {
        stone(p, pl, st, sizeof st);
        fprintf(out, "%s %s%s %d", pl > 1 ? "," : "", p->term.unicode ? "" : "P", st,
                pos->count[pl]);
        if (c->skips[pl - 1])
            fprintf(out, " (skips %d)", c->skips[pl - 1]);
        if (c->resigned & (1u << (pl - 1)))
            fputs(" (resigned)", out);
    }
    uint32_t limit = pos->opt.max_turns ? pos->opt.max_turns : 8u * (uint32_t)n * (uint32_t)n;
    fprintf(out, ".  Turn %u of %u.\n", c->turns, limit);
    if (last >= 0) {
        point_name(pos, last, nm);
        fprintf(out, "  Last stone [ ]: %s", nm);
        if (ref >= 0 && ref != last) {
            point_name(pos, ref, nm);
            fprintf(out, "   reference stone ( ): %s", nm);
        }
        fputs("\n", out);
    }
    if (c->phase == GR_WINDOW) {
        point_name(pos, c->pend_q, nm);
        fprintf(out, "  Player %d's stone on %s awaits answers.\n", c->pend_player, nm);
    }
    if (c->owed)
        fprintf(out, "  Player %d has %d bonus turn%s to place.\n", c->current, c->owed,
                c->owed == 1 ? "" : "s");
}

static void grav_describe(const play *p, gv_move m, char *buf, size_t len)
{
    const grav_pos *pos = cur(p);
    char pt[8];
    int arg = GR_ARG(m);
    switch (GR_ACT(m)) {
    case GA_PLACE: point_name(pos, arg, pt); snprintf(buf, len, "places %s", pt); break;
    case GA_PASS: snprintf(buf, len, "passes"); break;
    case GA_ACCEPT: snprintf(buf, len, "accepts"); break;
    case GA_GRAV: snprintf(buf, len, "calls Grav!"); break;
    case GA_DECLARE: snprintf(buf, len, "declares %d bonus turn%s", arg, arg == 1 ? "" : "s"); break;
    case GA_REMOVE: point_name(pos, arg, pt); snprintf(buf, len, "removes the stone on %s", pt); break;
    case GA_RESIGN: snprintf(buf, len, "resigns"); break;
    default: snprintf(buf, len, "?"); break;
    }
}

static void rules_broken(unsigned v, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = 0;
    for (int b = 0; b < 3; b++)
        if (v >> b & 1 && k < len)
            k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " : "", grav_rule_names[b]);
}

/* Says what the referee did with move m: a call's verdict (revealed only once called),
 * skipped turns, forfeited bonus turns, the end. */
static void grav_after_move(play *p, gv_move m, const void *before)
{
    grav_state *tmp = malloc(sizeof *tmp);
    if (!tmp)
        return;
    memcpy(tmp, before, sizeof *tmp);
    const grav_pos *b = &tmp->pos;
    int pend = b->c.pend_q, placer = b->c.pend_player;
    unsigned viol = b->c.pend_viol;
    grav_auto autos[GR_MAX_AUTO];
    int na = grav_make(tmp, m, autos);
    char pt[8], why[64];
    if (GR_ACT(m) == GA_GRAV && pend >= 0) {
        grav_point_name(b, pend, pt);
        if (!tmp->pos.board[pend]) {
            rules_broken(viol, why, sizeof why);
            play_log(p, "Correct call! The stone on %s broke the %s rule and is taken back.", pt, why);
        } else {
            play_log(p, "Wrong call: the stone on %s breaks no rule and stays; Player %d loses "
                        "its next turn.", pt, GR_PLAYER(m));
        }
    }
    for (int i = 0; i < na; i++) {
        const grav_auto *a = &autos[i];
        switch (a->type) {
        case GR_AUTO_SKIP: play_log(p, "Player %d's turn is skipped.", a->player); break;
        case GR_AUTO_FORFEIT:
            play_log(p, "Player %d loses %d owed bonus turn%s (no point left).", a->player,
                     a->value, a->value == 1 ? "" : "s");
            break;
        case GR_AUTO_NO_REMOVAL:
            play_log(p, "Player %d has no stone on the board to remove.", placer);
            break;
        default: break;
        }
    }
    free(tmp);
}

/* Whether the rules let the player asked in the window place a stone instead of answering
 * (placing then counts as accepting): asked of the core's legal moves. */
static int window_allows_placing(const play *p)
{
    gv_move mv[GV_MAX_MOVES];
    int n = p->g->legal_moves(gv_engine_state(p->e), mv);
    for (int i = 0; i < n; i++)
        if (GR_ACT(mv[i]) == GA_PLACE)
            return 1;
    return 0;
}

static void grav_ask(const play *p, char *buf, size_t len)
{
    const grav_pos *pos = cur(p);
    const grav_ctl *c = &pos->c;
    char who[128], pt[8];
    int pl = grav_to_move(pos);
    play_who(p, pl - 1, who, sizeof who);
    switch (c->phase) {
    case GR_TURN:
        snprintf(buf, len, "%s, place a stone (like %s) or pass", who, pos->n == 7 ? "m4" : "c3");
        break;
    case GR_BONUS:
        snprintf(buf, len, "%s, bonus turn (%d owed): place a stone", who, c->owed);
        break;
    case GR_WINDOW:
        point_name(pos, c->pend_q, pt);
        if (window_allows_placing(p))
            snprintf(buf, len, "%s, Player %d placed %s: accept, grav, or just play your turn", who,
                     c->pend_player, pt);
        else
            snprintf(buf, len, "%s, Player %d placed %s: accept or grav", who, c->pend_player, pt);
        break;
    case GR_DECLARE:
        snprintf(buf, len, "%s, your stone completed %d shape%s: declare how many bonus turns "
                           "(0..%d)", who, c->declare_k, c->declare_k == 1 ? "" : "s", c->declare_k);
        break;
    case GR_REMOVE:
        snprintf(buf, len, "%s, your call was right: remove a stone of Player %d's", who, c->victim);
        break;
    default:
        snprintf(buf, len, "%s", who);
        break;
    }
}

/* Short forms: a bare number while declaring, a bare point while removing, "grav!". */
static void grav_normalize(const play *p, const char *in, char *out, size_t len)
{
    const grav_pos *pos = cur(p);
    char w[64];
    snprintf(w, sizeof w, "%s", in);
    for (char *s = w; *s; s++)
        *s = (char)tolower((unsigned char)*s);
    size_t n = strlen(w);
    while (n && (w[n - 1] == '!' || w[n - 1] == ' '))
        w[--n] = 0;
    int q;
    if (pos->c.phase == GR_DECLARE && n && strspn(w, "0123456789") == n)
        snprintf(out, len, "declare %s", w);
    else if (pos->c.phase == GR_REMOVE && grav_parse_point(pos, w, &q) == (int)n && n)
        snprintf(out, len, "remove %s", w);
    else if (!strcmp(w, "grav") || !strcmp(w, "accept"))
        snprintf(out, len, "%s", w);
    else
        snprintf(out, len, "%s", in);
}

/* `check` (the points where your stone breaks no rule) and `check POINT`: private help for
 * the player about to place, when the game's hints option is on. */
static int grav_command(play *p, const char *cmd, const char *arg)
{
    if (strcmp(cmd, "check") != 0)
        return 0;
    const grav_pos *pos = cur(p);
    int pl = grav_to_move(pos);
    if (!pos->opt.hints) {
        play_note(p, "check: hints are off in this game (option hints).\n");
        return 1;
    }
    if (pos->c.phase != GR_TURN && pos->c.phase != GR_BONUS) {
        play_note(p, "check is for your own placement, on your turn (answer first): whether "
                     "someone else's stone breaks a rule is for you to find.\n");
        return 1;
    }
    char who[128], pt[8], why[64];
    play_who(p, pl - 1, who, sizeof who);
    if (*arg) {
        int q;
        int k = grav_parse_point(pos, arg, &q);
        if (!k || arg[k]) {
            play_note(p, "check: '%s' is not a point\n", arg);
            return 1;
        }
        if (pos->board[q]) {
            play_note(p, "check: %s is occupied\n", arg);
            return 1;
        }
        unsigned v = grav_placement_violations(pos, q);
        rules_broken(v, why, sizeof why);
        if (v)
            play_note(p, "[private to %s] A stone on %s would break the %s rule.\n", who, arg, why);
        else
            play_note(p, "[private to %s] A stone on %s breaks no rule.\n", who, arg);
        return 1;
    }
    int k = 0;
    play_note(p, "[private to %s] Points where your stone breaks no rule:", who);
    for (int q = 0; q < pos->n * pos->n; q++)
        if (!pos->board[q] && !grav_placement_violations(pos, q)) {
            point_name(pos, q, pt);
            play_note(p, " %s", pt);
            k++;
        }
    play_note(p, k ? "\n" : " none\n");
    return 1;
}

static int grav_hint_ok(const play *p, char *why, size_t len)
{
    const grav_pos *pos = cur(p);
    if (pos->c.phase == GR_WINDOW) {
        snprintf(why, len, "whether a stone breaks a rule is for you to find");
        return 0;
    }
    if (!pos->opt.hints) {
        snprintf(why, len, "hints are off in this game (option hints)");
        return 0;
    }
    return 1;
}

static const char grav_help[] =
    "Grav: players place stones in turn; a stone may break a rule (consecutive, density,\n"
    "distance from the reference stone) -- the others may then call Grav!. What to type:\n"
    "  c3 (a point: place)   pass   accept   grav   declare N (or just N)   remove c3\n"
    "  check [POINT]  (hints on) privately: would your stone there break a rule? / the\n"
    "                 points where it breaks none\n"
    "On the board: [ ] the last stone, ( ) the reference stone when another, + the points\n"
    "at the allowed distance d..e from the reference stone.\n";

/* While the AI thinks: its playouts, best move and expected stone share. */
static void grav_thinking(const play *p, const gv_search_info *in, const char *best, char *buf,
                          size_t len)
{
    (void)p;
    snprintf(buf, len, "  playouts %llu  best %s  share %.2f", (unsigned long long)in->nodes,
             best, in->score / 1000.0);
}

static int grav_players(const play *p)
{
    return cur(p)->players;
}

const play_view gv_grav_term_view = {
    .help = grav_help,
    .side_name = grav_side_name,
    .side_mark = grav_side_mark,
    .draw = grav_draw,
    .ask = grav_ask,
    .normalize = grav_normalize,
    .describe = grav_describe,
    .after_move = grav_after_move,
    .command = grav_command,
    .hint_ok = grav_hint_ok,
    .thinking = grav_thinking,
    .players = grav_players,
};
