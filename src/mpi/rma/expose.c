/* SPDX-License-Identifier: BSD-3-Clause */
/* A window's memory exposed to the network's one-sided operations (remote.h; the transport's side is
 * xport.h's expose .. remote_remove, UCX's in net/rkey.c).  At creation each rank registers its memory with
 * the transport between processes and publishes the key's length with its base and size (win.c's
 * exchange); when any rank has a key, the keys are all-gathered over the window's communicator and each rank
 * gives the transport the keys of the ranks of other processes (ranks move only within their process, so a
 * key stays good for its rank).  From then on the transport's put and get within that memory, which remote.c
 * uses for contiguous transfers (and ARMCI for its copies), are one-sided.  A dynamic window exposes nothing
 * (its memory is attached later, by its owner alone): its operations stay messages the target serves, which
 * also check the attached regions.  Win_free removes the keys before its barrier and unexposes after it, so
 * no origin holds a key of memory no longer registered. */
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "mpi/coll/coll.h"
#include "mpi/core/handle.h"
#include "mpi/rma/remote.h"
#include "xport/procs.h"
#include "xport/xport.h"

/* The transport to the other processes (the same for all of them), or NULL when it exposes nothing. */
static vmpi_xport *exposing(void)
{
    int n = vmpi_xport_nprocs();
    if (n < 2)
        return NULL;
    vmpi_xport *x = vmpi_xport_remote(vmpi_xport_first_pe((vmpi_xport_self_proc() + 1) % n));
    return x && x->ops->expose ? x : NULL;
}

void vmpi_rma_expose_key(void *base, MPI_Aint size, void **key, size_t *klen)
{
    *key = NULL;
    *klen = 0;
    vmpi_xport *x = exposing();
    if (x == NULL || size <= 0 || base == NULL)
        return;
    if (!x->ops->expose(x, (uint64_t)(uintptr_t)base, (size_t)size, key, klen)) {
        free(*key);
        *key = NULL;
        *klen = 0;
    }
}

int vmpi_rma_expose_open(vmpi_win *w, const vmpi_rma_pub *all, void *base, MPI_Aint size, const void *key)
{
    vmpi_rma_remote *rm = w->rm;
    vmpi_xport *x = exposing();
    if (rm == NULL || x == NULL)
        return MPI_SUCCESS;
    if (key) { /* (the transport's count of this expose: undone at Win_free) */
        rm->exp_addr = (uint64_t)(uintptr_t)base;
        rm->exp_len = (uint64_t)size;
        rm->exposed = true;
    }
    size_t total = 0;
    for (int r = 0; r < w->size; r++)
        total += (size_t)all[r].klen;
    if (total == 0)
        return MPI_SUCCESS; /* the same decision in every rank: every rank has every klen */
    /* (short of memory here, a rank cannot leave the others in the all-gather: fatal, as for messages) */
    int *lens = malloc(sizeof *lens * (size_t)w->size), *displs = malloc(sizeof *displs * (size_t)w->size);
    char *keys = malloc(total);
    if ((rm->known = calloc((size_t)w->size, sizeof *rm->known)) == NULL || lens == NULL || displs == NULL ||
        keys == NULL)
        vmpi_fatal("out of memory exchanging a window's remote keys (%zu bytes)", total);
    for (int r = 0, at = 0; r < w->size; r++) {
        lens[r] = (int)all[r].klen;
        displs[r] = at;
        at += lens[r];
    }
    const vmpi_dtype *byte = vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE));
    int err = vmpi_coll_allgatherv(key ? key : (const void *)keys, lens[w->rank], byte, keys, vmpi_iv_int(lens),
                                   vmpi_iv_int(displs), byte, w->comm, NULL);
    for (int r = 0; err == MPI_SUCCESS && r < w->size; r++) {
        if (lens[r] == 0 || !vmpi_rma_is_remote(w, r))
            continue;
        int proc = vmpi_xport_proc_of_pe(vmpi_loc_pe(rm->peer[r].world));
        x->ops->remote_add(x, proc, all[r].base, (size_t)all[r].size, keys + displs[r], (size_t)lens[r]);
        rm->known[r] = true;
    }
    free(keys);
    free(lens);
    free(displs);
    return err;
}

void vmpi_rma_expose_forget(vmpi_win *w)
{
    vmpi_rma_remote *rm = w->rm;
    vmpi_xport *x = exposing();
    if (rm == NULL || x == NULL || rm->known == NULL)
        return;
    for (int r = 0; r < w->size; r++)
        if (rm->known[r]) {
            const vmpi_rma_peer *p = &rm->peer[r];
            x->ops->remote_remove(x, vmpi_xport_proc_of_pe(vmpi_loc_pe(p->world)), (uint64_t)(uintptr_t)p->base,
                                  (size_t)p->size);
            rm->known[r] = false;
        }
}

void vmpi_rma_expose_unexpose(vmpi_win *w)
{
    vmpi_rma_remote *rm = w->rm;
    vmpi_xport *x = exposing();
    if (rm == NULL || x == NULL || !rm->exposed)
        return;
    x->ops->unexpose(x, rm->exp_addr, (size_t)rm->exp_len);
    rm->exposed = false;
}
