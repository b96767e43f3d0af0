/* SPDX-License-Identifier: BSD-3-Clause */
/* One-sided communication between processes takes the remote way, and only then.  Run in the emulated
 * multi-process mode (vmpirun --emulate-procs K), every rank targets every rank with:
 *   - fence epochs: contiguous and strided puts, gets (large ones in many chunks), accumulates (a sum every
 *     rank adds to, a derived target type), and the sums are checked after the fence;
 *   - lock epochs: exclusive lock + Get_accumulate / Fetch_and_op / Compare_and_swap on a counter of rank 0
 *     by every rank (the total is checked), shared lock_all with flush and request-based forms;
 *   - passive target: rank 0 updates ranks while they do not call MPI.
 * The transport's one-sided counts (VMPIX_Transport_counts_get: whole puts and gets take the contract's put
 * and get) grow when there are several processes, and stay zero in a job of one. */
#include <mpi.h>
#include "mtest.h"

#define N 4096 /* ints per rank's window: a put of all of them is many chunks */

static uint64_t moved(void)
{
    VMPIX_Transport_counts c;
    MT_CALL(VMPIX_Transport_counts_get(&c));
    return c.get + c.put; /* contiguous puts and gets: the barriers' messages are active messages */
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, errs = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int me_proc, nprocs;
    MT_CALL(VMPIX_Proc_of(rank, &me_proc, &nprocs));
    int *base;
    MPI_Win win;
    MT_CALL(MPI_Win_allocate(sizeof(int) * (N + 2 * size + 4), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                             &win));
    int *data = base, *sums = base + N, *slots = base + N + size, *counter = base + N + 2 * size;
    for (int i = 0; i < N + 2 * size + 4; i++)
        base[i] = 0;
    uint64_t before = moved();
    MPI_Barrier(MPI_COMM_WORLD);

    /* fence: the right neighbour's data is put whole, every rank adds 1..size to sums, writes its rank in
     * slots[rank] with a strided (vector) target type of one element */
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *src = malloc(sizeof(int) * N), *got = malloc(sizeof(int) * N);
    for (int i = 0; i < N; i++)
        src[i] = rank * 100000 + i;
    MPI_Datatype every2;
    MPI_Type_vector(N / 2, 1, 2, MPI_INT, &every2);
    MPI_Type_commit(&every2);
    MT_CALL(MPI_Win_fence(0, win));
    MT_CALL(MPI_Put(src, N, MPI_INT, right, 0, N, MPI_INT, win));
    for (int t = 0; t < size; t++) {
        int one = rank + 1;
        MT_CALL(MPI_Accumulate(&one, 1, MPI_INT, t, N + rank % size, 1, MPI_INT, MPI_SUM, win));
        MT_CALL(MPI_Put(&rank, 1, MPI_INT, t, N + size + rank, 1, MPI_INT, win));
    }
    MT_CALL(MPI_Win_fence(0, win));
    for (int i = 0; i < N; i++)
        if (data[i] != left * 100000 + i) {
            if (errs++ < 5)
                fprintf(stderr, "rank %d: put: data[%d] = %d, expected %d\n", rank, i, data[i], left * 100000 + i);
        }
    for (int r = 0; r < size; r++)
        if (sums[r] != r + 1 || slots[r] != r) {
            if (errs++ < 5)
                fprintf(stderr, "rank %d: sums[%d] = %d, slots[%d] = %d\n", rank, r, sums[r], r, slots[r]);
        }
    /* gets: the left neighbour's data whole, then its even elements through the vector type */
    MT_CALL(MPI_Get(got, N, MPI_INT, left, 0, N, MPI_INT, win));
    MT_CALL(MPI_Win_fence(0, win));
    int ll = (left + size - 1) % size;
    for (int i = 0; i < N; i++)
        if (got[i] != ll * 100000 + i && errs++ < 5)
            fprintf(stderr, "rank %d: get: got[%d] = %d, expected %d\n", rank, i, got[i], ll * 100000 + i);
    MT_CALL(MPI_Get(got, N / 2, MPI_INT, left, 0, 1, every2, win));
    MT_CALL(MPI_Accumulate(src, 1, every2, left, 1, 1, every2, MPI_SUM, win)); /* odd elements += src's even ones */
    MT_CALL(MPI_Win_fence(0, win));
    for (int i = 0; i < N / 2; i++)
        if (got[i] != ll * 100000 + 2 * i && errs++ < 5)
            fprintf(stderr, "rank %d: strided get: got[%d] = %d\n", rank, i, got[i]);
    for (int i = 1; i < N; i += 2)
        if (data[i] != left * 100000 + i + right * 100000 + i - 1 && errs++ < 5)
            fprintf(stderr, "rank %d: strided accumulate: data[%d] = %d\n", rank, i, data[i]);
    MT_CALL(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

    /* exclusive locks on rank 0: fetch-and-add, compare-and-swap and get_accumulate of a counter */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < 10; k++) {
        int one = 1, old, two[2] = {1, 1}, oldtwo[2];
        MT_CALL(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        MT_CALL(MPI_Fetch_and_op(&one, &old, MPI_INT, 0, N + 2 * size, MPI_SUM, win));
        MT_CALL(MPI_Win_flush(0, win));
        int want = old + 1, now;
        MT_CALL(MPI_Compare_and_swap(&want, &want, &now, MPI_INT, 0, N + 2 * size, win)); /* no change */
        MT_CALL(MPI_Get_accumulate(two, 2, MPI_INT, oldtwo, 2, MPI_INT, 0, N + 2 * size + 1, 2, MPI_INT, MPI_SUM, win));
        MT_CALL(MPI_Win_unlock(0, win));
        if (now != old + 1 && errs++ < 5)
            fprintf(stderr, "rank %d: compare_and_swap read %d, expected %d\n", rank, now, old + 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && (counter[0] != 10 * size || counter[1] != 10 * size || counter[2] != 10 * size))
        errs++, fprintf(stderr, "rank 0: counter %d %d %d, expected %d\n", counter[0], counter[1], counter[2],
                        10 * size);

    /* lock_all, request-based forms and flush_all */
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CALL(MPI_Win_lock_all(0, win));
    MPI_Request rq[2];
    int v = rank + 7, back = -1;
    MT_CALL(MPI_Rput(&v, 1, MPI_INT, right, N + size + rank, 1, MPI_INT, win, &rq[0]));
    MT_CALL(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    MT_CALL(MPI_Win_flush_all(win));
    MT_CALL(MPI_Rget(&back, 1, MPI_INT, right, N + size + rank, 1, MPI_INT, win, &rq[1]));
    MT_CALL(MPI_Wait(&rq[1], MPI_STATUS_IGNORE));
    MT_CALL(MPI_Win_unlock_all(win));
    if (back != rank + 7 && errs++ < 5)
        fprintf(stderr, "rank %d: rget read %d, expected %d\n", rank, back, rank + 7);

    /* passive target: rank 0 writes into every rank while they sit in a barrier */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        for (int t = 0; t < size; t++) {
            int x = 4242 + t;
            MT_CALL(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
            MT_CALL(MPI_Put(&x, 1, MPI_INT, t, N + 2 * size + 3, 1, MPI_INT, win));
            MT_CALL(MPI_Win_unlock(t, win));
        }
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CALL(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    if (counter[3] != 4242 + rank && errs++ < 5)
        fprintf(stderr, "rank %d: passive put: %d\n", rank, counter[3]);
    MT_CALL(MPI_Win_unlock(rank, win));

    uint64_t after = moved();
    MPI_Barrier(MPI_COMM_WORLD);
    if (nprocs > 1 && after == before)
        errs++, fprintf(stderr, "rank %d: %d processes but nothing crossed the transport\n", rank, nprocs);
    if (nprocs == 1 && after != 0)
        errs++, fprintf(stderr, "rank %d: one process but the transport carried %llu operations\n", rank,
                        (unsigned long long)after);
    MPI_Type_free(&every2);
    free(src);
    free(got);
    MT_CALL(MPI_Win_free(&win));
    return mt_finish(errs);
}
