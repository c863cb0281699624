/* Counters and histograms in Prometheus' text format (metrics.h). */
#include <stdio.h>
#include <string.h>

#include "server/metrics.h"

static const double bucket_ms[GV_HISTO_BUCKETS - 1] = {0.5, 1, 2, 5, 10, 25, 50, 100, 250,
                                                       500, 1000, 2500};

void gv_histo_add(gv_histo *h, int64_t us)
{
    if (us < 0)
        us = 0;
    int i = 0;
    while (i < GV_HISTO_BUCKETS - 1 && (double)us > bucket_ms[i] * 1000.0)
        i++;
    atomic_fetch_add_explicit(&h->bucket[i], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->count, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->sum_us, (uint64_t)us, memory_order_relaxed);
}


void gv_histo_write(gv_buf *out, const char *name, const char *help, const gv_histo *h)
{
    gv_buf_printf(out, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
    uint64_t cum = 0;
    for (int i = 0; i < GV_HISTO_BUCKETS; i++) {
        cum += atomic_load_explicit(&h->bucket[i], memory_order_relaxed);
        if (i < GV_HISTO_BUCKETS - 1)
            gv_buf_printf(out, "%s_bucket{le=\"%g\"} %llu\n", name, bucket_ms[i] / 1000.0,
                 (unsigned long long)cum);
        else
            gv_buf_printf(out, "%s_bucket{le=\"+Inf\"} %llu\n", name, (unsigned long long)cum);
    }
    gv_buf_printf(out, "%s_sum %.6f\n", name,
         (double)atomic_load_explicit(&h->sum_us, memory_order_relaxed) / 1e6);
    /* The count is the +Inf bucket's, so that the two always agree. */
    gv_buf_printf(out, "%s_count %llu\n", name, (unsigned long long)cum);
}

void gv_metric_write(gv_buf *out, const char *name, const char *type, const char *help,
                     double value)
{
    gv_buf_printf(out, "# HELP %s %s\n# TYPE %s %s\n%s %.17g\n", name, help, name, type, name, value);
}
