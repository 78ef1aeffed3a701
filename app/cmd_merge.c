/* cmd_merge.c: `racesim merge PART.jsonl...`: rebuilds the table of `racesim batch` (or the report of `racesim
 * ab`) from the JSON lines of its shards. Each part is in seed order, so the parts are merged like sorted lists
 * and the records reach the same tally in the same order as in one unsharded run: the output is identical. */
#include "app.h"
#include "app_exp.h"

#include "../lab/lab.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void cmd_merge_usage(FILE *out)
{
    fprintf(out, "usage: racesim merge PART.jsonl... [--metric NAME] [--chart FILE.svg]\n"
                 "                     [[--sprt] --h0 X --h1 Y [--alpha A] [--beta B]]\n\n"
                 "Reads the --out files of `racesim batch` or `racesim ab` runs (typically the shards of one run,\n"
                 "--shard 1/N .. N/N) and prints the table (batch) or report (ab) that one unsharded run prints,\n"
                 "byte for byte. Every file must be in seed order; a seed may appear only once; batch and ab files\n"
                 "cannot be mixed. Bad lines give `path:line: what is wrong` and exit status 2.\n\n"
                 "options:\n"
                 "  --metric NAME     ab files: report only NAME (position, time, overtakes, collisions, offtrack,\n"
                 "                    points)\n"
                 "  --chart FILE.svg  ab files: chart of the paired differences\n"
                 "  --h0 X, --h1 Y    ab files: end with the state of the sequential test (SPRT) on the metric\n"
                 "                    (--metric, default position) over the union of the files in seed order:\n"
                 "                    LLR, bounds, the pair where it first crossed one if it did (--sprt: the same)\n"
                 "  --alpha A, --beta B  error rates in (0, 0.5) (default 0.05 each)\n"
                 "  -h, --help        this text\n");
}

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

/* --sprt, --h0, --h1, --alpha, --beta. Returns 1 when `a` is one of them (with *i past its value), -1 on a bad
 * value (message printed), 0 otherwise. */
/* The test's definition when asked for: NULL in *out when not, 2 on a bad combination (message printed). */
static int cmd_merge_sprt_check(const LabSprtDef *def, int given, const LabSprtDef **out)
{
    char err[256];
    *out = NULL;
    if (given == 0)
        return 0;
    if ((given & 3) != 3) {
        fprintf(stderr, "racesim merge: --sprt, --alpha and --beta need both --h0 and --h1\n");
        return 2;
    }
    if (lab_sprt_check_def(def, err, sizeof err)) {
        fprintf(stderr, "racesim merge: %s\n", err);
        return 2;
    }
    *out = def;
    return 0;
}

int cmd_merge(int argc, char **argv)
{
    char **paths = calloc((size_t)argc, sizeof *paths);
    const char *chart = NULL;
    int n = 0, metric = -1, sprt_given = 0;
    LabSprtDef sprt_def = lab_sprt_default_def();
    static const struct option longs[] = {
        {"metric", required_argument, NULL, 'm'}, {"chart", required_argument, NULL, 'c'},
        {"sprt", no_argument, NULL, 's'},         {"h0", required_argument, NULL, '0'},
        {"h1", required_argument, NULL, '1'},     {"alpha", required_argument, NULL, 'a'},
        {"beta", required_argument, NULL, 'b'},   {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    optind = 0; /* GNU: start afresh (the tests call commands more than once) */
    opterr = 0;
    int c, index = -1;
    while (paths && (c = getopt_long(argc, argv, ":h", longs, &index)) != -1) {
        double *number = c == '0' ? &sprt_def.h0 : c == '1' ? &sprt_def.h1 : c == 'a' ? &sprt_def.alpha
                         : c == 'b' ? &sprt_def.beta : NULL;
        if (c == 'h') {
            cmd_merge_usage(stdout);
            free(paths);
            return 0;
        } else if (c == 'c') {
            chart = optarg;
        } else if (c == 'm') {
            if ((metric = lab_ab_metric_parse(optarg)) < 0) {
                fprintf(stderr, "racesim merge: unknown metric '%s'\n", optarg);
                free(paths);
                return 2;
            }
        } else if (c == 's') {
            sprt_given |= 4;
        } else if (number) {
            char name[16];
            snprintf(name, sizeof name, "--%s", longs[index].name);
            if (app_parse_double(optarg, number)) {
                fprintf(stderr, "racesim merge: %s: expected %s, got '%s'\n", name, app_option_expects(name), optarg);
                free(paths);
                return 2;
            }
            sprt_given |= c == '0' ? 1 : c == '1' ? 2 : 8;
        } else {
            app_opt_error("merge", c, argv);
            cmd_merge_usage(stderr);
            free(paths);
            return 2;
        }
        index = -1;
    }
    for (int i = optind; paths && i < argc; i++)
        paths[n++] = argv[i];
    const LabSprtDef *sprt = NULL;
    if (paths && cmd_merge_sprt_check(&sprt_def, sprt_given, &sprt)) {
        free(paths);
        return 2;
    }
    if (n == 0) {
        fprintf(stderr, "racesim merge: no files given\n");
        cmd_merge_usage(stderr);
        free(paths);
        return 2;
    }
    MergeState m;
    memset(&m, 0, sizeof m);
    m.kind = -1;
    lab_ab_tally_init(&m.ab);
    int rc = cmd_merge_open(&m, paths, n);
    if (!rc)
        rc = cmd_merge_run(&m);
    if (!rc && m.kind < 0) {
        fprintf(stderr, "racesim merge: no records in the files\n");
        rc = 2;
    }
    if (!rc && m.kind == LAB_RECORD_AB)
        rc = app_ab_report(&m.ab, metric, chart, sprt);
    else if (!rc) {
        if (chart || metric >= 0 || sprt)
            fprintf(stderr, "racesim merge: --chart, --metric and the SPRT options apply to ab files only "
                            "(ignored)\n");
        lab_batch_tally_print(m.batch, stdout);
    }
    cmd_merge_close(&m);
    free(paths);
    return rc;
}
