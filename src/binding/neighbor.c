/* SPDX-License-Identifier: BSD-3-Clause */
/* The implementations (binding/impl.h) of MPI_Neighbor_allgather(v) and MPI_Neighbor_alltoall(v,w), for
 * their blocking (request NULL), nonblocking (MPI_Ineighbor_) and persistent (_init: persist.h) entry points,
 * generated (spec/neighbor.toml) to check the caller, the communicator and the request pointer. */
#include <stdlib.h>
#include "binding/check.h"
#include "binding/impl.h"
#include "mpi/comm/neighbor.h"

/* The communicator's degrees: an intracommunicator with a process topology. */
static int nbr_comm(vmpi_chk *ck, vmpi_comm *c, int *in, int *out)
{
    int err;
    if ((err = vmpi_chk_intra(ck, c)))
        return err;
    if ((err = vmpi_nbr_degrees(c, in, out)) != MPI_SUCCESS)
        snprintf(ck->why, sizeof ck->why, "the communicator has no process topology");
    return err;
}

static int chk_block(vmpi_chk *ck, const void *buf, MPI_Count count, MPI_Datatype h, const vmpi_dtype **d)
{
    int err;
    if ((err = vmpi_chk_count(ck, count)) || (err = vmpi_chk_dt(ck, h, d)))
        return err;
    return vmpi_chk_buf(ck, buf, count, *d);
}

/* Byte offsets of blocks given as displacements in units of `dt`'s extent. */
static MPI_Aint *offsets(int n, vmpi_ivec displs, const vmpi_dtype *dt)
{
    MPI_Aint *o = malloc(sizeof(MPI_Aint) * (size_t)(n ? n : 1));
    for (int k = 0; o && k < n; k++)
        o[k] = vmpi_iv_at(displs, k) * dt->extent;
    return o;
}

int vmpi_b_Neighbor_allgather(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                              MPI_Datatype rdt, vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    const vmpi_dtype *sd, *rd;
    int in, out, err;
    if (!(err = nbr_comm(ck, c, &in, &out)) && !(err = chk_block(ck, sbuf, scount, sdt, &sd)) &&
        !(err = chk_block(ck, rbuf, rcount, rdt, &rd))) {
        vmpi_nbr_side s = {.counts = vmpi_iv_regular(scount, 0), .count = scount, .type = sd, .same_block = true},
                      r = {.counts = vmpi_iv_regular(rcount, 0), .count = rcount, .type = rd};
        err = vmpi_nbr_exchange(c, sbuf, &s, rbuf, &r, req, "MPI_Neighbor_allgather");
    }
    return err;
}

int vmpi_b_Neighbor_allgatherv(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, vmpi_ivec rcounts,
                               vmpi_ivec displs, MPI_Datatype rdt, vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    const vmpi_dtype *sd, *rd;
    int in, out, err;
    if (!(err = nbr_comm(ck, c, &in, &out)) && !(err = chk_block(ck, sbuf, scount, sdt, &sd)) &&
        !(err = vmpi_chk_dt(ck, rdt, &rd)) && in > 0 && !(err = vmpi_chk_ptr(ck, rcounts.p, "recvcounts")) &&
        !(err = vmpi_chk_ptr(ck, displs.p, "displs")))
        err = vmpi_chk_counts(ck, rcounts, in);
    if (!err) {
        MPI_Aint *off = offsets(in, displs, rd);
        vmpi_nbr_side s = {.counts = vmpi_iv_regular(scount, 0), .count = scount, .type = sd, .same_block = true},
                      r = {.off = off, .counts = rcounts, .type = rd};
        err = off ? vmpi_nbr_exchange(c, sbuf, &s, rbuf, &r, req, "MPI_Neighbor_allgatherv") : MPI_ERR_NO_MEM;
        free(off);
    }
    return err;
}

int vmpi_b_Neighbor_alltoall(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                             MPI_Datatype rdt, vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    const vmpi_dtype *sd, *rd;
    int in, out, err;
    if (!(err = nbr_comm(ck, c, &in, &out)) && !(err = chk_block(ck, sbuf, scount, sdt, &sd)) &&
        !(err = chk_block(ck, rbuf, rcount, rdt, &rd))) {
        vmpi_nbr_side s = {.counts = vmpi_iv_regular(scount, 0), .count = scount, .type = sd},
                      r = {.counts = vmpi_iv_regular(rcount, 0), .count = rcount, .type = rd};
        err = vmpi_nbr_exchange(c, sbuf, &s, rbuf, &r, req, "MPI_Neighbor_alltoall");
    }
    return err;
}

int vmpi_b_Neighbor_alltoallv(const void *sbuf, vmpi_ivec scounts, vmpi_ivec sdispls, MPI_Datatype sdt, void *rbuf,
                              vmpi_ivec rcounts, vmpi_ivec rdispls, MPI_Datatype rdt, vmpi_comm *c, MPI_Request *req,
                              vmpi_chk *ck)
{
    const vmpi_dtype *sd, *rd;
    int in, out, err;
    if (!(err = nbr_comm(ck, c, &in, &out)) && !(err = vmpi_chk_dt(ck, sdt, &sd)) &&
        !(err = vmpi_chk_dt(ck, rdt, &rd))) {
        if (out > 0 && (vmpi_iv_null(scounts) || vmpi_iv_null(sdispls)))
            err = vmpi_chk_ptr(ck, NULL, "sendcounts or sdispls");
        else if (in > 0 && (vmpi_iv_null(rcounts) || vmpi_iv_null(rdispls)))
            err = vmpi_chk_ptr(ck, NULL, "recvcounts or rdispls");
        else if (!(err = vmpi_chk_counts(ck, scounts, out)))
            err = vmpi_chk_counts(ck, rcounts, in);
    }
    if (!err) {
        MPI_Aint *so = offsets(out, sdispls, sd), *ro = offsets(in, rdispls, rd);
        vmpi_nbr_side s = {.off = so, .counts = scounts, .type = sd}, r = {.off = ro, .counts = rcounts, .type = rd};
        err = so && ro ? vmpi_nbr_exchange(c, sbuf, &s, rbuf, &r, req, "MPI_Neighbor_alltoallv") : MPI_ERR_NO_MEM;
        free(so);
        free(ro);
    }
    return err;
}

/* Datatype objects of a handle array (MPI_ERR_TYPE on a bad one). */
static int types_of(vmpi_chk *ck, int n, const MPI_Datatype *h, const vmpi_dtype ***out)
{
    *out = malloc(sizeof(**out) * (size_t)(n ? n : 1));
    if (*out == NULL)
        return MPI_ERR_NO_MEM;
    for (int k = 0; k < n; k++) {
        int err = vmpi_chk_dt(ck, h[k], &(*out)[k]);
        if (err)
            return err;
    }
    return MPI_SUCCESS;
}

int vmpi_b_Neighbor_alltoallw(const void *sbuf, vmpi_ivec scounts, const MPI_Aint *sdispls, const MPI_Datatype *stypes,
                              void *rbuf, vmpi_ivec rcounts, const MPI_Aint *rdispls, const MPI_Datatype *rtypes,
                              vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    const vmpi_dtype **st = NULL, **rt = NULL;
    int in, out, err;
    if (!(err = nbr_comm(ck, c, &in, &out))) {
        if (out > 0 && (vmpi_iv_null(scounts) || !sdispls || !stypes))
            err = vmpi_chk_ptr(ck, NULL, "sendcounts, sdispls or sendtypes");
        else if (in > 0 && (vmpi_iv_null(rcounts) || !rdispls || !rtypes))
            err = vmpi_chk_ptr(ck, NULL, "recvcounts, rdispls or recvtypes");
        else if (!(err = vmpi_chk_counts(ck, scounts, out)))
            err = vmpi_chk_counts(ck, rcounts, in);
    }
    if (!err)
        err = types_of(ck, out, stypes, &st);
    if (!err)
        err = types_of(ck, in, rtypes, &rt);
    if (!err) {
        vmpi_nbr_side s = {.off = sdispls, .counts = scounts, .types = st},
                      r = {.off = rdispls, .counts = rcounts, .types = rt};
        err = vmpi_nbr_exchange(c, sbuf, &s, rbuf, &r, req, "MPI_Neighbor_alltoallw");
    }
    free(st);
    free(rt);
    return err;
}
