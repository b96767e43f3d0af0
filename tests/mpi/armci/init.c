/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI initialization after MPI_Init, with MPI and ARMCI used by the same ranks:
 *   - ARMCI_Initialized is 0 before ARMCI_Init (also before MPI_Init) and 1 after; nested calls (ARMCI_Init,
 *     ARMCI_Init_args, ARMCI_Init_thread) only count: ARMCI stays usable until the last of as many
 *     ARMCI_Finalize calls, and ARMCI_Finalize leaves MPI (initialized by the program) initialized;
 *   - armci_msg_nproc / armci_msg_me (and vmpi's ARMCI_Procs / ARMCI_Myid) are the world size and rank;
 *   - MPI point-to-point between ARMCI calls: an MPI message and an armci_msg_snd message with the same tag
 *     to the same rank do not match each other (ARMCI's messages travel on a communicator of their own);
 *   - the ARMCI_DOMAIN_SMP queries are consistent (every process in exactly one domain, the counts add up),
 *     armci_timer does not go back, ARMCI_Cleanup, ARMCI_Uses_shm and ARMCI_Same_node can be called.
 * init_nompi.c: ARMCI_Init without MPI_Init. */
#include "armci_test.h"

enum { TAG = 5 };

int main(int argc, char **argv)
{
    int errs = 0, rank, size, flag;
    MT_CHECK_INT(errs, "ARMCI_Initialized before MPI_Init", 0, ARMCI_Initialized());
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MT_CHECK_INT(errs, "ARMCI_Initialized after MPI_Init", 0, ARMCI_Initialized());
    MT_CHECK_INT(errs, "ARMCI_Init", 0, ARMCI_Init());
    MT_CHECK_INT(errs, "ARMCI_Initialized after ARMCI_Init", 1, ARMCI_Initialized());
    MT_CHECK_INT(errs, "ARMCI_Init_args (nested)", 0, ARMCI_Init_args(&argc, &argv));
    MT_CHECK_INT(errs, "ARMCI_Init_thread (nested)", 0, ARMCI_Init_thread(MPI_THREAD_SINGLE));
    MT_CHECK_INT(errs, "ARMCI_Initialized after nested inits", 1, ARMCI_Initialized());

    MT_CHECK_INT(errs, "armci_msg_nproc", size, armci_msg_nproc());
    MT_CHECK_INT(errs, "armci_msg_me", rank, armci_msg_me());
#ifdef ARMCI_VMPI
    int p = -1, me = -1;
    MT_CHECK_INT(errs, "ARMCI_Procs's result", 0, ARMCI_Procs(&p));
    MT_CHECK_INT(errs, "ARMCI_Procs", size, p);
    MT_CHECK_INT(errs, "ARMCI_Myid's result", 0, ARMCI_Myid(&me));
    MT_CHECK_INT(errs, "ARMCI_Myid", rank, me);
#endif

    /* ARMCI memory used around MPI messages: rank r puts r+1 into slot r of its right neighbour */
    void **ptr = mt_malloc(sizeof(void *) * (size_t)size);
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc(ptr, (armci_size_t)(sizeof(int) * (size_t)size)));
    int *mine = ptr[rank];
    for (int i = 0; i < size; i++)
        mine[i] = -1;
    ARMCI_Barrier();
    int v = rank + 1;
    MT_CHECK_INT(errs, "ARMCI_Put", 0, ARMCI_Put(&v, (int *)ptr[right] + rank, sizeof v, right));
    /* an MPI message and an ARMCI message, same tag, same destination: each arrives where it was sent */
    int mpi_out = 1000 + rank, armci_out = 2000 + rank, mpi_in = -1, armci_in = -1, len = -1;
    MPI_Request req;
    MPI_Isend(&mpi_out, 1, MPI_INT, right, TAG, MPI_COMM_WORLD, &req);
    armci_msg_snd(TAG, &armci_out, sizeof armci_out, right);
    MPI_Recv(&mpi_in, 1, MPI_INT, left, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    armci_msg_rcv(TAG, &armci_in, sizeof armci_in, &len, left);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MT_CHECK_INT(errs, "MPI message between ARMCI calls", 1000 + left, mpi_in);
    MT_CHECK_INT(errs, "armci_msg_rcv's message", 2000 + left, armci_in);
    MT_CHECK_INT(errs, "armci_msg_rcv's length", (int)sizeof armci_in, len);
    ARMCI_Barrier();
    for (int i = 0; i < size; i++)
        MT_CHECK_INT(errs, "slot of my ARMCI memory after the left neighbour's put", i == left ? left + 1 : -1,
                     mine[i]);
    /* MPI collective on the program's communicator, ARMCI get after it */
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK_INT(errs, "MPI_Allreduce between ARMCI calls", size * (size - 1) / 2, sum);
    int got = -7;
    MT_CHECK_INT(errs, "ARMCI_Get", 0, ARMCI_Get((int *)ptr[right] + rank, &got, sizeof got, right));
    MT_CHECK_INT(errs, "ARMCI_Get of what I put", rank + 1, got);

    /* the topology queries: every process in exactly one SMP domain */
    int ndom = armci_domain_count(ARMCI_DOMAIN_SMP), mydom = armci_domain_my_id(ARMCI_DOMAIN_SMP), total = 0;
    MT_CHECK(errs, ndom >= 1 && ndom <= size, "armci_domain_count: %d domains for %d processes", ndom, size);
    MT_CHECK_INT(errs, "armci_domain_id of myself", mydom, armci_domain_id(ARMCI_DOMAIN_SMP, rank));
    char *seen = mt_malloc((size_t)size);
    memset(seen, 0, (size_t)size);
    for (int d = 0; d < ndom; d++) {
        int n = armci_domain_nprocs(ARMCI_DOMAIN_SMP, d);
        MT_CHECK(errs, n >= 1, "armci_domain_nprocs(%d) = %d", d, n);
        for (int i = 0; i < n; i++) {
            int g = armci_domain_glob_proc_id(ARMCI_DOMAIN_SMP, d, i);
            if (g < 0 || g >= size) {
                MT_ERR(errs, "armci_domain_glob_proc_id(%d, %d) = %d", d, i, g);
                continue;
            }
            MT_CHECK(errs, !seen[g], "process %d is in two domains", g);
            seen[g] = 1;
            MT_CHECK_INT(errs, "armci_domain_id of a domain's member", d, armci_domain_id(ARMCI_DOMAIN_SMP, g));
            MT_CHECK_INT(errs, "armci_domain_same_id", d == mydom, armci_domain_same_id(ARMCI_DOMAIN_SMP, g) != 0);
        }
        total += n;
    }
    MT_CHECK_INT(errs, "processes in all domains", size, total);
    free(seen);
    (void)ARMCI_Uses_shm();
    (void)ARMCI_Same_node(right);
    double t0 = armci_timer(), t1 = armci_timer();
    MT_CHECK(errs, t1 >= t0, "armci_timer went back: %g then %g", t0, t1);

    /* two of the three nested ARMCI_Finalize calls: ARMCI still works */
    ARMCI_Barrier();
    ARMCI_Finalize();
    ARMCI_Finalize();
    MT_CHECK_INT(errs, "ARMCI_Initialized after 2 of 3 ARMCI_Finalize", 1, ARMCI_Initialized());
    v = -(rank + 1);
    MT_CHECK_INT(errs, "ARMCI_Put after 2 of 3 ARMCI_Finalize", 0,
                 ARMCI_Put(&v, (int *)ptr[right] + rank, sizeof v, right));
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "my slot after the second put", -(left + 1), mine[left]);
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(ptr[rank]));
    ARMCI_Cleanup();
    ARMCI_Finalize();
    MT_CHECK_INT(errs, "ARMCI_Initialized after the last ARMCI_Finalize", 0, ARMCI_Initialized());
    flag = -1;
    MPI_Initialized(&flag);
    MT_CHECK_INT(errs, "MPI_Initialized after ARMCI_Finalize (MPI initialized by the program)", 1, flag);
    flag = -1;
    MPI_Finalized(&flag);
    MT_CHECK_INT(errs, "MPI_Finalized after ARMCI_Finalize (MPI initialized by the program)", 0, flag);
    /* MPI goes on */
    mpi_in = -1;
    MPI_Sendrecv(&mpi_out, 1, MPI_INT, right, TAG, &mpi_in, 1, MPI_INT, left, TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MT_CHECK_INT(errs, "MPI_Sendrecv after ARMCI_Finalize", 1000 + left, mpi_in);
    free(ptr);
    return mt_finish(errs);
}
