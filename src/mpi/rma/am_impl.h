/* SPDX-License-Identifier: BSD-3-Clause */
/* What the active-message files share (am.h has the design): a handler table entry, a rank's state on a
 * window, and staging space at a target. */
#ifndef VMPI_MPI_RMA_AM_IMPL_H
#define VMPI_MPI_RMA_AM_IMPL_H

#include "mpi/core/rank.h"
#include "mpi/rma/am.h"

typedef struct am_entry {
    void *_Atomic fn;         /* NULL: free */
    bool vector;
    void *extra;
} am_entry;

/* The target's registration of handler `op`, or NULL (am_ops.c). */
am_entry *vmpi_am_entry(vmpi_rank *rk, MPIX_Am_op op);

typedef struct am_claim { /* an am_user_buf_<rank> hint */
    int target;
    MPI_Aint bytes;
    char *region;             /* claimed at first use; NULL before */
    MPI_Aint used;            /* by the units of the AM being planned */
    bool tried;
} am_claim;

typedef struct vmpi_am_win {
    bool staged;
    MPI_Aint sysbuf;          /* bytes of its partition of a target's system buffer */
    char *sysmem;             /* the partition (vmpi_am_sysbuf) */
    double threshold;         /* MPIX_Amv packs when generated / maximum is below this; < 0: by size */
    bool excl_view;           /* the exclusive-lock view is allowed (hint am_exclusive_view, for experiments) */
    bool interleave;          /* detaches may happen during an epoch: views go stale at flushes */
    bool reverse;             /* run an AM's units last first (tests out-of-order segments) */
    int max_unit;             /* most segments per unit (0: no limit) */
    am_claim *claims;
    int nclaims;
    int view_target;          /* -1: no view; else a view of that target's buffers (exclusive lock) */
    bool view_stale;          /* a flush passed: read the buffers again before using them */
    vmpi_am_ubuf *view;
    int nview;
    VMPIX_Am_stats st;
} vmpi_am_win;

/* The calling rank's state on `w`, made at its first use from the window's hints (am_buf.c); NULL when out of
 * memory. */
vmpi_am_win *vmpi_am_state(vmpi_win *w);

/* Where one unit of an AM is staged, and how it is given back. */
typedef struct space {
    char *p;
    MPI_Aint bytes;
    int kind;                 /* SYS, CLAIM, VIEW, SHARED */
    int ubuf;                 /* SHARED: index of the buffer reserved in */
} space;
enum { SYS, CLAIM, VIEW, SHARED };

/* The origin's partition of a target's system buffer and its size (*bytes); NULL when out of memory. */
char *vmpi_am_sysbuf(vmpi_am_win *a, MPI_Aint *bytes);
/* A new plan of units: the origin's own space and its view are free again (the previous plan's units ran). */
void vmpi_am_plan_begin(vmpi_am_win *a);
/* Space for between `min` and `want` bytes in target `rank`'s user buffers, by the paper's order of
 * preference (the origin's own space, a view under an exclusive lock, a shared reservation); 0 if none now. */
MPI_Aint vmpi_am_get_space(vmpi_win *w, vmpi_am_win *a, int rank, MPI_Aint want, MPI_Aint min, bool exclusive,
                           space *sp);
void vmpi_am_release_space(vmpi_win_target *t, const space *sp);
/* The most bytes one unit could ever get in target `rank`'s user buffers: units are staged in one buffer each,
 * in its part no origin claimed, or in this origin's own claim. */
MPI_Aint vmpi_am_user_room(vmpi_win *w, vmpi_am_win *a, int rank);
/* Runs handler `e` of rank `target` on `k` segments staged at `in` and `out` (am.c; the handler fields of
 * `a`: counts and handles). */
void vmpi_am_invoke(vmpi_rank *target, vmpi_win_target *t, am_entry *e, char *pbuf, const vmpi_am_args *a,
                    const void *in, void *out, int k, int *counts);
/* MPIX_Am to a target of another process (am_remote.c), after the epoch check. */
int vmpi_am_remote(vmpi_win *w, vmpi_am_win *am, const vmpi_am_args *a, char *why);
void vmpi_am_remote_init(void);


#endif
