/* SPDX-License-Identifier: BSD-3-Clause */
/* An ARMCI_Malloc that one process cannot satisfy (more than its memory slot: 16 TiB) fails on every process
 * with MPI_ERR_NO_MEM (run with VMPI_ARMCI_ERRORS=return), not only on the short one while the others wait
 * for it; then ARMCI goes on: a group allocation with the short request on another process fails the same
 * way, and an allocation everybody can satisfy works (a put to the right neighbour, checked).  (The testlist
 * sets ASAN_OPTIONS=allocator_may_return_null=1: the sanitizer build then returns NULL too.) */
#include "armci_test.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int **p = mt_malloc(sizeof(int *) * (size_t)size);
#ifdef ARMCI_VMPI
    const armci_size_t huge = (armci_size_t)1 << 44;
    MT_CHECK_INT(errs, "ARMCI_Malloc with one process short of memory", MPI_ERR_NO_MEM,
                 ARMCI_Malloc((void **)p, rank == size - 1 ? huge : 64));
    at_migrate();
    int *ids = mt_malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < size; i++)
        ids[i] = i;
    ARMCI_Group g;
    ARMCI_Group_create(size, ids, &g);
    MT_CHECK_INT(errs, "ARMCI_Malloc_group with one process short of memory", MPI_ERR_NO_MEM,
                 ARMCI_Malloc_group((void **)p, rank == 0 ? huge : 0, &g));
    ARMCI_Group_free(&g);
    free(ids);
#endif
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)p, sizeof(int)));
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MT_CHECK_INT(errs, "ARMCI_PutValueInt", 0, ARMCI_PutValueInt(rank + 1000, p[right], right));
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "value from the left neighbour", left + 1000, *p[rank]);
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(p[rank]));
    free(p);
    return at_finish(errs);
}
