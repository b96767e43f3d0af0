/* SPDX-License-Identifier: BSD-3-Clause */
/* What the MPI_T entry points (tool.c, tool_pvar.c) share.  MPI_T functions return their error class and
 * call no error handler (MPI-4.1 15.3.10); they work at any time in a rank that initialized MPI_T. */
#ifndef VMPI_BINDING_TOOL_H
#define VMPI_BINDING_TOOL_H

#include <string.h>
#include "binding/check.h"
#include "mpi/tool/tool.h"

/* The MPI_T convention for strings (MPI-4.1 15.3.3): at most *len - 1 characters and a null into buf; *len
 * becomes the string's length plus one.  A NULL buf or a 0 length returns the length only; a NULL len
 * returns nothing. */
static inline void vmpi_t_string(const char *s, char *buf, int *len)
{
    if (len == NULL)
        return;
    size_t n = strlen(s);
    if (buf != NULL && *len > 0) {
        size_t k = n < (size_t)*len - 1 ? n : (size_t)*len - 1;
        memcpy(buf, s, k);
        buf[k] = '\0';
    }
    *len = (int)n + 1;
}

/* An OUT argument the caller may pass as NULL (not interested: MPI-4.1 15.3.3). */
#define VMPI_T_SET(p, v) ((p) ? (void)(*(p) = (v)) : (void)0)

/* The calling rank's MPI_T state, or return MPI_T_ERR_NOT_INITIALIZED. */
#define VMPI_T_STATE(t)                                                                                        \
    vmpi_tool_rank *t = vmpi_tool_self();                                                                      \
    if (t == NULL)                                                                                             \
    return MPI_T_ERR_NOT_INITIALIZED

/* Return MPI_T_ERR_NOT_INITIALIZED unless the calling rank initialized MPI_T. */
#define VMPI_T_CHECK()                                                                                         \
    do {                                                                                                       \
        if (vmpi_tool_self() == NULL)                                                                          \
            return MPI_T_ERR_NOT_INITIALIZED;                                                                  \
    } while (0)

/* An MPI_T_*_get_num: `n` into *out (MPI_T_ERR_INVALID for NULL), once MPI_T is initialized. */
static inline int vmpi_t_get_num(int *out, int n)
{
    VMPI_T_CHECK();
    if (out == NULL)
        return MPI_T_ERR_INVALID;
    *out = n;
    return MPI_SUCCESS;
}

#endif
