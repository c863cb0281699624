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
    int max_ai_games;        /* live games with an AI seat, at most (0: no limit) */
    double rate;             /* HTTP requests per second per client address (0: no limit) */
    int trust_proxy;         /* behind a reverse proxy: rate-limit by X-Forwarded-For */
    int verbose;
} gv_serve_opts;

/* Runs until SIGINT or SIGTERM. Returns the process exit code. */
int gv_serve(const gv_serve_opts *o);

#endif
