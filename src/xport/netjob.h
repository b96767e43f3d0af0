/* SPDX-License-Identifier: BSD-3-Clause */
/* A job of several OS processes, from libvmpi's side (xport/net.c; the plugin's interface is xport/net.h). */
#ifndef VMPI_XPORT_NETJOB_H
#define VMPI_XPORT_NETJOB_H

#include <stdbool.h>
#include <stddef.h>
#include "xport/net.h"

/* At the start of the job (main thread): when a PMIx launcher started this process, loads the network
 * plugin and connects to the launcher (true); otherwise the job is this one process (false). */
bool vmpi_xport_net_open(void);
/* The job's layout as the launcher gave it (NULL in a one-process job). */
const vmpi_net_job *vmpi_xport_net_job(void);
/* After the start: the node of process `proc` (node ids compare; 0 in a one-process job and in the emulated
 * mode, whose groups share one node), and whether the whole job is on this process's node. */
int vmpi_xport_net_node_of(int proc);
bool vmpi_xport_net_one_node(void);
/* Starts the transport between processes for this process's PEs (vmpi_xport_init does, with the geometry
 * vmpi_xport_set_geometry gave): addresses are exchanged with every process. */
void vmpi_xport_net_start(int first, int npes, int job_npes, const void *geometry, size_t glen);
/* The transport to other processes (NULL before the start or in a one-process job). */
vmpi_xport *vmpi_xport_net(void);
vmpi_xport_counts vmpi_xport_net_counts(void);
/* A job-wide step (AMPI_Migrate across processes), called by one rank of each process, all in the same
 * order.  quiesce blocks the calling rank (its PE keeps polling) until no message between processes is on
 * the wire or waiting (sent = received, the same over two rounds: the other ranks must be blocked), and
 * says whether any process passed `flag` (a question the step asks every process, at no extra fence);
 * allgather gives every process's bytes, through the launcher (blocking; no message of the transport, so it
 * may run while the world of this process is stopped); while held, the network's handlers do not run. */
bool vmpi_xport_net_quiesce(bool flag);
void vmpi_xport_net_allgather(const void *blob, size_t len, void **out, size_t *lens);
/* The same for records of one size: process k's `len` bytes at all + k * len (a process that has no
 * launcher connection, alone in its job: its own).  A record of another size is an internal error. */
void vmpi_xport_net_allgather_fixed(const void *mine, size_t len, void *all);
void vmpi_xport_net_hold(bool on);
/* A job-wide step's bulk exchange (net.h's bulk): collective, one thread per process. */
void vmpi_xport_net_bulk(const vmpi_net_bulk *sends, int ns, const vmpi_net_bulk *recvs, int nr);
/* Ends the whole job through the launcher (returns: the caller then ends this process). */
void vmpi_xport_net_abort(int status, const char *msg);
/* Who renders "ranks 0-3, 8" of a process for the plugin's messages (msg/loc.c, which knows where ranks
 * are; before it is set, the process's PEs are named instead). */
void vmpi_xport_net_on_ranks_of(void (*fn)(int proc, char *buf, size_t n));
/* After the PEs have stopped. */
void vmpi_xport_net_finish(void);

#endif
