/* lab_batch.c: a small pool of pthreads over job indices (see lab_batch.h). Workers take the next index under a
 * lock, run it unlocked, then store the text; whoever completes the lowest missing index drains the contiguous
 * prefix to the consumer, still under the lock, so consumption is serial and in order. */
#include "lab.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct BatchState {
    const LabBatchDef *def;
    pthread_mutex_t lock;
    long next;       /* next index to hand out */
    long consumed;   /* texts [0, consumed) are consumed */
    long done;
    char **texts;    /* finished, not yet consumed */
    int failed;
    int enough;      /* the consumer asked for no more (LAB_BATCH_ENOUGH) */
    char *err;
    size_t err_len;
} BatchState;

LabBatchDef lab_batch_default_def(void)
{
    LabBatchDef def;
    memset(&def, 0, sizeof def);
    def.threads = 1;
    return def;
}

/* Under the lock: hands consecutive finished texts to the consumer. */
static void batch_drain(BatchState *st)
{
    while (!st->failed && !st->enough && st->consumed < st->def->count && st->texts[st->consumed]) {
        char *text = st->texts[st->consumed];
        st->texts[st->consumed] = NULL;
        int rc = st->def->consume(st->def->ctx, st->consumed, text, st->err, st->err_len);
        if (rc == LAB_BATCH_ENOUGH)
            st->enough = 1;
        else if (rc)
            st->failed = 1;
        st->consumed++;
    }
}

static void *batch_worker(void *arg)
{
    BatchState *st = arg;
    const LabBatchDef *def = st->def;
    char err[512];
    for (;;) {
        pthread_mutex_lock(&st->lock);
        bool stop = st->enough || (def->stop && *def->stop);
        long index = st->failed || stop || st->next >= def->count ? -1 : st->next++;
        pthread_mutex_unlock(&st->lock);
        if (index < 0)
            return NULL;
        err[0] = '\0';
        char *text = def->work(def->ctx, index, err, sizeof err);
        pthread_mutex_lock(&st->lock);
        if (st->enough) { /* a job past the stopping point: dropped, whatever it gave */
            free(text);
        } else if (!text) {
            if (!st->failed)
                snprintf(st->err, st->err_len, "%s", err[0] ? err : "a job failed");
            st->failed = 1;
        } else {
            st->texts[index] = text;
            st->done++;
            batch_drain(st);
            if (def->progress && !st->failed && !st->enough)
                def->progress(def->ctx, st->done, def->count);
        }
        pthread_mutex_unlock(&st->lock);
    }
}

int lab_batch_run(const LabBatchDef *def, char *err, size_t err_len)
{
    long start = def->start > 0 ? def->start : 0;
    if (def->consumed)
        *def->consumed = start;
    if (def->count <= start)
        return 0;
    BatchState st;
    memset(&st, 0, sizeof st);
    st.def = def;
    st.next = st.consumed = start;
    st.err = err;
    st.err_len = err_len;
    st.texts = calloc((size_t)def->count, sizeof *st.texts);
    int threads = def->threads < 1 ? 1 : def->threads;
    if (threads > def->count - start)
        threads = (int)(def->count - start);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    if (!st.texts || !ids) {
        free(st.texts);
        free(ids);
        snprintf(err, err_len, "out of memory");
        return 1;
    }
    pthread_mutex_init(&st.lock, NULL);
    int started = 0;
    /* Thread 0's work runs on the calling thread, so --jobs 1 starts no thread at all. */
    for (int i = 1; i < threads; i++)
        if (pthread_create(&ids[i], NULL, batch_worker, &st) == 0)
            started++;
        else
            break;
    batch_worker(&st);
    for (int i = 1; i <= started; i++)
        pthread_join(ids[i], NULL);
    pthread_mutex_destroy(&st.lock);
    for (long i = 0; i < def->count; i++)
        free(st.texts[i]);
    free(st.texts);
    free(ids);
    if (def->consumed)
        *def->consumed = st.consumed;
    if (st.failed)
        return 1;
    /* the consumer's own stop is a complete batch; only the caller's flag leaves it unfinished */
    return !st.enough && st.consumed < def->count ? LAB_BATCH_INTERRUPTED : 0;
}
