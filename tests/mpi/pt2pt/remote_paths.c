/* SPDX-License-Identifier: BSD-3-Clause */
/* Point-to-point between processes takes the remote protocols, and only then.  Run in the emulated
 * multi-process mode (vmpirun --emulate-procs K): rank 0 exchanges messages with a rank of its own process
 * and with one of another process while every other rank waits in MPI_Recv (so no other traffic moves), and
 * reads the transport's counts (VMPIX_Transport_counts_get) around each exchange:
 *   - within the process nothing crosses;
 *   - eager messages cross as active messages carrying their bytes;
 *   - rendezvous (large, contiguous or not, and synchronous sends) cross as a request to send plus a get of
 *     the whole message, and the data arrives intact and in order;
 *   - a rendezvous send cancelled before the peer receives it is taken back across the processes;
 *   - MPI_ANY_SOURCE receives and probes see messages of both kinds.
 * In a one-process job the counts must stay zero. */
#include <mpi.h>
#include "mtest.h"

#define BIG (1 << 20)

static VMPIX_Transport_counts counts(void)
{
    VMPIX_Transport_counts c;
    MT_CALL(VMPIX_Transport_counts_get(&c));
    return c;
}

static void fill(int *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        b[i] = seed * 7919 + i;
}

static int check(const int *b, int n, int seed, const char *what)
{
    for (int i = 0; i < n; i++)
        if (b[i] != seed * 7919 + i) {
            fprintf(stderr, "rank 0: %s: element %d is %d, expected %d\n", what, i, b[i], seed * 7919 + i);
            return 1;
        }
    return 0;
}

/* The peer's side: echoes what rank 0 sends until told to stop (tag 99). */
static int echo(void)
{
    int *buf = malloc(sizeof(int) * BIG), errs = 0;
    for (;;) {
        MPI_Status st;
        MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        int n;
        MPI_Get_count(&st, MPI_INT, &n);
        MPI_Recv(buf, n, MPI_INT, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (st.MPI_TAG == 99)
            break;
        if (st.MPI_TAG == 6) { /* receive only tag 8 now: a tag-7 message waits unexpected meanwhile */
            MPI_Recv(buf, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            continue;
        }
        if (st.MPI_TAG == 5) /* the synchronous send's echo */
            MPI_Ssend(buf, n, MPI_INT, 0, 5, MPI_COMM_WORLD);
        else
            MPI_Send(buf, n, MPI_INT, 0, st.MPI_TAG, MPI_COMM_WORLD);
    }
    free(buf);
    return errs;
}

static int exchange(int peer, int n, int tag, int seed, const char *what)
{
    int *s = malloc(sizeof(int) * (size_t)(n ? n : 1)), *r = malloc(sizeof(int) * (size_t)(n ? n : 1));
    fill(s, n, seed);
    if (tag == 5)
        MPI_Ssend(s, n, MPI_INT, peer, tag, MPI_COMM_WORLD);
    else
        MPI_Send(s, n, MPI_INT, peer, tag, MPI_COMM_WORLD);
    MPI_Status st;
    MPI_Recv(r, n, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    int errs = check(r, n, seed, what);
    if (st.MPI_SOURCE != peer || st.MPI_TAG != tag) {
        fprintf(stderr, "rank 0: %s: status says source %d tag %d\n", what, st.MPI_SOURCE, st.MPI_TAG);
        errs++;
    }
    free(s);
    free(r);
    return errs;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, errs = 0, nprocs, me_proc;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CALL(VMPIX_Proc_of(0, &me_proc, &nprocs));
    int local = -1, remote = -1; /* a rank in rank 0's process, one in another */
    for (int r = 1; r < size; r++) {
        int p, np;
        MT_CALL(VMPIX_Proc_of(r, &p, &np));
        if (p == me_proc && local < 0)
            local = r;
        if (p != me_proc)
            remote = r;
    }
    if (nprocs > 1 && remote < 0) {
        fprintf(stderr, "rank 0: %d processes but no rank outside process %d\n", nprocs, me_proc);
        errs++;
    }
    /* MPI_Init may synchronize (a shared-memory barrier wakes the PEs of other processes with messages):
     * every rank reports to rank 0 once it is out, so that nothing of it is in flight when rank 0 starts
     * counting */
    int token = rank;
    if (rank != 0)
        MPI_Send(&token, 1, MPI_INT, 0, 97, MPI_COMM_WORLD);
    else
        for (int r = 1; r < size; r++)
            MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, 97, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank != 0 && rank != local && rank != remote) {
        int go;
        MPI_Recv(&go, 1, MPI_INT, 0, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return mt_finish(errs);
    }
    if (rank != 0) {
        errs += echo();
        return mt_finish(errs);
    }
    VMPIX_Transport_counts c0 = counts(), c1;
    if (local > 0) {
        errs += exchange(local, 10, 1, 1, "eager within the process");
        errs += exchange(local, BIG, 2, 2, "rendezvous within the process");
        errs += exchange(local, 100, 5, 3, "synchronous within the process");
        c1 = counts();
        if (c1.am != c0.am || c1.get != c0.get) {
            fprintf(stderr, "rank 0: messages within a process crossed: %lld active messages, %lld gets\n",
                    c1.am - c0.am, c1.get - c0.get);
            errs++;
        }
        c0 = c1;
    }
    if (remote > 0) {
        errs += exchange(remote, 10, 1, 4, "eager between processes");
        c1 = counts();
        if (c1.am < c0.am + 2 || c1.am_bytes < c0.am_bytes + 80 || c1.get != c0.get) {
            fprintf(stderr, "rank 0: an eager exchange between processes: %lld active messages (%lld bytes), "
                    "%lld gets; expected 2 messages with the data, no get\n", c1.am - c0.am,
                    c1.am_bytes - c0.am_bytes, c1.get - c0.get);
            errs++;
        }
        c0 = c1;
        errs += exchange(remote, BIG, 2, 5, "rendezvous between processes");
        c1 = counts();
        if (c1.get < c0.get + 2 || c1.get_bytes < c0.get_bytes + 2ll * BIG * (long long)sizeof(int) ||
            c1.am_bytes - c0.am_bytes > 4096) {
            fprintf(stderr, "rank 0: a rendezvous exchange between processes: %lld gets (%lld bytes), %lld "
                    "bytes of active messages; expected 2 gets of the data and small messages\n",
                    c1.get - c0.get, c1.get_bytes - c0.get_bytes, c1.am_bytes - c0.am_bytes);
            errs++;
        }
        c0 = c1;
        errs += exchange(remote, 100, 5, 6, "synchronous between processes");
        c1 = counts();
        if (c1.get < c0.get + 1) { /* the Ssend one way at least (the echo is synchronous too) */
            fprintf(stderr, "rank 0: a synchronous send between processes took no get\n");
            errs++;
        }
        /* a non-contiguous rendezvous: every other int of 2 * BIG */
        MPI_Datatype vec;
        MPI_Type_vector(BIG, 1, 2, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        int *s = malloc(sizeof(int) * 2 * BIG), *r = malloc(sizeof(int) * 2 * BIG);
        for (int i = 0; i < 2 * BIG; i++)
            s[i] = i % 2 ? -1 : 8 * 7919 + i / 2;
        MPI_Send(s, 1, vec, remote, 3, MPI_COMM_WORLD);
        for (int i = 0; i < 2 * BIG; i++)
            r[i] = -2;
        MPI_Recv(r, 1, vec, remote, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < 2 * BIG; i++)
            if (r[i] != (i % 2 ? -2 : 8 * 7919 + i / 2)) {
                fprintf(stderr, "rank 0: strided rendezvous: element %d is %d\n", i, r[i]);
                errs++;
                break;
            }
        MPI_Type_free(&vec);
        /* a cancelled rendezvous: the peer waits for tag 8 only, so the request to send waits in its
         * unexpected queue; cancelling takes it back */
        MPI_Request req;
        int one = 1;
        MPI_Send(&one, 1, MPI_INT, remote, 6, MPI_COMM_WORLD);
        MPI_Isend(s, BIG, MPI_INT, remote, 7, MPI_COMM_WORLD, &req);
        MPI_Cancel(&req);
        MPI_Status st;
        MPI_Wait(&req, &st);
        MPI_Send(&one, 1, MPI_INT, remote, 8, MPI_COMM_WORLD);
        int cancelled;
        MPI_Test_cancelled(&st, &cancelled);
        /* the peer probes by tag ANY: if the cancel failed it would echo tag 7 */
        errs += exchange(remote, 3, 4, 9, "after a cancel");
        if (!cancelled) {
            MPI_Recv(r, BIG, MPI_INT, remote, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            fprintf(stderr, "rank 0: a rendezvous send between processes could not be cancelled\n");
            errs++;
        }
        free(s);
        free(r);
    }
    if (nprocs == 1) {
        c1 = counts();
        if (c1.am || c1.get || c1.put || c1.atomic) {
            fprintf(stderr, "rank 0: a one-process job counts %lld remote messages\n", c1.am);
            errs++;
        }
    }
    int stop = 0;
    if (local > 0)
        MPI_Send(&stop, 1, MPI_INT, local, 99, MPI_COMM_WORLD);
    if (remote > 0)
        MPI_Send(&stop, 1, MPI_INT, remote, 99, MPI_COMM_WORLD);
    for (int r = 1; r < size; r++)
        if (r != local && r != remote)
            MPI_Send(&stop, 1, MPI_INT, r, 98, MPI_COMM_WORLD);
    return mt_finish(errs);
}
