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
    "usage: gravulien serve [--config FILE] [--port 8080] [--host 127.0.0.1] [--db gravulien.db]\n"
    "       [--web DIR] [--ai-threads 2] [--ai-hash MB] [--ai-movetime MS] [--max-ai-games 32]\n"
    "       [--threads 1] [--abandon-after 86400] [--rate N] [--new-games N]\n"
    "       [--ai-games-per-client N] [--max-games-in-memory N] [--ws-buffer MB]\n"
    "       [--io-uring on|off]\n"
    "       [--trust-proxy [ADDR,...]] [--access-log FILE] [--name NAME] [--verbose]\n"
    "  --config FILE    options from FILE first, one a line: 'db = postgres://...', 'port 8081',\n"
    "                   'trust-proxy' ('#' after a blank starts a comment); the command\n"
    "                   line's come after\n"
    "  --port N         port to listen on (0: any free port; the URL is printed)\n"
    "  --host ADDR      address to listen on (0.0.0.0 for every interface)\n"
    "  --db PATH|URL    where every game is kept: a SQLite file (created on first start) or\n"
    "                   postgres://USER@HOST[:PORT]/DB (several servers may share it; the\n"
    "                   password from PGPASSWORD, PGPASSFILE or ~/.pgpass, or --config's db)\n"
    "  --web DIR        the web page's files (default: the source tree's web/ when run from\n"
    "                   the build tree, else ../share/gravulien/web from the program's\n"
    "                   directory, else PREFIX/share/gravulien/web)\n"
    "  --ai-threads N   threads that compute AI moves (1..64)\n"
    "  --ai-hash MB     hash table of each AI seat (1..1024)\n"
    "  --ai-movetime MS AI thinking time per move in games without a clock\n"
    "  --threads N      threads of each level-10 AI search (Lazy SMP, shared table;\n"
    "                   1..64; default 1). Levels 1-9 search with one. Each AI thread\n"
    "                   (--ai-threads) may run that many at once\n"
    "  --max-ai-games N live games with an AI player, at most (0: no limit); more are\n"
    "                   refused (503 busy). AI turns share the threads: games with people\n"
    "                   first, and each search thinks less while others wait\n"
    "  --abandon-after SECONDS  an open game nobody joins, or a live game without a clock\n"
    "                   nobody moves in, for this long is marked abandoned and leaves the\n"
    "                   lists of games in progress (default 86400, a day; 0: never)\n"
    "  --rate N         HTTP requests per second one client address may make (0: no limit;\n"
    "                   bursts of 4 N are allowed); more get 429\n"
    "  --new-games N    with --rate: new games a minute one client address may create\n"
    "                   (bursts of 3 N; default 20; 0: no limit); more get 429\n"
    "  --ai-games-per-client N  with --rate: live games with an AI player one client\n"
    "                   address may have started (by creating or joining them; default 4;\n"
    "                   0: no limit); more are refused (429 too_many_ai_games)\n"
    "  --max-games-in-memory N  games held in memory at most (default 2048; 16..): past\n"
    "                   it the least recently used that nothing runs in are left to the\n"
    "                   store, and read from it again when asked for\n"
    "  --ws-buffer MB   answers waiting for WebSocket clients that have not read them\n"
    "                   (catch-ups, states), all together (default 256): past it the\n"
    "                   connections holding most are closed (1013, try again later)\n"
    "  --io-uring on|off how a move goes out to its WebSocket watchers: on (default), up\n"
    "                   to 512 sends in one system call through io_uring, where the system\n"
    "                   allows it; off, one send() a watcher\n"
    "  --trust-proxy [ADDR,...]  behind reverse proxies (nginx) at these addresses (IPs,\n"
    "                   IPv4 blocks A.B.C.D/N; bare: this machine's loopback): count requests\n"
    "                   by the client address their X-Forwarded-For names, not the proxy's;\n"
    "                   the header of any other peer is ignored\n"
    "  --access-log FILE one line per HTTP reply (path without its query, status, bytes,\n"
    "                   seconds, this process's name) into FILE ('-': standard output);\n"
    "                   reopened on SIGHUP\n"
    "  --name NAME      this process's name in the x-gravulien-backend reply header and\n"
    "                   the log (default HOST:PORT)";

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

/* Reads options into o (the command line's, or a config file's as the same words);
 * where names them in messages. CLI_OK, or a usage error. */
static int parse_opts(gv_serve_opts *o, int argc, char **argv, const char *where)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (!strcmp(a, "--verbose")) {
            o->verbose = 1;
            continue;
        }
        if (!strcmp(a, "--trust-proxy")) {
            /* Bare: a proxy on this machine (loopback). */
            if (!v || !strncmp(v, "--", 2)) {
                o->trust_proxy = "127.0.0.1,::1";
                continue;
            }
            char why[GV_ERRLEN];
            if (gv_serve_check_proxies(v, why, sizeof why) < 0)
                return cli_usage_error("%s: --trust-proxy %s: %s", where, v, why);
            o->trust_proxy = v;
            i++;
            continue;
        }
        if (!v)
            return cli_usage_error("%s: %s needs a value (try 'gravulien serve --help')", where, a);
        i++;
        if (!strcmp(a, "--port") && gv_parse_int(v, 0, 65535, &n, NULL, 0) == 0)
            o->port = (int)n;
        else if (!strcmp(a, "--host") && *v)
            o->host = v;
        else if (!strcmp(a, "--db") && *v)
            o->db = v;
        else if (!strcmp(a, "--web") && *v)
            o->web_dir = v;
        else if (!strcmp(a, "--ai-threads") && gv_parse_int(v, 1, 64, &n, NULL, 0) == 0)
            o->ai_threads = (int)n;
        else if (!strcmp(a, "--ai-hash") && gv_parse_int(v, 1, 1024, &n, NULL, 0) == 0)
            o->ai_hash_mb = (int)n;
        else if (!strcmp(a, "--ai-movetime") && gv_parse_int(v, 10, 600000, &n, NULL, 0) == 0)
            o->ai_movetime_ms = n;
        else if (!strcmp(a, "--threads") && gv_parse_int(v, 1, 64, &n, NULL, 0) == 0)
            o->ai_search_threads = (int)n;
        else if (!strcmp(a, "--max-ai-games") && gv_parse_int(v, 0, 100000, &n, NULL, 0) == 0)
            o->max_ai_games = (int)n;
        else if (!strcmp(a, "--abandon-after") && gv_parse_int(v, 0, 100000000, &n, NULL, 0) == 0)
            o->abandon_ms = (int64_t)n * 1000;
        else if (!strcmp(a, "--rate") && gv_parse_int(v, 0, 1000000, &n, NULL, 0) == 0)
            o->rate = (double)n;
        else if (!strcmp(a, "--new-games") && gv_parse_int(v, 0, 1000000, &n, NULL, 0) == 0)
            o->new_games = (int)n;
        else if (!strcmp(a, "--ai-games-per-client") && gv_parse_int(v, 0, 100000, &n, NULL, 0) == 0)
            o->ai_games_per_client = (int)n;
        else if (!strcmp(a, "--max-games-in-memory") && gv_parse_int(v, 16, 10000000, &n, NULL, 0) == 0)
            o->max_games_in_memory = (int)n;
        else if (!strcmp(a, "--ws-buffer") && gv_parse_int(v, 1, 1048576, &n, NULL, 0) == 0)
            o->ws_buffer_mb = (int)n;
        else if (!strcmp(a, "--io-uring") && (!strcmp(v, "on") || !strcmp(v, "off")))
            o->no_io_uring = !strcmp(v, "off");
        else if (!strcmp(a, "--access-log") && *v)
            o->access_log = v;
        else if (!strcmp(a, "--name") && *v && strlen(v) < 64 && !strpbrk(v, " \t\r\n\"\\"))
            o->name = v;
        else
            return cli_usage_error("%s: bad option '%s %s' (try 'gravulien serve --help')", where, a, v);
    }
    return CLI_OK;
}

/* A config file's options as command-line words ("--name", "value"), into a block freed
 * by the caller (*words, *text). NULL-free: -1 with a message on error. */
static int read_config(const char *path, char ***words, int *nwords, char **text)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "serve: cannot read the config file %s\n", path);
        return -1;
    }
    char **w = NULL;
    int n = 0, cap = 0, lineno = 0, rc = 0;
    /* The words point into one growing text: offsets first, pointers at the end. */
    size_t *off = NULL, used = 0, tcap = 0;
    char *t = NULL, line[4096];
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            fprintf(stderr, "serve: %s line %d: longer than %zu bytes\n", path, lineno, sizeof line - 2);
            rc = -1;
            break;
        }
        /* A comment starts with '#' at the start of the line or after a blank, so that a
         * value (a password in a URL) may hold one. */
        for (char *h = line; (h = strchr(h, '#')); h++)
            if (h == line || h[-1] == ' ' || h[-1] == '\t') {
                *h = 0;
                break;
            }
        char *k = line + strspn(line, " \t\r\n");
        if (!*k)
            continue;
        char *end = k + strcspn(k, " \t\r\n=");
        char *v = end + strspn(end, " \t=");
        *end = 0;
        size_t vl = strlen(v);
        while (vl && strchr(" \t\r\n", v[vl - 1]))
            v[--vl] = 0;
        if (!strcmp(k, "config")) {
            fprintf(stderr, "serve: %s line %d: a config file cannot name another\n", path, lineno);
            rc = -1;
            break;
        }
        const char *parts[2] = {k, v};
        for (int p = 0; p < (*v ? 2 : 1) && rc == 0; p++) {
            size_t need = strlen(parts[p]) + 3;
            if (n + 1 >= cap) {
                cap = cap ? 2 * cap : 16;
                size_t *no = realloc(off, (size_t)cap * sizeof *no);
                if (!no) {
                    rc = -1;
                    break;
                }
                off = no;
            }
            if (used + need > tcap) {
                tcap = 2 * (used + need) + 256;
                char *nt = realloc(t, tcap);
                if (!nt) {
                    rc = -1;
                    break;
                }
                t = nt;
            }
            off[n++] = used;
            used += (size_t)sprintf(t + used, "%s%s", p == 0 ? "--" : "", parts[p]) + 1;
        }
    }
    fclose(f);
    if (rc == 0 && (w = malloc((size_t)(n + 1) * sizeof *w)) == NULL)
        rc = -1;
    for (int i = 0; rc == 0 && i < n; i++)
        w[i] = t + off[i];
    free(off);
    if (rc < 0) {
        free(t);
        free(w);
        return -1;
    }
    *words = w;
    *nwords = n;
    *text = t;
    return 0;
}

int cli_serve(int argc, char **argv)
{
    gv_serve_opts o = {.host = "127.0.0.1", .port = 8080, .db = "gravulien.db",
                       .ai_threads = 2, .ai_hash_mb = 16, .ai_movetime_ms = 1000, .max_ai_games = 32,
                       .abandon_ms = 86400 * 1000LL, .rate = 50, .new_games = 20,
                       .ai_games_per_client = 4};
    /* --config FILE first (its options), then the rest of the command line over them. */
    char **cw = NULL, *ctext = NULL;
    int ncw = 0, rc;
    char **rest = malloc((size_t)(argc + 1) * sizeof *rest);
    if (!rest)
        return CLI_FAIL;
    int nrest = 0;
    const char *config = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            free(rest);
            puts(serve_usage);
            return CLI_OK;
        }
        if (!strcmp(argv[i], "--config")) {
            if (i + 1 >= argc || config) {
                free(rest);
                return cli_usage_error("serve: --config needs one FILE (try 'gravulien serve --help')");
            }
            config = argv[++i];
            continue;
        }
        rest[nrest++] = argv[i];
    }
    if (config && read_config(config, &cw, &ncw, &ctext) < 0) {
        free(rest);
        return CLI_FAIL;
    }
    char where[PATH_MAX + 16];
    snprintf(where, sizeof where, "serve: %s", config ? config : "");
    rc = config ? parse_opts(&o, ncw, cw, where) : CLI_OK;
    if (rc == CLI_OK)
        rc = parse_opts(&o, nrest, rest, "serve");
    if (rc == CLI_OK) {
        /* A password in a URL given on the command line shows in `ps` to every user. */
        int db_on_argv = 0;
        for (int i = 0; i < nrest; i++)
            db_on_argv |= rest[i] == o.db;
        const char *at = strchr(o.db, '@'), *scheme = strstr(o.db, "://");
        if (db_on_argv && scheme && at && memchr(scheme + 3, ':', (size_t)(at - scheme - 3)))
            fprintf(stderr, "serve: warning: the database password is on the command line, where "
                            "'ps' shows it; use PGPASSWORD, PGPASSFILE, ~/.pgpass or --config FILE\n");
        char web[PATH_MAX];
        if (!o.web_dir)
            o.web_dir = find_web_dir(web, sizeof web);
        rc = gv_serve(&o);
    }
    free(rest);
    free(cw);
    free(ctext);
    return rc;
}
