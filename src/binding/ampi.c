/* SPDX-License-Identifier: BSD-3-Clause */
/* AMPI's extensions (mpi_ampi.h): migration points, placement requests, load measurement. */
#include <strings.h>
#include "base/tunables.h"
#include "binding/check.h"
#include "mpi/adapt/adapt.h"
#include "mpi/core/rank.h"
#include "msg/loc.h"
#include "xport/xport.h"

static int fail(int err, const char *fn, vmpi_chk *ck) { return vmpi_fail(MPI_COMM_WORLD, err, fn, ck); }

int AMPI_Migrate(MPI_Info hints)
{
    VMPI_CHK(ck);
    int err = vmpi_chk_ranked(&ck);
    if (!err && hints != MPI_INFO_NULL)
        err = vmpi_chk_info(&ck, hints);
    bool balance = true, lb_key = false;
    char v[MPI_MAX_INFO_VAL];
    int flag = 0, late = MPI_SUCCESS;
    if (!err && hints != MPI_INFO_NULL &&
        vmpi_info_get(hints, "ampi_load_balance", sizeof v, v, &flag) == MPI_SUCCESS && flag) {
        lb_key = true;
        if (!strcasecmp(v, "false"))
            balance = false;
        else if (strcasecmp(v, "sync") && strcasecmp(v, "async") && strcasecmp(v, "true")) {
            snprintf(ck.why, sizeof ck.why, "ampi_load_balance = '%.60s': expected sync, async, true or false", v);
            late = MPI_ERR_INFO; /* the others may be in the collective: take part, then report it */
        }
    }
    vmpi_ckpt_kind ckpt = VMPI_CKPT_NONE;
    const char *dir = NULL;
    if (!err && hints != MPI_INFO_NULL &&
        vmpi_info_get(hints, "ampi_checkpoint", sizeof v, v, &flag) == MPI_SUCCESS && flag &&
        strcasecmp(v, "false")) {
        const char *why = vmpi_adapt_checkpoint_unsupported();
        if (!strncmp(v, "to_file=", 8) && v[8]) {
            ckpt = VMPI_CKPT_TO_FILE;
            dir = v + 8;
        } else if (!strcmp(v, "in_memory")) {
            ckpt = VMPI_CKPT_IN_MEMORY;
        } else {
            snprintf(ck.why, sizeof ck.why, "ampi_checkpoint = '%.60s': expected to_file=DIR or in_memory", v);
            if (why) /* every rank returns at once (the reason is the same on every rank) */
                err = MPI_ERR_INFO_VALUE;
            else /* the others may have given good values and be in the collective: refused there, everywhere */
                ckpt = VMPI_CKPT_INVALID;
        }
        if (!err && why) {
            snprintf(ck.why, sizeof ck.why, "%s", why);
            err = MPI_ERR_UNSUPPORTED_OPERATION;
        }
        balance = balance && lb_key; /* a checkpoint balances only when asked to */
    }
    if (!err)
        err = vmpi_adapt_migrate(balance, ckpt, dir);
    if (!err)
        err = late;
    return err ? fail(err, "AMPI_Migrate", &ck) : MPI_SUCCESS;
}

int AMPI_Migrate_to_pe(int destPE)
{
    VMPI_CHK(ck);
    int err = vmpi_chk_ranked(&ck);
    if (!err && (destPE < 0 || destPE >= vmpi_adapt_num_pes())) {
        snprintf(ck.why, sizeof ck.why, "PE %d does not exist (PEs 0 to %d)", destPE, vmpi_adapt_num_pes() - 1);
        err = MPI_ERR_ARG;
    }
    if (!err)
        err = vmpi_adapt_migrate_to_pe(destPE);
    return err ? fail(err, "AMPI_Migrate_to_pe", &ck) : MPI_SUCCESS;
}

/* The calling rank's adaptivity record, or an error. */
static int self(vmpi_chk *ck, vmpi_adapt_rank **a)
{
    int err = vmpi_chk_ranked(ck);
    if (!err && (*a = vmpi_adapt_self()) == NULL)
        err = MPI_ERR_NO_MEM;
    return err;
}

int AMPI_Set_migratable(int mig)
{
    VMPI_CHK(ck);
    vmpi_adapt_rank *a;
    int err = self(&ck, &a);
    if (err)
        return fail(err, "AMPI_Set_migratable", &ck);
    a->fixed = !mig;
    return MPI_SUCCESS;
}

/* Stores a migration callback of the calling rank (which = 0: about to migrate, 1: just migrated). */
static int set_callback(MPI_MigrateFn fn, int which, const char *name)
{
    VMPI_CHK(ck);
    vmpi_adapt_rank *a;
    int err = self(&ck, &a);
    if (err)
        return fail(err, name, &ck);
    *(which ? &a->just_migrated : &a->about_to) = fn;
    return MPI_SUCCESS;
}

int AMPI_Register_about_to_migrate(MPI_MigrateFn fn) { return set_callback(fn, 0, "AMPI_Register_about_to_migrate"); }
int AMPI_Register_just_migrated(MPI_MigrateFn fn) { return set_callback(fn, 1, "AMPI_Register_just_migrated"); }

/* The calls that only need a rank: check that, then act. */
static int ranked(void (*act)(void), const char *fn)
{
    VMPI_CHK(ck);
    int err = vmpi_chk_ranked(&ck);
    if (err)
        return fail(err, fn, &ck);
    act();
    return MPI_SUCCESS;
}

int AMPI_Load_start_measure(void) { return ranked(vmpi_adapt_load_start, "AMPI_Load_start_measure"); }
int AMPI_Load_stop_measure(void) { return ranked(vmpi_adapt_load_stop, "AMPI_Load_stop_measure"); }
int AMPI_Load_reset_measure(void) { return ranked(vmpi_adapt_load_reset, "AMPI_Load_reset_measure"); }
int AMPI_Yield(void) { return ranked(vmpi_vp_yield, "AMPI_Yield"); }

int AMPI_Load_set_value(double value)
{
    VMPI_CHK(ck);
    vmpi_adapt_rank *a;
    int err = self(&ck, &a);
    if (!err && !(value >= 0)) {
        snprintf(ck.why, sizeof ck.why, "load %g is not a non-negative number", value);
        err = MPI_ERR_ARG;
    }
    if (err)
        return fail(err, "AMPI_Load_set_value", &ck);
    a->has_user_load = true;
    a->user_load = value;
    return MPI_SUCCESS;
}

int VMPIX_Restarted(int *flag)
{
    VMPI_CHK(ck);
    int err = vmpi_chk_ranked(&ck);
    if (!err && flag == NULL) {
        snprintf(ck.why, sizeof ck.why, "flag is NULL");
        err = MPI_ERR_ARG;
    }
    if (err)
        return fail(err, "VMPIX_Restarted", &ck);
    *flag = vmpi_adapt_restarted();
    return MPI_SUCCESS;
}

int VMPIX_Load_get(double *seconds)
{
    VMPI_CHK(ck);
    int err = vmpi_chk_ranked(&ck);
    if (!err && seconds == NULL) {
        snprintf(ck.why, sizeof ck.why, "seconds is NULL");
        err = MPI_ERR_ARG;
    }
    if (err)
        return fail(err, "VMPIX_Load_get", &ck);
    *seconds = vmpi_adapt_load_now();
    return MPI_SUCCESS;
}

int VMPIX_Proc_of(int world_rank, int *proc, int *nprocs)
{
    VMPI_CHK(ck);
    int err = vmpi_chk_ranked(&ck), n = vmpi_world_size();
    if (!err && (proc == NULL || nprocs == NULL)) {
        snprintf(ck.why, sizeof ck.why, "%s is NULL", proc == NULL ? "proc" : "nprocs");
        err = MPI_ERR_ARG;
    }
    if (!err && (world_rank < 0 || world_rank >= n)) {
        snprintf(ck.why, sizeof ck.why, "world rank %d is not in 0..%d", world_rank, n - 1);
        err = MPI_ERR_RANK;
    }
    if (err)
        return fail(err, "VMPIX_Proc_of", &ck);
    *proc = vmpi_loc_of(world_rank).proc;
    *nprocs = vmpi_xport_nprocs();
    return MPI_SUCCESS;
}

int VMPIX_Transport_counts_get(VMPIX_Transport_counts *counts)
{
    VMPI_CHK(ck);
    int err = vmpi_chk_ranked(&ck);
    if (!err && counts == NULL) {
        snprintf(ck.why, sizeof ck.why, "counts is NULL");
        err = MPI_ERR_ARG;
    }
    if (err)
        return fail(err, "VMPIX_Transport_counts_get", &ck);
    vmpi_xport_counts c = vmpi_xport_nprocs() > 1 ? vmpi_xport_remote_counts() : (vmpi_xport_counts){0};
    *counts = (VMPIX_Transport_counts){(long long)c.am, (long long)c.am_bytes, (long long)c.get,
                                      (long long)c.get_bytes, (long long)c.put, (long long)c.put_bytes,
                                      (long long)c.atomic, (long long)c.kcopy, (long long)c.rma};
    return MPI_SUCCESS;
}

int VMPIX_Set_procs(int nprocs)
{
    VMPI_CHK(ck);
    int err = vmpi_chk_ranked(&ck);
    const char *why = err ? NULL : vmpi_adapt_resize_unsupported();
    if (why) {
        snprintf(ck.why, sizeof ck.why, "%s", why);
        err = MPI_ERR_UNSUPPORTED_OPERATION;
    } else if (!err && (nprocs < 1 || nprocs > vmpi_world_size() || nprocs > VMPI_PROCS_MAX)) {
        int most = vmpi_world_size() < VMPI_PROCS_MAX ? vmpi_world_size() : VMPI_PROCS_MAX;
        snprintf(ck.why, sizeof ck.why, "%d processes asked for; a job of %d ranks has 1 to %d", nprocs,
                 vmpi_world_size(), most);
        err = MPI_ERR_ARG;
    }
    if (err)
        return fail(err, "VMPIX_Set_procs", &ck);
    vmpi_adapt_resize_ask(nprocs);
    return MPI_SUCCESS;
}

int VMPIX_Set_active_pes(int npes)
{
    VMPI_CHK(ck);
    int err = vmpi_chk_ranked(&ck);
    if (!err && (npes < 1 || npes > vmpi_adapt_num_pes())) {
        snprintf(ck.why, sizeof ck.why, "%d active PEs asked for; the job has %d", npes, vmpi_adapt_num_pes());
        err = MPI_ERR_ARG;
    }
    if (err)
        return fail(err, "VMPIX_Set_active_pes", &ck);
    vmpi_adapt_set_active(npes);
    return MPI_SUCCESS;
}
