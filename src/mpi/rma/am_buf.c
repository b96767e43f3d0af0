/* SPDX-License-Identifier: BSD-3-Clause */
/* Active messages: a rank's state on a window (its hints), and the staging space at targets: user buffers,
 * system-buffer partitions, and their reservation with the paper's optimizations (am.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/tunables.h"
#include "base/spin.h"
#include "iso/iso.h"
#include "mpi/core/info.h"
#include "mpi/rma/am_impl.h"

static const char *info_str(MPI_Info info, const char *key, char *buf, int len)
{
    int flag = 0;
    if (info == MPI_INFO_NULL || vmpi_info_get(info, key, len - 1, buf, &flag) != MPI_SUCCESS || !flag)
        return NULL;
    return buf;
}

vmpi_am_win *vmpi_am_state(vmpi_win *w)
{
    if (w->am)
        return w->am;
    vmpi_am_win *a = calloc(1, sizeof *a);
    if (a == NULL)
        return NULL;
    char v[MPI_MAX_INFO_VAL];
    const char *s;
    a->staged = (s = info_str(w->info, "am_staged", v, sizeof v)) ? strcmp(s, "true") == 0 : vmpi_cfg.am_staged;
    a->sysbuf = (MPI_Aint)vmpi_cfg.am_system_buffer;
    size_t sz;
    if ((s = info_str(w->info, "am_system_buffer", v, sizeof v)) && vmpi_parse_size(s, &sz))
        a->sysbuf = (MPI_Aint)sz;
    a->threshold = (s = info_str(w->info, "am_pack_threshold", v, sizeof v)) ? atof(s) : -1;
    a->excl_view = !((s = info_str(w->info, "am_exclusive_view", v, sizeof v)) && strcmp(s, "false") == 0);
    a->interleave = !((s = info_str(w->info, "am_buf_interleave_am_detach", v, sizeof v)) && strcmp(s, "false") == 0);
    a->reverse = (s = info_str(w->info, "am_reverse_units", v, sizeof v)) && strcmp(s, "true") == 0;
    a->max_unit = (s = info_str(w->info, "am_max_unit_segments", v, sizeof v)) ? atoi(s) : 0;
    a->view_target = -1;
    int n = 0;
    if (w->info != MPI_INFO_NULL && vmpi_info_get_nkeys(w->info, &n) == MPI_SUCCESS)
        for (int i = 0; i < n; i++) { /* am_user_buf_<rank>=BYTES: space of our own at that target */
            char key[MPI_MAX_INFO_KEY];
            int r;
            if (vmpi_info_get_nthkey(w->info, i, key) || sscanf(key, "am_user_buf_%d", &r) != 1 || r < 0 ||
                r >= w->size || !(s = info_str(w->info, key, v, sizeof v)) || !vmpi_parse_size(s, &sz))
                continue;
            am_claim *c = realloc(a->claims, sizeof *c * (size_t)(a->nclaims + 1));
            if (c == NULL)
                continue;
            a->claims = c;
            c[a->nclaims++] = (am_claim){r, (MPI_Aint)sz, NULL, false};
        }
    return w->am = a;
}

void vmpi_am_win_free(vmpi_win *w)
{
    if (w->am == NULL)
        return;
    free(w->am->claims);
    free(w->am->view);
    free(w->am->sysmem);
    free(w->am);
    w->am = NULL;
}

int vmpi_am_stats(vmpi_win *w, VMPIX_Am_stats *st, bool reset)
{
    vmpi_am_win *a = vmpi_am_state(w);
    if (a == NULL)
        return MPI_ERR_NO_MEM;
    *st = a->st;
    if (reset)
        memset(&a->st, 0, sizeof a->st);
    return MPI_SUCCESS;
}

void vmpi_am_sync_point(vmpi_win *w, int rank, bool end)
{
    vmpi_am_win *a = w->am;
    if (a && a->view_target >= 0 && (rank < 0 || rank == a->view_target)) {
        if (end)
            a->view_target = -1; /* the exclusive epoch is over */
        else if (a->interleave)
            a->view_stale = true; /* the target may have detached a buffer since: read them again */
    }
}

/* ---- user buffers at the target ---- */

int vmpi_am_attach(vmpi_win *w, void *buf, MPI_Aint size)
{
    vmpi_win_target *t = &w->sh->t[w->rank];
    int err = MPI_SUCCESS;
    vmpi_spin_lock(&t->guard);
    for (int i = 0; i < t->nubufs; i++)
        if ((char *)buf < t->ubufs[i].base + t->ubufs[i].size && t->ubufs[i].base < (char *)buf + size)
            err = MPI_ERR_BUFFER;
    if (!err && t->nubufs == t->cap_ubufs) {
        int cap = t->cap_ubufs ? 2 * t->cap_ubufs : 4;
        vmpi_am_ubuf *n = vmpi_iso_job_realloc(t->ubufs, sizeof *n * (size_t)cap);
        if (n == NULL)
            err = MPI_ERR_NO_MEM;
        else {
            t->ubufs = n;
            t->cap_ubufs = cap;
        }
    }
    if (!err) {
        t->ubufs[t->nubufs++] = (vmpi_am_ubuf){buf, size, 0, 0, 0};
    }
    vmpi_spin_unlock(&t->guard);
    return err;
}

int vmpi_am_detach(vmpi_win *w, void *buf)
{
    vmpi_win_target *t = &w->sh->t[w->rank];
    int err = MPI_ERR_BUFFER;
    vmpi_spin_lock(&t->guard);
    for (int i = 0; i < t->nubufs; i++)
        if (t->ubufs[i].base == buf) {
            if (t->ubufs[i].live > 0 || t->ubufs[i].claimed > 0) {
                err = MPI_ERR_PENDING; /* an active message uses it, or an origin holds space of its own there */
                break;
            }
            t->ubufs[i] = t->ubufs[--t->nubufs];
                err = MPI_SUCCESS;
            break;
        }
    vmpi_spin_unlock(&t->guard);
    return err;
}

/* Claims the space an am_user_buf_<rank> hint guarantees at `rank`, at the first AM there (one synchronization),
 * so that the fit check and every later AM see it. */
static void claim(vmpi_win *w, vmpi_am_win *a, int rank)
{
    vmpi_win_target *t = &w->sh->t[rank];
    for (int i = 0; i < a->nclaims; i++) {
        am_claim *c = &a->claims[i];
        if (c->target != rank || c->tried)
            continue;
        a->st.syncs++;
        bool busy = false; /* a buffer with room is in use by a transient reservation: try at the next AM */
        vmpi_spin_lock(&t->guard);
        for (int k = 0; k < t->nubufs && !c->region; k++)
            if (t->ubufs[k].size - t->ubufs[k].claimed >= c->bytes) {
                if (t->ubufs[k].live > 0) {
                    busy = true;
                    continue;
                }
                c->region = t->ubufs[k].base + t->ubufs[k].claimed;
                t->ubufs[k].claimed += c->bytes;
                t->ubufs[k].top = t->ubufs[k].claimed;
            }
        vmpi_spin_unlock(&t->guard);
        c->tried = c->region != NULL || !busy;
    }
}

MPI_Aint vmpi_am_user_room(vmpi_win *w, vmpi_am_win *a, int rank)
{
    vmpi_win_target *t = &w->sh->t[rank];
    claim(w, a, rank);
    MPI_Aint room = 0;
    for (int i = 0; i < a->nclaims; i++)
        if (a->claims[i].target == rank && a->claims[i].region && a->claims[i].bytes > room)
            room = a->claims[i].bytes;
    vmpi_spin_lock(&t->guard);
    for (int i = 0; i < t->nubufs; i++)
        if (t->ubufs[i].size - t->ubufs[i].claimed > room)
            room = t->ubufs[i].size - t->ubufs[i].claimed;
    vmpi_spin_unlock(&t->guard);
    return room;
}

/* The origin's partition of a target's system buffer, and its size in *bytes; NULL when out of memory.
 * An origin stages one unit at a time, so in one process its partitions of every target's system buffer are
 * one buffer of its own, made at its first staged AM (in its slot: it moves with it). */
char *vmpi_am_sysbuf(vmpi_am_win *a, MPI_Aint *bytes)
{
    if (a->sysmem == NULL)
        a->sysmem = aligned_alloc(64, ((size_t)a->sysbuf + 63) & ~(size_t)63);
    *bytes = a->sysbuf;
    return a->sysmem;
}

/* The largest transient space a shared reservation can get at `t` right now (under the guard). */
static MPI_Aint reserve_shared(vmpi_win_target *t, MPI_Aint want, MPI_Aint min, space *sp)
{
    int best = -1;
    MPI_Aint avail = 0;
    for (int i = 0; i < t->nubufs; i++) {
        MPI_Aint free_ = t->ubufs[i].size - t->ubufs[i].top;
        if (free_ > avail) {
            avail = free_;
            best = i;
        }
    }
    if (best < 0 || avail < min)
        return 0;
    MPI_Aint take = avail < want ? avail : want;
    vmpi_am_ubuf *b = &t->ubufs[best];
    *sp = (space){b->base + b->top, take, SHARED, best};
    b->top += take;
    b->live++;
    return take;
}

void vmpi_am_release_space(vmpi_win_target *t, const space *sp)
{
    if (sp->kind != SHARED)
        return;
    vmpi_spin_lock(&t->guard);
    vmpi_am_ubuf *b = &t->ubufs[sp->ubuf];
    if (--b->live == 0)
        b->top = b->claimed;
    vmpi_spin_unlock(&t->guard);
}

/* Space for between `min` and `want` bytes at target `rank`, by the paper's order of preference.  Returns
 * 0 when there is none (the caller waits for space or fails). */
void vmpi_am_plan_begin(vmpi_am_win *a)
{
    for (int i = 0; i < a->nclaims; i++)
        a->claims[i].used = 0;
    for (int i = 0; i < a->nview; i++)
        a->view[i].top = a->view[i].claimed;
}

MPI_Aint vmpi_am_get_space(vmpi_win *w, vmpi_am_win *a, int rank, MPI_Aint want, MPI_Aint min, bool exclusive,
                          space *sp)
{
    vmpi_win_target *t = &w->sh->t[rank];
    claim(w, a, rank);
    for (int i = 0; i < a->nclaims; i++) { /* am_user_buf_<rank>: claimed once, then ours alone */
        am_claim *c = &a->claims[i];
        MPI_Aint avail = c->bytes - c->used;
        if (c->target == rank && c->region && avail >= min) {
            *sp = (space){c->region + c->used, want < avail ? want : avail, CLAIM, 0};
            c->used += sp->bytes;
            return sp->bytes;
        }
    }
    if (exclusive && a->excl_view) { /* the only origin at this target: a view of its buffers, read once */
        if (a->view_target != rank || a->view_stale) {
            a->st.syncs++;
            vmpi_spin_lock(&t->guard);
            vmpi_am_ubuf *v = realloc(a->view, sizeof *v * (size_t)(t->nubufs ? t->nubufs : 1));
            if (v) {
                memcpy(v, t->ubufs, sizeof *v * (size_t)t->nubufs);
                for (int i = 0; i < t->nubufs; i++)
                    v[i].top = v[i].claimed;
                a->view = v;
                a->nview = t->nubufs;
                a->view_target = rank;
                a->view_stale = false;
            }
            vmpi_spin_unlock(&t->guard);
        }
        if (a->view_target == rank) {
            int best = -1;
            MPI_Aint avail = 0;
            for (int i = 0; i < a->nview; i++)
                if (a->view[i].size - a->view[i].top > avail) {
                    avail = a->view[i].size - a->view[i].top;
                    best = i;
                }
            if (best >= 0 && avail >= min) {
                *sp = (space){a->view[best].base + a->view[best].top, avail < want ? avail : want, VIEW, best};
                a->view[best].top += sp->bytes;
                return sp->bytes;
            }
        }
    }
    a->st.syncs++; /* the handshake: reserve space in the buffers every origin shares */
    vmpi_spin_lock(&t->guard);
    MPI_Aint got = reserve_shared(t, want, min, sp);
    vmpi_spin_unlock(&t->guard);
    return got;
}
