/* SPDX-License-Identifier: BSD-3-Clause */
/* Checkpoint files: a versioned header, then sections (type, id, address, length, data), then an end
 * record.  Each section's header and data carry an XXH3 checksum; the header records the file's total size,
 * so a truncated file is refused before anything is read into memory.
 *
 * A checkpoint to a directory is written as DIR/.vmpi-ckpt-SEQ.tmp (mode 0600, SEQ one more than the
 * newest complete checkpoint there), flushed to disk, then renamed to DIR/vmpi-ckpt-SEQ.ckpt and the
 * directory flushed: until the rename the previous checkpoint is the newest, and after it the new one is
 * complete.  Older checkpoints and leftover temporaries are removed only then (vmpi_ckpt_prune).  A crash at any point
 * leaves either the old or the new checkpoint as the newest complete one, never a partial one.
 *
 * A job of several processes writes one file per process, DIR/vmpi-ckpt-SEQ.pK.part (each the same way:
 * a temporary, flushed, renamed, the directory flushed), and once every process's is on disk, a manifest
 * DIR/vmpi-ckpt-SEQ.ckpt naming them (their sizes and digests): only the manifest makes them a complete
 * checkpoint, so a crash or a failure before it leaves the previous checkpoint the newest.
 *
 * The same format can be written to memory (an in-memory checkpoint). */
#ifndef VMPI_CKPT_CKPT_H
#define VMPI_CKPT_CKPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VMPI_CKPT_VERSION 2u /* 2: a stack guard of up to 1 MiB in each slot (iso/range.c) */

typedef struct vmpi_ckpt_sec {
    uint32_t type, id;
    uint64_t addr, len;
} vmpi_ckpt_sec;

/* A memory target, kept between checkpoints (its pages are reused). */
typedef struct vmpi_ckpt_membuf {
    char *buf;
    size_t len, cap;
} vmpi_ckpt_membuf;

typedef struct vmpi_ckpt_out vmpi_ckpt_out;
typedef struct vmpi_ckpt_in vmpi_ckpt_in;

/* Starts a checkpoint in directory `dir` (created, mode 0700, if missing).  NULL on failure, with errno and
 * a message naming the file and the problem in err.  The first one in a directory locks it for the rest of
 * the process (DIR/.vmpi-ckpt.lock): another process's checkpoint there fails with EACCES, and so does a
 * lock file that is a link or not the user's (nothing in the directory is opened through a link); a
 * directory others can write into without the sticky bit gets a warning. */
vmpi_ckpt_out *vmpi_ckpt_create(const char *dir, char *err, size_t errlen);
/* A job of several processes: the sequence number its next checkpoint in `dir` may take (one above every
 * file there), the directory created and, with `lock` (one process of the job), locked as above.  0, or an
 * errno value with a message in err. */
int vmpi_ckpt_next_seq(const char *dir, bool lock, uint64_t *seq, char *err, size_t errlen);
/* Starts file `part` of checkpoint `seq` in `dir` (made by vmpi_ckpt_next_seq): process `part`'s, or with
 * part -1 the manifest.  The name must be free (nothing is skipped: every process agreed on `seq`).  NULL
 * with errno and a message in err. */
vmpi_ckpt_out *vmpi_ckpt_create_at(const char *dir, uint64_t seq, long part, char *err, size_t errlen);
/* Removes file `part` of checkpoint `seq` (-1: the manifest) and its temporary, and flushes the directory:
 * a checkpoint of several processes that failed somewhere. */
void vmpi_ckpt_remove(const char *dir, uint64_t seq, long part);
/* Starts a checkpoint in memory, replacing what `mb` held, numbered `seq` (a part of a job's checkpoint
 * `seq` that may be stored as a file later; 1 otherwise). */
vmpi_ckpt_out *vmpi_ckpt_create_mem(vmpi_ckpt_membuf *mb, uint64_t seq);
/* A file of checkpoint `seq` mapped into memory, to hand to another process without a copy: file `part` of
 * `dir` as written (read-only), or a new one of `len` bytes to fill (a temporary, its pages allocated up
 * front: a full file system is ENOSPC here, not SIGBUS later).  NULL with errno and a message in err. */
typedef struct vmpi_ckpt_map vmpi_ckpt_map;
vmpi_ckpt_map *vmpi_ckpt_map_part(const char *dir, uint64_t seq, long part, char *err, size_t errlen);
vmpi_ckpt_map *vmpi_ckpt_map_new(const char *dir, uint64_t seq, long part, size_t len, char *err, size_t errlen);
void *vmpi_ckpt_map_addr(const vmpi_ckpt_map *m);
size_t vmpi_ckpt_map_len(const vmpi_ckpt_map *m);
/* Unmaps it and frees m; a new file is renamed to its name when `keep` (not flushed: it is for a directory
 * in memory, tmpfs, whose files outlive the process, not the machine), else removed.  0, or an errno value
 * with a message in err (the temporary removed). */
int vmpi_ckpt_unmap(vmpi_ckpt_map *m, bool keep, char *err, size_t errlen);
/* Appends one section.  0, or an errno value (the checkpoint must then be discarded). */
int vmpi_ckpt_put(vmpi_ckpt_out *o, uint32_t type, uint32_t id, uint64_t addr, const void *data, size_t len);
/* Appends a section whose data is given in pieces (one checksum over all of them). */
typedef struct vmpi_ckpt_piece {
    const void *data;
    size_t len;
} vmpi_ckpt_piece;
int vmpi_ckpt_putv(vmpi_ckpt_out *o, uint32_t type, uint32_t id, uint64_t addr, const vmpi_ckpt_piece *p, int n);
/* Bytes written so far. */
uint64_t vmpi_ckpt_written(const vmpi_ckpt_out *o);
/* Its sequence number, and its digest so far: a hash chained over its sections' headers, each of which holds
 * its data's checksum (a manifest names its parts by size and digest). */
uint64_t vmpi_ckpt_out_seq(const vmpi_ckpt_out *o);
uint64_t vmpi_ckpt_out_digest(const vmpi_ckpt_out *o);
/* The size its file will have once committed (with nothing more put). */
uint64_t vmpi_ckpt_out_total(const vmpi_ckpt_out *o);
/* Completes the checkpoint and makes it the newest (see above); frees `o`.  0, or an errno value with a
 * message in err (the temporary is removed and the previous checkpoint stays the newest). */
int vmpi_ckpt_commit(vmpi_ckpt_out *o, char *err, size_t errlen);
/* Abandons it: the temporary is removed; frees `o`. */
void vmpi_ckpt_discard(vmpi_ckpt_out *o);
/* Removes from `dir` every checkpoint but the newest complete one, and every temporary (leftovers of
 * crashed jobs).  Separate from the commit, so that it can be done off the critical path. */
void vmpi_ckpt_prune(const char *dir);

/* Opens the newest complete checkpoint in `dir`, checking its header and size.  NULL with a message in err
 * (naming the file and the problem: missing, a link, another user's, not a checkpoint, foreign version,
 * truncated). */
vmpi_ckpt_in *vmpi_ckpt_open(const char *dir, char *err, size_t errlen);
/* Opens file `part` of checkpoint `seq` in `dir` (-1: the manifest), with the same checks. */
vmpi_ckpt_in *vmpi_ckpt_open_part(const char *dir, uint64_t seq, long part, char *err, size_t errlen);
vmpi_ckpt_in *vmpi_ckpt_open_mem(const vmpi_ckpt_membuf *mb, char *err, size_t errlen);
/* The file it reads ("(in memory)" for an in-memory checkpoint). */
const char *vmpi_ckpt_name(const vmpi_ckpt_in *in);
uint64_t vmpi_ckpt_size(const vmpi_ckpt_in *in);
/* Its sequence number, and the digest of the sections read so far (after the end record: the file's). */
uint64_t vmpi_ckpt_in_seq(const vmpi_ckpt_in *in);
uint64_t vmpi_ckpt_in_digest(const vmpi_ckpt_in *in);
/* The next section's header: 1, or 0 at the (checked) end record, or -1 on an error (vmpi_ckpt_error). */
int vmpi_ckpt_next(vmpi_ckpt_in *in, vmpi_ckpt_sec *s);
/* The current section's data into dst (s->len bytes), its checksum checked: 0, or -1 on an error. */
int vmpi_ckpt_read(vmpi_ckpt_in *in, void *dst);
/* Skips the current section's data (its checksum is checked all the same). */
int vmpi_ckpt_skip(vmpi_ckpt_in *in);
const char *vmpi_ckpt_error(const vmpi_ckpt_in *in);
void vmpi_ckpt_close(vmpi_ckpt_in *in);

/* The XXH3 hash of `len` bytes. */
uint64_t vmpi_ckpt_hash(const void *p, size_t len);
/* The XXH3 hash and size of a file's contents (a program's identity); false when it cannot be read. */
bool vmpi_ckpt_hash_file(const char *path, uint64_t *hash, uint64_t *size);

/* State of the runtime kept in static variables of libvmpi that a checkpoint saves and a restart puts back
 * (libvmpi is at the same address in both processes).  Registered once per variable at load time with
 * VMPI_CKPT_STATIC; what they point to must itself be saved (a slot, the job heap, or libvmpi). */
void vmpi_ckpt_static_register(void *addr, size_t len, const char *name);
typedef struct vmpi_ckpt_static {
    void *addr;
    size_t len;
    const char *name;
} vmpi_ckpt_static;
const vmpi_ckpt_static *vmpi_ckpt_statics(int *n);
#define VMPI_CKPT_STATIC(var)                                                                               \
    __attribute__((constructor)) static void vmpi_ckpt_static_##var(void)                                   \
    {                                                                                                       \
        vmpi_ckpt_static_register(&(var), sizeof(var), #var " (" __FILE__ ")");                             \
    }

#endif
