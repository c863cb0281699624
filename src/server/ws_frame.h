/* Reading what a WebSocket client sends (RFC 6455, the server's side), as the bytes come.
 *
 * libwebsockets does the handshake and writes to the watchers; the frames a client sends
 * are read here instead, because lws 4.1 takes frames a client did not mask (RFC 6455
 * 5.1: the server must close the connection) and says nothing of it. Transport-free: the
 * server feeds what it reads from the socket, the tests and the fuzzer feed bytes. */
#ifndef GV_WS_FRAME_H
#define GV_WS_FRAME_H

#include <stddef.h>
#include <stdint.h>

enum {
    GV_WSF_MAX_MSG = 4096,          /* a data message, all its fragments together */
    /* What gv_ws_read hands over. */
    GV_WSF_TEXT = 1,                /* a whole text message (valid UTF-8) */
    GV_WSF_PING = 9,                /* a ping: answer with a pong of the same payload */
    GV_WSF_PONG = 10,
    GV_WSF_CLOSE = 8,               /* the client closes; code: its status (1005: none) */
    /* Close codes (RFC 6455 7.4.1). */
    GV_WSF_NORMAL = 1000,
    GV_WSF_PROTOCOL = 1002,
    GV_WSF_UNSUPPORTED = 1003,
    GV_WSF_NO_STATUS = 1005,
    GV_WSF_BAD_DATA = 1007,
    GV_WSF_TOO_BIG = 1009,
};

typedef struct gv_ws_reader {
    unsigned char hdr[14];         /* the frame header so far */
    unsigned char hlen, hneed;     /* its bytes read / needed (0: not known yet) */
    unsigned char mask[4];
    unsigned char mpos;            /* next mask byte */
    unsigned char opcode, fin;     /* of the frame being read */
    unsigned char msg_op;          /* data message being assembled: its opcode, or 0 */
    uint64_t left;                 /* payload bytes of the frame still to come */
    unsigned char ctl[125];        /* a control frame's payload */
    unsigned char clen;
    char *msg;                     /* the data message so far (GV_WSF_MAX_MSG, allocated
                                    * while a message is read) */
    size_t mlen;
    int failed;                    /* a close code: the reader takes nothing more */
} gv_ws_reader;

/* What a reader hands over: kind (GV_WSF_TEXT, PING, PONG or CLOSE), its payload, and for
 * CLOSE the client's status code. Returns 0 to go on, nonzero to stop reading now (the
 * connection is being closed). */
typedef int (*gv_ws_sink)(void *ctx, int kind, const char *data, size_t len, int code);

/* Feeds len bytes. Returns 0 (all read, or the sink stopped it), or a close code with a
 * short reason in *why when the client broke the protocol: an unmasked frame, reserved
 * bits or opcodes, a control frame fragmented or longer than 125 bytes, a continuation
 * with no message or a new message inside one (1002), a binary message (1003), text that
 * is not UTF-8 (1007), a message over GV_WSF_MAX_MSG (1009). After an error it takes
 * nothing more. */
int gv_ws_read(gv_ws_reader *r, const unsigned char *buf, size_t len, gv_ws_sink sink,
               void *ctx, const char **why);
/* Frees what the reader holds (it may be used again afterwards, from its start). */
void gv_ws_reader_free(gv_ws_reader *r);
/* Is text[0..len) valid UTF-8 (no overlong forms, no surrogates, at most U+10FFFF)? */
int gv_utf8_valid(const char *text, size_t len);

#endif
