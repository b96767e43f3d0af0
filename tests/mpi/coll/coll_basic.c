/* SPDX-License-Identifier: BSD-3-Clause */
/* Barrier, Bcast from every root, Reduce to every root and Allreduce with SUM/MAX/PROD/BXOR/MINLOC, with
 * MPI_IN_PLACE, at several counts. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, errs = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int counts[] = {1, 7, 1000, 20000};
    int *a = malloc(20000 * sizeof(int)), *b = malloc(20000 * sizeof(int));
    for (int ci = 0; ci < 4; ci++) {
        int n = counts[ci];
        for (int root = 0; root < size; root += (size > 8 ? size / 5 : 1)) {
            for (int i = 0; i < n; i++)
                a[i] = rank == root ? i * 3 + root : -1;
            MPI_Bcast(a, n, MPI_INT, root, MPI_COMM_WORLD);
            for (int i = 0; i < n; i++)
                errs += a[i] != i * 3 + root;
            for (int i = 0; i < n; i++)
                a[i] = rank + i;
            MPI_Reduce(a, b, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
            if (rank == root)
                for (int i = 0; i < n; i++)
                    errs += b[i] != size * (size - 1) / 2 + size * i;
        }
        for (int i = 0; i < n; i++)
            a[i] = rank * (i % 5 + 1);
        MPI_Allreduce(a, b, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        for (int i = 0; i < n; i++)
            errs += b[i] != (size - 1) * (i % 5 + 1);
        for (int i = 0; i < n; i++)
            b[i] = 1 << (rank % 31);
        MPI_Allreduce(MPI_IN_PLACE, b, n, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
        int expect = 0;
        for (int r = 0; r < size; r++)
            expect |= 1 << (r % 31);
        for (int i = 0; i < n; i++)
            errs += b[i] != expect;
    }
    double d = rank == size / 2 ? -1.0 : (double)rank, prod;
    MPI_Allreduce(&d, &prod, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
    struct { double v; int i; } in = {rank % 3 == 1 ? 0.5 : 2.0 + rank, rank}, out;
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
    if (size > 1)
        errs += out.v != 0.5 || out.i != 1; /* ties go to the lower index */
    else
        errs += out.v != 2.0 || out.i != 0;
    int before = 0;
    if (rank != 0)
        MPI_Send(&rank, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    else
        for (int r = 1; r < size; r++) {
            int v;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            before++;
        }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        errs += before != size - 1;
    int total;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        if (total)
            printf(" Found %d errors\n", total);
        else
            printf(" No Errors\n");
    }
    free(a);
    free(b);
    MPI_Finalize();
    return total != 0;
}
