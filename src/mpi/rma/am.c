/* SPDX-License-Identifier: BSD-3-Clause */
/* Active messages: running handlers on the direct and the staged path (am.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/spin.h"
#include "iso/iso.h"
#include "mpi/core/rank.h"
#include "mpi/rma/am_impl.h"
#include "mpi/rma/remote.h"

typedef struct run {
    vmpi_win *w;
    const vmpi_am_args *a;
    am_entry *e;
    vmpi_rank *target;
    vmpi_win_target *t;
    char *pbuf;               /* the persistent buffer */
    bool exclusive;
} run;

/* Calls the target's handler on `k` segments, with the target's thread_locals and under its handler lock. */
static void invoke(const run *r, const void *in, void *out, int k, int *counts)
{
    const vmpi_am_args *a = r->a;
    if (!r->exclusive)
        vmpi_spin_lock(&r->t->am_run); /* the holder is running a handler, which cannot switch out */
    vmpi_iso_tls_from_ = r->target->vp.heap;
    if (r->e->vector)
        ((MPIX_Amv_user_function *)r->e->fn)(in, a->in_count, a->tin_h, r->pbuf, a->pcount, a->pdt_h, out,
                                             a->out_count, a->tout_h, k, counts, r->e->extra);
    else
        ((MPIX_Am_user_function *)r->e->fn)(in, a->in_count, a->tin_h, r->pbuf, a->pcount, a->pdt_h, out,
                                            a->out_count, a->tout_h, k, r->e->extra);
    vmpi_iso_tls_from_ = NULL;
    if (!r->exclusive)
        vmpi_spin_unlock(&r->t->am_run);
}

void vmpi_am_invoke(vmpi_rank *target, vmpi_win_target *t, am_entry *e, char *pbuf, const vmpi_am_args *a,
                    const void *in, void *out, int k, int *counts)
{
    run r = {NULL, a, e, target, t, pbuf, false};
    invoke(&r, in, out, k, counts);
}

/* Bytes from the start of one segment to the start of the next, in a layout of `count` elements of dt. */
static MPI_Aint seg_stride(int count, const vmpi_dtype *dt) { return (MPI_Aint)count * dt->extent; }

static bool same_layout(const vmpi_dtype *x, const vmpi_dtype *y)
{
    return x == y || (x->contig && y->contig && x->size == y->size && x->extent == y->extent && x->lb == y->lb);
}

/* Direct path: the handler works on the origin's buffers (through a copy only where the origin's layout is
 * not the target's). */
static int run_direct(run *r, vmpi_am_win *am)
{
    const vmpi_am_args *a = r->a;
    MPI_Count nin = (MPI_Count)a->nseg * a->in_count, nout = (MPI_Count)a->nseg * a->out_count;
    const void *in = a->in;
    void *out = a->out, *tin = NULL, *tout = NULL;
    if (!same_layout(a->in_dt, a->tin_dt) && nin > 0) {
        if ((tin = malloc((size_t)(nin * a->tin_dt->extent))) == NULL)
            return MPI_ERR_NO_MEM;
        vmpi_dtype_copy(a->in, nin, a->in_dt, tin, nin, a->tin_dt);
        in = tin;
    }
    if (!same_layout(a->out_dt, a->tout_dt) && nout > 0) {
        if ((tout = malloc((size_t)(nout * a->tout_dt->extent))) == NULL) {
            free(tin);
            return MPI_ERR_NO_MEM;
        }
        out = tout;
    }
    invoke(r, in, out, a->nseg, a->counts);
    am->st.invocations++;
    if (tout) {
        for (int s = 0; s < a->nseg; s++) {
            MPI_Count c = a->counts ? a->counts[s] : a->out_count;
            vmpi_dtype_copy((char *)tout + s * seg_stride(a->out_count, a->tout_dt), c, a->tout_dt,
                            (char *)a->out + s * seg_stride(a->out_count, a->out_dt), c, a->out_dt);
        }
        free(tout);
    }
    free(tin);
    return MPI_SUCCESS;
}

enum { MAX_UNITS = 8 }; /* units planned at once */

/* Staged path: units of whole segments, each copied into space at the target, run there, and copied back. */
static int run_staged(run *r, vmpi_am_win *am)
{
    const vmpi_am_args *a = r->a;
    MPI_Aint sin = seg_stride(a->in_count, a->tin_dt), sout = seg_stride(a->out_count, a->tout_dt);
    MPI_Aint per = sin + sout, ssin = seg_stride(a->in_count, a->in_dt), ssout = seg_stride(a->out_count, a->out_dt);
    int *counts = NULL;
    if (a->counts && (counts = malloc(sizeof *counts * (size_t)a->nseg)) == NULL)
        return MPI_ERR_NO_MEM;
    /* plan the units as if they were in flight together (the paper's pipeline): the origin's system-buffer
     * partition first, then user buffers; a plan of more units runs in several */
    struct {
        int first, k;         /* its segments */
        space sp;
    } unit[MAX_UNITS];
    int done = 0, err = MPI_SUCCESS, nunits = 0;
    bool sys_used = false;
    vmpi_am_plan_begin(am);
    /* MPIX_Amv packs below the threshold; by default, the measured crossover: packing at the target and
     * unpacking at the origin (two copies of what was generated) beats one copy of the whole output only
     * when little of a large output was generated (bench/am-paper, Fig. 9: never for 200-byte outputs,
     * below 22% at 1,000 bytes, 70% at 4,000) */
    double threshold = am->threshold >= 0 ? am->threshold : 1.0 - 800.0 / (double)(sout > 0 ? sout : 1);
    while (!err && done < a->nseg && nunits < MAX_UNITS) {
        int left = a->nseg - done, k = 0;
        space sp;
        MPI_Aint sysb = 0;
        char *s = NULL;
        if (!sys_used && per > 0 && am->sysbuf >= per &&
            (s = vmpi_am_sysbuf(am, &sysb)) == NULL) {
            err = MPI_ERR_NO_MEM;
            break;
        }
        if (per == 0) { /* segments without input or output (persistent only): one unit, no space */
            k = left;
            sp = (space){NULL, 0, SYS, 0};
        } else if (s && sysb >= per) {
            sys_used = true;
            k = (int)(sysb / per < left ? sysb / per : left);
            sp = (space){s, k * per, SYS, 0};
        } else {
            sys_used = true;
            MPI_Aint got = vmpi_am_get_space(r->w, am, a->rank, left * per, per, r->exclusive, &sp);
            if (got < per) { /* none now: others hold it; our own earlier units are given back below */
                if (nunits > 0)
                    break;
                vmpi_vp_yield();
                continue;
            }
            k = (int)(got / per);
        }
        if (am->max_unit > 0 && k > am->max_unit)
            k = am->max_unit;
        unit[nunits].first = done;
        unit[nunits].k = k;
        unit[nunits++].sp = sp;
        done += k;
    }
    for (int u = 0; !err && u < nunits; u++) {
        int i = am->reverse ? nunits - 1 - u : u, first = unit[i].first, k = unit[i].k;
        char *stin = unit[i].sp.p, *stout = stin + k * sin;
        vmpi_dtype_copy((const char *)a->in + first * ssin, (MPI_Count)k * a->in_count, a->in_dt, stin,
                        (MPI_Count)k * a->in_count, a->tin_dt);
        am->st.staged_in_bytes += k * sin;
        invoke(r, stin, stout, k, counts ? counts + first : NULL);
        am->st.invocations++;
        if (counts) { /* MPIX_Amv: only what was generated, packed, when it is little enough */
            MPI_Count gen = 0;
            for (int s = 0; s < k; s++)
                gen += counts[first + s];
            double frac = a->out_count > 0 ? (double)gen / ((double)k * a->out_count) : 1.0;
            if (frac < threshold) {
                char *pk = malloc((size_t)(gen * a->tout_dt->size) + 1), *p = pk;
                if (pk == NULL) {
                    err = MPI_ERR_NO_MEM;
                    break;
                }
                for (int s = 0; s < k; s++) /* packed at the target... */
                    p += vmpi_dtype_pack(stout + s * sout, counts[first + s], a->tout_dt, p, counts[first + s] * a->tout_dt->size);
                p = pk;
                for (int s = 0; s < k; s++) /* ...and unpacked at the origin, at the segments' fixed offsets */
                    p += vmpi_dtype_unpack(p, counts[first + s] * a->out_dt->size,
                                           (char *)a->out + (first + s) * ssout, counts[first + s], a->out_dt);
                free(pk);
                am->st.returned_bytes += (MPI_Aint)(gen * a->tout_dt->size);
            } else {
                vmpi_dtype_copy(stout, (MPI_Count)k * a->out_count, a->tout_dt, (char *)a->out + first * ssout,
                                (MPI_Count)k * a->out_count, a->out_dt);
                am->st.returned_bytes += k * sout;
            }
            am->st.returned_bytes += k * (MPI_Aint)sizeof(int); /* the counts always travel */
            memcpy(a->counts + first, counts + first, sizeof *counts * (size_t)k);
        } else {
            vmpi_dtype_copy(stout, (MPI_Count)k * a->out_count, a->tout_dt, (char *)a->out + first * ssout,
                            (MPI_Count)k * a->out_count, a->out_dt);
            am->st.returned_bytes += k * sout;
        }
        am->st.staged_out_bytes += k * sout;
    }
    for (int u = 0; u < nunits; u++)
        vmpi_am_release_space(r->t, &unit[u].sp);
    free(counts);
    if (!err && done < a->nseg) { /* the space ran out before the last segments: plan again for the rest */
        vmpi_am_args rest = *a;
        rest.in = (const char *)a->in + done * ssin;
        rest.out = (char *)a->out + done * ssout;
        rest.counts = a->counts ? a->counts + done : NULL;
        rest.nseg = a->nseg - done;
        run r2 = *r;
        r2.a = &rest;
        return run_staged(&r2, am);
    }
    return err;
}

int vmpi_am(vmpi_win *w, const vmpi_am_args *a, char *why)
{
    if (a->rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    const char *reason = NULL;
    int err = vmpi_win_access(w, a->rank, false, &reason);
    if (err) {
        snprintf(why, 160, "%s", reason ? reason : "");
        return err;
    }
    vmpi_am_win *am = vmpi_am_state(w);
    if (am == NULL)
        return MPI_ERR_NO_MEM;
    if (VMPI_UNLIKELY(w->rm != NULL) && vmpi_rma_is_remote(w, a->rank))
        return vmpi_am_remote(w, am, a, why); /* a target of another process: staged there (am_remote.c) */
    run r = {w, a, NULL, vmpi_rank_get(vmpi_comm_world_rank(w->comm, a->rank)), &w->sh->t[a->rank], NULL,
             vmpi_win_lock_held(w, a->rank) == MPI_LOCK_EXCLUSIVE};
    if ((r.e = vmpi_am_entry(r.target, a->op)) == NULL) {
        snprintf(why, 160, "handler 0x%x is not registered at rank %d", (unsigned)a->op, a->rank);
        return MPI_ERR_ARG;
    }
    if (r.e->vector != (a->counts != NULL)) {
        snprintf(why, 160, "handler 0x%x was registered with %s", (unsigned)a->op,
                 r.e->vector ? "MPIX_Amv_op_create: call MPIX_Amv" : "MPIX_Am_op_create: call MPIX_Am");
        return MPI_ERR_ARG;
    }
    if (a->in_dt->size != a->tin_dt->size || a->out_dt->size != a->tout_dt->size) {
        snprintf(why, 160, "the origin's and the target's %s segments differ in size",
                 a->in_dt->size != a->tin_dt->size ? "input" : "output");
        return MPI_ERR_TYPE;
    }
    vmpi_rma_side p = {NULL, a->pcount, a->pdt};
    if ((err = vmpi_rma_target_addr(w, a->rank, a->pdisp, &p, &r.pbuf, why)))
        return err;
    /* one segment must fit somewhere it could be staged (MPI-interoperable AMs, section II) */
    MPI_Aint seg = seg_stride(a->in_count, a->tin_dt) + seg_stride(a->out_count, a->tout_dt);
    MPI_Aint room, sys;
    if (a->nseg > 0 && seg > (sys = am->sysbuf) &&
        seg > (room = vmpi_am_user_room(w, am, a->rank))) {
        snprintf(why, 160, "a %td-byte segment fits neither the %td-byte system buffer nor a user buffer at "
                 "rank %d (%td bytes)", seg, sys, a->rank, room);
        return MPI_ERR_BUFFER;
    }
    am->st.ams++;
    if (a->nseg == 0)
        return MPI_SUCCESS;
    return am->staged ? run_staged(&r, am) : run_direct(&r, am);
}
