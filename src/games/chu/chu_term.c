/* The terminal game's Chu Shogi view (term/play.h): a 12x12 board in kanji or two-letter
 * abbreviations, promoted pieces marked, the last move highlighted. */
#include <stdio.h>
#include <string.h>

#include "games/chu/chu.h"
#include "games/chu/chu_term.h"
#include "term/play.h"

/* One kanji per piece type (the usual one-character names), index = chu_type; promoted
 * types show the piece they become. */
static const char *const chu_kanji[CHU_NTYPES] = {
    [CT_LANCE] = "香", [CT_LEOPARD] = "豹", [CT_COPPER] = "銅", [CT_SILVER] = "銀",
    [CT_GOLD] = "金", [CT_KING] = "王", [CT_ELEPHANT] = "象", [CT_CHARIOT] = "反",
    [CT_BISHOP] = "角", [CT_TIGER] = "虎", [CT_PHOENIX] = "鳳", [CT_KIRIN] = "麒",
    [CT_SIDE] = "横", [CT_VERTICAL] = "竪", [CT_ROOK] = "飛", [CT_HORSE] = "馬",
    [CT_DRAGON] = "龍", [CT_QUEEN] = "奔", [CT_LION] = "獅", [CT_PAWN] = "歩",
    [CT_GOBETWEEN] = "仲",
    [CT_LANCE + CHU_PROMO] = "駒", [CT_LEOPARD + CHU_PROMO] = "角",
    [CT_COPPER + CHU_PROMO] = "横", [CT_SILVER + CHU_PROMO] = "竪",
    [CT_GOLD + CHU_PROMO] = "飛", [CT_ELEPHANT + CHU_PROMO] = "太",
    [CT_CHARIOT + CHU_PROMO] = "鯨", [CT_BISHOP + CHU_PROMO] = "馬",
    [CT_TIGER + CHU_PROMO] = "鹿", [CT_PHOENIX + CHU_PROMO] = "奔",
    [CT_KIRIN + CHU_PROMO] = "獅", [CT_SIDE + CHU_PROMO] = "猪",
    [CT_VERTICAL + CHU_PROMO] = "牛", [CT_ROOK + CHU_PROMO] = "龍",
    [CT_HORSE + CHU_PROMO] = "鷹", [CT_DRAGON + CHU_PROMO] = "鷲",
    [CT_PAWN + CHU_PROMO] = "と", [CT_GOBETWEEN + CHU_PROMO] = "象",
};

/* TSA abbreviations (what TSA moves use), index = base type; promoted pieces are "+X". */
static const char *const chu_abbr[22] = {
    "?", "L", "FL", "C", "S", "G", "K", "DE", "RC", "B", "BT", "PH",
    "KY", "SM", "VM", "R", "DH", "DK", "FK", "LN", "P", "GB",
};

static const char *chu_side_name(const play *p, int side)
{
    (void)p;
    return side ? "Gote" : "Sente";
}

static void chu_side_mark(const play *p, int side, char *buf, size_t len)
{
    snprintf(buf, len, "%s", p->term.unicode ? (side ? "☖" : "☗") : "");
}

/* Writes one 4-column cell for piece byte pc (0 empty). */
static void chu_cell(const play *p, int pc, int marked, FILE *out)
{
    char sgr[24];
    int t = CHU_TYPE(pc), gote = CHU_COLOR(pc), promo = t > CHU_PROMO;
    const char *bg = marked ? "100;" : "";
    if (!pc) {
        if (marked && p->term.color)
            fprintf(out, "%s .  %s", play_sgr(&p->term, "100", sgr, sizeof sgr),
                    play_sgr_reset(&p->term));
        else
            fputs(marked ? " .* " : " .  ", out);
        return;
    }
    char codes[16];
    snprintf(codes, sizeof codes, "%s%s", bg, gote ? "1;31" : (promo ? "1;33" : "1"));
    fputs(play_sgr(&p->term, codes, sgr, sizeof sgr), out);
    if (p->native_pieces) {
        fprintf(out, "%c%s%c", gote ? 'v' : ' ', chu_kanji[t] ? chu_kanji[t] : "？",
                promo ? '+' : (marked && !p->term.color ? '*' : ' '));
    } else {
        char ab[4];
        const char *a = chu_abbr[promo ? t - CHU_PROMO : t];
        int k = 0;
        for (; a[k] && k < 3; k++)
            ab[k] = (char)(gote && a[k] >= 'A' && a[k] <= 'Z' ? a[k] + 32 : a[k]);
        ab[k] = 0;
        int w = fprintf(out, "%c%s", promo ? '+' : ' ', ab);
        if (marked && !p->term.color)
            w += fprintf(out, "*");
        for (; w < 4; w++)
            fputc(' ', out);
    }
    fputs(play_sgr_reset(&p->term), out);
}

static void chu_draw(const play *p, FILE *out)
{
    const chu_state *s = gv_engine_state(p->e);
    const chu_pos *pos = &s->pos;
    gv_move last = play_last_move(p);
    int mark[3] = {-1, -1, -1};
    if (last) {
        mark[0] = CHU_FROM(last);
        mark[1] = CHU_TO(last);
        mark[2] = CHU_MID(last) ? CHU_MID(last) : -1;
    }
    fputs("\n    ", out);
    for (int c = 0; c < CHU_N; c++)
        fprintf(out, "%3d ", p->flip ? c + 1 : CHU_N - c);
    fputs("\n", out);
    for (int r = 0; r < CHU_N; r++) {
        int row = p->flip ? CHU_N - 1 - r : r;
        fprintf(out, "  %c ", 'a' + row);
        for (int c = 0; c < CHU_N; c++) {
            int col = p->flip ? CHU_N - 1 - c : c;
            int sq = CHU_SQ(row, col);
            int m = sq == mark[0] || sq == mark[1] || sq == mark[2];
            chu_cell(p, pos->board[sq], m, out);
        }
        fprintf(out, " %c\n", 'a' + row);
        /* The promotion zones: ranks a-d and i-l. */
        if (r == 3 || r == 7)
            fprintf(out, "    %s\n", "  - - - - - - - - - - - - - - - - - - - - - - -");
    }
    char who[128];
    if (pos->opt.heisei) {
        /* Heisei Chu: each side's reserve, in SFEN's order, with its count. */
        for (int side = 0; side < 2; side++) {
            play_who(p, side, who, sizeof who);
            fprintf(out, "  Reserve of %s:", who);
            int any = 0;
            for (int k = 0; k < CHU_HAND_KINDS; k++)
                if (pos->hand[side][k]) {
                    fprintf(out, " %s x%d", chu_abbr[chu_hand_type[k]], pos->hand[side][k]);
                    any = 1;
                }
            fprintf(out, "%s\n", any ? "" : " none");
        }
    }
    play_who(p, pos->stm, who, sizeof who);
    fprintf(out, "\n  Move %u, %s to move.%s%s\n", pos->movenum, who,
            chu_in_check(pos, pos->stm) ? "  Check!" : "",
            pos->cs ? "  (counter-strike: a Lion may only be taken back by a Lion)" : "");
    if (p->nplies) {
        const play_ply *l = &p->ply[p->nplies - 1];
        fprintf(out, "  Last move: %s\n", l->text);
    }
}

static void chu_describe(const play *p, gv_move m, char *buf, size_t len)
{
    char usi[32] = "?", tsa[32] = "";
    const chu_state *s = gv_engine_state(p->e);
    chu_write_usi(&s->pos, m, usi, sizeof usi);
    if (chu_write_tsa(s, m, tsa, sizeof tsa) > 0)
        snprintf(buf, len, "%s  (%s)", usi, tsa);
    else
        snprintf(buf, len, "%s", usi);
}

static void chu_ask(const play *p, char *buf, size_t len)
{
    char who[128];
    const chu_state *s = gv_engine_state(p->e);
    play_who(p, s->pos.stm, who, sizeof who);
    snprintf(buf, len, "%s, your move (like 7i7h or P-7h)", who);
}

static void chu_normalize(const play *p, const char *in, char *out, size_t len)
{
    (void)p;
    snprintf(out, len, "%s", in);
}

static const char chu_help[] =
    "Chu Shogi: Sente (upper case) moves first from the bottom; ranks a..l from the top,\n"
    "files 12..1 from the left. Type a move in USI or TSA notation:\n"
    "  7i7h  7i7h+ (promote)  6i5h4h (lion double step)  6i5h6i (igui)  pass: 7g7f7g\n"
    "  P-7h  Px7d= (decline promotion)  Lnx!9d (igui)  Lnx3hx2i (double capture)  pass\n"
    "  Heisei Chu's drops: L*5e  S*5c+ (enters promoted, in the zone)\n"
    "Pieces: kanji (v = Gote's, + = promoted; --pieces abbrev for letters) or TSA letters\n"
    "(lower case = Gote's). The last move is highlighted (* without colours).\n";

const play_view gv_chu_term_view = {
    .help = chu_help,
    .side_name = chu_side_name,
    .side_mark = chu_side_mark,
    .draw = chu_draw,
    .ask = chu_ask,
    .normalize = chu_normalize,
    .describe = chu_describe,
};
