/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Allreduce with every predefined operation on every allowed predefined type, counts 0, 1, 1000 and (for
 * some types) 100000, with and without MPI_IN_PLACE; results checked exactly (see include/redops.h). */
#include "redops.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int errs = red_run_all(1);
    return mt_finish(errs);
}
