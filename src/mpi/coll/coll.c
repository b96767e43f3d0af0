/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>
#include "mpi/coll/coll.h"
#include "mpi/core/handle.h"
#include "mpi/op/op_builtin.h"
#include "mpi/pt2pt/pt2pt.h"
#include "mpi/pt2pt/wait.h"

enum { TAG_BARRIER = 1, TAG_BCAST, TAG_REDUCE, TAG_ALLREDUCE };
enum { COLL = 1 }; /* context offset of collective traffic */

/* A scratch buffer for `count` instances of `dt`: on the stack when small. */
typedef struct scratch {
    char small[256];
    char *p;
} scratch;

static char *scratch_get(scratch *s, MPI_Count count, const vmpi_dtype *dt)
{
    size_t need = (size_t)(count * dt->extent);
    s->p = need <= sizeof s->small ? s->small : malloc(need);
    return s->p ? s->p - dt->lb : NULL;
}

static void scratch_put(scratch *s)
{
    if (s->p != s->small)
        free(s->p);
}

static void apply(MPI_Op op, const vmpi_dtype *dt, const void *in, void *inout, MPI_Count count)
{
    vmpi_op_builtin_apply(op, VMPI_DT(dt->basic), in, inout, count);
}

/* Sends to `to` and receives from `from` at once (no deadlock whatever the order of the peers). */
static int exchange(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, int to, int from, int tag,
                    vmpi_comm *c)
{
    MPI_Request sreq;
    int err = vmpi_isend(sbuf, count, dt, to, tag, c, COLL, VMPI_SENDK_STD, false, &sreq);
    if (err == MPI_SUCCESS)
        err = vmpi_recv(rbuf, count, dt, from, tag, c, COLL, MPI_STATUS_IGNORE);
    int e2 = vmpi_wait(&sreq, MPI_STATUS_IGNORE);
    return err != MPI_SUCCESS ? err : e2;
}

int vmpi_barrier(vmpi_comm *c)
{
    /* dissemination: ceil(log2 n) rounds of zero-byte messages */
    const vmpi_dtype *byte = vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE));
    int n = c->size, r = c->rank;
    for (int k = 1; k < n; k <<= 1) {
        int err = exchange(NULL, NULL, 0, byte, (r + k) % n, (r - k + n) % n, TAG_BARRIER, c);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

int vmpi_bcast(void *buf, MPI_Count count, const vmpi_dtype *dt, int root, vmpi_comm *c)
{
    /* binomial tree over ranks relative to the root */
    int n = c->size, vr = (c->rank - root + n) % n, mask = 1, err;
    while (mask < n) {
        if (vr & mask) {
            err = vmpi_recv(buf, count, dt, (vr - mask + root) % n, TAG_BCAST, c, COLL, MPI_STATUS_IGNORE);
            if (err != MPI_SUCCESS)
                return err;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n) {
            err = vmpi_send(buf, count, dt, (vr + mask + root) % n, TAG_BCAST, c, COLL, VMPI_SENDK_STD);
            if (err != MPI_SUCCESS)
                return err;
        }
    return MPI_SUCCESS;
}

int vmpi_reduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Op op, int root,
                vmpi_comm *c)
{
    /* binomial tree; node vr holds the reduction of ranks [vr, vr + mask) and adds the next block on its
     * right, so the order is rank order whenever root is 0 */
    int n = c->size, vr = (c->rank - root + n) % n, err = MPI_SUCCESS;
    scratch sa, sb;
    char *acc = scratch_get(&sa, count, dt), *tmp = scratch_get(&sb, count, dt);
    if (!acc || !tmp) {
        scratch_put(&sa);
        scratch_put(&sb);
        return MPI_ERR_NO_MEM;
    }
    vmpi_dtype_copy(sbuf, count, dt, acc, count, dt);
    for (int mask = 1; mask < n; mask <<= 1) {
        if (vr & mask) {
            err = vmpi_send(acc, count, dt, (vr - mask + root) % n, TAG_REDUCE, c, COLL, VMPI_SENDK_STD);
            break;
        }
        if (vr + mask < n) {
            err = vmpi_recv(tmp, count, dt, (vr + mask + root) % n, TAG_REDUCE, c, COLL, MPI_STATUS_IGNORE);
            if (err != MPI_SUCCESS)
                break;
            apply(op, dt, acc, tmp, count); /* tmp = acc op tmp */
            char *t = acc;
            acc = tmp;
            tmp = t;
        }
    }
    if (vr == 0 && err == MPI_SUCCESS)
        vmpi_dtype_copy(acc, count, dt, rbuf, count, dt);
    scratch_put(&sa);
    scratch_put(&sb);
    return err;
}

int vmpi_allreduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Op op, vmpi_comm *c)
{
    /* recursive doubling over the largest power of two; the first 2*rem ranks fold pairwise into it first */
    int n = c->size, r = c->rank, err = MPI_SUCCESS;
    if (sbuf != rbuf)
        vmpi_dtype_copy(sbuf, count, dt, rbuf, count, dt);
    if (n == 1)
        return MPI_SUCCESS;
    int pof2 = 1;
    while (pof2 * 2 <= n)
        pof2 *= 2;
    int rem = n - pof2, newr;
    scratch st;
    char *tmp = scratch_get(&st, count, dt);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    if (r < 2 * rem) {
        if (r % 2 == 0) { /* hands its data to r + 1 and waits for the result */
            err = vmpi_send(rbuf, count, dt, r + 1, TAG_ALLREDUCE, c, COLL, VMPI_SENDK_STD);
            newr = -1;
        } else {
            err = vmpi_recv(tmp, count, dt, r - 1, TAG_ALLREDUCE, c, COLL, MPI_STATUS_IGNORE);
            apply(op, dt, tmp, rbuf, count); /* rbuf = (r-1) op r */
            newr = r / 2;
        }
    } else {
        newr = r - rem;
    }
    for (int mask = 1; newr >= 0 && err == MPI_SUCCESS && mask < pof2; mask <<= 1) {
        int pnew = newr ^ mask;
        int peer = pnew < rem ? pnew * 2 + 1 : pnew + rem;
        err = exchange(rbuf, tmp, count, dt, peer, peer, TAG_ALLREDUCE, c);
        if (err != MPI_SUCCESS)
            break;
        if (peer < r) {
            apply(op, dt, tmp, rbuf, count); /* rbuf = peer's op mine */
        } else {
            apply(op, dt, rbuf, tmp, count); /* tmp = mine op peer's */
            vmpi_dtype_copy(tmp, count, dt, rbuf, count, dt);
        }
    }
    if (err == MPI_SUCCESS && r < 2 * rem) {
        if (r % 2)
            err = vmpi_send(rbuf, count, dt, r - 1, TAG_ALLREDUCE, c, COLL, VMPI_SENDK_STD);
        else
            err = vmpi_recv(rbuf, count, dt, r + 1, TAG_ALLREDUCE, c, COLL, MPI_STATUS_IGNORE);
    }
    scratch_put(&st);
    return err;
}
