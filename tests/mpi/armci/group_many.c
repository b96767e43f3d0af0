/* SPDX-License-Identifier: BSD-3-Clause */
/* Many ARMCI groups alive at once: the process's group table grows (past its first capacity) while a group is
 * being created from a parent in that table.  Every process creates NG groups of all processes, each the child
 * of the previous one (so the parent is an entry of the table), allocates in each, puts its rank into its right
 * neighbour's block and checks what its left neighbour put, then frees them in reverse. */
#include "armci_test.h"

enum { NG = 12 };

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *ids = mt_malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < size; i++)
        ids[i] = i;
    ARMCI_Group g[NG];
    int **p[NG];
    ARMCI_Group_get_world(&g[0]);
    for (int k = 1; k < NG; k++) {
        if (k % 2)
            ARMCI_Group_create_child(size, ids, &g[k], &g[k - 1]);
        else {
            ARMCI_Group_set_default(&g[k - 1]);
            ARMCI_Group_create(size, ids, &g[k]);
        }
        int gr = -1, gs = -1;
        MT_CHECK_INT(errs, "ARMCI_Group_rank's result", 0, ARMCI_Group_rank(&g[k], &gr));
        MT_CHECK_INT(errs, "ARMCI_Group_rank", rank, gr);
        ARMCI_Group_size(&g[k], &gs);
        MT_CHECK_INT(errs, "ARMCI_Group_size", size, gs);
        p[k] = mt_malloc(sizeof(int *) * (size_t)size);
        MT_CHECK_INT(errs, "ARMCI_Malloc_group", 0, ARMCI_Malloc_group((void **)p[k], sizeof(int) * 2, &g[k]));
    }
    ARMCI_Group w;
    ARMCI_Group_get_world(&w);
    ARMCI_Group_set_default(&w);
    at_migrate();
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int k = 1; k < NG; k++)
        ARMCI_PutValueInt(1000 * k + rank, &p[k][right][1], right);
    ARMCI_Barrier();
    for (int k = 1; k < NG; k++)
        MT_CHECK_INT(errs, "value from the left neighbour", 1000 * k + left, p[k][rank][1]);
    ARMCI_Barrier();
    for (int k = NG - 1; k >= 1; k--) {
        MT_CHECK_INT(errs, "ARMCI_Free_group", 0, ARMCI_Free_group(p[k][rank], &g[k]));
        ARMCI_Group_free(&g[k]);
        free(p[k]);
    }
    free(ids);
    return at_finish(errs);
}
