/* SPDX-License-Identifier: BSD-3-Clause */
/* The transport contract: what the messaging, RMA and collective layers need from whatever carries their
 * records between PEs, in one process or between processes.  A transport is a table of operations
 * (vmpi_xport_ops), in the manner of UCX's uct_iface_ops_t or MPICH ch4's netmod API.
 *
 * Places.  PEs are numbered across the job; a process hosts a contiguous block of them (msg/loc.h says which
 * rank lives where).  Every address a transport's users exchange is valid in every process of the job at the
 * same value: ranks' isomalloc slots and the job heap are mapped at the same addresses everywhere, so a
 * remote address is a plain uint64_t and no registration handle is needed in the protocols (a network
 * transport keeps its remote keys per process, looked up by address).
 *
 * Active messages.  am_send(x, dst_pe, id, len, pack, arg) delivers `len` bytes to PE `dst_pe`, where the
 * handler registered under `id` (vmpi_xport_am_register, the same ids for every transport) runs with the
 * bytes in place (it copies what it keeps; it may send, never poll).  The bytes are written by `pack`,
 * called once before am_send returns, straight into the transport's buffer (a ring cell, a network's bounce
 * buffer): the sender's data is out of its buffer when am_send returns.  Messages from one PE to another
 * arrive in the order they were sent (MPI's non-overtaking rule rests on it).  am_send never fails and never
 * blocks: a full transport queues on the sender's side.  am_max(x) is the largest `len`.
 *
 * One-sided operations (optional: NULL when the transport has none; the protocols then use active messages).
 * get/put move `len` contiguous bytes between `local` and address `remote` in the process of PE `dst_pe`;
 * atomic applies one fetch-and-op or compare-and-swap of 1-8 bytes there.  Each completes by calling
 * `c->done(c)` on the initiating PE (maybe before the call returns); the memory must not be touched before.
 * A put is done when its bytes are in place at the target.
 *
 * Exposed memory (optional: NULL when the transport has no one-sided way of its own, as the in-process and
 * emulated ones, which copy).  expose(x, addr, len, &key, &klen) registers [addr, addr + len) of this
 * process for the one-sided get and put of other processes and gives the bytes they need (a remote key,
 * malloc'd, freed by the caller; false when there is none: the transport then serves that memory by
 * messages); unexpose undoes one expose of the same range (ranges are counted; an unknown range is ignored,
 * as after a restart).  remote_add(x, proc, addr, len, key, klen) says that process `proc` exposed that range
 * with that key: from then on get and put within it are one-sided (the target's PEs take no part, as far as
 * the network allows); remote_remove undoes one remote_add.  get and put on addresses in no added range take
 * the transport's other way.  A window exposes its memory at creation and exchanges keys over its
 * communicator (mpi/rma/expose.c); the origins remove the keys before the owner unexposes.
 *
 * Progress.  Each transport registers itself with the scheduler as a progress source (sched/sched.h): poll
 * runs the handlers of what arrived for a PE, ready/backlog/in_flight tell idle PEs, the deadlock check and a
 * stop of the world whether work waits or is under way.  flush(x, pe) makes every operation PE `pe` started
 * on `x` complete at its target before it returns (it polls).
 *
 * Implementations: xport/inproc.c (the channels of xport/chan.h between PEs of this process; get/put are
 * copies) and xport/emul.c (the emulated multi-process mode: ranks split into process groups inside one
 * process, every operation between groups carried as a network would carry it, counted).  Which transport
 * carries a message to a peer is decided in one place, msg/loc.h's vmpi_loc_path. */
#ifndef VMPI_XPORT_XPORT_H
#define VMPI_XPORT_XPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vmpi_pe;

/* Writes exactly `len` bytes at `dst`. */
typedef void (*vmpi_xport_pack_fn)(void *dst, size_t len, void *arg);
/* An active message's handler: on PE `pe`, from PE `src_pe`, with the message's bytes in place. */
typedef void (*vmpi_xport_am_fn)(struct vmpi_pe *pe, int src_pe, void *msg, size_t len);

typedef struct vmpi_xport_comp vmpi_xport_comp;
struct vmpi_xport_comp {
    void (*done)(vmpi_xport_comp *c);
};

typedef enum { VMPI_XPORT_FADD, VMPI_XPORT_SWAP, VMPI_XPORT_CSWAP } vmpi_xport_aop;

typedef struct vmpi_xport vmpi_xport;

typedef struct vmpi_xport_ops {
    const char *name;
    size_t (*am_max)(const vmpi_xport *x);
    void (*am_send)(vmpi_xport *x, int dst_pe, uint32_t id, size_t len, vmpi_xport_pack_fn pack, void *arg);
    void (*get)(vmpi_xport *x, int dst_pe, void *local, uint64_t remote, size_t len, vmpi_xport_comp *c);
    void (*put)(vmpi_xport *x, int dst_pe, const void *local, uint64_t remote, size_t len, vmpi_xport_comp *c);
    /* *result = old value; FADD: remote += operand; SWAP: remote = operand; CSWAP: remote = operand if it
     * equals *compare.  `size` is 1, 2, 4 or 8 bytes, little-endian in the uint64_t values. */
    void (*atomic)(vmpi_xport *x, int dst_pe, vmpi_xport_aop op, uint64_t remote, int size, uint64_t operand,
                   uint64_t compare, uint64_t *result, vmpi_xport_comp *c);
    void (*flush)(vmpi_xport *x, int pe);
    bool (*expose)(vmpi_xport *x, uint64_t addr, size_t len, void **key, size_t *klen);
    void (*unexpose)(vmpi_xport *x, uint64_t addr, size_t len);
    void (*remote_add)(vmpi_xport *x, int proc, uint64_t addr, size_t len, const void *key, size_t klen);
    void (*remote_remove)(vmpi_xport *x, int proc, uint64_t addr, size_t len);
} vmpi_xport_ops;

/* Operation counts of a transport, for tests and tools (each PE counts its own; summed on reading).  Of the
 * gets and puts, `kcopy` were copies by the kernel between processes of one node and `rma` the network's
 * one-sided operations on exposed memory (remote keys); the others were messages the target served. */
typedef struct vmpi_xport_counts {
    uint64_t am, am_bytes, get, get_bytes, put, put_bytes, atomic, kcopy, rma;
} vmpi_xport_counts;

struct vmpi_xport {
    const vmpi_xport_ops *ops;
    const char *name;
};

static inline void vmpi_xport_am_send(vmpi_xport *x, int dst_pe, uint32_t id, size_t len, vmpi_xport_pack_fn pack,
                                      void *arg)
{
    x->ops->am_send(x, dst_pe, id, len, pack, arg);
}
static inline size_t vmpi_xport_am_max(const vmpi_xport *x) { return x->ops->am_max(x); }
/* The pack callback of a message that is already laid out: `arg` points at its `len` bytes. */
void vmpi_xport_pack_copy(void *dst, size_t len, void *arg);
/* A message of a header and a payload that lie apart: `hlen` bytes at `hdr`, then `dlen` at `data` (not read
 * when dlen is 0), packed straight into the transport's buffer. */
typedef struct vmpi_xport_hdr_data {
    const void *hdr;
    size_t hlen;
    const void *data;
} vmpi_xport_hdr_data;
void vmpi_xport_pack_hdr_data(void *dst, size_t len, void *arg);
static inline void vmpi_xport_am_send_hdr(vmpi_xport *x, int dst_pe, uint32_t id, const void *hdr, size_t hlen,
                                          const void *data, size_t dlen)
{
    vmpi_xport_hdr_data m = {hdr, hlen, data};
    vmpi_xport_am_send(x, dst_pe, id, hlen + dlen, vmpi_xport_pack_hdr_data, &m);
}

/* Active-message handlers, one table for every transport: registered at start-up, in the same order in every
 * process (so an id means the same handler everywhere). */
#define VMPI_XPORT_MAX_AM 48
uint32_t vmpi_xport_am_register(vmpi_xport_am_fn fn);
extern vmpi_xport_am_fn vmpi_xport_am_table[VMPI_XPORT_MAX_AM];

/* Start-up (main thread, after vmpi_sched_init): the in-process channels for this process's PEs and, with
 * `nprocs` > 1, the transport between processes: over the network when a PMIx launcher started several
 * (xport/netjob.h; `npes` is then the whole job's), else the emulated one between `nprocs` groups of the
 * `npes` PEs. */
void vmpi_xport_init(int npes, int nprocs);
/* Bytes that must be the same in every process of the job (layout, settings): compared at the wire-up. */
void vmpi_xport_set_geometry(const void *bytes, size_t len);
void vmpi_xport_fini(void);
/* The transport between this process and the process of PE `pe` (a remote one: never this process's own
 * channels; NULL when the job has one process). */
vmpi_xport *vmpi_xport_remote(int pe);
/* The in-process transport (the channels). */
extern vmpi_xport vmpi_xport_inproc;
/* Counts of operations between processes so far (all zero in a one-process job). */
vmpi_xport_counts vmpi_xport_remote_counts(void);

#endif
