/* SPDX-License-Identifier: BSD-3-Clause */
/* Channels: how PEs send each other records (a handler id and up to vmpi_chan_max_record() bytes).  Every
 * ordered pair of PEs has its own single-producer single-consumer ring of 64-byte cells.  A record is
 * written in place (the sender packs straight into the ring) and published by the sequence number in its
 * first cell, so a small message costs the receiver one cache-line transfer; a receiver tells the sender
 * how far it has read only now and then, on a line of its own.  Records between two PEs arrive in the
 * order they were committed (MPI's non-overtaking rule rests on it).  When a ring is full, records queue
 * on the sender's side in order and drain as the receiver makes room: a send never blocks and never fails.
 *
 * Use: p = vmpi_chan_reserve(dst, len); write len bytes at p; vmpi_chan_commit(dst, handler).  Nothing
 * else may be sent to `dst` in between.  Handlers (xport.h's active-message table) run on the receiving PE,
 * with the record in place: they must copy what they keep, and must not poll.  The channels are the
 * in-process transport (xport/inproc.c) and carry the emulated one's messages too; they register
 * themselves with the scheduler as a progress source. */
#ifndef VMPI_XPORT_CHAN_H
#define VMPI_XPORT_CHAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "xport/xport.h"

struct vmpi_pe;

/* Setup and teardown, from the main thread (after vmpi_sched_init), for this process's PEs first .. first +
 * npes - 1 (PE numbers are the job's everywhere); `ring_bytes` per ordered pair of PEs. */
void vmpi_chan_init(int first, int npes, size_t ring_bytes);
void vmpi_chan_fini(void);
/* The largest record a channel takes (a quarter of the ring, so that several are in flight). */
size_t vmpi_chan_max_record(void);

/* Sending, on the sender's PE thread. */
void *vmpi_chan_reserve(int dst_pe, size_t len);
void vmpi_chan_commit(int dst_pe, uint32_t handler);
/* The same for the emulated remote transport, whose records may go between process groups (an in-process
 * record that does is a fatal internal error: it could carry a pointer). */
void vmpi_chan_commit_remote(int dst_pe, uint32_t handler);

/* The in-process transport's active-message send (xport.h): packed straight into the ring. */
static inline void vmpi_chan_am_send(int dst_pe, uint32_t id, size_t len, vmpi_xport_pack_fn pack, void *arg)
{
    void *p = vmpi_chan_reserve(dst_pe, len);
    pack(p, len, arg);
    vmpi_chan_commit(dst_pe, id);
}

/* Receiving, on PE `pe`: runs the handlers of every published record; returns how many ran.  Also moves
 * records queued on this PE's full outgoing rings into them. */
int vmpi_chan_poll(struct vmpi_pe *pe);
/* Cheap check for spin loops: is a record waiting for PE `pe`? */
bool vmpi_chan_pending(int pe);
/* Records of PE `pe` still queued because a ring was full (the PE must not sleep then). */
bool vmpi_chan_backlog(int pe);

#endif
