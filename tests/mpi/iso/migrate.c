/* SPDX-License-Identifier: BSD-3-Clause */
/* Isomalloc memory across migrations (the testlist runs it with VMPI_BALANCER=Rotate, which moves every rank
 * to another PE at every AMPI_Migrate): blocks malloc'ed before a migration keep their address, contents and
 * slot after it, and so does a stack array; blocks are freed and realloc'ed after the move (from another PE
 * thread) and new ones come from the same slot; a block handed to the next rank before a migration is
 * checked and freed by it after. */
#include <stdint.h>
#include <string.h>
#include "mtest.h"

enum { STEPS = 8, PER_STEP = 6 };

static size_t size_of(int step, int k) { return (size_t)1 << ((step * PER_STEP + k) % 21); } /* 1 B .. 1 MiB */

static int attr_int(int key)
{
    int *v, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag);
    return flag ? *v : -1;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int slot = MT_HEAP_SLOT(rank);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size, moves = 0;
    unsigned char *blk[STEPS][PER_STEP];
    int stack_arr[64];
    for (int i = 0; i < 64; i++)
        stack_arr[i] = rank * 64 + i;
    MPI_Info hints;
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "ampi_load_balance", "sync");
    for (int step = 0; step < STEPS; step++) {
        for (int k = 0; k < PER_STEP; k++) {
            blk[step][k] = malloc(size_of(step, k));
            mt_fill(blk[step][k], size_of(step, k), rank, step * PER_STEP + k);
        }
        unsigned char *gift = malloc(1000 + (size_t)step);
        mt_fill(gift, 1000 + (size_t)step, rank, 1000 + step);
        uintptr_t out = (uintptr_t)gift, in = 0;
        MPI_Sendrecv(&out, sizeof out, MPI_BYTE, next, step, &in, sizeof in, MPI_BYTE, prev, step, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        int pe0 = attr_int(AMPI_MY_WTH);
        AMPI_Migrate(hints);
        moves += attr_int(AMPI_MY_WTH) != pe0;
        /* everything allocated so far is where it was */
        for (int s = 0; s <= step; s++)
            for (int k = 0; k < PER_STEP; k++) {
                if (blk[s][k] == NULL)
                    continue;
                long bad = mt_verify(blk[s][k], size_of(s, k), rank, s * PER_STEP + k);
                MT_CHECK(errs, bad < 0, "step %d: block (%d, %d) of %zu bytes differs at byte %ld", step, s, k,
                         size_of(s, k), bad);
                MT_CHECK_INT(errs, "slot of a block after migration", slot, MPIX_Iso_rank(blk[s][k]));
            }
        for (int i = 0; i < 64; i++)
            if (stack_arr[i] != rank * 64 + i)
                MT_ERR(errs, "step %d: stack array element %d is %d", step, i, stack_arr[i]);
        MT_CHECK_INT(errs, "slot of the stack after migration", rank, MPIX_Iso_rank(stack_arr));
        unsigned char *theirs = (unsigned char *)in;
        long bad = mt_verify(theirs, 1000 + (size_t)step, prev, 1000 + step);
        MT_CHECK(errs, bad < 0, "step %d: block from rank %d differs at byte %ld", step, prev, bad);
        free(theirs);
        /* after the move: free one of this step's blocks, grow another, allocate a new one */
        free(blk[step][0]);
        blk[step][0] = NULL;
        unsigned char *g = realloc(blk[step][1], size_of(step, 1) + 5000);
        MT_CHECK_INT(errs, "slot of a block realloc'ed after migration", slot, MPIX_Iso_rank(g));
        long gbad = mt_verify(g, size_of(step, 1), rank, step * PER_STEP + 1);
        MT_CHECK(errs, gbad < 0, "step %d: realloc'ed block differs at byte %ld", step, gbad);
        free(g);
        blk[step][1] = NULL;
        void *fresh = malloc(300);
        MT_CHECK_INT(errs, "slot of a block allocated after migration", slot, MPIX_Iso_rank(fresh));
        free(fresh);
    }
    MPI_Info_free(&hints);
    const char *lb = getenv("VMPI_BALANCER");
    if (lb && !strcmp(lb, "Rotate") && mt_proc_npes(attr_int(AMPI_NUM_WTHS)) > 1) /* PEs of its process */
        MT_CHECK_INT(errs, "migrations under Rotate", STEPS, moves);
    for (int s = 0; s < STEPS; s++)
        for (int k = 0; k < PER_STEP; k++)
            free(blk[s][k]);
    return mt_finish(errs);
}
