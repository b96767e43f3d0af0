/* SPDX-License-Identifier: BSD-3-Clause */
/* am_test.h: what the active-message tests (rma/am_*.c) share: which path the job runs active messages on,
 * windows made with hints, and the checks of VMPIX_Am_win_stats that tell the paths apart.
 *
 * The testlist runs each program twice: on the default (direct) path, and with env=VMPI_AM_STAGED=1 (the
 * staged path, unless a window's am_staged hint says otherwise).  Handlers keep no state of their own: what
 * they need comes through their extra_state (the target's registration) or the persistent buffer. */
#ifndef AM_TEST_H
#define AM_TEST_H

#include <strings.h>
#include "mtest.h"

/* Whether the job's default is the staged path (VMPI_AM_STAGED, parsed like vmpi's boolean tunables). */
static inline int amt_env_staged(void)
{
    const char *s = getenv("VMPI_AM_STAGED");
    return s && (!strcmp(s, "1") || !strcasecmp(s, "yes") || !strcasecmp(s, "true") || !strcasecmp(s, "on"));
}

/* An info object holding `n` (key, value) pairs (keys NULL are skipped); MPI_INFO_NULL when there are none. */
static inline MPI_Info amt_info(int n, const char *const kv[][2])
{
    MPI_Info info = MPI_INFO_NULL;
    for (int i = 0; i < n; i++) {
        if (kv[i][0] == NULL)
            continue;
        if (info == MPI_INFO_NULL)
            MPI_Info_create(&info);
        MPI_Info_set(info, kv[i][0], kv[i][1]);
    }
    return info;
}

/* MPI_Win_allocate of `bytes` with disp_unit `unit` and the given hints; the memory is zeroed before the
 * collective returns (a barrier follows). */
static inline MPI_Win amt_win(MPI_Aint bytes, int unit, int nhints, const char *const kv[][2], void *base_out)
{
    MPI_Info info = amt_info(nhints, kv);
    MPI_Win win;
    void *base;
    MPI_Win_allocate(bytes, unit, info, MPI_COMM_WORLD, &base, &win);
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    memset(base, 0, (size_t)bytes);
    MPI_Barrier(MPI_COMM_WORLD);
    *(void **)base_out = base;
    return win;
}

static inline VMPIX_Am_stats amt_stats(MPI_Win win, int reset)
{
    VMPIX_Am_stats st;
    memset(&st, 0, sizeof st);
    VMPIX_Am_win_stats(win, &st, reset);
    return st;
}

/* After active messages with input that ran on `staged` (1) or the direct path (0): the staged path copies
 * input into buffers at the target, the direct one never does (this is what shows that the testlist's
 * env=VMPI_AM_STAGED=1 line and the am_staged hint really change the path). */
/* AMs between processes (vmpirun --emulate-procs) are always staged: the direct path is checked in a job of
 * one process only. */
static inline int amt_nprocs(void)
{
    int p, n = 1;
    VMPIX_Proc_of(0, &p, &n);
    return n;
}
#define AMT_CHECK_PATH(errs, st, staged, what)                                                                \
    do {                                                                                                      \
        if (amt_nprocs() > 1 && !(staged))                                                                    \
            break;                                                                                            \
        if (staged)                                                                                           \
            MT_CHECK(errs, (st).staged_in_bytes > 0, "%s: staged path, but no byte was staged", (what));      \
        else                                                                                                  \
            MT_CHECK(errs, (st).staged_in_bytes == 0 && (st).staged_out_bytes == 0,                           \
                     "%s: direct path, but %lld bytes staged in, %lld out", (what), (st).staged_in_bytes,     \
                     (st).staged_out_bytes);                                                                  \
    } while (0)

#endif /* AM_TEST_H */
