/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v,w), their nonblocking MPI_Ineighbor_ forms and their
 * persistent _init forms (persist.h). */
#include <stdlib.h>
#include "binding/check.h"
#include "binding/persist.h"
#include "mpi/comm/neighbor.h"

static int nbr_comm(vmpi_chk *ck, MPI_Comm comm, vmpi_comm **c, int *in, int *out, bool nb, MPI_Request *req)
{
    int err;
    if ((err = vmpi_chk_ranked(ck)) || (err = vmpi_chk_comm(ck, comm, c)) || (err = vmpi_chk_intra(ck, *c)) ||
        (nb && (err = vmpi_chk_ptr(ck, req, "request"))))
        return err;
    if ((err = vmpi_nbr_degrees(*c, in, out)) != MPI_SUCCESS)
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

static int nbr_allgather(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                         MPI_Datatype rdt, MPI_Comm comm, bool nb, MPI_Request *req, const char *fn)
{
    VMPI_VP_CALL(fn);
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *sd, *rd;
    int in, out, err;
    if (!(err = nbr_comm(&ck, comm, &c, &in, &out, nb, req)) && !(err = chk_block(&ck, sbuf, scount, sdt, &sd)) &&
        !(err = chk_block(&ck, rbuf, rcount, rdt, &rd))) {
        vmpi_nbr_side s = {.counts = vmpi_iv_regular(scount, 0), .count = scount, .type = sd, .same_block = true},
                      r = {.counts = vmpi_iv_regular(rcount, 0), .count = rcount, .type = rd};
        err = vmpi_nbr_exchange(c, sbuf, &s, rbuf, &r, nb ? req : NULL, fn);
    }
    return err ? vmpi_coll_fail(comm, err, fn, &ck) : MPI_SUCCESS;
}

static int nbr_allgatherv(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, vmpi_ivec rcounts,
                          vmpi_ivec displs, MPI_Datatype rdt, MPI_Comm comm, bool nb, MPI_Request *req, const char *fn)
{
    VMPI_VP_CALL(fn);
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *sd, *rd;
    int in, out, err;
    if (!(err = nbr_comm(&ck, comm, &c, &in, &out, nb, req)) && !(err = chk_block(&ck, sbuf, scount, sdt, &sd)) &&
        !(err = vmpi_chk_dt(&ck, rdt, &rd)) && in > 0 && !(err = vmpi_chk_ptr(&ck, rcounts.p, "recvcounts")) &&
        !(err = vmpi_chk_ptr(&ck, displs.p, "displs")))
        err = vmpi_chk_counts(&ck, rcounts, in);
    if (!err) {
        MPI_Aint *off = offsets(in, displs, rd);
        vmpi_nbr_side s = {.counts = vmpi_iv_regular(scount, 0), .count = scount, .type = sd, .same_block = true},
                      r = {.off = off, .counts = rcounts, .type = rd};
        err = off ? vmpi_nbr_exchange(c, sbuf, &s, rbuf, &r, nb ? req : NULL, fn) : MPI_ERR_NO_MEM;
        free(off);
    }
    return err ? vmpi_coll_fail(comm, err, fn, &ck) : MPI_SUCCESS;
}

static int nbr_alltoall(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                        MPI_Datatype rdt, MPI_Comm comm, bool nb, MPI_Request *req, const char *fn)
{
    VMPI_VP_CALL(fn);
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *sd, *rd;
    int in, out, err;
    if (!(err = nbr_comm(&ck, comm, &c, &in, &out, nb, req)) && !(err = chk_block(&ck, sbuf, scount, sdt, &sd)) &&
        !(err = chk_block(&ck, rbuf, rcount, rdt, &rd))) {
        vmpi_nbr_side s = {.counts = vmpi_iv_regular(scount, 0), .count = scount, .type = sd},
                      r = {.counts = vmpi_iv_regular(rcount, 0), .count = rcount, .type = rd};
        err = vmpi_nbr_exchange(c, sbuf, &s, rbuf, &r, nb ? req : NULL, fn);
    }
    return err ? vmpi_coll_fail(comm, err, fn, &ck) : MPI_SUCCESS;
}

static int nbr_alltoallv(const void *sbuf, vmpi_ivec scounts, vmpi_ivec sdispls, MPI_Datatype sdt, void *rbuf,
                         vmpi_ivec rcounts, vmpi_ivec rdispls, MPI_Datatype rdt, MPI_Comm comm, bool nb,
                         MPI_Request *req, const char *fn)
{
    VMPI_VP_CALL(fn);
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *sd, *rd;
    int in, out, err;
    if (!(err = nbr_comm(&ck, comm, &c, &in, &out, nb, req)) && !(err = vmpi_chk_dt(&ck, sdt, &sd)) &&
        !(err = vmpi_chk_dt(&ck, rdt, &rd))) {
        if (out > 0 && (vmpi_iv_null(scounts) || vmpi_iv_null(sdispls)))
            err = vmpi_chk_ptr(&ck, NULL, "sendcounts or sdispls");
        else if (in > 0 && (vmpi_iv_null(rcounts) || vmpi_iv_null(rdispls)))
            err = vmpi_chk_ptr(&ck, NULL, "recvcounts or rdispls");
        else if (!(err = vmpi_chk_counts(&ck, scounts, out)))
            err = vmpi_chk_counts(&ck, rcounts, in);
    }
    if (!err) {
        MPI_Aint *so = offsets(out, sdispls, sd), *ro = offsets(in, rdispls, rd);
        vmpi_nbr_side s = {.off = so, .counts = scounts, .type = sd}, r = {.off = ro, .counts = rcounts, .type = rd};
        err = so && ro ? vmpi_nbr_exchange(c, sbuf, &s, rbuf, &r, nb ? req : NULL, fn) : MPI_ERR_NO_MEM;
        free(so);
        free(ro);
    }
    return err ? vmpi_coll_fail(comm, err, fn, &ck) : MPI_SUCCESS;
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

static int nbr_alltoallw(const void *sbuf, vmpi_ivec scounts, const MPI_Aint *sdispls, const MPI_Datatype *stypes,
                         void *rbuf, vmpi_ivec rcounts, const MPI_Aint *rdispls, const MPI_Datatype *rtypes,
                            MPI_Comm comm, bool nb, MPI_Request *req, const char *fn)
{
    VMPI_VP_CALL(fn);
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype **st = NULL, **rt = NULL;
    int in, out, err;
    if (!(err = nbr_comm(&ck, comm, &c, &in, &out, nb, req))) {
        if (out > 0 && (vmpi_iv_null(scounts) || !sdispls || !stypes))
            err = vmpi_chk_ptr(&ck, NULL, "sendcounts, sdispls or sendtypes");
        else if (in > 0 && (vmpi_iv_null(rcounts) || !rdispls || !rtypes))
            err = vmpi_chk_ptr(&ck, NULL, "recvcounts, rdispls or recvtypes");
        else if (!(err = vmpi_chk_counts(&ck, scounts, out)))
            err = vmpi_chk_counts(&ck, rcounts, in);
    }
    if (!err)
        err = types_of(&ck, out, stypes, &st);
    if (!err)
        err = types_of(&ck, in, rtypes, &rt);
    if (!err) {
        vmpi_nbr_side s = {.off = sdispls, .counts = scounts, .types = st},
                      r = {.off = rdispls, .counts = rcounts, .types = rt};
        err = vmpi_nbr_exchange(c, sbuf, &s, rbuf, &r, nb ? req : NULL, fn);
    }
    free(st);
    free(rt);
    return err ? vmpi_coll_fail(comm, err, fn, &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Neighbor_allgather)
int PMPI_Neighbor_allgather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                            MPI_Comm comm)
{
    return nbr_allgather(sbuf, scount, sdt, rbuf, rcount, rdt, comm, false, NULL, "MPI_Neighbor_allgather");
}
VMPI_WEAK(Neighbor_allgather_c)
int PMPI_Neighbor_allgather_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                              MPI_Datatype rdt, MPI_Comm comm)
{
    return nbr_allgather(sbuf, scount, sdt, rbuf, rcount, rdt, comm, false, NULL, "MPI_Neighbor_allgather_c");
}

VMPI_WEAK(Ineighbor_allgather)
int PMPI_Ineighbor_allgather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                            MPI_Comm comm, MPI_Request *request)
{
    return nbr_allgather(sbuf, scount, sdt, rbuf, rcount, rdt, comm, true, request, "MPI_Ineighbor_allgather");
}
VMPI_WEAK(Ineighbor_allgather_c)
int PMPI_Ineighbor_allgather_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                               MPI_Datatype rdt, MPI_Comm comm, MPI_Request *request)
{
    return nbr_allgather(sbuf, scount, sdt, rbuf, rcount, rdt, comm, true, request, "MPI_Ineighbor_allgather_c");
}

VMPI_WEAK(Neighbor_allgatherv)
int PMPI_Neighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int *rcounts,
                             const int *displs, MPI_Datatype rdt, MPI_Comm comm)
{
    return nbr_allgatherv(sbuf, scount, sdt, rbuf, vmpi_iv_int(rcounts), vmpi_iv_int(displs), rdt, comm, false, NULL,
                          "MPI_Neighbor_allgatherv");
}
VMPI_WEAK(Neighbor_allgatherv_c)
int PMPI_Neighbor_allgatherv_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf,
                               const MPI_Count *rcounts, const MPI_Aint *displs, MPI_Datatype rdt, MPI_Comm comm)
{
    return nbr_allgatherv(sbuf, scount, sdt, rbuf, vmpi_iv_count(rcounts), vmpi_iv_aint(displs), rdt, comm, false,
                          NULL, "MPI_Neighbor_allgatherv_c");
}

VMPI_WEAK(Ineighbor_allgatherv)
int PMPI_Ineighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int *rcounts,
                             const int *displs, MPI_Datatype rdt, MPI_Comm comm, MPI_Request *request)
{
    return nbr_allgatherv(sbuf, scount, sdt, rbuf, vmpi_iv_int(rcounts), vmpi_iv_int(displs), rdt, comm, true, request,
                          "MPI_Ineighbor_allgatherv");
}
VMPI_WEAK(Ineighbor_allgatherv_c)
int PMPI_Ineighbor_allgatherv_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf,
                                const MPI_Count *rcounts, const MPI_Aint *displs, MPI_Datatype rdt, MPI_Comm comm,
                                MPI_Request *request)
{
    return nbr_allgatherv(sbuf, scount, sdt, rbuf, vmpi_iv_count(rcounts), vmpi_iv_aint(displs), rdt, comm, true,
                          request, "MPI_Ineighbor_allgatherv_c");
}

VMPI_WEAK(Neighbor_alltoall)
int PMPI_Neighbor_alltoall(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                           MPI_Comm comm)
{
    return nbr_alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm, false, NULL, "MPI_Neighbor_alltoall");
}
VMPI_WEAK(Neighbor_alltoall_c)
int PMPI_Neighbor_alltoall_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                             MPI_Datatype rdt, MPI_Comm comm)
{
    return nbr_alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm, false, NULL, "MPI_Neighbor_alltoall_c");
}

VMPI_WEAK(Ineighbor_alltoall)
int PMPI_Ineighbor_alltoall(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                           MPI_Comm comm, MPI_Request *request)
{
    return nbr_alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm, true, request, "MPI_Ineighbor_alltoall");
}
VMPI_WEAK(Ineighbor_alltoall_c)
int PMPI_Ineighbor_alltoall_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                              MPI_Datatype rdt, MPI_Comm comm, MPI_Request *request)
{
    return nbr_alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm, true, request, "MPI_Ineighbor_alltoall_c");
}

VMPI_WEAK(Neighbor_alltoallv)
int PMPI_Neighbor_alltoallv(const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype sdt, void *rbuf,
                            const int *rcounts, const int *rdispls, MPI_Datatype rdt, MPI_Comm comm)
{
    return nbr_alltoallv(sbuf, vmpi_iv_int(scounts), vmpi_iv_int(sdispls), sdt, rbuf, vmpi_iv_int(rcounts),
                         vmpi_iv_int(rdispls), rdt, comm, false, NULL, "MPI_Neighbor_alltoallv");
}
VMPI_WEAK(Neighbor_alltoallv_c)
int PMPI_Neighbor_alltoallv_c(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls, MPI_Datatype sdt,
                              void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls, MPI_Datatype rdt,
                              MPI_Comm comm)
{
    return nbr_alltoallv(sbuf, vmpi_iv_count(scounts), vmpi_iv_aint(sdispls), sdt, rbuf, vmpi_iv_count(rcounts),
                         vmpi_iv_aint(rdispls), rdt, comm, false, NULL, "MPI_Neighbor_alltoallv_c");
}

VMPI_WEAK(Ineighbor_alltoallv)
int PMPI_Ineighbor_alltoallv(const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype sdt, void *rbuf,
                            const int *rcounts, const int *rdispls, MPI_Datatype rdt, MPI_Comm comm,
                            MPI_Request *request)
{
    return nbr_alltoallv(sbuf, vmpi_iv_int(scounts), vmpi_iv_int(sdispls), sdt, rbuf, vmpi_iv_int(rcounts),
                         vmpi_iv_int(rdispls), rdt, comm, true, request, "MPI_Ineighbor_alltoallv");
}
VMPI_WEAK(Ineighbor_alltoallv_c)
int PMPI_Ineighbor_alltoallv_c(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls, MPI_Datatype sdt,
                               void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls, MPI_Datatype rdt,
                               MPI_Comm comm, MPI_Request *request)
{
    return nbr_alltoallv(sbuf, vmpi_iv_count(scounts), vmpi_iv_aint(sdispls), sdt, rbuf, vmpi_iv_count(rcounts),
                         vmpi_iv_aint(rdispls), rdt, comm, true, request, "MPI_Ineighbor_alltoallv_c");
}

VMPI_WEAK(Neighbor_alltoallw)
int PMPI_Neighbor_alltoallw(const void *sbuf, const int *scounts, const MPI_Aint *sdispls, const MPI_Datatype *stypes,
                            void *rbuf, const int *rcounts, const MPI_Aint *rdispls, const MPI_Datatype *rtypes,
                            MPI_Comm comm)
{
    return nbr_alltoallw(sbuf, vmpi_iv_int(scounts), sdispls, stypes, rbuf, vmpi_iv_int(rcounts), rdispls, rtypes,
                         comm, false, NULL, "MPI_Neighbor_alltoallw");
}
VMPI_WEAK(Neighbor_alltoallw_c)
int PMPI_Neighbor_alltoallw_c(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                              const MPI_Datatype *stypes, void *rbuf, const MPI_Count *rcounts,
                              const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm comm)
{
    return nbr_alltoallw(sbuf, vmpi_iv_count(scounts), sdispls, stypes, rbuf, vmpi_iv_count(rcounts), rdispls, rtypes,
                         comm, false, NULL, "MPI_Neighbor_alltoallw_c");
}

VMPI_WEAK(Ineighbor_alltoallw)
int PMPI_Ineighbor_alltoallw(const void *sbuf, const int *scounts, const MPI_Aint *sdispls, const MPI_Datatype *stypes,
                            void *rbuf, const int *rcounts, const MPI_Aint *rdispls, const MPI_Datatype *rtypes,
                            MPI_Comm comm, MPI_Request *request)
{
    return nbr_alltoallw(sbuf, vmpi_iv_int(scounts), sdispls, stypes, rbuf, vmpi_iv_int(rcounts), rdispls, rtypes,
                         comm, true, request, "MPI_Ineighbor_alltoallw");
}
VMPI_WEAK(Ineighbor_alltoallw_c)
int PMPI_Ineighbor_alltoallw_c(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                               const MPI_Datatype *stypes, void *rbuf, const MPI_Count *rcounts,
                               const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm comm, MPI_Request *request)
{
    return nbr_alltoallw(sbuf, vmpi_iv_count(scounts), sdispls, stypes, rbuf, vmpi_iv_count(rcounts), rdispls, rtypes,
                         comm, true, request, "MPI_Ineighbor_alltoallw_c");
}

/* ---- persistent forms (MPI-4.1 7.8) ---- */

VMPI_WEAK(Neighbor_allgather_init)
int PMPI_Neighbor_allgather_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                                 MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    VMPI_PERSIST(comm, info, "MPI_Neighbor_allgather_init",
                 nbr_allgather(sbuf, scount, sdt, rbuf, rcount, rdt, comm, true, request,
                               "MPI_Neighbor_allgather_init"));
}
VMPI_WEAK(Neighbor_allgather_init_c)
int PMPI_Neighbor_allgather_init_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                                   MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    VMPI_PERSIST(comm, info, "MPI_Neighbor_allgather_init_c",
                 nbr_allgather(sbuf, scount, sdt, rbuf, rcount, rdt, comm, true, request,
                               "MPI_Neighbor_allgather_init_c"));
}

VMPI_WEAK(Neighbor_allgatherv_init)
int PMPI_Neighbor_allgatherv_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int *rcounts,
                                  const int *displs, MPI_Datatype rdt, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    VMPI_PERSIST(comm, info, "MPI_Neighbor_allgatherv_init",
                 nbr_allgatherv(sbuf, scount, sdt, rbuf, vmpi_iv_int(rcounts), vmpi_iv_int(displs), rdt, comm, true,
                                request, "MPI_Neighbor_allgatherv_init"));
}
VMPI_WEAK(Neighbor_allgatherv_init_c)
int PMPI_Neighbor_allgatherv_init_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf,
                                    const MPI_Count *rcounts, const MPI_Aint *displs, MPI_Datatype rdt, MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request)
{
    VMPI_PERSIST(comm, info, "MPI_Neighbor_allgatherv_init_c",
                 nbr_allgatherv(sbuf, scount, sdt, rbuf, vmpi_iv_count(rcounts), vmpi_iv_aint(displs), rdt, comm, true,
                                request, "MPI_Neighbor_allgatherv_init_c"));
}

VMPI_WEAK(Neighbor_alltoall_init)
int PMPI_Neighbor_alltoall_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount,
                                MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    VMPI_PERSIST(comm, info, "MPI_Neighbor_alltoall_init",
                 nbr_alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm, true, request,
                              "MPI_Neighbor_alltoall_init"));
}
VMPI_WEAK(Neighbor_alltoall_init_c)
int PMPI_Neighbor_alltoall_init_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                                  MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    VMPI_PERSIST(comm, info, "MPI_Neighbor_alltoall_init_c",
                 nbr_alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm, true, request,
                              "MPI_Neighbor_alltoall_init_c"));
}

VMPI_WEAK(Neighbor_alltoallv_init)
int PMPI_Neighbor_alltoallv_init(const void *sbuf, const int *scounts, const int *sdispls, MPI_Datatype sdt,
                                 void *rbuf, const int *rcounts, const int *rdispls, MPI_Datatype rdt, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    VMPI_PERSIST(comm, info, "MPI_Neighbor_alltoallv_init",
                 nbr_alltoallv(sbuf, vmpi_iv_int(scounts), vmpi_iv_int(sdispls), sdt, rbuf, vmpi_iv_int(rcounts),
                               vmpi_iv_int(rdispls), rdt, comm, true, request, "MPI_Neighbor_alltoallv_init"));
}
VMPI_WEAK(Neighbor_alltoallv_init_c)
int PMPI_Neighbor_alltoallv_init_c(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                                   MPI_Datatype sdt, void *rbuf, const MPI_Count *rcounts, const MPI_Aint *rdispls,
                                   MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    VMPI_PERSIST(comm, info, "MPI_Neighbor_alltoallv_init_c",
                 nbr_alltoallv(sbuf, vmpi_iv_count(scounts), vmpi_iv_aint(sdispls), sdt, rbuf, vmpi_iv_count(rcounts),
                               vmpi_iv_aint(rdispls), rdt, comm, true, request, "MPI_Neighbor_alltoallv_init_c"));
}

VMPI_WEAK(Neighbor_alltoallw_init)
int PMPI_Neighbor_alltoallw_init(const void *sbuf, const int *scounts, const MPI_Aint *sdispls,
                                 const MPI_Datatype *stypes, void *rbuf, const int *rcounts, const MPI_Aint *rdispls,
                                 const MPI_Datatype *rtypes, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    VMPI_PERSIST(comm, info, "MPI_Neighbor_alltoallw_init",
                 nbr_alltoallw(sbuf, vmpi_iv_int(scounts), sdispls, stypes, rbuf, vmpi_iv_int(rcounts), rdispls,
                               rtypes, comm, true, request, "MPI_Neighbor_alltoallw_init"));
}
VMPI_WEAK(Neighbor_alltoallw_init_c)
int PMPI_Neighbor_alltoallw_init_c(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                                   const MPI_Datatype *stypes, void *rbuf, const MPI_Count *rcounts,
                                   const MPI_Aint *rdispls, const MPI_Datatype *rtypes, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    VMPI_PERSIST(comm, info, "MPI_Neighbor_alltoallw_init_c",
                 nbr_alltoallw(sbuf, vmpi_iv_count(scounts), sdispls, stypes, rbuf, vmpi_iv_count(rcounts), rdispls,
                               rtypes, comm, true, request, "MPI_Neighbor_alltoallw_init_c"));
}
