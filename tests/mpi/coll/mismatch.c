/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives whose ranks pass counts or types of different sizes (an erroneous program: MPI makes their type
 * signatures match) fail with MPI_ERR_TRUNCATE, as in MPICH, instead of returning wrong data.  The last rank
 * passes the odd size; with MPI_ERRORS_RETURN, every case checks that the job goes on (no rank waits for
 * ever), that no rank gets another error class, that some rank reports the mismatch, and that the ranks
 * that can tell do: a rank that receives the odd data or whose own data does not fit, every rank of a
 * blocking allreduce, allgather or alltoall (each reads every rank's data).  Sizes cover every path of the
 * blocking collectives (eager, medium and large broadcasts; small, folded-in-slices and sliced reductions;
 * staged and direct allgather and alltoall), and the mismatches cover counts and types (INT against
 * DOUBLE; 2 INT against 1 DOUBLE has the same size and is not detected; INT against FLOAT in a sum is,
 * because the blocking path folds them differently).  The same size
 * checks in every collective leave the communicator usable: the correct collectives between the cases
 * still work.  Intercommunicator and neighbourhood collectives take the same checks.  With MT_MISMATCH_FATAL=<case name> in the environment, only that case runs, under the
 * default MPI_ERRORS_ARE_FATAL: the job must fail with MPI_ERR_TRUNCATE (testlist: exit=1).  With one rank,
 * only the cases where a rank's own send and receive sizes differ apply. */
#include "mtest.h"

enum { WHO_SOME, WHO_ODD, WHO_ROOT, WHO_ALL };

typedef struct {
    const char *name;
    int who;                 /* the ranks that must report it */
    int self;                /* 1: the odd rank's own send and receive sizes differ (applies to 1 rank too) */
} kase;

static const kase cases[] = {
    {"bcast_eager", WHO_ODD, 0},      {"bcast_medium", WHO_ODD, 0},   {"bcast_large", WHO_ODD, 0},
    {"bcast_straddle", WHO_ODD, 0},
    {"allreduce", WHO_ALL, 0},        {"allreduce_type", WHO_ALL, 0}, {"allreduce_fold", WHO_ALL, 0},
    {"allreduce_large", WHO_ALL, 0},  {"reduce_type", WHO_ROOT, 0},   {"allgather", WHO_ALL, 0},
    {"allgather_large", WHO_ALL, 0},  {"alltoall", WHO_ALL, 0},       {"alltoall_large", WHO_ALL, 0},
    {"alltoall_self", WHO_ODD, 1},    {"gather", WHO_ROOT, 0},        {"gatherv", WHO_ROOT, 0},
    {"scatter", WHO_ODD, 0},          {"scatterv", WHO_ODD, 0},       {"gather_self", WHO_ODD, 1},
    {"reduce_scatter_block", WHO_ALL, 0}, {"reduce_scatter", WHO_ALL, 0}, {"scan", WHO_ODD, 0},
    {"exscan", WHO_ODD, 0},           {"ibcast", WHO_ODD, 0},         {"iallreduce", WHO_ALL, 0},
    {"ireduce", WHO_SOME, 0},         {"iallgather", WHO_ODD, 0},     {"ialltoall", WHO_ODD, 0},
    {"igather", WHO_ROOT, 0},         {"iscatter", WHO_ODD, 0},       {"iscan", WHO_ODD, 0},
    {"inter_bcast", WHO_ODD, 0},      {"inter_allgather", WHO_ODD, 0}, {"neighbor_allgather", WHO_ODD, 0},
    {"ineighbor_alltoall", WHO_ODD, 0}, {"allreduce_kind", WHO_ALL, 0},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

enum { BIG = 12000 }; /* ints: 48 KB, above the blocking collectives' 32 KiB large paths */

/* Runs case k with the odd rank passing the odd size; returns the call's code.  `inter`: the lower half of
 * the ranks against the upper one (the odd rank is the upper group's last); `ring`: a periodic 1-D grid. */
static int run(int k, int rank, int n, int *a, int *b, int *cnt, int *dsp, MPI_Comm inter, MPI_Comm ring)
{
    int odd = rank == n - 1, m = odd ? 2 : 1; /* the odd rank's multiplier of counts */
    const char *nm = cases[k].name;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Request r;
    int rc;
    for (int i = 0; i < n; i++) {
        cnt[i] = m;
        dsp[i] = 2 * i;
    }
    if (!strcmp(nm, "bcast_eager"))
        return MPI_Bcast(a, 5 * m, MPI_INT, 0, w);
    if (!strcmp(nm, "bcast_medium"))
        return MPI_Bcast(a, 1000 + m, MPI_INT, 0, w);
    if (!strcmp(nm, "bcast_large"))
        return MPI_Bcast(a, BIG + m, MPI_INT, 0, w);
    if (!strcmp(nm, "bcast_straddle")) /* 32000 and 32800 bytes: synchronized once and in slices, twice */
        return MPI_Bcast(a, odd ? 8200 : 8000, MPI_INT, 0, w);
    if (!strcmp(nm, "allreduce"))
        return MPI_Allreduce(a, b, 5 * m, MPI_INT, MPI_SUM, w);
    if (!strcmp(nm, "allreduce_type")) /* same count, 4 against 8 bytes */
        return MPI_Allreduce(a, b, 3, odd ? MPI_DOUBLE : MPI_INT, MPI_MAX, w);
    if (!strcmp(nm, "allreduce_kind")) /* same sizes, but an integer sum is folded per PE, a float sum is not:
                                         * the ranks would read partial results nobody computed */
        return MPI_Allreduce(a, b, 3, odd ? MPI_FLOAT : MPI_INT, MPI_SUM, w);
    if (!strcmp(nm, "allreduce_fold")) /* doubles, 2 KB: folded over all ranks, in slices */
        return MPI_Allreduce(a, b, 256 + m, MPI_DOUBLE, MPI_SUM, w);
    if (!strcmp(nm, "allreduce_large"))
        return MPI_Allreduce(a, b, BIG / 2 + m, MPI_DOUBLE, MPI_SUM, w);
    if (!strcmp(nm, "reduce_type"))
        return MPI_Reduce(a, b, 4, odd ? MPI_DOUBLE : MPI_INT, MPI_SUM, 0, w);
    if (!strcmp(nm, "allgather"))
        return MPI_Allgather(a, m, MPI_INT, b, m, MPI_INT, w);
    if (!strcmp(nm, "allgather_large"))
        return MPI_Allgather(a, 4096 + m, MPI_INT, b, 4096 + m, MPI_INT, w);
    if (!strcmp(nm, "alltoall"))
        return MPI_Alltoall(a, m, MPI_INT, b, m, MPI_INT, w);
    if (!strcmp(nm, "alltoall_large"))
        return MPI_Alltoall(a, 4096 + m, MPI_INT, b, 4096 + m, MPI_INT, w);
    if (!strcmp(nm, "alltoall_self")) /* the odd rank sends blocks of 2, expects blocks of 1 */
        return MPI_Alltoall(a, 2, MPI_INT, b, odd ? 1 : 2, MPI_INT, w);
    if (!strcmp(nm, "gather"))
        return MPI_Gather(a, m, MPI_INT, b, 1, MPI_INT, 0, w);
    if (!strcmp(nm, "gatherv")) {
        for (int i = 0; i < n; i++)
            cnt[i] = 1;
        return MPI_Gatherv(a, m, MPI_INT, b, cnt, dsp, MPI_INT, 0, w);
    }
    if (!strcmp(nm, "scatter"))
        return MPI_Scatter(a, 1, MPI_INT, b, m, MPI_INT, 0, w);
    if (!strcmp(nm, "scatterv")) {
        for (int i = 0; i < n; i++)
            cnt[i] = 1;
        return MPI_Scatterv(a, cnt, dsp, MPI_INT, b, m, MPI_INT, 0, w);
    }
    if (!strcmp(nm, "gather_self")) /* the odd rank is the root; its own block: 1 sent, 2 expected */
        return MPI_Gather(a, 1, MPI_INT, b, odd ? 2 : 1, MPI_INT, n - 1, w);
    if (!strcmp(nm, "reduce_scatter_block"))
        return MPI_Reduce_scatter_block(a, b, m, MPI_INT, MPI_SUM, w);
    if (!strcmp(nm, "reduce_scatter")) /* the odd rank's counts are all 2 */
        return MPI_Reduce_scatter(a, b, cnt, MPI_INT, MPI_SUM, w);
    if (!strcmp(nm, "scan"))
        return MPI_Scan(a, b, 3 * m, MPI_INT, MPI_SUM, w);
    if (!strcmp(nm, "exscan"))
        return MPI_Exscan(a, b, 3 * m, MPI_INT, MPI_SUM, w);
    if (!strcmp(nm, "inter_bcast")) { /* from the lower group's rank 0 */
        int root = rank < n / 2 ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        return MPI_Bcast(a, 5 * m, MPI_INT, root, inter);
    }
    if (!strcmp(nm, "inter_allgather"))
        return MPI_Allgather(a, m, MPI_INT, b, m, MPI_INT, inter);
    if (!strcmp(nm, "neighbor_allgather"))
        return MPI_Neighbor_allgather(a, m, MPI_INT, b, m, MPI_INT, ring);
    if (!strcmp(nm, "ibcast"))
        rc = MPI_Ibcast(a, 5 * m, MPI_INT, 0, w, &r);
    else if (!strcmp(nm, "iallreduce"))
        rc = MPI_Iallreduce(a, b, 5 * m, MPI_INT, MPI_SUM, w, &r);
    else if (!strcmp(nm, "ireduce"))
        rc = MPI_Ireduce(a, b, 3, odd ? MPI_DOUBLE : MPI_INT, MPI_SUM, 0, w, &r);
    else if (!strcmp(nm, "iallgather"))
        rc = MPI_Iallgather(a, m, MPI_INT, b, m, MPI_INT, w, &r);
    else if (!strcmp(nm, "ialltoall"))
        rc = MPI_Ialltoall(a, m, MPI_INT, b, m, MPI_INT, w, &r);
    else if (!strcmp(nm, "igather"))
        rc = MPI_Igather(a, m, MPI_INT, b, 1, MPI_INT, 0, w, &r);
    else if (!strcmp(nm, "iscatter"))
        rc = MPI_Iscatter(a, 1, MPI_INT, b, m, MPI_INT, 0, w, &r);
    else if (!strcmp(nm, "ineighbor_alltoall"))
        rc = MPI_Ineighbor_alltoall(a, m, MPI_INT, b, m, MPI_INT, ring, &r);
    else if (!strcmp(nm, "iscan"))
        rc = MPI_Iscan(a, b, 3 * m, MPI_INT, MPI_SUM, w, &r);
    else
        return MPI_ERR_OTHER;
    return rc != MPI_SUCCESS ? rc : MPI_Wait(&r, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    /* room for every case: BIG + 2 ints, 2 * n blocks of 4098 ints */
    size_t words = (size_t)(BIG + 2 > 4098 * 2 * n ? BIG + 2 : 4098 * 2 * n);
    int *a = mt_malloc(sizeof(int) * words), *b = mt_malloc(sizeof(int) * words);
    int *cnt = mt_malloc(sizeof(int) * (size_t)n), *dsp = mt_malloc(sizeof(int) * (size_t)n);
    for (size_t i = 0; i < words; i++)
        a[i] = (int)(i % 7);
    const char *fatal = getenv("MT_MISMATCH_FATAL");
    if (fatal) { /* the default handler: this call must end the job */
        for (int k = 0; k < NCASES; k++)
            if (!strcmp(cases[k].name, fatal))
                run(k, rank, n, a, b, cnt, dsp, MPI_COMM_NULL, MPI_COMM_NULL);
        MPI_Barrier(MPI_COMM_WORLD); /* ranks that could not tell wait here for the job's end */
        MT_ERR(errs, "MT_MISMATCH_FATAL=%s: the job went on", fatal);
        return mt_finish(errs);
    }
    MPI_Comm inter = MPI_COMM_NULL, ring = MPI_COMM_NULL, half;
    if (n > 1) {
        int dims = n, periods = 1;
        MT_CHECK_RC(errs, MPI_Comm_split(MPI_COMM_WORLD, rank >= n / 2, rank, &half));
        MT_CHECK_RC(errs, MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank < n / 2 ? n / 2 : 0, 7, &inter));
        MT_CHECK_RC(errs, MPI_Comm_free(&half));
        MT_CHECK_RC(errs, MPI_Cart_create(MPI_COMM_WORLD, 1, &dims, &periods, 0, &ring));
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int k = 0; k < NCASES; k++) {
        if (n == 1 && !cases[k].self)
            continue;
        int rc = run(k, rank, n, a, b, cnt, dsp, inter, ring), cls = MPI_SUCCESS;
        if (rc != MPI_SUCCESS)
            MPI_Error_class(rc, &cls);
        MT_CHECK(errs, cls == MPI_SUCCESS || cls == MPI_ERR_TRUNCATE, "%s: error class %d", cases[k].name, cls);
        int got = cls == MPI_ERR_TRUNCATE, any = 0;
        /* the communicator still works (and ranks that failed early do not meet the next case) */
        MT_CHECK_RC(errs, MPI_Allreduce(&got, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
        MT_CHECK(errs, any == 1, "%s: no rank reported the mismatch", cases[k].name);
        int root = !strcmp(cases[k].name, "gather_self") ? n - 1 : 0;
        int must = cases[k].who == WHO_ALL || (cases[k].who == WHO_ODD && rank == n - 1) ||
                   (cases[k].who == WHO_ROOT && rank == root);
        MT_CHECK(errs, !must || got, "%s: expected MPI_ERR_TRUNCATE, got class %d", cases[k].name, cls);
    }
    /* a pair of 2 INT against 1 DOUBLE has the same size: not detected (MPI only asks for a signature
     * match, which this is not, but nothing tells the sizes apart) */
    int rc = MPI_Allreduce(a, b, rank == n - 1 ? 1 : 2, rank == n - 1 ? MPI_DOUBLE : MPI_INT, MPI_MAX,
                           MPI_COMM_WORLD);
    MT_CHECK(errs, rc == MPI_SUCCESS, "2 INT against 1 DOUBLE: code %d", rc);
    if (n > 1) {
        MT_CHECK_RC(errs, MPI_Comm_free(&inter));
        MT_CHECK_RC(errs, MPI_Comm_free(&ring));
    }
    free(a);
    free(b);
    free(cnt);
    free(dsp);
    return mt_finish(errs);
}
