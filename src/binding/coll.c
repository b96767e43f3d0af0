/* SPDX-License-Identifier: BSD-3-Clause */
/* The collectives' implementations (binding/impl.h): the generated entry points (spec/coll.toml) check the
 * caller, the communicator and the request pointer, and call one function per operation for its blocking
 * (request NULL: it waits for the collective's schedule), nonblocking and persistent forms (the schedule kept
 * for MPI_Start: persist.h).  The arguments are checked here: which a rank uses depends on the root, the
 * communicator's kind and MPI_IN_PLACE. */
#include <stdlib.h>
#include "binding/check.h"
#include "binding/impl.h"
#include "mpi/coll/coll.h"
#include "mpi/coll/coll_inter.h"

/* The count and displacement arrays a form without them passes. */
#define NOV vmpi_iv_int(NULL)

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
    int err = MPI_SUCCESS;
    if (!used)
        return MPI_SUCCESS;
    if ((err = vmpi_chk_count(ck, count)) || (err = vmpi_chk_dt(ck, dt, d)) || (err = vmpi_chk_not_in_place(ck, buf)))
        return err;
    return vmpi_chk_buf(ck, buf, count, *d);
}

/* One (buffer, count, type) triple; `buf` must not be MPI_IN_PLACE. */
static int chk_data(vmpi_chk *ck, const void *buf, MPI_Count count, MPI_Datatype dt, const vmpi_dtype **d)
{
    int err = MPI_SUCCESS;
    if ((err = vmpi_chk_count(ck, count)) || (err = vmpi_chk_dt(ck, dt, d)) ||
        (err = vmpi_chk_not_in_place(ck, buf)) || (err = vmpi_chk_buf(ck, buf, count, *d)))
        return err;
    return MPI_SUCCESS;
}

/* ---- barrier, broadcast ---- */

int vmpi_b_Barrier(vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    (void)ck;
    return vmpi_comm_is_inter(c) ? vmpi_inter_barrier(c, req) : vmpi_coll_barrier(c, req);
}

int vmpi_b_Bcast(void *buf, MPI_Count count, MPI_Datatype dt, int root, vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    const vmpi_dtype *d;
    int err = MPI_SUCCESS;
    bool inter = vmpi_comm_is_inter(c);
    if (inter) {
        if ((err = vmpi_chk_inter_root(ck, root, c)) || (err = chk_side(ck, root != MPI_PROC_NULL, buf, count, dt,
                                                                         &d)) ||
            (err = vmpi_inter_bcast(buf, count, d, root, c, req)))
            return err;
        return MPI_SUCCESS;
    }
    if ((err = vmpi_chk_root(ck, root, c)) || (err = chk_data(ck, buf, count, dt, &d)) ||
        (err = vmpi_coll_bcast(buf, count, d, root, c, req)))
        return err;
    return MPI_SUCCESS;
}

/* ---- gather, scatter ---- */

/* The root's side of a v-form: counts, displacements, and the buffer for the largest extent. */
static int chk_vside(vmpi_chk *ck, const void *buf, vmpi_ivec counts, vmpi_ivec displs, MPI_Datatype dt,
                     const vmpi_dtype **d, int n)
{
    int err = MPI_SUCCESS;
    if ((err = vmpi_chk_counts(ck, counts, n)) || (err = vmpi_chk_ptr(ck, displs.p, "the displacement array")) ||
        (err = vmpi_chk_dt(ck, dt, d)) || (err = vmpi_chk_not_in_place(ck, buf)))
        return err;
    for (int i = 0; i < n; i++)
        if ((err = vmpi_chk_buf(ck, buf, vmpi_iv_at(counts, i), *d)))
            return err;
    return MPI_SUCCESS;
}

static int gather(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                  vmpi_ivec rcounts, vmpi_ivec displs, MPI_Datatype rdt, int root, vmpi_comm *c, bool v,
                  MPI_Request *req, vmpi_chk *ck)
{
    const vmpi_dtype *sd = NULL, *rd = NULL;
    int err = MPI_SUCCESS;
    bool inter = vmpi_comm_is_inter(c);
    if (inter && v) {
        int n = c->peer_size;
        if ((err = vmpi_chk_inter_root(ck, root, c)) ||
            (root == MPI_ROOT && (err = chk_vside(ck, rbuf, rcounts, displs, rdt, &rd, n))) ||
            (err = chk_side(ck, root >= 0, sbuf, scount, sdt, &sd)))
            return err;
        vmpi_inter_blk one = {(void *)sbuf, scount, sd, root};
        if (root == MPI_ROOT)
            err = inter_vrun(c, NULL, 0, vblocks(rbuf, rcounts, displs, rd, n), n, req);
        else
            err = vmpi_inter_pairs(c, root >= 0, &one, 0, NULL, req);
        return err;
    }
    if (inter) {
        if ((err = vmpi_chk_inter_root(ck, root, c)) ||
            (err = chk_side(ck, root >= 0, sbuf, scount, sdt, &sd)) ||
            (err = chk_side(ck, root == MPI_ROOT, rbuf, (MPI_Count)rcount * c->peer_size, rdt, &rd)) ||
            (err = vmpi_inter_gather(sbuf, scount, sd, rbuf, rcount, rd, root, c, req)))
            return err;
        return MPI_SUCCESS;
    }
    if ((err = vmpi_chk_root(ck, root, c)))
        return err;
    bool at_root = c->rank == root;
    if (sbuf != MPI_IN_PLACE || !at_root)
        err = chk_data(ck, sbuf, scount, sdt, &sd);
    if (!err && at_root && v)
        err = chk_vside(ck, rbuf, rcounts, displs, rdt, &rd, c->size);
    if (!err && at_root && !v)
        err = chk_data(ck, rbuf, (MPI_Count)rcount * c->size, rdt, &rd);
    if (!err && at_root)
        err = vmpi_chk_alias(ck, sbuf, rbuf, scount > 0 && sd && sd->size > 0);
    if (!err && v)
        err = vmpi_coll_gatherv(sbuf, scount, sd, rbuf, rcounts, displs, rd, root, c, req);
    else if (!err)
        err = vmpi_coll_gather(sbuf, scount, sd, rbuf, rcount, rd, root, c, req);
    return err;
}

static int scatter(const void *sbuf, MPI_Count scount, vmpi_ivec scounts, vmpi_ivec displs, MPI_Datatype sdt,
                   void *rbuf, MPI_Count rcount, MPI_Datatype rdt, int root, vmpi_comm *c, bool v, MPI_Request *req,
                   vmpi_chk *ck)
{
    const vmpi_dtype *sd = NULL, *rd = NULL;
    int err = MPI_SUCCESS;
    bool inter = vmpi_comm_is_inter(c);
    if (inter && v) {
        int n = c->peer_size;
        if ((err = vmpi_chk_inter_root(ck, root, c)) ||
            (root == MPI_ROOT && (err = chk_vside(ck, sbuf, scounts, displs, sdt, &sd, n))) ||
            (err = chk_side(ck, root >= 0, rbuf, rcount, rdt, &rd)))
            return err;
        vmpi_inter_blk one = {rbuf, rcount, rd, root};
        if (root == MPI_ROOT)
            err = inter_vrun(c, vblocks(sbuf, scounts, displs, sd, n), n, NULL, 0, req);
        else
            err = vmpi_inter_pairs(c, 0, NULL, root >= 0, &one, req);
        return err;
    }
    if (inter) {
        if ((err = vmpi_chk_inter_root(ck, root, c)) ||
            (err = chk_side(ck, root == MPI_ROOT, sbuf, (MPI_Count)scount * c->peer_size, sdt, &sd)) ||
            (err = chk_side(ck, root >= 0, rbuf, rcount, rdt, &rd)) ||
            (err = vmpi_inter_scatter(sbuf, scount, sd, rbuf, rcount, rd, root, c, req)))
            return err;
        return MPI_SUCCESS;
    }
    if ((err = vmpi_chk_root(ck, root, c)))
        return err;
    bool at_root = c->rank == root;
    if (rbuf != MPI_IN_PLACE || !at_root)
        err = chk_data(ck, rbuf, rcount, rdt, &rd);
    if (!err && at_root && v)
        err = chk_vside(ck, sbuf, scounts, displs, sdt, &sd, c->size);
    if (!err && at_root && !v)
        err = chk_data(ck, sbuf, (MPI_Count)scount * c->size, sdt, &sd);
    if (!err && at_root)
        err = vmpi_chk_alias(ck, sbuf, rbuf, rcount > 0 && rd && rd->size > 0);
    if (!err && v)
        err = vmpi_coll_scatterv(sbuf, scounts, displs, sd, rbuf, rcount, rd, root, c, req);
    else if (!err)
        err = vmpi_coll_scatter(sbuf, scount, sd, rbuf, rcount, rd, root, c, req);
    return err;
}

/* ---- allgather ---- */

static int allgather(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                     vmpi_ivec rcounts, vmpi_ivec displs, MPI_Datatype rdt, vmpi_comm *c, bool v, MPI_Request *req,
                     vmpi_chk *ck)
{
    const vmpi_dtype *sd = NULL, *rd = NULL;
    int err = MPI_SUCCESS;
    bool inter = vmpi_comm_is_inter(c);
    if (inter && v) {
        int n = c->peer_size;
        if ((err = chk_side(ck, true, sbuf, scount, sdt, &sd)) ||
            (err = chk_vside(ck, rbuf, rcounts, displs, rdt, &rd, n)))
            return err;
        vmpi_inter_blk *sb = malloc(sizeof *sb * (size_t)(n ? n : 1));
        for (int j = 0; sb && j < n; j++)
            sb[j] = (vmpi_inter_blk){(void *)sbuf, scount, sd, j};
        err = inter_vrun(c, sb, n, vblocks(rbuf, rcounts, displs, rd, n), n, req);
        return err;
    }
    if (inter) {
        if ((err = chk_side(ck, true, sbuf, scount, sdt, &sd)) ||
            (err = chk_side(ck, true, rbuf, (MPI_Count)rcount * c->peer_size, rdt, &rd)) ||
            (err = vmpi_inter_allgather(sbuf, scount, sd, rbuf, rcount, rd, c, req)))
            return err;
        return MPI_SUCCESS;
    }
    if (sbuf != MPI_IN_PLACE)
        err = chk_data(ck, sbuf, scount, sdt, &sd);
    if (!err)
        err = v ? chk_vside(ck, rbuf, rcounts, displs, rdt, &rd, c->size)
                : chk_data(ck, rbuf, (MPI_Count)rcount * c->size, rdt, &rd);
    if (!err)
        err = vmpi_chk_alias(ck, sbuf, rbuf, scount > 0 && sd && sd->size > 0);
    if (!err && v)
        err = vmpi_coll_allgatherv(sbuf, scount, sd, rbuf, rcounts, displs, rd, c, req);
    else if (!err)
        err = vmpi_coll_allgather(sbuf, scount, sd, rbuf, rcount, rd, c, req);
    return err;
}

/* ---- all-to-all ---- */

int vmpi_b_Alltoall(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                    MPI_Datatype rdt, vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    const vmpi_dtype *sd = NULL, *rd = NULL;
    int err = MPI_SUCCESS;
    bool inter = vmpi_comm_is_inter(c);
    if (inter) {
        if ((err = chk_side(ck, true, sbuf, (MPI_Count)scount * c->peer_size, sdt, &sd)) ||
            (err = chk_side(ck, true, rbuf, (MPI_Count)rcount * c->peer_size, rdt, &rd)) ||
            (err = vmpi_inter_alltoall(sbuf, scount, sd, rbuf, rcount, rd, c, req)))
            return err;
        return MPI_SUCCESS;
    }
    if (sbuf != MPI_IN_PLACE)
        err = chk_data(ck, sbuf, (MPI_Count)scount * c->size, sdt, &sd);
    if (!err)
        err = chk_data(ck, rbuf, (MPI_Count)rcount * c->size, rdt, &rd);
    if (!err)
        err = vmpi_chk_alias(ck, sbuf, rbuf, scount > 0 && sd && sd->size > 0);
    if (!err)
        err = vmpi_coll_alltoall(sbuf, scount, sd, rbuf, rcount, rd, c, req);
    return err;
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
                      vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    int err = MPI_SUCCESS;
    bool inter = vmpi_comm_is_inter(c);
    int n = inter ? c->peer_size : c->size;
    bool in_place = sbuf == MPI_IN_PLACE;
    if (inter && (err = vmpi_chk_not_in_place(ck, sbuf)))
        return err;
    const vmpi_dtype **t = malloc(sizeof *t * (size_t)(2 * n + 1));
    MPI_Aint *d = malloc(sizeof *d * (size_t)(2 * n + 1));
    if (t == NULL || d == NULL)
        err = MPI_ERR_NO_MEM;
    if (!err && !in_place)
        err = chk_vw_side(ck, scounts, sdispls, sdts, n, "send");
    if (!err)
        err = chk_vw_side(ck, rcounts, rdispls, rdts, n, "receive");
    if (!err)
        err = vmpi_chk_not_in_place(ck, rbuf);
    bool any = false;
    for (int i = 0; !err && i < n; i++) {
        if (!in_place) {
            MPI_Count k = vmpi_iv_at(scounts, i);
            if ((err = vmpi_chk_dt(ck, sdts[w ? i : 0], &t[i])) || (err = vmpi_chk_buf(ck, sbuf, k, t[i])))
                break;
            d[i] = w ? vmpi_iv_at(sdispls, i) : vmpi_iv_at(sdispls, i) * t[i]->extent;
            any = any || (k > 0 && t[i]->size > 0);
        }
        if ((err = vmpi_chk_dt(ck, rdts[w ? i : 0], &t[n + i])) ||
            (err = vmpi_chk_buf(ck, rbuf, vmpi_iv_at(rcounts, i), t[n + i])))
            break;
        d[n + i] = w ? vmpi_iv_at(rdispls, i) : vmpi_iv_at(rdispls, i) * t[n + i]->extent;
    }
    if (!err)
        err = vmpi_chk_alias(ck, sbuf, rbuf, any);
    if (!err && inter) { /* every block straight to its remote rank */
        vmpi_inter_blk *b = malloc(sizeof *b * (size_t)(2 * n + 1));
        for (int j = 0; b && j < n; j++) {
            b[j] = (vmpi_inter_blk){(char *)sbuf + d[j], vmpi_iv_at(scounts, j), t[j], j};
            b[n + j] = (vmpi_inter_blk){(char *)rbuf + d[n + j], vmpi_iv_at(rcounts, j), t[n + j], j};
        }
        err = b ? vmpi_inter_pairs(c, n, b, n, b + n, req) : MPI_ERR_NO_MEM;
        free(b);
    } else if (!err) {
        err = vmpi_coll_alltoallw(sbuf, scounts, d, t, rbuf, rcounts, d + n, t + n, c, req);
    }
    free(t);
    free(d);
    return err;
}

/* ---- the operations of the shared functions above ---- */

int vmpi_b_Gather(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                  MPI_Datatype rdt, int root, vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    return gather(sbuf, scount, sdt, rbuf, rcount, NOV, NOV, rdt, root, c, false, req, ck);
}

int vmpi_b_Gatherv(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, vmpi_ivec rcounts,
                   vmpi_ivec displs, MPI_Datatype rdt, int root, vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    return gather(sbuf, scount, sdt, rbuf, 0, rcounts, displs, rdt, root, c, true, req, ck);
}

int vmpi_b_Scatter(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                   MPI_Datatype rdt, int root, vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    return scatter(sbuf, scount, NOV, NOV, sdt, rbuf, rcount, rdt, root, c, false, req, ck);
}

int vmpi_b_Scatterv(const void *sbuf, vmpi_ivec scounts, vmpi_ivec displs, MPI_Datatype sdt, void *rbuf,
                    MPI_Count rcount, MPI_Datatype rdt, int root, vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    return scatter(sbuf, 0, scounts, displs, sdt, rbuf, rcount, rdt, root, c, true, req, ck);
}

int vmpi_b_Allgather(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, MPI_Count rcount,
                     MPI_Datatype rdt, vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    return allgather(sbuf, scount, sdt, rbuf, rcount, NOV, NOV, rdt, c, false, req, ck);
}

int vmpi_b_Allgatherv(const void *sbuf, MPI_Count scount, MPI_Datatype sdt, void *rbuf, vmpi_ivec rcounts,
                      vmpi_ivec displs, MPI_Datatype rdt, vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    return allgather(sbuf, scount, sdt, rbuf, 0, rcounts, displs, rdt, c, true, req, ck);
}

int vmpi_b_Alltoallv(const void *sbuf, vmpi_ivec scounts, vmpi_ivec sdispls, MPI_Datatype sdt, void *rbuf,
                     vmpi_ivec rcounts, vmpi_ivec rdispls, MPI_Datatype rdt, vmpi_comm *c, MPI_Request *req,
                     vmpi_chk *ck)
{
    return alltoallvw(sbuf, scounts, sdispls, &sdt, rbuf, rcounts, rdispls, &rdt, false, c, req, ck);
}

int vmpi_b_Alltoallw(const void *sbuf, vmpi_ivec scounts, vmpi_ivec sdispls, const MPI_Datatype sdts[], void *rbuf,
                     vmpi_ivec rcounts, vmpi_ivec rdispls, const MPI_Datatype rdts[], vmpi_comm *c, MPI_Request *req,
                     vmpi_chk *ck)
{
    return alltoallvw(sbuf, scounts, sdispls, sdts, rbuf, rcounts, rdispls, rdts, true, c, req, ck);
}
