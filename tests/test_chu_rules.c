/* Chu Shogi rules tests: one or more tests per rule of docs/chu.md, through the
 * public game interface (gv_game_find("chu")). The lion-trading tests realise the
 * eight situations I-VIII (its diagrams are lost; each position is built from the
 * description) and give the verdict under the default rules and under lion_double=jcsa.
 *
 * Positions are written as piece lists, e.g. pos("K12l k12a N5g n5f", "b - 1"): upper case
 * Sente, lower case Gote, '+' for a promoted piece, then file and rank; the helper turns
 * that into the SFEN lishogi would write. */
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "games/chu/chu.h"
#include "tharness.h"

/* ===================================================================================
 * Helpers
 * =================================================================================== */

#define FAILF(line, ...)                                                     \
    do {                                                                     \
        fprintf(stderr, "FAIL %s (%s:%d): ", t_current, __FILE__, (line));   \
        fprintf(stderr, __VA_ARGS__);                                        \
        fputc('\n', stderr);                                                 \
        t_failures++;                                                        \
    } while (0)

static const gv_game *chu(void)
{
    static const gv_game *g;
    if (!g)
        g = gv_game_find("chu");
    return g;
}

/* SFEN of a piece list ("K5l +o3c p7f") followed by `tail` ("b - 1"). Returns one of a
 * few rotating static buffers. */
static const char *pos(const char *pieces, const char *tail)
{
    static char bufs[8][512];
    static int next;
    char *out = bufs[next++ & 7];
    char board[12][12][3];
    memset(board, 0, sizeof board);
    const char *c = pieces;
    while (*c) {
        if (*c == ' ') {
            c++;
            continue;
        }
        char pc[3] = {0};
        int n = 0;
        if (*c == '+')
            pc[n++] = *c++;
        pc[n++] = *c++;
        int file = 0;
        while (*c >= '0' && *c <= '9')
            file = file * 10 + (*c++ - '0');
        int rank = *c++ - 'a';
        if (file < 1 || file > 12 || rank < 0 || rank > 11) {
            fprintf(stderr, "bad piece list '%s'\n", pieces);
            abort();
        }
        memcpy(board[rank][12 - file], pc, 3);
    }
    int len = 0;
    for (int r = 0; r < 12; r++) {
        int empty = 0;
        for (int f = 0; f < 12; f++) {
            if (!board[r][f][0]) {
                empty++;
                continue;
            }
            if (empty)
                len += sprintf(out + len, "%d", empty);
            empty = 0;
            len += sprintf(out + len, "%s", board[r][f]);
        }
        if (empty)
            len += sprintf(out + len, "%d", empty);
        out[len++] = r < 11 ? '/' : ' ';
    }
    sprintf(out + len, "%s", tail);
    return out;
}

/* A new state at `sfen` with `opts` (NULL: defaults); NULL (and a failure) on error. */
static void *st_new_at(int line, const char *sfen, const char *opts)
{
    char err[GV_ERRLEN] = "";
    void *st = malloc(chu()->state_size);
    if (!st)
        abort();
    if (chu()->init(st, opts, err, sizeof err) < 0 ||
        chu()->set_position(st, sfen, err, sizeof err) < 0) {
        FAILF(line, "cannot set up '%s' (options '%s'): %s", sfen, opts ? opts : "", err);
        free(st);
        return NULL;
    }
    return st;
}
#define st_new(sfen, opts) st_new_at(__LINE__, (sfen), (opts))

/* The legal move written `text`, or 0 if it is not legal (no legal move is 0: its origin
 * is a board square, never 0). */
static gv_move mv(const void *st, const char *text)
{
    gv_move m = 0;
    char err[GV_ERRLEN];
    if (chu()->parse_move(st, text, &m, err, sizeof err) != 0)
        return 0;
    return m;
}

static int is_legal(const char *sfen, const char *opts, const char *text)
{
    void *st = st_new(sfen, opts);
    if (!st)
        return -1;
    int ok = mv(st, text) != 0;
    free(st);
    return ok;
}

static void expect_legal(int line, const char *sfen, const char *opts, const char *text,
                         int want)
{
    int got = is_legal(sfen, opts, text);
    if (got != want)
        FAILF(line, "%s in '%s' (options '%s'): got %s, expected %s", text, sfen,
              opts ? opts : "default", got ? "legal" : "illegal",
              want ? "legal" : "illegal");
}
#define LEGAL(s, o, m) expect_legal(__LINE__, (s), (o), (m), 1)
#define ILLEGAL(s, o, m) expect_legal(__LINE__, (s), (o), (m), 0)
/* The verdict under the default rules and under lion_double=jcsa. */
#define TRADE(s, m, want_default, want_jcsa)                               \
    do {                                                                   \
        expect_legal(__LINE__, (s), NULL, (m), (want_default));            \
        expect_legal(__LINE__, (s), "lion_double=jcsa", (m), (want_jcsa)); \
    } while (0)

/* Plays the space-separated moves; returns 0, or -1 (and a failure) at the first illegal
 * one. */
static int play_at(int line, void *st, const char *moves)
{
    char buf[1024], err[GV_ERRLEN];
    snprintf(buf, sizeof buf, "%s", moves ? moves : "");
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        gv_move m;
        if (chu()->parse_move(st, tok, &m, err, sizeof err) != 0) {
            char sfen[512];
            chu()->get_position(st, sfen, sizeof sfen);
            FAILF(line, "move %s refused in '%s': %s", tok, sfen, err);
            return -1;
        }
        chu()->make(st, m);
    }
    return 0;
}
#define play(st, moves) play_at(__LINE__, (st), (moves))

/* Plays `moves` from `sfen` and checks status(): for GV_WIN the winner and the reason, for
 * GV_DRAW the reason; GV_ONGOING also wants at least one legal move. */
static void expect_result(int line, const char *sfen, const char *opts, const char *moves,
                          gv_status want, int winner, const char *reason)
{
    void *st = st_new_at(line, sfen, opts);
    if (!st)
        return;
    if (play_at(line, st, moves) == 0) {
        gv_result r;
        gv_status s = chu()->status(st, &r);
        static gv_move buf[GV_MAX_MOVES];
        int n = chu()->legal_moves(st, buf);
        const char *names[] = {"ongoing", "win", "draw"};
        if (s != want || r.status != want ||
            (want == GV_WIN && r.winner != winner) ||
            (want != GV_ONGOING && reason && strcmp(r.reason, reason) != 0))
            FAILF(line, "'%s' + [%s] (options '%s'): got %s winner %d '%s', expected %s "
                  "winner %d '%s'", sfen, moves ? moves : "", opts ? opts : "default",
                  names[s], r.winner, r.reason, names[want], winner, reason ? reason : "");
        if ((want == GV_ONGOING) != (n > 0))
            FAILF(line, "'%s' + [%s]: %d legal moves with status %s", sfen,
                  moves ? moves : "", n, names[want]);
    }
    free(st);
}
#define RESULT(s, o, m, st, w, r) expect_result(__LINE__, (s), (o), (m), (st), (w), (r))
#define ONGOING(s, o, m) expect_result(__LINE__, (s), (o), (m), GV_ONGOING, -1, NULL)

static int sq(const char *name)
{
    int s = 0;
    if (!chu_parse_square(name, &s))
        abort();
    return s;
}

static gv_move g_moves[GV_MAX_MOVES];

/* Legal moves (not the pass) starting on `from`. */
static int moves_from(const void *st, const char *from)
{
    int n = chu()->legal_moves(st, g_moves), k = 0, f = sq(from);
    for (int i = 0; i < n; i++)
        if (CHU_FROM(g_moves[i]) == f && !(CHU_FLAGS(g_moves[i]) & CHU_MF_PASS))
            k++;
    return k;
}

/* Legal moves from `from` to `to` (any path, any promotion choice). */
static int moves_from_to(const void *st, const char *from, const char *to)
{
    int n = chu()->legal_moves(st, g_moves), k = 0, f = sq(from), t = sq(to);
    for (int i = 0; i < n; i++)
        if (CHU_FROM(g_moves[i]) == f && CHU_TO(g_moves[i]) == t &&
            !(CHU_FLAGS(g_moves[i]) & CHU_MF_PASS))
            k++;
    return k;
}

static int count_passes(const void *st)
{
    int n = chu()->legal_moves(st, g_moves), k = 0;
    for (int i = 0; i < n; i++)
        if (CHU_FLAGS(g_moves[i]) & CHU_MF_PASS)
            k++;
    return k;
}

/* The piece letter(s) on a square of the state's SFEN ("" if empty). */
static const char *piece_at(const void *st, const char *square)
{
    static char out[3];
    char sfen[512];
    chu()->get_position(st, sfen, sizeof sfen);
    int s = sq(square), row = CHU_ROW(s), col = CHU_COL(s), r = 0, f = 0;
    out[0] = 0;
    for (const char *c = sfen; *c && *c != ' '; c++) {
        if (*c == '/') {
            r++, f = 0;
            continue;
        }
        if (*c >= '0' && *c <= '9') {
            int n = *c - '0';
            if (c[1] >= '0' && c[1] <= '9')
                n = n * 10 + (*++c - '0');
            f += n;
            continue;
        }
        int len = *c == '+' ? 2 : 1;
        if (r == row && f == col) {
            memcpy(out, c, (size_t)len);
            out[len] = 0;
            return out;
        }
        c += len - 1;
        f++;
    }
    return out;
}

/* The SFEN fields after the board ("b 5g 2"). */
static const char *sfen_tail(const void *st)
{
    static char sfen[512];
    chu()->get_position(st, sfen, sizeof sfen);
    const char *sp = strchr(sfen, ' ');
    return sp ? sp + 1 : "";
}

/* Distinct destinations of the piece on `from` (promotion choices and paths merged). */
static int dests_from(const void *st, const char *from)
{
    int n = chu()->legal_moves(st, g_moves), k = 0, f = sq(from);
    int seen[CHU_SQUARES] = {0};
    for (int i = 0; i < n; i++) {
        gv_move m = g_moves[i];
        if (CHU_FROM(m) != f || (CHU_FLAGS(m) & CHU_MF_PASS) || seen[CHU_TO(m)])
            continue;
        seen[CHU_TO(m)] = 1;
        k++;
    }
    return k;
}

/* ===================================================================================
 * Board and setup, pieces (chu.md "Board and setup", "Pieces")
 * =================================================================================== */

/* The start position is the SFEN of chu.md, Sente to move; "startpos" names it. */
static void test_board_start_position(void)
{
    static const char start[] = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/"
                                "12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/"
                                "LFCSGKEGSCFL b - 1";
    void *st = malloc(chu()->state_size);
    char err[GV_ERRLEN], buf[512];
    if (!st)
        abort();
    CHECK(chu()->init(st, NULL, err, sizeof err) == 0);
    chu()->get_position(st, buf, sizeof buf);
    CHECK_STR(buf, start);
    CHECK_EQ_INT(chu()->to_move(st), 0);
    CHECK(chu()->set_position(st, "startpos", err, sizeof err) == 0);
    chu()->get_position(st, buf, sizeof buf);
    CHECK_STR(buf, start);
    /* 46 pieces a side; Sente's first moves go up the board (towards rank a). */
    int pieces = 0;
    for (const char *c = start; *c != ' '; c++)
        pieces += (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z');
    CHECK_EQ_INT(pieces, 92);
    CHECK(mv(st, "8i8h") != 0);     /* a Pawn one step forward */
    CHECK(mv(st, "8i8j") == 0);
    CHECK(mv(st, "9i9h") == 0);     /* blocked by the Go-Between */
    CHECK(mv(st, "9h9g") != 0);     /* the Go-Between steps, no further */
    CHECK(mv(st, "9h9f") == 0);
    free(st);
}

/* Each piece moves as its Betza in chu.md's table: destinations from 6g on an otherwise
 * empty board (Kings in the corners, bare_king=off so the game goes on). On 6g there are
 * 6 squares ahead (towards a), 5 behind, 6 to the left (file 12), 5 to the right. */
static void test_pieces_moves_from_table(void)
{
    static const struct {
        const char *piece;
        int sente, gote;   /* destinations for a Sente / Gote piece on 6g */
    } table[] = {
        {"k", 8, 8},   {"q", 43, 43}, {"n", 24, 24}, {"d", 26, 26}, {"h", 25, 25},
        {"r", 22, 22}, {"b", 21, 21}, {"o", 8, 8},   {"x", 8, 8},   {"e", 7, 7},
        {"t", 7, 7},   {"f", 6, 6},   {"g", 6, 6},   {"s", 5, 5},   {"c", 4, 4},
        {"v", 13, 13}, {"m", 13, 13}, {"a", 11, 11}, {"l", 6, 5},   {"i", 2, 2},
        {"p", 1, 1},
        /* promoted */
        {"+h", 39, 40}, {"+d", 36, 37}, {"+r", 26, 26}, {"+b", 25, 25}, {"+o", 24, 24},
        {"+x", 43, 43}, {"+e", 8, 8},   {"+t", 17, 17}, {"+f", 21, 21}, {"+g", 22, 22},
        {"+s", 13, 13}, {"+c", 13, 13}, {"+v", 32, 32}, {"+m", 32, 32}, {"+a", 21, 22},
        {"+l", 22, 21}, {"+i", 7, 7},   {"+p", 6, 6},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        for (int side = 0; side < 2; side++) {
            char list[64], up[4];
            snprintf(up, sizeof up, "%s", table[i].piece);
            if (side == 0)
                for (char *c = up; *c; c++)
                    if (*c >= 'a' && *c <= 'z')
                        *c = (char)(*c - 'a' + 'A');
            /* The King under test replaces its side's corner King, and a Pawn in the
             * other corner keeps the game from being "kings only". */
            int is_king = strcmp(table[i].piece, "k") == 0;
            snprintf(list, sizeof list, "%s%s%s6g",
                     is_king ? (side ? "p1a " : "P12l ") : (side ? "k1a " : "K12l "),
                     side ? "K12l " : "k1a ", up);
            const char *s = pos(list, side ? "w - 1" : "b - 1");
            void *st = st_new(s, "bare_king=off");
            if (!st)
                continue;
            int got = dests_from(st, "6g"), want = side ? table[i].gote : table[i].sente;
            if (got != want)
                FAILF(__LINE__, "%s %s on 6g: %d destinations, expected %d ('%s')",
                      side ? "Gote" : "Sente", table[i].piece, got, want, s);
            free(st);
        }
    }
}

/* ===================================================================================
 * Lion-trading rules (chu.md "Lion-trading rules"; cases I-VIII)
 * =================================================================================== */

/* Rule 1 / case I: a Lion may always capture an adjacent enemy Lion, however protected,
 * and the same move may go on anywhere, even where the protector can recapture. */
static void test_lion_trade_I(void)
{
    /* White's Lion on 5f is protected by the Gold on 5e; Black's Lion is next to it. */
    const char *s = pos("K12l k12a N5g G5h n5f g5e", "b - 1");
    TRADE(s, "5g5f", 1, 1);     /* LnxLn */
    TRADE(s, "5g5f5e", 1, 1);   /* LnxLnxG */
    TRADE(s, "5g5f4f", 1, 1);   /* ends where the Gold recaptures */
    TRADE(s, "5g5f6g", 1, 1);   /* any second step */
    TRADE(s, "5g5f5g", 1, 1);   /* igui of the Lion */
    /* The same for White: Black's Lion is protected by the Gold on 5h. */
    const char *w = pos("K12l k12a N5g G5h n5f g5e", "w - 1");
    TRADE(w, "5f5g", 1, 1);
    TRADE(w, "5f5g5h", 1, 1);
    TRADE(w, "5f5g5f", 1, 1);
    /* A Lion next to the origin taken on the second step (after a Pawn) is still rule 1,
     * though the Golds on 4h and 5e protect it. */
    const char *d = pos("K12l k12a N5g p4f n4g g4h g5e", "b - 1");
    TRADE(d, "5g4f4g", 1, 1);
    TRADE(d, "5g4g", 1, 1);
}

/* Rule 2 / case II: both Lions protected (Black's by a Silver, White's by a Lance) and two
 * apart: neither Lion may take the other, by jump or by two steps; a Bishop may. */
static void test_lion_trade_II(void)
{
    const char *b = pos("K12l k12a N5h S5i n5f l5c B8c", "b - 1");
    TRADE(b, "5h5f", 0, 0);     /* jump */
    TRADE(b, "5h5g5f", 0, 0);   /* through an empty square */
    TRADE(b, "5h4g5f", 0, 0);
    TRADE(b, "8c5f", 1, 1);     /* BxLn */
    TRADE(b, "5h5g", 1, 1);     /* the Lion itself may still move */
    const char *w = pos("K12l k12a N5h S5i n5f l5c B8c", "w - 1");
    TRADE(w, "5f5h", 0, 0);
    TRADE(w, "5f5g5h", 0, 0);
    TRADE(w, "5f6g5h", 0, 0);
    /* Without the Lance White's Lion is unprotected, and the jump is legal. */
    TRADE(pos("K12l k12a N5h S5i n5f B8c", "b - 1"), "5h5f", 1, 1);
}

/* Rule 2 / case III: White's Lion is unprotected now, but Black's Lion leaving 6g opens the
 * White Bishop's line to 4e (hidden protector): LnxLn is illegal. White to move may take
 * Black's Lion with the Bishop but not with its own Lion (Black's is protected). */
static void test_lion_trade_III(void)
{
    const char *b = pos("K12l k12a N6g G6h n4e b8i", "b - 1");
    TRADE(b, "6g4e", 0, 0);
    TRADE(b, "6g5f4e", 0, 0);
    TRADE(b, "6g5e4e", 0, 0);
    TRADE(b, "6g5f", 1, 1);
    const char *w = pos("K12l k12a N6g G6h n4e b8i", "w - 1");
    TRADE(w, "8i6g", 1, 1);
    TRADE(w, "4e6g", 0, 0);
    TRADE(w, "4e5f6g", 0, 0);
    /* A Black Pawn on 7h keeps the line shut: now the capture is legal. */
    TRADE(pos("K12l k12a N6g G6h P7h n4e b8i", "b - 1"), "6g4e", 1, 1);
}

/* Rule 2 exception / case IV: a White Pawn on 5f between the Lions. LnxPxLn opens the
 * Bishop's line and the first victim is a Pawn: illegal; the plain jump over the Pawn
 * leaves the line shut: legal. Same with a Go-Between; a Silver as first victim makes the
 * double capture legal even though the Lion can be recaptured. */
static void test_lion_trade_IV(void)
{
    const char *p = pos("K12l k12a N6g G6h p5f n4e b8i", "b - 1");
    TRADE(p, "6g5f4e", 0, 0);
    TRADE(p, "6g4e", 1, 1);
    TRADE(p, "6g5f", 1, 1);
    TRADE(p, "6g5f6g", 1, 1);
    const char *i = pos("K12l k12a N6g G6h i5f n4e b8i", "b - 1");
    TRADE(i, "6g5f4e", 0, 0);
    TRADE(i, "6g4e", 1, 1);
    /* A Silver on 5f also protects 4e: the jump is illegal, SxLn through it is legal. */
    const char *s = pos("K12l k12a N6g G6h s5f n4e b8i", "b - 1");
    TRADE(s, "6g5f4e", 1, 1);
    TRADE(s, "6g4e", 0, 0);
    /* A Gold first (not protecting 4e): both legal. */
    const char *g = pos("K12l k12a N6g G6h g5f n4e b8i", "b - 1");
    TRADE(g, "6g5f4e", 1, 1);
    TRADE(g, "6g4e", 1, 1);
    /* A Lion as the first victim (adjacent: rule 1) also lifts rule 2 for the second
     * Lion, protected by the Lance. */
    const char *l = pos("K12l k12a N5h n5g n5f l5c", "b - 1");
    TRADE(l, "5h5g5f", 1, 1);
    TRADE(l, "5h5f", 0, 0);
}

/* Rule 2 and option lion_double / case V: White's Lion (5f) is protected only by its Pawn
 * (5e). Taking the Lion by any other path is illegal; PxLn leaves nothing protecting it:
 * legal by default (judged after the move), illegal under jcsa (protected before). */
static void test_lion_trade_V(void)
{
    const char *s = pos("K12l k12a N5d p5e p4e n5f", "b - 1");
    TRADE(s, "5d5e5f", 1, 0);   /* the disputed double capture */
    TRADE(s, "5d5f", 0, 0);     /* jump */
    TRADE(s, "5d6e5f", 0, 0);   /* through an empty square */
    TRADE(s, "5d4e5f", 0, 0);   /* the other Pawn first: 5e still protects */
    TRADE(s, "5d5e", 1, 1);     /* taking the Pawn alone is fine */
    TRADE(s, "5d5e5d", 1, 1);
    /* Same with a Go-Between as the only protector. */
    const char *i = pos("K12l k12a N5d i5e n5f", "b - 1");
    TRADE(i, "5d5e5f", 1, 0);
    TRADE(i, "5d5f", 0, 0);
}

/* Rule 2 / case VI: a lone White Lion in the corner (1a) protected by the Rook (3a): no
 * jump capture, but SxLn is legal. The Lion on the top edge (5a), also protected by the
 * Rook, cannot be taken even through the Go-Between. Taking a Pawn and a (protected) Gold
 * is no Lion capture and is never restricted. */
static void test_lion_trade_VI(void)
{
    const char *s = pos("K12l k12a N3c n1a r3a n5a s2b i4b p4c g5d s6c", "b - 1");
    TRADE(s, "3c1a", 0, 0);
    TRADE(s, "3c2b1a", 1, 1);   /* SxLn */
    TRADE(s, "3c5a", 0, 0);
    TRADE(s, "3c4b5a", 0, 0);   /* GBxLn: both readings agree */
    TRADE(s, "3c4c5d", 1, 1);   /* PxG */
    TRADE(s, "3c2b2a", 1, 1);
    TRADE(s, "3c4b4a", 1, 1);
}

/* Rule 3 (counter-strike) / case VII: after White's Rook takes Black's Lion on 5g, Black
 * may not take White's Lion with the Bishop at once (but may later); a Lion is not bound
 * by rule 3; the capturer on 5g may be taken. Checked by playing the move and by SFEN. */
static void test_lion_trade_VII_counterstrike(void)
{
    const char *start = pos("K12l k12a g1a N5g G5h B6f +O9e r5b n8d", "w - 1");
    for (int jcsa = 0; jcsa < 2; jcsa++) {
        const char *opts = jcsa ? "lion_double=jcsa" : NULL;
        void *st = st_new(start, opts);
        if (!st)
            return;
        if (play(st, "5b5g") == 0) {
            CHECK_STR(sfen_tail(st), "b 5g 2");
            CHECK(mv(st, "6f8d") == 0);       /* BxLn elsewhere: refused */
            CHECK(mv(st, "9e8d") != 0);       /* +O (a Lion) is not restricted */
            CHECK(mv(st, "6f5g") != 0);       /* BxR on the square: fine */
            CHECK(mv(st, "5h5g") != 0);
            /* unmake clears the square again; one move later the restriction is gone. */
            chu()->unmake(st);
            CHECK_STR(sfen_tail(st), "w - 1");
            if (play(st, "5b5g 12l11l 12a11a") == 0) {
                CHECK_STR(sfen_tail(st), "b - 4");
                CHECK(mv(st, "6f8d") != 0);
            }
        }
        free(st);
        /* The same position given by SFEN with the counter-strike field. */
        const char *after = pos("K12l k12a g1a r5g G5h B6f +O9e n8d", "b 5g 2");
        expect_legal(__LINE__, after, opts, "6f8d", 0);
        expect_legal(__LINE__, after, opts, "9e8d", 1);
        expect_legal(__LINE__, after, opts, "6f5g", 1);
        /* ... and without it the Bishop may take the Lion. */
        expect_legal(__LINE__, pos("K12l k12a g1a r5g G5h B6f +O9e n8d", "b - 2"), opts,
                     "6f8d", 1);
    }
}

/* Rule 3 only follows a capture by a non-Lion: after a Lion takes a Lion there is no
 * counter-strike square, and a Bishop may take a Lion anywhere (setting one itself). */
static void test_lion_trade_counterstrike_not_after_lion_capture(void)
{
    void *st = st_new(pos("K12l k12a g1a N5g n5f +O9c b7a", "b - 1"), NULL);
    if (!st)
        return;
    if (play(st, "5g5f") == 0) {
        CHECK_STR(sfen_tail(st), "w - 2");
        CHECK(mv(st, "7a9c") != 0);
        if (play(st, "7a9c") == 0)
            CHECK_STR(sfen_tail(st), "b 9c 3");
    }
    free(st);
}

/* Rule 3 / case VII, Kirin case: a White Kirin takes Black's Lion on 5i and promotes to
 * Lion there; Black's Bishop may take it on that same square, but Black's Rook may not
 * take White's other Lion (9d). Declining the promotion changes nothing for the Rook. */
static void test_lion_trade_VII_kirin_promotes(void)
{
    const char *start = pos("K12l k12a g1a o5g N5i B3k n9d R9l", "w - 1");
    for (int jcsa = 0; jcsa < 2; jcsa++) {
        const char *opts = jcsa ? "lion_double=jcsa" : NULL;
        void *st = st_new(start, opts);
        if (!st)
            return;
        if (play(st, "5g5i+") == 0) {
            CHECK_STR(piece_at(st, "5i"), "+o");
            CHECK_STR(sfen_tail(st), "b 5i 2");
            CHECK(mv(st, "3k5i") != 0);       /* BxLn on the square of the first capture */
            CHECK(mv(st, "9l9d") == 0);       /* RxLn elsewhere */
            /* The Bishop took a Lion with a non-Lion: now White is bound on 5i. */
            if (play(st, "3k5i") == 0)
                CHECK_STR(sfen_tail(st), "w 5i 3");
        }
        char err[GV_ERRLEN];
        CHECK(chu()->set_position(st, start, err, sizeof err) == 0);
        if (play(st, "5g5i") == 0) {
            CHECK_STR(piece_at(st, "5i"), "o");
            CHECK(mv(st, "9l9d") == 0);
            CHECK(mv(st, "3k5i") != 0);
        }
        free(st);
        const char *after = pos("K12l k12a g1a +o5i B3k n9d R9l", "b 5i 2");
        expect_legal(__LINE__, after, opts, "3k5i", 1);
        expect_legal(__LINE__, after, opts, "9l9d", 0);
        expect_legal(__LINE__, pos("K12l k12a g1a +o5i B3k n9d R9l", "b - 2"), opts,
                     "9l9d", 1);
    }
}

/* Rule 3 binds every non-Lion, also pieces with lion power (Horned Falcon, Soaring
 * Eagle), and not a Lion's own captures. */
static void test_lion_trade_counterstrike_lionpower_pieces(void)
{
    /* Counter-strike on 3g; White Lions on 9e (before the Falcon) and 3e (on the Eagle's
     * forward diagonal, next to Black's Lion on 2d). */
    const char *s = pos("K12l k12a g1a r3g +H9g n9e +D5g n3e N2d", "b 3g 2");
    ILLEGAL(s, NULL, "9g9e");        /* Falcon jump */
    ILLEGAL(s, NULL, "9g9f9e");
    ILLEGAL(s, NULL, "5g4f3e");      /* Eagle through an empty square = jump */
    ILLEGAL(s, NULL, "5g3e");
    LEGAL(s, NULL, "2d3e");          /* a Lion takes a Lion elsewhere: rule 3 allows */
    LEGAL(s, NULL, "9g9f");          /* the Falcon may still move */
    const char *free_ = pos("K12l k12a g1a r3g +H9g n9e +D5g n3e N2d", "b - 2");
    LEGAL(free_, NULL, "9g9e");
    LEGAL(free_, NULL, "5g3e");
    /* A Falcon's igui of a Lion sets the counter-strike square to the victim's square (now
     * empty): White's Bishop may not take Black's Lion; unmake clears it again. */
    void *st = st_new(pos("K12l k12a g1a +H9g n9f N5g b7e", "b - 1"), NULL);
    if (!st)
        return;
    if (play(st, "9g9f9g") == 0) {
        CHECK_STR(sfen_tail(st), "w 9f 2");
        CHECK(mv(st, "7e5g") == 0);
        chu()->unmake(st);
        CHECK_STR(sfen_tail(st), "b - 1");
    }
    free(st);
}

/* Rule 2 / case VIII (several Lions): Black's Lion jumps on White's left Lion (8e). White's
 * other Lion (6e) could recapture, but that recapture would itself be illegal (Black's Rook
 * guards 8e). Rule 2 reads one move ahead, so the first capture is already illegal. */
static void test_lion_trade_VIII(void)
{
    const char *s = pos("K12l k12a g1a N8g n8e n6e R8j", "b - 1");
    TRADE(s, "8g8e", 0, 0);
    TRADE(s, "8g8f8e", 0, 0);
    TRADE(s, "8g7f8e", 0, 0);
    /* After the capture, White's recapture would be illegal indeed. */
    const char *after = pos("K12l k12a g1a N8e n6e R8j", "w - 2");
    TRADE(after, "6e8e", 0, 0);
    TRADE(after, "6e7e8e", 0, 0);
    /* Without the second Lion the capture is legal; without the Rook the recapture is. */
    TRADE(pos("K12l k12a g1a N8g n8e R8j", "b - 1"), "8g8e", 1, 1);
    TRADE(pos("K12l k12a g1a N8e n6e", "w - 2"), "6e8e", 1, 1);
}

/* Rules 1-2 apply to the promoted Kirin (+o) as a Lion, on both sides of the trade. */
static void test_lion_trade_promoted_kirin_is_lion(void)
{
    /* Adjacent: always. */
    TRADE(pos("K12l k12a +O5g n5f g5e", "b - 1"), "5g5f", 1, 1);
    TRADE(pos("K12l k12a N5g +o5f g5e", "b - 1"), "5g5f", 1, 1);
    /* Two apart, protected: never. */
    TRADE(pos("K12l k12a +O5h +o5f l5c", "b - 1"), "5h5f", 0, 0);
    TRADE(pos("K12l k12a N5h +o5f l5c", "b - 1"), "5h5f", 0, 0);
    /* A Falcon is no Lion: it may take a protected Lion two away. */
    TRADE(pos("K12l k12a +H5h n5f l5c", "b - 1"), "5h5f", 1, 1);
}

/* ===================================================================================
 * Promotion (chu.md "Promotion")
 * =================================================================================== */

/* Entering the zone (the farthest four ranks) from outside: promote or not. */
static void test_promotion_entering_zone(void)
{
    const char *s = pos("K12l k12a g11a G1l S9e S8f", "b - 1");
    LEGAL(s, NULL, "9e9d+");
    LEGAL(s, NULL, "9e9d");
    ILLEGAL(s, NULL, "8f8e+");       /* rank e is outside the zone */
    /* Gote's zone is ranks i-l. */
    const char *w = pos("K12l k12a g11a G1l s9h s8g", "w - 1");
    LEGAL(w, NULL, "9h9i+");
    LEGAL(w, NULL, "9h9i");
    ILLEGAL(w, NULL, "8g8h+");
}

/* A capture with its origin or destination in the zone may promote, including a capture
 * that leaves the zone; a plain move leaving the zone may not. */
static void test_promotion_capture_in_zone(void)
{
    const char *s = pos("K12l k12a g11a G1l S4d p5e S2c p2b", "b - 1");
    LEGAL(s, NULL, "2c2b+");         /* capture inside the zone */
    LEGAL(s, NULL, "2c2b");
    LEGAL(s, NULL, "4d5e+");         /* capture leaving the zone */
    LEGAL(s, NULL, "4d5e");
    ILLEGAL(s, NULL, "4d3e+");       /* plain move leaving the zone */
    LEGAL(s, NULL, "4d3e");
    const char *w = pos("K12l k12a g11a G1l s4i P5h", "w - 1");
    LEGAL(w, NULL, "4i5h+");
    ILLEGAL(w, NULL, "4i3h+");
}

/* A plain move inside the zone may not promote by default; it may under promotion=msm
 * (still not when leaving the zone without a capture). */
static void test_promotion_inside_zone_msm_option(void)
{
    const char *s = pos("K12l k12a g11a G1l S8c S4d", "b - 1");
    ILLEGAL(s, NULL, "8c8b+");
    LEGAL(s, NULL, "8c8b");
    LEGAL(s, "promotion=msm", "8c8b+");
    LEGAL(s, "promotion=msm", "8c8b");
    ILLEGAL(s, "promotion=msm", "4d3e+");
    const char *w = pos("K12l k12a g11a G1l s8j", "w - 1");
    ILLEGAL(w, NULL, "8j8k+");
    LEGAL(w, "promotion=msm", "8j8k+");
}

/* A Pawn or Lance reaching the last rank may promote, even from inside the zone without a
 * capture (so a Pawn that declined earlier gets a second chance); other moves inside the
 * zone may not. */
static void test_promotion_pawn_lance_last_rank(void)
{
    const char *s = pos("K12l k12a g11a G1l P5b L3c", "b - 1");
    LEGAL(s, NULL, "5b5a+");
    LEGAL(s, NULL, "5b5a");
    LEGAL(s, NULL, "3c3a+");
    LEGAL(s, NULL, "3c3a");
    ILLEGAL(s, NULL, "3c3b+");       /* Lance inside the zone, not the last rank */
    LEGAL(s, NULL, "3c3b");
    const char *w = pos("K12l k12a g11a G1l p7k l2j", "w - 1");
    LEGAL(w, NULL, "7k7l+");
    LEGAL(w, NULL, "7k7l");
    LEGAL(w, NULL, "2j2l+");
    ILLEGAL(w, NULL, "2j2k+");
    /* The promoted Pawn is a Gold (+p), the promoted Lance a White Horse (+l). */
    void *st = st_new(s, NULL);
    if (st && play(st, "5b5a+") == 0)
        CHECK_STR(piece_at(st, "5a"), "+P");
    free(st);
}

/* Option last_rank=must (HaChu's rule): a Pawn or Lance arriving on the last rank must
 * promote; everything else is unchanged. */
static void test_promotion_last_rank_must(void)
{
    const char *s = pos("K12l k12a g11a G1l P5b L3c", "b - 1");
    LEGAL(s, "last_rank=must", "5b5a+");
    ILLEGAL(s, "last_rank=must", "5b5a");
    LEGAL(s, "last_rank=must", "3c3a+");
    ILLEGAL(s, "last_rank=must", "3c3a");
    LEGAL(s, "last_rank=must", "3c3b");
    const char *w = pos("K12l k12a g11a G1l p7k l2j", "w - 1");
    LEGAL(w, "last_rank=must", "7k7l+");
    ILLEGAL(w, "last_rank=must", "7k7l");
    ILLEGAL(w, "last_rank=must", "2j2l");
    LEGAL(w, "last_rank=must", "2j2k");
    /* Other promotions keep both choices. */
    const char *g = pos("K12l k12a g11a G1l S4e P6e", "b - 1");
    LEGAL(g, "last_rank=must", "4e4d+");
    LEGAL(g, "last_rank=must", "4e4d");
    LEGAL(g, "last_rank=must", "6e6d+");
    LEGAL(g, "last_rank=must", "6e6d");
}

/* Declining on the last rank leaves a dead Pawn/Lance with no moves. */
static void test_promotion_declined_last_rank_dead_piece(void)
{
    void *st = st_new(pos("K12l k12a g11a G1l P5b L3c", "b - 1"), NULL);
    if (!st)
        return;
    if (play(st, "5b5a 11a11b 3c3a 11b11a") == 0) {
        CHECK_STR(piece_at(st, "5a"), "P");
        CHECK_STR(piece_at(st, "3a"), "L");
        CHECK_EQ_INT(moves_from(st, "5a"), 0);
        CHECK_EQ_INT(moves_from(st, "3a"), 0);
    }
    free(st);
    void *w = st_new(pos("K12l k12a g11a G1l p7l l2l", "w - 1"), NULL);
    if (w) {
        CHECK_EQ_INT(moves_from(w, "7l"), 0);
        CHECK_EQ_INT(moves_from(w, "2l"), 0);
    }
    free(w);
}

/* Both the promoting and the non-promoting move exist wherever promotion is allowed: two
 * moves from 9e to 9d, one from 8c to 8b. */
static void test_promotion_both_choices_listed(void)
{
    void *st = st_new(pos("K12l k12a g11a G1l S9e S8c O4e E6e", "b - 1"), NULL);
    if (!st)
        return;
    CHECK_EQ_INT(moves_from_to(st, "9e", "9d"), 2);
    CHECK_EQ_INT(moves_from_to(st, "8c", "8b"), 1);
    CHECK_EQ_INT(moves_from_to(st, "4e", "4c"), 2);   /* Kirin jump into the zone */
    CHECK_EQ_INT(moves_from_to(st, "6e", "6d"), 2);
    CHECK(mv(st, "9e9d+") != mv(st, "9e9d"));
    free(st);
}

/* Promoted pieces never promote again: a Rook from a Gold (+G) is not a Rook that could
 * become a Dragon King, and a promoted Rook (+R) does not promote a second time. */
static void test_promotion_promoted_never_again(void)
{
    const char *s = pos("K12l k12a g11a G1l +G5f R8f +R3f", "b - 1");
    ILLEGAL(s, NULL, "5f5c+");
    LEGAL(s, NULL, "5f5c");
    LEGAL(s, NULL, "8f8c+");         /* a real Rook may */
    ILLEGAL(s, NULL, "3f3c+");
    void *st = st_new(s, NULL);
    if (st) {
        CHECK_EQ_INT(moves_from_to(st, "5f", "5c"), 1);
        CHECK_EQ_INT(moves_from_to(st, "8f", "8c"), 2);
    }
    free(st);
}

/* King, Queen and Lion never promote (also when capturing in the zone). */
static void test_promotion_king_queen_lion_never(void)
{
    const char *s = pos("K5e k12a g11a Q9f N2f p9b p2d p5d G1l", "b - 1");
    ILLEGAL(s, NULL, "5e5d+");
    LEGAL(s, NULL, "5e5d");
    ILLEGAL(s, NULL, "9f9b+");
    LEGAL(s, NULL, "9f9b");
    ILLEGAL(s, NULL, "2f2d+");
    LEGAL(s, NULL, "2f2d");
    ILLEGAL(s, NULL, "2f2e2d+");
}

/* Promotions give the table's pieces: Kirin -> Lion, Drunk Elephant -> Prince, Rook ->
 * Dragon King, Pawn -> Gold. */
static void test_promotion_results(void)
{
    void *st = st_new(pos("K12l k12a g11a G1l O9f E6e R3f", "b - 1"), NULL);
    if (!st)
        return;
    if (play(st, "9f9d+ 11a11b 6e6d+ 11b11a 3f3c+") == 0) {
        CHECK_STR(piece_at(st, "9d"), "+O");
        CHECK_STR(piece_at(st, "6d"), "+E");
        CHECK_STR(piece_at(st, "3c"), "+R");
    }
    free(st);
}

/* ===================================================================================
 * End of the game: royal capture, no legal move, suicide (chu.md "Check and the end")
 * =================================================================================== */

/* Capturing the opponent's last King wins ("royal captured"), for either side. */
static void test_royal_capture_last_king_wins(void)
{
    const char *s = pos("K12l G5c S1i k5b s9b g10b", "b - 1");
    ONGOING(s, NULL, NULL);
    RESULT(s, NULL, "5c5b", GV_WIN, 0, "royal captured");
    const char *w = pos("K5k G9i S1i k12a g5j s9b", "w - 1");
    RESULT(w, NULL, "5j5k", GV_WIN, 1, "royal captured");
}

/* With King and Prince, losing the King does not end the game; the Prince is then the
 * royal and capturing it wins. */
static void test_royal_capture_king_and_prince(void)
{
    const char *s = pos("K12l G5c R8l k5b +e8b s9b", "b - 1");
    RESULT(s, NULL, "5c5b", GV_ONGOING, -1, NULL);
    RESULT(s, NULL, "5c5b 9b9c", GV_ONGOING, -1, NULL);
    RESULT(s, NULL, "5c5b 9b9c 8l8b", GV_WIN, 0, "royal captured");
    /* Prince first, then King. */
    RESULT(s, NULL, "8l8b 9b9c", GV_ONGOING, -1, NULL);
    RESULT(s, NULL, "8l8b 9b9c 5c5b", GV_WIN, 0, "royal captured");
}

/* A Prince made by promoting a Drunk Elephant is royal: with it the King's loss does not
 * end the game; without the promotion it does. */
static void test_royal_prince_from_promoted_elephant(void)
{
    const char *s = pos("K12l R1l G9i k1a g2a e5h", "w - 1");
    RESULT(s, NULL, "5h5i+ 1l1a", GV_ONGOING, -1, NULL);
    RESULT(s, NULL, "5h5i 1l1a", GV_WIN, 0, "royal captured");
    /* Taking the promotion back (unmake) takes the Prince's royalty back too. */
    void *st = st_new(s, NULL);
    if (st && play(st, "5h5i+") == 0) {
        chu()->unmake(st);
        if (play(st, "5h5i 1l1a") == 0) {
            gv_result r;
            CHECK_EQ_INT(chu()->status(st, &r), GV_WIN);
            CHECK_STR(r.reason, "royal captured");
            chu()->unmake(st);
            CHECK_EQ_INT(chu()->status(st, &r), GV_ONGOING);
        }
    }
    free(st);
    /* An SFEN Prince counts the same. */
    RESULT(pos("K12l R1l G9i k1a g2a +e5i", "b - 1"), NULL, "1l1a", GV_ONGOING, -1, NULL);
}

/* A side with no legal move loses ("no legal move"): White's King is walled in by its own
 * Pawns, which are blocked or dead. */
static void test_no_legal_move_loses(void)
{
    const char *s = pos("K12a G9e k1l p2l p1k p2k", "w - 1");
    RESULT(s, NULL, NULL, GV_WIN, 0, "no legal move");
    /* Black to move in the same position: the game goes on. */
    ONGOING(pos("K12a G9e k1l p2l p1k p2k", "b - 1"), NULL, NULL);
    /* Black's capture of White's last mobile piece ends it. */
    RESULT(pos("K12a G9e k1l p2l p1k p2k s9d", "b - 1"), NULL, "9e9d", GV_WIN, 0,
           "no legal move");
}

/* Moving into check and leaving one's King attacked are legal ("suicide"); the King is
 * then simply captured. */
static void test_suicide_moves_legal(void)
{
    const char *s = pos("K5e G9i k12a g11a r4a", "b - 1");
    LEGAL(s, NULL, "5e4e");          /* into the Rook's file */
    RESULT(s, NULL, "5e4e 4a4e", GV_WIN, 1, "royal captured");
    const char *c = pos("K5e G9i k12a g11a r5a", "b - 1");   /* Black in check */
    LEGAL(c, NULL, "9i9h");          /* ignores it */
    RESULT(c, NULL, "9i9h 5a5e", GV_WIN, 1, "royal captured");
    /* Capturing a protected piece with the King, or next to the enemy King. */
    LEGAL(pos("K5e G9i k5c g11a p5d", "b - 1"), NULL, "5e5d");
}

/* ===================================================================================
 * Bare King (chu.md, shogiops' isBareKing / isDraw)
 * =================================================================================== */

/* A side whose only piece is its King, against King and a piece, loses ("bare king"),
 * whichever side is to move; it fires after the capture of the last piece. */
static void test_bare_king_fires(void)
{
    RESULT(pos("K5l G3k k5a", "b - 1"), NULL, NULL, GV_WIN, 0, "bare king");
    RESULT(pos("K5l G3k k5a", "w - 1"), NULL, NULL, GV_WIN, 0, "bare king");
    RESULT(pos("k5a g3b K5l", "b - 1"), NULL, NULL, GV_WIN, 1, "bare king");
    RESULT(pos("K5l G3k S3j k5a g3i", "b - 1"), NULL, NULL, GV_ONGOING, -1, NULL);
    RESULT(pos("K5l G3k S3j k5a g3i", "b - 1"), NULL, "3j3i", GV_WIN, 0, "bare king");
    /* A live Lance counts for the stronger side. */
    RESULT(pos("K5l L3b k5a", "w - 1"), NULL, NULL, GV_WIN, 0, "bare king");
}

/* Not bared when the other side has only Pawns or Go-Betweens besides its King. */
static void test_bare_king_not_against_pawns_gobetweens(void)
{
    ONGOING(pos("K5l P3k k5a", "b - 1"), NULL, NULL);
    ONGOING(pos("K5l I3k k5a", "b - 1"), NULL, NULL);
    ONGOING(pos("K5l P3k I8i P1f k5a", "w - 1"), NULL, NULL);
    /* A Gold (a promoted Pawn) does count. */
    RESULT(pos("K5l +P3k k5a", "b - 1"), NULL, NULL, GV_WIN, 0, "bare king");
}

/* Not bared when the bared King attacks the only other piece; bared when there are two
 * pieces, even if it attacks one. */
static void test_bare_king_attacks_only_piece(void)
{
    ONGOING(pos("K5l G5b k5a", "b - 1"), NULL, NULL);
    ONGOING(pos("K5l G5b k5a", "w - 1"), NULL, NULL);
    RESULT(pos("K5l G5b S9i k5a", "w - 1"), NULL, NULL, GV_WIN, 0, "bare king");
    /* Capturing the only piece leaves the Kings alone: a draw. */
    RESULT(pos("K5l G5b k5a", "w - 1"), NULL, "5a5b", GV_DRAW, -1, "kings only");
}

/* Not bared while the other King is attacked by the bared King; once it steps away the
 * rule fires. */
static void test_bare_king_other_king_attacked(void)
{
    ONGOING(pos("K5c G9i k5b", "b - 1"), NULL, NULL);
    ONGOING(pos("K5c G9i k5b", "w - 1"), NULL, NULL);
    RESULT(pos("K5c G9i k5b", "b - 1"), NULL, "5c5d", GV_WIN, 0, "bare king");
}

/* Dead Pawns and Lances (on their farthest rank) do not count for the bared side; live
 * ones do. The stronger side's dead Lance does not count either. */
static void test_bare_king_dead_pieces(void)
{
    RESULT(pos("K5l G3k k5a p7l l8l", "b - 1"), NULL, NULL, GV_WIN, 0, "bare king");
    ONGOING(pos("K5l G3k k5a p7k", "b - 1"), NULL, NULL);
    ONGOING(pos("K5l G3k k5a l8k", "b - 1"), NULL, NULL);
    /* Black's only other piece a dead Lance: Kings only (dead pieces aside). */
    RESULT(pos("K5l L3a k5a", "b - 1"), NULL, NULL, GV_DRAW, -1, "kings only");
}

/* Only the two Kings (dead Pawns and Lances aside), neither attacked: a draw. Attacked
 * Kings (adjacent) play on. */
static void test_bare_king_kings_only_draw(void)
{
    RESULT(pos("K5l k5a", "b - 1"), NULL, NULL, GV_DRAW, -1, "kings only");
    RESULT(pos("K5c k5a", "w - 1"), NULL, NULL, GV_DRAW, -1, "kings only");
    RESULT(pos("K5l k5a P7a L8a p9l l10l", "b - 1"), NULL, NULL, GV_DRAW, -1, "kings only");
    ONGOING(pos("K5b k5a", "b - 1"), NULL, NULL);
    RESULT(pos("K5b k5a", "b - 1"), NULL, "5b5a", GV_WIN, 0, "royal captured");
}

/* Royals as shogiops counts them: a Prince alone is a bare royal; a side with King and
 * Prince is never the "other side" of a bare King, nor bared. */
static void test_bare_king_prince(void)
{
    RESULT(pos("K5l G3k +e5a", "b - 1"), NULL, NULL, GV_WIN, 0, "bare king");
    ONGOING(pos("K5l +E7l k5a", "b - 1"), NULL, NULL);
    ONGOING(pos("K5l G3k k5a +e7a", "b - 1"), NULL, NULL);
    RESULT(pos("+E5l k5a", "b - 1"), NULL, NULL, GV_DRAW, -1, "kings only");
}

/* Option bare_king=off: the bared side plays on. */
static void test_bare_king_option_off(void)
{
    ONGOING(pos("K5l G3k k5a", "b - 1"), "bare_king=off", NULL);
    ONGOING(pos("K5l G3k S3j k5a g3i", "b - 1"), "bare_king=off", "3j3i");
    RESULT(pos("K5l G3k k5a", "b - 1"), "bare_king=on", NULL, GV_WIN, 0, "bare king");
}

/* ===================================================================================
 * Repetition and perpetual check (chu.md "Repetition")
 * =================================================================================== */

/* A four-ply cycle of Gold moves, repeated: the fourth occurrence of the position with the
 * same side to move is a draw ("repetition"); the third is not. */
#define SHUFFLE "9i9h 9b9c 9h9i 9c9b "
static void test_repetition_fourth_occurrence_draw(void)
{
    const char *s = pos("K12l R5b G9i k1a g9b s10a", "b - 1");
    ONGOING(s, NULL, SHUFFLE SHUFFLE);                                  /* third */
    ONGOING(s, NULL, SHUFFLE SHUFFLE "9i9h 9b9c 9h9i");                 /* 11 plies */
    RESULT(s, NULL, SHUFFLE SHUFFLE SHUFFLE, GV_DRAW, -1, "repetition"); /* fourth */
    /* The same with White to move in the repeated position. */
    const char *w = pos("K12l R5b G9i k1a g9b s10a", "w - 1");
    RESULT(w, NULL, "9b9c 9i9h 9c9b 9h9i 9b9c 9i9h 9c9b 9h9i 9b9c 9i9h 9c9b 9h9i",
           GV_DRAW, -1, "repetition");
}

/* Perpetual check: the side that gave check with every move of the cycle loses. */
#define CHECKS "5b5a 1a2b 5a5b 2b1a "
static void test_repetition_perpetual_check_loses(void)
{
    const char *s = pos("K12l R5b G9i k1a g9b s10a", "b - 1");
    ONGOING(s, NULL, CHECKS CHECKS);
    RESULT(s, NULL, CHECKS CHECKS CHECKS, GV_WIN, 1, "perpetual check");
    /* Checks on only some of the moves (the position recurs after each group): a plain
     * draw at its fourth occurrence. */
    ONGOING(s, NULL, CHECKS SHUFFLE);
    RESULT(s, NULL, CHECKS SHUFFLE CHECKS, GV_DRAW, -1, "repetition");
    /* White checking perpetually loses too. */
    const char *w = pos("k12a r5k g9c K1l G9k S10l", "w - 1");
    RESULT(w, NULL, "5k5l 1l2k 5l5k 2k1l 5k5l 1l2k 5l5k 2k1l 5k5l 1l2k 5l5k 2k1l",
           GV_WIN, 0, "perpetual check");
}

/* Option repetition=off: the cycles play on. */
static void test_repetition_option_off(void)
{
    const char *s = pos("K12l R5b G9i k1a g9b s10a", "b - 1");
    ONGOING(s, "repetition=off", SHUFFLE SHUFFLE SHUFFLE SHUFFLE);
    ONGOING(s, "repetition=off", CHECKS CHECKS CHECKS CHECKS);
}

/* A pass changes only the side to move: two passes in a row repeat the position, and six
 * make its fourth occurrence. */
static void test_repetition_pass_changes_side(void)
{
    const char *s = pos("K12l G9i N5g k12a g9b n5d", "b - 1");
    void *st = st_new(s, NULL);
    if (!st)
        return;
    char before[512], after[512];
    chu()->get_position(st, before, sizeof before);
    if (play(st, "5g5f5g") == 0) {
        chu()->get_position(st, after, sizeof after);
        CHECK(strncmp(before, after, (size_t)(strchr(before, ' ') - before)) == 0);
        CHECK_EQ_INT(chu()->to_move(st), 1);
        CHECK_STR(sfen_tail(st), "w - 2");
    }
    free(st);
    ONGOING(s, NULL, "5g5f5g 5d5e5d 5g5f5g 5d5e5d");
    RESULT(s, NULL, "5g5f5g 5d5e5d 5g5f5g 5d5e5d 5g5f5g 5d5e5d", GV_DRAW, -1, "repetition");
}

/* ===================================================================================
 * Moves and their effects (chu.md "Lion power")
 * =================================================================================== */

/* A Lion's jump and its two steps through an empty square are one move; in the open a
 * Lion has 24 destinations (8 steps, 16 jumps). */
static void test_lion_moves_jump_and_two_steps_one_move(void)
{
    void *st = st_new(pos("K12l G12k k1a g1b N5g", "b - 1"), NULL);
    if (!st)
        return;
    CHECK_EQ_INT(moves_from(st, "5g"), 24);
    gv_move jump = mv(st, "5g5e");
    CHECK(jump != 0);
    CHECK(mv(st, "5g5f5e") == jump);
    CHECK(mv(st, "5g4f5e") == jump);
    CHECK(mv(st, "5g4f3e") == mv(st, "5g3e"));
    CHECK(mv(st, "5g5f4f") == mv(st, "5g4f"));    /* two steps to a neighbour */
    CHECK(mv(st, "5g5f4f") != 0);
    CHECK(mv(st, "5g5f3f") == 0);                 /* not a king step from 5f */
    CHECK_EQ_INT(moves_from_to(st, "5g", "5e"), 1);
    free(st);
    /* In a corner the 5x5 area leaves 8 squares. */
    void *c = st_new(pos("K12l G12k k5a g4a N1l", "b - 1"), NULL);
    if (c)
        CHECK_EQ_INT(moves_from(c, "1l"), 8);
    free(c);
}

/* With an enemy on the middle square, capturing on the way and jumping over are two
 * different moves with different results. */
static void test_lion_moves_capture_on_the_way(void)
{
    const char *s = pos("K12l G12k k1a g1b N5g p5f", "b - 1");
    void *st = st_new(s, NULL);
    if (!st)
        return;
    gv_move through = mv(st, "5g5f5e"), jump = mv(st, "5g5e");
    CHECK(through != 0 && jump != 0 && through != jump);
    CHECK_EQ_INT(moves_from_to(st, "5g", "5e"), 2);
    chu()->make(st, jump);
    CHECK_STR(piece_at(st, "5f"), "p");
    chu()->unmake(st);
    chu()->make(st, through);
    CHECK_STR(piece_at(st, "5f"), "");
    CHECK_STR(piece_at(st, "5e"), "N");
    chu()->unmake(st);
    char sfen[512];
    chu()->get_position(st, sfen, sizeof sfen);
    CHECK_STR(sfen, s);
    free(st);
}

/* All passes are one move: a Lion, a Horned Falcon and a Soaring Eagle that can each pass
 * give a single pass move, whichever way it is written; no piece that can pass, no pass. */
static void test_lion_moves_all_passes_one_move(void)
{
    void *st = st_new(pos("K12l G12k k1a g1b N5g +H9g +D2g", "b - 1"), NULL);
    if (!st)
        return;
    CHECK_EQ_INT(count_passes(st), 1);
    gv_move pass = mv(st, "5g5f5g");
    CHECK(pass != 0);
    CHECK(mv(st, "5g4h5g") == pass);
    CHECK(mv(st, "9g9f9g") == pass);     /* Falcon: straight forward and back */
    CHECK(mv(st, "2g3f2g") == pass);     /* Eagle: a forward diagonal and back */
    CHECK(mv(st, "2g1f2g") == pass);
    CHECK(mv(st, "9g8f9g") == 0);        /* not on the Falcon's lion line */
    free(st);
    /* A Lion boxed in by its own pieces cannot pass. */
    void *box = st_new(pos("K5l k1a g1b N12l G11l G11k G12k", "b - 1"), NULL);
    if (box) {
        CHECK_EQ_INT(count_passes(box), 0);
        CHECK(mv(box, "12l11k12l") == 0);
    }
    free(box);
    /* A Falcon with its forward square occupied cannot pass. */
    void *f = st_new(pos("K5l k1a g1b +H9g P9f", "b - 1"), NULL);
    if (f)
        CHECK_EQ_INT(count_passes(f), 0);
    free(f);
}

/* Igui (capture without moving) is one move per victim. */
static void test_lion_moves_igui_one_per_victim(void)
{
    const char *s = pos("K12l G12k k1a g1b N5g p5f s4f g6h", "b - 1");
    void *st = st_new(s, NULL);
    if (!st)
        return;
    int n = chu()->legal_moves(st, g_moves), igui = 0;
    for (int i = 0; i < n; i++)
        if (CHU_FROM(g_moves[i]) == sq("5g") && CHU_TO(g_moves[i]) == sq("5g") &&
            !(CHU_FLAGS(g_moves[i]) & CHU_MF_PASS))
            igui++;
    CHECK_EQ_INT(igui, 3);
    gv_move m = mv(st, "5g4f5g");
    CHECK(m != 0);
    chu()->make(st, m);
    CHECK_STR(piece_at(st, "5g"), "N");
    CHECK_STR(piece_at(st, "4f"), "");
    CHECK_STR(piece_at(st, "5f"), "p");
    CHECK_STR(sfen_tail(st), "w - 2");
    chu()->unmake(st);
    /* A Falcon's igui straight ahead. */
    CHECK(is_legal(pos("K12l G12k k1a g1b +H9g p9f", "b - 1"), NULL, "9g9f9g") == 1);
    free(st);
}

/* Double capture: both victims leave the board in one move; unmake restores them. */
static void test_lion_moves_double_capture(void)
{
    const char *s = pos("K12l G12k k1a g1b N5g p5f s5e +H9g p9f g9e", "b - 1");
    void *st = st_new(s, NULL);
    if (!st)
        return;
    if (play(st, "5g5f5e") == 0) {
        CHECK_STR(piece_at(st, "5f"), "");
        CHECK_STR(piece_at(st, "5e"), "N");
        CHECK_STR(piece_at(st, "5g"), "");
        chu()->unmake(st);
        char sfen[512];
        chu()->get_position(st, sfen, sizeof sfen);
        CHECK_STR(sfen, s);
    }
    /* The Falcon's double capture straight ahead. */
    if (play(st, "9g9f9e") == 0) {
        CHECK_STR(piece_at(st, "9f"), "");
        CHECK_STR(piece_at(st, "9e"), "+H");
    }
    free(st);
}

/* Illegal moves are refused with a reason, and every listed legal move is written and
 * read back as itself (generator and parser agree), in the lion-trading positions. */
static void test_illegal_moves_refused_legal_moves_read_back(void)
{
    static const char *lists[] = {
        "K12l k12a N5g G5h n5f g5e",        "K12l k12a N5h S5i n5f l5c B8c",
        "K12l k12a N6g G6h n4e b8i",        "K12l k12a N6g G6h p5f n4e b8i",
        "K12l k12a N5d p5e p4e n5f",        "K12l k12a N3c n1a r3a n5a s2b i4b p4c g5d s6c",
        "K12l k12a g1a N8g n8e n6e R8j",    "K12l k12a g1a r3g +H9g n9e +D5g n3e N2d",
    };
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        for (int jcsa = 0; jcsa < 2; jcsa++) {
            void *st = st_new(pos(lists[i], "b - 1"), jcsa ? "lion_double=jcsa" : NULL);
            if (!st)
                continue;
            static gv_move all[GV_MAX_MOVES];
            int n = chu()->legal_moves(st, all);
            CHECK(n > 0);
            for (int k = 0; k < n; k++) {
                char text[32];
                gv_move back = 0;
                char err[GV_ERRLEN];
                CHECK(chu()->write_move(st, all[k], text, sizeof text) > 0);
                if (chu()->parse_move(st, text, &back, err, sizeof err) != 0 || back != all[k])
                    FAILF(__LINE__, "'%s': listed move %s does not read back (%s)",
                          lists[i], text, err);
            }
            free(st);
        }
    }
    void *st = st_new(pos("K12l k12a N5h S5i n5f l5c B8c", "b - 1"), NULL);
    if (st) {
        gv_move m = 0;
        char err[GV_ERRLEN] = "";
        CHECK(chu()->parse_move(st, "5h5f", &m, err, sizeof err) == -1);
        CHECK(err[0] != 0);
        CHECK(chu()->parse_move(st, "5h5c", &m, err, sizeof err) == -1);
        CHECK(chu()->parse_move(st, "5i5h", &m, err, sizeof err) == -1);   /* own piece */
    }
    free(st);
}

/* ===================================================================================
 * The table
 * =================================================================================== */

/* ===================================================================================
 * Rule sets, the association's and the historical rules, handicaps (chu.md "Rule sets,
 * variants and handicaps")
 * =================================================================================== */

/* counter_strike=jcsa / case VII: right after White's Rook took Black's Lion, Black's
 * Bishop may take White's other Lion when nothing protects it (jcsa), never under the
 * default (edo); a protected Lion stays out of reach under both. */
static void test_counter_strike_jcsa(void)
{
    const char *unprot = pos("K12l k12a g1a r5g G5h B6f +O9e n8d", "b 5g 2");
    ILLEGAL(unprot, NULL, "6f8d");
    ILLEGAL(unprot, "counter_strike=edo", "6f8d");
    LEGAL(unprot, "counter_strike=jcsa", "6f8d");
    LEGAL(unprot, "ruleset=jcsa", "6f8d");
    ILLEGAL(unprot, "ruleset=jcsa,counter_strike=edo", "6f8d");
    /* A Gold on 8c protects the Lion: the capture would be recaptured. */
    const char *prot = pos("K12l k12a g1a r5g G5h B6f +O9e n8d g8c", "b 5g 2");
    ILLEGAL(prot, "counter_strike=jcsa", "6f8d");
    /* Played out: the Rook's capture sets the square, the Bishop answers. */
    void *st = st_new(pos("K12l k12a g1a N5g G5h B6f +O9e r5b n8d", "w - 1"),
                      "counter_strike=jcsa");
    if (st && play(st, "5b5g 6f8d") == 0)
        CHECK_STR(sfen_tail(st), "w 8d 3");
    free(st);
}

/* repetition=strict: no move may make a position that occurred before -- so two passes in
 * a row are impossible -- except for a player whose royal is attacked. */
static void test_repetition_strict(void)
{
    const char *start = pos("K12l k12a G5h g5e", "b - 1");
    void *st = st_new(start, "repetition=strict");
    if (st && play(st, "5h4h 5e4e 4h5h") == 0) {
        CHECK(mv(st, "4e5e") == 0);     /* back to the start position */
        CHECK(mv(st, "4e3e") != 0);
    }
    free(st);
    st = st_new(start, "repetition=on");
    if (st && play(st, "5h4h 5e4e 4h5h") == 0)
        CHECK(mv(st, "4e5e") != 0);
    free(st);
    /* Passes: Black's Lion passes; White's may not pass back into the position before. */
    st = st_new(pos("K12l k12a N5g n5c", "b - 1"), "repetition=strict");
    if (st && play(st, "5g5f5g") == 0) {
        CHECK(mv(st, "5c5d5c") == 0);
        CHECK(mv(st, "5c5b") != 0);
    }
    free(st);
    /* Out of check a return is allowed; the checker's return is not. */
    st = st_new(pos("K5l G12k k1a g1b r4a", "w - 1"), "ruleset=historical");
    if (st && play(st, "4a5a 5l4l 5a4a") == 0) {
        CHECK(mv(st, "4l5l") != 0);     /* Black is in check: may go back */
        if (play(st, "4l5l") == 0)
            CHECK(mv(st, "4a5a") == 0); /* White is not: may not */
    }
    free(st);
    /* No game ends by repetition under strict. */
    st = st_new(start, "repetition=strict");
    gv_result r;
    if (st && play(st, "5h4h 5e4e") == 0)
        CHECK(chu()->status(st, &r) == GV_ONGOING);
    free(st);
}

/* repetition=jcsa: in a cycle where Black's Rook attacks White's Gold with every move and
 * White only shuffles its King, White may make the fourth occurrence and Black may not;
 * with no attack nobody is obliged and the fourth occurrence is a draw. */
static void test_repetition_jcsa(void)
{
    const char *cycle = "2h2i 12a11a 2i2h 11a12a 2h2i 12a11a 2i2h 11a12a 2h2i 12a11a 2i2h";
    void *st = st_new(pos("K12l k12a g2b R2h", "b - 1"), "repetition=jcsa");
    gv_result r;
    if (st && play(st, cycle) == 0) {
        CHECK(mv(st, "11a12a") != 0);   /* White is not obliged */
        if (play(st, "11a12a") == 0) {
            CHECK(chu()->status(st, &r) == GV_ONGOING);
            CHECK(mv(st, "2h2i") == 0); /* Black attacked throughout: must deviate */
            CHECK(mv(st, "2h3h") != 0);
        }
    }
    free(st);
    /* The same cycle with a Rook that attacks nothing: the fourth occurrence draws. */
    const char *quiet = "3h3i 12a11a 3i3h 11a12a 3h3i 12a11a 3i3h 11a12a 3h3i 12a11a 3i3h";
    st = st_new(pos("K12l k12a g2b R3h", "b - 1"), "repetition=jcsa");
    if (st && play(st, quiet) == 0) {
        CHECK(mv(st, "11a12a") != 0);
        if (play(st, "11a12a") == 0) {
            CHECK(chu()->status(st, &r) == GV_DRAW);
            CHECK_STR(r.reason, "repetition");
            gv_move moves[GV_MAX_MOVES];
            CHECK_EQ_INT(chu()->legal_moves(st, moves), 0);
        }
    }
    free(st);
    /* Under the default the attacking side is not bound: the fourth occurrence is a draw
     * (no side gave check throughout). */
    st = st_new(pos("K12l k12a g2b R2h", "b - 1"), NULL);
    if (st && play(st, cycle) == 0 && play(st, "11a12a") == 0)
        CHECK(chu()->status(st, &r) == GV_DRAW);
    free(st);
}

/* gobetween_far=on: a Go-Between reaching the farthest rank may promote, even from inside
 * the zone and without capturing. */
static void test_gobetween_far(void)
{
    const char *s = pos("K12l k12a I5b", "b - 1");
    ILLEGAL(s, NULL, "5b5a+");
    LEGAL(s, NULL, "5b5a");
    LEGAL(s, "gobetween_far=on", "5b5a+");
    LEGAL(s, "ruleset=historical", "5b5a+");
    /* (historical also lets a piece inside the zone promote on any move: promotion=msm) */
    ILLEGAL(s, "ruleset=historical,gobetween_far=off,promotion=standard", "5b5a+");
    /* Entering the zone promotes as ever, and Gote's far rank is l. */
    LEGAL(pos("K12l k12a i5k", "w - 1"), "gobetween_far=on", "5k5l+");
    ILLEGAL(pos("K12l k12a i5k", "w - 1"), NULL, "5k5l+");
}

/* A rule set names a family; options given override it wherever they stand. */
static void test_rulesets(void)
{
    char err[GV_ERRLEN];
    chu_state *s = malloc(sizeof *s);
    if (!s)
        abort();
    CHECK(chu()->init(s, "ruleset=jcsa", err, sizeof err) == 0);
    CHECK(s->pos.opt.lion_double_jcsa && s->pos.opt.counter_strike_jcsa &&
          s->pos.opt.repetition == CHU_REP_JCSA && !s->pos.opt.promotion_msm &&
          s->pos.opt.bare_king && !s->pos.opt.gobetween_far);
    CHECK(chu()->init(s, "ruleset=historical", err, sizeof err) == 0);
    CHECK(!s->pos.opt.lion_double_jcsa && !s->pos.opt.counter_strike_jcsa &&
          s->pos.opt.repetition == CHU_REP_STRICT && s->pos.opt.promotion_msm &&
          s->pos.opt.gobetween_far);
    CHECK(chu()->init(s, "ruleset=jcsa,repetition=off", err, sizeof err) == 0);
    CHECK(s->pos.opt.repetition == CHU_REP_OFF && s->pos.opt.lion_double_jcsa);
    CHECK(chu()->init(s, "repetition=off,ruleset=jcsa", err, sizeof err) == 0);
    CHECK(s->pos.opt.repetition == CHU_REP_OFF && s->pos.opt.lion_double_jcsa);
    CHECK(chu()->init(s, "ruleset=lishogi", err, sizeof err) == 0);
    CHECK(!s->pos.opt.lion_double_jcsa && s->pos.opt.repetition == CHU_REP_ON);
    CHECK(chu()->init(s, "ruleset=jcsa,ruleset=historical", err, sizeof err) < 0);
    CHECK(chu()->init(s, "ruleset=edo", err, sizeof err) < 0);
    free(s);
}

/* Handicaps: the presets change the start and Gote moves first; combinations add up; a
 * piece changed twice, an unknown name or "none" among others are refused. */
static void test_handicaps(void)
{
    char err[GV_ERRLEN], sfen[512];
    void *st = malloc(chu()->state_size);
    if (!st)
        abort();
    CHECK(chu()->init(st, "handicap=gold", err, sizeof err) == 0);
    chu()->get_position(st, sfen, sizeof sfen);
    CHECK_STR(sfen, "lfcsgek1scfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/"
                    "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w - 1");
    CHECK(chu()->init(st, "handicap=three-lions+gold+side-mover", err, sizeof err) == 0);
    chu()->get_position(st, sfen, sizeof sfen);
    CHECK_STR(sfen, "lfcsgek1scfl/a1b1txxt1b1a/mvrhdqndhrv1/pppppppppppp/3i4i3/12/12/3I4I3/"
                    "PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1T+O+OT1B1A/LFCSGKEGSCFL w - 1");
    /* "startpos" keeps the handicap. */
    CHECK(chu()->set_position(st, "startpos", err, sizeof err) == 0);
    char again[512];
    chu()->get_position(st, again, sizeof again);
    CHECK_STR(again, sfen);
    CHECK(chu()->init(st, "handicap=two-kings", err, sizeof err) == 0);
    chu()->get_position(st, sfen, sizeof sfen);
    CHECK(strstr(sfen, "/LFCSGK+EGSCFL w - 1") != NULL);
    CHECK(chu()->init(st, "handicap=gold+gold", err, sizeof err) < 0);
    CHECK(strstr(err, "twice") != NULL);
    CHECK(chu()->init(st, "handicap=two-lions+three-lions", err, sizeof err) < 0);
    CHECK(strstr(err, "7k") != NULL);
    CHECK(chu()->init(st, "handicap=none+gold", err, sizeof err) < 0);
    CHECK(chu()->init(st, "handicap=pawn", err, sizeof err) < 0);
    CHECK(chu()->init(st, "handicap=gold+", err, sizeof err) < 0);
    /* Gote plays first. */
    CHECK(chu()->init(st, "handicap=queen", err, sizeof err) == 0);
    CHECK_EQ_INT(chu()->to_move(st), 1);
    CHECK(mv(st, "5d5e") != 0);
    free(st);
}

/* Heisei Chu (variant=heisei): the start, drops next to one's own pieces, promoted drops
 * in the zone, the right to promote later of a piece dropped unpromoted in the zone, the
 * reserves in SFEN, the bare king with a reserve. */
static void test_heisei_start_and_sfen(void)
{
    char err[GV_ERRLEN], sfen[512];
    void *st = malloc(chu()->state_size);
    if (!st)
        abort();
    CHECK(chu()->init(st, "variant=heisei", err, sizeof err) == 0);
    chu()->get_position(st, sfen, sizeof sfen);
    CHECK_STR(sfen, "1f2gekg2f1/2b1t2t1b2/2rhdqndhr2/pppppppppppp/3i4i3/12/12/3I4I3/"
                    "PPPPPPPPPPPP/2RHDNQDHR2/2B1T2T1B2/1F2GKEG2F1 b 2L2C2S2M2V2AOX2l2c2s2m2v2aox 1");
    /* Reserves the set cannot hold, twice-named kinds, pieces never held: refused, and the
     * position is unchanged. */
    const char *bad[] = {"3L", "L2L", "P", "2O", "Lx2l2l", "2L!"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "k11/12/12/12/12/12/12/12/12/12/12/K11 b %s 1", bad[i]);
        CHECK(chu()->set_position(st, text, err, sizeof err) < 0);
        char now[512];
        chu()->get_position(st, now, sizeof now);
        CHECK_STR(now, sfen);
    }
    /* A Kirin on the board leaves no room for one in reserve. */
    CHECK(chu()->set_position(st, "k11/12/12/12/12/12/12/12/12/12/O11/K11 b O 1", err,
                              sizeof err) < 0);
    CHECK(strstr(err, "set has 1") != NULL);
    /* The counter-strike square follows the reserves as a field of its own. */
    CHECK(chu()->set_position(st, "k11/12/12/12/12/12/12/12/12/12/12/K11 b 2L 5g 7", err,
                              sizeof err) == 0);
    chu()->get_position(st, sfen, sizeof sfen);
    CHECK_STR(sfen, "k11/12/12/12/12/12/12/12/12/12/12/K11 b 2L 5g 7");
    /* Standard Chu has no reserves. */
    CHECK(chu()->init(st, NULL, err, sizeof err) == 0);
    CHECK(chu()->set_position(st, "k11/12/12/12/12/12/12/12/12/12/12/K11 b 2L 1", err,
                              sizeof err) < 0);
    free(st);
}

static void test_heisei_drops(void)
{
    const char *h = "variant=heisei";
    const char *s = pos("K12l k12a G5h g5c", "b LSA 1");
    LEGAL(s, h, "L*5g");             /* next to the Gold */
    LEGAL(s, h, "L*4i");
    ILLEGAL(s, h, "L*5h");           /* occupied */
    ILLEGAL(s, h, "L*5e");           /* next to nothing of Sente's */
    ILLEGAL(s, h, "C*5g");           /* no Copper in reserve */
    ILLEGAL(s, h, "P*5g");           /* a Pawn is never held */
    ILLEGAL(s, h, "L*5g+");          /* promoted only in the zone */
    ILLEGAL(pos("K12l k12a G5h g5c", "b - 1"), NULL, "L*5g");   /* standard Chu: no drops */
    /* In the zone (ranks a-d for Sente), next to Gote's Gold does not count; next to a
     * Sente piece it does, promoted or not; a Lance never unpromoted on rank a. */
    const char *z = pos("K12l k12a S5b g9c", "b LSA 1");
    LEGAL(z, h, "A*5c");
    LEGAL(z, h, "A*5c+");
    LEGAL(z, h, "L*4a+");
    ILLEGAL(z, h, "L*4a");
    LEGAL(z, h, "L*4b");
    ILLEGAL(z, h, "A*9d");
    /* The drop is written as USI and TSA write it, and it leaves the reserve. */
    void *st = st_new(z, h);
    if (!st)
        return;
    gv_move m = mv(st, "A*5c+");
    char text[32];
    chu()->write_move(st, m, text, sizeof text);
    CHECK_STR(text, "A*5c+");
    CHECK(chu_write_tsa(st, m, text, sizeof text) > 0);
    CHECK_STR(text, "RC*5c+");
    gv_move pm;
    char err[GV_ERRLEN];
    CHECK(chu()->parse_move(st, "RC*5c+", &pm, err, sizeof err) == 0 && pm == m);
    if (play(st, "A*5c+") == 0) {
        CHECK_STR(piece_at(st, "5c"), "+A");
        CHECK_STR(sfen_tail(st), "w LS 2");
        chu()->unmake(st);
        CHECK_STR(sfen_tail(st), "b LSA 1");
    }
    free(st);
}

/* A piece dropped unpromoted into the zone may promote on any later move from inside the
 * zone (the right goes with it, and goes when it promotes or is taken). */
static void test_heisei_promotion_right(void)
{
    const char *h = "variant=heisei";
    void *st = st_new(pos("K12l k12a S5b g12c", "b S 1"), h);
    if (!st)
        return;
    if (play(st, "S*6c 12c11c") == 0) {
        CHECK(mv(st, "6c6b+") != 0);     /* inside the zone, no capture: by the right */
        CHECK(mv(st, "5b5a+") == 0);     /* the other Silver has no such right */
        /* Out of the zone (a move from inside may still promote, by the right)... */
        if (play(st, "6c7d 11c12c") == 0)
            CHECK(mv(st, "7d8e+") != 0);
        if (play(st, "7d8e 12c11c") == 0) {
            CHECK(mv(st, "8e9f+") == 0); /* ...from outside, only entering it promotes */
            CHECK(mv(st, "8e8d+") != 0);
        }
    }
    free(st);
    /* The right survives moves within the zone and is lost with the piece. */
    st = st_new(pos("K12l k12a S5b g12c", "b S 1"), h);
    if (st && play(st, "S*6c 12c11c 6c7b 11c12c") == 0)
        CHECK(mv(st, "7b7a+") != 0);
    free(st);
}

/* A side with reserve pieces is not bared. */
static void test_heisei_bare_king(void)
{
    gv_result r;
    void *st = st_new(pos("K12l k1a g2a s3a", "b L 1"), "variant=heisei");
    if (st)
        CHECK(chu()->status(st, &r) == GV_ONGOING);
    free(st);
    st = st_new(pos("K12l k1a g2a s3a", "b - 1"), "variant=heisei");
    if (st)
        CHECK(chu()->status(st, &r) == GV_WIN && r.winner == 1);
    free(st);
}

/* Regressions: TSA writes every promoting drop with '+' and an unpromoted one into the
 * zone with '=', and reads both back; under repetition=jcsa alternating passes end with
 * the first passer obliged; under strict a counter-strike square does not make a position
 * another. */
static void test_heisei_tsa_marks_and_pass_cycles(void)
{
    void *st = st_new(pos("K12l k12a g9a s10a S5b G3b", "b LS 1"), "variant=heisei");
    if (st) {
        char text[32];
        gv_move m = mv(st, "L*3a+");      /* the farthest rank: only promoted */
        CHECK(m != 0 && chu_write_tsa(st, m, text, sizeof text) > 0);
        CHECK_STR(text, "L*3a+");
        gv_move back;
        char err[GV_ERRLEN];
        CHECK(chu()->parse_move(st, text, &back, err, sizeof err) == 0 && back == m);
        m = mv(st, "L*4b");
        CHECK(m != 0 && chu_write_tsa(st, m, text, sizeof text) > 0);
        CHECK_STR(text, "L*4b=");
        CHECK(chu()->parse_move(st, text, &back, err, sizeof err) == 0 && back == m);
    }
    free(st);
    /* Passes only: the position before Gote's third pass recurs a fourth time by Gote's
     * pass (allowed: Sente passed first), then Sente's fourth pass is refused. */
    st = st_new(pos("K12l k12a N5j n8c", "b - 1"), "repetition=jcsa");
    gv_result r;
    if (st && play(st, "5j5i5j 8c8b8c 5j5i5j 8c8b8c 5j5i5j 8c8b8c") == 0) {
        CHECK(chu()->status(st, &r) == GV_ONGOING);
        CHECK(mv(st, "5j5i5j") == 0);
        CHECK(mv(st, "5j5i") != 0);
    }
    free(st);
    /* Right after a Lion was taken (counter-strike square 5g), Gote passes; Sente may not
     * pass back into the same board with Gote to move. */
    st = st_new(pos("K12l k12a N9j n3c r5g", "w 5g 2"), "repetition=strict");
    if (st && play(st, "3c3d3c") == 0) {
        CHECK(mv(st, "9j9i9j") == 0);
        CHECK(mv(st, "9j9i") != 0);
    }
    free(st);
}

const t_case chu_rules_tests[] = {
    /* Board and pieces */
    T(test_board_start_position),
    T(test_pieces_moves_from_table),
    /* Lion trading */
    T(test_lion_trade_I),
    T(test_lion_trade_II),
    T(test_lion_trade_III),
    T(test_lion_trade_IV),
    T(test_lion_trade_V),
    T(test_lion_trade_VI),
    T(test_lion_trade_VII_counterstrike),
    T(test_lion_trade_VII_kirin_promotes),
    T(test_lion_trade_counterstrike_not_after_lion_capture),
    T(test_lion_trade_counterstrike_lionpower_pieces),
    T(test_lion_trade_VIII),
    /* Rule sets, the association's and the historical rules, handicaps */
    T(test_counter_strike_jcsa),
    T(test_repetition_strict),
    T(test_repetition_jcsa),
    T(test_gobetween_far),
    T(test_rulesets),
    T(test_handicaps),
    /* Heisei Chu */
    T(test_heisei_start_and_sfen),
    T(test_heisei_drops),
    T(test_heisei_promotion_right),
    T(test_heisei_bare_king),
    T(test_heisei_tsa_marks_and_pass_cycles),
    T(test_lion_trade_promoted_kirin_is_lion),
    /* Promotion */
    T(test_promotion_entering_zone),
    T(test_promotion_capture_in_zone),
    T(test_promotion_inside_zone_msm_option),
    T(test_promotion_pawn_lance_last_rank),
    T(test_promotion_last_rank_must),
    T(test_promotion_declined_last_rank_dead_piece),
    T(test_promotion_both_choices_listed),
    T(test_promotion_promoted_never_again),
    T(test_promotion_king_queen_lion_never),
    T(test_promotion_results),
    /* End of the game */
    T(test_royal_capture_last_king_wins),
    T(test_royal_capture_king_and_prince),
    T(test_royal_prince_from_promoted_elephant),
    T(test_no_legal_move_loses),
    T(test_suicide_moves_legal),
    /* Bare King */
    T(test_bare_king_fires),
    T(test_bare_king_not_against_pawns_gobetweens),
    T(test_bare_king_attacks_only_piece),
    T(test_bare_king_other_king_attacked),
    T(test_bare_king_dead_pieces),
    T(test_bare_king_kings_only_draw),
    T(test_bare_king_prince),
    T(test_bare_king_option_off),
    /* Repetition */
    T(test_repetition_fourth_occurrence_draw),
    T(test_repetition_perpetual_check_loses),
    T(test_repetition_option_off),
    T(test_repetition_pass_changes_side),
    /* Move effects */
    T(test_lion_moves_jump_and_two_steps_one_move),
    T(test_lion_moves_capture_on_the_way),
    T(test_lion_moves_all_passes_one_move),
    T(test_lion_moves_igui_one_per_victim),
    T(test_lion_moves_double_capture),
    T(test_illegal_moves_refused_legal_moves_read_back),
    {0},
};
