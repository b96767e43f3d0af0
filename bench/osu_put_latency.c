/* SPDX-License-Identifier: BSD-3-Clause */
/* osu_put_latency: one-sided latency of one MPI_Put and its synchronization, µs, sizes 1 B .. 4 MiB
 * (-s lock|fence|pscw; lock, the default: MPI_Win_flush inside MPI_Win_lock_all).  The program, its checks
 * and its options are in rma_putget.h. */
#include "rma_putget.h"

int main(int argc, char **argv)
{
    return putget_main(argc, argv, "osu_put_latency", 0, 1);
}
