/* SPDX-License-Identifier: BSD-3-Clause */
/* Jacobi-style 1-D halo exchange (see include/halo1d.h): 100 cells per rank, 60 steps, with Sendrecv,
 * Isend/Irecv/Waitall and persistent requests; every cell and the global sum are checked exactly. */
#include "halo1d.h"

int main(int argc, char **argv)
{
    int errs = 0;
    MPI_Init(&argc, &argv);
    for (int method = 0; method < 3; method++)
        errs += halo_run(100, 60, method);
    errs += halo_run(1, 130, 1); /* one cell per rank: values travel across many ranks */
    return mt_finish(errs);
}
