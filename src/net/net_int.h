/* SPDX-License-Identifier: BSD-3-Clause */
/* Inside the network plugin (libvmpi_net.so): the wire-up through PMIx (wireup.c), the UCX transport (ucx.c,
 * rkey.c) and its bulk exchanges (bulk.c), joined by plugin.c into the table libvmpi loads (xport/net.h). */
#ifndef VMPI_NET_INT_H
#define VMPI_NET_INT_H

#include <ucp/api/ucp.h>
#include "xport/net.h"

extern const vmpi_net_host *vmpi_net_host_;
#define H vmpi_net_host_

/* ---- wire-up (PMIx) ---- */
bool vmpi_wire_open(vmpi_net_job *job, char *why, size_t n);
/* Every process gives `len` bytes and gets everyone's: out[k] (malloc'd, *lens[k] bytes) for process k. */
void vmpi_wire_allgather(const char *key, const void *blob, size_t len, void **out, size_t *lens);
/* The same in two steps: put and a fence not blocking (`done` set to 1 on PMIx's thread), then the reads. */
void vmpi_wire_allgather_nb(const char *key, const void *blob, size_t len, _Atomic int *done);
void vmpi_wire_allgather_get(const char *key, void **out, size_t *lens);
/* A fence of every process, not blocking: `done` runs (on PMIx's thread) when all have reached it. */
void vmpi_wire_fence_nb(void (*done)(void));
/* The same, with `done` set to 1 (on PMIx's thread). */
void vmpi_wire_barrier_nb(_Atomic int *done);
void vmpi_wire_abort(int status, const char *msg);
void vmpi_wire_close(void);

/* ---- the UCX transport ---- */
void vmpi_ucx_start(int first, int npes, int job_npes, const vmpi_net_job *job, const void *geometry, size_t glen);
/* A UCP context with pp's features, under the job's settings of UCX (fatal when UCX cannot start: `what` is
 * said after "UCX could not start"). */
ucp_context_h vmpi_ucx_context(const ucp_params_t *pp, const char *what);
extern vmpi_xport vmpi_ucx_xport;
int vmpi_ucx_node_of(int proc);
/* ucp_ep_create of an endpoint to process `proc` (p's err_mode set here): in UCX's PEER error mode towards
 * other nodes with VMPI_NET_PEER=1 (where UCX has a transport for it), else in its default mode. */
ucs_status_t vmpi_ucx_ep_create(ucp_worker_h w, ucp_ep_params_t *p, int proc, ucp_ep_h *ep);
int vmpi_ucx_poll(struct vmpi_pe *pe);
bool vmpi_ucx_ready(int pe);
bool vmpi_ucx_backlog(int pe);
bool vmpi_ucx_work(int pe);
bool vmpi_ucx_in_flight(void);
void vmpi_ucx_idle(bool (*still_idle)(void));
void vmpi_ucx_sleep(int pe, _Atomic uint32_t *word);
void vmpi_ucx_wake(int pe);
void vmpi_ucx_local_done(void);
void vmpi_ucx_finish(void);
vmpi_xport_counts vmpi_ucx_counts(void);
void vmpi_ucx_traffic(uint64_t *sent, uint64_t *received);
void vmpi_ucx_hold(bool on);

/* ---- bulk exchanges (bulk.c): net.h's bulk ---- */
/* At the start (records the job; UCX is started at the first exchange), and at the end. */
void vmpi_bulk_init(int nprocs, int self);
void vmpi_bulk(const vmpi_net_bulk *sends, int ns, const vmpi_net_bulk *recvs, int nr);
void vmpi_bulk_fini(void);

/* ---- exposed memory and remote keys (rkey.c): xport.h's expose .. remote_remove ---- */
/* `on`: the network's one-sided operations are used (VMPI_NET_RMA); otherwise nothing is exposed or added. */
void vmpi_rkey_init(ucp_context_h ctx, bool on, int npes, int nprocs, int job_npes);
bool vmpi_rkey_expose(uint64_t addr, size_t len, void **key, size_t *klen);
void vmpi_rkey_unexpose(uint64_t addr, size_t len);
void vmpi_rkey_add(int proc, uint64_t addr, size_t len, const void *key, size_t klen);
void vmpi_rkey_remove(int proc, uint64_t addr, size_t len);
/* The key for [addr, addr + len) in process `proc`, unpacked for local PE l's endpoint `ep` to PE `dst_pe`;
 * NULL when no exposed range covers it.  Called by PE l. */
ucp_rkey_h vmpi_rkey_find(int l, ucp_ep_h ep, int proc, int dst_pe, uint64_t addr, size_t len);
/* In PE l's poll: destroys its keys of removed ranges when `idle` (no one-sided request of it in flight). */
void vmpi_rkey_reap(int l, bool idle);
/* At the end, before the workers are destroyed: every key; then (before the context goes) every
 * registration. */
void vmpi_rkey_fini(void);
void vmpi_rkey_unmap_all(void);

#endif
