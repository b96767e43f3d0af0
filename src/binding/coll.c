/* SPDX-License-Identifier: BSD-3-Clause */
/* Collective entry points. */
#include "binding/check.h"
#include "mpi/coll/coll.h"
#include "mpi/op/op_builtin.h"

VMPI_WEAK(Barrier)
int PMPI_Barrier(MPI_Comm comm)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_comm(&ck, comm, &c)) || (err = vmpi_barrier(c)))
        return vmpi_fail(comm, err, "MPI_Barrier", &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Bcast)
int PMPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_comm(&ck, comm, &c)) || (err = vmpi_chk_count(&ck, count)) ||
        (err = vmpi_chk_dt(&ck, dt, &d)) || (err = vmpi_chk_buf(&ck, buf, count, d)) ||
        (err = vmpi_chk_root(&ck, root, c)) || (err = vmpi_bcast(buf, count, d, root, c)))
        return vmpi_fail(comm, err, "MPI_Bcast", &ck);
    return MPI_SUCCESS;
}

static int check_op(vmpi_chk *ck, MPI_Op op, const vmpi_dtype *d)
{
    if (VMPI_HANDLE_KIND(op) != VMPI_KIND_OP || op == MPI_OP_NULL) {
        snprintf(ck->why, sizeof ck->why, "invalid operation handle 0x%x", (unsigned)op);
        return MPI_ERR_OP;
    }
    if (vmpi_op_builtin_check(op, VMPI_DT(d->basic)) != MPI_SUCCESS) {
        snprintf(ck->why, sizeof ck->why, "the operation is not defined on %s", d->name);
        return MPI_ERR_OP;
    }
    return MPI_SUCCESS;
}

static int check_reduce(vmpi_chk *ck, const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                        MPI_Comm comm, bool at_root, vmpi_comm **c, const vmpi_dtype **d)
{
    int err;
    if ((err = vmpi_chk_ranked(ck)) || (err = vmpi_chk_comm(ck, comm, c)) || (err = vmpi_chk_count(ck, count)) ||
        (err = vmpi_chk_dt(ck, dt, d)) || (err = check_op(ck, op, *d)) ||
        (sbuf != MPI_IN_PLACE && (err = vmpi_chk_buf(ck, sbuf, count, *d))) ||
        (at_root && (err = vmpi_chk_buf(ck, rbuf, count, *d))))
        return err;
    if (sbuf == rbuf && count > 0 && at_root) {
        snprintf(ck->why, sizeof ck->why, "send and receive buffers alias (use MPI_IN_PLACE)");
        return MPI_ERR_BUFFER;
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Reduce)
int PMPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
    VMPI_CHK(ck);
    vmpi_comm *c = vmpi_comm_get(comm);
    const vmpi_dtype *d;
    int err;
    bool at_root = c && c->rank == root;
    if ((err = check_reduce(&ck, sbuf, rbuf, count, dt, op, comm, at_root, &c, &d)) ||
        (err = vmpi_chk_root(&ck, root, c)))
        return vmpi_fail(comm, err, "MPI_Reduce", &ck);
    if (sbuf == MPI_IN_PLACE) {
        if (!at_root) {
            snprintf(ck.why, sizeof ck.why, "MPI_IN_PLACE is only allowed at the root");
            return vmpi_fail(comm, MPI_ERR_BUFFER, "MPI_Reduce", &ck);
        }
        sbuf = rbuf;
    }
    if (count > 0 && (err = vmpi_reduce(sbuf, rbuf, count, d, op, root, c)) != MPI_SUCCESS)
        return vmpi_fail(comm, err, "MPI_Reduce", NULL);
    return MPI_SUCCESS;
}

VMPI_WEAK(Allreduce)
int PMPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err;
    if ((err = check_reduce(&ck, sbuf, rbuf, count, dt, op, comm, true, &c, &d)))
        return vmpi_fail(comm, err, "MPI_Allreduce", &ck);
    if (count > 0 && (err = vmpi_allreduce(sbuf == MPI_IN_PLACE ? rbuf : sbuf, rbuf, count, d, op, c)))
        return vmpi_fail(comm, err, "MPI_Allreduce", NULL);
    return MPI_SUCCESS;
}
