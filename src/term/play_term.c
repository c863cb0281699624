/* The terminal: what it can show (colour, UTF-8), raw keys while the AI thinks, screen
 * clearing, and the listing of legal moves (`gravulien moves`, the game's `moves`). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <termios.h>
#include <unistd.h>

#include "term/play.h"

/* Does the locale the environment names use UTF-8 (the first of LC_ALL, LC_CTYPE, LANG
 * that is set decides)? */
static int utf8_locale(void)
{
    const char *vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (!v || !*v)
            continue;
        for (; *v; v++)
            if (!strncasecmp(v, "utf-8", 5) || !strncasecmp(v, "utf8", 4))
                return 1;
        return 0;
    }
    return 0;
}

void play_term_init(play_term *t, int ascii)
{
    memset(t, 0, sizeof *t);
    t->tty_in = isatty(STDIN_FILENO);
    t->tty_out = isatty(STDOUT_FILENO);
    const char *term = getenv("TERM");
    int dumb = !term || !strcmp(term, "dumb");
    int plain = ascii || !t->tty_out || getenv("NO_COLOR") != NULL;
    t->color = !plain && !dumb;
    t->unicode = !plain && utf8_locale();
    t->clear = t->tty_out && !dumb;
}

const char *play_sgr(const play_term *t, const char *codes, char *buf, size_t len)
{
    if (!t->color)
        return "";
    snprintf(buf, len, "\033[%sm", codes);
    return buf;
}

const char *play_sgr_reset(const play_term *t)
{
    return t->color ? "\033[0m" : "";
}

void play_term_clear(const play_term *t)
{
    if (t->clear)
        fputs("\033[H\033[2J", stdout);
}

/* The terminal's settings before raw mode, restored by play_term_raw(0) or on SIGINT.
 * (The one piece of process state here: a terminal belongs to the process.) */
static struct termios saved_tio;
static volatile sig_atomic_t raw_on;

static void on_sigint(int sig)
{
    if (raw_on)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
    signal(sig, SIG_DFL);
    raise(sig);
}

void play_term_raw(play_term *t, int on)
{
    if (!t->tty_in || on == raw_on)
        return;
    if (on) {
        if (tcgetattr(STDIN_FILENO, &saved_tio) != 0)
            return;
        struct termios raw = saved_tio;
        raw.c_lflag &= (tcflag_t) ~(ICANON | ECHO);
        raw.c_cc[VMIN] = 1;
        raw.c_cc[VTIME] = 0;
        signal(SIGINT, on_sigint);
        if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0)
            raw_on = 1;
    } else {
        tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
        raw_on = 0;
    }
}

int play_term_key(int ms)
{
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(STDIN_FILENO, &fds);
    struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
    int r = select(STDIN_FILENO + 1, &fds, NULL, NULL, &tv);
    if (r < 0)
        return errno == EINTR ? -1 : -2;
    if (r == 0)
        return -1;
    unsigned char c;
    ssize_t n = read(STDIN_FILENO, &c, 1);
    if (n == 1)
        return c;
    return n == 0 ? -2 : -1;
}

void play_term_flush_input(const play_term *t)
{
    if (t->tty_in)
        tcflush(STDIN_FILENO, TCIFLUSH);
}

int play_term_width(void)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 80;
}

/* ---- Listing moves ---------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void play_print_moves(const gv_game *g, const void *st, gv_move *buf, const char *sep)
{
    int n = g->legal_moves(st, buf);
    char (*text)[64] = n ? malloc((size_t)n * sizeof *text) : NULL;
    char **order = n ? malloc((size_t)n * sizeof *order) : NULL;
    if (n && (!text || !order)) {
        free(text);
        free(order);
        fputs("gravulien: out of memory\n", stderr);
        return;
    }
    for (int i = 0; i < n; i++) {
        if (g->describe_move)
            g->describe_move(st, buf[i], text[i], sizeof text[i]);
        else
            g->write_move(st, buf[i], text[i], sizeof text[i]);
        order[i] = text[i];
    }
    /* Sorted as plain byte strings, so the listing does not depend on generation order. */
    if (n > 1)
        qsort(order, (size_t)n, sizeof *order, cmp_str);
    for (int i = 0; i < n; i++) {
        fputs(order[i], stdout);
        if (i + 1 < n)
            fputs(sep, stdout);
    }
    if (n || strcmp(sep, "\n") != 0)
        putchar('\n');
    free(text);
    free(order);
}
