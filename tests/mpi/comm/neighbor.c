/* SPDX-License-Identifier: BSD-3-Clause */
/* Neighbourhood collectives:
 *   - 2D Cartesian grids, periodic and not (with 2 ranks along a periodic dimension the same rank is both
 *     neighbours: the blocks must still land in the right slots): Neighbor_allgather of the rank and
 *     Neighbor_alltoall of rank*100+slot, checked slot by slot (slot k comes from the neighbour's opposite
 *     slot, k ^ 1); blocks of MPI_PROC_NULL neighbours are left untouched; the nonblocking forms, two
 *     outstanding at once, give the same;
 *   - a ring graph: Neighbor_allgatherv into reversed displacements;
 *   - a distributed graph (to the right and to rank 0): Neighbor_alltoallv with counts that depend on the
 *     pair, and Neighbor_alltoallw with byte displacements, every element checked. */
#include "mtest.h"

static int cart_case(int periodic, int rank, int size)
{
    int errs = 0, dims[2] = {0, 0}, per[2] = {periodic, periodic};
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, 0, &cart);
    int nb[4], sb[4], rb[4], ag[4];
    MPI_Cart_shift(cart, 0, 1, &nb[0], &nb[1]);
    MPI_Cart_shift(cart, 1, 1, &nb[2], &nb[3]);
    for (int k = 0; k < 4; k++) {
        sb[k] = rank * 100 + k;
        rb[k] = ag[k] = -1;
    }
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, ag, 1, MPI_INT, cart);
    MPI_Neighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, cart);
    for (int k = 0; k < 4; k++) {
        int want_ag = nb[k] == MPI_PROC_NULL ? -1 : nb[k];
        int want_rb = nb[k] == MPI_PROC_NULL ? -1 : nb[k] * 100 + (k ^ 1);
        if (ag[k] != want_ag)
            MT_ERR(errs, "cart%s allgather slot %d: %d, expected %d", periodic ? " periodic" : "", k, ag[k], want_ag);
        if (rb[k] != want_rb)
            MT_ERR(errs, "cart%s alltoall slot %d: %d, expected %d", periodic ? " periodic" : "", k, rb[k], want_rb);
    }
    /* the nonblocking forms, two outstanding at once and completed together */
    int ag2[4], rb2[4];
    MPI_Request rq[2];
    for (int k = 0; k < 4; k++)
        rb2[k] = ag2[k] = -1;
    MPI_Ineighbor_allgather(&rank, 1, MPI_INT, ag2, 1, MPI_INT, cart, &rq[0]);
    MPI_Ineighbor_alltoall(sb, 1, MPI_INT, rb2, 1, MPI_INT, cart, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    for (int k = 0; k < 4; k++)
        if (ag2[k] != ag[k] || rb2[k] != rb[k])
            MT_ERR(errs, "cart%s nonblocking slot %d: %d/%d, blocking gave %d/%d", periodic ? " periodic" : "", k,
                   ag2[k], rb2[k], ag[k], rb[k]);
    MPI_Comm_free(&cart);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    errs += cart_case(1, rank, size);
    errs += cart_case(0, rank, size);

    /* ring graph, allgatherv into reversed displacements: slot 0 (left) at 2, slot 1 (right) at 0 */
    int *index = malloc(sizeof(int) * (size_t)size), *edges = malloc(sizeof(int) * 2 * (size_t)size);
    for (int i = 0; i < size; i++) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i + size - 1) % size;
        edges[2 * i + 1] = (i + 1) % size;
    }
    MPI_Comm ring;
    MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &ring);
    int two[2] = {rank, -rank}, got[4] = {-9, -9, -9, -9}, rc[2] = {2, 2}, dis[2] = {2, 0};
    MPI_Neighbor_allgatherv(two, 2, MPI_INT, got, rc, dis, MPI_INT, ring);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    if (got[2] != left || got[3] != -left || got[0] != right || got[1] != -right)
        MT_ERR(errs, "graph allgatherv got %d %d %d %d", got[0], got[1], got[2], got[3]);
    MPI_Comm_free(&ring);
    free(index);
    free(edges);

    /* distributed graph: out to the right and to 0; in from the left, and from everyone at rank 0 */
    int nout = 2, dests[2] = {right, 0}, nin = rank == 0 ? 1 + size : 1;
    int *srcs = malloc(sizeof(int) * (size_t)nin);
    srcs[0] = left;
    for (int r = 0; rank == 0 && r < size; r++)
        srcs[1 + r] = r;
    MPI_Comm dg;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nin, srcs, MPI_UNWEIGHTED, nout, dests, MPI_UNWEIGHTED,
                                   MPI_INFO_NULL, 0, &dg);
    /* to the right: rank+1 ints; to 0: 1 int; values encode (sender, slot, index) */
    int scount[2] = {rank + 1, 1}, sdis[2] = {0, rank + 1};
    int *sbuf = malloc(sizeof(int) * (size_t)(rank + 2));
    for (int i = 0; i < rank + 1; i++)
        sbuf[i] = rank * 1000 + i;
    sbuf[rank + 1] = rank * 1000 + 999;
    int *rcount = malloc(sizeof(int) * (size_t)nin), *rdis = malloc(sizeof(int) * (size_t)nin), tot = 0;
    rcount[0] = left + 1;
    for (int k = 1; k < nin; k++)
        rcount[k] = 1;
    for (int k = 0; k < nin; k++) {
        rdis[k] = tot;
        tot += rcount[k];
    }
    int *rbuf = malloc(sizeof(int) * (size_t)tot);
    MPI_Neighbor_alltoallv(sbuf, scount, sdis, MPI_INT, rbuf, rcount, rdis, MPI_INT, dg);
    for (int i = 0; i < left + 1; i++)
        if (rbuf[i] != left * 1000 + i)
            MT_ERR(errs, "alltoallv from the left [%d] = %d", i, rbuf[i]);
    for (int k = 1; k < nin; k++)
        if (rbuf[rdis[k]] != srcs[k] * 1000 + 999)
            MT_ERR(errs, "alltoallv at 0 from %d = %d", srcs[k], rbuf[rdis[k]]);
    /* alltoallw: the same with byte displacements and per-neighbour types (ints, then one double) */
    double dsend = rank + 0.5, *drecv = malloc(sizeof(double) * (size_t)nin);
    MPI_Aint swd[2] = {0, (MPI_Aint)((char *)&dsend - (char *)sbuf)};
    int swc[2] = {rank + 1, 1};
    MPI_Datatype swt[2] = {MPI_INT, MPI_DOUBLE};
    int *rwc = malloc(sizeof(int) * (size_t)nin);
    MPI_Aint *rwd = malloc(sizeof(MPI_Aint) * (size_t)nin);
    MPI_Datatype *rwt = malloc(sizeof(MPI_Datatype) * (size_t)nin);
    int *ri = malloc(sizeof(int) * (size_t)(left + 1));
    rwc[0] = left + 1;
    rwd[0] = 0;
    rwt[0] = MPI_INT;
    for (int k = 1; k < nin; k++) {
        rwc[k] = 1;
        rwd[k] = (MPI_Aint)((char *)&drecv[k] - (char *)ri);
        rwt[k] = MPI_DOUBLE;
    }
    MPI_Neighbor_alltoallw(sbuf, swc, swd, swt, ri, rwc, rwd, rwt, dg);
    for (int i = 0; i < left + 1; i++)
        if (ri[i] != left * 1000 + i)
            MT_ERR(errs, "alltoallw from the left [%d] = %d", i, ri[i]);
    for (int k = 1; k < nin; k++)
        if (drecv[k] != srcs[k] + 0.5)
            MT_ERR(errs, "alltoallw at 0 from %d = %g", srcs[k], drecv[k]);
    MPI_Comm_free(&dg);
    free(srcs);
    free(sbuf);
    free(rcount);
    free(rdis);
    free(rbuf);
    free(drecv);
    free(rwc);
    free(rwd);
    free(rwt);
    free(ri);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (MPI_Neighbor_allgather(&rank, 1, MPI_INT, two, 1, MPI_INT, MPI_COMM_WORLD) != MPI_ERR_TOPOLOGY)
        MT_ERR(errs, "a neighbourhood collective without a topology did not give MPI_ERR_TOPOLOGY");
    return mt_finish(errs);
}
