/* Reading a WebSocket client's frames (ws_frame.h). */
#include <stdlib.h>
#include <string.h>

#include "server/ws_frame.h"

int gv_utf8_valid(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text, *end = s + len;
    while (s < end) {
        unsigned c = *s++;
        if (c < 0x80)
            continue;
        int more;
        unsigned min, cp;
        if ((c & 0xe0) == 0xc0)
            more = 1, min = 0x80, cp = c & 0x1f;
        else if ((c & 0xf0) == 0xe0)
            more = 2, min = 0x800, cp = c & 0x0f;
        else if ((c & 0xf8) == 0xf0)
            more = 3, min = 0x10000, cp = c & 0x07;
        else
            return 0;
        if (end - s < more)
            return 0;
        for (int k = 0; k < more; k++) {
            if ((s[k] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (s[k] & 0x3f);
        }
        s += more;
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
    }
    return 1;
}

void gv_ws_reader_free(gv_ws_reader *r)
{
    free(r->msg);
    memset(r, 0, sizeof *r);
}

static int fail(gv_ws_reader *r, int code, const char *reason, const char **why)
{
    free(r->msg);
    r->msg = NULL;
    r->mlen = 0;
    r->failed = code;
    if (why)
        *why = reason;
    return code;
}

/* The header is complete: checks it and prepares for the payload. 0 or a close code. */
static int header_done(gv_ws_reader *r, const char **why)
{
    const unsigned char *h = r->hdr;
    int len7 = h[1] & 0x7f;
    uint64_t n = (uint64_t)len7;
    if (len7 == 126) {
        n = (uint64_t)h[2] << 8 | h[3];
    } else if (len7 == 127) {
        n = 0;
        for (int k = 2; k < 10; k++)
            n = n << 8 | h[k];
        if (n >> 63)
            return fail(r, GV_WSF_PROTOCOL, "frame length out of range", why);
    }
    memcpy(r->mask, h + r->hneed - 4, 4);
    r->mpos = 0;
    r->left = n;
    r->clen = 0;
    if (r->opcode & 8) {
        if (r->opcode > GV_WSF_PONG)
            return fail(r, GV_WSF_PROTOCOL, "reserved opcode", why);
        if (!r->fin)
            return fail(r, GV_WSF_PROTOCOL, "fragmented control frame", why);
        if (n > sizeof r->ctl)
            return fail(r, GV_WSF_PROTOCOL, "control frame over 125 bytes", why);
        return 0;
    }
    if (r->opcode == 2)
        return fail(r, GV_WSF_UNSUPPORTED, "binary messages are not taken", why);
    if (r->opcode > 2)
        return fail(r, GV_WSF_PROTOCOL, "reserved opcode", why);
    if (r->opcode == 0 && !r->msg_op)
        return fail(r, GV_WSF_PROTOCOL, "continuation without a message", why);
    if (r->opcode == 1 && r->msg_op)
        return fail(r, GV_WSF_PROTOCOL, "new message inside a fragmented one", why);
    if (n > GV_WSF_MAX_MSG - r->mlen)
        return fail(r, GV_WSF_TOO_BIG, "message too large", why);
    if (r->opcode == 1) {
        r->msg_op = 1;
        r->mlen = 0;
        if (!r->msg && !(r->msg = malloc(GV_WSF_MAX_MSG)))
            return fail(r, GV_WSF_TOO_BIG, "out of memory", why);
    }
    return 0;
}

/* The frame's payload is complete: hands over what it completes. 0 to go on, -1 when the
 * sink stops, or a close code. */
static int frame_done(gv_ws_reader *r, gv_ws_sink sink, void *ctx, const char **why)
{
    r->hlen = r->hneed = 0;
    if (r->opcode == GV_WSF_CLOSE) {
        int code = GV_WSF_NO_STATUS;
        if (r->clen == 1)
            return fail(r, GV_WSF_PROTOCOL, "close frame of one byte", why);
        if (r->clen >= 2) {
            code = r->ctl[0] << 8 | r->ctl[1];
            /* Codes a peer may send (7.4): 1000-1003, 1007-1011, and 3000-4999. */
            if (code < 1000 || (code > 1003 && code < 1007) || (code > 1011 && code < 3000) ||
                code > 4999)
                return fail(r, GV_WSF_PROTOCOL, "invalid close code", why);
            if (!gv_utf8_valid((const char *)r->ctl + 2, (size_t)r->clen - 2))
                return fail(r, GV_WSF_BAD_DATA, "close reason not UTF-8", why);
        }
        int rc = sink(ctx, GV_WSF_CLOSE, r->clen >= 2 ? (const char *)r->ctl + 2 : "",
                      r->clen >= 2 ? (size_t)r->clen - 2 : 0, code);
        r->failed = GV_WSF_NORMAL;   /* nothing may follow a close */
        (void)rc;
        return -1;
    }
    if (r->opcode & 8)
        return sink(ctx, r->opcode, (const char *)r->ctl, r->clen, 0) ? -1 : 0;
    if (!r->fin)
        return 0;
    if (!gv_utf8_valid(r->msg, r->mlen))
        return fail(r, GV_WSF_BAD_DATA, "text that is not UTF-8", why);
    size_t n = r->mlen;
    r->msg_op = 0;
    r->mlen = 0;
    /* The buffer goes back once the message is handed over (idle watchers hold none). */
    char *m = r->msg;
    r->msg = NULL;
    int stop = sink(ctx, GV_WSF_TEXT, m, n, 0);
    free(m);
    return stop ? -1 : 0;
}

int gv_ws_read(gv_ws_reader *r, const unsigned char *buf, size_t len, gv_ws_sink sink,
               void *ctx, const char **why)
{
    size_t i = 0;
    while (i < len && !r->failed) {
        if (r->hlen < 2 || r->hlen < r->hneed) {
            r->hdr[r->hlen++] = buf[i++];
            if (r->hlen == 2) {
                unsigned char b0 = r->hdr[0], b1 = r->hdr[1];
                if (b0 & 0x70)
                    return fail(r, GV_WSF_PROTOCOL, "reserved bits set", why);
                if (!(b1 & 0x80))
                    return fail(r, GV_WSF_PROTOCOL, "unmasked frame", why);
                r->fin = b0 >> 7;
                r->opcode = b0 & 0x0f;
                int len7 = b1 & 0x7f;
                r->hneed = (unsigned char)(2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + 4);
            }
            if (r->hlen < 2 || r->hlen < r->hneed)
                continue;
            int rc = header_done(r, why);
            if (rc)
                return rc;
            if (r->left)
                continue;
        } else {
            size_t take = len - i < r->left ? len - i : (size_t)r->left;
            unsigned char *dst = r->opcode & 8 ? r->ctl + r->clen : (unsigned char *)r->msg + r->mlen;
            for (size_t k = 0; k < take; k++)
                dst[k] = buf[i + k] ^ r->mask[r->mpos++ & 3];
            if (r->opcode & 8)
                r->clen = (unsigned char)(r->clen + take);
            else
                r->mlen += take;
            i += take;
            r->left -= take;
            if (r->left)
                continue;
        }
        int rc = frame_done(r, sink, ctx, why);
        if (rc < 0)
            return 0;
        if (rc)
            return rc;
    }
    return 0;
}
