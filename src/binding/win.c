/* SPDX-License-Identifier: BSD-3-Clause */
/* Windows, creation, MPI_Win_free, shared and dynamic windows' calls, group, hints, names, error handlers,
 * and MPI_Alloc_mem / MPI_Free_mem: the implementations behind the generated entry points
 * (<build>/gen/binding/win_entry.c, from src/binding/spec/win.toml), which check the arguments, resolve the
 * handles and report the errors these return (a constructor's through its communicator's handler, the
 * others' through the window's). */
#include <stdlib.h>
#include <string.h>
#include "binding/impl.h"
#include "iso/iso.h"
#include "msg/loc.h"
#include "xport/procs.h"

int vmpi_b_Win_create(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, vmpi_comm *comm, MPI_Win *win)
{
    return vmpi_win_create(base, size, disp_unit, info, comm, win);
}

int vmpi_b_Win_allocate(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, vmpi_comm *comm, void *baseptr, MPI_Win *win)
{
    return vmpi_win_allocate(size, disp_unit, info, comm, (void **)baseptr, win);
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

int vmpi_b_Win_allocate_shared(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, vmpi_comm *comm, void *baseptr,
                               MPI_Win *win, vmpi_chk *ck)
{
    int err = one_proc(ck, comm);
    return err ? err : vmpi_win_allocate_shared(size, disp_unit, info, comm, (void **)baseptr, win);
}

int vmpi_b_Win_create_dynamic(MPI_Info info, vmpi_comm *comm, MPI_Win *win)
{
    return vmpi_win_create_dynamic(info, comm, win);
}

int vmpi_b_Win_shared_query(vmpi_win *win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr)
{
    return vmpi_win_shared_query(win, rank, size, disp_unit, (void **)baseptr);
}

int vmpi_b_Win_attach(vmpi_win *win, void *base, MPI_Aint size, vmpi_chk *ck)
{
    int err = vmpi_win_attach(win, base, size);
    if (err)
        snprintf(ck->why, sizeof ck->why, "[%p, %p) overlaps memory attached already", base, (char *)base + size);
    return err;
}

int vmpi_b_Win_detach(vmpi_win *win, const void *base, vmpi_chk *ck)
{
    int err = vmpi_win_detach(win, base);
    if (err)
        snprintf(ck->why, sizeof ck->why, "%p is not the base of memory attached to the window", base);
    return err;
}

int vmpi_b_Win_free(MPI_Win *win, vmpi_chk *ck)
{
    int err = vmpi_win_free(vmpi_win_get(*win));
    if (err) {
        snprintf(ck->why, sizeof ck->why, "an attribute's delete callback returned %d", err);
        return err;
    }
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}

int vmpi_b_Win_get_group(vmpi_win *win, MPI_Group *group)
{
    *group = vmpi_group_handle(win->comm->group);
    return *group == MPI_GROUP_NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

int vmpi_b_Win_set_info(vmpi_win *win, MPI_Info info) { return vmpi_win_set_info(win, info); }

int vmpi_b_Win_get_info(vmpi_win *win, MPI_Info *info_used) { return vmpi_win_get_info(win, info_used); }

int vmpi_b_Win_set_name(vmpi_win *win, const char *win_name)
{
    snprintf(win->name, sizeof win->name, "%s", win_name); /* longer names are truncated (MPI-4.1 7.8) */
    return MPI_SUCCESS;
}

int vmpi_b_Win_get_name(vmpi_win *win, char *win_name, int *resultlen)
{
    strcpy(win_name, win->name);
    *resultlen = (int)strlen(win->name);
    return MPI_SUCCESS;
}

/* ---- error handlers: one table for communicators and windows (handles are ints either way) ---- */

int vmpi_b_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn, MPI_Errhandler *errhandler)
{
    return vmpi_errh_create((MPI_Comm_errhandler_function *)win_errhandler_fn, errhandler);
}

int vmpi_b_Win_set_errhandler(vmpi_win *win, MPI_Errhandler errhandler)
{
    return vmpi_errh_install(&win->errh, errhandler);
}

int vmpi_b_Win_get_errhandler(vmpi_win *win, MPI_Errhandler *errhandler)
{
    vmpi_errh_ref(win->errh); /* a new reference the user frees */
    *errhandler = win->errh;
    return MPI_SUCCESS;
}

int vmpi_b_Win_call_errhandler(vmpi_win *win, int errorcode)
{
    VMPI_CHK(ck);
    snprintf(ck.why, sizeof ck.why, "raised by MPI_Win_call_errhandler");
    vmpi_win_fail(win->handle, errorcode, "MPI_Win_call_errhandler", &ck);
    return MPI_SUCCESS; /* the handler was called; the call itself succeeded */
}

/* ---- memory ---- */

int vmpi_b_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr, vmpi_chk *ck)
{
    (void)info;
    /* from the calling rank's slot (it moves with the rank); aligned for any element */
    size_t n = ((size_t)(size > 0 ? size : 1) + 63) & ~(size_t)63;
    void *p = aligned_alloc(64, n);
    if (p == NULL) {
        snprintf(ck->why, sizeof ck->why, "%td bytes", size);
        return MPI_ERR_NO_MEM;
    }
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

int vmpi_b_Free_mem(void *base)
{
    free(base);
    return MPI_SUCCESS;
}
