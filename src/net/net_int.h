/* SPDX-License-Identifier: BSD-3-Clause */
/* Inside the network plugin (libvmpi_net.so): the wire-up through PMIx (wireup.c) and the UCX transport
 * (ucx.c), joined by plugin.c into the table libvmpi loads (xport/net.h). */
#ifndef VMPI_NET_INT_H
#define VMPI_NET_INT_H

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
void vmpi_wire_abort(int status, const char *msg);
void vmpi_wire_close(void);

/* ---- the UCX transport ---- */
void vmpi_ucx_start(int first, int npes, int job_npes, const vmpi_net_job *job, const void *geometry, size_t glen);
extern vmpi_xport vmpi_ucx_xport;
int vmpi_ucx_node_of(int proc);
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

#endif
