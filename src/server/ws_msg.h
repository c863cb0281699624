/* The messages a WebSocket client sends (docs/api.md, "Live updates"), read from their text.
 * Transport-free: the server (server.c) and the fuzzer (tests/fuzz) share it. */
#ifndef GV_WS_MSG_H
#define GV_WS_MSG_H

#include <stddef.h>

#include "server/store.h"

typedef enum gv_ws_type {
    GV_WS_ERROR = 0,   /* not a message the server knows: answer error */
    GV_WS_WATCH,       /* {"type": "watch", "game": ID, "since": N} */
    GV_WS_UNWATCH,     /* {"type": "unwatch"} */
    GV_WS_PING,        /* {"type": "ping"} */
} gv_ws_type;

typedef struct gv_ws_msg {
    gv_ws_type type;
    /* watch: the game id. An id of GV_STORE_ID bytes or more is kept cut to GV_STORE_ID
     * bytes, longer than any game's id, so that watching it fails as "no such game". */
    char game[GV_STORE_ID + 1];
    /* watch: the move number the client has seen up to (0 when not given), held within
     * 0..INT_MAX (as since= in the URL is): a number out of range is never wrapped. */
    int since;
    const char *error;   /* GV_WS_ERROR: the message to answer with (a static string) */
} gv_ws_msg;

/* Reads one client message of len bytes (not NUL-terminated). Always fills out: a known
 * message, or GV_WS_ERROR with out->error saying what to send instead. Allocates nothing
 * that outlives the call. */
void gv_ws_msg_parse(const char *text, size_t len, gv_ws_msg *out);

#endif
