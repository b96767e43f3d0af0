/* SPDX-License-Identifier: BSD-3-Clause */
/* Checkpoint/restart (issue 6): runtime objects made before a checkpoint and used after it, each checked
 * exactly, in the job that took the checkpoint and in a job restarted from it (tests/tools/ckpt.sh kills the
 * first and restarts it on other PE counts):
 *   - a non-commutative user reduction (2x2 matrix products, in rank order), the same as an MPI_Op_create_c
 *     operation (an MPI_Count length) used by MPI_Allreduce_c, a user error handler on a
 *     communicator (it must run, with the error), a user error class, code and string;
 *   - an intercommunicator, a Comm_split_type communicator, a group, names of a communicator and a datatype,
 *     a datatype attribute whose delete callback runs when the type is freed, an info object, a datatype made
 *     by a large-count constructor (its envelope of large counts, and in communication);
 *   - a buffered send whose message is received after the checkpoint, and the attached buffer detached after it;
 *   - in flight across the checkpoint: an Ibarrier, a Comm_idup, a generalized request completed after it
 *     (its query and free callbacks run once, with their extra state);
 *   - a line printed before the checkpoint is out when the job is killed after it, flushed or not, and a line
 *     started before it is finished after it, in a restarted job too (tools/ckpt.sh);
 *   - a session (MPI-4.1 11.3) with a user session error handler and its hints, a communicator made from its
 *     mpi://WORLD group and an intercommunicator from two groups; after the checkpoint they work and a new
 *     communicator from a group agrees on a context in the restarted job;
 *   - AMPI_Set_migratable(0) on rank 1: under VMPI_BALANCER=Rotate a migration after the checkpoint moves
 *     every other rank and leaves rank 1 where it is.
 * The callbacks count their calls in globals, which this area's programs may use (privatized: per rank).
 *
 *   ckpt_objects DIR [kill]: checkpoint into DIR; with `kill`, a job that was not restarted is killed
 *   (SIGKILL) right after the checkpoint.  Without arguments (the testlist): into a fresh directory, removed
 *   at the end, and the job goes on; sanitizer builds, which refuse checkpoints to files, only migrate. */
#include "ckpt_test.h"

enum { MOD = 65521, TAG_BSEND = 3, TAG_INTER = 4 };

/* callbacks' counts (this rank's) */
static int eh_calls, eh_last_code, tdel_calls, gq_calls, gf_calls;

/* 2x2 matrices mod MOD: in (the lower ranks' product) times inout */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int *a = in, *b = inout;
    for (int k = 0; k < *len; k += 4) {
        int r[4] = {(a[k] * b[k] + a[k + 1] * b[k + 2]) % MOD, (a[k] * b[k + 1] + a[k + 1] * b[k + 3]) % MOD,
                    (a[k + 2] * b[k] + a[k + 3] * b[k + 2]) % MOD, (a[k + 2] * b[k + 1] + a[k + 3] * b[k + 3]) % MOD};
        memcpy(b + k, r, sizeof r);
    }
}
/* the same with the large-count function type */
static void matmul_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    int n = (int)*len;
    matmul(in, inout, &n, dt);
}
static void rank_matrix(int r, int m[4])
{
    m[0] = r + 1;
    m[1] = 1;
    m[2] = 1;
    m[3] = r % 3;
}

static void on_error(MPI_Comm *comm, int *code, ...)
{
    eh_calls++;
    eh_last_code = *code;
}

static int serr_calls;
static void on_session_error(MPI_Session *s, int *code, ...)
{
    (void)s, (void)code;
    serr_calls++;
}

static int type_delete(MPI_Datatype t, int key, void *val, void *extra)
{
    tdel_calls++;
    return MPI_SUCCESS;
}

struct gstate {
    int magic, value;
};
static int gquery(void *extra, MPI_Status *st)
{
    struct gstate *g = extra;
    gq_calls++;
    MPI_Status_set_elements(st, MPI_INT, g->magic == 0x6e9 ? g->value : -1);
    MPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = MPI_UNDEFINED;
    st->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}
static int gfree(void *extra)
{
    gf_calls++;
    free(extra);
    return MPI_SUCCESS;
}
static int gcancel(void *extra, int complete) { return MPI_SUCCESS; }

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int *npes_p, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &npes_p, &flag);
    int npes = flag ? *npes_p : 1;
    const char *lb = getenv("VMPI_BALANCER");
    int rotate = lb && !strcmp(lb, "Rotate");

    ckpt_test t;
    ckpt_test_open(&t, argc, argv, "ckpt_objects");

    /* ---- made before the checkpoint ---- */
    MPI_Op op;
    MT_CHECK_RC(errs, MPI_Op_create(matmul, 0, &op));
    MPI_Op op_c;
    MT_CHECK_RC(errs, MPI_Op_create_c(matmul_c, 0, &op_c));
    MPI_Errhandler eh;
    MT_CHECK_RC(errs, MPI_Comm_create_errhandler(on_error, &eh));
    MPI_Comm dup, half, node, inter = MPI_COMM_NULL, idup = MPI_COMM_NULL;
    MT_CHECK_RC(errs, MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MT_CHECK_RC(errs, MPI_Comm_set_errhandler(dup, eh));
    MT_CHECK_RC(errs, MPI_Comm_set_name(dup, "ckpt-dup"));
    MT_CHECK_RC(errs, MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half));
    if (size >= 2)
        MT_CHECK_RC(errs, MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, TAG_INTER, &inter));
    MT_CHECK_RC(errs, MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    /* its members are the ranks of this rank's process now: a job restarted on another number of processes
     * keeps the communicator as it was made */
    int here_sum, here = mt_proc_ranks(rank, size, &here_sum);
    MPI_Group wg, last;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int incl[1] = {size - 1};
    MT_CHECK_RC(errs, MPI_Group_incl(wg, 1, incl, &last));
    int eclass, ecode;
    MT_CHECK_RC(errs, MPI_Add_error_class(&eclass));
    MT_CHECK_RC(errs, MPI_Add_error_code(eclass, &ecode));
    MT_CHECK_RC(errs, MPI_Add_error_string(ecode, "ckpt_objects: a user error"));
    int tkey;
    MT_CHECK_RC(errs, MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_delete, &tkey, NULL));
    MPI_Datatype three;
    MT_CHECK_RC(errs, MPI_Type_contiguous(3, MPI_INT, &three));
    MT_CHECK_RC(errs, MPI_Type_commit(&three));
    MT_CHECK_RC(errs, MPI_Type_set_attr(three, tkey, (void *)(intptr_t)(rank + 5)));
    MT_CHECK_RC(errs, MPI_Type_set_name(three, "three-ints"));
    MPI_Datatype lc; /* 2 ints, a gap of 3, 1 int */
    const MPI_Count lcbl[2] = {2, 1}, lcdis[2] = {0, 5 * (MPI_Count)sizeof(int)};
    MT_CHECK_RC(errs, MPI_Type_create_hindexed_c(2, lcbl, lcdis, MPI_INT, &lc));
    MT_CHECK_RC(errs, MPI_Type_commit(&lc));
    MPI_Session sess;
    MPI_Errhandler seh;
    MPI_Comm scomm, sinter = MPI_COMM_NULL;
    MPI_Group sg, shalf, sother;
    MT_CHECK_RC(errs, MPI_Session_create_errhandler(on_session_error, &seh));
    MT_CHECK_RC(errs, MPI_Session_init(MPI_INFO_NULL, seh, &sess));
    MT_CHECK_RC(errs, MPI_Group_from_session_pset(sess, "mpi://WORLD", &sg));
    MT_CHECK_RC(errs, MPI_Comm_create_from_group(sg, "ckpt_objects.world", MPI_INFO_NULL, MPI_ERRORS_RETURN, &scomm));
    {
        int lo[1][3] = {{0, size / 2 - 1, 1}}, hi[1][3] = {{size / 2, size - 1, 1}};
        int upper = rank >= size / 2;
        MT_CHECK_RC(errs, MPI_Group_range_incl(sg, 1, upper ? hi : lo, &shalf));
        MT_CHECK_RC(errs, MPI_Group_difference(sg, shalf, &sother));
        if (size >= 2)
            MT_CHECK_RC(errs, MPI_Intercomm_create_from_groups(shalf, 0, sother, 0, "ckpt_objects.inter",
                                                               MPI_INFO_NULL, MPI_ERRORS_RETURN, &sinter));
    }
    MPI_Info keep;
    MPI_Info_create(&keep);
    MPI_Info_set(keep, "color", "blue");
    int bsize = 4096 + MPI_BSEND_OVERHEAD;
    char *bbuf = mt_malloc((size_t)bsize);
    MT_CHECK_RC(errs, MPI_Buffer_attach(bbuf, bsize));
    int bout = rank + 1000, bin = -1, right = (rank + 1) % size, left = (rank + size - 1) % size;
    MT_CHECK_RC(errs, MPI_Bsend(&bout, 1, MPI_INT, right, TAG_BSEND, MPI_COMM_WORLD));
    if (rank == 1)
        AMPI_Set_migratable(0);
    /* in flight */
    MPI_Request ib, idr, gr;
    MT_CHECK_RC(errs, MPI_Ibarrier(dup, &ib));
    MT_CHECK_RC(errs, MPI_Comm_idup(half, &idup, &idr));
    struct gstate *gs = mt_malloc(sizeof *gs);
    *gs = (struct gstate){0x6e9, 40 + rank};
    MT_CHECK_RC(errs, MPI_Grequest_start(gquery, gfree, gcancel, gs, &gr));

    /* ---- the checkpoint ---- */
    int restarted = 0;
    if (rank == 0) { /* written out by the checkpoint: a job killed after it keeps this line */
        printf("ckpt_objects: before the checkpoint\n");
        fflush(stdout);
    }
    /* every rank: a line not flushed, which the checkpoint writes out, and one it finishes after the
     * checkpoint, in the job that took it or in a restarted one (tools/ckpt.sh) */
    printf("ckpt_objects: rank %d, not flushed\n", rank);
    fprintf(stderr, "ckpt_objects: rank %d, started before the checkpoint,", rank); /* stdout has "restarted" */
    /* messages matched by MPI_Mprobe before the checkpoint and received after it: a small (eager) one and
     * a large (rendezvous) one, whose send is still pending across the checkpoint */
    enum { BIGN = 16384 };
    int mout = 700 + rank, min = -1, mleft = (rank + size - 1) % size, mright = (rank + 1) % size;
    int *bigout = mt_malloc(sizeof(int) * BIGN), *bigin = mt_malloc(sizeof(int) * BIGN);
    for (int i = 0; i < BIGN; i++)
        bigout[i] = rank * 100000 + i;
    MPI_Request msq[2];
    MPI_Message mmsg[2];
    MT_CHECK_RC(errs, MPI_Isend(&mout, 1, MPI_INT, mright, 77, MPI_COMM_WORLD, &msq[0]));
    MT_CHECK_RC(errs, MPI_Isend(bigout, BIGN, MPI_INT, mright, 78, MPI_COMM_WORLD, &msq[1]));
    MT_CHECK_RC(errs, MPI_Mprobe(mleft, 77, MPI_COMM_WORLD, &mmsg[0], MPI_STATUS_IGNORE));
    MT_CHECK_RC(errs, MPI_Mprobe(mleft, 78, MPI_COMM_WORLD, &mmsg[1], MPI_STATUS_IGNORE));

    restarted = ckpt_test_point(&t, MPI_INFO_NULL, "ckpt_objects", &errs);
    fprintf(stderr, " finished after it\n");

    MT_CHECK_RC(errs, MPI_Mrecv(bigin, BIGN, MPI_INT, &mmsg[1], MPI_STATUS_IGNORE));
    MT_CHECK_RC(errs, MPI_Mrecv(&min, 1, MPI_INT, &mmsg[0], MPI_STATUS_IGNORE));
    MT_CHECK_RC(errs, MPI_Waitall(2, msq, MPI_STATUSES_IGNORE));
    MT_CHECK_INT(errs, "small message matched before the checkpoint", 700 + mleft, min);
    int bad = 0;
    for (int i = 0; i < BIGN; i++)
        bad += bigin[i] != mleft * 100000 + i;
    MT_CHECK_INT(errs, "wrong elements of the large message matched before the checkpoint", 0, bad);
    free(bigout);
    free(bigin);

    /* ---- used after it ---- */
    MT_CHECK_RC(errs, MPI_Recv(&bin, 1, MPI_INT, left, TAG_BSEND, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MT_CHECK_INT(errs, "buffered message", left + 1000, bin);
    void *ob = NULL;
    int osz = -1;
    MT_CHECK_RC(errs, MPI_Buffer_detach(&ob, &osz));
    MT_CHECK(errs, ob == bbuf && osz == bsize, "Buffer_detach: %p, %d bytes; expected %p, %d", ob, osz,
             (void *)bbuf, bsize);
    MT_CHECK_RC(errs, MPI_Wait(&ib, MPI_STATUS_IGNORE));
    MT_CHECK_RC(errs, MPI_Wait(&idr, MPI_STATUS_IGNORE));
    int isz = -1, hsz = -1, isum = -1, wsum = 0;
    MPI_Comm_size(idup, &isz);
    MPI_Comm_size(half, &hsz);
    MT_CHECK_RC(errs, MPI_Allreduce(&rank, &isum, 1, MPI_INT, MPI_SUM, idup));
    for (int r = rank % 2; r < size; r += 2)
        wsum += r;
    MT_CHECK(errs, isz == hsz && isum == wsum, "Comm_idup's communicator: size %d (expected %d), sum %d (expected %d)",
             isz, hsz, isum, wsum);
    MT_CHECK_RC(errs, MPI_Grequest_complete(gr));
    MPI_Status st;
    MT_CHECK_RC(errs, MPI_Wait(&gr, &st));
    int gcount = -1;
    MPI_Get_elements(&st, MPI_INT, &gcount);
    MT_CHECK_INT(errs, "generalized request's count (from its query callback)", 40 + rank, gcount);
    MT_CHECK_INT(errs, "generalized request's query calls", 1, gq_calls);
    MT_CHECK_INT(errs, "generalized request's free calls", 1, gf_calls);

    int m[4], p[4] = {1, 0, 0, 1}, want[4] = {1, 0, 0, 1};
    rank_matrix(rank, m);
    for (int r = 0; r < size; r++) {
        int mr[4], len = 4;
        rank_matrix(r, mr);
        matmul(want, mr, &len, NULL); /* mr = want * mr */
        memcpy(want, mr, sizeof want);
    }
    MT_CHECK_RC(errs, MPI_Allreduce(m, p, 4, MPI_INT, op, MPI_COMM_WORLD));
    MT_CHECK(errs, !memcmp(p, want, sizeof p), "user operation: [%d %d %d %d], expected [%d %d %d %d]", p[0], p[1],
             p[2], p[3], want[0], want[1], want[2], want[3]);
    memcpy(p, (int[4]){1, 0, 0, 1}, sizeof p);
    MT_CHECK_RC(errs, MPI_Allreduce_c(m, p, 4, MPI_INT, op_c, MPI_COMM_WORLD));
    MT_CHECK(errs, !memcmp(p, want, sizeof p), "MPI_Op_create_c operation: [%d %d %d %d], expected [%d %d %d %d]",
             p[0], p[1], p[2], p[3], want[0], want[1], want[2], want[3]);

    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Comm_get_name(dup, name, &len);
    MT_CHECK(errs, !strcmp(name, "ckpt-dup"), "communicator name '%s'", name);
    MPI_Type_get_name(three, name, &len);
    MT_CHECK(errs, !strcmp(name, "three-ints"), "datatype name '%s'", name);
    int x = 0, rc = MPI_Send(&x, 1, MPI_INT, size + 5, 0, dup); /* a rank that does not exist */
    MT_CHECK(errs, eh_calls == 1 && eh_last_code == rc && rc != MPI_SUCCESS,
             "user error handler: %d calls, code %d, MPI_Send returned %d", eh_calls, eh_last_code, rc);
    char es[MPI_MAX_ERROR_STRING];
    int cls = -1;
    MPI_Error_string(ecode, es, &len);
    MPI_Error_class(ecode, &cls);
    MT_CHECK(errs, !strcmp(es, "ckpt_objects: a user error") && cls == eclass,
             "user error code: string '%s', class %d (expected %d)", es, cls, eclass);
    MPI_Count lni = -1, lna = -1, lnl = -1, lnd = -1, lsz = -1, lcounts[5] = {0};
    int lcomb = -1, i1, i2, i3, i4;
    MPI_Aint lad;
    MPI_Datatype ldt = MPI_DATATYPE_NULL;
    MT_CHECK_RC(errs, MPI_Type_get_envelope_c(lc, &lni, &lna, &lnl, &lnd, &lcomb));
    MT_CHECK(errs, lni == 0 && lna == 0 && lnl == 5 && lnd == 1 && lcomb == MPI_COMBINER_HINDEXED,
             "hindexed_c type: envelope (%lld, %lld, %lld, %lld, combiner %d)", (long long)lni, (long long)lna,
             (long long)lnl, (long long)lnd, lcomb);
    MT_CHECK_RC(errs, MPI_Type_get_contents_c(lc, 0, 0, 5, 1, &i1, &lad, lcounts, &ldt));
    MT_CHECK(errs, lcounts[0] == 2 && lcounts[1] == 2 && lcounts[2] == 1 && lcounts[3] == 0 &&
                       lcounts[4] == 5 * (MPI_Count)sizeof(int) && ldt == MPI_INT,
             "hindexed_c type: contents %lld %lld %lld %lld %lld", (long long)lcounts[0], (long long)lcounts[1],
             (long long)lcounts[2], (long long)lcounts[3], (long long)lcounts[4]);
    MT_CHECK_CLASS(errs, MPI_Type_get_envelope(lc, &i1, &i2, &i3, &i4), MPI_ERR_TYPE);
    MT_CHECK_RC(errs, MPI_Type_size_c(lc, &lsz));
    MT_CHECK_INT(errs, "hindexed_c type's size", 3 * sizeof(int), lsz);
    int lout[6], lin[3] = {-1, -1, -1};
    for (int i = 0; i < 6; i++)
        lout[i] = rank * 10 + i;
    MT_CHECK_RC(errs, MPI_Sendrecv(lout, 1, lc, right, 9, lin, 3, MPI_INT, left, 9, MPI_COMM_WORLD,
                                   MPI_STATUS_IGNORE));
    MT_CHECK(errs, lin[0] == left * 10 && lin[1] == left * 10 + 1 && lin[2] == left * 10 + 5,
             "hindexed_c type in communication: %d %d %d", lin[0], lin[1], lin[2]);
    MT_CHECK_RC(errs, MPI_Type_free(&lc));
    void *av = NULL;
    flag = 0;
    MPI_Type_get_attr(three, tkey, &av, &flag);
    MT_CHECK(errs, flag && (intptr_t)av == rank + 5, "datatype attribute: flag %d, value %ld", flag, (long)(intptr_t)av);
    int grank = -2;
    MPI_Group_rank(last, &grank);
    MT_CHECK_INT(errs, "rank in the group of the last rank", rank == size - 1 ? 0 : MPI_UNDEFINED, grank);
    if (inter != MPI_COMM_NULL) {
        int rsize = -1, rsum = -1, want_size = 0, want_sum = 0;
        MPI_Comm_remote_size(inter, &rsize);
        MT_CHECK_RC(errs, MPI_Allreduce(&rank, &rsum, 1, MPI_INT, MPI_SUM, inter));
        for (int r = 1 - rank % 2; r < size; r += 2) {
            want_size++;
            want_sum += r;
        }
        MT_CHECK(errs, rsize == want_size && rsum == want_sum,
                 "intercommunicator: remote size %d (expected %d), remote sum %d (expected %d)", rsize, want_size,
                 rsum, want_sum);
    }
    int nsize = -1, nsum = -1;
    MPI_Comm_size(node, &nsize);
    MT_CHECK_RC(errs, MPI_Allreduce(&rank, &nsum, 1, MPI_INT, MPI_SUM, node));
    MT_CHECK(errs, nsize == here && nsum == here_sum, "split_type communicator: size %d, sum %d", nsize, nsum);
    char iv[64] = "";
    flag = 0;
    MPI_Info_get(keep, "color", sizeof iv, iv, &flag);
    MT_CHECK(errs, flag && !strcmp(iv, "blue"), "info value '%s' (flag %d)", iv, flag);

    /* the session and its communicators; a new communicator from a group agrees on a context here */
    {
        int sum = -1, rsize = -1;
        MT_CHECK_RC(errs, MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, scomm));
        MT_CHECK_INT(errs, "allreduce on the session's communicator", size * (size - 1) / 2, sum);
        if (sinter != MPI_COMM_NULL) {
            int one = 1;
            MT_CHECK_RC(errs, MPI_Comm_remote_size(sinter, &rsize));
            MT_CHECK_RC(errs, MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, sinter));
            MT_CHECK_INT(errs, "intercommunicator allreduce (the remote group's size)", rsize, sum);
        }
        MPI_Comm again;
        MT_CHECK_RC(errs, MPI_Comm_create_from_group(sg, "ckpt_objects.again", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                                     &again));
        MT_CHECK_RC(errs, MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_MAX, again));
        MT_CHECK_INT(errs, "allreduce on a communicator made after the checkpoint", size - 1, sum);
        MPI_Group nowhere;
        MT_CHECK_CLASS(errs, MPI_Group_from_session_pset(sess, "mpi://NOWHERE", &nowhere), MPI_ERR_ARG);
        MT_CHECK_INT(errs, "session error handler calls", 1, serr_calls);
        MT_CHECK_RC(errs, MPI_Comm_free(&again));
        if (sinter != MPI_COMM_NULL)
            MT_CHECK_RC(errs, MPI_Comm_free(&sinter));
        MT_CHECK_RC(errs, MPI_Comm_free(&scomm));
        MPI_Group_free(&shalf);
        MPI_Group_free(&sother);
        MPI_Group_free(&sg);
        MT_CHECK_RC(errs, MPI_Session_finalize(&sess));
        MPI_Errhandler_free(&seh);
    }

    /* rank 1 is still not migratable: a migration under Rotate moves every rank but it (on this job's PEs:
     * a restarted job may have others) */
    flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &npes_p, &flag);
    npes = flag ? *npes_p : 1;
    int pe0 = mt_world_attr(AMPI_MY_WTH);
    mt_migrate();
    int pe1 = mt_world_attr(AMPI_MY_WTH);
    if (rotate && mt_proc_npes(npes) > 1 && (rank == 1 ? pe1 != pe0 : pe1 == pe0)) /* PEs of its process */
        MT_ERR(errs, "after the checkpoint (restarted %d), Rotate: PE %d -> %d", restarted, pe0, pe1);

    MT_CHECK_RC(errs, MPI_Type_free(&three));
    MT_CHECK_INT(errs, "datatype attribute delete calls", 1, tdel_calls);
    MPI_Type_free_keyval(&tkey);
    MPI_Info_free(&keep);
    MPI_Group_free(&last);
    MPI_Group_free(&wg);
    if (inter != MPI_COMM_NULL)
        MPI_Comm_free(&inter);
    MPI_Comm_free(&idup);
    MPI_Comm_free(&node);
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
    MPI_Errhandler_free(&eh);
    MPI_Op_free(&op);
    MPI_Op_free(&op_c);
    free(bbuf);
    ckpt_test_close(&t);
    return mt_finish(errs);
}
