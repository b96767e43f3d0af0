/* SPDX-License-Identifier: BSD-3-Clause */
/* Sessions and process sets (session.h). */
#include <stdlib.h>
#include <strings.h>
#include "mpi/core/errhan.h"
#include "mpi/core/handle.h"
#include "mpi/core/info.h"
#include "mpi/core/session.h"

/* Handles: index i + 1 is the rank's i-th entry (index 0 is MPI_SESSION_NULL). */
vmpi_session *vmpi_session_get(MPI_Session h)
{
    vmpi_rank *rk = vmpi_rank_self();
    int i = VMPI_HANDLE_INDEX(h) - 1;
    if (rk == NULL || VMPI_HANDLE_KIND(h) != VMPI_KIND_SESSION || i < 0 || i >= rk->nsessions ||
        !rk->sessions[i].live)
        return NULL;
    return &rk->sessions[i];
}

static int thread_level(MPI_Info info)
{
    static const struct {
        const char *name;
        int level;
    } levels[] = {{"MPI_THREAD_SINGLE", MPI_THREAD_SINGLE}, {"MPI_THREAD_FUNNELED", MPI_THREAD_FUNNELED},
                  {"MPI_THREAD_SERIALIZED", MPI_THREAD_SERIALIZED}, {"MPI_THREAD_MULTIPLE", MPI_THREAD_MULTIPLE}};
    char v[MPI_MAX_INFO_VAL];
    int flag = 0, asked = MPI_THREAD_SINGLE; /* what MPI_Init gives */
    if (info != MPI_INFO_NULL && vmpi_info_get(info, "thread_level", sizeof v - 1, v, &flag) == MPI_SUCCESS && flag)
        for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
            if (strcasecmp(v, levels[i].name) == 0)
                asked = levels[i].level; /* an unknown value is a hint vmpi ignores */
    /* a rank is one user-level thread: it calls MPI from its own thread only (as MPI_Init_thread) */
    return asked < MPI_THREAD_FUNNELED ? asked : MPI_THREAD_FUNNELED;
}

int vmpi_session_open(MPI_Info info, MPI_Errhandler errh, MPI_Session *out)
{
    vmpi_rank *rk = vmpi_rank_self();
    int i = 0;
    while (i < rk->nsessions && rk->sessions[i].live)
        i++;
    if (i == rk->nsessions) {
        if (i + 1 >= (1 << 26))
            return MPI_ERR_NO_MEM;
        vmpi_session *t = realloc(rk->sessions, sizeof *t * (size_t)(i + 1));
        if (t == NULL)
            return MPI_ERR_NO_MEM;
        rk->sessions = t;
        rk->nsessions++;
    }
    vmpi_session *s = &rk->sessions[i];
    *s = (vmpi_session){.live = false, .thread_level = thread_level(info), .errh = MPI_ERRORS_ARE_FATAL,
                        .info = MPI_INFO_NULL};
    if (info != MPI_INFO_NULL) {
        int err = vmpi_info_dup(info, &s->info);
        if (err != MPI_SUCCESS)
            return err;
    }
    vmpi_errh_install(&s->errh, errh);
    s->live = true;
    rk->live_sessions++;
    vmpi_session_update_live(rk);
    *out = VMPI_HANDLE(VMPI_KIND_SESSION, i + 1);
    return MPI_SUCCESS;
}

void vmpi_session_close(MPI_Session *h)
{
    vmpi_rank *rk = vmpi_rank_self();
    vmpi_session *s = vmpi_session_get(*h);
    if (s->info != MPI_INFO_NULL)
        vmpi_info_free(&s->info);
    vmpi_errh_free(&s->errh);
    free(s->groups);
    s->groups = NULL;
    s->ngroups = s->cap_groups = 0;
    s->live = false;
    rk->live_sessions--;
    vmpi_session_update_live(rk);
    *h = MPI_SESSION_NULL;
}

int vmpi_session_note_group(vmpi_session *s, MPI_Group g)
{
    if (s->ngroups == s->cap_groups) {
        int cap = s->cap_groups ? 2 * s->cap_groups : 4;
        MPI_Group *n = realloc(s->groups, sizeof *n * (size_t)cap);
        if (n == NULL)
            return MPI_ERR_NO_MEM;
        s->groups = n;
        s->cap_groups = cap;
    }
    s->groups[s->ngroups++] = g;
    return MPI_SUCCESS;
}

/* The live session that made group `g`, and its slot there (NULL when none did). */
static vmpi_session *maker(MPI_Group g, int *slot)
{
    vmpi_rank *rk = vmpi_rank_self();
    for (int i = 0; rk && i < rk->nsessions; i++)
        for (int j = 0; rk->sessions[i].live && j < rk->sessions[i].ngroups; j++)
            if (rk->sessions[i].groups[j] == g) {
                *slot = j;
                return &rk->sessions[i];
            }
    return NULL;
}

void vmpi_session_rank_fini(vmpi_rank *rk)
{
    for (int i = 0; i < rk->nsessions; i++)
        free(rk->sessions[i].groups);
    free(rk->sessions);
    rk->sessions = NULL;
    rk->nsessions = 0;
}

MPI_Session vmpi_session_handle(const vmpi_session *s)
{
    return (MPI_Session)VMPI_HANDLE(VMPI_KIND_SESSION, (int)(s - vmpi_rank_self()->sessions) + 1);
}

MPI_Session vmpi_session_of_group(MPI_Group g)
{
    int j;
    vmpi_session *s = maker(g, &j);
    return s ? vmpi_session_handle(s) : MPI_SESSION_NULL;
}

void vmpi_session_forget_group(MPI_Group g)
{
    int j;
    vmpi_session *s = maker(g, &j);
    if (s)
        s->groups[j] = s->groups[--s->ngroups];
}

void vmpi_session_update_live(vmpi_rank *rk)
{
    rk->live = (rk->initialized && !rk->finalized) || rk->live_sessions > 0;
}

/* ---- process sets ---- */

static const char *const psets[] = {"mpi://WORLD", "mpi://SELF"};

int vmpi_pset_count(void) { return (int)(sizeof psets / sizeof psets[0]); }

const char *vmpi_pset_name(int n) { return n >= 0 && n < vmpi_pset_count() ? psets[n] : NULL; }

int vmpi_pset_find(const char *name)
{
    for (int n = 0; n < vmpi_pset_count(); n++)
        if (strcasecmp(name, psets[n]) == 0)
            return n;
    return -1;
}

int vmpi_pset_size(int n) { return n == 0 ? vmpi_world_size() : 1; }

vmpi_group *vmpi_pset_group(int n)
{
    if (n == 0)
        return vmpi_group_ref(vmpi_group_world());
    int me = vmpi_rank_self()->world_rank;
    return vmpi_group_new(&me, 1);
}
