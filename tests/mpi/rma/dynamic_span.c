/* SPDX-License-Identifier: BSD-3-Clause */
/* Accesses to a dynamic window that span regions attached back to back (MPICH accepts them; MPI-3.1
 * 11.2.4 only asks that the target memory be attached): each rank attaches one buffer as four adjacent
 * regions, in a shuffled order, and its right neighbour puts, gets and accumulates across every boundary
 * (one access over all four, a strided vector whose elements fall in different regions).  A gap between two
 * regions (the second of two buffers attached in two parts that are not adjacent) still makes the access fail
 * with MPI_ERR_RMA_RANGE, checked under vmpi only (other MPIs may write into the gap). */
#include "mtest.h"

#define PART 1152 /* ints in each region: 4608 bytes */
#define NPART 4
#define ALL (PART * NPART)

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *mem = mt_malloc(sizeof(int) * ALL), *src = mt_malloc(sizeof(int) * ALL), *dst = mt_malloc(sizeof(int) * ALL);
    for (int i = 0; i < ALL; i++)
        mem[i] = -1;
    MPI_Win w;
    MT_CHECK_RC(errs, MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    MT_CHECK_RC(errs, MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN));
    const int order[NPART] = {2, 0, 3, 1};
    for (int k = 0; k < NPART; k++)
        MT_CHECK_RC(errs, MPI_Win_attach(w, mem + order[(k + rank) % NPART] * PART, sizeof(int) * PART));
    MPI_Aint base, rbase;
    MPI_Get_address(mem, &base);
    MPI_Sendrecv(&base, 1, MPI_AINT, left, 0, &rbase, 1, MPI_AINT, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    /* 1. a put over all four regions, read back with a get that starts in the middle of the first */
    for (int i = 0; i < ALL; i++)
        src[i] = rank * 100000 + i;
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w));
    MT_CHECK_RC(errs, MPI_Put(src, ALL, MPI_INT, right, rbase, ALL, MPI_INT, w));
    MT_CHECK_RC(errs, MPI_Win_flush(right, w));
    for (int i = 0; i < ALL; i++)
        dst[i] = -7;
    MPI_Aint mid = MPI_Aint_add(rbase, sizeof(int) * (PART / 2));
    MT_CHECK_RC(errs, MPI_Get(dst, ALL - PART / 2, MPI_INT, right, mid, ALL - PART / 2, MPI_INT, w));
    MT_CHECK_RC(errs, MPI_Win_unlock(right, w));
    for (int i = 0; i < ALL - PART / 2; i++)
        if (dst[i] != rank * 100000 + PART / 2 + i) {
            MT_ERR(errs, "get across regions, int %d: expected %d, got %d", i, rank * 100000 + PART / 2 + i, dst[i]);
            break;
        }

    /* 2. a strided vector (one int in every 5, each boundary falls between or inside its elements) and an
     * accumulate of a contiguous run across every boundary */
    MPI_Datatype vec;
    MPI_Type_vector(ALL / 5, 1, 5, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w));
    MT_CHECK_RC(errs, MPI_Put(src, ALL / 5, MPI_INT, right, MPI_Aint_add(rbase, sizeof(int)), 1, vec, w));
    MT_CHECK_RC(errs, MPI_Win_unlock(right, w)); /* the accumulate overlaps the put: another epoch */
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w));
    MT_CHECK_RC(errs, MPI_Accumulate(src, ALL - 10, MPI_INT, right, MPI_Aint_add(rbase, sizeof(int) * 3), ALL - 10,
                                     MPI_INT, MPI_SUM, w));
    MT_CHECK_RC(errs, MPI_Win_unlock(right, w));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < ALL; i++) {
        int v = left * 100000 + i; /* the put of part 1 */
        if (i >= 1 && (i - 1) % 5 == 0 && (i - 1) / 5 < ALL / 5)
            v = left * 100000 + (i - 1) / 5;
        if (i >= 3 && i < 3 + ALL - 10)
            v += left * 100000 + (i - 3);
        if (mem[i] != v) {
            MT_ERR(errs, "vector put and accumulate across regions, int %d: expected %d, got %d", i, v, mem[i]);
            break;
        }
    }
    MPI_Type_free(&vec);

#ifdef VMPI
    /* 3. not adjacent: two halves of a buffer attached with one int left out between them */
    int *gap = mt_malloc(sizeof(int) * 2 * PART);
    MT_CHECK_RC(errs, MPI_Win_attach(w, gap, sizeof(int) * PART));
    MT_CHECK_RC(errs, MPI_Win_attach(w, gap + PART + 1, sizeof(int) * (PART - 1)));
    MPI_Aint gbase, rgbase;
    MPI_Get_address(gap, &gbase);
    MPI_Sendrecv(&gbase, 1, MPI_AINT, left, 0, &rgbase, 1, MPI_AINT, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w));
    int rc = MPI_Put(src, 2 * PART, MPI_INT, right, rgbase, 2 * PART, MPI_INT, w);
    MT_CHECK_CLASS(errs, rc, MPI_ERR_RMA_RANGE);
    rc = MPI_Get(dst, 2, MPI_INT, right, MPI_Aint_add(rgbase, sizeof(int) * (PART - 1)), 2, MPI_INT, w);
    MT_CHECK_CLASS(errs, rc, MPI_ERR_RMA_RANGE);
    rc = MPI_Put(src, 2, MPI_INT, right, MPI_Aint_add(rgbase, sizeof(int) * (2 * PART - 1)), 2, MPI_INT, w);
    MT_CHECK_CLASS(errs, rc, MPI_ERR_RMA_RANGE); /* past the end of the last region */
    MT_CHECK_RC(errs, MPI_Get(dst, PART - 1, MPI_INT, right, MPI_Aint_add(rgbase, sizeof(int) * (PART + 1)), PART - 1,
                              MPI_INT, w)); /* all of the second part */
    MT_CHECK_RC(errs, MPI_Win_unlock(right, w));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Win_detach(w, gap));
    MT_CHECK_RC(errs, MPI_Win_detach(w, gap + PART + 1));
    free(gap);
#endif

    /* 4. after detaching an inner region, an access over it fails, one within a neighbour still works */
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Win_detach(w, mem + 2 * PART));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w));
#ifdef VMPI
    rc = MPI_Get(dst, ALL, MPI_INT, right, rbase, ALL, MPI_INT, w);
    MT_CHECK_CLASS(errs, rc, MPI_ERR_RMA_RANGE);
#endif
    MT_CHECK_RC(errs, MPI_Get(dst, 2 * PART, MPI_INT, right, rbase, 2 * PART, MPI_INT, w));
    MT_CHECK_RC(errs, MPI_Win_unlock(right, w));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < NPART; k++)
        if (k != 2)
            MT_CHECK_RC(errs, MPI_Win_detach(w, mem + k * PART));
    MT_CHECK_RC(errs, MPI_Win_free(&w));
    free(mem);
    free(src);
    free(dst);
    return mt_finish(errs);
}
