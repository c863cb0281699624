/* gravulien serve: the game server (HTTP + WebSocket API, SQLite store; docs/api.md). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/gv_core.h"
#include "server/server.h"

static const char serve_usage[] =
    "usage: gravulien serve [--port 8080] [--host 127.0.0.1] [--db gravulien.db]\n"
    "       [--web DIR] [--ai-threads 2] [--ai-hash MB] [--ai-movetime MS] [--max-ai-games 32]\n"
    "       [--rate N] [--trust-proxy] [--verbose]\n"
    "  --port N         port to listen on (0: any free port; the URL is printed)\n"
    "  --host ADDR      address to listen on (0.0.0.0 for every interface)\n"
    "  --db PATH|URL    where every game is kept: a SQLite file (created on first start) or\n"
    "                   postgres://USER[:PASSWORD]@HOST[:PORT]/DB (several servers may share it)\n"
    "  --web DIR        the web page's files (default: the source tree's web/ when run from\n"
    "                   the build tree, else ../share/gravulien/web from the program's\n"
    "                   directory, else PREFIX/share/gravulien/web)\n"
    "  --ai-threads N   threads that compute AI moves (1..64)\n"
    "  --ai-hash MB     hash table of each AI seat (1..1024)\n"
    "  --ai-movetime MS AI thinking time per move in games without a clock\n"
    "  --max-ai-games N live games with an AI player, at most (0: no limit); more are\n"
    "                   refused (503 busy). AI turns share the threads: games with people\n"
    "                   first, and each search thinks less while others wait\n"
    "  --rate N         HTTP requests per second one client address may make (0: no limit;\n"
    "                   bursts of 4 N are allowed); more get 429\n"
    "  --trust-proxy    behind a reverse proxy (nginx): count requests by the client address\n"
    "                   in X-Forwarded-For, not the proxy's";

/* The directory a build of this program installs its web files into, relative to the
 * program's own directory and as an absolute path (CMakeLists.txt sets both). */
#ifndef GV_WEB_REL_DIR
#define GV_WEB_REL_DIR "../share/gravulien/web"
#endif

/* Is dir a directory holding the web page (its index.html)? */
static int web_dir_ok(const char *dir)
{
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%s/index.html", dir);
    return n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0;
}

/* The web files when --web is not given, in this order: the source tree's web/ when this
 * program is the one in its build tree; ../share/gravulien/web beside the program's
 * directory (an installed copy, wherever it was installed or moved); the install
 * prefix's share/gravulien/web. Writes the directory into buf and returns it, or returns
 * NULL when none of them holds the page (the server then uses its built-in path). */
static const char *find_web_dir(char *buf, size_t len)
{
    char exe[PATH_MAX], dir[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
#if defined(GV_BUILD_DIR) && defined(GV_SOURCE_WEB_DIR)
            if (realpath(GV_BUILD_DIR, dir) && strcmp(dir, exe) == 0 && web_dir_ok(GV_SOURCE_WEB_DIR)) {
                snprintf(buf, len, "%s", GV_SOURCE_WEB_DIR);
                return buf;
            }
#endif
            int m = snprintf(dir, sizeof dir, "%s/%s", exe, GV_WEB_REL_DIR);
            if (m > 0 && (size_t)m < sizeof dir && web_dir_ok(dir)) {
                /* the same directory without "bin/.." in its path */
                if (!realpath(dir, exe))
                    snprintf(exe, sizeof exe, "%s", dir);
                snprintf(buf, len, "%s", exe);
                return buf;
            }
        }
    }
#ifdef GV_INSTALL_WEB_DIR
    if (web_dir_ok(GV_INSTALL_WEB_DIR)) {
        snprintf(buf, len, "%s", GV_INSTALL_WEB_DIR);
        return buf;
    }
#endif
    return NULL;
}

int cli_serve(int argc, char **argv)
{
    gv_serve_opts o = {.host = "127.0.0.1", .port = 8080, .db = "gravulien.db",
                       .ai_threads = 2, .ai_hash_mb = 16, .ai_movetime_ms = 1000, .max_ai_games = 32,
                       .rate = 50};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            puts(serve_usage);
            return CLI_OK;
        }
        if (!strcmp(a, "--verbose")) {
            o.verbose = 1;
            continue;
        }
        if (!strcmp(a, "--trust-proxy")) {
            o.trust_proxy = 1;
            continue;
        }
        if (!v)
            return cli_usage_error("serve: %s needs a value (try 'gravulien serve --help')", a);
        i++;
        if (!strcmp(a, "--port") && gv_parse_int(v, 0, 65535, &n, NULL, 0) == 0)
            o.port = (int)n;
        else if (!strcmp(a, "--host") && *v)
            o.host = v;
        else if (!strcmp(a, "--db") && *v)
            o.db = v;
        else if (!strcmp(a, "--web") && *v)
            o.web_dir = v;
        else if (!strcmp(a, "--ai-threads") && gv_parse_int(v, 1, 64, &n, NULL, 0) == 0)
            o.ai_threads = (int)n;
        else if (!strcmp(a, "--ai-hash") && gv_parse_int(v, 1, 1024, &n, NULL, 0) == 0)
            o.ai_hash_mb = (int)n;
        else if (!strcmp(a, "--ai-movetime") && gv_parse_int(v, 10, 600000, &n, NULL, 0) == 0)
            o.ai_movetime_ms = n;
        else if (!strcmp(a, "--max-ai-games") && gv_parse_int(v, 0, 100000, &n, NULL, 0) == 0)
            o.max_ai_games = (int)n;
        else if (!strcmp(a, "--rate") && gv_parse_int(v, 0, 1000000, &n, NULL, 0) == 0)
            o.rate = (double)n;
        else
            return cli_usage_error("serve: bad option '%s %s' (try 'gravulien serve --help')", a, v);
    }
    char web[PATH_MAX];
    if (!o.web_dir)
        o.web_dir = find_web_dir(web, sizeof web);
    return gv_serve(&o);
}
