/* sim_batch.h: runs many independent jobs (races) on worker threads and hands their outputs back in job order.
 *
 * The sim keeps no global state, so sessions on different threads never share anything but the read-only race.
 * Each job produces a malloc'd text (a JSON line); the consumer sees the texts strictly in job order, whatever the
 * number of threads, so everything computed from them is the same for any --jobs. No printing: progress is
 * reported through a callback and the caller decides what to show.
 */
#ifndef SIM_BATCH_H
#define SIM_BATCH_H

#include <stddef.h>

/* Runs job `index`; returns a malloc'd NUL-terminated text, or NULL with err filled. Called on worker threads. */
typedef char *SimBatchWorkFn(void *ctx, long index, char *err, size_t err_len);
/* Receives job `index`'s text (and owns it), in increasing index order, one call at a time. Nonzero stops the
 * batch with err filled. */
typedef int SimBatchConsumeFn(void *ctx, long index, char *text, char *err, size_t err_len);
/* Called after each finished job with the count done so far, one call at a time. */
typedef void SimBatchProgressFn(void *ctx, long done, long total);

typedef struct SimBatchDef {
    long count;                   /* jobs 0..count-1 */
    int threads;                  /* >= 1 */
    SimBatchWorkFn *work;
    SimBatchConsumeFn *consume;
    SimBatchProgressFn *progress; /* may be NULL */
    void *ctx;
} SimBatchDef;

SimBatchDef sim_batch_default_def(void);

/* Runs the batch. Returns 0, or nonzero with err holding the first failure (later jobs are not started). */
int sim_batch_run(const SimBatchDef *def, char *err, size_t err_len);

#endif
