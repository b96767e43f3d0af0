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
 * else may be sent to `dst` in between.  Handlers run on the receiving PE, with the record in place: they
 * must copy what they keep, and must not poll. */
#ifndef VMPI_SCHED_CHAN_H
#define VMPI_SCHED_CHAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vmpi_pe;
typedef void (*vmpi_rec_fn)(struct vmpi_pe *pe, int src_pe, void *rec, size_t len);

/* Setup and teardown, from the main thread; `ring_bytes` per ordered pair of PEs. */
void vmpi_chan_init(int npes, size_t ring_bytes);
void vmpi_chan_fini(void);
uint32_t vmpi_chan_handler_register(vmpi_rec_fn fn);
/* The largest record a channel takes (a quarter of the ring, so that several are in flight). */
size_t vmpi_chan_max_record(void);

/* Sending, on the sender's PE thread. */
void *vmpi_chan_reserve(int dst_pe, size_t len);
void vmpi_chan_commit(int dst_pe, uint32_t handler);

/* Receiving, on PE `pe`: runs the handlers of every published record; returns how many ran.  Also moves
 * records queued on this PE's full outgoing rings into them. */
int vmpi_chan_poll(struct vmpi_pe *pe);
/* Cheap check for spin loops: is a record waiting for PE `pe`? */
bool vmpi_chan_pending(int pe);
/* Records of PE `pe` still queued because a ring was full (the PE must not sleep then). */
bool vmpi_chan_backlog(int pe);

#endif
