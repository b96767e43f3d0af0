/* SPDX-License-Identifier: BSD-3-Clause */
/* Adaptivity: load measurement per rank, the balancer chain, and migration at AMPI_Migrate.
 *
 * A migration point is collective over MPI_COMM_WORLD.  Every rank enters it (a barrier), then counts
 * itself once it has left the barrier entirely and waits; when all have, no rank is inside a
 * shared-memory collective, and rank 0 stops the world (sched.h): every PE is in its scheduler loop and no
 * record is in flight.  With nothing running, it reads every rank's measured
 * load, runs the strategy chain, moves the ranks whose PE changed (run queues, the location table) and
 * regroups the shared-memory collectives by PE.  Messages in flight were delivered before the move, so
 * none is lost, duplicated or reordered, and pending requests (they live in the rank's endpoint and
 * request table, which move with it) complete on the rank's new PE.  The waiting ranks are released
 * inside the stop, on their new PEs. */
#ifndef VMPI_MPI_ADAPT_ADAPT_H
#define VMPI_MPI_ADAPT_ADAPT_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/clock.h"

typedef void (*vmpi_migrate_fn)(void);

/* What a migration point does besides balancing: nothing, or a checkpoint (AMPI's ampi_checkpoint hint);
 * INVALID: the rank gave a value that is neither, and no rank's checkpoint is taken. */
typedef enum { VMPI_CKPT_NONE, VMPI_CKPT_TO_FILE, VMPI_CKPT_IN_MEMORY, VMPI_CKPT_INVALID } vmpi_ckpt_kind;

typedef struct vmpi_adapt_rank {
    bool fixed;                  /* AMPI_Set_migratable(0) */
    bool in_migrate;             /* waiting at a migration point for rank 0's step */
    int want_pe;                 /* AMPI_Migrate_to_pe: applied at the next migration point; -1: none */
    vmpi_migrate_fn about_to, just_migrated;
    bool measuring_off;          /* between AMPI_Load_stop_measure and _start_measure */
    unsigned long long off_at;   /* busy ticks when measurement stopped */
    unsigned long long excluded; /* busy ticks not to count */
    bool has_user_load;
    double user_load;            /* AMPI_Load_set_value */
    bool restarted;              /* resumed from a checkpoint, until its next migration point */
    vmpi_ckpt_kind ckpt;         /* at the current migration point (every rank must ask the same) */
    char *ckpt_dir;              /* to_file's directory (malloc'ed) */
} vmpi_adapt_rank;

/* At boot: checks the balancer chain (fatal error naming a bad strategy). */
void vmpi_adapt_init(void);
/* At boot, once this process's ranks exist (made or restored), before any runs: which are here. */
void vmpi_adapt_count_ranks(void);
/* vmpi_cfg.balancer was set while the job runs (MPI_T_cvar_write, after vmpi_lb_parse accepted it): the next
 * balancing step runs the new chain. */
void vmpi_adapt_balancer_changed(void);
/* This process's balancing steps so far, the seconds they took, and the bytes of rank state it sent to other
 * processes with the ranks that left it (MPI_T's performance variables; written inside stops of the world). */
void vmpi_adapt_stats(unsigned *steps, double *seconds, uint64_t *bytes_out);
/* The calling rank's settings, created on first use; NULL when out of memory. */
vmpi_adapt_rank *vmpi_adapt_self(void);

/* AMPI_Migrate: collective over MPI_COMM_WORLD.  `balance` false: a synchronization only.  With a
 * checkpoint (`dir` for to_file), every rank is saved first (checkpoint.c); the call returns after it, and
 * again in a job restarted from it. */
int vmpi_adapt_migrate(bool balance, vmpi_ckpt_kind ckpt, const char *dir);

/* ---- checkpoints (checkpoint.c, restart.c) ---- */
/* Inside the stop of the world: writes every rank and the job's shared state (to `dir`, or to memory).
 * MPI_SUCCESS or an error class, with a message in err. */
int vmpi_adapt_checkpoint(vmpi_ckpt_kind kind, const char *dir, char *err, size_t errlen);
/* Why a checkpoint of `kind` cannot be taken in this process (sanitizer build, globals not privatized,
 * address randomization for a file): an error class with a message in err, or MPI_SUCCESS. */
int vmpi_adapt_ckpt_refused(vmpi_ckpt_kind kind, char *err, size_t errlen);
/* The error class of a failed write (errno value e). */
int vmpi_adapt_ckpt_err_class(int e);
/* One process's part of a checkpoint of a job of several processes: its place in the job, the sequence
 * number and the MPI_Wtime every process agreed on; the writer fills in the part's size and digest. */
typedef struct vmpi_ckpt_part {
    int nprocs, proc;
    uint64_t seq;
    double wtime;
    uint64_t size, digest;
} vmpi_ckpt_part;
/* Inside the stop: writes this process's part (to `dir`, or to memory, where it becomes the newest only by
 * vmpi_adapt_ckpt_mem_newest, once every process has written its own; or, kept in two processes, to its
 * file in vmpi_adapt_ckpt_kept_dir).  As vmpi_adapt_checkpoint. */
int vmpi_adapt_checkpoint_part(vmpi_ckpt_kind kind, const char *dir, vmpi_ckpt_part *part, char *err, size_t errlen);
void vmpi_adapt_ckpt_mem_newest(void);
/* ---- a job of several processes that changes its number (resize_procs.c) ---- */
/* Why this job cannot (not vmpirun's launch), or NULL. */
const char *vmpi_adapt_resize_unsupported(void);
/* A rank of this process whose state restarts only on the checkpoint's number of processes (an MPI window,
 * ARMCI: restart.c's check_portable), or -1. */
int vmpi_adapt_bound_rank(void);
/* VMPIX_Set_procs: the job goes on as nprocs processes from the next migration point. */
void vmpi_adapt_resize_ask(int nprocs);
/* The leader of a migration point, before its quiescence check: whether this process has a request (its
 * ranks' VMPIX_Set_procs, or process 0 finding a new number in --procs-file). */
bool vmpi_adapt_resize_wanted(void);
/* Inside the stop, every process: the job's request (the first process's that has one), or 0. */
int vmpi_adapt_resize_agree(void);
/* Inside the stop, every process, ranks home (`home`: ranks_home's error): checkpoints the job for vmpirun to
 * restart on m processes and ends the process; returns only when it cannot (an error class, the same in
 * every process). */
int vmpi_adapt_resize(int m, int home);
/* ---- in-memory checkpoints kept in two processes (ckpt_buddy.c) ---- */
/* Whether this job's in-memory checkpoints are also kept as files that outlive its processes, in their own
 * and a buddy's directory under --ft-dir (a job of several processes started by vmpirun --recover). */
bool vmpi_adapt_ckpt_kept(void);
/* This process's directory there (NULL when not kept). */
const char *vmpi_adapt_ckpt_kept_dir(void);
/* Inside the stop, every process, once every part of checkpoint `seq` is written (sizes[k]: process k's, this
 * one's in its directory): sends this process's part to its buddy and stores the ones it receives there.
 * MPI_SUCCESS or an error class with a message in err (what it stored of `seq` removed). */
int vmpi_adapt_ckpt_keep(uint64_t seq, const uint64_t *sizes, char *err, size_t errlen);
/* Removes what this process stored of checkpoint `seq` (it failed somewhere). */
void vmpi_adapt_ckpt_keep_undo(uint64_t seq);
/* Once every process keeps the new checkpoint: the older files go, and the copies vmpirun made for the
 * restart the job came from (a recovery's, a resize's) with them. */
void vmpi_adapt_ckpt_kept_done(void);
/* A migration point's checkpoint in a job of several processes (ckpt_procs.c), inside this process's stop,
 * its network held, called by every process: `err` is this process's ranks' agreement on the hint (their
 * kind and dir).  Agrees on the hint with the other processes, has each write its part and process 0 the
 * manifest last; MPI_SUCCESS, or the same error class in every process (process 0 says why). */
int vmpi_adapt_checkpoint_procs(int err, vmpi_ckpt_kind kind, const char *dir);
/* First thing at boot: notes the objects loaded at the start (they must be at the same addresses in a
 * restarted job). */
void vmpi_adapt_ckpt_boot(void);
/* Why checkpoints cannot be taken in this job (sanitizer build, globals not privatized), or NULL. */
const char *vmpi_adapt_checkpoint_unsupported(void);
/* Restart, at boot before anything is set up: opens the newest checkpoint in `dir` and checks it against
 * this program and this vmpi; sets the geometry the restored ranks need (ranks, isomalloc base and sizes).
 * In a job of `nprocs` OS processes (this one `self`), the checkpoint must be of as many: this process reads
 * its part.  Fatal error naming the file and the problem when it does not fit. */
void vmpi_adapt_restart_open(const char *dir, int nprocs, int self);
/* Then, once the layers are set up (isomalloc range, PEs, messaging): maps every rank back, at the same
 * addresses, onto the PEs of this job (block mapping), ready to return from its AMPI_Migrate.  Fills
 * ranks[0 .. n-1] (this process's, in a job of several; the others' are placed by the same blocks), and in
 * a job of several processes waits until every process has loaded its part. */
struct vmpi_rank;
void vmpi_adapt_restart_load(struct vmpi_rank **ranks, int n);
/* After the job ran (sched returned): puts back what the restart changed in the boot thread. */
void vmpi_adapt_restart_done(void);
/* MPI_Wtime: the monotonic clock, and after a restart offset so that it goes on from the checkpoint's
 * value (a time kept in a rank's memory never comes out ahead of the clock on another node or after a
 * reboot). */
extern double vmpi_wtime_offset;
static inline double vmpi_wtime(void) { return vmpi_clock_now() + vmpi_wtime_offset; }
/* VMPIX_Restarted */
bool vmpi_adapt_restarted(void);
int vmpi_adapt_migrate_to_pe(int pe);

void vmpi_adapt_load_stop(void);
void vmpi_adapt_load_start(void);
void vmpi_adapt_load_reset(void);
/* VMPIX_Load_get: the calling rank's load in the current period so far, in seconds, before its PE's
 * CPU-share scaling (what the balancer would read now). */
double vmpi_adapt_load_now(void);

/* Shrink/expand: PEs 0 .. n-1 hold ranks from the next migration point on (ranks leave the others). */
void vmpi_adapt_set_active(int n);
int vmpi_adapt_active(void);

/* Where the calling rank runs (AMPI_MY_WTH) and how many PEs there are (AMPI_NUM_WTHS). */
int vmpi_adapt_my_pe(void);
int vmpi_adapt_num_pes(void);
/* Migrations so far (ranks moved, summed over migration points) and balancing steps. */
long vmpi_adapt_moves(void);

/* A rank's entries in its process's tables and the groups it refers to, in a buffer of the system allocator
 * (its CK_OWNED record: ckpt_owned.c); and back, for a rank restarted into another process's tables: NULL,
 * or what is wrong.  Each checkpoint process's groups are made again once: vmpi_adapt_owned_part_begin
 * before the ranks of each. */
struct vmpi_rank;
void *vmpi_adapt_owned_save(struct vmpi_rank *rk, size_t *len);
const char *vmpi_adapt_owned_load(struct vmpi_rank *rk, const void *data, size_t len);
void vmpi_adapt_owned_part_begin(void);
/* The messages a rank matched with MPI_Mprobe and has not received (its CK_HELD record, ckpt_held.c): saved
 * into a buffer of the system allocator (NULL with *len 0 when none), dropped (their envelopes freed, when the
 * rank leaves the process), and given back to the rank's requests in fresh envelopes (false: malformed). */
char *vmpi_adapt_held_save(const struct vmpi_rank *rk, size_t *len);
void vmpi_adapt_held_drop(struct vmpi_rank *rk);
bool vmpi_adapt_held_load(struct vmpi_rank *rk, const char *buf, size_t len);
/* Those of a rank staying here whose senders leave the process (`leaving`), in the portable form. */
void vmpi_adapt_held_portable(struct vmpi_rank *rk, bool (*leaving)(int world_rank));

/* ---- ranks moving between processes (move_procs.c) ---- */
/* Why rank rk cannot leave its process (NULL: it can). */
const char *vmpi_adapt_stays_why(const struct vmpi_rank *rk);
/* Inside the stop of a job-wide step, every process with the same placement `to` (world rank -> PE) of every
 * rank: the ranks placed in another process than theirs move there (collective over the processes; the
 * moves within a process are the caller's).  Returns the number of ranks that moved between processes in
 * the job; *bytes: the bytes of slots this process sent.  `keep_load`: the moved ranks keep their load
 * measured so far and their placement requests (a move before a checkpoint, which a balancing follows). */
long vmpi_adapt_move_procs(const int *to, uint64_t *bytes, bool keep_load);
/* Every cache of this process's ranks that depends on where ranks live (the shared collective state,
 * communicators' spans and per-process communicators) is cleared: made again at the next collective. */
void vmpi_adapt_forget_places(void);

#endif
