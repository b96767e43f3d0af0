/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Reduce with every predefined operation on every allowed predefined type, counts 0, 1, 1000 and (for
 * some types) 100000, roots rotating over the ranks, plain (NULL receive buffer on non-roots) and with
 * MPI_IN_PLACE at the root; results checked exactly at the root (see include/redops.h). */
#include "redops.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int errs = red_run_all(0);
    return mt_finish(errs);
}
