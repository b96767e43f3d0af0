/* SPDX-License-Identifier: BSD-3-Clause */
/* The tools information interface (MPI_T, MPI-4.1 15): what vmpi exposes and how it is read.
 * Control variables are the tunables table's settings (base/tunables.c), performance variables the counters
 * the runtime keeps (pvar.c), categories the settings' groups (category.c).  The tables are the process's
 * and constant; what a rank opens (its MPI_T_init_thread count, control-variable handles, sessions and
 * their performance-variable handles) is the rank's, in its memory (binding/tool*.c). */
#ifndef VMPI_MPI_TOOL_H
#define VMPI_MPI_TOOL_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/list.h"

/* An enumeration: its items' values are 0 .. n-1. */
struct vmpi_t_enum {
    const char *name;
    int n;
    const char *items[8];
};

/* ---- control variables (cvar.c) ---- */
typedef struct vmpi_cvar_info {
    const char *name, *desc;
    int verbosity, bind, scope;
    MPI_Datatype dt;
    MPI_T_enum en;
    int count; /* elements of dt a read gives (strings: the buffer it needs, with the null) */
} vmpi_cvar_info;

int vmpi_cvar_count(void);
void vmpi_cvar_get(int i, vmpi_cvar_info *out);
int vmpi_cvar_index(const char *name); /* -1: none */
void vmpi_cvar_read(int i, void *buf);
/* MPI_SUCCESS or an MPI_T error class (MPI_T_ERR_CVAR_SET_NEVER, MPI_T_ERR_INVALID: not a value of it). */
int vmpi_cvar_write(int i, const void *buf);
/* Whether `e` is one of the enumerations the variables name. */
bool vmpi_t_enum_valid(MPI_T_enum e);

/* ---- performance variables (pvar.c) ---- */
typedef struct vmpi_pvar {
    const char *name, *desc, *group;
    int cls, verbosity, bind;
    MPI_Datatype dt;           /* MPI_UNSIGNED_LONG_LONG (uint64_t) or MPI_DOUBLE */
    bool readonly, continuous, atomic;
    int (*count)(const void *obj);                 /* elements, for the bound object (NULL: 1) */
    void (*read)(const void *obj, void *out, int count); /* the current values, as dt (ticks: as uint64_t) */
    bool ticks;        /* a timer read in vmpi_ticks, given in seconds (MPI_DOUBLE) at the current calibration */
    bool process;      /* the process's (not the rank's, which move with it): a rank in another process, or
                        * restarted, reads that process's */
} vmpi_pvar;

int vmpi_pvar_count(void);
const vmpi_pvar *vmpi_pvar_get(int i);
int vmpi_pvar_index(const char *name, int cls); /* -1: none */
/* The object a variable bound to an MPI object names through obj_handle (an MPI_Comm *...), checked for the
 * calling rank, as the handle `*obj` keeps it (0 for MPI_T_BIND_NO_OBJECT); MPI_T_ERR_INVALID when it names
 * none. */
int vmpi_pvar_bind(const vmpi_pvar *v, const void *obj_handle, int *obj);
/* The number of values of `v` for object `obj`. */
int vmpi_pvar_elems(const vmpi_pvar *v, int obj);
/* The current values, as v->dt (or ticks); MPI_T_ERR_INVALID_HANDLE when the object is gone. */
int vmpi_pvar_read_now(const vmpi_pvar *v, int obj, void *out, int count);
/* Accumulating classes (counters, timers, aggregates): a handle counts from its start; the others show the
 * current value. */
static inline bool vmpi_pvar_accumulates(const vmpi_pvar *v)
{
    return v->cls == MPI_T_PVAR_CLASS_COUNTER || v->cls == MPI_T_PVAR_CLASS_TIMER ||
           v->cls == MPI_T_PVAR_CLASS_AGGREGATE;
}

/* ---- categories (category.c): one per group of settings and of performance variables ---- */
typedef struct vmpi_category {
    const char *name, *desc;
    int ncvars, npvars;
    const int *cvars, *pvars;  /* their indices */
} vmpi_category;

int vmpi_category_count(void);
const vmpi_category *vmpi_category_get(int i);
int vmpi_category_index(const char *name); /* -1: none */

/* ---- a rank's MPI_T state (binding/tool*.c) ---- */
struct vmpi_t_cvar_handle {
    vmpi_list node; /* in the rank's list: a handle is valid when it is there */
    int index;
};

struct vmpi_t_pvar_handle {
    vmpi_list node; /* in its session's list */
    const vmpi_pvar *var;
    int obj;           /* the bound object's handle (vmpi_pvar_bind) */
    int count;
    bool started;
    void *acc, *base;  /* count values each: the sum of the stopped periods, the reading at the start (a
                        * timer's in ticks) */
    void *tmp, *res;   /* count values of room each (one allocation with acc and base) */
    long pid;          /* the process of its last reading of a process's variable */
};

struct vmpi_t_pvar_session {
    vmpi_list node;    /* in the rank's list */
    vmpi_list handles;
};

typedef struct vmpi_tool_rank {
    int refs;          /* MPI_T_init_thread calls not yet finalized */
    vmpi_list cvars;   /* control-variable handles */
    vmpi_list sessions;
} vmpi_tool_rank;

/* The calling rank's state while MPI_T is initialized in it, else NULL (also outside any rank). */
vmpi_tool_rank *vmpi_tool_self(void);
/* MPI_T_init_thread in the calling rank: counts it; MPI_T_ERR_CANNOT_INIT outside a rank, MPI_T_ERR_MEMORY. */
int vmpi_tool_init(void);
/* Frees session `s` with its handles. */
void vmpi_tool_session_free(struct vmpi_t_pvar_session *s);
/* MPI_T_finalize: the last one frees the rank's handles and sessions. */
int vmpi_tool_fini(void);

#endif
