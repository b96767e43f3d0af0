/* SPDX-License-Identifier: BSD-3-Clause */
/* A rank that waits for a value by polling a window with RMA calls lets the rank that will write the value
 * run.  Under vmpi both may be threads of one PE, switched only inside the runtime, so the polling calls
 * must give the PE away now and then, as MPI_Test and MPI_Iprobe do; under any MPI the program is correct
 * (MPI-3.1 11.7.3: the writer is not blocked) and must end.
 * Ranks pair up (0,1), (2,3)... (an odd last rank sits out), each pair with a window of its own.  For each
 * polling style, the poller sends a message to the writer and starts polling; the writer, blocked in MPI_Recv
 * until then, sets the flag; so on one PE the poller is certainly polling before the writer can run.
 * Styles, all in a lock_all epoch except the lock/unlock one:
 *   Fetch_and_op MPI_NO_OP + Win_flush; Get + Win_flush; Get_accumulate MPI_NO_OP + Win_flush_local;
 *   Compare_and_swap + Win_flush_all; Rget + MPI_Wait; Win_lock(shared) + Get + Win_unlock; and a load of
 *   the poller's own window with Win_sync (the writer Puts into it: the unified-model idiom of MPI-3.1
 *   11.7, shared-memory windows' usual synchronization).
 * A hang is the failure (the testlist's timeout). */
#include "mtest.h"

enum { STYLES = 7 };
static const char *const style_name[STYLES] = {"Fetch_and_op NO_OP + flush", "Get + flush",
                                              "Get_accumulate NO_OP + flush_local", "Compare_and_swap + flush_all",
                                              "Rget + Wait", "lock + Get + unlock", "load + Win_sync"};

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* one window per pair: another pair's lock_all must not queue behind this pair's exclusive lock while
     * the rank holding it waits for a message (a lock may block until granted, MPI-3.1 11.5.3) */
    MPI_Comm pair;
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &pair);
    int64_t *base;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(STYLES * sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL, pair, &base, &win));
    memset(base, 0, STYLES * sizeof(int64_t));
    MPI_Barrier(MPI_COMM_WORLD);
    int paired = rank < size - size % 2, poller = rank % 2 == 0, peer = 1 - rank % 2, me = rank % 2;
    MPI_Comm comm = pair; /* ranks in the pair: the poller is 0, the writer 1 */
    for (int s = 0; s < STYLES && paired; s++) {
        int64_t want = 100 + s, got = 0, none = 0, zero = 0;
        long polls = 0;
        if (s != 5)
            MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
        if (poller) {
            MT_CHECK_RC(errs, MPI_Send(&s, 1, MPI_INT, peer, s, comm));
            while (got != want) {
                polls++;
                switch (s) {
                case 0:
                    MT_CHECK_RC(errs, MPI_Fetch_and_op(&none, &got, MPI_INT64_T, peer, s, MPI_NO_OP, win));
                    MT_CHECK_RC(errs, MPI_Win_flush(peer, win));
                    break;
                case 1:
                    MT_CHECK_RC(errs, MPI_Get(&got, 1, MPI_INT64_T, peer, s, 1, MPI_INT64_T, win));
                    MT_CHECK_RC(errs, MPI_Win_flush(peer, win));
                    break;
                case 2:
                    MT_CHECK_RC(errs, MPI_Get_accumulate(NULL, 0, MPI_INT64_T, &got, 1, MPI_INT64_T, peer, s, 1,
                                                         MPI_INT64_T, MPI_NO_OP, win));
                    MT_CHECK_RC(errs, MPI_Win_flush_local(peer, win));
                    break;
                case 3: /* swaps 0 for 0: reads the value */
                    MT_CHECK_RC(errs, MPI_Compare_and_swap(&zero, &zero, &got, MPI_INT64_T, peer, s, win));
                    MT_CHECK_RC(errs, MPI_Win_flush_all(win));
                    break;
                case 4: {
                    MPI_Request r;
                    MT_CHECK_RC(errs, MPI_Rget(&got, 1, MPI_INT64_T, peer, s, 1, MPI_INT64_T, win, &r));
                    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
                    break;
                }
                case 5:
                    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win));
                    MT_CHECK_RC(errs, MPI_Get(&got, 1, MPI_INT64_T, peer, s, 1, MPI_INT64_T, win));
                    MT_CHECK_RC(errs, MPI_Win_unlock(peer, win));
                    break;
                case 6:
                    MT_CHECK_RC(errs, MPI_Win_sync(win));
                    got = __atomic_load_n(&base[s], __ATOMIC_ACQUIRE);
                    if (MT_MPICH_BUGS) { /* MPICH 4.0 (ch4:ucx) completes the Put only when this target enters
                                          * its progress engine, which Win_sync does not */
                        int f;
                        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &f, MPI_STATUS_IGNORE);
                    }
                    break;
                }
                if (errs)
                    break;
            }
            MT_CHECK(errs, polls >= 1, "%s: polled %ld times", style_name[s], polls);
        } else {
            int x;
            MT_CHECK_RC(errs, MPI_Recv(&x, 1, MPI_INT, peer, s, comm, MPI_STATUS_IGNORE));
            if (s == 5)
                MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, me, 0, win));
            if (s == 6) { /* into the poller's window */
                MT_CHECK_RC(errs, MPI_Put(&want, 1, MPI_INT64_T, peer, s, 1, MPI_INT64_T, win));
                MT_CHECK_RC(errs, MPI_Win_flush(peer, win));
            } else {
                MT_CHECK_RC(errs, MPI_Accumulate(&want, 1, MPI_INT64_T, me, s, 1, MPI_INT64_T, MPI_REPLACE, win));
                MT_CHECK_RC(errs, MPI_Win_flush(me, win));
            }
            if (s == 5)
                MT_CHECK_RC(errs, MPI_Win_unlock(me, win));
        }
        if (s != 5)
            MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
    }
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    MPI_Comm_free(&pair);
    return mt_finish(errs);
}
