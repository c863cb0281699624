/* The WebSocket frame reader (src/server/ws_frame.c): what RFC 6455 lets a client send is
 * handed over whole, however the bytes are split; everything else is a close code. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/ws_frame.h"
#include "tharness.h"

typedef struct got {
    int n;
    int kind[16], code[16];
    char data[16][5000];
    size_t len[16];
    int stop_after;   /* the sink stops after this many (0: never) */
} got;

static int sink(void *ctx, int kind, const char *data, size_t len, int code)
{
    got *g = ctx;
    if (g->n < 16) {
        g->kind[g->n] = kind;
        g->code[g->n] = code;
        g->len[g->n] = len;
        memcpy(g->data[g->n], data, len < 5000 ? len : 5000);
        g->n++;
    }
    return g->stop_after && g->n >= g->stop_after;
}

/* A client's frame: FIN bit, opcode, payload, masked or not, extra first-byte bits. */
static size_t frame(unsigned char *out, int fin, int op, const void *payload, size_t len,
                    int masked, int rsv)
{
    size_t k = 0;
    out[k++] = (unsigned char)((fin ? 0x80 : 0) | rsv | op);
    unsigned char m = masked ? 0x80 : 0;
    if (len < 126) {
        out[k++] = (unsigned char)(m | len);
    } else if (len < 65536) {
        out[k++] = m | 126;
        out[k++] = (unsigned char)(len >> 8);
        out[k++] = (unsigned char)len;
    } else {
        out[k++] = m | 127;
        for (int i = 7; i >= 0; i--)
            out[k++] = (unsigned char)((uint64_t)len >> (8 * i));
    }
    static const unsigned char key[4] = {0x37, 0xfa, 0x21, 0x3d};
    if (masked) {
        memcpy(out + k, key, 4);
        k += 4;
    }
    const unsigned char *p = payload;
    for (size_t i = 0; i < len; i++)
        out[k + i] = masked ? p[i] ^ key[i & 3] : p[i];
    return k + len;
}

/* Feeds buf whole (step 0) or in pieces of step bytes; returns the first close code. */
static int feed(gv_ws_reader *r, const unsigned char *buf, size_t len, size_t step, got *g,
                const char **why)
{
    if (!step)
        step = len;
    for (size_t i = 0; i < len; i += step) {
        size_t n = len - i < step ? len - i : step;
        int rc = gv_ws_read(r, buf + i, n, sink, g, why);
        if (rc)
            return rc;
    }
    return 0;
}

static unsigned char buf[20000];

static void test_ws_messages_whole_and_split(void)
{
    static const size_t steps[] = {0, 1, 2, 3, 7, 64};
    for (size_t si = 0; si < sizeof steps / sizeof *steps; si++) {
        size_t k = 0;
        k += frame(buf + k, 1, 1, "{\"type\":\"ping\"}", 15, 1, 0);
        /* A fragmented message with a ping between its fragments. */
        k += frame(buf + k, 0, 1, "hel", 3, 1, 0);
        k += frame(buf + k, 1, 9, "p!", 2, 1, 0);
        k += frame(buf + k, 0, 0, "lo ", 3, 1, 0);
        k += frame(buf + k, 1, 0, "w\xc3\xb6rld", 6, 1, 0);
        char big[300];
        memset(big, 'x', sizeof big);
        k += frame(buf + k, 1, 1, big, sizeof big, 1, 0);   /* a 16-bit length */
        k += frame(buf + k, 1, 1, "", 0, 1, 0);
        k += frame(buf + k, 1, 10, "", 0, 1, 0);
        gv_ws_reader r;
        memset(&r, 0, sizeof r);
        got g = {0};
        const char *why = "";
        CHECK_EQ_INT(feed(&r, buf, k, steps[si], &g, &why), 0);
        CHECK_EQ_INT(g.n, 6);
        CHECK_EQ_INT(g.kind[0], GV_WSF_TEXT);
        CHECK(g.len[0] == 15 && !memcmp(g.data[0], "{\"type\":\"ping\"}", 15));
        CHECK_EQ_INT(g.kind[1], GV_WSF_PING);
        CHECK(g.len[1] == 2 && !memcmp(g.data[1], "p!", 2));
        CHECK_EQ_INT(g.kind[2], GV_WSF_TEXT);
        CHECK(g.len[2] == 12 && !memcmp(g.data[2], "hello w\xc3\xb6rld", 12));
        CHECK(g.kind[3] == GV_WSF_TEXT && g.len[3] == 300 && g.data[3][299] == 'x');
        CHECK(g.kind[4] == GV_WSF_TEXT && g.len[4] == 0);
        CHECK_EQ_INT(g.kind[5], GV_WSF_PONG);
        /* An idle reader holds no message buffer. */
        CHECK(r.msg == NULL);
        gv_ws_reader_free(&r);
    }
}

/* One frame (or two) that breaks the protocol: the close code and nothing handed over. */
static void expect_close(const unsigned char *b, size_t len, int code, const char *reason)
{
    gv_ws_reader r;
    memset(&r, 0, sizeof r);
    got g = {0};
    const char *why = "";
    CHECK_EQ_INT(feed(&r, b, len, 0, &g, &why), code);
    CHECK(strstr(why, reason) != NULL);
    CHECK_EQ_INT(g.n, 0);
    /* Nothing more is taken after an error. */
    unsigned char ok[64];
    size_t k = frame(ok, 1, 1, "x", 1, 1, 0);
    CHECK_EQ_INT(gv_ws_read(&r, ok, k, sink, &g, &why), 0);
    CHECK_EQ_INT(g.n, 0);
    gv_ws_reader_free(&r);
}

static void test_ws_protocol_errors(void)
{
    size_t k;
    k = frame(buf, 1, 1, "hi", 2, 0, 0);
    expect_close(buf, k, GV_WSF_PROTOCOL, "unmasked");
    k = frame(buf, 1, 1, "hi", 2, 1, 0x40);
    expect_close(buf, k, GV_WSF_PROTOCOL, "reserved bits");
    k = frame(buf, 1, 3, "hi", 2, 1, 0);
    expect_close(buf, k, GV_WSF_PROTOCOL, "reserved opcode");
    k = frame(buf, 1, 0xb, "hi", 2, 1, 0);
    expect_close(buf, k, GV_WSF_PROTOCOL, "reserved opcode");
    k = frame(buf, 1, 2, "hi", 2, 1, 0);
    expect_close(buf, k, GV_WSF_UNSUPPORTED, "binary");
    char c126[126];
    memset(c126, 'p', sizeof c126);
    k = frame(buf, 1, 9, c126, sizeof c126, 1, 0);
    expect_close(buf, k, GV_WSF_PROTOCOL, "125");
    k = frame(buf, 0, 9, "p", 1, 1, 0);
    expect_close(buf, k, GV_WSF_PROTOCOL, "fragmented control");
    k = frame(buf, 1, 0, "x", 1, 1, 0);
    expect_close(buf, k, GV_WSF_PROTOCOL, "continuation without");
    k = frame(buf, 0, 1, "a", 1, 1, 0);
    k += frame(buf + k, 1, 1, "b", 1, 1, 0);
    expect_close(buf, k, GV_WSF_PROTOCOL, "inside");
    /* Too large: one frame, or fragments adding up. */
    static char big[GV_WSF_MAX_MSG + 1];
    memset(big, 'b', sizeof big);
    k = frame(buf, 1, 1, big, sizeof big, 1, 0);
    expect_close(buf, k, GV_WSF_TOO_BIG, "too large");
    k = frame(buf, 0, 1, big, 3000, 1, 0);
    k += frame(buf + k, 1, 0, big, 1097, 1, 0);
    expect_close(buf, k, GV_WSF_TOO_BIG, "too large");
    /* A 64-bit length with its top bit set. */
    unsigned char huge[14] = {0x81, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4};
    expect_close(huge, sizeof huge, GV_WSF_PROTOCOL, "length");
    /* Text that is not UTF-8: a stray continuation byte, an overlong '/', a surrogate,
     * past U+10FFFF, cut short. */
    static const char *const bad[] = {"\x80", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                                      "ab\xe2\x82"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        k = frame(buf, 1, 1, bad[i], strlen(bad[i]), 1, 0);
        expect_close(buf, k, GV_WSF_BAD_DATA, "UTF-8");
    }
    CHECK(gv_utf8_valid("\xf0\x9f\x98\x80 \xe5\x90\x8d \xc3\xa9", 11));
    CHECK(gv_utf8_valid("\xf4\x8f\xbf\xbf", 4));   /* U+10FFFF */
}

static void test_ws_close_frames(void)
{
    size_t k;
    gv_ws_reader r;
    got g;
    const char *why = "";
    /* A close with a code and reason ends the reading: nothing after it is taken. */
    memset(&r, 0, sizeof r);
    memset(&g, 0, sizeof g);
    k = frame(buf, 1, 8, "\x03\xe8" "bye", 5, 1, 0);
    k += frame(buf + k, 1, 1, "late", 4, 1, 0);
    CHECK_EQ_INT(feed(&r, buf, k, 0, &g, &why), 0);
    CHECK_EQ_INT(g.n, 1);
    CHECK(g.kind[0] == GV_WSF_CLOSE && g.code[0] == 1000 && g.len[0] == 3);
    gv_ws_reader_free(&r);
    /* An empty close: no status (1005). */
    memset(&g, 0, sizeof g);
    k = frame(buf, 1, 8, "", 0, 1, 0);
    CHECK_EQ_INT(feed(&r, buf, k, 1, &g, &why), 0);
    CHECK(g.n == 1 && g.code[0] == GV_WSF_NO_STATUS);
    gv_ws_reader_free(&r);
    memset(&g, 0, sizeof g);
    k = frame(buf, 1, 8, "\x0b\xb8", 2, 1, 0);   /* 3000: an application's code */
    CHECK_EQ_INT(feed(&r, buf, k, 0, &g, &why), 0);
    CHECK(g.n == 1 && g.code[0] == 3000);
    gv_ws_reader_free(&r);
    k = frame(buf, 1, 8, "\x03", 1, 1, 0);
    expect_close(buf, k, GV_WSF_PROTOCOL, "one byte");
    k = frame(buf, 1, 8, "\x03\xed", 2, 1, 0);   /* 1005 may not be sent */
    expect_close(buf, k, GV_WSF_PROTOCOL, "close code");
    k = frame(buf, 1, 8, "\x03\xe7", 2, 1, 0);   /* 999 */
    expect_close(buf, k, GV_WSF_PROTOCOL, "close code");
    k = frame(buf, 1, 8, "\x03\xe8\xff", 3, 1, 0);
    expect_close(buf, k, GV_WSF_BAD_DATA, "UTF-8");
}

/* A sink that stops (the connection is closing) stops the reading at once. */
static void test_ws_sink_stops(void)
{
    gv_ws_reader r;
    memset(&r, 0, sizeof r);
    got g = {0};
    g.stop_after = 2;
    const char *why = "";
    size_t k = 0;
    for (int i = 0; i < 5; i++)
        k += frame(buf + k, 1, 1, "m", 1, 1, 0);
    CHECK_EQ_INT(gv_ws_read(&r, buf, k, sink, &g, &why), 0);
    CHECK_EQ_INT(g.n, 2);
    gv_ws_reader_free(&r);
}

const t_case ws_frame_tests[] = {
    {NULL, "test_ws_messages_whole_and_split", test_ws_messages_whole_and_split},
    {NULL, "test_ws_protocol_errors", test_ws_protocol_errors},
    {NULL, "test_ws_close_frames", test_ws_close_frames},
    {NULL, "test_ws_sink_stops", test_ws_sink_stops},
    {0},
};
