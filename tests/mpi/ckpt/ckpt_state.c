/* SPDX-License-Identifier: BSD-3-Clause */
/* Checkpoint/restart (issue 6): everything a checkpoint must carry, in a deterministic run whose every rank
 * prints a digest of all its state at the end, bit-exact, so that a job restarted from a checkpoint (on any
 * number of PEs) can be compared with an uninterrupted one (tests/tools/ckpt.sh does that).
 *
 *   ckpt_state STEPS CKPT DIR [kill]
 *
 * CKPT: the steps that checkpoint (AMPI_Migrate with ampi_checkpoint = to_file=DIR, or in_memory when DIR is
 * `in_memory`: tests/tools/recover.sh kills processes of such a job under vmpirun --recover): one number, a
 * comma-separated list, `all`, or `none` (or any step >= STEPS).  With `kill`, the first checkpoint of a job
 * that was never restarted is followed by a barrier and SIGKILL of the process (rank 0 sends it): the job
 * restarted from that checkpoint must finish with the digests of the uninterrupted run.  A job restarted
 * from a checkpoint prints "ckpt_state: restarted at step K" (rank 0), so a restart that silently ran the
 * program from the start is seen.  Without arguments (the testlist): 12 steps, checkpoints at steps 4 and 8
 * into a fresh directory that rank 0 checks (created 0700, one complete checkpoint of mode 0600, the older
 * one gone, no temporary file left) and removes; sanitizer builds, which refuse checkpoints to files, only
 * migrate.
 *
 * The state (this area's programs may use globals: they are privatized, one copy per rank, and a checkpoint
 * must carry each rank's copy):
 *   - the C library's hidden state (rand's and lrand48's, seeded per rank), drawn from at every step;
 *   - mutable globals and statics: an initialized array, .bss counters, a function-scope static array, a
 *     global pointer into the heap and a list of malloc'ed nodes (some freed as the run goes: the
 *     allocator's own state must come back too), updated at every step;
 *   - derived datatypes (vector, indexed, struct resized) and user communicators (Comm_split with reversed
 *     keys, a periodic 2-D Cart_create, Comm_dup with an attribute whose copy and delete callbacks are the
 *     program's functions), all made before the first checkpoint and used at every step after it; the
 *     attribute's value is a heap block that must come back at the same address;
 *   - persistent requests made before the first checkpoint and started at every step;
 *   - at every step, a small (200 B, eager) and a large (16 KiB, or 1 MiB from every 8th rank: rendezvous)
 *     message sent to the right neighbour before the step's migration point and received after it (the small
 *     one from MPI_ANY_SOURCE), and a 6 KiB one of the vector type (a rendezvous whose sender's data is not
 *     contiguous), so that they sit unexpected in the receiver when a checkpoint is taken; and
 *     requests in flight across it: a receive posted before (MPI_ANY_SOURCE) for a message sent after, an
 *     Issend (it cannot complete before the receiver's receive, posted after) and an Iallreduce;
 *   - floating-point reductions: sums of values with few significant bits (exact in any order), MAX and
 *     MINLOC, and sums and products of full-precision values, whose rounding depends on the order of the
 *     operations: vmpi folds them in rank order whatever the ranks' PEs (docs/ARCHITECTURE.md), so they are
 *     bit-identical after migrations and restarts on other PE counts too.
 * Plain AMPI_Migrate (no checkpoint) at every odd step, so ranks move under VMPI_BALANCER=Rotate.
 * VMPIX_Restarted is checked at every step: 1 from a restart until the next AMPI_Migrate, else 0.
 * Received data is checked where the sender's values are known (patterns, indexed and struct payloads,
 * reductions of integers); the rest reaches the digest, which mixes in every rank's state (broadcasts from
 * a root that changes every step). */
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <sys/stat.h>
#include <unistd.h>
#include "mtest.h"

enum {
    NF = 64,           /* g_field */
    NH = 4096,         /* doubles in the heap array */
    NI = 32,           /* ints sent with the indexed type */
    VEC_N = 16,        /* the vector type: VEC_N doubles, stride VEC_STRIDE */
    VEC_STRIDE = 3,
    SMALL = 200,       /* the pending messages */
    MID = 16384,
    BIG = 1 << 20,
    MAXSTEPS = 64,
    DEFAULT_STEPS = 12,
    ATTR_MAGIC = 0x5eed,
    TAG_SMALL = 1000,  /* + step */
    TAG_BIG = 2000,    /* + step */
    TAG_VEC = 11,
    TAG_IDX,
    TAG_REC,
    TAG_CART0,
    TAG_CART1,
    TAG_PERS,
    TAG_POSTED,
    TAG_SSEND,
    NVEC = 48,         /* vector instances of the pending non-contiguous message: 6 KiB, a rendezvous */
    TAG_VBIG = 3000,   /* + step */
};

/* ---- the rank's globals (one copy per rank under -privatize=auto) ---- */
double g_field[NF] = {1.5, -2.25, 3.0, 0.125};  /* .data, updated every step */
static unsigned long s_counter;                  /* .bss */
static uint64_t g_acc = 0xcbf29ce484222325ULL;   /* everything received is folded into it */
static uint64_t g_rand;                          /* rand() and lrand48(): the C library's state, per rank */
double *g_heap;                                  /* a global pointing into the rank's heap */
int g_copies, g_deletes;                         /* attribute callbacks run on this rank */
struct node {
    struct node *next;
    size_t n;
    unsigned char b[];
};
static struct node *g_list, **g_tail = &g_list; /* g_tail points at a global, then into the heap */

static int *hist(void)
{
    static int h[16] = {3}; /* function-scope static */
    return h;
}

static uint64_t fold(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

/* a value with few significant bits: sums of up to thousands of them are exact in any order */
static double quant(double x) { return (double)(long long)(x * 1024.0) / 1024.0; }

/* ---- the attribute on the duplicated communicator ---- */
struct attrval {
    int magic, rank;
    double w[4];
};

static int attr_copy(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
    struct attrval *v = malloc(sizeof *v);
    memcpy(v, in, sizeof *v);
    g_copies++;
    *(void **)out = v;
    *flag = 1;
    return MPI_SUCCESS;
}

static int attr_delete(MPI_Comm comm, int key, void *val, void *extra)
{
    g_deletes++;
    free(val);
    return MPI_SUCCESS;
}

/* ---- payloads whose values the receiver knows ---- */
struct rec {
    int a;
    double b[2];
    char c[3];
};
static int idx_val(int src, int step, int i) { return src * 1000 + step * 37 + i; }
static void rec_fill(struct rec *r, int src, int step, int k)
{
    r->a = src * 10 + step + k;
    r->b[0] = src + step * 0.5 + k;
    r->b[1] = -src * 0.25 - k;
    r->c[0] = (char)('a' + (src + k) % 26);
    r->c[1] = (char)('A' + step % 26);
    r->c[2] = (char)k;
}

/* ---- the checkpoint directory checks of the no-argument run ---- */
/* Counts DIR's complete checkpoints and temporary files; *newest gets the newest's name, *mode its mode. */
static void scan_dir(const char *dir, int *nckpt, int *ntmp, char *newest, size_t cap, unsigned *mode)
{
    *nckpt = *ntmp = 0;
    *mode = 0;
    newest[0] = 0;
    long best = -1;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long seq;
        char tail[8];
        if (sscanf(e->d_name, "vmpi-ckpt-%ld.%7s", &seq, tail) == 2 && !strcmp(tail, "ckpt")) {
            ++*nckpt;
            if (seq > best) {
                best = seq;
                snprintf(newest, cap, "%s", e->d_name);
            }
        } else if (!strncmp(e->d_name, ".vmpi-ckpt-", 11))
            ++*ntmp;
    }
    closedir(d);
    if (best >= 0) {
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, newest);
        if (stat(path, &st) == 0)
            *mode = st.st_mode & 07777;
    }
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char path[1024];
        while ((e = readdir(d)) != NULL)
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                unlink(path);
            }
        closedir(d);
    }
    rmdir(dir);
}

static int exchange(void *sbuf, int scount, MPI_Datatype stype, int dest, void *rbuf, int rcount,
                               MPI_Datatype rtype, int src, int tag, MPI_Comm comm)
{
    return MPI_Sendrecv(sbuf, scount, stype, dest, tag, rbuf, rcount, rtype, src, tag, comm, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* ---- arguments ---- */
    int steps = DEFAULT_STEPS, kill_after = 0, own_dir = argc < 4;
    unsigned char ckpt_at[MAXSTEPS] = {0};
    char dir[512] = "", parent[512] = "";
    if (argc >= 4) {
        steps = atoi(argv[1]);
        if (steps < 1 || steps > MAXSTEPS) {
            if (rank == 0)
                fprintf(stderr, "usage: ckpt_state STEPS(1..%d) CKPT(step[,step...]|all|none) DIR [kill]\n",
                        MAXSTEPS);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (!strcmp(argv[2], "all"))
            memset(ckpt_at, 1, sizeof ckpt_at);
        else if (strcmp(argv[2], "none"))
            for (const char *p = argv[2]; *p;) {
                char *end;
                long s = strtol(p, &end, 10);
                if (end == p)
                    break;
                if (s >= 0 && s < MAXSTEPS)
                    ckpt_at[s] = 1;
                p = *end == ',' ? end + 1 : end;
            }
        snprintf(dir, sizeof dir, "%s", argv[3]);
        kill_after = argc >= 5 && !strcmp(argv[4], "kill");
    } else if (!MT_SANITIZE) { /* the testlist's run: a fresh directory (its child, which vmpi creates) */
        if (rank == 0) {
            const char *t = getenv("TMPDIR");
            snprintf(parent, sizeof parent, "%s/vmpi-ckpt-state-XXXXXX", t && *t ? t : "/tmp");
            if (!mkdtemp(parent)) {
                perror("mkdtemp");
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            snprintf(dir, sizeof dir, "%s/ck", parent);
        }
        MPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
        ckpt_at[4] = ckpt_at[8] = 1;
    }
    /* CKPT_STATE_RESIZE=STEP:PROCS[,STEP:PROCS...]: rank 0 calls VMPIX_Set_procs(PROCS) before the plain
     * AMPI_Migrate of (odd) step STEP; "op": an operator may change the number of processes at any plain
     * AMPI_Migrate (tests/tools/resize.sh) */
    static int resize_to[MAXSTEPS];
    const char *rs = getenv("CKPT_STATE_RESIZE");
    int by_operator = rs && !strcmp(rs, "op");
    for (const char *p = rs; p && *p && !by_operator;) {
        int st = 0, np = 0, used = 0;
        if (sscanf(p, "%d:%d%n", &st, &np, &used) != 2)
            break;
        if (st > 0 && st < MAXSTEPS && st % 2 == 1)
            resize_to[st] = np;
        p += used + (p[used] == ',');
    }
    MPI_Info ckpt_info, plain_info;
    MPI_Info_create(&ckpt_info);
    char val[600];
    if (!strcmp(dir, "in_memory")) /* DIR in_memory: in-memory checkpoints (kept by vmpirun --recover) */
        snprintf(val, sizeof val, "in_memory");
    else
        snprintf(val, sizeof val, "to_file=%s", dir);
    MPI_Info_set(ckpt_info, "ampi_checkpoint", val);
    MPI_Info_create(&plain_info);
    MPI_Info_set(plain_info, "ampi_load_balance", "sync");

    /* ---- state made before the first checkpoint ---- */
    g_heap = mt_malloc(sizeof(double) * NH);
    for (int j = 0; j < NH; j++)
        g_heap[j] = (rank % 17) * 0.5 + j * 0.001;
    for (int i = 4; i < NF; i++)
        g_field[i] = rank * 0.01 + i * 0.125;
    int *iarr = mt_malloc(sizeof(int) * NI), *iin = mt_malloc(sizeof(int) * NI);
    double *vin = mt_malloc(sizeof(double) * VEC_N);
    MPI_Datatype vec, idx, rec0, rect;
    MT_CHECK_RC(errs, MPI_Type_vector(VEC_N, 1, VEC_STRIDE, MPI_DOUBLE, &vec));
    MT_CHECK_RC(errs, MPI_Type_commit(&vec));
    int ibl[3] = {2, 1, 3}, idis[3] = {0, 5, 9}; /* extent 12 ints: two of them fit in NI */
    MT_CHECK_RC(errs, MPI_Type_indexed(3, ibl, idis, MPI_INT, &idx));
    MT_CHECK_RC(errs, MPI_Type_commit(&idx));
    int rbl[3] = {1, 2, 3};
    MPI_Aint rdis[3] = {offsetof(struct rec, a), offsetof(struct rec, b), offsetof(struct rec, c)};
    MPI_Datatype rtypes[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    MT_CHECK_RC(errs, MPI_Type_create_struct(3, rbl, rdis, rtypes, &rec0));
    MT_CHECK_RC(errs, MPI_Type_create_resized(rec0, 0, sizeof(struct rec), &rect));
    MT_CHECK_RC(errs, MPI_Type_commit(&rect));
    MPI_Type_free(&rec0); /* rect keeps what it needs */

    MPI_Comm split, cart, dup;
    int color = rank % 3;
    MT_CHECK_RC(errs, MPI_Comm_split(MPI_COMM_WORLD, color, -rank, &split));
    int dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_Dims_create(size, 2, dims);
    MT_CHECK_RC(errs, MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    MT_CHECK_RC(errs, MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    int key;
    MT_CHECK_RC(errs, MPI_Comm_create_keyval(attr_copy, attr_delete, &key, NULL));
    struct attrval *av = mt_malloc(sizeof *av);
    *av = (struct attrval){ATTR_MAGIC, rank, {rank * 0.5, 1.0, -2.0, 0.25}};
    MT_CHECK_RC(errs, MPI_Comm_set_attr(dup, key, av));

    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double pout[8], pin[8];
    MPI_Request pers[2];
    MT_CHECK_RC(errs, MPI_Recv_init(pin, 8, MPI_DOUBLE, left, TAG_PERS, MPI_COMM_WORLD, &pers[0]));
    MT_CHECK_RC(errs, MPI_Send_init(pout, 8, MPI_DOUBLE, right, TAG_PERS, MPI_COMM_WORLD, &pers[1]));

    int expect_restarted = 0, ever_restarted = 0, nckpt = 0;
    char first_ckpt[256] = "";
    srand((unsigned)rank + 1);
    srand48(rank + 1);
    for (int s = 0; s < steps; s++) {
        int f = -1;
        VMPIX_Restarted(&f);
        if (f != expect_restarted)
            MT_ERR(errs, "step %d: VMPIX_Restarted gave %d, expected %d", s, f, expect_restarted);

        /* local work on the globals and the heap (values stay within a few units: averages) */
        s_counter += (unsigned long)(rank + 1) * (unsigned long)(s + 1);
        g_rand = g_rand * 31 + (uint64_t)rand() + (uint64_t)lrand48();
        hist()[(rank + s) % 16] += s + 1;
        for (int i = 0; i < NF; i++)
            g_field[i] = 0.75 * g_field[i] + 0.25 * g_heap[(i * 61 + s * 7) % NH] + 0.001 * (rank % 5);
        for (int j = 0; j < NH; j++)
            g_heap[j] = 0.5 * g_heap[j] + 0.25 * g_field[(j + s) % NF] + 0.125 * (s % 4);

        /* a list node per step, the oldest freed every third step */
        size_t n = 16 + (size_t)(rank * 7 + s * 13) % 200;
        struct node *nd = mt_malloc(sizeof *nd + n);
        nd->next = NULL;
        nd->n = n;
        for (size_t i = 0; i < n; i++)
            nd->b[i] = (unsigned char)(rank + s * 3 + i);
        *g_tail = nd;
        g_tail = &nd->next;
        if (s % 3 == 2 && g_list->next) {
            struct node *old = g_list;
            g_list = old->next;
            free(old);
        }

        /* the messages that are pending at the migration point */
        unsigned char *small = mt_malloc(SMALL);
        size_t bn = rank % 8 == 0 ? BIG : MID;
        unsigned char *big = mt_malloc(bn);
        mt_fill(small, SMALL, rank, s);
        mt_fill(big, bn, rank, s + 100);
        MPI_Request sreq[3], fly[3];
        MT_CHECK_RC(errs, MPI_Isend(small, SMALL, MPI_BYTE, right, TAG_SMALL + s, MPI_COMM_WORLD, &sreq[0]));
        MT_CHECK_RC(errs, MPI_Isend(big, (int)bn, MPI_BYTE, right, TAG_BIG + s, MPI_COMM_WORLD, &sreq[1]));
        /* and one of the vector type (non-contiguous: packed between processes, and written packed by a
         * checkpoint in one process) */
        enum { VEC_EXT = (VEC_N - 1) * VEC_STRIDE + 1 }; /* the vector type's extent, in doubles */
        double *vout = mt_malloc(sizeof(double) * VEC_EXT * NVEC);
        for (int i = 0; i < VEC_EXT * NVEC; i++)
            vout[i] = rank * 1000.0 + s * 10.0 + i;
        MT_CHECK_RC(errs, MPI_Isend(vout, NVEC, vec, right, TAG_VBIG + s, MPI_COMM_WORLD, &sreq[2]));
        /* and requests in flight: a posted receive, an Issend, an Iallreduce */
        long posted_in = -1, ssend_out = (long)rank * 1000 + s, ia_in = (long)rank * s, ia_sum = -1;
        MT_CHECK_RC(errs, MPI_Irecv(&posted_in, 1, MPI_LONG, MPI_ANY_SOURCE, TAG_POSTED, dup, &fly[0]));
        MT_CHECK_RC(errs, MPI_Issend(&ssend_out, 1, MPI_LONG, right, TAG_SSEND, dup, &fly[1]));
        MT_CHECK_RC(errs, MPI_Iallreduce(&ia_in, &ia_sum, 1, MPI_LONG, MPI_SUM, dup, &fly[2]));

        /* the migration point: a checkpoint, or a plain migration at odd steps */
        if (ckpt_at[s] && dir[0]) {
            int rc = AMPI_Migrate(ckpt_info);
            if (rc != MPI_SUCCESS)
                MT_ERR(errs, "step %d: AMPI_Migrate(ampi_checkpoint=%s) returned %d", s, val, rc);
            f = -1;
            VMPIX_Restarted(&f);
            int fmin = 0, fmax = 0;
            MPI_Allreduce(&f, &fmin, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            MPI_Allreduce(&f, &fmax, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            if (fmin != fmax || (f != 0 && f != 1))
                MT_ERR(errs, "step %d: VMPIX_Restarted after the checkpoint gave %d (ranks: %d to %d)", s, f, fmin,
                       fmax);
            expect_restarted = f == 1;
            if (f == 1) {
                ever_restarted = 1;
                if (rank == 0) {
                    printf("ckpt_state: restarted at step %d\n", s);
                    fflush(stdout);
                }
            }
            nckpt++;
            if (own_dir && rank == 0) {
                int nc, nt;
                unsigned mode, dmode = 0;
                char newest[256];
                struct stat st;
                scan_dir(dir, &nc, &nt, newest, sizeof newest, &mode);
                if (stat(dir, &st) == 0)
                    dmode = st.st_mode & 07777;
                if (nc != 1 || nt != 0 || mode != 0600 || dmode != 0700)
                    MT_ERR(errs, "after checkpoint %d in %s: %d checkpoints (expected 1), %d temporary files "
                           "(expected 0), mode %o (expected 600), directory mode %o (expected 700)",
                           nckpt, dir, nc, nt, mode, dmode);
                if (nckpt == 1)
                    snprintf(first_ckpt, sizeof first_ckpt, "%s", newest);
                else if (!strcmp(first_ckpt, newest))
                    MT_ERR(errs, "checkpoint %d did not replace %s", nckpt, first_ckpt);
            }
            if (kill_after && !ever_restarted) {
                MPI_Barrier(MPI_COMM_WORLD);
                if (rank == 0) {
                    fflush(stdout);
                    fflush(stderr);
                    kill(getpid(), SIGKILL);
                }
                MPI_Barrier(MPI_COMM_WORLD); /* never completes */
            }
        } else if (s % 2 == 1) {
            if (resize_to[s] && rank == 0)
                MT_CHECK_RC(errs, VMPIX_Set_procs(resize_to[s]));
            MT_CHECK_RC(errs, AMPI_Migrate(plain_info));
            f = -1;
            VMPIX_Restarted(&f);
            if (f != (resize_to[s] != 0) && !(by_operator && f == 1)) /* a job that changes its number of
                                                                       * processes is restarted */
                MT_ERR(errs, "step %d: VMPIX_Restarted gave %d after a plain AMPI_Migrate%s", s, f,
                       resize_to[s] ? " that changed the number of processes" : "");
            if (resize_to[s] && rank == 0) {
                printf("ckpt_state: %d processes from step %d\n", resize_to[s], s);
                fflush(stdout);
            }
            expect_restarted = f == 1;
        }

        /* the pending messages, received now: small from anyone, large probed first */
        unsigned char *rsmall = mt_malloc(SMALL);
        MPI_Status st;
        MT_CHECK_RC(errs, MPI_Recv(rsmall, SMALL, MPI_BYTE, MPI_ANY_SOURCE, TAG_SMALL + s, MPI_COMM_WORLD, &st));
        long bad = mt_verify(rsmall, SMALL, left, s);
        if (st.MPI_SOURCE != left || bad >= 0)
            MT_ERR(errs, "step %d: small message from %d (expected %d), first bad byte %ld", s, st.MPI_SOURCE,
                   left, bad);
        g_acc = fold(g_acc, rsmall, SMALL);
        free(rsmall);
        int cnt = -1;
        size_t ebn = left % 8 == 0 ? BIG : MID;
        MT_CHECK_RC(errs, MPI_Probe(left, TAG_BIG + s, MPI_COMM_WORLD, &st));
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        if (cnt != (int)ebn)
            MT_ERR(errs, "step %d: probed a large message of %d bytes, expected %zu", s, cnt, ebn);
        else {
            unsigned char *rbig = mt_malloc(ebn);
            MT_CHECK_RC(errs, MPI_Recv(rbig, cnt, MPI_BYTE, left, TAG_BIG + s, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            bad = mt_verify(rbig, ebn, left, s + 100);
            if (bad >= 0)
                MT_ERR(errs, "step %d: large message from %d: first bad byte %ld", s, left, bad);
            g_acc = fold(g_acc, rbig, 256);
            g_acc = fold(g_acc, rbig + ebn - 256, 256);
            free(rbig);
        }
        double *vgot = mt_malloc(sizeof(double) * VEC_N * NVEC);
        MT_CHECK_RC(errs, MPI_Recv(vgot, VEC_N * NVEC, MPI_DOUBLE, left, TAG_VBIG + s, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE));
        for (int i = 0; i < VEC_N * NVEC; i++) {
            int at = i / VEC_N * VEC_EXT + i % VEC_N * VEC_STRIDE; /* where the sender's double was */
            if (vgot[i] != left * 1000.0 + s * 10.0 + at) {
                MT_ERR(errs, "step %d: vector message from %d: double %d is %g, expected %g", s, left, i, vgot[i],
                       left * 1000.0 + s * 10.0 + at);
                break;
            }
        }
        g_acc = fold(g_acc, vgot, sizeof(double) * VEC_N * NVEC);
        free(vgot);
        MT_CHECK_RC(errs, MPI_Waitall(3, sreq, MPI_STATUSES_IGNORE));
        free(small);
        free(big);
        free(vout);
        long posted_out = (long)rank * 7 + s, ssend_in = -1;
        MT_CHECK_RC(errs, MPI_Send(&posted_out, 1, MPI_LONG, right, TAG_POSTED, dup));
        MT_CHECK_RC(errs, MPI_Recv(&ssend_in, 1, MPI_LONG, left, TAG_SSEND, dup, MPI_STATUS_IGNORE));
        MPI_Status fst[3];
        MT_CHECK_RC(errs, MPI_Waitall(3, fly, fst));
        if (posted_in != (long)left * 7 + s || fst[0].MPI_SOURCE != left)
            MT_ERR(errs, "step %d: posted receive got %ld from %d, expected %ld from %d", s, posted_in,
                   fst[0].MPI_SOURCE, (long)left * 7 + s, left);
        MT_CHECK_INT(errs, "Issend payload", (long)left * 1000 + s, ssend_in);
        MT_CHECK_INT(errs, "Iallreduce", (long)size * (size - 1) / 2 * s, ia_sum);
        g_acc = fold(g_acc, &posted_in, sizeof posted_in);
        g_acc = fold(g_acc, &ssend_in, sizeof ssend_in);
        g_acc = fold(g_acc, &ia_sum, sizeof ia_sum);

        /* the vector type: strided doubles of the heap to the right, contiguous from the left */
        int off = (s * 5) % (NH - VEC_N * VEC_STRIDE);
        MT_CHECK_RC(errs, exchange(g_heap + off, 1, vec, right, vin, VEC_N, MPI_DOUBLE, left, TAG_VEC,
                                              MPI_COMM_WORLD));
        for (int i = 0; i < VEC_N; i++)
            g_field[(i + s) % NF] = 0.5 * g_field[(i + s) % NF] + 0.5 * vin[i];

        /* the indexed type, both sides: known values */
        for (int i = 0; i < NI; i++) {
            iarr[i] = idx_val(rank, s, i);
            iin[i] = -1;
        }
        MT_CHECK_RC(errs, exchange(iarr, 2, idx, left, iin, 2, idx, right, TAG_IDX, MPI_COMM_WORLD));
        for (int i = 0; i < NI; i++) {
            int k = i % 12, in_type = i < 24 && (k < 2 || k == 5 || (k >= 9 && k < 12));
            int want = in_type ? idx_val(right, s, i) : -1;
            if (iin[i] != want) {
                MT_ERR(errs, "step %d: indexed type: int %d is %d, expected %d", s, i, iin[i], want);
                break;
            }
        }
        g_acc = fold(g_acc, iin, sizeof(int) * NI);

        /* the struct type */
        struct rec rs[2], rr[2], want[2];
        memset(rs, 0, sizeof rs);
        memset(rr, 0, sizeof rr);
        memset(want, 0, sizeof want);
        for (int k = 0; k < 2; k++) {
            rec_fill(&rs[k], rank, s, k);
            rec_fill(&want[k], left, s, k);
        }
        MT_CHECK_RC(errs, exchange(rs, 2, rect, right, rr, 2, rect, left, TAG_REC, MPI_COMM_WORLD));
        for (int k = 0; k < 2; k++)
            if (rr[k].a != want[k].a || rr[k].b[0] != want[k].b[0] || rr[k].b[1] != want[k].b[1] ||
                memcmp(rr[k].c, want[k].c, 3)) {
                MT_ERR(errs, "step %d: struct type: record %d has a=%d b=%g,%g, expected a=%d b=%g,%g", s, k,
                       rr[k].a, rr[k].b[0], rr[k].b[1], want[k].a, want[k].b[0], want[k].b[1]);
                break;
            }
        g_acc = fold(g_acc, rr, sizeof rr);

        /* the split communicator: ranks in reverse order, an exact integer sum */
        int srank = -1, ssize = -1;
        MPI_Comm_rank(split, &srank);
        MPI_Comm_size(split, &ssize);
        int wsize = (size - color + 2) / 3, wrank = (size - 1 - rank) / 3;
        if (ssize != wsize || srank != wrank)
            MT_ERR(errs, "step %d: split communicator: rank %d of %d, expected %d of %d", s, srank, ssize, wrank,
                   wsize);
        long mine = (long)(rank + 1) * (s + 1), ssum = -1, swant = 0;
        for (int r = color; r < size; r += 3)
            swant += (long)(r + 1) * (s + 1);
        MT_CHECK_RC(errs, MPI_Allreduce(&mine, &ssum, 1, MPI_LONG, MPI_SUM, split));
        MT_CHECK_INT(errs, "split communicator sum", swant, ssum);
        double sd = g_field[s % NF], smax = 0;
        MT_CHECK_RC(errs, MPI_Allreduce(&sd, &smax, 1, MPI_DOUBLE, MPI_MAX, split));
        g_field[(s + 1) % NF] = 0.5 * g_field[(s + 1) % NF] + 0.5 * smax;

        /* the Cartesian communicator: shifts along both dimensions */
        for (int d = 0; d < 2; d++) {
            int src, dst;
            double co[4], ci[4];
            MT_CHECK_RC(errs, MPI_Cart_shift(cart, d, 1, &src, &dst));
            for (int i = 0; i < 4; i++)
                co[i] = g_field[(s * 3 + d * 4 + i) % NF];
            MT_CHECK_RC(errs, exchange(co, 4, MPI_DOUBLE, dst, ci, 4, MPI_DOUBLE, src,
                                                  d ? TAG_CART1 : TAG_CART0, cart));
            for (int i = 0; i < 4; i++)
                g_field[(s * 3 + d * 4 + i + 32) % NF] = 0.5 * g_field[(s * 3 + d * 4 + i + 32) % NF] + 0.5 * ci[i];
        }

        /* the duplicate: its attribute, a broadcast from a root that changes every step */
        struct attrval *got = NULL;
        int flag = 0;
        MT_CHECK_RC(errs, MPI_Comm_get_attr(dup, key, &got, &flag));
        if (!flag || got != av || av->magic != ATTR_MAGIC || av->rank != rank || av->w[0] != rank * 0.5)
            MT_ERR(errs, "step %d: attribute on the duplicate: flag %d, %p (expected %p)", s, flag, (void *)got,
                   (void *)av);
        double bc[8];
        int root = (s * 7) % size;
        for (int i = 0; i < 8; i++)
            bc[i] = g_field[(i * 5 + s) % NF];
        MT_CHECK_RC(errs, MPI_Bcast(bc, 8, MPI_DOUBLE, root, dup));
        for (int i = 0; i < 8; i++)
            g_field[(i * 3 + s + 40) % NF] = 0.5 * g_field[(i * 3 + s + 40) % NF] + 0.5 * bc[i];

        /* the persistent requests */
        for (int i = 0; i < 8; i++)
            pout[i] = g_field[16 + i] + rank;
        MT_CHECK_RC(errs, MPI_Startall(2, pers));
        MT_CHECK_RC(errs, MPI_Waitall(2, pers, MPI_STATUSES_IGNORE));
        for (int i = 0; i < 8; i++)
            g_field[16 + i] = 0.5 * g_field[16 + i] + 0.5 * (pin[i] - left);

        /* floating-point reductions: exact sums, MAX, MINLOC */
        double q[8], qs[8], mx[8], mxo[8];
        for (int i = 0; i < 8; i++) {
            q[i] = quant(g_field[24 + i]);
            mx[i] = g_field[48 + i];
        }
        MT_CHECK_RC(errs, MPI_Allreduce(q, qs, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        MT_CHECK_RC(errs, MPI_Allreduce(mx, mxo, 8, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
        struct {
            double v;
            int i;
        } ml = {g_field[56], rank}, mlo;
        MT_CHECK_RC(errs, MPI_Allreduce(&ml, &mlo, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD));
        for (int i = 0; i < 8; i++) {
            g_field[24 + i] = 0.5 * g_field[24 + i] + 0.5 * qs[i] / size;
            g_field[48 + i] = 0.5 * g_field[48 + i] + 0.5 * mxo[i];
        }
        g_field[56] = 0.5 * g_field[56] + 0.5 * mlo.v + 0.001 * mlo.i;
        double fs[4], fso[4], fp[4], fpo[4]; /* rounded sums and products, on the world and the split */
        for (int i = 0; i < 4; i++) {
            fs[i] = g_field[57 + i] * (1 + rank % 7) / 3.0;
            fp[i] = 1.0 + g_field[57 + i] / 4096.0;
        }
        MT_CHECK_RC(errs, MPI_Allreduce(fs, fso, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        MT_CHECK_RC(errs, MPI_Allreduce(fp, fpo, 4, MPI_DOUBLE, MPI_PROD, split));
        for (int i = 0; i < 4; i++)
            g_field[57 + i] = 0.5 * g_field[57 + i] + 0.5 * fso[i] / size + 0.25 * (fpo[i] - 1.0);
        double qsum = 0; /* the exact sum again, over integers: it must be the same number */
        long long iq = (long long)(q[0] * 1024.0), iqs = 0;
        MPI_Allreduce(&iq, &iqs, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        qsum = (double)iqs / 1024.0;
        if (qsum != qs[0])
            MT_ERR(errs, "step %d: sum of doubles %.17g, of the same values as integers %.17g", s, qs[0], qsum);
    }

    /* the attribute's callbacks: a duplicate copies it, freeing deletes it */
    MPI_Comm dup2;
    MT_CHECK_RC(errs, MPI_Comm_dup(dup, &dup2));
    struct attrval *got = NULL;
    int flag = 0;
    MPI_Comm_get_attr(dup2, key, &got, &flag);
    if (!flag || got == av || got->magic != ATTR_MAGIC || got->rank != rank)
        MT_ERR(errs, "the attribute was not copied to a duplicate by attr_copy");
    MT_CHECK_RC(errs, MPI_Comm_free(&dup2));
    MT_CHECK_RC(errs, MPI_Comm_free(&dup));
    MT_CHECK_INT(errs, "attr_copy calls", 1, g_copies);
    MT_CHECK_INT(errs, "attr_delete calls", 2, g_deletes);

    /* the digest of all the state */
    uint64_t h = 0xcbf29ce484222325ULL;
    h = fold(h, g_field, sizeof g_field);
    h = fold(h, &s_counter, sizeof s_counter);
    h = fold(h, hist(), sizeof(int) * 16);
    h = fold(h, g_heap, sizeof(double) * NH);
    int nodes = 0;
    for (struct node *p = g_list; p; p = p->next, nodes++) {
        h = fold(h, &p->n, sizeof p->n);
        h = fold(h, p->b, p->n);
    }
    MT_CHECK_INT(errs, "list nodes", steps - steps / 3, nodes); /* one freed at steps 2, 5, 8... */
    h = fold(h, &g_acc, sizeof g_acc);
    h = fold(h, &g_rand, sizeof g_rand);
    h = fold(h, &g_copies, sizeof g_copies);
    h = fold(h, &g_deletes, sizeof g_deletes);
    unsigned long long hd = h, *all = rank == 0 ? mt_malloc(sizeof *all * (size_t)size) : NULL;
    MPI_Gather(&hd, 1, MPI_UNSIGNED_LONG_LONG, all, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int r = 0; r < size; r++)
            printf("rank %d digest %016llx\n", r, all[r]);
        fflush(stdout);
        free(all);
    }

    MPI_Request_free(&pers[0]);
    MPI_Request_free(&pers[1]);
    MPI_Comm_free_keyval(&key);
    MPI_Comm_free(&split);
    MPI_Comm_free(&cart);
    MPI_Type_free(&vec);
    MPI_Type_free(&idx);
    MPI_Type_free(&rect);
    MPI_Info_free(&ckpt_info);
    MPI_Info_free(&plain_info);
    while (g_list) {
        struct node *p = g_list;
        g_list = p->next;
        free(p);
    }
    free(g_heap);
    free(iarr);
    free(iin);
    free(vin);
    if (own_dir && rank == 0 && parent[0]) {
        remove_dir(dir);
        rmdir(parent);
    }
    return mt_finish(errs);
}
