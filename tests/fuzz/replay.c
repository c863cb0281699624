/* Replays fuzz corpora without libFuzzer: calls a target's LLVMFuzzerTestOneInput on every
 * file named on the command line, or found under the directories named. Built with
 * the project's compiler (gcc) and registered as a ctest per target, so `make check` runs
 * every corpus, also under ASan and UBSan. Exit status 0 when every input passed (a broken
 * promise aborts), 1 when a file cannot be read or no input was found. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t k; buf && (k = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += k;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb)
                free(buf);
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "replay: out of memory reading %s\n", path);
        return -1;
    }
    /* The name goes out first, so that a failing input is named before the abort. */
    fprintf(stderr, "replay: %s\n", path);
    /* A copy of exactly n bytes, as libFuzzer passes them: reads past the end are seen. */
    uint8_t *exact = malloc(n ? n : 1);
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replays path: a file, or every file under a directory (in name order, folders too).
 * Counts the inputs in *files; returns 0, or -1 when something could not be read. */
static int replay_path(const char *path, int *files)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "replay: no such file or directory: %s\n", path);
        return -1;
    }
    if (!S_ISDIR(sb.st_mode)) {
        (*files)++;
        return replay_file(path);
    }
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int bad = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 256;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn) {
                bad = -1;
                break;
            }
            names = nn;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n]) {
            bad = -1;
            break;
        }
        snprintf(names[n++], len, "%s/%s", path, e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);   /* the same order on every run */
    for (size_t k = 0; k < n; k++) {
        bad |= replay_path(names[k], files);
        free(names[k]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv)
{
    int files = 0, bad = 0;
    for (int i = 1; i < argc; i++)
        bad |= replay_path(argv[i], &files);
    printf("replayed %d inputs%s\n", files, bad ? "; some could not be read" : "");
    return bad || files == 0;
}
