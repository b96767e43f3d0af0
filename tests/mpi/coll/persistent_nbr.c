/* SPDX-License-Identifier: BSD-3-Clause */
/* Persistent neighbourhood collectives (MPI-4.1 7.8) on a periodic ring (a 1-D Cartesian communicator: with
 * one or two ranks both neighbours are one rank): each made once, started ITERS times with new data, the
 * results checked exactly, a migration point between iterations. */
#include "mtest.h"

#define ITERS 5
#define B 2 /* elements per block */

static int val(int r, int it, int i) { return r * 1000 + it * 100 + i; }

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int dims[1] = {n}, periods[1] = {1};
    MPI_Comm ring;
    MT_CALL(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    MPI_Comm_rank(ring, &rank);
    int nb[2]; /* the neighbours in MPI's order: -1 then +1 */
    MPI_Cart_shift(ring, 0, 1, &nb[0], &nb[1]);

    enum { AG, AGV, A2A, A2AV, A2AW, NC };
    static const char *names[NC] = {"neighbor_allgather", "neighbor_allgatherv", "neighbor_alltoall",
                                    "neighbor_alltoallv", "neighbor_alltoallw"};
    int sb[NC][2 * B], rb[NC][2 * B + 2];
    int cnt[2] = {1, B}, dsp[2] = {0, B + 1}; /* v forms: 1 element from/to -1, B to/from +1, a gap between */
    int sdsp[2] = {0, B};
    MPI_Aint wsd[2] = {0, B * (MPI_Aint)sizeof(int)}, wrd[2] = {0, (B + 1) * (MPI_Aint)sizeof(int)};
    MPI_Datatype wt[2] = {MPI_INT, MPI_INT};
    MPI_Request r[NC];
    MT_CALL(MPI_Neighbor_allgather_init(sb[AG], B, MPI_INT, rb[AG], B, MPI_INT, ring, MPI_INFO_NULL, &r[AG]));
    /* allgatherv: every rank sends 1 element; the receive side's counts are 1 and 1 */
    int one[2] = {1, 1};
    MT_CALL(MPI_Neighbor_allgatherv_init(sb[AGV], 1, MPI_INT, rb[AGV], one, dsp, MPI_INT, ring, MPI_INFO_NULL,
                                         &r[AGV]));
    MT_CALL(MPI_Neighbor_alltoall_init(sb[A2A], B, MPI_INT, rb[A2A], B, MPI_INT, ring, MPI_INFO_NULL, &r[A2A]));
    /* alltoallv/w: the block to -1 has 1 element, to +1 B; so from -1 (its +1 block) come B, from +1 1 */
    int rcnt[2] = {B, 1}, rdsp[2] = {0, B + 1};
    MT_CALL(MPI_Neighbor_alltoallv_init(sb[A2AV], cnt, sdsp, MPI_INT, rb[A2AV], rcnt, rdsp, MPI_INT, ring,
                                        MPI_INFO_NULL, &r[A2AV]));
    MT_CALL(MPI_Neighbor_alltoallw_init(sb[A2AW], cnt, wsd, wt, rb[A2AW], rcnt, wrd, wt, ring, MPI_INFO_NULL,
                                        &r[A2AW]));
    for (int it = 0; it < ITERS; it++) {
        for (int c = 0; c < NC; c++) {
            for (int i = 0; i < 2 * B; i++)
                sb[c][i] = val(rank, it, i);
            for (int i = 0; i < 2 * B + 2; i++)
                rb[c][i] = -1;
        }
        MT_CALL(MPI_Startall(NC, r));
        MT_CALL(MPI_Waitall(NC, r, MPI_STATUSES_IGNORE));
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < B; i++) {
                MT_CHECK_INT(errs, names[AG], val(nb[k], it, i), rb[AG][k * B + i]);
                /* alltoall: neighbour k sent me its block 1 - k */
                MT_CHECK_INT(errs, names[A2A], val(nb[k], it, (1 - k) * B + i), rb[A2A][k * B + i]);
            }
            MT_CHECK_INT(errs, names[AGV], val(nb[k], it, 0), rb[AGV][dsp[k]]);
            for (int c = A2AV; c <= A2AW; c++)
                for (int i = 0; i < rcnt[k]; i++)
                    MT_CHECK_INT(errs, names[c], val(nb[k], it, sdsp[1 - k] + i), rb[c][rdsp[k] + i]);
        }
        MT_CHECK_INT(errs, "neighbor_alltoallv gap", -1, rb[A2AV][B]);
        mt_migrate();
    }
    for (int c = 0; c < NC; c++)
        MT_CALL(MPI_Request_free(&r[c]));
    MPI_Comm_free(&ring);
    return mt_finish(errs);
}
