/* SPDX-License-Identifier: BSD-3-Clause */
/* Between OS processes, contiguous puts and gets on a window's memory are one-sided: the kernel's copy
 * within a node, else the network's get and put with the window's remote keys (exchanged at creation),
 * never messages the target's PE serves.  For every flavor that has memory at creation (Win_create over
 * malloc'd memory, Win_allocate, Win_allocate_shared contiguous and not), every rank gets its left
 * neighbour's block and puts a block into its right neighbour's, large and small, in fence, PSCW and
 * lock_all/flush epochs, and checks the data; around each flavor, between barriers (nothing in flight),
 * it reads this process's transport counts (VMPIX_Transport_counts_get): every get and put that crossed
 * processes must be a kernel copy (the default within a node); with VMPI_NET_CMA=0 a network RMA where UCX
 * has an RMA lane (an RDMA device) and always with VMPI_NET_RMA_EMULATED=1 (UCX's emulation: the path is
 * tested on any machine), else all messages; with VMPI_NET_RMA=0 VMPI_NET_CMA=0 all messages.  In one
 * process and in the emulated mode (no PMIx launcher) only the data is checked. */
#include <string.h>
#include "mtest.h"

#define N 8192 /* ints of a block: 32 KiB, above the transport's message size */

static void counts(long long *ops, long long *direct, long long *rma)
{
    VMPIX_Transport_counts c;
    MPI_Barrier(MPI_COMM_WORLD); /* nothing in flight while it is read */
    MT_CALL(VMPIX_Transport_counts_get(&c));
    MPI_Barrier(MPI_COMM_WORLD);
    *ops = c.get + c.put;
    *direct = c.kcopy + c.rma;
    *rma = c.rma;
}

static int env_off(const char *name)
{
    const char *v = getenv(name);
    return v && (!strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "off") || !strcmp(v, "false"));
}

static int val(int owner, int flavor, int i) { return owner * 1000000 + flavor * 100000 + i; }

int main(int argc, char **argv)
{
    int errs = 0, rank, size, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mt_proc_of(rank, &nprocs);
    int real = nprocs > 1 && getenv("PMIX_NAMESPACE") != NULL;
    int cma_off = env_off("VMPI_NET_CMA"), rma_off = env_off("VMPI_NET_RMA");
    const char *em = getenv("VMPI_NET_RMA_EMULATED");
    int forced = !rma_off && em && (!strcmp(em, "1") || !strcmp(em, "yes") || !strcmp(em, "on") || !strcmp(em, "true"));
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    int *src = mt_malloc(sizeof(int) * N), *got = mt_malloc(sizeof(int) * N);
    for (int flavor = 0; flavor < 4; flavor++) {
        MPI_Win win;
        int *base = NULL, *mem = NULL;
        MPI_Aint bytes = (MPI_Aint)sizeof(int) * 2 * N;
        MPI_Info info = MPI_INFO_NULL;
        if (flavor == 0) {
            mem = mt_malloc((size_t)bytes);
            base = mem;
            MT_CALL(MPI_Win_create(base, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        } else if (flavor == 1) {
            MT_CALL(MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
        } else {
            if (flavor == 3) {
                MPI_Info_create(&info);
                MPI_Info_set(info, "alloc_shared_noncontig", "true");
            }
            /* over MPI_COMM_WORLD: only within one process (between processes it fails, as it should) */
            MPI_Comm shm;
            MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shm);
            int ssize;
            MPI_Comm_size(shm, &ssize);
            MPI_Comm_free(&shm);
            int all_shared = ssize == size, all;
            MPI_Allreduce(&all_shared, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            if (!all) { /* several processes: the flavor is made per process, no RMA crosses them */
                if (info != MPI_INFO_NULL)
                    MPI_Info_free(&info);
                continue;
            }
            MT_CALL(MPI_Win_allocate_shared(bytes, sizeof(int), info, MPI_COMM_WORLD, &base, &win));
        }
        if (info != MPI_INFO_NULL)
            MPI_Info_free(&info);
        for (int i = 0; i < N; i++) {
            base[i] = val(rank, flavor, i);
            base[N + i] = -1;
            src[i] = val(rank, flavor, N + i);
        }
        long long ops0, direct0, rma0, ops1, direct1, rma1;
        counts(&ops0, &direct0, &rma0);

        /* fence: the left neighbour's first block whole, this rank's second into the right neighbour */
        MT_CALL(MPI_Win_fence(0, win));
        MT_CALL(MPI_Get(got, N, MPI_INT, left, 0, N, MPI_INT, win));
        MT_CALL(MPI_Put(src, N, MPI_INT, right, N, N, MPI_INT, win));
        MT_CALL(MPI_Win_fence(0, win));
        for (int i = 0; i < N; i++)
            if (got[i] != val(left, flavor, i) || base[N + i] != val(left, flavor, N + i)) {
                MT_ERR(errs, "flavor %d, fence: int %d: got %d and %d, expected %d and %d", flavor, i, got[i],
                       base[N + i], val(left, flavor, i), val(left, flavor, N + i));
                break;
            }

        /* PSCW: single ints at both ends of the blocks */
        MPI_Group world, peers;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        int pr[2] = {left, right};
        MPI_Group_incl(world, left == right ? 1 : 2, pr, &peers);
        MT_CALL(MPI_Win_post(peers, 0, win));
        MT_CALL(MPI_Win_start(peers, 0, win));
        int one = -7, two = -8, x = rank * 3 + 1;
        MT_CALL(MPI_Get(&one, 1, MPI_INT, left, N - 1, 1, MPI_INT, win));
        MT_CALL(MPI_Put(&x, 1, MPI_INT, right, 2 * N - 1, 1, MPI_INT, win));
        MT_CALL(MPI_Win_complete(win));
        MT_CALL(MPI_Win_wait(win));
        MT_CHECK_INT(errs, "PSCW get", val(left, flavor, N - 1), one);
        MT_CHECK_INT(errs, "PSCW put", left * 3 + 1, base[2 * N - 1]);

        /* lock_all and flush: a get of what the left neighbour's left put there, a put, flush */
        MPI_Barrier(MPI_COMM_WORLD);
        MT_CALL(MPI_Win_lock_all(0, win));
        MT_CALL(MPI_Get(&two, 1, MPI_INT, left, 2 * N - 1, 1, MPI_INT, win));
        x = rank * 5 + 2;
        MT_CALL(MPI_Put(&x, 1, MPI_INT, right, N, 1, MPI_INT, win));
        MT_CALL(MPI_Win_flush_all(win));
        MT_CALL(MPI_Win_unlock_all(win));
        MPI_Barrier(MPI_COMM_WORLD);
        MT_CHECK_INT(errs, "lock_all get", ((left + size - 1) % size) * 3 + 1, two);
        MT_CHECK_INT(errs, "lock_all put", left * 5 + 2, base[N]);

        counts(&ops1, &direct1, &rma1);
        long long ops = ops1 - ops0, direct = direct1 - direct0, rma = rma1 - rma0;
        if (real) {
            MT_CHECK(errs, ops > 0, "flavor %d: no get or put crossed this process", flavor);
            if (!cma_off && mt_nnodes() == 1)
                MT_CHECK(errs, direct == ops, "flavor %d: only %lld of %lld gets and puts between processes "
                         "were one-sided (kernel copy or network RMA)", flavor, direct, ops);
            else if (rma_off)
                MT_CHECK(errs, direct == 0, "flavor %d: %lld of %lld gets and puts were one-sided with "
                         "VMPI_NET_RMA=0 VMPI_NET_CMA=0", flavor, direct, ops);
            else if (forced)
                MT_CHECK(errs, rma == ops, "flavor %d: only %lld of %lld gets and puts were the network's "
                         "one-sided operations with VMPI_NET_RMA_EMULATED=1", flavor, rma, ops);
            else /* the network's RMA where UCX has a lane for it, else messages: one way for every target */
                MT_CHECK(errs, rma == ops || rma == 0, "flavor %d: %lld of %lld gets and puts were the network's "
                         "one-sided operations (all or none expected)", flavor, rma, ops);
        }
        MPI_Group_free(&peers);
        MPI_Group_free(&world);
        MT_CALL(MPI_Win_free(&win));
        free(mem);
    }
    free(src);
    free(got);
    return mt_finish(errs);
}
