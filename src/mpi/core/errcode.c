/* SPDX-License-Identifier: BSD-3-Clause */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/core/errcode.h"
#include "mpi/core/errhan.h"
#include "mpi/core/rank.h"

typedef struct uerr {
    int cls;   /* its class: itself for a class; 0 once removed (MPI_Remove_error_*) */
    int n;     /* a class: its codes not removed yet */
    char *str; /* from MPI_Add_error_string, or NULL */
} uerr;

/* A removed value is given again, the lowest first: a library that adds its classes at each start and
 * removes them at each end (MPICH's errhan/adderr, 10,000 times) gets the same values each time, and the
 * table keeps its size. */
typedef struct vmpi_errcodes {
    uerr *e; /* value MPI_ERR_LASTCODE + 1 + i is e[i] */
    int n, cap;
    int low;     /* every index below it is in use (where the search for a removed one starts) */
    int lastused;
} vmpi_errcodes;

static vmpi_errcodes *state(void)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (rk == NULL)
        return NULL;
    if (rk->errcodes == NULL) {
        rk->errcodes = calloc(1, sizeof *rk->errcodes);
        if (rk->errcodes)
            rk->errcodes->lastused = MPI_ERR_LASTCODE;
    }
    return rk->errcodes;
}

static uerr *user(int code)
{
    vmpi_errcodes *s = state();
    if (s == NULL || code <= MPI_ERR_LASTCODE || code - MPI_ERR_LASTCODE - 1 >= s->n)
        return NULL;
    uerr *u = &s->e[code - MPI_ERR_LASTCODE - 1];
    return u->cls ? u : NULL;
}

static int add(int cls, int *out)
{
    vmpi_errcodes *s = state();
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    int i = s->low;
    while (i < s->n && s->e[i].cls != 0)
        i++;
    if (i == s->n) {
        if (s->n == INT_MAX - MPI_ERR_LASTCODE)
            return MPI_ERR_NO_MEM; /* the int range is used up */
        if (s->n == s->cap) {
            int cap = s->cap ? 2 * s->cap : 16;
            uerr *e = realloc(s->e, sizeof *e * (size_t)cap);
            if (e == NULL)
                return MPI_ERR_NO_MEM;
            s->e = e;
            s->cap = cap;
        }
        s->n++;
    }
    s->low = i + 1;
    int v = MPI_ERR_LASTCODE + 1 + i;
    s->e[i] = (uerr){cls < 0 ? v : cls, 0, NULL};
    if (cls > 0 && user(cls)) /* a code of a user class */
        user(cls)->n++;
    if (v > s->lastused)
        s->lastused = v;
    *out = v;
    return MPI_SUCCESS;
}

int vmpi_errcode_add_class(int *errorclass) { return add(-1, errorclass); }

int vmpi_errcode_add_code(int errorclass, int *errorcode)
{
    uerr *u = user(errorclass);
    bool predef = errorclass > MPI_SUCCESS && vmpi_err_class_name(errorclass) != NULL;
    if (!predef && (u == NULL || u->cls != errorclass))
        return MPI_ERR_ARG;
    return add(errorclass, errorcode);
}

int vmpi_errcode_set_string(int code, const char *string)
{
    uerr *u = user(code);
    if (u == NULL)
        return MPI_ERR_ARG;
    char *s = strdup(string);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    free(u->str);
    u->str = s;
    return MPI_SUCCESS;
}

int vmpi_errcode_remove(int code, bool is_class)
{
    uerr *u = user(code);
    if (u == NULL || (u->cls == code) != is_class)
        return VMPI_ERRCODE_NOT_USER;
    if (u->str)
        return VMPI_ERRCODE_HAS_STRING;
    if (is_class && u->n > 0)
        return VMPI_ERRCODE_HAS_CODES;
    if (!is_class && user(u->cls))
        user(u->cls)->n--;
    vmpi_errcodes *s = state();
    u->cls = 0;
    if (u - s->e < s->low)
        s->low = (int)(u - s->e);
    return MPI_SUCCESS;
}

int vmpi_errcode_remove_string(int code)
{
    uerr *u = user(code);
    if (u == NULL || u->str == NULL)
        return VMPI_ERRCODE_NOT_USER;
    free(u->str);
    u->str = NULL;
    return MPI_SUCCESS;
}

int vmpi_errcode_class(int code)
{
    if (vmpi_err_class_name(code) != NULL)
        return code; /* a predefined code is its own class */
    uerr *u = user(code);
    return u ? u->cls : -1;
}

const char *vmpi_errcode_user_string(int code)
{
    uerr *u = user(code);
    return u == NULL ? NULL : u->str ? u->str : "";
}

int *vmpi_errcode_lastused(void)
{
    vmpi_errcodes *s = state();
    return s ? &s->lastused : NULL;
}

void vmpi_errcode_rank_fini(struct vmpi_rank *rk)
{
    vmpi_errcodes *s = rk->errcodes;
    if (s == NULL)
        return;
    for (int i = 0; i < s->n; i++)
        free(s->e[i].str);
    free(s->e);
    free(s);
    rk->errcodes = NULL;
}
