/* SPDX-License-Identifier: BSD-3-Clause */
/* bulk_bw: the bandwidth of the bulk exchange that moves ranks between processes (xport/netjob.h's
 * vmpi_xport_net_bulk), from process 0 to process 1 of a job of 2 processes, one rank each:
 *   vmpirun --procs 2 -n 2 -p 1 build/bench/bulk_bw [-p PIECE] [-m MAX] [-b BYTES]
 * For sizes 64 KiB, 256 KiB .. MAX (default 256 MiB): exchanges back to back, each one piece of the size
 * (-p 0, the default) or pieces of PIECE bytes that are not adjacent (every other block of PIECE bytes, so
 * none merge), on both sides at the same places (as ranks moving to the same addresses).  Prints
 * "size MiB/s" (MiB: ucx_perftest's unit), timed by process 0 from a barrier before the first exchange of a
 * size to one after its last; about BYTES (default 1 GiB) per size, after two exchanges unmeasured.
 * Built against vmpi's objects (the function is internal); bench/bulk compares it with ucx_perftest. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <mpi.h>
#include "xport/netjob.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    size_t piece = 0, max = (size_t)256 << 20, bytes = (size_t)1 << 30;
    int rank, size;
    MPI_Init(&argc, &argv);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-p"))
            piece = strtoull(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "-m"))
            max = strtoull(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "-b"))
            bytes = strtoull(argv[i + 1], NULL, 0);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const vmpi_net_job *job = vmpi_xport_net_job();
    if (size != 2 || job == NULL || job->nprocs != 2) {
        if (rank == 0)
            fprintf(stderr, "bulk_bw: run as 2 processes of one rank each (vmpirun --procs 2 -n 2 -p 1)\n");
        MPI_Finalize();
        return 1;
    }
    size_t span = piece ? 2 * max : max;
    char *buf = malloc(span);
    size_t nmax = piece ? (max + piece - 1) / piece : 1;
    vmpi_net_iov *iov = malloc(sizeof *iov * nmax);
    if (buf == NULL || iov == NULL) {
        fprintf(stderr, "bulk_bw: out of memory for %zu bytes\n", span);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(buf, rank, span); /* (every page touched: first touches are not the exchange's cost) */
    if (rank == 0)
        printf("# bulk exchange, process 0 to 1, %s\n# size MiB/s\n", piece ? "pieces (bytes below)" : "one piece");
    if (rank == 0 && piece)
        printf("# pieces of %zu bytes, every other block\n", piece);
    for (size_t sz = (size_t)64 << 10; sz <= max; sz *= 4) {
        int n = 0;
        for (size_t off = 0; off < sz; off += piece ? piece : sz)
            iov[n++] = (vmpi_net_iov){buf + (piece ? 2 * off : 0), piece && sz - off > piece ? piece : sz - off};
        vmpi_net_bulk b = {1 - rank, 1, iov, n};
        long iters = (long)(bytes / sz);
        if (iters < 4)
            iters = 4;
        if (iters > 5000)
            iters = 5000;
        double t0 = 0;
        for (long i = -2; i < iters; i++) {
            if (i == 0) {
                MPI_Barrier(MPI_COMM_WORLD);
                t0 = now();
            }
            if (rank == 0)
                vmpi_xport_net_bulk(&b, 1, NULL, 0);
            else
                vmpi_xport_net_bulk(NULL, 0, &b, 1);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double t = now() - t0;
        if (rank == 0)
            printf("%zu %.1f\n", sz, (double)sz * (double)iters / t / (1024.0 * 1024.0));
        fflush(stdout);
    }
    free(iov);
    free(buf);
    MPI_Finalize();
    return 0;
}
