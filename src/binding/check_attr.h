/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument checks of the binding layer (check.h, which includes this part after its own and the parts before
 * it: include check.h): info objects, attributes, user error codes. */
#ifndef VMPI_BINDING_CHECK_ATTR_H
#define VMPI_BINDING_CHECK_ATTR_H

#include "mpi/core/attr.h"
#include "mpi/core/info.h"

/* ---- info objects, attributes, user error codes (area: attr) ---- */

static inline int vmpi_chk_info(vmpi_chk *ck, MPI_Info h)
{
    if (vmpi_info_check(h) == MPI_SUCCESS)
        return MPI_SUCCESS;
    return vmpi_chk_bad_handle(ck, h, MPI_INFO_NULL, "MPI_INFO_NULL", "info", MPI_ERR_INFO);
}

/* An info object the caller may change or free: not MPI_INFO_ENV. */
static inline int vmpi_chk_info_writable(vmpi_chk *ck, MPI_Info h)
{
    int err = vmpi_chk_info(ck, h);
    if (err == MPI_SUCCESS && vmpi_info_is_readonly(h)) {
        snprintf(ck->why, sizeof ck->why, "MPI_INFO_ENV is predefined and read-only");
        err = MPI_ERR_INFO;
    }
    return err;
}

/* The info object MPI_Info_free frees, through its pointer. */
static inline int vmpi_chk_info_at(vmpi_chk *ck, const MPI_Info *p)
{
    int err = vmpi_chk_ptr(ck, p, "info");
    return err ? err : vmpi_chk_info_writable(ck, *p);
}

/* MPI_Info_get_string's buffer length, through its pointer: not negative. */
static inline int vmpi_chk_info_buflen(vmpi_chk *ck, const int *buflen)
{
    int err = vmpi_chk_ptr(ck, buflen, "buflen");
    return err ? err : vmpi_chk_nonneg_cls(ck, *buflen, "buflen", MPI_ERR_ARG);
}

/* A key of 1 to MPI_MAX_INFO_KEY - 1 characters. */
static inline int vmpi_chk_info_key(vmpi_chk *ck, const char *key)
{
    size_t n = key ? strnlen(key, MPI_MAX_INFO_KEY) : 0;
    if (key && n > 0 && n < MPI_MAX_INFO_KEY)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, !key ? "key is NULL" : n == 0 ? "empty key"
             : "key longer than MPI_MAX_INFO_KEY - 1 (%d) characters", MPI_MAX_INFO_KEY - 1);
    return MPI_ERR_INFO_KEY;
}

/* A value of at most MPI_MAX_INFO_VAL - 1 characters. */
static inline int vmpi_chk_info_value(vmpi_chk *ck, const char *value)
{
    if (value && strnlen(value, MPI_MAX_INFO_VAL) < MPI_MAX_INFO_VAL)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, !value ? "value is NULL"
             : "value longer than MPI_MAX_INFO_VAL - 1 (%d) characters", MPI_MAX_INFO_VAL - 1);
    return MPI_ERR_INFO_VALUE;
}

/* A keyval for objects of handle kind `objkind`; predefined keys only when `predef_ok` (reading); one the
 * program freed while attributes use it only when `freed_ok` (reading, deleting, freeing). */
static inline int vmpi_chk_keyval(vmpi_chk *ck, int keyval, int objkind, bool predef_ok, bool freed_ok)
{
    if (vmpi_keyval_check(keyval, objkind, predef_ok, freed_ok) == MPI_SUCCESS)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why,
             keyval == MPI_KEYVAL_INVALID ? "MPI_KEYVAL_INVALID"
             : VMPI_HANDLE_INDEX(keyval) <= 15 && VMPI_HANDLE_KIND(keyval) == VMPI_KIND_KEYVAL
                 ? "keyval 0x%x is predefined (read-only) or not for this kind of object"
                 : "invalid keyval 0x%x (freed, not created by this rank, or for another kind of object)",
             (unsigned)keyval);
    return MPI_ERR_KEYVAL;
}

#endif
