/* SPDX-License-Identifier: BSD-3-Clause */
/* Collective schedules: every collective, blocking or not, is built as a list of rounds.  A round starts
 * all its sends and receives at once; when the last of them completes, its local steps (copies,
 * reductions) run in order and the next round starts.  Progress is message-driven: the messaging layer's
 * completion callbacks (run on the owner's PE) advance the schedule, so a nonblocking collective moves on
 * while its rank computes or waits for anything else, with no progress thread and no polling.  A blocking
 * collective is the same schedule waited for at once.
 *
 * Messages go on the communicator's collective context (ctx + 1) with the collective's sequence number as
 * the tag, so several outstanding collectives on one communicator never match each other's messages.
 *
 * On an intercommunicator, steps name ranks of the remote group by default; after vmpi_cs_local(s, true)
 * they name ranks of the local group and travel on the internal intracommunicator over it (c->local),
 * tagged with that communicator's own sequence number (taken when the schedule is made), so one schedule
 * can combine within each group and exchange between the groups.
 *
 * Every receive must get exactly the bytes it expects and every copy must have equal sides (MPI makes a
 * collective's type signatures match): otherwise the schedule fails with MPI_ERR_TRUNCATE, and the sends it
 * starts afterwards carry no data, so that the ranks downstream fail too. */
#ifndef VMPI_MPI_COLL_CSCHED_H
#define VMPI_MPI_COLL_CSCHED_H

#include <mpi.h>
#include <stdbool.h>
#include "dtype/dtype.h"
#include "mpi/core/comm.h"
#include "msg/msg.h"

typedef struct vmpi_csched vmpi_csched;

/* A new empty schedule for the calling rank on `c` (takes the next collective sequence number), or NULL
 * when out of memory. */
vmpi_csched *vmpi_cs_new(vmpi_comm *c);
/* The communicators (copies) of rank `rk`'s live schedules, whose groups they reference: a checkpoint
 * writes those groups, and a restart that re-creates them updates these copies (mpi/adapt). */
struct vmpi_rank;
void vmpi_cs_each_comm(struct vmpi_rank *rk, void (*fn)(void *arg, vmpi_comm *c), void *arg);
/* Intercommunicator schedules: whether the steps appended next address the local group (true) or the
 * remote group (false, the default).  No effect on an intracommunicator. */
void vmpi_cs_local(vmpi_csched *s, bool local);
/* Appends steps to the current round.  Buffers are MPI base pointers (data at base + the type's lb). */
void vmpi_cs_send(vmpi_csched *s, const void *buf, MPI_Count count, const vmpi_dtype *dt, int peer);
void vmpi_cs_recv(vmpi_csched *s, void *buf, MPI_Count count, const vmpi_dtype *dt, int peer);
void vmpi_cs_copy(vmpi_csched *s, const void *src, MPI_Count scount, const vmpi_dtype *sdt, void *dst,
                  MPI_Count rcount, const vmpi_dtype *rdt);
/* inout = in op inout. */
void vmpi_cs_reduce(vmpi_csched *s, const void *in, void *inout, MPI_Count count, const vmpi_dtype *dt,
                    MPI_Datatype dth, MPI_Op op);
/* Ends the current round (no-op when it is empty). */
void vmpi_cs_round(vmpi_csched *s);
/* Scratch space for `count` instances of `dt`, freed with the schedule; a base pointer.  NULL when out of
 * memory (the schedule then fails with MPI_ERR_NO_MEM when run). */
void *vmpi_cs_tmp(vmpi_csched *s, MPI_Count count, const vmpi_dtype *dt);

/* Marks the schedule out of memory (a builder's own allocation failed): running it frees it and fails. */
void vmpi_cs_nomem(vmpi_csched *s);

/* Persistent collectives (MPI_Bcast_init...: MPI-4.1 6.13).  While `on`, the calling rank's next run with a
 * request (vmpi_cs_run) does not start the schedule: *req becomes an inactive persistent request
 * (VMPI_MREQ_COLL) holding it, which each MPI_Start runs again from its first round and MPI_Wait/Test
 * complete, and which destroys it when released; the flag is then off.  So every collective with a
 * nonblocking form gets its persistent form from the same checks and builder, run once, at init.  A
 * schedule's steps are fixed by the arguments (buffers, counts, types), never by the data, so running it
 * again is the collective again.  It keeps the tag it took at init: each start may be in a different order
 * on different ranks (MPI-4.1 allows it; MPICH's coll/p_order), and MPI's non-overtaking order keeps the
 * messages of successive starts apart, since a rank starts again only once its previous run is complete.
 * Returns the flag's previous value. */
bool vmpi_cs_persist(bool on);

/* Runs the schedule: with req == NULL waits for it (blocking collective) and frees it, returning its
 * error; otherwise *req becomes a request completed by MPI_Wait/Test when the schedule ends. */
int vmpi_cs_run(vmpi_csched *s, MPI_Request *req, const char *why);

#endif
