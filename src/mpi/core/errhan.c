/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "base/log.h"
#include "mpi/core/errcode.h"
#include "mpi/core/errhan.h"
#include "mpi/core/handle.h"
#include "mpi/core/rank.h"

static const struct {
    const char *name, *text;
} classes[] = {
    {"MPI_SUCCESS", "no error"},
    {"MPI_ERR_BUFFER", "invalid buffer pointer"},
    {"MPI_ERR_COUNT", "invalid count argument"},
    {"MPI_ERR_TYPE", "invalid datatype"},
    {"MPI_ERR_TAG", "invalid tag"},
    {"MPI_ERR_COMM", "invalid communicator"},
    {"MPI_ERR_RANK", "invalid rank"},
    {"MPI_ERR_ROOT", "invalid root"},
    {"MPI_ERR_GROUP", "invalid group"},
    {"MPI_ERR_OP", "invalid operation"},
    {"MPI_ERR_TOPOLOGY", "invalid topology"},
    {"MPI_ERR_DIMS", "invalid dimension argument"},
    {"MPI_ERR_ARG", "invalid argument"},
    {"MPI_ERR_UNKNOWN", "unknown error"},
    {"MPI_ERR_TRUNCATE", "message truncated on receive"},
    {"MPI_ERR_OTHER", "other error"},
    {"MPI_ERR_INTERN", "internal error"},
    {"MPI_ERR_IN_STATUS", "error code is in status"},
    {"MPI_ERR_PENDING", "pending request"},
    {"MPI_ERR_REQUEST", "invalid request"},
    {"MPI_ERR_ACCESS", "permission denied"},
    {"MPI_ERR_AMODE", "invalid file access mode"},
    {"MPI_ERR_BAD_FILE", "invalid file name"},
    {"MPI_ERR_CONVERSION", "data conversion error"},
    {"MPI_ERR_DUP_DATAREP", "data representation already defined"},
    {"MPI_ERR_FILE_EXISTS", "file exists"},
    {"MPI_ERR_FILE_IN_USE", "file in use"},
    {"MPI_ERR_FILE", "invalid file handle"},
    {"MPI_ERR_INFO", "invalid info object"},
    {"MPI_ERR_INFO_KEY", "invalid info key"},
    {"MPI_ERR_INFO_VALUE", "invalid info value"},
    {"MPI_ERR_INFO_NOKEY", "info key not defined"},
    {"MPI_ERR_IO", "I/O error"},
    {"MPI_ERR_NAME", "invalid service name"},
    {"MPI_ERR_NO_MEM", "out of memory"},
    {"MPI_ERR_NOT_SAME", "arguments differ between processes"},
    {"MPI_ERR_NO_SPACE", "no space left"},
    {"MPI_ERR_NO_SUCH_FILE", "no such file"},
    {"MPI_ERR_PORT", "invalid port"},
    {"MPI_ERR_QUOTA", "quota exceeded"},
    {"MPI_ERR_READ_ONLY", "read-only file"},
    {"MPI_ERR_SERVICE", "invalid service"},
    {"MPI_ERR_SPAWN", "spawn error"},
    {"MPI_ERR_UNSUPPORTED_DATAREP", "unsupported data representation"},
    {"MPI_ERR_UNSUPPORTED_OPERATION", "unsupported operation"},
    {"MPI_ERR_WIN", "invalid window"},
    {"MPI_ERR_BASE", "invalid base address"},
    {"MPI_ERR_LOCKTYPE", "invalid lock type"},
    {"MPI_ERR_KEYVAL", "invalid keyval"},
    {"MPI_ERR_RMA_CONFLICT", "conflicting RMA accesses"},
    {"MPI_ERR_RMA_SYNC", "wrong RMA synchronization"},
    {"MPI_ERR_SIZE", "invalid size"},
    {"MPI_ERR_DISP", "invalid displacement"},
    {"MPI_ERR_ASSERT", "invalid assertion"},
    {"MPI_ERR_RMA_RANGE", "RMA target out of range"},
    {"MPI_ERR_RMA_ATTACH", "RMA attach failed"},
    {"MPI_ERR_RMA_SHARED", "RMA shared memory error"},
    {"MPI_ERR_RMA_FLAVOR", "wrong window flavor"},
    {"MPI_ERR_SESSION", "invalid session"},
    {"MPI_T_ERR_CANNOT_INIT", "MPI_T cannot be initialized"},
    {"MPI_T_ERR_NOT_ACCESSIBLE", "MPI_T: the requested functionality is not accessible"},
    {"MPI_T_ERR_NOT_INITIALIZED", "MPI_T is not initialized"},
    {"MPI_T_ERR_NOT_SUPPORTED", "MPI_T: the requested functionality is not supported"},
    {"MPI_T_ERR_MEMORY", "MPI_T: out of memory"},
    {"MPI_T_ERR_INVALID", "MPI_T: invalid use of the interface or bad parameter value"},
    {"MPI_T_ERR_INVALID_INDEX", "MPI_T: invalid index"},
    {"MPI_T_ERR_INVALID_ITEM", "MPI_T: invalid item index"},
    {"MPI_T_ERR_INVALID_SESSION", "MPI_T: invalid performance variable session"},
    {"MPI_T_ERR_INVALID_HANDLE", "MPI_T: invalid handle"},
    {"MPI_T_ERR_INVALID_NAME", "MPI_T: no variable, category or event of that name"},
    {"MPI_T_ERR_OUT_OF_HANDLES", "MPI_T: no more handles available"},
    {"MPI_T_ERR_OUT_OF_SESSIONS", "MPI_T: no more sessions available"},
    {"MPI_T_ERR_CVAR_SET_NOT_NOW", "MPI_T: the control variable cannot be set at this moment"},
    {"MPI_T_ERR_CVAR_SET_NEVER", "MPI_T: the control variable cannot be set until the end of the execution"},
    {"MPI_T_ERR_PVAR_NO_WRITE", "MPI_T: the performance variable cannot be written or reset"},
    {"MPI_T_ERR_PVAR_NO_STARTSTOP", "MPI_T: the performance variable cannot be started or stopped"},
    {"MPI_T_ERR_PVAR_NO_ATOMIC", "MPI_T: the performance variable cannot be read and reset atomically"},
};

const char *vmpi_err_class_name(int cls)
{
    return cls >= 0 && cls < (int)VMPI_ARRAY_LEN(classes) ? classes[cls].name : NULL;
}

const char *vmpi_err_class_text(int cls)
{
    return cls >= 0 && cls < (int)VMPI_ARRAY_LEN(classes) ? classes[cls].text : NULL;
}

/* Handles 1-3 are the predefined handlers (mpi.h); the user's are numbered from 4, per rank. */
enum { FIRST_USER = 4 };

int vmpi_errh_check(MPI_Errhandler h)
{
    if (h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN || h == MPI_ERRORS_ABORT)
        return MPI_SUCCESS;
    vmpi_rank *rk = vmpi_rank_self();
    int i = VMPI_HANDLE_INDEX(h) - FIRST_USER;
    if (VMPI_HANDLE_KIND(h) != VMPI_KIND_ERRHANDLER || i < 0 || i >= rk->nerrh_user || rk->errh_user[i].refs == 0)
        return MPI_ERR_ARG;
    return MPI_SUCCESS;
}

int vmpi_errh_create(MPI_Comm_errhandler_function *fn, MPI_Errhandler *out)
{
    vmpi_rank *rk = vmpi_rank_self();
    vmpi_errh_user *n = realloc(rk->errh_user, sizeof *n * (size_t)(rk->nerrh_user + 1));
    if (n == NULL)
        return MPI_ERR_NO_MEM;
    rk->errh_user = n;
    n[rk->nerrh_user] = (vmpi_errh_user){fn, 1};
    *out = VMPI_HANDLE(VMPI_KIND_ERRHANDLER, FIRST_USER + rk->nerrh_user++);
    return MPI_SUCCESS;
}

void (*vmpi_errh_abi_call)(MPI_Comm_errhandler_function *fn, int *obj, int *code, const char *name);

void vmpi_errh_set_abi(MPI_Errhandler h)
{
    int i = VMPI_HANDLE_INDEX(h) - FIRST_USER;
    if (i >= 0)
        vmpi_rank_self()->errh_user[i].abi = true;
}

void vmpi_errh_ref(MPI_Errhandler h)
{
    int i = VMPI_HANDLE_INDEX(h) - FIRST_USER;
    if (i >= 0)
        vmpi_rank_self()->errh_user[i].refs++;
}

int vmpi_errh_install(MPI_Errhandler *slot, MPI_Errhandler h)
{
    if (vmpi_errh_check(h) != MPI_SUCCESS)
        return MPI_ERR_ARG;
    vmpi_errh_ref(h);
    MPI_Errhandler old = *slot;
    *slot = h;
    vmpi_errh_free(&old);
    return MPI_SUCCESS;
}

int vmpi_errh_free(MPI_Errhandler *h)
{
    int i = VMPI_HANDLE_INDEX(*h) - FIRST_USER;
    if (i >= 0)
        vmpi_rank_self()->errh_user[i].refs--;
    *h = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

int vmpi_err_raise(MPI_Comm comm, int code, const char *fn, const char *fmt, ...)
{
    vmpi_comm *c = vmpi_comm_get(comm);
    if (c == NULL)
        c = vmpi_comm_get(MPI_COMM_WORLD);
    va_list ap;
    va_start(ap, fmt);
    int r = vmpi_err_vraise(c ? c->errh : MPI_ERRORS_ARE_FATAL, c ? c->handle : MPI_COMM_NULL, code, fn, fmt, ap);
    va_end(ap);
    return r;
}

int vmpi_err_vraise(MPI_Errhandler h, int obj, int code, const char *fn, const char *fmt, va_list ap)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (h == MPI_ERRORS_RETURN)
        return code;
    if (h != MPI_ERRORS_ARE_FATAL && h != MPI_ERRORS_ABORT) { /* handles of every kind are ints: one call
                                                                 * serves comms and windows */
        int oh = obj;
        int cd = code;
        vmpi_errh_user *u = &rk->errh_user[VMPI_HANDLE_INDEX(h) - FIRST_USER];
        if (u->abi)
            vmpi_errh_abi_call(u->fn, &oh, &cd, fn);
        else
            u->fn(&oh, &cd, fn);
        return code;
    }
    char detail[512] = "";
    if (fmt)
        vsnprintf(detail, sizeof detail, fmt, ap);
    const char *name = vmpi_err_class_name(code);
    char user[MPI_MAX_ERROR_STRING + 64] = "unknown error code";
    if (name == NULL && vmpi_errcode_class(code) >= 0) { /* a user class or code: its class and string */
        int cls = vmpi_errcode_class(code);
        const char *cname = vmpi_err_class_name(cls);
        char cbuf[32];
        snprintf(cbuf, sizeof cbuf, "user class %d", cls);
        snprintf(user, sizeof user, "user error code %d of %s: \"%s\"", code, cname ? cname : cbuf,
                 vmpi_errcode_user_string(code));
    }
    vmpi_log_run_die_hook(); /* the ranks' output first, then the message */
    if (h == MPI_ERRORS_ABORT) { /* MPI-4: as MPI_Abort on the object's processes, with the error code (the
                                  * job: vmpi's MPI_Abort ends it all) */
        vmpi_warn("rank %d: %s: %s (%s)%s%s; MPI_ERRORS_ABORT: aborting the job with error code %d",
                  rk ? rk->world_rank : -1, fn, name ? name : "error", name ? vmpi_err_class_text(code) : user,
                  fmt ? ": " : "", detail, code);
        vmpi_job_abort(code);
    }
    vmpi_warn("rank %d: %s: %s (%s)%s%s; MPI_ERRORS_ARE_FATAL: stopping the job", rk ? rk->world_rank : -1, fn,
              name ? name : "error", name ? vmpi_err_class_text(code) : user, fmt ? ": " : "", detail);
    vmpi_die(1);
}
