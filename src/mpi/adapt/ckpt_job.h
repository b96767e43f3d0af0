/* SPDX-License-Identifier: BSD-3-Clause */
/* What a job checkpoint holds (written by checkpoint.c, read by restart.c), as sections of the checkpoint
 * format (ckpt/ckpt.h), in this order:
 *
 *   META     the job: ranks, isomalloc geometry, privatization method, the program's identity
 *   LIBS     every object loaded at start-up, its address and its build id (they must be the same at
 *            restart: ranks' stacks and data hold addresses of their code and data)
 *   STATIC   libvmpi's checkpointed static variables (ckpt.h), by registration order
 *   SLOT     a slot's committed part (made writable at once at restart), before its MEM sections
 *   MEM      memory to put back at its address: the job heap's used parts, then each rank's
 *   RANK     a rank whose slot is complete: where its state is
 *   UNEXP    the rank's unexpected messages (msg layer)
 *   HELD     the messages it matched with MPI_Mprobe and has not received: (request index, message) pairs
 *   OWNED    the rank's entries in the process's tables (datatypes, groups, info objects, operations: handles
 *            unique in the job, each with its owner) and the contents of every group it refers to: what a
 *            restart needs to re-register them when the rank comes into another process's tables
 *            (docs/research/restart-procs.md)
 *
 * A rank's memory is its slot's used parts (iso layer) less the code of its copy of the program, which a
 * restart maps from the program file again (img layer).
 *
 * A job of several processes writes one such file per process (its part: META, LIBS, STATIC, its own job
 * heap and its own ranks), then, last, a manifest file holding one section:
 *
 *   MANIFEST the job (ranks, processes, sequence number), then each process's part: its ranks, its size and
 *            its digest (ckpt.h) */
#ifndef VMPI_MPI_ADAPT_CKPT_JOB_H
#define VMPI_MPI_ADAPT_CKPT_JOB_H

#include <stddef.h>
#include <stdint.h>

enum { CK_META = 1, CK_LIBS, CK_STATIC, CK_MEM, CK_RANK, CK_UNEXP, CK_SLOT, CK_HELD, CK_MANIFEST, CK_OWNED };

typedef struct ck_meta {
    uint32_t nranks, npes;          /* npes: where it ran (for the record) */
    uint32_t priv, nstatics;
    uint32_t nprocs, proc;          /* the job's OS processes, and the one whose file this is */
    uint64_t iso_base, slot_size, stack_size;
    uint64_t stack_guard;           /* the process's stack-protector canary: saved frames were made with it */
    uint64_t prog_size, prog_hash;  /* the program file (XXH3 of its contents) */
    double wtime;                   /* MPI_Wtime when it was taken (the latest of the processes'): a restarted
                                     * job's clock goes on from it */
    int32_t ctx_max;                /* this process's largest context id, and its tables' largest indices: */
    int32_t dt_top, group_top, info_top, op_top; /* a restart numbers new ones above the job's */
    int32_t nf90;                   /* MPI_Type_create_f90_* types this process made */
    char prog[512];                 /* its path, for messages */
} ck_meta;

typedef struct ck_rank {
    uint64_t rank;                  /* the vmpi_rank's address (the bottom of its slot's heap) */
    int32_t pe;                     /* where it ran */
    int32_t proc;                   /* the (emulated) process it lived in; 0 in a one-process job */
    uint64_t guard;                 /* the stack-protector canary its frames were made with */
} ck_rank;

/* OWNED: this head, then ndt ck_dt_ent, ngh ck_gh_ent, ninfo ck_info_ent, nop ck_op_ent, then ngroups times
 * a ck_group_head and its members' world ranks (int32_t each). */
typedef struct ck_owned_head {
    uint32_t ndt, ngh, ninfo, nop, ngroups, pad;
} ck_owned_head;
typedef struct ck_dt_ent {
    uint32_t slot, state;
    uint64_t dt;                    /* in the rank's slot */
} ck_dt_ent;
typedef struct ck_gh_ent {
    int32_t idx, pad;
    uint64_t group;                 /* a ck_group_head's addr */
} ck_gh_ent;
typedef struct ck_info_ent {
    int32_t idx, pad;
    uint64_t obj;                   /* in the rank's slot */
} ck_info_ent;
typedef struct ck_op_ent {
    int32_t slot;
    uint32_t gen;
    uint8_t commute, freed, large, abi; /* abi: the standard ABI's function (was padding, 0) */
    int32_t holds;
    uint64_t fn;                    /* in the rank's copy of the program */
} ck_op_ent;
typedef struct ck_group_head {
    uint64_t addr, world;           /* the group's address and its member array's (communicators' world_of) */
    int32_t size, pad;
} ck_group_head;

typedef struct ck_manifest {
    uint32_t nranks, nprocs;
    uint64_t seq;                   /* the parts' sequence number (in their names and headers) */
} ck_manifest;
typedef struct ck_part {            /* after the manifest's head, one per process */
    uint32_t first, nranks;         /* its ranks: first .. first + nranks - 1 */
    uint64_t size, digest;          /* its file's (ckpt.h) */
} ck_part;

/* The objects loaded when the job started, their addresses and identities (GNU build id, or a hash of
 * their code), one "address id name" line each. */
const char *vmpi_adapt_ckpt_libs(size_t *len);
/* The stack-protector canary of the calling thread (glibc x86-64: tcbhead_t.stack_guard at %fs:0x28). */
static inline uint64_t *ck_stack_guard(void)
{
    return (uint64_t *)((char *)__builtin_thread_pointer() + 0x28);
}

#endif
