/* cmd_merge.c: `racesim merge PART.jsonl...`: rebuilds the table of `racesim batch` (or the report of `racesim
 * ab`) from the JSON lines of its shards. Each part is in seed order, so the parts are merged like sorted lists
 * and the records reach the same tally in the same order as in one unsharded run: the output is identical. */
#include "app.h"
#include "app_exp.h"
#include "app_out.h"
#include "cli.h"

#include "../lab/lab.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct MergePart {
    LabRecordReader reader;
    LabRecord *rec;  /* the head record; NULL when the file is exhausted */
    long rec_line;
} MergePart;

typedef struct MergeState {
    MergePart *parts;
    int count;
    int kind;        /* LabRecordKind of the first record, -1 before it */
    LabBatchTally *batch;
    LabAbTally ab;
} MergeState;

/* Advances a part to its next record, checking the file's own seed order. Returns 0, or 2 with the error printed. */
static int cmd_merge_advance(MergePart *p)
{
    char err[2048];
    bool had = p->rec_line > 0;
    uint64_t prev = had ? p->rec->seed : 0;
    if (!p->rec && !(p->rec = malloc(sizeof *p->rec))) {
        fprintf(stderr, "racesim merge: out of memory\n");
        return 2;
    }
    int rc = lab_record_read(&p->reader, p->rec, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    if (rc == 0) { /* the end: the part drops out of the merge */
        free(p->rec);
        p->rec = NULL;
        return 0;
    }
    p->rec_line = p->reader.line;
    if (had && p->rec->seed <= prev) {
        fprintf(stderr, "%s:%ld: seed %" PRIu64 " is not after seed %" PRIu64 " (each file must be in seed order, "
                "as `batch --out` and `ab --out` write it)\n", p->reader.path, p->rec_line, p->rec->seed, prev);
        return 2;
    }
    return 0;
}

/* The part holding the lowest seed, or -1 when all are exhausted; 2 on a seed found in two files. */
static int cmd_merge_pick(const MergeState *m, int *pick)
{
    *pick = -1;
    for (int i = 0; i < m->count; i++) {
        const MergePart *p = &m->parts[i];
        if (!p->rec)
            continue;
        if (*pick >= 0 && p->rec->seed == m->parts[*pick].rec->seed) {
            const MergePart *q = &m->parts[*pick];
            fprintf(stderr, "%s:%ld: seed %" PRIu64 " is also in %s:%ld\n", p->reader.path, p->rec_line,
                    p->rec->seed, q->reader.path, q->rec_line);
            return 2;
        }
        if (*pick < 0 || p->rec->seed < m->parts[*pick].rec->seed)
            *pick = i;
    }
    return 0;
}

static int cmd_merge_add(MergeState *m, const MergePart *p)
{
    char err[2048];
    int rc;
    if (m->kind < 0)
        m->kind = (int)p->rec->kind;
    if (p->rec->kind != (LabRecordKind)m->kind) {
        snprintf(err, sizeof err, "%s record among %s records (files from `batch` and `ab` cannot be merged)",
                 p->rec->kind == LAB_RECORD_AB ? "an A/B" : "a race", m->kind == LAB_RECORD_AB ? "A/B" : "race");
        rc = 1;
    } else if (m->kind == LAB_RECORD_AB)
        rc = lab_ab_tally_add(&m->ab, p->rec, err, sizeof err);
    else
        rc = lab_batch_tally_add(m->batch, p->rec, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s:%ld: %s\n", p->reader.path, p->rec_line, err);
    return rc ? 2 : 0;
}

static int cmd_merge_run(MergeState *m)
{
    for (int i = 0; i < m->count; i++)
        if (cmd_merge_advance(&m->parts[i]))
            return 2;
    for (;;) {
        int pick;
        if (cmd_merge_pick(m, &pick))
            return 2;
        if (pick < 0)
            return 0;
        if (cmd_merge_add(m, &m->parts[pick]) || cmd_merge_advance(&m->parts[pick]))
            return 2;
    }
}

/* Opens the files; returns 0 or 2 (message printed). */
static int cmd_merge_open(MergeState *m, char **paths, int n)
{
    m->parts = calloc((size_t)n, sizeof *m->parts);
    m->batch = malloc(sizeof *m->batch);
    if (!m->parts || !m->batch) {
        fprintf(stderr, "racesim merge: out of memory\n");
        return 2;
    }
    lab_batch_tally_init(m->batch);
    for (int i = 0; i < n; i++) {
        MergePart *p = &m->parts[m->count];
        p->reader.path = paths[i];
        p->reader.file = fopen(paths[i], "r");
        if (!p->reader.file) {
            fprintf(stderr, "%s:0: cannot open: %s\n", paths[i], strerror(errno));
            return 2;
        }
        /* a pipe is fine (shards streamed in), a directory is not a file of records */
        struct stat st;
        if (fstat(fileno(p->reader.file), &st) == 0 && S_ISDIR(st.st_mode)) {
            fprintf(stderr, "%s:0: not a regular file (a directory)\n", paths[i]);
            fclose(p->reader.file);
            p->reader.file = NULL;
            return 2;
        }
        m->count++;
    }
    return 0;
}

static void cmd_merge_close(MergeState *m)
{
    for (int i = 0; m->parts && i < m->count; i++) {
        fclose(m->parts[i].reader.file);
        lab_record_reader_free(&m->parts[i].reader);
        free(m->parts[i].rec);
    }
    free(m->parts);
    free(m->batch);
    lab_ab_tally_free(&m->ab);
}

int cmd_merge(int argc, char **argv)
{
    CliMergeOpts o;
    int rc = cli_merge_parse(argc, argv, &o, stdout, stderr);
    if (rc != CLI_GO)
        return rc;
    char err[4400];
    if (o.chart_path &&
        app_out_check(o.chart_path, (const char *const *)o.paths, o.path_count, NULL, 0, err, sizeof err) != 0) {
        fprintf(stderr, "racesim merge: %s\n", err); /* before the parts are read: the chart comes last */
        return 2;
    }
    MergeState m;
    memset(&m, 0, sizeof m);
    m.kind = -1;
    lab_ab_tally_init(&m.ab);
    rc = cmd_merge_open(&m, o.paths, o.path_count);
    if (!rc)
        rc = cmd_merge_run(&m);
    if (!rc && m.kind < 0) {
        fprintf(stderr, "racesim merge: no records in the files\n");
        rc = 2;
    }
    if (!rc && m.kind == LAB_RECORD_AB)
        rc = app_ab_report(&m.ab, o.metric, o.chart_path, o.has_sprt ? &o.sprt_def : NULL);
    else if (!rc) {
        if (o.chart_path || o.metric >= 0 || o.has_sprt)
            fprintf(stderr, "racesim merge: --chart, --metric and the SPRT options apply to ab files only "
                            "(ignored)\n");
        lab_batch_tally_print(m.batch, stdout);
    }
    cmd_merge_close(&m);
    return rc;
}
