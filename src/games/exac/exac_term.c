/* The terminal game's Exac view (term/play.h): a 7x7 board, each piece's current roles on
 * request (the rules core's exac_piece_dests decides them), a piece's moves marked. */
#include <stdio.h>
#include <string.h>

#include "games/exac/exac.h"
#include "games/exac/exac_term.h"
#include "term/play.h"

static const char *const role_name[EX_NROLES] = {"Polus (soldier)", "Yachi (tower)",
                                                 "Perits (wall)", "Adrib (horse)",
                                                 "Potersin (wizard)", "Lapah (count)"};
static const char files[] = "gnmsdvz";

static const char *exac_side_name(const play *p, int side)
{
    (void)p;
    return side ? "Second" : "First";
}

static const char *glyph(const play *p, int side)
{
    if (p->term.unicode)
        return side ? "○" : "●";
    return side ? "S" : "F";
}

static void exac_side_mark(const play *p, int side, char *buf, size_t len)
{
    snprintf(buf, len, "%s", glyph(p, side));
}

/* The view's own settings (play.view_state, zero at the start): whether the board shows
 * role letters, and the square + 1 of the piece whose moves are marked (0: none). */
enum { SHOW_ROLES, MARKED };

static const exac_pos *cur(const play *p)
{
    return &((const exac_state *)gv_engine_state(p->e))->pos;
}

/* The role letters of the piece on sq ("HT*": Adrib, Potersin, boosted). */
static void role_letters(const exac_pos *pos, int sq, char *buf)
{
    exac_dests d;
    exac_piece_dests(pos, sq, &d);
    int n = 0;
    for (int r = 1; r < EX_NROLES; r++)
        if (d.has_role[r])
            buf[n++] = exac_role_letter[r];
    if (d.boosted)
        buf[n++] = '*';
    buf[n] = 0;
}

static void exac_draw(const play *p, FILE *out)
{
    const exac_pos *pos = cur(p);
    char sgr[24];
    gv_move last = play_last_move(p);
    uint64_t base = 0, boost = 0;
    int from = p->view_state[MARKED] - 1;
    if (from >= 0 && ((pos->bb[0] | pos->bb[1]) & EX_BIT(from))) {
        exac_dests d;
        exac_piece_dests(pos, from, &d);
        for (int r = 0; r < EX_NROLES; r++) {
            base |= d.base[r];
            boost |= d.boost[r];
        }
        boost &= ~base;
    }
    int w = p->view_state[SHOW_ROLES] ? 7 : 4;
    fputs("\n    ", out);
    for (int c = 0; c < EX_N; c++)
        fprintf(out, "%*s%c%*s", 1, "", files[p->flip ? EX_N - 1 - c : c], w - 2, "");
    fputs("\n", out);
    for (int r = 0; r < EX_N; r++) {
        int y = p->flip ? EX_N - 1 - r : r;
        fprintf(out, "  %d ", y + 1);
        for (int c = 0; c < EX_N; c++) {
            int x = p->flip ? EX_N - 1 - c : c, sq = EX_SQ(x, y);
            int side = (pos->bb[0] & EX_BIT(sq)) ? 0 : (pos->bb[1] & EX_BIT(sq)) ? 1 : -1;
            int lastsq = last && (EX_FROM(last) == sq || EX_TO(last) == sq);
            int dest = (base & EX_BIT(sq)) ? 1 : (boost & EX_BIT(sq)) ? 2 : 0;
            const char *bg = dest == 1 ? "42;" : dest == 2 ? "43;" : lastsq ? "100;" : "";
            const char *fg = side == 0 ? "1" : side == 1 ? "1;31" : "2";
            char codes[16], roles[8] = "";
            snprintf(codes, sizeof codes, "%s%s", bg, fg);
            if (side >= 0 && p->view_state[SHOW_ROLES])
                role_letters(pos, sq, roles);
            /* Without colours: [ ] around the last move's squares, o / + after a marked
             * piece's destinations. */
            char pre = ' ', post = ' ';
            if (!p->term.color) {
                pre = lastsq ? '[' : ' ';
                post = lastsq ? ']' : dest == 1 ? 'o' : dest == 2 ? '+' : ' ';
            }
            fputs(play_sgr(&p->term, codes, sgr, sizeof sgr), out);
            fprintf(out, "%c%s", pre, side >= 0 ? glyph(p, side) : ".");
            int used = 2;
            if (p->view_state[SHOW_ROLES])
                used += fprintf(out, "%s", roles);
            fputc(post, out);
            used++;
            for (; used < w; used++)
                fputc(' ', out);
            fputs(play_sgr_reset(&p->term), out);
        }
        fprintf(out, " %d\n", y + 1);
    }
    char who[128];
    play_who(p, pos->stm, who, sizeof who);
    fprintf(out, "\n  Move %u, %s to move.\n  Pieces: First %d, Second %d.  Plies without capture: %u",
            pos->movenum, who, __builtin_popcountll(pos->bb[0]), __builtin_popcountll(pos->bb[1]),
            pos->quiet);
    if (pos->opt.quiet_limit)
        fprintf(out, " (draw at %u)", pos->opt.quiet_limit);
    fputs("\n  Yachis (capturing one wins):", out);
    for (int s = 0; s < 2; s++) {
        uint64_t y = exac_yachis(pos, s);
        fprintf(out, " %s", s ? " Second" : "First");
        if (!y)
            fputs(" -", out);
        for (int sq = 0; sq < EX_SQUARES; sq++)
            if (y & EX_BIT(sq))
                fprintf(out, " %c%d", files[EX_X(sq)], EX_Y(sq) + 1);
    }
    fputs("\n", out);
    if (p->nplies)
        fprintf(out, "  Last move: %s\n", p->ply[p->nplies - 1].text);
}

static void exac_describe(const play *p, gv_move m, char *buf, size_t len)
{
    char note[32] = "?", from[4], to[4];
    exac_write_move(gv_engine_state(p->e), m, note, sizeof note);
    exac_square_name(EX_FROM(m), from);
    exac_square_name(EX_TO(m), to);
    snprintf(buf, len, "%s  (%s-%s)", note, from, to);
}

static void exac_after_move(play *p, gv_move m, const void *before)
{
    (void)m;
    (void)before;
    p->view_state[MARKED] = 0;
}

static void exac_ask(const play *p, char *buf, size_t len)
{
    char who[128];
    play_who(p, cur(p)->stm, who, sizeof who);
    snprintf(buf, len, "%s, your move (like m5, Hxd3 or m6-m5)", who);
}

static void exac_normalize(const play *p, const char *in, char *out, size_t len)
{
    (void)p;
    snprintf(out, len, "%s", in);
}

/* `roles` toggles the role letters on the board; `roles SQ` explains one piece and marks
 * its moves. */
static int exac_command(play *p, const char *cmd, const char *arg)
{
    if (strcmp(cmd, "roles") != 0)
        return 0;
    const exac_pos *pos = cur(p);
    if (!*arg || !strcmp(arg, "on") || !strcmp(arg, "off")) {
        p->view_state[SHOW_ROLES] = !*arg ? !p->view_state[SHOW_ROLES] : !strcmp(arg, "on");
        p->view_state[MARKED] = 0;
        play_note(p, "Role letters on the board: %s. A=Yachi P=Perits H=Adrib T=Potersin L=Lapah,\n"
               "* = boosted (a friendly Yachi next to it); every piece also moves as Polus.\n",
               p->view_state[SHOW_ROLES] ? "on" : "off");
        return 2;
    }
    int sq;
    if (exac_parse_square(arg, &sq) != 2 || arg[2]) {
        printf("roles: '%s' is not a square (files g n m s d v z, ranks 1..7, like m5)\n", arg);
        return 1;
    }
    int side = (pos->bb[0] & EX_BIT(sq)) ? 0 : (pos->bb[1] & EX_BIT(sq)) ? 1 : -1;
    if (side < 0) {
        printf("roles: there is no piece on %s\n", arg);
        return 1;
    }
    exac_dests d;
    exac_piece_dests(pos, sq, &d);
    p->view_state[MARKED] = sq + 1;
    char line[1024];
    int n = snprintf(line, sizeof line, "%s's piece on %s is%s:", exac_side_name(p, side), arg,
                     d.boosted ? " boosted (a friendly Yachi stands next to it)" : "");
    for (int r = 0; r < EX_NROLES; r++) {
        if (!d.has_role[r])
            continue;
        n += snprintf(line + n, sizeof line - (size_t)n, "\n  %-18s", role_name[r]);
        uint64_t all = d.base[r] | d.boost[r];
        if (!all)
            n += snprintf(line + n, sizeof line - (size_t)n, " no move");
        for (int t = 0; t < EX_SQUARES && n < (int)sizeof line - 8; t++)
            if (all & EX_BIT(t))
                n += snprintf(line + n, sizeof line - (size_t)n, " %c%d%s", files[EX_X(t)],
                              EX_Y(t) + 1, (d.boost[r] & ~d.base[r] & EX_BIT(t)) ? "*" : "");
    }
    play_note(p, "%s\n  (%s)\n", line,
           p->term.color ? "green: its moves, yellow: moves only its boost gives"
                         : "o: its moves, +: moves only its boost gives; * = boosted move");
    return 2;
}

static const char exac_help[] =
    "Exac: First moves first from the bottom toward rank 1; files g n m s d v z, ranks 1..7\n"
    "from the top. Type a move in the game's notation (m5, Hxd3, T*v5) or from-to (m6-m5).\n"
    "A piece's roles come from where it stands (see docs/exac.md):\n"
    "  roles        show/hide every piece's role letters on the board\n"
    "  roles SQ     what the piece on SQ is now and where it can go (marked on the board)\n";

const play_view gv_exac_term_view = {
    .help = exac_help,
    .side_name = exac_side_name,
    .side_mark = exac_side_mark,
    .draw = exac_draw,
    .ask = exac_ask,
    .normalize = exac_normalize,
    .describe = exac_describe,
    .after_move = exac_after_move,
    .command = exac_command,
};
