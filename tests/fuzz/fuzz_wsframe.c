/* libFuzzer target for the WebSocket frame reader (gv_ws_read, ws_frame.c): the bytes a
 * client sends after the handshake.
 *
 * Input: the first byte chooses how the rest is cut (0: whole; n: pieces of n bytes, as
 * reads from a socket may cut it); the rest is the byte stream.
 *
 * Promises: no crash or undefined behaviour; the events and the result are the same
 * however the stream is cut; a text message is valid UTF-8 of at most GV_WSF_MAX_MSG
 * bytes, a control payload at most 125 bytes; a close code is one the RFC lets a server
 * send; after an error or a close nothing more is handed over. */
#include "fuzz.h"

#include "server/ws_frame.h"

enum { MAX_EVENTS = 64 };

typedef struct seen {
    int n, ended;
    int kind[MAX_EVENTS], code[MAX_EVENTS];
    size_t len[MAX_EVENTS];
    uint32_t sum[MAX_EVENTS];
} seen;

static int sink(void *ctx, int kind, const char *data, size_t len, int code)
{
    seen *s = ctx;
    MUST(!s->ended);
    MUST(kind == GV_WSF_TEXT || kind == GV_WSF_PING || kind == GV_WSF_PONG || kind == GV_WSF_CLOSE);
    if (kind == GV_WSF_TEXT)
        MUST(len <= GV_WSF_MAX_MSG && gv_utf8_valid(data, len));
    else
        MUST(len <= 125);
    if (kind == GV_WSF_CLOSE)
        s->ended = 1;
    if (s->n < MAX_EVENTS) {
        uint32_t h = 2166136261u;
        for (size_t i = 0; i < len; i++)
            h = (h ^ (unsigned char)data[i]) * 16777619u;
        s->kind[s->n] = kind;
        s->code[s->n] = code;
        s->len[s->n] = len;
        s->sum[s->n] = h;
    }
    s->n++;
    return 0;
}

static int run(const uint8_t *data, size_t size, size_t step, seen *s)
{
    gv_ws_reader r;
    memset(&r, 0, sizeof r);
    memset(s, 0, sizeof *s);
    int rc = 0;
    const char *why = NULL;
    for (size_t i = 0; i < size && !rc; i += step) {
        size_t n = size - i < step ? size - i : step;
        rc = gv_ws_read(&r, data + i, n, sink, s, &why);
    }
    if (rc) {
        MUST(why && why[0]);
        MUST(rc == GV_WSF_PROTOCOL || rc == GV_WSF_UNSUPPORTED || rc == GV_WSF_BAD_DATA ||
             rc == GV_WSF_TOO_BIG);
        /* Nothing more is taken after an error. */
        int before = s->n;
        MUST(gv_ws_read(&r, data, size, sink, s, &why) == 0 && s->n == before);
    }
    gv_ws_reader_free(&r);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    size_t step = data[0] ? data[0] : size;
    static seen whole, cut;
    int a = run(data + 1, size - 1, size, &whole);
    int b = run(data + 1, size - 1, step, &cut);
    MUST(a == b && whole.n == cut.n);
    for (int i = 0; i < whole.n && i < MAX_EVENTS; i++)
        MUST(whole.kind[i] == cut.kind[i] && whole.code[i] == cut.code[i] &&
             whole.len[i] == cut.len[i] && whole.sum[i] == cut.sum[i]);
    return 0;
}
