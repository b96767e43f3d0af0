/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Win_allocate (and Win_allocate_shared with alloc_shared_noncontig) that one rank cannot satisfy (more
 * than its memory slot: 16 TiB) fails on every rank, under MPI_ERRORS_RETURN, instead of leaving the others
 * waiting for it; afterwards windows work.  (The testlist sets ASAN_OPTIONS=allocator_may_return_null=1.)
 * MPICH 4.0.2 hangs in the first call, as vmpi did: the other ranks wait in the window's barrier. */
#include <mpi.h>
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const MPI_Aint huge = (MPI_Aint)1 << 44;
    void *base = NULL;
    MPI_Win win;
    int err = MPI_Win_allocate(rank == size - 1 ? huge : 64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win), cls = 0;
    MPI_Error_class(err, &cls);
#if !MT_MPICH_BUGS
    /* the ranks that got their memory fail too: the window cannot exist without the short one */
    MT_CHECK_INT(errs, "MPI_Win_allocate's error class with one rank short of memory", MPI_ERR_NO_MEM, cls);
#endif
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    /* over the ranks that share memory (all of them in a job of one process) */
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
    int nrank;
    MPI_Comm_rank(node, &nrank);
    err = MPI_Win_allocate_shared(nrank == 0 ? huge : 64, 1, info, node, &base, &win);
    MPI_Comm_free(&node);
    MPI_Error_class(err, &cls);
#if !MT_MPICH_BUGS
    MT_CHECK_INT(errs, "MPI_Win_allocate_shared's error class with one rank short of memory", MPI_ERR_NO_MEM, cls);
#endif
    MPI_Info_free(&info);
    int *mem;
    MT_CHECK_INT(errs, "MPI_Win_allocate", MPI_SUCCESS,
                 MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    *mem = -1;
    MPI_Win_fence(0, win);
    int right = (rank + 1) % size, left = (rank + size - 1) % size, v = rank + 1000;
    MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    MT_CHECK_INT(errs, "value from the left neighbour", left + 1000, *mem);
    MPI_Win_free(&win);
    return mt_finish(errs);
}
