/* SPDX-License-Identifier: BSD-3-Clause */
/* What a rank takes along when it moves to another process (a job of several OS processes; in one process,
 * or with VMPI_LB_PROCS=0, the same program checks the same state across moves within the process).  At each
 * of ROUNDS migration points every rank asks (AMPI_Migrate_to_pe) for a PE of the next process (of the job's
 * next PE in one process), with, in flight across the point:
 *   - a receive posted from its left neighbour that is sent only after the point (it must match there);
 *   - an eager and a rendezvous (1 MiB, from a nonblocking send whose buffer the sender keeps) message to its
 *     right neighbour that the receiver posts only after the point: they wait in its unexpected queue, and
 *     the rendezvous one names a sender that may move too;
 *   - a message matched with MPI_Mprobe and received only after the point;
 *   - a vector datatype, an info object, a communicator split by parity with a group and an attribute, a
 *     user operation (xor), heap blocks with a pattern;
 *   - half a line of output: rank 0 prints "move_procs rank0 half " before the point and the rest after it
 *     (the testlist expects the whole line).
 * After the point each rank checks where it is (AMPI_MY_WTH, the process VMPIX_Proc_of names), completes
 * every request, and checks every value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mtest.h"

enum { ROUNDS = 4, BIG = 1 << 18 /* ints: 1 MiB */, HEAP = 64 };

static void xor_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] ^= ((int *)in)[i];
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int npes = mt_world_attr(AMPI_NUM_WTHS), nprocs = 1;
    mt_proc_of(rank, &nprocs);
    int across = mt_lb_across();
    int left = (rank + size - 1) % size, right = (rank + 1) % size;

    MPI_Datatype vec;
    MPI_Type_vector(4, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Info info;
    MPI_Info_create(&info);
    char val[32];
    snprintf(val, sizeof val, "v%d", rank);
    MPI_Info_set(info, "mine", val);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Group hg;
    MPI_Comm_group(half, &hg);
    int key, attr = 5000 + rank;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_set_attr(half, key, &attr);
    MPI_Op xop;
    MPI_Op_create(xor_op, 1, &xop);
    int *heap[HEAP];
    for (int i = 0; i < HEAP; i++) {
        heap[i] = malloc(sizeof(int) * (size_t)(16 << (i % 8)));
        for (int j = 0; j < (16 << (i % 8)); j++)
            heap[i][j] = rank * 7 + i * 3 + j;
    }
    int *big_out = malloc(sizeof(int) * BIG), *big_in = malloc(sizeof(int) * BIG);

    for (int round = 0; round < ROUNDS; round++) {
        /* where to: the first PE of the next process (the next PE of a one-process job) */
        int pe0 = mt_world_attr(AMPI_MY_WTH), proc0 = mt_proc_of(rank, NULL), target;
        if (across) {
            int f, n;
            mt_pes_of_proc((proc0 + 1) % nprocs, nprocs, npes, &f, &n);
            target = f + (rank + round) % n;
        } else {
            int f, n;
            mt_pes_of_proc(proc0, nprocs, npes, &f, &n);
            target = f + (pe0 - f + 1) % n;
        }
        int late_in = -1, late_out = rank * 1000 + round, eager_out = rank * 10 + round;
        int eager_in = -1, probe_out = rank + 100 * round, probe_in = -1;
        for (int j = 0; j < BIG; j++)
            big_out[j] = rank ^ (j * 31) ^ round;
        MPI_Request rq[4];
        MPI_Irecv(&late_in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &rq[0]);          /* sent after the point */
        MPI_Isend(&eager_out, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &rq[1]);       /* received after it */
        MPI_Isend(big_out, BIG, MPI_INT, right, 3, MPI_COMM_WORLD, &rq[2]);        /* rendezvous */
        MPI_Isend(&probe_out, 1, MPI_INT, right, 4, MPI_COMM_WORLD, &rq[3]);
        MPI_Message msg;
        MPI_Status st;
        MPI_Mprobe(left, 4, MPI_COMM_WORLD, &msg, &st);
        if (rank == 0)
            printf("move_procs rank0 half ");
        AMPI_Migrate_to_pe(target);
        MPI_Info hints;
        MPI_Info_create(&hints);
        MPI_Info_set(hints, "ampi_load_balance", "sync");
        AMPI_Migrate(hints);
        MPI_Info_free(&hints);
        if (rank == 0) {
            printf("and the rest %d\n", round);
            fflush(stdout);
        }
        int pe1 = mt_world_attr(AMPI_MY_WTH), proc1 = mt_proc_of(rank, NULL);
        for (int j = 0; j < BIG; j++) /* its own memory came along (the buffer of its pending send) */
            if (big_out[j] != (rank ^ (j * 31) ^ round)) {
                MT_ERR(errs, "round %d: own send buffer [%d] = %d after the move, expected %d", round, j, big_out[j],
                       rank ^ (j * 31) ^ round);
                break;
            }
        if (size > 1 && npes > 1 && pe1 != target)
            MT_ERR(errs, "round %d: on PE %d (process %d), asked for PE %d", round, pe1, proc1, target);
        if (across && size > 1 && proc1 == proc0)
            MT_ERR(errs, "round %d: still in process %d", round, proc0);
        MPI_Send(&late_out, 1, MPI_INT, right, 1, MPI_COMM_WORLD);
        MPI_Recv(&eager_in, 1, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(big_in, BIG, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Mrecv(&probe_in, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
        MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
        MT_CHECK_INT(errs, "the receive posted before the point", left * 1000 + round, late_in);
        MT_CHECK_INT(errs, "the eager message waiting across the point", left * 10 + round, eager_in);
        MT_CHECK_INT(errs, "the message matched by MPI_Mprobe before the point", left + 100 * round, probe_in);
        for (int j = 0; j < BIG; j++)
            if (big_in[j] != (left ^ (j * 31) ^ round)) {
                MT_ERR(errs, "round %d: rendezvous message [%d] = %d, expected %d", round, j, big_in[j],
                       left ^ (j * 31) ^ round);
                break;
            }
        /* the objects made before the first point */
        int v[12], w[12];
        for (int j = 0; j < 12; j++)
            v[j] = rank * 100 + j, w[j] = -1;
        MPI_Sendrecv(v, 1, vec, 0, 5, w, 1, vec, 0, 5, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        for (int j = 0; j < 12; j++)
            if (w[j] != (j % 3 == 0 && j < 12 ? v[j] : -1)) {
                MT_ERR(errs, "round %d: vector type moved wrong at [%d]: %d", round, j, w[j]);
                break;
            }
        char got[32] = "";
        int flag = 0;
        MPI_Info_get(info, "mine", sizeof got - 1, got, &flag);
        if (!flag || strcmp(got, val) != 0)
            MT_ERR(errs, "round %d: info value '%s', expected '%s'", round, got, val);
        int hs, hr, gs, *a = NULL;
        MPI_Comm_size(half, &hs);
        MPI_Comm_rank(half, &hr);
        MPI_Group_size(hg, &gs);
        MT_CHECK_INT(errs, "split communicator's rank", rank / 2, hr);
        MT_CHECK_INT(errs, "its group's size", hs, gs);
        MPI_Comm_get_attr(half, key, &a, &flag);
        if (!flag || *a != 5000 + rank)
            MT_ERR(errs, "round %d: attribute on the split communicator lost", round);
        int one = rank + 1, sum = -1;
        MPI_Allreduce(&one, &sum, 1, MPI_INT, xop, half);
        int want = 0;
        for (int q = rank % 2; q < size; q += 2)
            want ^= q + 1;
        if (sum != want)
            MT_ERR(errs, "round %d: allreduce with a user op on the split communicator: %d, expected %d", round, sum,
                   want);
        for (int i = 0; i < HEAP; i++)
            for (int j = 0; j < (16 << (i % 8)); j++)
                if (heap[i][j] != rank * 7 + i * 3 + j) {
                    MT_ERR(errs, "round %d: heap block %d [%d] = %d", round, i, j, heap[i][j]);
                    i = HEAP;
                    break;
                }
    }
    for (int i = 0; i < HEAP; i++)
        free(heap[i]);
    free(big_out);
    free(big_in);
    MPI_Op_free(&xop);
    MPI_Comm_free_keyval(&key);
    MPI_Group_free(&hg);
    MPI_Comm_free(&half);
    MPI_Info_free(&info);
    MPI_Type_free(&vec);
    return mt_finish(errs);
}
