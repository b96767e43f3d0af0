/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI_Init .. ARMCI_Finalize, the process and locality queries, ARMCI_Error, and the adaptive extensions
 * (ARMCI_Migrate, ARMCI_Checkpoint), which are AMPI_Migrate with the matching hints. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "armci/armci_impl.h"
#include "base/log.h"
#include "base/tunables.h"
#include "iso/iso.h"
#include "mpi/core/comm.h"
#include "msg/loc.h"
#include "xport/procs.h"

int armci_fail(const char *fn, int cls, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    vmpi_rank *rk = vmpi_rank_self();
    vmpi_warn("[rank %d] %s: %s", rk ? rk->world_rank : -1, fn, what);
    if (!vmpi_cfg.armci_errors_return)
        vmpi_job_abort(cls);
    return cls;
}

int armci_rank_key;

__attribute__((constructor)) static void take_rank_key(void) { armci_rank_key = vmpi_rank_ext_key(); }

vmpi_armci *armci_self(const char *fn)
{
    vmpi_rank *rk = vmpi_rank_self();
    vmpi_armci *a = rk ? armci_of(rk) : NULL;
    if (VMPI_LIKELY(a != NULL && a->inits > 0))
        return a;
    armci_fail(fn, MPI_ERR_OTHER, "called before ARMCI_Init%s", rk ? "" : " (outside any vmpi rank)");
    return NULL;
}

int armci_check_proc(vmpi_armci *a, const char *fn, int proc)
{
    if (VMPI_LIKELY((unsigned)proc < (unsigned)a->nprocs))
        return MPI_SUCCESS;
    return armci_fail(fn, MPI_ERR_RANK, "process %d does not exist (there are %d ARMCI processes)", proc, a->nprocs);
}

void armci_poll(vmpi_armci *a)
{
    if ((++a->calls & 15) != 0)
        return;
    vmpi_pe *pe = vmpi_pe_self();
    vmpi_pe_poll(pe);
    if (!vmpi_list_empty(&pe->runq))
        vmpi_vp_yield();
}

/* The shared state: one per OS process (and per process group of the emulated mode), made by the lowest rank
 * there in its job heap; the leaders' addresses are gathered so that one short of memory fails everyone.
 * Each process's table lists its own ranks' segments and, copied at ARMCI_Malloc, those of other processes. */
static int job_open(vmpi_armci *a)
{
    MPI_Aint p = 0;
    int leader = 0;
    if (vmpi_xport_nprocs() > 1)
        while (!vmpi_loc_same_proc(leader, a->me))
            leader++;
    a->job_owner = a->me == leader;
    if (a->job_owner) {
        size_t bytes = sizeof(armci_job) + (size_t)a->nprocs * sizeof(armci_proc);
        armci_job *j = vmpi_iso_job_memalign(VMPI_CACHELINE, bytes);
        if (j) {
            memset(j, 0, bytes);
            j->nprocs = a->nprocs;
        }
        p = (MPI_Aint)j;
    }
    MPI_Aint *all = malloc(sizeof *all * (size_t)a->nprocs), mine = a->job_owner ? p : 1;
    int err = all ? PMPI_Allgather(&mine, 1, MPI_AINT, all, 1, MPI_AINT, a->sync) : MPI_ERR_NO_MEM;
    for (int r = 0; err == MPI_SUCCESS && r < a->nprocs; r++)
        if (all[r] == 0)
            err = MPI_ERR_NO_MEM;
    if (err == MPI_SUCCESS)
        p = all[leader];
    else if (a->job_owner) {
        free((void *)p);
        p = 0;
    }
    free(all);
    a->job = (armci_job *)p;
    return err;
}

static int init(int *argc, char ***argv, int required, const char *fn)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (rk == NULL)
        return armci_fail(fn, MPI_ERR_OTHER, "called outside any vmpi rank");
    if (armci_of(rk) && armci_of(rk)->inits > 0) { /* GA and its message layer may both initialize */
        armci_of(rk)->inits++;
        return 0;
    }
    int flag = 0, provided, err;
    PMPI_Initialized(&flag);
    bool own = !flag;
    if (own && (err = PMPI_Init_thread(argc, argv, required, &provided)))
        return armci_fail(fn, err, "MPI_Init_thread failed");
    PMPI_Finalized(&flag);
    if (flag)
        return armci_fail(fn, MPI_ERR_OTHER, "called after MPI_Finalize");
    vmpi_armci *a = calloc(1, sizeof *a);
    if (a == NULL)
        return armci_fail(fn, MPI_ERR_NO_MEM, "no memory for the process's ARMCI state");
    a->own_mpi = own;
    a->errors_return = vmpi_cfg.armci_errors_return;
    a->c_proc = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &a->me);
    PMPI_Comm_size(MPI_COMM_WORLD, &a->nprocs);
    if ((err = PMPI_Comm_dup(MPI_COMM_WORLD, &a->sync)) || (err = job_open(a)) || (err = armci_groups_init(a)))
        return armci_fail(fn, err, "could not set up the ARMCI world");
    a->sync_c = vmpi_comm_get(a->sync);
    rk->ext[armci_rank_key] = a;
    a->inits = 1;
    return 0;
}

int ARMCI_Init(void) { return init(NULL, NULL, MPI_THREAD_SINGLE, "ARMCI_Init"); }
int ARMCI_Init_args(int *argc, char ***argv) { return init(argc, argv, MPI_THREAD_SINGLE, "ARMCI_Init_args"); }
int ARMCI_Init_thread(int required) { return init(NULL, NULL, required, "ARMCI_Init_thread"); }

int ARMCI_Initialized(void)
{
    vmpi_rank *rk = vmpi_rank_self();
    return rk && armci_of(rk) && armci_of(rk)->inits > 0;
}

void ARMCI_Finalize(void)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Finalize", );
    if (a->inits > 1) {
        a->inits--;
        return;
    }
    PMPI_Barrier(a->sync); /* every process's last access is over */
    armci_free_all(a);
    if (a->nheld)
        vmpi_warn("[rank %d] ARMCI_Finalize: %d mutex(es) still held", a->me, a->nheld);
    ARMCI_Destroy_mutexes();
    armci_groups_free(a);
    free(a->job->p[a->me].segs); /* this process's segment table: empty now */
    PMPI_Barrier(a->sync);
    if (a->job_owner) {
        for (int r = 0; r < a->nprocs; r++) /* the tables of other processes' ranks (copies): empty now */
            if (!vmpi_loc_same_proc(r, a->me))
                free(a->job->p[r].segs);
        free(a->job);
    }
    free(a->mtx);
    free(a->nmtx);
    PMPI_Comm_free(&a->sync);
    free(a->allocs);
    free(a->held);
    free(a->notes_sent);
    free(a->notes_seen);
    bool own = a->own_mpi;
    vmpi_rank_self()->ext[armci_rank_key] = NULL; /* a later ARMCI_Init starts afresh */
    free(a);
    if (own)
        PMPI_Finalize();
}

void ARMCI_Cleanup(void) {} /* no system resources outside the job (no System V segments) */

void ARMCI_Error(char *msg, int code)
{
    vmpi_rank *rk = vmpi_rank_self();
    vmpi_warn("[rank %d] ARMCI_Error: %s (code %d): stopping the job", rk ? rk->world_rank : -1, msg ? msg : "",
              code);
    vmpi_job_abort(code);
}

int ARMCI_Procs(int *procs)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Procs", MPI_ERR_OTHER);
    *procs = a->nprocs;
    return 0;
}

int ARMCI_Myid(int *myid)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Myid", MPI_ERR_OTHER);
    *myid = a->me;
    return 0;
}

/* Locality: every process is in one address space, one SMP domain.  ARMCI_Uses_shm says 0, as armci-mpi does:
 * GA then goes through ARMCI calls, which here are direct copies anyway. */
int ARMCI_Same_node(int proc) { return 1; }
int armci_sameclusnode(int proc) { return 1; }
int ARMCI_Uses_shm(void) { return 0; }
int ARMCI_Uses_shm_grp(ARMCI_Group *group) { return 0; }
void ARMCI_Set_shm_limit(unsigned long shmemlimit) {}
void ARMCI_Access_begin(void *ptr) {}
void ARMCI_Access_end(void *ptr) {}

static int nprocs_or_0(void)
{
    vmpi_rank *rk = vmpi_rank_self();
    return rk && armci_of(rk) && armci_of(rk)->inits ? armci_of(rk)->nprocs : 0;
}

int armci_domain_nprocs(armci_domain_t domain, int id) { return id == 0 ? nprocs_or_0() : 0; }
int armci_domain_id(armci_domain_t domain, int glob_proc_id) { return 0; }
int armci_domain_glob_proc_id(armci_domain_t domain, int id, int loc_proc_id) { return loc_proc_id; }
int armci_domain_my_id(armci_domain_t domain) { return 0; }
int armci_domain_count(armci_domain_t domain) { return 1; }
int armci_domain_same_id(armci_domain_t domain, int proc) { return 1; }

/* ---- adaptivity ---- */

static void migrate(const char *fn, const char *key, const char *value)
{
    ARMCI_CHECK_INIT(a, fn, );
    atomic_thread_fence(memory_order_seq_cst);
    MPI_Info info;
    PMPI_Info_create(&info);
    PMPI_Info_set(info, key, value);
    int err = AMPI_Migrate(info);
    PMPI_Info_free(&info);
    armci_uncache(a);
    if (err)
        armci_fail(fn, err, "AMPI_Migrate failed (see the message above)");
}

void ARMCI_Migrate(void) { migrate("ARMCI_Migrate", "ampi_load_balance", "sync"); }
void ARMCI_Async_Migrate(void) { migrate("ARMCI_Async_Migrate", "ampi_load_balance", "sync"); }
void ARMCI_MemCheckpoint(void) { migrate("ARMCI_MemCheckpoint", "ampi_checkpoint", "in_memory"); }

void ARMCI_Checkpoint(char *dirname)
{
    char v[4096];
    if (dirname == NULL || snprintf(v, sizeof v, "to_file=%s", dirname) >= (int)sizeof v) {
        armci_fail("ARMCI_Checkpoint", MPI_ERR_ARG, "the directory name is %s", dirname ? "too long" : "NULL");
        return;
    }
    migrate("ARMCI_Checkpoint", "ampi_checkpoint", v);
}
