/* gravulien serve: the HTTP + WebSocket server (docs/api.md). */
#ifndef GV_SERVER_H
#define GV_SERVER_H

#include <stdint.h>

typedef struct gv_serve_opts {
    const char *host;        /* address to listen on (default 127.0.0.1) */
    int port;                /* 0: any free port (printed) */
    const char *db;          /* store: a SQLite file path */
    const char *web_dir;     /* the web page's files (NULL: the built-in path) */
    int ai_threads;          /* worker threads for AI moves */
    int ai_hash_mb;          /* hash table per AI search */
    int64_t ai_movetime_ms;  /* AI time per move in games without a clock */
    int ai_search_threads;   /* threads of one level-10 AI search (0: 1) */
    int max_ai_games;        /* live games with an AI seat, at most (0: no limit) */
    /* Of those, per client address (0: no limit; on only with rate). */
    int ai_games_per_client;
    /* Open games nobody joins, and live games without a clock nobody moves in, for this
     * long are abandoned (gv_hub_config.abandon_ms; 0: never). */
    int64_t abandon_ms;
    double rate;             /* HTTP requests per second per client address (0: no limit) */
    /* New games a minute per client address, bursts of 3 times that (0: no limit; the
     * limit is on only with rate). */
    int new_games;
    /* Behind reverse proxies: the addresses (IPv4 or IPv6, an IPv4 block as A.B.C.D/N),
     * comma-separated, whose X-Forwarded-For is believed for the rate limit (the client
     * it names is counted instead of the proxy). NULL: none. */
    const char *trust_proxy;
    /* Megabytes of answers (catch-ups, states, errors) the server may hold for WebSocket
     * clients that have not read them yet, all together (0: 256). */
    int ws_buffer_mb;
    /* Games held in memory, at most (gv_hub_config.max_rooms; 0: 2048). */
    int max_games_in_memory;
    /* 1: the WebSocket broadcast sends by send(), one socket at a time, not by io_uring
     * batches (--io-uring off; send_batch.h). */
    int no_io_uring;
    int verbose;
    /* One line per HTTP reply into this file ("-": standard output; NULL: none), reopened on
     * SIGHUP (log rotation). */
    const char *access_log;
    /* This process's name in the x-gravulien-backend header and the log (NULL: HOST:PORT). */
    const char *name;
} gv_serve_opts;

/* Checks a --trust-proxy list ("ADDR[,ADDR...]", each an IPv4 or IPv6 address, optionally
 * /N): 0, or -1 with a message. */
int gv_serve_check_proxies(const char *list, char *err, size_t errlen);

/* Runs until SIGINT or SIGTERM. Returns the process exit code. */
int gv_serve(const gv_serve_opts *o);

#endif
