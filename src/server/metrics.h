/* What the server says about itself: counters and histograms of one process, written in
 * Prometheus' text format at GET /metrics (docs/api.md, "Metrics").
 *
 * Every figure is an atomic, so that the thread that counts (the event loop, the games'
 * thread) and the one that writes them out need no lock; a figure read while another is
 * being updated may be one event behind, which a scrape every few seconds does not mind. */
#ifndef GV_METRICS_H
#define GV_METRICS_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/gv_core.h"

/* Histogram buckets, upper bounds in milliseconds (the last is +Inf). */
enum { GV_HISTO_BUCKETS = 13 };

typedef struct gv_histo {
    _Atomic uint64_t bucket[GV_HISTO_BUCKETS];   /* not cumulative: one count per bucket */
    _Atomic uint64_t count;
    _Atomic uint64_t sum_us;
} gv_histo;

typedef struct gv_metrics {
    /* The event loop: the time it spent on one pass (from the poll's return to the next
     * poll), which is how long any request or event waited behind it. */
    gv_histo loop_pass;
    /* The store: every call the games' thread makes, and those that failed. */
    gv_histo store_call;
    _Atomic uint64_t store_errors;
    /* AI turns: how long each waited for a thread. */
    gv_histo ai_wait;
    /* Moves stored (people's and AI's), and HTTP replies by status class (1xx..5xx). */
    _Atomic uint64_t moves;
    _Atomic uint64_t http_replies[5];
    /* Connections closed as soon as they were taken: their address over --rate. */
    _Atomic uint64_t conns_refused;
    /* WebSockets closed to keep the answers waiting for their clients within --ws-buffer,
     * and those closed or dropped as too slow (their queue or their address's share full,
     * or nothing taken for STALL_SECS). */
    _Atomic uint64_t ws_shed;
    _Atomic uint64_t ws_slow;
} gv_metrics;

void gv_histo_add(gv_histo *h, int64_t us);
/* Appends histogram h as Prometheus metric name (seconds) with its help text. */
void gv_histo_write(gv_buf *out, const char *name, const char *help, const gv_histo *h);
/* Appends one counter or gauge line with its help and type. */
void gv_metric_write(gv_buf *out, const char *name, const char *type, const char *help,
                     double value);

#endif
