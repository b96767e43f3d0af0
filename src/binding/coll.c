/* SPDX-License-Identifier: BSD-3-Clause */
/* Collective entry points, blocking, nonblocking and persistent: each shares one checking function; the
 * blocking form passes no request and waits for the collective's schedule, the persistent form is the
 * nonblocking one with the schedule kept for MPI_Start (persist.h). */
#include <stdlib.h>
#include "binding/check.h"
#include "mpi/coll/coll.h"
#include "mpi/coll/coll_inter.h"
#include "binding/persist.h"

/* The count and displacement arrays a form without them passes. */
#define NOV vmpi_iv_int(NULL)

/* The nonblocking form's request pointer. */
static int chk_req_out(vmpi_chk *ck, bool nb, MPI_Request *req)
{
    return nb ? vmpi_chk_ptr(ck, req, "the request argument") : MPI_SUCCESS;
}

/* Communicator and request: the start of every check (*inter: an intercommunicator). */
static int chk_start_inter(vmpi_chk *ck, MPI_Comm comm, vmpi_comm **c, bool nb, MPI_Request *req, bool *inter)
{
    int err;
    if ((err = vmpi_chk_ranked(ck)) || (err = vmpi_chk_comm(ck, comm, c)) || (err = chk_req_out(ck, nb, req)))
        return err;
    *inter = vmpi_comm_is_inter(*c);
    return MPI_SUCCESS;
}

/* Blocks of the v forms on an intercommunicator: block j at buf + displs[j] extents, counts[j], to or from
 * remote rank j (NULL, n = 0 when the side is unused). */
static vmpi_inter_blk *vblocks(const void *buf, vmpi_ivec counts, vmpi_ivec displs, const vmpi_dtype *dt, int n)
{
    vmpi_inter_blk *b = malloc(sizeof *b * (size_t)(n ? n : 1));
    for (int j = 0; b && j < n; j++)
        b[j] = (vmpi_inter_blk){(char *)buf + vmpi_iv_at(displs, j) * dt->extent, vmpi_iv_at(counts, j), dt, j};
    return b;
}

/* One block to or from every remote rank (sends) or one rank (a root); the arrays are freed. */
static int inter_vrun(vmpi_comm *c, vmpi_inter_blk *sb, int ns, vmpi_inter_blk *rb, int nr, MPI_Request *req)
{
    int err = (ns && !sb) || (nr && !rb) ? MPI_ERR_NO_MEM : vmpi_inter_pairs(c, ns, sb, nr, rb, req);
    free(sb);
    free(rb);
    return err;
}

/* Checks of a send or receive side that an intercommunicator collective uses. */
static int chk_side(vmpi_chk *ck, bool used, const void *buf, MPI_Count count, MPI_Datatype dt, const vmpi_dtype **d)
{
    int err;
    if (!used)
        return MPI_SUCCESS;
    if ((err = vmpi_chk_count(ck, count)) || (err = vmpi_chk_dt(ck, dt, d)) || (err = vmpi_chk_not_in_place(ck, buf)))
        return err;
    return vmpi_chk_buf(ck, buf, count, *d);
}

/* One (buffer, count, type) triple; `buf` must not be MPI_IN_PLACE. */
static int chk_data(vmpi_chk *ck, const void *buf, MPI_Count count, MPI_Datatype dt, const vmpi_dtype **d)
{
    int err;
    if ((err = vmpi_chk_count(ck, count)) || (err = vmpi_chk_dt(ck, dt, d)) ||
        (err = vmpi_chk_not_in_place(ck, buf)) || (err = vmpi_chk_buf(ck, buf, count, *d)))
        return err;
    return MPI_SUCCESS;
}

/* ---- barrier, broadcast ---- */

static int barrier(MPI_Comm comm, bool nb, MPI_Request *req, const char *fn)
{
    VMPI_VP_CALL(fn);
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    bool inter;
    if ((err = chk_start_inter(&ck, comm, &c, nb, req, &inter)) ||
        (err = inter ? vmpi_inter_barrier(c, nb ? req : NULL) : vmpi_coll_barrier(c, nb ? req : NULL)))
        return vmpi_coll_fail(comm, err, fn, &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Barrier)
int PMPI_Barrier(MPI_Comm comm) { return barrier(comm, false, NULL, "MPI_Barrier"); }
VMPI_WEAK(Ibarrier)
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *req) { return barrier(comm, true, req, "MPI_Ibarrier"); }

static int bcast(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm, bool nb, MPI_Request *req,
                 const char *fn)
{
    VMPI_VP_CALL(fn);
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err;
    bool inter;
    if ((err = chk_start_inter(&ck, comm, &c, nb, req, &inter)))
        return vmpi_coll_fail(comm, err, fn, &ck);
    if (inter) {
        if ((err = vmpi_chk_inter_root(&ck, root, c)) || (err = chk_side(&ck, root != MPI_PROC_NULL, buf, count, dt,
                                                                         &d)) ||
            (err = vmpi_inter_bcast(buf, count, d, root, c, nb ? req : NULL)))
            return vmpi_coll_fail(comm, err, fn, &ck);
        return MPI_SUCCESS;
    }
    if ((err = vmpi_chk_root(&ck, root, c)) || (err = chk_data(&ck, buf, count, dt, &d)) ||
        (err = vmpi_coll_bcast(buf, count, d, root, c, nb ? req : NULL)))
        return vmpi_coll_fail(comm, err, fn, &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Bcast)
int PMPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    return bcast(buf, count, dt, root, comm, false, NULL, "MPI_Bcast");
}
VMPI_WEAK(Bcast_c)
int PMPI_Bcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    return bcast(buf, count, dt, root, comm, false, NULL, "MPI_Bcast_c");
}
VMPI_WEAK(Ibcast)
int PMPI_Ibcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Request *req)
{
    return bcast(buf, count, dt, root, comm, true, req, "MPI_Ibcast");
}
VMPI_WEAK(Ibcast_c)
int PMPI_Ibcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Request *req)
{
    return bcast(buf, count, dt, root, comm, true, req, "MPI_Ibcast_c");
}

/* ---- gather, scatter ---- */

/* The root's side of a v-form: counts, displacements, and the buffer for the largest extent. */
static int chk_vside(vmpi_chk *ck, const void *buf, vmpi_ivec counts, vmpi_ivec displs, MPI_Datatype dt,
                     const vmpi_dtype **d, int n)
{
    int err;
    if ((err = vmpi_chk_counts(ck, counts, n)) || (err = vmpi_chk_ptr(ck, displs.p, "the displacement array")) ||
        (err = vmpi_chk_dt(ck, dt, d)) || (err = vmpi_chk_not_in_place(ck, buf)))
        return err;
    for (int i = 0; i < n; i++)
        if ((err = vmpi_chk_buf(ck, buf, vmpi_iv_at(counts, i), *d)))
            return err;
    return MPI_SUCCESS;
}

static int gather(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                  vmpi_ivec rcounts, vmpi_ivec displs, MPI_Datatype rdt, int root, MPI_Comm comm, bool v, bool nb,
                  MPI_Request *req, const char *fn)
{
    VMPI_VP_CALL(fn);
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *sd = NULL, *rd = NULL;
    int err;
    bool inter;
    if ((err = chk_start_inter(&ck, comm, &c, nb, req, &inter)))
        return vmpi_coll_fail(comm, err, fn, &ck);
    if (inter && v) {
        int n = c->peer_size;
        if ((err = vmpi_chk_inter_root(&ck, root, c)) ||
            (root == MPI_ROOT && (err = chk_vside(&ck, rbuf, rcounts, displs, rdt, &rd, n))) ||
            (err = chk_side(&ck, root >= 0, sbuf, scount, sdt, &sd)))
            return vmpi_coll_fail(comm, err, fn, &ck);
        vmpi_inter_blk one = {(void *)sbuf, scount, sd, root};
        if (root == MPI_ROOT)
            err = inter_vrun(c, NULL, 0, vblocks(rbuf, rcounts, displs, rd, n), n, nb ? req : NULL);
        else
            err = vmpi_inter_pairs(c, root >= 0, &one, 0, NULL, nb ? req : NULL);
        return err ? vmpi_coll_fail(comm, err, fn, &ck) : MPI_SUCCESS;
    }
    if (inter) {
        if ((err = vmpi_chk_inter_root(&ck, root, c)) ||
            (err = chk_side(&ck, root >= 0, sbuf, scount, sdt, &sd)) ||
            (err = chk_side(&ck, root == MPI_ROOT, rbuf, (MPI_Count)rcount * c->peer_size, rdt, &rd)) ||
            (err = vmpi_inter_gather(sbuf, scount, sd, rbuf, rcount, rd, root, c, nb ? req : NULL)))
            return vmpi_coll_fail(comm, err, fn, &ck);
        return MPI_SUCCESS;
    }
    if ((err = vmpi_chk_root(&ck, root, c)))
        return vmpi_coll_fail(comm, err, fn, &ck);
    bool at_root = c->rank == root;
    if (sbuf != MPI_IN_PLACE || !at_root)
        err = chk_data(&ck, sbuf, scount, sdt, &sd);
    if (!err && at_root && v)
        err = chk_vside(&ck, rbuf, rcounts, displs, rdt, &rd, c->size);
    if (!err && at_root && !v)
        err = chk_data(&ck, rbuf, (MPI_Count)rcount * c->size, rdt, &rd);
    if (!err && at_root)
        err = vmpi_chk_alias(&ck, sbuf, rbuf, scount > 0 && sd && sd->size > 0);
    if (!err && v)
        err = vmpi_coll_gatherv(sbuf, scount, sd, rbuf, rcounts, displs, rd, root, c, nb ? req : NULL);
    else if (!err)
        err = vmpi_coll_gather(sbuf, scount, sd, rbuf, rcount, rd, root, c, nb ? req : NULL);
    return err ? vmpi_coll_fail(comm, err, fn, &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Gather)
int PMPI_Gather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt, int root,
                MPI_Comm comm)
{
    return gather(sbuf, scount, sdt, rbuf, rcount, NOV, NOV, rdt, root, comm, false, false, NULL, "MPI_Gather");
}
VMPI_WEAK(Gather_c)
int PMPI_Gather_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount, MPI_Datatype rdt,
                  int root, MPI_Comm comm)
{
    return gather(sbuf, scount, sdt, rbuf, rcount, NOV, NOV, rdt, root, comm, false, false, NULL, "MPI_Gather_c");
}
VMPI_WEAK(Igather)
int PMPI_Igather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt, int root,
                 MPI_Comm comm, MPI_Request *req)
{
    return gather(sbuf, scount, sdt, rbuf, rcount, NOV, NOV, rdt, root, comm, false, true, req, "MPI_Igather");
}
VMPI_WEAK(Igather_c)
int PMPI_Igather_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                   MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Request *req)
{
    return gather(sbuf, scount, sdt, rbuf, rcount, NOV, NOV, rdt, root, comm, false, true, req, "MPI_Igather_c");
}
VMPI_WEAK(Gatherv)
int PMPI_Gatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[], const int displs[],
                 MPI_Datatype rdt, int root, MPI_Comm comm)
{
    return gather(sbuf, scount, sdt, rbuf, 0, vmpi_iv_int(rcounts), vmpi_iv_int(displs), rdt, root, comm, true, false,
                  NULL, "MPI_Gatherv");
}
VMPI_WEAK(Gatherv_c)
int PMPI_Gatherv_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, const MPI_Count rcounts[],
                   const MPI_Aint displs[], MPI_Datatype rdt, int root, MPI_Comm comm)
{
    return gather(sbuf, scount, sdt, rbuf, 0, vmpi_iv_count(rcounts), vmpi_iv_aint(displs), rdt, root, comm, true,
                  false, NULL, "MPI_Gatherv_c");
}
VMPI_WEAK(Igatherv)
int PMPI_Igatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[], const int displs[],
                  MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Request *req)
{
    return gather(sbuf, scount, sdt, rbuf, 0, vmpi_iv_int(rcounts), vmpi_iv_int(displs), rdt, root, comm, true, true,
                  req, "MPI_Igatherv");
}
VMPI_WEAK(Igatherv_c)
int PMPI_Igatherv_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, const MPI_Count rcounts[],
                    const MPI_Aint displs[], MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Request *req)
{
    return gather(sbuf, scount, sdt, rbuf, 0, vmpi_iv_count(rcounts), vmpi_iv_aint(displs), rdt, root, comm, true,
                  true, req, "MPI_Igatherv_c");
}

static int scatter(const void *sbuf, MPI_Count scount, vmpi_ivec scounts, vmpi_ivec displs, MPI_Datatype sdt,
                   void *rbuf, MPI_Count rcount, MPI_Datatype rdt, int root, MPI_Comm comm, bool v, bool nb,
                   MPI_Request *req, const char *fn)
{
    VMPI_VP_CALL(fn);
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *sd = NULL, *rd = NULL;
    int err;
    bool inter;
    if ((err = chk_start_inter(&ck, comm, &c, nb, req, &inter)))
        return vmpi_coll_fail(comm, err, fn, &ck);
    if (inter && v) {
        int n = c->peer_size;
        if ((err = vmpi_chk_inter_root(&ck, root, c)) ||
            (root == MPI_ROOT && (err = chk_vside(&ck, sbuf, scounts, displs, sdt, &sd, n))) ||
            (err = chk_side(&ck, root >= 0, rbuf, rcount, rdt, &rd)))
            return vmpi_coll_fail(comm, err, fn, &ck);
        vmpi_inter_blk one = {rbuf, rcount, rd, root};
        if (root == MPI_ROOT)
            err = inter_vrun(c, vblocks(sbuf, scounts, displs, sd, n), n, NULL, 0, nb ? req : NULL);
        else
            err = vmpi_inter_pairs(c, 0, NULL, root >= 0, &one, nb ? req : NULL);
        return err ? vmpi_coll_fail(comm, err, fn, &ck) : MPI_SUCCESS;
    }
    if (inter) {
        if ((err = vmpi_chk_inter_root(&ck, root, c)) ||
            (err = chk_side(&ck, root == MPI_ROOT, sbuf, (MPI_Count)scount * c->peer_size, sdt, &sd)) ||
            (err = chk_side(&ck, root >= 0, rbuf, rcount, rdt, &rd)) ||
            (err = vmpi_inter_scatter(sbuf, scount, sd, rbuf, rcount, rd, root, c, nb ? req : NULL)))
            return vmpi_coll_fail(comm, err, fn, &ck);
        return MPI_SUCCESS;
    }
    if ((err = vmpi_chk_root(&ck, root, c)))
        return vmpi_coll_fail(comm, err, fn, &ck);
    bool at_root = c->rank == root;
    if (rbuf != MPI_IN_PLACE || !at_root)
        err = chk_data(&ck, rbuf, rcount, rdt, &rd);
    if (!err && at_root && v)
        err = chk_vside(&ck, sbuf, scounts, displs, sdt, &sd, c->size);
    if (!err && at_root && !v)
        err = chk_data(&ck, sbuf, (MPI_Count)scount * c->size, sdt, &sd);
    if (!err && at_root)
        err = vmpi_chk_alias(&ck, sbuf, rbuf, rcount > 0 && rd && rd->size > 0);
    if (!err && v)
        err = vmpi_coll_scatterv(sbuf, scounts, displs, sd, rbuf, rcount, rd, root, c, nb ? req : NULL);
    else if (!err)
        err = vmpi_coll_scatter(sbuf, scount, sd, rbuf, rcount, rd, root, c, nb ? req : NULL);
    return err ? vmpi_coll_fail(comm, err, fn, &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Scatter)
int PMPI_Scatter(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt, int root,
                 MPI_Comm comm)
{
    return scatter(sbuf, scount, NOV, NOV, sdt, rbuf, rcount, rdt, root, comm, false, false, NULL, "MPI_Scatter");
}
VMPI_WEAK(Scatter_c)
int PMPI_Scatter_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                   MPI_Datatype rdt, int root, MPI_Comm comm)
{
    return scatter(sbuf, scount, NOV, NOV, sdt, rbuf, rcount, rdt, root, comm, false, false, NULL, "MPI_Scatter_c");
}
VMPI_WEAK(Iscatter)
int PMPI_Iscatter(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt, int root,
                  MPI_Comm comm, MPI_Request *req)
{
    return scatter(sbuf, scount, NOV, NOV, sdt, rbuf, rcount, rdt, root, comm, false, true, req, "MPI_Iscatter");
}
VMPI_WEAK(Iscatter_c)
int PMPI_Iscatter_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                    MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Request *req)
{
    return scatter(sbuf, scount, NOV, NOV, sdt, rbuf, rcount, rdt, root, comm, false, true, req, "MPI_Iscatter_c");
}
VMPI_WEAK(Scatterv)
int PMPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype sdt, void *rbuf, int rcount,
                  MPI_Datatype rdt, int root, MPI_Comm comm)
{
    return scatter(sbuf, 0, vmpi_iv_int(scounts), vmpi_iv_int(displs), sdt, rbuf, rcount, rdt, root, comm, true, false,
                   NULL, "MPI_Scatterv");
}
VMPI_WEAK(Scatterv_c)
int PMPI_Scatterv_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint displs[], MPI_Datatype sdt, void *rbuf,
                    MPI_Count rcount, MPI_Datatype rdt, int root, MPI_Comm comm)
{
    return scatter(sbuf, 0, vmpi_iv_count(scounts), vmpi_iv_aint(displs), sdt, rbuf, rcount, rdt, root, comm, true,
                   false, NULL, "MPI_Scatterv_c");
}
VMPI_WEAK(Iscatterv)
int PMPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype sdt, void *rbuf,
                   int rcount, MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Request *req)
{
    return scatter(sbuf, 0, vmpi_iv_int(scounts), vmpi_iv_int(displs), sdt, rbuf, rcount, rdt, root, comm, true, true,
                   req, "MPI_Iscatterv");
}
VMPI_WEAK(Iscatterv_c)
int PMPI_Iscatterv_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint displs[], MPI_Datatype sdt,
                     void *rbuf, MPI_Count rcount, MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Request *req)
{
    return scatter(sbuf, 0, vmpi_iv_count(scounts), vmpi_iv_aint(displs), sdt, rbuf, rcount, rdt, root, comm, true,
                   true, req, "MPI_Iscatterv_c");
}

/* ---- allgather ---- */

static int allgather(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                     vmpi_ivec rcounts, vmpi_ivec displs, MPI_Datatype rdt, MPI_Comm comm, bool v, bool nb,
                     MPI_Request *req, const char *fn)
{
    VMPI_VP_CALL(fn);
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *sd = NULL, *rd = NULL;
    int err;
    bool inter;
    if ((err = chk_start_inter(&ck, comm, &c, nb, req, &inter)))
        return vmpi_coll_fail(comm, err, fn, &ck);
    if (inter && v) {
        int n = c->peer_size;
        if ((err = chk_side(&ck, true, sbuf, scount, sdt, &sd)) ||
            (err = chk_vside(&ck, rbuf, rcounts, displs, rdt, &rd, n)))
            return vmpi_coll_fail(comm, err, fn, &ck);
        vmpi_inter_blk *sb = malloc(sizeof *sb * (size_t)(n ? n : 1));
        for (int j = 0; sb && j < n; j++)
            sb[j] = (vmpi_inter_blk){(void *)sbuf, scount, sd, j};
        err = inter_vrun(c, sb, n, vblocks(rbuf, rcounts, displs, rd, n), n, nb ? req : NULL);
        return err ? vmpi_coll_fail(comm, err, fn, &ck) : MPI_SUCCESS;
    }
    if (inter) {
        if ((err = chk_side(&ck, true, sbuf, scount, sdt, &sd)) ||
            (err = chk_side(&ck, true, rbuf, (MPI_Count)rcount * c->peer_size, rdt, &rd)) ||
            (err = vmpi_inter_allgather(sbuf, scount, sd, rbuf, rcount, rd, c, nb ? req : NULL)))
            return vmpi_coll_fail(comm, err, fn, &ck);
        return MPI_SUCCESS;
    }
    if (sbuf != MPI_IN_PLACE)
        err = chk_data(&ck, sbuf, scount, sdt, &sd);
    if (!err)
        err = v ? chk_vside(&ck, rbuf, rcounts, displs, rdt, &rd, c->size)
                : chk_data(&ck, rbuf, (MPI_Count)rcount * c->size, rdt, &rd);
    if (!err)
        err = vmpi_chk_alias(&ck, sbuf, rbuf, scount > 0 && sd && sd->size > 0);
    if (!err && v)
        err = vmpi_coll_allgatherv(sbuf, scount, sd, rbuf, rcounts, displs, rd, c, nb ? req : NULL);
    else if (!err)
        err = vmpi_coll_allgather(sbuf, scount, sd, rbuf, rcount, rd, c, nb ? req : NULL);
    return err ? vmpi_coll_fail(comm, err, fn, &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Allgather)
int PMPI_Allgather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                   MPI_Comm comm)
{
    return allgather(sbuf, scount, sdt, rbuf, rcount, NOV, NOV, rdt, comm, false, false, NULL, "MPI_Allgather");
}
VMPI_WEAK(Allgather_c)
int PMPI_Allgather_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                     MPI_Datatype rdt, MPI_Comm comm)
{
    return allgather(sbuf, scount, sdt, rbuf, rcount, NOV, NOV, rdt, comm, false, false, NULL, "MPI_Allgather_c");
}
VMPI_WEAK(Iallgather)
int PMPI_Iallgather(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                    MPI_Comm comm, MPI_Request *req)
{
    return allgather(sbuf, scount, sdt, rbuf, rcount, NOV, NOV, rdt, comm, false, true, req, "MPI_Iallgather");
}
VMPI_WEAK(Iallgather_c)
int PMPI_Iallgather_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                      MPI_Datatype rdt, MPI_Comm comm, MPI_Request *req)
{
    return allgather(sbuf, scount, sdt, rbuf, rcount, NOV, NOV, rdt, comm, false, true, req, "MPI_Iallgather_c");
}
VMPI_WEAK(Allgatherv)
int PMPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                    const int displs[], MPI_Datatype rdt, MPI_Comm comm)
{
    return allgather(sbuf, scount, sdt, rbuf, 0, vmpi_iv_int(rcounts), vmpi_iv_int(displs), rdt, comm, true, false,
                     NULL, "MPI_Allgatherv");
}
VMPI_WEAK(Allgatherv_c)
int PMPI_Allgatherv_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, const MPI_Count rcounts[],
                      const MPI_Aint displs[], MPI_Datatype rdt, MPI_Comm comm)
{
    return allgather(sbuf, scount, sdt, rbuf, 0, vmpi_iv_count(rcounts), vmpi_iv_aint(displs), rdt, comm, true, false,
                     NULL, "MPI_Allgatherv_c");
}
VMPI_WEAK(Iallgatherv)
int PMPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                     const int displs[], MPI_Datatype rdt, MPI_Comm comm, MPI_Request *req)
{
    return allgather(sbuf, scount, sdt, rbuf, 0, vmpi_iv_int(rcounts), vmpi_iv_int(displs), rdt, comm, true, true, req,
                     "MPI_Iallgatherv");
}
VMPI_WEAK(Iallgatherv_c)
int PMPI_Iallgatherv_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, const MPI_Count rcounts[],
                       const MPI_Aint displs[], MPI_Datatype rdt, MPI_Comm comm, MPI_Request *req)
{
    return allgather(sbuf, scount, sdt, rbuf, 0, vmpi_iv_count(rcounts), vmpi_iv_aint(displs), rdt, comm, true, true,
                     req, "MPI_Iallgatherv_c");
}

/* ---- all-to-all ---- */

static int alltoall(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                    MPI_Datatype rdt, MPI_Comm comm, bool nb, MPI_Request *req, const char *fn)
{
    VMPI_VP_CALL(fn);
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *sd = NULL, *rd = NULL;
    int err;
    bool inter;
    if ((err = chk_start_inter(&ck, comm, &c, nb, req, &inter)))
        return vmpi_coll_fail(comm, err, fn, &ck);
    if (inter) {
        if ((err = chk_side(&ck, true, sbuf, (MPI_Count)scount * c->peer_size, sdt, &sd)) ||
            (err = chk_side(&ck, true, rbuf, (MPI_Count)rcount * c->peer_size, rdt, &rd)) ||
            (err = vmpi_inter_alltoall(sbuf, scount, sd, rbuf, rcount, rd, c, nb ? req : NULL)))
            return vmpi_coll_fail(comm, err, fn, &ck);
        return MPI_SUCCESS;
    }
    if (sbuf != MPI_IN_PLACE)
        err = chk_data(&ck, sbuf, (MPI_Count)scount * c->size, sdt, &sd);
    if (!err)
        err = chk_data(&ck, rbuf, (MPI_Count)rcount * c->size, rdt, &rd);
    if (!err)
        err = vmpi_chk_alias(&ck, sbuf, rbuf, scount > 0 && sd && sd->size > 0);
    if (!err)
        err = vmpi_coll_alltoall(sbuf, scount, sd, rbuf, rcount, rd, c, nb ? req : NULL);
    return err ? vmpi_coll_fail(comm, err, fn, &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Alltoall)
int PMPI_Alltoall(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                  MPI_Comm comm)
{
    return alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm, false, NULL, "MPI_Alltoall");
}
VMPI_WEAK(Alltoall_c)
int PMPI_Alltoall_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                    MPI_Datatype rdt, MPI_Comm comm)
{
    return alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm, false, NULL, "MPI_Alltoall_c");
}
VMPI_WEAK(Ialltoall)
int PMPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                   MPI_Comm comm, MPI_Request *req)
{
    return alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm, true, req, "MPI_Ialltoall");
}
VMPI_WEAK(Ialltoall_c)
int PMPI_Ialltoall_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                     MPI_Datatype rdt, MPI_Comm comm, MPI_Request *req)
{
    return alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm, true, req, "MPI_Ialltoall_c");
}

/* The arrays of one side of Alltoallv/w (the types are checked one by one afterwards). */
static int chk_vw_side(vmpi_chk *ck, vmpi_ivec counts, vmpi_ivec displs, const MPI_Datatype *types, int n,
                       const char *side)
{
    int err = vmpi_chk_counts(ck, counts, n);
    if (!err && (vmpi_iv_null(displs) || types == NULL)) {
        snprintf(ck->why, sizeof ck->why, "NULL %s %s array", side, vmpi_iv_null(displs) ? "displacement" : "type");
        err = MPI_ERR_ARG;
    }
    return err;
}

/* Alltoallv and Alltoallw: per-peer types (one repeated for the v-form) and displacements (in extents of
 * the type for the v-form, in bytes for the w-form). */
static int alltoallvw(const void *sbuf, vmpi_ivec scounts, vmpi_ivec sdispls, const MPI_Datatype *sdts,
                      void *rbuf, vmpi_ivec rcounts, vmpi_ivec rdispls, const MPI_Datatype *rdts, bool w,
                      MPI_Comm comm, bool nb, MPI_Request *req, const char *fn)
{
    VMPI_VP_CALL(fn);
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    bool inter;
    if ((err = chk_start_inter(&ck, comm, &c, nb, req, &inter)))
        return vmpi_coll_fail(comm, err, fn, &ck);
    int n = inter ? c->peer_size : c->size;
    bool in_place = sbuf == MPI_IN_PLACE;
    if (inter && (err = vmpi_chk_not_in_place(&ck, sbuf)))
        return vmpi_coll_fail(comm, err, fn, &ck);
    const vmpi_dtype **t = malloc(sizeof *t * (size_t)(2 * n + 1));
    MPI_Aint *d = malloc(sizeof *d * (size_t)(2 * n + 1));
    if (t == NULL || d == NULL)
        err = MPI_ERR_NO_MEM;
    if (!err && !in_place)
        err = chk_vw_side(&ck, scounts, sdispls, sdts, n, "send");
    if (!err)
        err = chk_vw_side(&ck, rcounts, rdispls, rdts, n, "receive");
    if (!err)
        err = vmpi_chk_not_in_place(&ck, rbuf);
    bool any = false;
    for (int i = 0; !err && i < n; i++) {
        if (!in_place) {
            MPI_Count k = vmpi_iv_at(scounts, i);
            if ((err = vmpi_chk_dt(&ck, sdts[w ? i : 0], &t[i])) || (err = vmpi_chk_buf(&ck, sbuf, k, t[i])))
                break;
            d[i] = w ? vmpi_iv_at(sdispls, i) : vmpi_iv_at(sdispls, i) * t[i]->extent;
            any = any || (k > 0 && t[i]->size > 0);
        }
        if ((err = vmpi_chk_dt(&ck, rdts[w ? i : 0], &t[n + i])) ||
            (err = vmpi_chk_buf(&ck, rbuf, vmpi_iv_at(rcounts, i), t[n + i])))
            break;
        d[n + i] = w ? vmpi_iv_at(rdispls, i) : vmpi_iv_at(rdispls, i) * t[n + i]->extent;
    }
    if (!err)
        err = vmpi_chk_alias(&ck, sbuf, rbuf, any);
    if (!err && inter) { /* every block straight to its remote rank */
        vmpi_inter_blk *b = malloc(sizeof *b * (size_t)(2 * n + 1));
        for (int j = 0; b && j < n; j++) {
            b[j] = (vmpi_inter_blk){(char *)sbuf + d[j], vmpi_iv_at(scounts, j), t[j], j};
            b[n + j] = (vmpi_inter_blk){(char *)rbuf + d[n + j], vmpi_iv_at(rcounts, j), t[n + j], j};
        }
        err = b ? vmpi_inter_pairs(c, n, b, n, b + n, nb ? req : NULL) : MPI_ERR_NO_MEM;
        free(b);
    } else if (!err) {
        err = vmpi_coll_alltoallw(sbuf, scounts, d, t, rbuf, rcounts, d + n, t + n, c, nb ? req : NULL);
    }
    free(t);
    free(d);
    return err ? vmpi_coll_fail(comm, err, fn, &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Alltoallv)
int PMPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype sdt, void *rbuf,
                   const int rcounts[], const int rdispls[], MPI_Datatype rdt, MPI_Comm comm)
{
    return alltoallvw(sbuf, vmpi_iv_int(scounts), vmpi_iv_int(sdispls), &sdt, rbuf, vmpi_iv_int(rcounts),
                      vmpi_iv_int(rdispls), &rdt, false, comm, false, NULL, "MPI_Alltoallv");
}
VMPI_WEAK(Alltoallv_c)
int PMPI_Alltoallv_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[], MPI_Datatype sdt,
                     void *rbuf, const MPI_Count rcounts[], const MPI_Aint rdispls[], MPI_Datatype rdt, MPI_Comm comm)
{
    return alltoallvw(sbuf, vmpi_iv_count(scounts), vmpi_iv_aint(sdispls), &sdt, rbuf, vmpi_iv_count(rcounts),
                      vmpi_iv_aint(rdispls), &rdt, false, comm, false, NULL, "MPI_Alltoallv_c");
}
VMPI_WEAK(Ialltoallv)
int PMPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype sdt, void *rbuf,
                    const int rcounts[], const int rdispls[], MPI_Datatype rdt, MPI_Comm comm, MPI_Request *req)
{
    return alltoallvw(sbuf, vmpi_iv_int(scounts), vmpi_iv_int(sdispls), &sdt, rbuf, vmpi_iv_int(rcounts),
                      vmpi_iv_int(rdispls), &rdt, false, comm, true, req, "MPI_Ialltoallv");
}
VMPI_WEAK(Ialltoallv_c)
int PMPI_Ialltoallv_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[], MPI_Datatype sdt,
                      void *rbuf, const MPI_Count rcounts[], const MPI_Aint rdispls[], MPI_Datatype rdt, MPI_Comm comm,
                      MPI_Request *req)
{
    return alltoallvw(sbuf, vmpi_iv_count(scounts), vmpi_iv_aint(sdispls), &sdt, rbuf, vmpi_iv_count(rcounts),
                      vmpi_iv_aint(rdispls), &rdt, false, comm, true, req, "MPI_Ialltoallv_c");
}
VMPI_WEAK(Alltoallw)
int PMPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[], const MPI_Datatype sdts[], void *rbuf,
                   const int rcounts[], const int rdispls[], const MPI_Datatype rdts[], MPI_Comm comm)
{
    return alltoallvw(sbuf, vmpi_iv_int(scounts), vmpi_iv_int(sdispls), sdts, rbuf, vmpi_iv_int(rcounts),
                      vmpi_iv_int(rdispls), rdts, true, comm, false, NULL, "MPI_Alltoallw");
}
VMPI_WEAK(Alltoallw_c)
int PMPI_Alltoallw_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[], const MPI_Datatype sdts[],
                     void *rbuf, const MPI_Count rcounts[], const MPI_Aint rdispls[], const MPI_Datatype rdts[],
                     MPI_Comm comm)
{
    return alltoallvw(sbuf, vmpi_iv_count(scounts), vmpi_iv_aint(sdispls), sdts, rbuf, vmpi_iv_count(rcounts),
                      vmpi_iv_aint(rdispls), rdts, true, comm, false, NULL, "MPI_Alltoallw_c");
}
VMPI_WEAK(Ialltoallw)
int PMPI_Ialltoallw(const void *sbuf, const int scounts[], const int sdispls[], const MPI_Datatype sdts[],
                    void *rbuf, const int rcounts[], const int rdispls[], const MPI_Datatype rdts[], MPI_Comm comm,
                    MPI_Request *req)
{
    return alltoallvw(sbuf, vmpi_iv_int(scounts), vmpi_iv_int(sdispls), sdts, rbuf, vmpi_iv_int(rcounts),
                      vmpi_iv_int(rdispls), rdts, true, comm, true, req, "MPI_Ialltoallw");
}
VMPI_WEAK(Ialltoallw_c)
int PMPI_Ialltoallw_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[], const MPI_Datatype sdts[],
                      void *rbuf, const MPI_Count rcounts[], const MPI_Aint rdispls[], const MPI_Datatype rdts[],
                      MPI_Comm comm, MPI_Request *req)
{
    return alltoallvw(sbuf, vmpi_iv_count(scounts), vmpi_iv_aint(sdispls), sdts, rbuf, vmpi_iv_count(rcounts),
                      vmpi_iv_aint(rdispls), rdts, true, comm, true, req, "MPI_Ialltoallw_c");
}

/* ---- persistent forms (MPI-4.1 6.13) ---- */

VMPI_WEAK(Barrier_init)
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Barrier_init", barrier(comm, true, req, "MPI_Barrier_init"));
}
VMPI_WEAK(Bcast_init)
int PMPI_Bcast_init(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Bcast_init", bcast(buf, count, dt, root, comm, true, req, "MPI_Bcast_init"));
}
VMPI_WEAK(Bcast_init_c)
int PMPI_Bcast_init_c(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Bcast_init_c", bcast(buf, count, dt, root, comm, true, req, "MPI_Bcast_init_c"));
}
VMPI_WEAK(Gather_init)
int PMPI_Gather_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                     int root, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Gather_init",
                 gather(sbuf, scount, sdt, rbuf, rcount, NOV, NOV, rdt, root, comm, false, true, req,
                        "MPI_Gather_init"));
}
VMPI_WEAK(Gather_init_c)
int PMPI_Gather_init_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                       MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Gather_init_c",
                 gather(sbuf, scount, sdt, rbuf, rcount, NOV, NOV, rdt, root, comm, false, true, req,
                        "MPI_Gather_init_c"));
}
VMPI_WEAK(Gatherv_init)
int PMPI_Gatherv_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                      const int displs[], MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Gatherv_init",
                 gather(sbuf, scount, sdt, rbuf, 0, vmpi_iv_int(rcounts), vmpi_iv_int(displs), rdt, root, comm, true,
                        true, req, "MPI_Gatherv_init"));
}
VMPI_WEAK(Gatherv_init_c)
int PMPI_Gatherv_init_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, const MPI_Count rcounts[],
                        const MPI_Aint displs[], MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Gatherv_init_c",
                 gather(sbuf, scount, sdt, rbuf, 0, vmpi_iv_count(rcounts), vmpi_iv_aint(displs), rdt, root, comm,
                        true, true, req, "MPI_Gatherv_init_c"));
}
VMPI_WEAK(Scatter_init)
int PMPI_Scatter_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                      int root, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Scatter_init",
                 scatter(sbuf, scount, NOV, NOV, sdt, rbuf, rcount, rdt, root, comm, false, true, req,
                         "MPI_Scatter_init"));
}
VMPI_WEAK(Scatter_init_c)
int PMPI_Scatter_init_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                        MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Scatter_init_c",
                 scatter(sbuf, scount, NOV, NOV, sdt, rbuf, rcount, rdt, root, comm, false, true, req,
                         "MPI_Scatter_init_c"));
}
VMPI_WEAK(Scatterv_init)
int PMPI_Scatterv_init(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype sdt, void *rbuf,
                       int rcount, MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Scatterv_init",
                 scatter(sbuf, 0, vmpi_iv_int(scounts), vmpi_iv_int(displs), sdt, rbuf, rcount, rdt, root, comm, true,
                         true, req, "MPI_Scatterv_init"));
}
VMPI_WEAK(Scatterv_init_c)
int PMPI_Scatterv_init_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint displs[], MPI_Datatype sdt,
                         void *rbuf, MPI_Count rcount, MPI_Datatype rdt, int root, MPI_Comm comm, MPI_Info info,
                         MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Scatterv_init_c",
                 scatter(sbuf, 0, vmpi_iv_count(scounts), vmpi_iv_aint(displs), sdt, rbuf, rcount, rdt, root, comm,
                         true, true, req, "MPI_Scatterv_init_c"));
}
VMPI_WEAK(Allgather_init)
int PMPI_Allgather_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                        MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Allgather_init",
                 allgather(sbuf, scount, sdt, rbuf, rcount, NOV, NOV, rdt, comm, false, true, req,
                           "MPI_Allgather_init"));
}
VMPI_WEAK(Allgather_init_c)
int PMPI_Allgather_init_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                          MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Allgather_init_c",
                 allgather(sbuf, scount, sdt, rbuf, rcount, NOV, NOV, rdt, comm, false, true, req,
                           "MPI_Allgather_init_c"));
}
VMPI_WEAK(Allgatherv_init)
int PMPI_Allgatherv_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, const int rcounts[],
                         const int displs[], MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Allgatherv_init",
                 allgather(sbuf, scount, sdt, rbuf, 0, vmpi_iv_int(rcounts), vmpi_iv_int(displs), rdt, comm, true,
                           true, req, "MPI_Allgatherv_init"));
}
VMPI_WEAK(Allgatherv_init_c)
int PMPI_Allgatherv_init_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, const MPI_Count rcounts[],
                           const MPI_Aint displs[], MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Allgatherv_init_c",
                 allgather(sbuf, scount, sdt, rbuf, 0, vmpi_iv_count(rcounts), vmpi_iv_aint(displs), rdt, comm, true,
                           true, req, "MPI_Allgatherv_init_c"));
}
VMPI_WEAK(Alltoall_init)
int PMPI_Alltoall_init(const void *sbuf, int scount, MPI_Datatype sdt, void *rbuf, int rcount, MPI_Datatype rdt,
                       MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Alltoall_init",
                 alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm, true, req, "MPI_Alltoall_init"));
}
VMPI_WEAK(Alltoall_init_c)
int PMPI_Alltoall_init_c(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                         MPI_Datatype rdt, MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Alltoall_init_c",
                 alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, comm, true, req, "MPI_Alltoall_init_c"));
}
VMPI_WEAK(Alltoallv_init)
int PMPI_Alltoallv_init(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype sdt, void *rbuf,
                        const int rcounts[], const int rdispls[], MPI_Datatype rdt, MPI_Comm comm, MPI_Info info,
                        MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Alltoallv_init",
                 alltoallvw(sbuf, vmpi_iv_int(scounts), vmpi_iv_int(sdispls), &sdt, rbuf, vmpi_iv_int(rcounts),
                            vmpi_iv_int(rdispls), &rdt, false, comm, true, req, "MPI_Alltoallv_init"));
}
VMPI_WEAK(Alltoallv_init_c)
int PMPI_Alltoallv_init_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[], MPI_Datatype sdt,
                          void *rbuf, const MPI_Count rcounts[], const MPI_Aint rdispls[], MPI_Datatype rdt,
                          MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Alltoallv_init_c",
                 alltoallvw(sbuf, vmpi_iv_count(scounts), vmpi_iv_aint(sdispls), &sdt, rbuf, vmpi_iv_count(rcounts),
                            vmpi_iv_aint(rdispls), &rdt, false, comm, true, req, "MPI_Alltoallv_init_c"));
}
VMPI_WEAK(Alltoallw_init)
int PMPI_Alltoallw_init(const void *sbuf, const int scounts[], const int sdispls[], const MPI_Datatype sdts[],
                        void *rbuf, const int rcounts[], const int rdispls[], const MPI_Datatype rdts[],
                        MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Alltoallw_init",
                 alltoallvw(sbuf, vmpi_iv_int(scounts), vmpi_iv_int(sdispls), sdts, rbuf, vmpi_iv_int(rcounts),
                            vmpi_iv_int(rdispls), rdts, true, comm, true, req, "MPI_Alltoallw_init"));
}
VMPI_WEAK(Alltoallw_init_c)
int PMPI_Alltoallw_init_c(const void *sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[],
                          const MPI_Datatype sdts[], void *rbuf, const MPI_Count rcounts[], const MPI_Aint rdispls[],
                          const MPI_Datatype rdts[], MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Alltoallw_init_c",
                 alltoallvw(sbuf, vmpi_iv_count(scounts), vmpi_iv_aint(sdispls), sdts, rbuf, vmpi_iv_count(rcounts),
                            vmpi_iv_aint(rdispls), rdts, true, comm, true, req, "MPI_Alltoallw_init_c"));
}
