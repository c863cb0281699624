/* qsort as the native build's C library sorts: stably.
 *
 * The search orders its root moves with qsort by score, and equal scores are common.
 * glibc's qsort (the native build's, on Debian) is a merge sort, which keeps equal
 * elements in the order they came; Emscripten's C library (musl) sorts with smoothsort,
 * which does not. The two then search the moves in different orders and their node counts
 * differ. Linked ahead of the C library's, this stable merge sort gives the wasm build the
 * same order, and so the same searches, as the native one. */
#include <stdlib.h>
#include <string.h>

/* Sorts the n elements at a into order, using tmp (room for n elements) on the way. */
static void merge_sort(char *a, char *tmp, size_t n, size_t size,
                       int (*cmp)(const void *, const void *))
{
    if (n < 2)
        return;
    size_t n1 = n / 2, n2 = n - n1;
    char *b = a + n1 * size;
    merge_sort(a, tmp, n1, size, cmp);
    merge_sort(b, tmp, n2, size, cmp);
    char *out = tmp, *p = a, *q = b, *pe = b, *qe = b + n2 * size;
    while (p < pe && q < qe) {
        /* An element of the first half goes first on a tie: that is what keeps it stable. */
        if (cmp(p, q) <= 0) {
            memcpy(out, p, size);
            p += size;
        } else {
            memcpy(out, q, size);
            q += size;
        }
        out += size;
    }
    memcpy(out, p, (size_t)(pe - p));
    out += pe - p;
    /* What is left of the second half is already in place after the merged part. */
    memcpy(a, tmp, (size_t)(out - tmp));
}

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n < 2 || size == 0)
        return;
    char *tmp = malloc(n * size);
    if (tmp) {
        merge_sort(base, tmp, n, size, cmp);
        free(tmp);
        return;
    }
    /* Out of memory: insertion sort, stable too, one element moved through a byte swap. */
    char *a = base;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && cmp(a + (j - 1) * size, a + j * size) > 0; j--)
            for (size_t k = 0; k < size; k++) {
                char t = a[(j - 1) * size + k];
                a[(j - 1) * size + k] = a[j * size + k];
                a[j * size + k] = t;
            }
}
