/* SPDX-License-Identifier: BSD-3-Clause */
/* The network plugin's interface: what libvmpi and the plugin (src/net/, libvmpi_net.so) give each other.
 *
 * A job of several OS processes (started by a PMIx launcher: vmpirun --procs, mpirun, srun) carries what goes
 * between processes over UCX, wired up through PMIx.  Both libraries live in the plugin, loaded with dlopen
 * only by such a job: a one-process job pays nothing for them (linked in, their constructors alone cost
 * 2.7 ms and 2.4 MB per start).  The plugin calls nothing of libvmpi directly (its internal symbols are
 * hidden): it gets this table of the host's functions, and gives back its own. */
#ifndef VMPI_XPORT_NET_H
#define VMPI_XPORT_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "xport/xport.h"

#define VMPI_NET_ABI 6 /* 6: ranks_of (messages naming a process's ranks) */

/* libvmpi's side, for the plugin. */
typedef struct vmpi_net_host {
    int abi;
    void (*fatal)(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
    void (*warn)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
    int (*self_pe)(void);                              /* the calling PE's number in the job, -1 off a PE */
    /* runs the active-message handler `id` on this process's PE `pe` (the calling thread is that PE's) */
    void (*deliver)(int pe, int src_pe, uint32_t id, void *msg, size_t len);
    void (*wake)(int pe);                              /* a sleeping PE of this process: work came for it */
    uint64_t (*local_atomic)(vmpi_xport_aop op, void *addr, int size, uint64_t operand, uint64_t compare);
    void (*end)(void);                                 /* every process's ranks are done: the job may end */
    void (*report_blocked)(long job_live);             /* the deadlock report of this process's ranks */
    long (*live)(void);                                /* this process's ranks not yet done */
    void (*die)(int code) __attribute__((noreturn));   /* ends this process (and, through abort, the job) */
    void (*ranks_of)(int proc, char *buf, size_t n);   /* "ranks 0-3, 8" of process proc now, for messages */
} vmpi_net_host;

/* What the job looks like from this process (filled by the plugin's open). */
typedef struct vmpi_net_job {
    int nprocs, self;                                  /* processes of the job, this one's index */
    int local_size, local_rank;                        /* processes on this node, this one's index there */
    int node;                                          /* this node's id: the launcher's, else from the host name */
    char host[256];                                    /* this node's name, as the launcher knows it */
} vmpi_net_job;

/* A piece of memory a bulk exchange sends or fills. */
typedef struct vmpi_net_iov {
    void *addr;
    size_t len;
} vmpi_net_iov;

/* One transfer of a bulk exchange: to (a send) or from (a receive) process `proc`, under `tag`, the
 * concatenation of its pieces.  A receive's pieces add up to exactly what the matching send sends (the
 * receiver learned the layout beforehand); (sending process, tag) is unique within one exchange. */
typedef struct vmpi_net_bulk {
    int proc;
    uint64_t tag;
    const vmpi_net_iov *iov;
    int n;
} vmpi_net_bulk;

/* The plugin's side. */
typedef struct vmpi_net {
    int abi;
    /* Connects to the launcher (PMIx_Init) and fills *job; false (with a message in `why`) when it cannot. */
    bool (*open)(vmpi_net_job *job, char *why, size_t n);
    /* Starts the transport for this process's PEs first .. first + npes - 1 of the job's `job_npes` (PE
     * blocks as xport/procs.h) and exchanges addresses with every process; `geometry` (the same bytes in
     * every process: layout and settings that must agree) is compared with process 0's. */
    void (*start)(int first, int npes, int job_npes, const void *geometry, size_t glen);
    vmpi_xport *xport;                                 /* the transport to other processes */
    int (*node_of)(int proc);                          /* after start: process proc's node (job.node's meaning) */
    /* the progress source of the transport (sched.h's meaning of each) */
    int (*poll)(struct vmpi_pe *pe);
    bool (*ready)(int pe);
    bool (*backlog)(int pe);
    bool (*work)(int pe);
    bool (*in_flight)(void);
    void (*idle)(bool (*still_idle)(void));
    void (*sleep)(int pe, _Atomic uint32_t *word);
    void (*wake)(int pe);
    /* This process's ranks are all done: the job ends (host->end) once every process's are, meanwhile the
     * PEs go on serving the others' operations. */
    void (*local_done)(void);
    /* After the PEs stopped: tears the transport down and leaves the launcher. */
    void (*finish)(void);
    /* Ends the whole job with `status` through the launcher (a fatal error, MPI_Abort); returns when it
     * could not, and the caller ends this process. */
    void (*abort)(int status, const char *msg);
    /* what this process carried to others, for VMPIX_Transport_counts_get */
    vmpi_xport_counts (*counts)(void);
    /* Messages this process sent to others and received from them (handled) so far: their sums over the
     * processes, equal and unchanged over two rounds, say nothing is on the wire (global quiescence). */
    void (*traffic)(uint64_t *sent, uint64_t *received);
    /* An all-gather through the launcher (no message of the transport): every process gives `len` bytes
     * under `key` (a new key each time, the same sequence in every process).  Blocking, or started with
     * done set to 1 (by another thread) once every process's bytes can be read with allgather_get. */
    void (*allgather)(const char *key, const void *blob, size_t len, void **out, size_t *lens);
    void (*allgather_nb)(const char *key, const void *blob, size_t len, _Atomic int *done);
    void (*allgather_get)(const char *key, void **out, size_t *lens);
    /* While held, the transport's progress source runs no handler (messages wait in the network): a stop
     * of this process's world in a job-wide step, where nothing may touch the ranks meanwhile. */
    void (*hold)(bool on);
    /* A job-wide step's exchange of bulk data (the memory of ranks that move between processes): called by
     * one thread of every process, every process in the same sequence of steps (collective: a process with
     * nothing to send or receive calls it too), typically with its world stopped and the handlers held.
     * Posts every send and receive and returns once all have completed, the bytes in place; a failure is
     * fatal (naming the processes).  Carried by the transport's own zero-copy path (UCX's tag rendezvous),
     * on a worker of its own, made at the first exchange. */
    void (*bulk)(const vmpi_net_bulk *sends, int ns, const vmpi_net_bulk *recvs, int nr);
} vmpi_net;

/* The plugin's one exported symbol. */
typedef const vmpi_net *(*vmpi_net_entry_fn)(const vmpi_net_host *host);
#define VMPI_NET_ENTRY "vmpi_net_plugin"
#define VMPI_NET_LIB "libvmpi_net.so"

#endif
