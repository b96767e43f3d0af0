/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of mpi.h (include <mpi.h>, not this file): AMPI's extensions for migratable ranks, with AMPI's
 * names so that adaptive-MPI programs build unchanged.  AMPI_Migrate is collective over MPI_COMM_WORLD;
 * its info keys: "ampi_load_balance" = "sync" (or "true"/"async": balance now, with the strategies of
 * --balancer) or "false" (synchronize only); no key balances too.  "ampi_checkpoint" = "to_file=DIR"
 * (a checkpoint of the whole job in directory DIR, from which `vmpirun --restart DIR` restarts it on any
 * number of PEs) or "in_memory" (a copy of every rank kept in memory); with it the point balances only if
 * "ampi_load_balance" asks for it too.  Such a call returns when the checkpoint is written, and returns
 * again, in every rank, in a job restarted from it: VMPIX_Restarted tells which.  docs/CHECKPOINT.md. */
#ifndef VMPI_API_MPI_AMPI_H
#define VMPI_API_MPI_AMPI_H

#define AMPI 1 /* programs test it to use the extensions */

typedef void (*MPI_MigrateFn)(void);

/* Predefined attributes of MPI_COMM_WORLD (values are int *): the PE the rank runs on now and the number
 * of PEs, the process and the number of processes. */
#define AMPI_MY_WTH 0x24000011
#define AMPI_NUM_WTHS 0x24000012
#define AMPI_MY_PROCESS 0x24000013
#define AMPI_NUM_PROCESSES 0x24000014

#define VMPI_AMPI_DECL(ret, name, args) ret AMPI_##name args;
VMPI_AMPI_DECL(int, Migrate, (MPI_Info hints))
/* Sends the calling rank to PE `destPE` at the next AMPI_Migrate (which then keeps it there). */
VMPI_AMPI_DECL(int, Migrate_to_pe, (int destPE))
/* 0: the balancer leaves the calling rank where it is. */
VMPI_AMPI_DECL(int, Set_migratable, (int mig))
/* Called on the calling rank at every AMPI_Migrate before balancing, and after it when the rank moved. */
VMPI_AMPI_DECL(int, Register_about_to_migrate, (MPI_MigrateFn fn))
VMPI_AMPI_DECL(int, Register_just_migrated, (MPI_MigrateFn fn))
/* Load measurement of the calling rank (its CPU time while running, by default). */
VMPI_AMPI_DECL(int, Load_start_measure, (void))
VMPI_AMPI_DECL(int, Load_stop_measure, (void))
VMPI_AMPI_DECL(int, Load_reset_measure, (void))
/* The load the balancer uses for the calling rank in this period, instead of the measured time. */
VMPI_AMPI_DECL(int, Load_set_value, (double value))
/* Lets the other ranks of the PE run. */
VMPI_AMPI_DECL(int, Yield, (void))
#undef VMPI_AMPI_DECL

/* vmpi's extension (not in AMPI): shrink or expand the job within the process.  From the next
 * AMPI_Migrate on, only PEs 0 .. npes-1 hold ranks: ranks leave the others (which then sleep), or spread
 * onto them as the balancer decides.  Any rank may call it; the last call before the migration point
 * counts.  `vmpirun --pes-active N` starts the job on the first N PEs. */
int VMPIX_Set_active_pes(int npes);

/* vmpi's extension: shrink or expand a job of several processes.  At the next AMPI_Migrate the job goes on
 * as nprocs OS processes (1 .. the ranks): it checkpoints itself in memory and vmpirun starts it again on
 * that many, each rank where it was in its program (VMPIX_Restarted then gives 1: files must be reopened, as
 * after a restart).  Any rank may call it; the last call before the migration point counts.  Only under
 * vmpirun --procs (MPI_ERR_UNSUPPORTED_OPERATION otherwise); ranks with MPI windows or ARMCI state keep the
 * job as it is (AMPI_Migrate returns MPI_ERR_UNSUPPORTED_OPERATION).  An operator does the same by writing
 * a number into the file of `vmpirun --procs-file FILE`. */
int VMPIX_Set_procs(int nprocs);

/* vmpi's extension: *flag = 1 in a rank that was restarted from a checkpoint, from the restart until it
 * calls AMPI_Migrate again (the AMPI_Migrate that took the checkpoint has just returned in a new job);
 * 0 otherwise. */
int VMPIX_Restarted(int *flag);

/* vmpi's extension: *seconds = the calling rank's load in the current measurement period so far, as the
 * balancer will read it at the next AMPI_Migrate (before it scales the loads of each PE by the PE's share
 * of its core): the time the rank ran, less the stretches excluded with AMPI_Load_stop_measure and less the
 * time its PE waited for its core while the OS ran something else; or the value given with
 * AMPI_Load_set_value.  0 when no balancer measures loads (Null, Rotate, Random). */
int VMPIX_Load_get(double *seconds);

/* vmpi's extension: the process (of the job's *nprocs) that hosts world rank `world_rank` now.  One process
 * unless the job runs in the emulated multi-process mode (vmpirun --emulate-procs K). */
int VMPIX_Proc_of(int world_rank, int *proc, int *nprocs);

/* vmpi's extension: what the job's transports have carried between processes so far (every process's
 * operations in the emulated mode; this process's otherwise): active messages and their bytes, gets, puts
 * and atomics on remote memory.  All zero in a one-process job. */
typedef struct VMPIX_Transport_counts {
    long long am, am_bytes, get, get_bytes, put, put_bytes, atomic;
    long long kcopy, rma; /* of the gets and puts: copies by the kernel (processes of one node), and the
                           * network's one-sided operations on a window's memory (remote keys) */
} VMPIX_Transport_counts;
int VMPIX_Transport_counts_get(VMPIX_Transport_counts *counts);

#endif
