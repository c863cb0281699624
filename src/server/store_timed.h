/* A store that times every call of another into the process's metrics (store_timed.c). */
#ifndef GV_STORE_TIMED_H
#define GV_STORE_TIMED_H

#include "server/metrics.h"
#include "server/store.h"

/* Wraps in (which the wrapper's close closes): NULL when out of memory. m must outlive it. */
gv_store *gv_store_timed(gv_store *in, gv_metrics *m);

#endif
