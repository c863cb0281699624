/* Exaç tables, Zobrist keys and the position text. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/gv_core.h"
#include "games/exac/exac.h"

const char exac_start_text[] = "1SSSSS1/SSSSSSS/7/7/7/FFFFFFF/1FFFFF1 f 0 1";
static const char files[] = "gnmsdvz";
const char exac_role_letter[EX_NROLES] = {0, 'A', 'P', 'H', 'T', 'L'};

uint64_t exac_piece_keys[2][EX_SQUARES];

void exac_init_tables(void)
{
    for (int side = 0; side < 2; side++)
        for (int sq = 0; sq < EX_SQUARES; sq++)
            exac_piece_keys[side][sq] = gv_mix64((uint64_t)(side * 64 + sq) ^ 0x4558414345584143ULL);
    exac_gen_tables();
}

uint64_t exac_piece_key(int side, int sq)
{
    return exac_piece_keys[side][sq];
}

uint64_t exac_side_key(void)
{
    return EXAC_SIDE_KEY;
}

uint64_t exac_compute_key(const exac_pos *p)
{
    uint64_t k = p->stm ? exac_side_key() : 0;
    for (int side = 0; side < 2; side++)
        for (int sq = 0; sq < EX_SQUARES; sq++)
            if (p->bb[side] >> sq & 1)
                k ^= exac_piece_key(side, sq);
    return k;
}

int exac_square_name(int sq, char *buf)
{
    buf[0] = files[EX_X(sq)];
    buf[1] = (char)('1' + EX_Y(sq));
    buf[2] = 0;
    return 2;
}

int exac_parse_square(const char *s, int *sq)
{
    const char *f = s[0] ? strchr(files, s[0]) : NULL;
    if (!f || s[1] < '1' || s[1] > '7')
        return 0;
    *sq = EX_SQ((int)(f - files), s[1] - '1');
    return 2;
}

static int parse_uint(const char **s, uint32_t max, uint32_t *out)
{
    const char *p = *s;
    uint64_t v = 0;
    int n = 0;
    while (isdigit((unsigned char)p[n])) {
        v = v * 10 + (uint64_t)(p[n] - '0');
        if (v > max)
            return -1;
        n++;
    }
    if (n == 0)
        return -1;
    *out = (uint32_t)v;
    *s = p + n;
    return 0;
}

int exac_set_text(exac_pos *out, const char *text, char *err, size_t errlen)
{
    exac_pos p;
    memset(&p, 0, sizeof p);
    p.opt = out->opt;
    const char *s = text;
    int x = 0, y = 0;
    char prev = 0;
    /* 1. Ranks 1..7, top to bottom. */
    for (; *s && *s != ' '; prev = *s, s++) {
        char c = *s;
        if (c == '/') {
            if (x != EX_N)
                return gv_err(err, errlen, "rank %d has %d squares, expected 7", y + 1, x);
            if (++y >= EX_N)
                return gv_err(err, errlen, "more than 7 ranks");
            x = 0;
        } else if (c >= '1' && c <= '7') {
            if (isdigit((unsigned char)prev))
                return gv_err(err, errlen, "rank %d: two digits in a row", y + 1);
            if (x + (c - '0') > EX_N)
                return gv_err(err, errlen, "rank %d: run of %c empty squares overflows the rank",
                              y + 1, c);
            x += c - '0';
        } else if (c == 'F' || c == 'S') {
            if (x >= EX_N)
                return gv_err(err, errlen, "rank %d has more than 7 squares", y + 1);
            p.bb[c == 'S'] |= EX_BIT(EX_SQ(x, y));
            x++;
        } else {
            return gv_err(err, errlen, "rank %d, square %d: unexpected '%c' (pieces are F and S, "
                          "empty runs 1-7)", y + 1, x + 1, c);
        }
    }
    if (y != EX_N - 1 || x != EX_N)
        return gv_err(err, errlen, "the board has %d ranks (the last with %d squares), "
                      "expected 7 of 7", y + 1, x);
    /* 2. Side to move, quiet plies, move number. */
    if (*s != ' ' || (s[1] != 'f' && s[1] != 's') || (s[2] && s[2] != ' '))
        return gv_err(err, errlen, "side to move must follow the board: 'f' or 's'");
    p.stm = s[1] == 's';
    s += 2;
    p.quiet = 0;
    p.movenum = 1;
    if (*s) {
        s++;
        if (parse_uint(&s, 1000000, &p.quiet) < 0)
            return gv_err(err, errlen, "plies since the last capture must be a number");
        if (*s) {
            if (*s != ' ')
                return gv_err(err, errlen, "unexpected '%c' after the plies counter", *s);
            s++;
            if (parse_uint(&s, 100000000, &p.movenum) < 0 || p.movenum < 1)
                return gv_err(err, errlen, "move number must be a number of at least 1");
            if (*s)
                return gv_err(err, errlen, "unexpected text after the move number: '%.16s'", s);
        }
    }
    p.key = exac_compute_key(&p);
    *out = p;
    return 0;
}

int exac_get_text(const exac_pos *p, char *buf, size_t len)
{
    char tmp[128];
    int n = 0;
    for (int y = 0; y < EX_N; y++) {
        int empty = 0;
        for (int x = 0; x < EX_N; x++) {
            int sq = EX_SQ(x, y);
            char c = (p->bb[0] >> sq & 1) ? 'F' : (p->bb[1] >> sq & 1) ? 'S' : 0;
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                tmp[n++] = (char)('0' + empty);
            empty = 0;
            tmp[n++] = c;
        }
        if (empty)
            tmp[n++] = (char)('0' + empty);
        if (y < EX_N - 1)
            tmp[n++] = '/';
    }
    n += snprintf(tmp + n, sizeof tmp - (size_t)n, " %c %u %u", p->stm ? 's' : 'f', p->quiet,
                  p->movenum);
    return gv_text_out(buf, len, tmp, n);
}
