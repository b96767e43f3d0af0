/* SPDX-License-Identifier: BSD-3-Clause */
/* Handles are (kind << 26) | index (see mpi.h); index 0 is the kind's null handle. */
#ifndef VMPI_MPI_HANDLE_H
#define VMPI_MPI_HANDLE_H

enum {
    VMPI_KIND_COMM = 1,
    VMPI_KIND_GROUP = 2,
    VMPI_KIND_DATATYPE = 3,
    VMPI_KIND_REQUEST = 4,
    VMPI_KIND_OP = 5,
    VMPI_KIND_ERRHANDLER = 6,
    VMPI_KIND_INFO = 7,
    VMPI_KIND_MESSAGE = 8,
    VMPI_KIND_KEYVAL = 9, /* attribute keys (MPI_KEYVAL_INVALID is its null handle) */
    VMPI_KIND_WIN = 10,
    VMPI_KIND_AM_OP = 11, /* active-message handlers (mpix_am.h) */
    VMPI_KIND_SESSION = 12, /* a rank's sessions (MPI-4.1 11.3; mpi/core/session.h) */
};

#define VMPI_HANDLE_KIND(h) ((int)((unsigned)(h) >> 26))
#define VMPI_HANDLE_INDEX(h) ((int)((unsigned)(h)&0x03ffffffu))
#define VMPI_HANDLE(kind, idx) ((int)(((unsigned)(kind) << 26) | (unsigned)(idx)))

/* Handles unique in the job (docs/research/restart-procs.md).  The process-wide tables of objects ranks make
 * for themselves (datatypes, groups, info objects, operations) give process p of a job of K processes the
 * indices base + i K + p for its i-th new entry, so that two processes never give one index to two objects:
 * a restart that puts their ranks in one process (or a rank that moves) re-registers each rank's entries
 * at their own indices.  A restart raises every table's base above the checkpoint's largest index (top),
 * agreed by its processes.  Used under the table's lock. */
typedef struct vmpi_handle_seq {
    int base;   /* the first index of this numbering */
    int next;   /* this process's next i */
    int top;    /* the largest index given or re-registered (base - 1 when none) */
} vmpi_handle_seq;

/* The next index, or -1 when it would be `limit` or more. */
int vmpi_handle_seq_take(vmpi_handle_seq *s, int limit);
/* A restart: indices above `above` (the job's largest) from now on. */
void vmpi_handle_seq_rebase(vmpi_handle_seq *s, int above);
static inline void vmpi_handle_seq_saw(vmpi_handle_seq *s, int idx)
{
    if (idx > s->top)
        s->top = idx;
}

#endif
