/* SPDX-License-Identifier: BSD-3-Clause */
/* Scale test (meant for 4096 ranks): the Jacobi-style 1-D halo exchange of include/halo1d.h with 8 cells per
 * rank and 12 steps, with Sendrecv and with Isend/Irecv/Waitall; all cells and the global sum are checked. */
#include "halo1d.h"

int main(int argc, char **argv)
{
    int errs = 0;
    MPI_Init(&argc, &argv);
    errs += halo_run(8, 12, 0);
    errs += halo_run(8, 12, 1);
    return mt_finish(errs);
}
