/* SPDX-License-Identifier: BSD-3-Clause */
/* Windows: creation (errors go to the communicator's handler), Win_free, shared and dynamic windows'
 * calls, group, hints, names, error handlers, and MPI_Alloc_mem / MPI_Free_mem. */
#include <stdlib.h>
#include <string.h>
#include "binding/check.h"
#include "iso/iso.h"
#include "msg/loc.h"
#include "xport/procs.h"

static int create_args(vmpi_chk *ck, MPI_Comm comm, vmpi_comm **c, MPI_Info info, MPI_Win *win)
{
    int err;
    if ((err = vmpi_chk_ranked(ck)) || (err = vmpi_chk_comm(ck, comm, c)) || (err = vmpi_chk_intra(ck, *c)) ||
        (info != MPI_INFO_NULL && (err = vmpi_chk_info(ck, info))) || (err = vmpi_chk_ptr(ck, win, "win")))
        return err;
    return MPI_SUCCESS;
}

static int size_args(vmpi_chk *ck, MPI_Aint size, MPI_Aint disp_unit)
{
    if (size < 0) {
        snprintf(ck->why, sizeof ck->why, "negative size %td", size);
        return MPI_ERR_SIZE;
    }
    if (disp_unit <= 0) {
        snprintf(ck->why, sizeof ck->why, "disp_unit %td is not positive", disp_unit);
        return MPI_ERR_DISP;
    }
    return MPI_SUCCESS;
}

/* The int and _c forms (MPI_Aint disp_unit) of the constructors share these. */
static int win_create(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win,
                      const char *fn)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if ((err = create_args(&ck, comm, &c, info, win)) || (err = size_args(&ck, size, disp_unit)) ||
        (size > 0 && (err = vmpi_chk_ptr(&ck, base, "base"))) || (err = vmpi_win_create(base, size, disp_unit, info, c, win)))
        return vmpi_fail(comm, err, fn, &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_create)
int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return win_create(base, size, disp_unit, info, comm, win, "MPI_Win_create");
}

VMPI_WEAK(Win_create_c)
int PMPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return win_create(base, size, disp_unit, info, comm, win, "MPI_Win_create_c");
}

static int win_allocate(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win,
                        const char *fn)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if ((err = create_args(&ck, comm, &c, info, win)) || (err = size_args(&ck, size, disp_unit)) ||
        (err = vmpi_chk_ptr(&ck, baseptr, "baseptr")) ||
        (err = vmpi_win_allocate(size, disp_unit, info, c, (void **)baseptr, win)))
        return vmpi_fail(comm, err, fn, &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_allocate)
int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    return win_allocate(size, disp_unit, info, comm, baseptr, win, "MPI_Win_allocate");
}

VMPI_WEAK(Win_allocate_c)
int PMPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    return win_allocate(size, disp_unit, info, comm, baseptr, win, "MPI_Win_allocate_c");
}

/* A shared-memory window needs ranks that share memory, those of one process (MPI_COMM_TYPE_SHARED's
 * groups): over a communicator spanning processes it fails, the same at every rank (MPI-3.1 11.2.3 makes
 * such a communicator the user's error; MPICH and Open MPI fail too). */
static int one_proc(vmpi_chk *ck, const vmpi_comm *c)
{
    if (vmpi_xport_nprocs() == 1)
        return MPI_SUCCESS;
    int p0 = vmpi_xport_proc_of_pe(vmpi_loc_pe(vmpi_comm_world_rank(c, 0)));
    for (int r = 1; r < c->size; r++) {
        int p = vmpi_xport_proc_of_pe(vmpi_loc_pe(vmpi_comm_world_rank(c, r)));
        if (p != p0) {
            snprintf(ck->why, sizeof ck->why,
                     "the communicator spans processes %d and %d, which share no memory (split it with "
                     "MPI_COMM_TYPE_SHARED first)", p0, p);
            return MPI_ERR_RMA_SHARED;
        }
    }
    return MPI_SUCCESS;
}

static int win_allocate_shared(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                               MPI_Win *win, const char *fn)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if ((err = create_args(&ck, comm, &c, info, win)) || (err = size_args(&ck, size, disp_unit)) ||
        (err = vmpi_chk_ptr(&ck, baseptr, "baseptr")) || (err = one_proc(&ck, c)) ||
        (err = vmpi_win_allocate_shared(size, disp_unit, info, c, (void **)baseptr, win)))
        return vmpi_fail(comm, err, fn, &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_allocate_shared)
int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    return win_allocate_shared(size, disp_unit, info, comm, baseptr, win, "MPI_Win_allocate_shared");
}

VMPI_WEAK(Win_allocate_shared_c)
int PMPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                               MPI_Win *win)
{
    return win_allocate_shared(size, disp_unit, info, comm, baseptr, win, "MPI_Win_allocate_shared_c");
}

VMPI_WEAK(Win_create_dynamic)
int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if ((err = create_args(&ck, comm, &c, info, win)) || (err = vmpi_win_create_dynamic(info, c, win)))
        return vmpi_fail(comm, err, "MPI_Win_create_dynamic", &ck);
    return MPI_SUCCESS;
}

static int flavor_is(vmpi_chk *ck, const vmpi_win *w, int flavor, const char *what)
{
    if (w->flavor == flavor)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "the window was not made by %s", what);
    return MPI_ERR_RMA_FLAVOR;
}

static int shared_query(MPI_Win win, int rank, MPI_Aint *size, const void *disp_unit, MPI_Aint *du, void *baseptr,
                        const char *fn)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = flavor_is(&ck, w, MPI_WIN_FLAVOR_SHARED, "MPI_Win_allocate_shared")) ||
        (err = vmpi_chk_win_rank(&ck, rank, w)) || (err = vmpi_chk_ptr(&ck, size, "size")) ||
        (err = vmpi_chk_ptr(&ck, disp_unit, "disp_unit")) || (err = vmpi_chk_ptr(&ck, baseptr, "baseptr")) ||
        (err = vmpi_win_shared_query(w, rank, size, du, (void **)baseptr)))
        return vmpi_win_fail(win, err, fn, &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_shared_query)
int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr)
{
    MPI_Aint du;
    int err = shared_query(win, rank, size, disp_unit, &du, baseptr, "MPI_Win_shared_query");
    if (err == MPI_SUCCESS)
        *disp_unit = du > INT_MAX ? MPI_UNDEFINED : (int)du; /* a _c window's unit beyond an int */
    return err;
}

VMPI_WEAK(Win_shared_query_c)
int PMPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr)
{
    return shared_query(win, rank, size, disp_unit, disp_unit, baseptr, "MPI_Win_shared_query_c");
}

VMPI_WEAK(Win_attach)
int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = flavor_is(&ck, w, MPI_WIN_FLAVOR_DYNAMIC, "MPI_Win_create_dynamic")))
        return vmpi_win_fail(win, err, "MPI_Win_attach", &ck);
    if (size < 0 || (size > 0 && base == NULL)) {
        snprintf(ck.why, sizeof ck.why, size < 0 ? "negative size %td" : "NULL base for %td bytes", size);
        return vmpi_win_fail(win, size < 0 ? MPI_ERR_SIZE : MPI_ERR_BASE, "MPI_Win_attach", &ck);
    }
    if ((err = vmpi_win_attach(w, base, size))) {
        snprintf(ck.why, sizeof ck.why, "[%p, %p) overlaps memory attached already", base, (char *)base + size);
        return vmpi_win_fail(win, err, "MPI_Win_attach", &ck);
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_detach)
int PMPI_Win_detach(MPI_Win win, const void *base)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = flavor_is(&ck, w, MPI_WIN_FLAVOR_DYNAMIC, "MPI_Win_create_dynamic")))
        return vmpi_win_fail(win, err, "MPI_Win_detach", &ck);
    if ((err = vmpi_win_detach(w, base))) {
        snprintf(ck.why, sizeof ck.why, "%p is not the base of memory attached to the window", base);
        return vmpi_win_fail(win, err, "MPI_Win_detach", &ck);
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_free)
int PMPI_Win_free(MPI_Win *win)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, win, "win")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Win_free", &ck);
    if ((err = vmpi_chk_win(&ck, *win, &w)))
        return vmpi_win_fail(*win, err, "MPI_Win_free", &ck);
    if ((w->epoch != VMPI_EPOCH_NONE && !(w->epoch == VMPI_EPOCH_FENCE && w->fence_ops == 0)) || w->post_group) {
        snprintf(ck.why, sizeof ck.why, "an epoch of the window is still open on this rank");
        return vmpi_win_fail(*win, MPI_ERR_RMA_SYNC, "MPI_Win_free", &ck);
    }
    MPI_Win h = *win;
    if ((err = vmpi_win_free(w))) {
        snprintf(ck.why, sizeof ck.why, "an attribute's delete callback returned %d", err);
        return vmpi_win_fail(h, err, "MPI_Win_free", &ck);
    }
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_get_group)
int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = vmpi_chk_ptr(&ck, group, "group")))
        return vmpi_win_fail(win, err, "MPI_Win_get_group", &ck);
    if ((*group = vmpi_group_handle(w->comm->group)) == MPI_GROUP_NULL)
        return vmpi_win_fail(win, MPI_ERR_NO_MEM, "MPI_Win_get_group", &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_set_info)
int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = vmpi_chk_info(&ck, info)) || (err = vmpi_win_set_info(w, info)))
        return vmpi_win_fail(win, err, "MPI_Win_set_info", &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_get_info)
int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = vmpi_chk_ptr(&ck, info_used, "info_used")) ||
        (err = vmpi_win_get_info(w, info_used)))
        return vmpi_win_fail(win, err, "MPI_Win_get_info", &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_set_name)
int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = vmpi_chk_ptr(&ck, win_name, "win_name")))
        return vmpi_win_fail(win, err, "MPI_Win_set_name", &ck);
    snprintf(w->name, sizeof w->name, "%s", win_name); /* longer names are truncated (MPI-3.1 6.8) */
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_get_name)
int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = vmpi_chk_ptr(&ck, win_name, "win_name")) ||
        (err = vmpi_chk_ptr(&ck, resultlen, "resultlen")))
        return vmpi_win_fail(win, err, "MPI_Win_get_name", &ck);
    strcpy(win_name, w->name);
    *resultlen = (int)strlen(w->name);
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_c2f)
MPI_Fint PMPI_Win_c2f(MPI_Win win) { return (MPI_Fint)win; }
VMPI_WEAK(Win_f2c)
MPI_Win PMPI_Win_f2c(MPI_Fint win) { return (MPI_Win)win; }

/* ---- error handlers: one table for communicators and windows (handles are ints either way) ---- */

VMPI_WEAK(Win_create_errhandler)
int PMPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn, MPI_Errhandler *errhandler)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, (const void *)win_errhandler_fn, "function")) ||
        (err = vmpi_chk_ptr(&ck, errhandler, "errhandler")) ||
        (err = vmpi_errh_create((MPI_Comm_errhandler_function *)win_errhandler_fn, errhandler)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Win_create_errhandler", &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_set_errhandler)
int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)))
        return vmpi_win_fail(win, err, "MPI_Win_set_errhandler", &ck);
    if ((err = vmpi_errh_install(&w->errh, errhandler))) {
        snprintf(ck.why, sizeof ck.why, "invalid error handler 0x%x", (unsigned)errhandler);
        return vmpi_win_fail(win, err, "MPI_Win_set_errhandler", &ck);
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_get_errhandler)
int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = vmpi_chk_ptr(&ck, errhandler, "errhandler")))
        return vmpi_win_fail(win, err, "MPI_Win_get_errhandler", &ck);
    vmpi_errh_ref(w->errh); /* a new reference the user frees */
    *errhandler = w->errh;
    return MPI_SUCCESS;
}

VMPI_WEAK(Win_call_errhandler)
int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)))
        return vmpi_win_fail(win, err, "MPI_Win_call_errhandler", &ck);
    snprintf(ck.why, sizeof ck.why, "raised by MPI_Win_call_errhandler");
    vmpi_win_fail(win, errorcode, "MPI_Win_call_errhandler", &ck);
    return MPI_SUCCESS; /* the handler was called; the call itself succeeded */
}

/* ---- memory ---- */

VMPI_WEAK(Alloc_mem)
int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (info != MPI_INFO_NULL && (err = vmpi_chk_info(&ck, info))) ||
        (err = vmpi_chk_ptr(&ck, baseptr, "baseptr")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Alloc_mem", &ck);
    if (size < 0) {
        snprintf(ck.why, sizeof ck.why, "negative size %td", size);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_SIZE, "MPI_Alloc_mem", &ck);
    }
    /* from the calling rank's slot (it moves with the rank); aligned for any element */
    size_t n = ((size_t)(size > 0 ? size : 1) + 63) & ~(size_t)63;
    void *p = aligned_alloc(64, n);
    if (p == NULL) {
        snprintf(ck.why, sizeof ck.why, "%td bytes", size);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Alloc_mem", &ck);
    }
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

VMPI_WEAK(Free_mem)
int PMPI_Free_mem(void *base)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Free_mem");
    free(base);
    return MPI_SUCCESS;
}
