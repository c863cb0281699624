/* Chu Shogi piece table, Zobrist keys and SFEN reading/writing (lishogi's format). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/chu/chu.h"

const char chu_start_sfen[] =
    "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
    "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";
const char chu_heisei_sfen[] =
    "1f2gekg2f1/2b1t2t1b2/2rhdqndhr2/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/"
    "2RHDNQDHR2/2B1T2T1B2/1F2GKEG2F1 b 2L2C2S2M2V2AOX2l2c2s2m2v2aox 1";

const uint8_t chu_hand_type[CHU_HAND_KINDS] = {CT_LANCE, CT_COPPER, CT_SILVER, CT_SIDE,
                                               CT_VERTICAL, CT_CHARIOT, CT_KIRIN, CT_PHOENIX};
const uint8_t chu_hand_max[CHU_HAND_KINDS] = {2, 2, 2, 2, 2, 2, 1, 1};

int chu_hand_kind(int t)
{
    for (int k = 0; k < CHU_HAND_KINDS; k++)
        if (chu_hand_type[k] == t)
            return k;
    return -1;
}

/* Relative directions: forward, forward-right, right, back-right, back, back-left,
 * left, forward-left. Sente's forward is towards rank a (row - 1); right is towards
 * file 1 (column + 1). Gote's offsets are the negation. */
const int8_t chu_dir[2][8] = {
    {-16, -15, 1, 17, 16, 15, -1, -17},
    {16, 15, -1, -17, -16, -15, 1, 17},
};

#define S MV_STEP
#define J MV_JUMP
#define R MV_SLIDE
#define L MV_LIONLINE
/*                              f  fr r  br b  bl l  fl */
const uint8_t chu_moves[CHU_NTYPES][8] = {
    [CT_LANCE]              = {R, 0, 0, 0, 0, 0, 0, 0},
    [CT_LEOPARD]            = {S, S, 0, S, S, S, 0, S},
    [CT_COPPER]             = {S, S, 0, 0, S, 0, 0, S},
    [CT_SILVER]             = {S, S, 0, S, 0, S, 0, S},
    [CT_GOLD]               = {S, S, S, 0, S, 0, S, S},
    [CT_KING]               = {S, S, S, S, S, S, S, S},
    [CT_ELEPHANT]           = {S, S, S, S, 0, S, S, S},
    [CT_CHARIOT]            = {R, 0, 0, 0, R, 0, 0, 0},
    [CT_BISHOP]             = {0, R, 0, R, 0, R, 0, R},
    [CT_TIGER]              = {0, S, S, S, S, S, S, S},
    [CT_PHOENIX]            = {S, J, S, J, S, J, S, J},
    [CT_KIRIN]              = {J, S, J, S, J, S, J, S},
    [CT_SIDE]               = {S, 0, R, 0, S, 0, R, 0},
    [CT_VERTICAL]           = {R, 0, S, 0, R, 0, S, 0},
    [CT_ROOK]               = {R, 0, R, 0, R, 0, R, 0},
    [CT_HORSE]              = {S, R, S, R, S, R, S, R},
    [CT_DRAGON]             = {R, S, R, S, R, S, R, S},
    [CT_QUEEN]              = {R, R, R, R, R, R, R, R},
    [CT_LION]               = {L, L, L, L, L, L, L, L},
    [CT_PAWN]               = {S, 0, 0, 0, 0, 0, 0, 0},
    [CT_GOBETWEEN]          = {S, 0, 0, 0, S, 0, 0, 0},
    [CT_LANCE + CHU_PROMO]     = {R, R, 0, 0, R, 0, 0, R},   /* White Horse */
    [CT_LEOPARD + CHU_PROMO]   = {0, R, 0, R, 0, R, 0, R},   /* Bishop */
    [CT_COPPER + CHU_PROMO]    = {S, 0, R, 0, S, 0, R, 0},   /* Side Mover */
    [CT_SILVER + CHU_PROMO]    = {R, 0, S, 0, R, 0, S, 0},   /* Vertical Mover */
    [CT_GOLD + CHU_PROMO]      = {R, 0, R, 0, R, 0, R, 0},   /* Rook */
    [CT_ELEPHANT + CHU_PROMO]  = {S, S, S, S, S, S, S, S},   /* Prince */
    [CT_CHARIOT + CHU_PROMO]   = {R, 0, 0, R, R, R, 0, 0},   /* Whale */
    [CT_BISHOP + CHU_PROMO]    = {S, R, S, R, S, R, S, R},   /* Dragon Horse */
    [CT_TIGER + CHU_PROMO]     = {R, S, S, S, R, S, S, S},   /* Flying Stag */
    [CT_PHOENIX + CHU_PROMO]   = {R, R, R, R, R, R, R, R},   /* Queen */
    [CT_KIRIN + CHU_PROMO]     = {L, L, L, L, L, L, L, L},   /* Lion */
    [CT_SIDE + CHU_PROMO]      = {0, R, R, R, 0, R, R, R},   /* Free Boar */
    [CT_VERTICAL + CHU_PROMO]  = {R, R, 0, R, R, R, 0, R},   /* Flying Ox */
    [CT_ROOK + CHU_PROMO]      = {R, S, R, S, R, S, R, S},   /* Dragon King */
    [CT_HORSE + CHU_PROMO]     = {L, R, R, R, R, R, R, R},   /* Horned Falcon */
    [CT_DRAGON + CHU_PROMO]    = {R, L, R, R, R, R, R, L},   /* Soaring Eagle */
    [CT_PAWN + CHU_PROMO]      = {S, S, S, 0, S, 0, S, S},   /* Gold */
    [CT_GOBETWEEN + CHU_PROMO] = {S, S, S, S, 0, S, S, S},   /* Drunk Elephant */
};
#undef S
#undef J
#undef R
#undef L

/* Derived from chu_moves: far = some direction with J, R or L. */
const uint8_t chu_piece_class[64] = {
    [CT_LANCE] = CHU_CL_FAR, [CT_KING] = CHU_CL_ROYAL, [CT_CHARIOT] = CHU_CL_FAR,
    [CT_BISHOP] = CHU_CL_FAR, [CT_PHOENIX] = CHU_CL_FAR, [CT_KIRIN] = CHU_CL_FAR,
    [CT_SIDE] = CHU_CL_FAR, [CT_VERTICAL] = CHU_CL_FAR, [CT_ROOK] = CHU_CL_FAR,
    [CT_HORSE] = CHU_CL_FAR, [CT_DRAGON] = CHU_CL_FAR, [CT_QUEEN] = CHU_CL_FAR,
    [CT_LION] = CHU_CL_FAR,
    [CT_LANCE + CHU_PROMO ... CT_GOLD + CHU_PROMO] = CHU_CL_FAR,
    [CT_PRINCE] = CHU_CL_ROYAL,
    [CT_CHARIOT + CHU_PROMO ... CT_DRAGON + CHU_PROMO] = CHU_CL_FAR,
};

static const char type_letters[] = "?lfcsgkeabtxomvrhdqnpi";

char chu_type_letter(int t)
{
    if (t > CHU_PROMO)
        t -= CHU_PROMO;
    return t >= 1 && t <= 21 ? type_letters[t] : '?';
}

uint64_t chu_compute_key(const chu_pos *p)
{
    uint64_t k = 0;
    for (int sq = 0; sq < CHU_SQUARES; sq++)
        if (p->board[sq] && p->board[sq] != CHU_EDGE)
            k ^= chu_piece_key(p->board[sq], sq);
    if (p->stm)
        k ^= chu_side_key();
    if (p->cs)
        k ^= chu_cs_key(p->cs);
    for (int side = 0; side < 2; side++)
        for (int kind = 0; kind < CHU_HAND_KINDS; kind++)
            k ^= chu_hand_key(side, kind, p->hand[side][kind]);
    for (int w = 0; w < CHU_OCC_WORDS; w++)
        for (uint64_t b = p->right[w]; b; b &= b - 1)
            k ^= chu_right_key(64 * w + __builtin_ctzll(b));
    return k;
}

int chu_square_name(int sq, char *buf)
{
    return sprintf(buf, "%d%c", CHU_N - CHU_COL(sq), 'a' + CHU_ROW(sq));
}

int chu_parse_square(const char *s, int *sq)
{
    int n = 0, file = 0;
    while (isdigit((unsigned char)s[n]) && n < 2)
        file = file * 10 + (s[n++] - '0');
    if (n == 0 || file < 1 || file > CHU_N || s[n] < 'a' || s[n] > 'a' + CHU_N - 1)
        return 0;
    if (n == 2 && s[0] == '0')
        return 0;
    *sq = CHU_SQ(s[n] - 'a', CHU_N - file);
    return n + 1;
}

static int letter_type(char c)
{
    const char *p = strchr(type_letters + 1, tolower((unsigned char)c));
    return c && p ? (int)(p - type_letters) : 0;
}

/* Heisei's reserves: "-" or counts before letters, Sente's upper case ("2L2CX2l"). Each
 * kind at most once per side; with the pieces of that kind on the board (promoted too),
 * no side holds more than the set has. */
static int read_hands(chu_pos *p, const char **sp, char *err, size_t errlen)
{
    const char *s = *sp;
    if (*s == '-') {
        *sp = s + 1;
        return (**sp && **sp != ' ') ? gv_err(err, errlen, "SFEN reserves: '-' or pieces like 2L2Cx") : 0;
    }
    int seen[2][CHU_HAND_KINDS] = {{0}};
    while (*s && *s != ' ') {
        int n = 1;
        if (isdigit((unsigned char)*s)) {
            n = 0;
            while (isdigit((unsigned char)*s) && n < 100)
                n = n * 10 + (*s++ - '0');
        }
        char c = *s;
        int t = c ? letter_type(c) : 0, kind = t ? chu_hand_kind(t) : -1;
        if (kind < 0)
            return gv_err(err, errlen, "SFEN reserves: '%c' is not a reserve piece (L C S M V A "
                          "O X)", c ? c : ' ');
        int side = islower((unsigned char)c) ? 1 : 0;
        if (seen[side][kind]++)
            return gv_err(err, errlen, "SFEN reserves: '%c' is written twice", c);
        if (n < 1)
            return gv_err(err, errlen, "SFEN reserves: a count must be at least 1");
        int on_board = 0;
        for (int sq = 0; sq < CHU_SQUARES; sq++) {
            int pc = p->board[sq];
            if (pc && pc != CHU_EDGE && CHU_COLOR(pc) == side &&
                (CHU_TYPE(pc) == t || CHU_TYPE(pc) == t + CHU_PROMO))
                on_board++;
        }
        if (n + on_board > chu_hand_max[kind])
            return gv_err(err, errlen, "SFEN reserves: %s holds %d %c with %d on the board; the "
                          "set has %d", side ? "Gote" : "Sente", n, c, on_board,
                          chu_hand_max[kind]);
        p->hand[side][kind] = (uint8_t)n;
        s++;
    }
    *sp = s;
    return 0;
}

int chu_set_sfen(chu_pos *out, const char *sfen, char *err, size_t errlen)
{
    chu_pos p;
    memset(&p, 0, sizeof p);
    p.opt = out->opt;
    memset(p.board, CHU_EDGE, sizeof p.board);
    for (int r = 0; r < CHU_N; r++)
        for (int c = 0; c < CHU_N; c++)
            p.board[CHU_SQ(r, c)] = 0;

    const char *s = sfen;
    while (*s == ' ')
        s++;
    if (!*s)
        return gv_err(err, errlen, "SFEN is empty");
    /* 1. Board, rank a first, files 12..1 within a rank. */
    int row = 0, col = 0;
    for (; *s && *s != ' '; s++) {
        char c = *s;
        if (c == '/') {
            if (col != CHU_N)
                return gv_err(err, errlen, "SFEN rank %c has %d squares, expected 12",
                              'a' + row, col);
            if (++row >= CHU_N)
                return gv_err(err, errlen, "SFEN has more than 12 ranks");
            col = 0;
        } else if (isdigit((unsigned char)c)) {
            int n = c - '0';
            if (isdigit((unsigned char)s[1]))
                n = n * 10 + (*++s - '0');
            if (n == 0 || col + n > CHU_N)
                return gv_err(err, errlen, "SFEN rank %c: empty-square count %d overflows the rank",
                              'a' + row, n);
            col += n;
        } else {
            int promoted = 0;
            if (c == '+') {
                promoted = 1;
                c = *++s;
            }
            int t = letter_type(c);
            if (!t)
                return gv_err(err, errlen, "SFEN rank %c, square %d: unknown piece '%s%c'",
                              'a' + row, col + 1, promoted ? "+" : "", c ? c : ' ');
            if (promoted) {
                if (!chu_can_promote_type(t))
                    return gv_err(err, errlen, "SFEN rank %c: '+%c' is not a piece (%c cannot promote)",
                                  'a' + row, c, c);
                t += CHU_PROMO;
            }
            if (col >= CHU_N)
                return gv_err(err, errlen, "SFEN rank %c has more than 12 squares", 'a' + row);
            int color = islower((unsigned char)c) ? 1 : 0;
            int sq = CHU_SQ(row, col);
            p.board[sq] = (uint8_t)(t | (color ? CHU_GOTE : 0));
            p.count[color]++;
            if (chu_is_royal(t))
                p.royals[color]++;
            col++;
        }
    }
    if (row != CHU_N - 1 || col != CHU_N)
        return gv_err(err, errlen, "SFEN board has %d ranks (last with %d squares), expected 12 of 12",
                      row + 1, col);
    for (int c = 0; c < 2; c++) {
        int kings = 0, princes = 0;
        for (int sq = 0; sq < CHU_SQUARES; sq++) {
            int pc = p.board[sq];
            if (!pc || pc == CHU_EDGE || CHU_COLOR(pc) != c)
                continue;
            kings += CHU_TYPE(pc) == CT_KING;
            princes += CHU_TYPE(pc) == CT_PRINCE;
        }
        if (p.count[c] > 46)
            return gv_err(err, errlen, "SFEN: %s has %d pieces (a side has at most 46)",
                          c ? "Gote" : "Sente", p.count[c]);
        if (kings > 1 || princes > 1)
            return gv_err(err, errlen, "SFEN: %s has %d kings and %d princes (at most one of each)",
                          c ? "Gote" : "Sente", kings, princes);
    }
    /* 2. Side to move. */
    while (*s == ' ')
        s++;
    if (*s == 'b' || *s == 'w') {
        p.stm = *s == 'w';
        s++;
        if (*s && *s != ' ')
            return gv_err(err, errlen, "SFEN side to move must be 'b' or 'w'");
    } else if (*s) {
        return gv_err(err, errlen, "SFEN side to move must be 'b' or 'w', got '%c'", *s);
    }
    /* 3. Heisei: the reserves (SFEN's hands field), then optionally the counter-strike
     * square as a field of its own. Standard: the counter-strike square (lishogi's third
     * field) or '-'. */
    while (*s == ' ')
        s++;
    if (p.opt.heisei) {
        if (read_hands(&p, &s, err, errlen) < 0)
            return -1;
        while (*s == ' ')
            s++;
        /* A square (digits then a rank letter) before the move number. */
        int k = 0;
        while (isdigit((unsigned char)s[k]))
            k++;
        if (k && s[k] >= 'a' && s[k] <= 'l') {
            int sq, n = chu_parse_square(s, &sq);
            if (!n || (s[n] && s[n] != ' '))
                return gv_err(err, errlen, "SFEN: '%.8s' is not a counter-strike square like 5f", s);
            p.cs = (uint8_t)sq;
            s += n;
        }
    } else if (*s == '-') {
        s++;
        if (*s && *s != ' ')
            return gv_err(err, errlen, "SFEN third field must be '-' or a square");
    } else if (*s) {
        int sq, n = chu_parse_square(s, &sq);
        if (!n || (s[n] && s[n] != ' '))
            return gv_err(err, errlen, "SFEN third field '%.8s' is not '-' or a square like 5f", s);
        p.cs = (uint8_t)sq;
        s += n;
    }
    /* 4. Move number. */
    while (*s == ' ')
        s++;
    p.movenum = 1;
    if (*s) {
        long mn = 0;
        int n = 0;
        while (isdigit((unsigned char)s[n]) && n < 6)
            mn = mn * 10 + (s[n++] - '0');
        if (n == 0 || (s[n] && s[n] != ' '))
            return gv_err(err, errlen, "SFEN move number '%.8s' is not a number", s);
        p.movenum = mn < 1 ? 1 : (uint32_t)mn;
        s += n;
        while (*s == ' ')
            s++;
        if (*s)
            return gv_err(err, errlen, "SFEN has extra text '%.16s'", s);
    }
    chu_pos_sync(&p);
    *out = p;
    return 0;
}

void chu_pos_sync(chu_pos *p)
{
    memset(p->occ, 0, sizeof p->occ);
    memset(p->far, 0, sizeof p->far);
    memset(p->royal, 0, sizeof p->royal);
    p->count[0] = p->count[1] = p->royals[0] = p->royals[1] = 0;
    p->psq = 0;
    for (int sq = 0; sq < CHU_SQUARES; sq++) {
        int pc = p->board[sq];
        if (!pc || pc == CHU_EDGE)
            continue;
        int c = CHU_COLOR(pc);
        p->psq += chu_psq(pc, sq);
        p->occ[c][sq >> 6] |= 1ULL << (sq & 63);
        if (chu_piece_class[CHU_TYPE(pc)] & CHU_CL_FAR)
            p->far[sq >> 6] |= 1ULL << (sq & 63);
        if (chu_piece_class[CHU_TYPE(pc)] & CHU_CL_ROYAL)
            p->royal[sq >> 6] |= 1ULL << (sq & 63);
        p->count[c]++;
        if (chu_is_royal(CHU_TYPE(pc)))
            p->royals[c]++;
    }
    p->key = chu_compute_key(p);
}

int chu_get_sfen(const chu_pos *p, char *buf, size_t len)
{
    char tmp[512];
    int n = 0;
    for (int r = 0; r < CHU_N; r++) {
        int empty = 0;
        for (int c = 0; c < CHU_N; c++) {
            int pc = p->board[CHU_SQ(r, c)];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                n += sprintf(tmp + n, "%d", empty);
            empty = 0;
            int t = CHU_TYPE(pc);
            char ch = chu_type_letter(t);
            if (t > CHU_PROMO)
                tmp[n++] = '+';
            tmp[n++] = CHU_COLOR(pc) ? ch : (char)toupper((unsigned char)ch);
        }
        if (empty)
            n += sprintf(tmp + n, "%d", empty);
        if (r < CHU_N - 1)
            tmp[n++] = '/';
    }
    char cs[8] = "-";
    if (p->cs)
        chu_square_name(p->cs, cs);
    if (p->opt.heisei) {
        /* The reserves, Sente's first, in the order L C S M V A O X; then the
         * counter-strike square when there is one. */
        n += sprintf(tmp + n, " %c ", p->stm ? 'w' : 'b');
        int any = 0;
        for (int side = 0; side < 2; side++)
            for (int k = 0; k < CHU_HAND_KINDS; k++) {
                int c = p->hand[side][k];
                if (!c)
                    continue;
                char letter = chu_type_letter(chu_hand_type[k]);
                if (c > 1)
                    n += sprintf(tmp + n, "%d", c);
                tmp[n++] = side ? letter : (char)toupper((unsigned char)letter);
                any = 1;
            }
        if (!any)
            tmp[n++] = '-';
        if (p->cs)
            n += sprintf(tmp + n, " %s", cs);
        n += sprintf(tmp + n, " %u", p->movenum > 9999 ? 9999u : p->movenum);
    } else {
        n += sprintf(tmp + n, " %c %s %u", p->stm ? 'w' : 'b', cs,
                     p->movenum > 9999 ? 9999u : p->movenum);
    }
    return gv_text_out(buf, len, tmp, n);
}

/* ---- Handicaps ---------------------------------------------------------------------
 * The presets of the rules page (shared/rules/chu.md, "Handicaps"): Gote, the stronger
 * player, loses pieces or Sente gains strength; Gote then moves first. */
const chu_handicap chu_handicaps[CHU_HANDICAPS] = {
    {"gold", {"5a"}, {""}},
    {"leopard", {"2a"}, {""}},
    {"silver", {"4a"}, {""}},
    {"copper", {"3a"}, {""}},
    {"side-mover", {"1c"}, {""}},
    {"vertical-mover", {"2c"}, {""}},
    {"rook", {"3c"}, {""}},
    {"dragon-king", {"5c"}, {""}},
    {"queen", {"7c"}, {""}},
    {"two-kings", {"6l"}, {"+E"}},
    {"two-lions", {"7k"}, {"+O"}},
    {"three-lions", {"7k", "6k", "6b"}, {"+O", "+O", "x"}},
};

/* The piece byte of SFEN text "x", "+O" ("" is an empty square). */
static int piece_of_text(const char *t)
{
    int promo = t[0] == '+';
    int type = letter_type(t[promo]);
    if (!type)
        return 0;
    return (type + (promo ? CHU_PROMO : 0)) | (islower((unsigned char)t[promo]) ? CHU_GOTE : 0);
}

int chu_start_position(chu_pos *p, const chu_options *o, char *err, size_t errlen)
{
    p->opt = *o;
    if (o->heisei && o->handicap)
        return gv_err(err, errlen, "handicaps are for standard Chu Shogi, not variant=heisei "
                      "(give a position instead)");
    if (chu_set_sfen(p, o->heisei ? chu_heisei_sfen : chu_start_sfen, err, errlen) < 0)
        return -1;
    if (!o->handicap)
        return 0;
    int changed_by[CHU_SQUARES];
    for (int sq = 0; sq < CHU_SQUARES; sq++)
        changed_by[sq] = -1;
    for (int i = 0; i < CHU_HANDICAPS; i++) {
        if (!(o->handicap >> i & 1))
            continue;
        const chu_handicap *h = &chu_handicaps[i];
        for (int k = 0; k < 3 && h->sq[k]; k++) {
            int sq;
            chu_parse_square(h->sq[k], &sq);
            if (changed_by[sq] >= 0)
                return gv_err(err, errlen, "handicap: %s and %s both change the piece on %s",
                              chu_handicaps[changed_by[sq]].name, h->name, h->sq[k]);
            changed_by[sq] = i;
            p->board[sq] = (uint8_t)piece_of_text(h->piece[k]);
        }
    }
    p->stm = 1;   /* the stronger player, Gote, moves first */
    chu_pos_sync(p);
    return 0;
}
