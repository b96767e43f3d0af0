/* SPDX-License-Identifier: BSD-3-Clause */
/* A rank whose PE thread loses its core to other threads for part of a run is not charged for that time
 * (sched/runwait.h).  Every rank does the same amount of work; while rank 0 works, four "noisy
 * neighbours" (threads of this process bound to rank 0's core, outside every rank) spin on its core, so
 * its work takes about five times as long in wall-clock time.  Its load (VMPIX_Load_get) must stay close
 * to the others': charged by wall time it would be about five times theirs, and a balancer would place
 * it as such.  Then AMPI_Migrate: with 8 ranks on 2 PEs under Greedy the equal ranks end four per PE (in the
 * emulated multi-process mode, where each process is balanced alone: half of the ranks of rank 0's process
 * on rank 0's PE, when that process has 2 PEs and an even number of ranks, 4 or more).
 * (Without a balancer that measures loads, VMPIX_Load_get gives 0: only the run is checked.) */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "mtest.h"

enum { NEIGHBOURS = 4, STEPS = 4 };

static void *neighbour(void *arg)
{
    atomic_int *stop = arg;
    while (!atomic_load_explicit(stop, memory_order_relaxed))
        mt_spin(1000);
    return NULL;
}

/* Work on rank 0's core shared with NEIGHBOURS spinning threads bound to it.  Starting and joining them
 * (joining waits, voluntarily, until each gets the core to see the stop) are not part of the work. */
static void crowded_work(long n)
{
    AMPI_Load_stop_measure();
    atomic_int stop = 0;
    pthread_t t[NEIGHBOURS];
    pthread_attr_t attr;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(sched_getcpu(), &set);
    pthread_attr_init(&attr);
    pthread_attr_setaffinity_np(&attr, sizeof set, &set);
    int started = 0;
    for (int i = 0; i < NEIGHBOURS; i++)
        started += pthread_create(&t[i], &attr, neighbour, &stop) == 0;
    pthread_attr_destroy(&attr);
    AMPI_Load_start_measure();
    mt_spin(n);
    AMPI_Load_stop_measure();
    atomic_store(&stop, 1);
    for (int i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    AMPI_Load_start_measure();
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, *npes, *pe, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &npes, &flag);
    const char *lb = getenv("VMPI_BALANCER");
    /* rank 0's process (the whole job in a one-process job): its PEs and its ranks */
    int nprocs = 1, proc0 = mt_proc_of(0, &nprocs), first0, npp0, nr0 = 0;
    mt_pes_of_proc(proc0, nprocs, *npes, &first0, &npp0);
    for (int r = 0; r < size; r++)
        nr0 += mt_proc_of(r, NULL) == proc0;
    int check = npp0 == 2 && (nprocs == 1 ? size == 8 : nr0 >= 4 && nr0 % 2 == 0) && lb && !strcmp(lb, "Greedy");

    for (int s = 0; s < STEPS; s++) {
        if (rank == 0)
            crowded_work(3000000);
        else
            mt_spin(3000000);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    double load, others = 0, mine;
    if (VMPIX_Load_get(&load) != MPI_SUCCESS)
        MT_ERR(errs, "VMPIX_Load_get failed");
    mine = rank == 0 ? 0 : load;
    MPI_Reduce(&mine, &others, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && size > 1 && load > 0) {
        others /= size - 1;
        if (load > 1.5 * others || load < others / 1.5)
            MT_ERR(errs, "rank 0's load %.4f s against the others' %.4f s (the same work: close expected)", load,
                   others);
    }
    AMPI_Migrate(MPI_INFO_NULL);
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_MY_WTH, &pe, &flag);
    int *here = calloc((size_t)*npes, sizeof(int)), *count = calloc((size_t)*npes, sizeof(int));
    here[*pe] = 1;
    MPI_Allreduce(here, count, *npes, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int with0 = count[*pe];
    MPI_Bcast(&with0, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (check && with0 != nr0 / 2)
        MT_ERR(errs, "rank 0's PE holds %d of the %d ranks of its process after balancing (equal work: %d expected)",
               with0, nr0, nr0 / 2);
    free(here);
    free(count);
    return mt_finish(errs);
}
