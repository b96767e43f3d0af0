/* SPDX-License-Identifier: BSD-3-Clause */
/* Every runtime setting in one declarative table: name, environment variable, default, help.  The launcher
 * turns its options into these variables; `vmpirun --help` and docs list the table. */
#ifndef VMPI_BASE_TUNABLES_H
#define VMPI_BASE_TUNABLES_H

/* The exit status of every process of a job that changes its number of processes: vmpirun, finding the
 * request its runtime wrote (mpi/adapt/resize_procs.c), starts the job again on the new number. */
#define VMPI_EXIT_RESIZE 75
/* The most processes vmpirun starts (--procs). */
#define VMPI_PROCS_MAX 1024

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/sanitizer.h"

/* Where the isomalloc range goes (iso/range.c) and the space that automatically sized slots fill.
 * ThreadSanitizer keeps application memory in fixed ranges (x86-64 Linux: below 0x8000000000, PIE binaries
 * at 0x55..-0x568..., its heap, libraries and stacks at the top); the default 0x200000000000 is between its
 * shadow and its metadata, where it refuses mappings.  Its build puts the range in the low one, from 64 GiB,
 * which nothing else uses (the kernel maps top-down), and keeps it 256 GiB. */
#if VMPI_TSAN
#define VMPI_ISO_BASE_DEFAULT "0x1000000000"
#define VMPI_ISO_AUTO_RANGE ((size_t)256 << 30)
#define VMPI_ISO_AUTO_RANGE_TEXT "256G"
#else
#define VMPI_ISO_BASE_DEFAULT "0x200000000000"
#define VMPI_ISO_AUTO_RANGE ((size_t)4 << 40)
#define VMPI_ISO_AUTO_RANGE_TEXT "4T"
#endif

typedef enum { VMPI_TUNABLE_INT, VMPI_TUNABLE_SIZE, VMPI_TUNABLE_BOOL, VMPI_TUNABLE_STRING } vmpi_tunable_type;

typedef struct vmpi_tunable {
    const char *name;   /* e.g. "stack-size": also the long option of vmpirun */
    const char *env;    /* e.g. "VMPI_STACK_SIZE" */
    vmpi_tunable_type type;
    const char *defval;
    const char *help;
    const char *choices; /* strings: the allowed values, '|'-separated, or NULL for any */
    unsigned long long min, max; /* integers and sizes: the valid range (max 0: any) */
    const char *group;  /* what it tunes: "job", "sched", "msg", "lb"... (the MPI_T category of its cvar) */
    bool runtime;       /* may change while the job runs (vmpi_tunable_set): read only inside a stop of the
                         * world, which orders it after the write */
} vmpi_tunable;

/* The values, read once from the environment by vmpi_tunables_load(). */
typedef struct vmpi_config {
    long nranks;
    long npes;
    size_t stack_size;
    size_t eager_max;
    size_t channel_size;
    long emulate_procs;      /* process groups of the emulated multi-process mode (1: off; xport/emul.c) */
    bool pin;
    long idle_spin_us;
    enum { VMPI_PE_WAIT_AUTO, VMPI_PE_WAIT_SPIN, VMPI_PE_WAIT_SLEEP } pe_wait;
    bool deadlock_check;
    const char *balancer;    /* load-balancing strategy chain, e.g. "Greedy,Refine" (lb/lb.h) */
    double lb_period;        /* seconds: AMPI_Migrate balances at most this often */
    bool lb_verbose;         /* report every balancing step on stderr */
    bool lb_background;      /* strategies count each PE's background load (CPU time taken by others) */
    bool lb_procs;           /* a job of several processes balances over all its PEs (ranks move between them) */
    long pes_active;         /* PEs that hold ranks at the start (0: all); the others join when expanded */
    uintptr_t iso_base;      /* address of the isomalloc range (iso/iso.h) */
    size_t iso_slot_size;    /* bytes per slot, a power of two; 0: chosen from the number of ranks */
    const char *restart;     /* restart from the newest checkpoint in this directory ("": a new job) */
    bool aslr;               /* keep address-space randomization (checkpoints then cannot be restarted) */
    bool ckpt_verbose;       /* report every checkpoint and restart (bytes, seconds) on stderr */
    const char *ft_dir;      /* in-memory checkpoints also kept as files here ("": not kept; ckpt_buddy.c) */
    const char *procs_file;  /* the operator's number of processes for the job (resize_procs.c) */
    bool am_staged;          /* active messages take the staged path by default (mpi/rma/am.h) */
    size_t am_system_buffer; /* bytes of a target's system buffer per origin (staged path) */
    bool armci_errors_return; /* ARMCI misuse returns an error class instead of stopping the job (src/armci) */
} vmpi_config;

extern vmpi_config vmpi_cfg;

const vmpi_tunable *vmpi_tunables(size_t *count);
const vmpi_tunable *vmpi_tunable_find(const char *name);
/* Parses `text` as a value of `t`; returns false (and sets *why: what is expected, with the valid range) when
 * it is not one.  *why points to a buffer of the calling thread. */
bool vmpi_tunable_check(const vmpi_tunable *t, const char *text, const char **why);
/* A value of setting `name` given another way (`given_as`, e.g. "+tcharm_stacksize"): outside its range, a
 * fatal error naming the range. */
void vmpi_tunable_require(const char *name, unsigned long long v, const char *given_as);
/* The setting whose option name (`env` false: "stack-size") or environment variable (`env` true:
 * "VMPI_STACK_SIZE") is closest to `name` by edit distance, or NULL when none is close. */
const vmpi_tunable *vmpi_tunable_closest(const char *name, bool env);
/* The setting's value now, as text (the environment's, the default, what boot took from the command line or
 * what vmpi_tunable_set wrote). */
const char *vmpi_tunable_text(const vmpi_tunable *t);
/* Boot: the value of setting `name` was given as `text` another way (AMPI's +vp, +balancer...) and is in
 * vmpi_cfg already; vmpi_tunable_text reports it. */
void vmpi_tunable_given(const char *name, const char *text);
/* Sets a `runtime` setting while the job runs (MPI_T_cvar_write): false, with *why, when `text` is not a
 * value of it or it is not `runtime`.  The process's value: every rank of the process sees it. */
bool vmpi_tunable_set(const vmpi_tunable *t, const char *text, const char **why);
/* Fills vmpi_cfg from the environment; a malformed value or one outside its range is a fatal error naming
 * the variable and the range. */
void vmpi_tunables_load(void);
/* Warns about each VMPI_* variable of the environment that is no setting, naming the closest setting. */
void vmpi_tunables_warn_unknown(void);
/* "64k", "1M", "2g", "32T", plain bytes or hexadecimal ("0x200000000000"). */
bool vmpi_parse_size(const char *text, size_t *out);

#endif
