/* SPDX-License-Identifier: BSD-3-Clause */
/* The checkpoint format (ckpt.h) and its two targets, a file in a directory and a memory buffer.
 *
 *   header   64 bytes: "VMPICKPT", version, header size, sequence number, total size (set last), time,
 *            XXH3 of the bytes before it
 *   section  48 bytes: type, id, address, length, XXH3 of the data, its own offset, XXH3 of the bytes before
 *            it; then the data
 *   end      a section of type END whose address is the number of sections before it
 *
 * Sections' headers are staged in a buffer with the small pieces of data; large data is written straight
 * from where it lies. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>
#include "base/log.h"
#include "base/sysmem.h"
#include "ckpt/ckpt.h"

#define MAGIC "VMPICKPT"
#define END_TYPE 0xffffffffu
#define STAGE (1u << 20)
#define DIRECT_MIN (64u << 10) /* data at least this big is written from where it lies */
#define WRITE_MAX (1u << 20)   /* bytes per write(): one write of tens of MB runs 4-7x slower here */

typedef struct file_hdr {
    char magic[8];
    uint32_t version, hdr_size;
    uint64_t seq, total, created, reserved[2];
    uint64_t sum;
} file_hdr;
typedef struct sec_hdr {
    uint32_t type, id;
    uint64_t addr, len, data_sum, offset;
    uint64_t sum;
} sec_hdr;
_Static_assert(sizeof(file_hdr) == 64 && sizeof(sec_hdr) == 48, "checkpoint record layout");

struct vmpi_ckpt_out {
    int fd;                  /* -1: memory */
    int dfd;                 /* the directory: every name in it is opened relative to it */
    vmpi_ckpt_membuf *mb;
    char *stage;
    size_t staged;
    uint64_t off, nsec, seq;
    uint64_t chain;          /* the digest: a hash chained over the sections' headers (each holds its data's) */
    int err;
    char dir[4096], tmp[4200], final[4200]; /* paths, for messages */
    char tmp_name[64], final_name[64];       /* names in dfd */
};

#define READ_AHEAD (1u << 20)

struct vmpi_ckpt_in {
    int fd;
    const vmpi_ckpt_membuf *mb;
    char *rb;                /* read-ahead of a file: rb_len bytes from offset rb_off */
    uint64_t rb_off;
    size_t rb_len;
    uint64_t off, total, nsec, seq;
    uint64_t chain;          /* as vmpi_ckpt_out's, over the sections read so far */
    sec_hdr cur;
    bool in_data;
    char name[4200];
    char err[4400];
};

/* ---- the directory ---- */

/* Whether `name` is a checkpoint (vmpi-ckpt-SEQ.ckpt: a job's, or the manifest of a job of several
 * processes), one process's part of one (vmpi-ckpt-SEQ.pK.part) or a temporary of either
 * (.vmpi-ckpt-SEQ.tmp, .vmpi-ckpt-SEQ.pK.tmp), and its SEQ; *part is K, or -1. */
static bool ckpt_name(const char *name, uint64_t *seq, bool *tmp, long *part)
{
    *tmp = name[0] == '.';
    *part = -1;
    const char *p = name + *tmp;
    if (strncmp(p, "vmpi-ckpt-", 10) != 0 || p[10] < '1' || p[10] > '9')
        return false; /* digits only, no sign, no leading zero */
    p += 10;
    size_t nd = strspn(p, "0123456789");
    if (nd > 19)
        return false;
    *seq = strtoull(p, NULL, 10);
    p += nd;
    if (p[0] == '.' && p[1] == 'p' && p[2] >= '0' && p[2] <= '9') {
        size_t kd = strspn(p + 2, "0123456789");
        if (kd > 8 || (kd > 1 && p[2] == '0'))
            return false;
        *part = strtol(p + 2, NULL, 10);
        p += 2 + kd;
        return strcmp(p, *tmp ? ".tmp" : ".part") == 0;
    }
    return strcmp(p, *tmp ? ".tmp" : ".ckpt") == 0;
}

/* The names of checkpoint SEQ's file: part -1 is the job's file (or the manifest), K process K's part. */
static void file_names(uint64_t seq, long part, char *tmp, char *final, size_t len)
{
    if (part < 0) {
        snprintf(tmp, len, ".vmpi-ckpt-%" PRIu64 ".tmp", seq);
        snprintf(final, len, "vmpi-ckpt-%" PRIu64 ".ckpt", seq);
    } else {
        snprintf(tmp, len, ".vmpi-ckpt-%" PRIu64 ".p%ld.tmp", seq, part);
        snprintf(final, len, "vmpi-ckpt-%" PRIu64 ".p%ld.part", seq, part);
    }
}

/* The directory `dfd` for reading its entries (an open file description of its own: dup's would share
 * dfd's position), NULL on failure. */
static DIR *entries(int dfd)
{
    int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d == NULL && fd >= 0)
        close(fd);
    return d;
}

/* The newest complete checkpoint's sequence number in directory `dfd` (parts are not: only their manifest
 * makes them one), and the highest of any file's (0: none). */
static void scan(int dfd, uint64_t *complete, uint64_t *any)
{
    *complete = *any = 0;
    DIR *d = entries(dfd);
    if (d == NULL)
        return;
    uint64_t s;
    bool tmp;
    long part;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!ckpt_name(e->d_name, &s, &tmp, &part))
            continue;
        if (!tmp && part < 0 && s > *complete)
            *complete = s;
        if (s > *any)
            *any = s;
    }
    closedir(d);
}

void vmpi_ckpt_prune(const char *dir)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return;
    uint64_t keep, any;
    scan(dfd, &keep, &any);
    DIR *d = keep ? entries(dfd) : NULL;
    uint64_t s;
    bool tmp;
    long part;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) /* unlinkat removes a link, never what it names */
        if (ckpt_name(e->d_name, &s, &tmp, &part) && s != keep)
            unlinkat(dfd, e->d_name, 0);
    if (d)
        closedir(d);
    close(dfd);
}

/* ---- writing ---- */

static void hdr_fill(file_hdr *h, uint64_t seq, uint64_t total)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, MAGIC, 8);
    h->version = VMPI_CKPT_VERSION;
    h->hdr_size = sizeof *h;
    h->seq = seq;
    h->total = total;
    h->created = (uint64_t)time(NULL);
    h->sum = XXH3_64bits(h, offsetof(file_hdr, sum));
}

static int raw_write(vmpi_ckpt_out *o, const void *p, size_t n)
{
    if (n == 0)
        return 0;
    if (o->fd < 0) {
        vmpi_ckpt_membuf *mb = o->mb;
        if (mb->len + n > mb->cap) {
            size_t cap = mb->cap ? mb->cap : 1u << 20;
            while (cap < mb->len + n)
                cap *= 2;
            char *b = vmpi_sys_realloc(mb->buf, cap);
            if (b == NULL)
                return ENOMEM;
            mb->buf = b;
            mb->cap = cap;
        }
        memcpy(mb->buf + mb->len, p, n);
        mb->len += n;
        return 0;
    }
    for (const char *c = p; n > 0;) {
        ssize_t w = write(o->fd, c, n < WRITE_MAX ? n : WRITE_MAX);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

static int flush_stage(vmpi_ckpt_out *o)
{
    int e = o->staged ? raw_write(o, o->stage, o->staged) : 0;
    o->staged = 0;
    return e;
}

static int out_write(vmpi_ckpt_out *o, const void *p, size_t n)
{
    if (o->err || n == 0)
        return o->err;
    if (n >= DIRECT_MIN || o->fd < 0) {
        if ((o->err = flush_stage(o)) == 0)
            o->err = raw_write(o, p, n);
    } else {
        if (o->staged + n > STAGE && (o->err = flush_stage(o)) != 0)
            return o->err;
        memcpy(o->stage + o->staged, p, n);
        o->staged += n;
    }
    o->off += n;
    return o->err;
}

static vmpi_ckpt_out *out_new(void)
{
    vmpi_ckpt_out *o = vmpi_sys_calloc(1, sizeof *o);
    if (o)
        o->dfd = -1;
    if (o && (o->stage = vmpi_sys_malloc(STAGE)) == NULL) {
        vmpi_sys_free(o);
        return NULL;
    }
    return o;
}

static void out_free(vmpi_ckpt_out *o)
{
    if (o->dfd >= 0)
        close(o->dfd);
    vmpi_sys_free(o->stage);
    vmpi_sys_free(o);
}

/* Files in a checkpoint directory are opened relative to the directory's descriptor and never through a
 * symbolic link (O_NOFOLLOW; temporaries O_CREAT | O_EXCL): a link planted there by someone who can write
 * the directory (DIR/.vmpi-ckpt.lock -> a victim) must not make vmpi truncate, write or read the file it
 * names.  What is opened must also be a regular file of ours; the lock file, which is truncated, must have
 * no other link (a hard link to a victim). */
static bool ours(int fd, const char *path, bool one_link, struct stat *st, char *err, size_t errlen)
{
    const char *why = fstat(fd, st) != 0        ? strerror(errno)
                      : !S_ISREG(st->st_mode)   ? "not a regular file"
                      : st->st_uid != geteuid() ? "it belongs to another user"
                      : one_link && st->st_nlink != 1 ? "it has other hard links"
                                                : NULL;
    if (why) {
        snprintf(err, errlen, "refusing %s: %s (planted by someone who can write the directory?)", path, why);
        errno = EACCES;
    }
    return why == NULL;
}

/* openat() of `name` in `dfd` refused when it is a symbolic link, with a message naming `path`. */
static int open_in(int dfd, const char *name, const char *path, int flags, char *err, size_t errlen)
{
    int fd = openat(dfd, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0600); /* a FIFO never blocks */
    if (fd < 0) {
        int e = errno;
        if (e == ELOOP)
            snprintf(err, errlen, "refusing %s: it is a symbolic link (planted by someone who can write the "
                                  "directory?)", path);
        else
            snprintf(err, errlen, "cannot %s %s: %s", flags & O_CREAT ? "create" : "open", path, strerror(e));
        errno = e == ELOOP ? EACCES : e;
    }
    return fd;
}

/* One job at a time writes checkpoints into a directory: two would remove each other's.  The first
 * checkpoint a process writes into a directory takes an flock on DIR/.vmpi-ckpt.lock and keeps it until the
 * process ends; the kernel drops it then, even after SIGKILL, so a restarted job takes it again.  That is
 * also when a directory others may write into gets its warning. */
static struct {
    dev_t dev;
    ino_t ino;
} held[16];
static int nheld;

/* The lock taken, waiting up to LOCK_WAIT_MS for its holder to let go: a job killed a moment ago still holds it
 * while the kernel tears it down (its threads scheduled one by one, its mappings unmapped; milliseconds, more
 * under load), and a restart started as soon as the killed launcher returned must not take that for a running job. */
enum { LOCK_WAIT_MS = 3000, LOCK_POLL_MS = 2 };
static bool lock_wait(int fd)
{
    for (int waited = 0;; waited += LOCK_POLL_MS) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return true;
        if (errno != EWOULDBLOCK || waited >= LOCK_WAIT_MS)
            return false;
        nanosleep(&(struct timespec){0, LOCK_POLL_MS * 1000000L}, NULL);
    }
}

static bool dir_lock(int dfd, const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(dfd, &st) != 0) {
        snprintf(err, errlen, "cannot use the checkpoint directory %s: %s", dir, strerror(errno));
        return false;
    }
    for (int i = 0; i < nheld; i++)
        if (held[i].dev == st.st_dev && held[i].ino == st.st_ino)
            return true;
    char path[4200];
    snprintf(path, sizeof path, "%s/.vmpi-ckpt.lock", dir);
    int fd = open_in(dfd, ".vmpi-ckpt.lock", path, O_RDWR | O_CREAT, err, errlen);
    if (fd < 0)
        return false;
    struct stat fst;
    if (!ours(fd, path, true, &fst, err, errlen)) {
        close(fd);
        return false;
    }
    if (!lock_wait(fd)) {
        char pid[32] = "";
        ssize_t n = pread(fd, pid, sizeof pid - 1, 0);
        pid[n > 0 ? n : 0] = '\0';
        snprintf(err, errlen, "another running job (process %s) writes its checkpoints in %s: use another directory",
                 pid[0] ? pid : "?", dir);
        close(fd);
        errno = EACCES;
        return false;
    }
    char me[32];
    int len = snprintf(me, sizeof me, "%d", (int)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, me, (size_t)len, 0) != len) {
        /* the pid is only for the message above */
    }
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
        vmpi_warn("the checkpoint directory %s can be written by others (mode %03o, no sticky bit): they can "
                  "replace or remove its checkpoints; use a directory only you can write", dir,
                  (unsigned)(st.st_mode & 07777));
    if (nheld < (int)(sizeof held / sizeof held[0])) /* beyond, the lock is kept all the same (fd left open) */
        held[nheld++] = (typeof(held[0])){st.st_dev, st.st_ino};
    return true;
}

/* The directory `dir` (made 0700 if missing) opened, and locked when `lock`: its descriptor, or -1 with
 * errno and a message in err. */
static int dir_open(const char *dir, bool lock, char *err, size_t errlen)
{
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        int e = errno;
        snprintf(err, errlen, "cannot create the checkpoint directory %s: %s", dir, strerror(e));
        errno = e;
        return -1;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        int e = errno;
        snprintf(err, errlen, "cannot use the checkpoint directory %s: %s", dir, strerror(e));
        errno = e;
        return -1;
    }
    if (lock && !dir_lock(dfd, dir, err, errlen)) {
        int e = errno;
        close(dfd);
        errno = e;
        return -1;
    }
    return dfd;
}

/* A writer on directory `dir`, no file open yet; NULL with errno and a message in err. */
static vmpi_ckpt_out *out_start(const char *dir, bool lock, char *err, size_t errlen)
{
    int dfd = dir_open(dir, lock, err, errlen);
    if (dfd < 0)
        return NULL;
    vmpi_ckpt_out *o = out_new();
    if (o == NULL) {
        snprintf(err, errlen, "out of memory starting a checkpoint in %s", dir);
        close(dfd);
        errno = ENOMEM;
        return NULL;
    }
    o->dfd = dfd;
    snprintf(o->dir, sizeof o->dir, "%s", dir);
    return o;
}

/* Creates the temporary of file `part` of checkpoint o->seq (O_EXCL: an existing name, link or not, is
 * never opened): false with errno and a message in err. */
static bool open_tmp(vmpi_ckpt_out *o, long part, char *err, size_t errlen)
{
    file_names(o->seq, part, o->tmp_name, o->final_name, sizeof o->tmp_name);
    snprintf(o->tmp, sizeof o->tmp, "%s/%s", o->dir, o->tmp_name);
    snprintf(o->final, sizeof o->final, "%s/%s", o->dir, o->final_name);
    o->fd = open_in(o->dfd, o->tmp_name, o->tmp, O_WRONLY | O_CREAT | O_EXCL, err, errlen);
    return o->fd >= 0;
}

static vmpi_ckpt_out *out_header(vmpi_ckpt_out *o)
{
    file_hdr h;
    hdr_fill(&h, o->seq, 0);
    out_write(o, &h, sizeof h);
    return o;
}

static vmpi_ckpt_out *out_failed(vmpi_ckpt_out *o)
{
    int e = errno;
    out_free(o);
    errno = e;
    return NULL;
}

vmpi_ckpt_out *vmpi_ckpt_create(const char *dir, char *err, size_t errlen)
{
    vmpi_ckpt_out *o = out_start(dir, true, err, errlen);
    if (o == NULL)
        return NULL;
    uint64_t complete, any;
    scan(o->dfd, &complete, &any);
    /* the next number; a name that appeared since the scan (planted?) is skipped, never opened */
    for (int tries = 0;; tries++) {
        o->seq = any + 1 + (uint64_t)tries;
        if (open_tmp(o, -1, err, errlen) || errno != EEXIST || tries == 16)
            break;
    }
    return o->fd >= 0 ? out_header(o) : out_failed(o);
}

int vmpi_ckpt_next_seq(const char *dir, bool lock, uint64_t *seq, char *err, size_t errlen)
{
    int dfd = dir_open(dir, lock, err, errlen);
    if (dfd < 0)
        return errno ? errno : EIO;
    uint64_t complete, any;
    scan(dfd, &complete, &any);
    close(dfd);
    *seq = any + 1;
    return 0;
}

vmpi_ckpt_out *vmpi_ckpt_create_at(const char *dir, uint64_t seq, long part, char *err, size_t errlen)
{
    vmpi_ckpt_out *o = out_start(dir, false, err, errlen);
    if (o == NULL)
        return NULL;
    o->seq = seq;
    return open_tmp(o, part, err, errlen) ? out_header(o) : out_failed(o);
}

void vmpi_ckpt_remove(const char *dir, uint64_t seq, long part)
{
    char tmp[64], final[64];
    file_names(seq, part, tmp, final, sizeof tmp);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return;
    unlinkat(dfd, final, 0);
    unlinkat(dfd, tmp, 0);
    fsync(dfd); /* a removed manifest must stay removed: its parts go next */
    close(dfd);
}

vmpi_ckpt_out *vmpi_ckpt_create_mem(vmpi_ckpt_membuf *mb, uint64_t seq)
{
    vmpi_ckpt_out *o = out_new();
    if (o == NULL)
        return NULL;
    o->fd = -1;
    o->mb = mb;
    mb->len = 0;
    o->seq = seq;
    return out_header(o);
}

struct vmpi_ckpt_map {
    int dfd;
    void *addr;
    size_t len;
    bool fresh;                         /* a new file, under its temporary name */
    char tmp_name[64], final_name[64];
    char path[4200];                    /* for messages */
};

static vmpi_ckpt_map *map_open(const char *dir, uint64_t seq, long part, bool fresh, char *err, size_t errlen)
{
    vmpi_ckpt_map *m = vmpi_sys_calloc(1, sizeof *m);
    if (m == NULL) {
        snprintf(err, errlen, "out of memory mapping a checkpoint file");
        errno = ENOMEM;
        return NULL;
    }
    m->fresh = fresh;
    file_names(seq, part, m->tmp_name, m->final_name, sizeof m->tmp_name);
    snprintf(m->path, sizeof m->path, "%s/%s", dir, fresh ? m->tmp_name : m->final_name);
    if ((m->dfd = dir_open(dir, false, err, errlen)) < 0) {
        int e = errno;
        vmpi_sys_free(m);
        errno = e;
        return NULL;
    }
    return m;
}

static vmpi_ckpt_map *map_failed(vmpi_ckpt_map *m, int fd, const char *what, int e, char *err, size_t errlen)
{
    if (what)
        snprintf(err, errlen, "%s %s: %s", what, m->path, strerror(e));
    if (fd >= 0)
        close(fd);
    if (m->fresh)
        unlinkat(m->dfd, m->tmp_name, 0);
    close(m->dfd);
    vmpi_sys_free(m);
    errno = e;
    return NULL;
}

vmpi_ckpt_map *vmpi_ckpt_map_part(const char *dir, uint64_t seq, long part, char *err, size_t errlen)
{
    vmpi_ckpt_map *m = map_open(dir, seq, part, false, err, errlen);
    if (m == NULL)
        return NULL;
    struct stat st;
    int fd = open_in(m->dfd, m->final_name, m->path, O_RDONLY, err, errlen);
    if (fd < 0 || !ours(fd, m->path, false, &st, err, errlen))
        return map_failed(m, fd, NULL, errno, err, errlen);
    if (st.st_size == 0)
        return map_failed(m, fd, "mapping", EINVAL, err, errlen);
    m->len = (size_t)st.st_size;
    m->addr = mmap(NULL, m->len, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (m->addr == MAP_FAILED)
        return map_failed(m, fd, "mapping", errno, err, errlen);
    close(fd);
    return m;
}

vmpi_ckpt_map *vmpi_ckpt_map_new(const char *dir, uint64_t seq, long part, size_t len, char *err, size_t errlen)
{
    vmpi_ckpt_map *m = map_open(dir, seq, part, true, err, errlen);
    if (m == NULL)
        return NULL;
    int fd = open_in(m->dfd, m->tmp_name, m->path, O_RDWR | O_CREAT | O_EXCL, err, errlen), e;
    if (fd < 0) {
        m->fresh = false; /* (not ours to remove) */
        return map_failed(m, fd, NULL, errno, err, errlen);
    }
    if (len == 0)
        return map_failed(m, fd, "creating", EINVAL, err, errlen);
    if ((e = posix_fallocate(fd, 0, (off_t)len)) != 0)
        return map_failed(m, fd, "allocating", e, err, errlen);
    m->len = len;
    m->addr = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (m->addr == MAP_FAILED)
        return map_failed(m, fd, "mapping", errno, err, errlen);
    close(fd);
    return m;
}

void *vmpi_ckpt_map_addr(const vmpi_ckpt_map *m) { return m->addr; }
size_t vmpi_ckpt_map_len(const vmpi_ckpt_map *m) { return m->len; }

int vmpi_ckpt_unmap(vmpi_ckpt_map *m, bool keep, char *err, size_t errlen)
{
    int e = 0;
    munmap(m->addr, m->len);
    if (m->fresh && keep && renameat(m->dfd, m->tmp_name, m->dfd, m->final_name) != 0) {
        e = errno;
        snprintf(err, errlen, "renaming %s: %s", m->path, strerror(e));
    }
    if (m->fresh && (!keep || e))
        unlinkat(m->dfd, m->tmp_name, 0);
    close(m->dfd);
    vmpi_sys_free(m);
    return e;
}

int vmpi_ckpt_putv(vmpi_ckpt_out *o, uint32_t type, uint32_t id, uint64_t addr, const vmpi_ckpt_piece *p, int n)
{
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    uint64_t len = 0;
    for (int i = 0; i < n; i++) {
        XXH3_64bits_update(&st, p[i].data, p[i].len);
        len += p[i].len;
    }
    sec_hdr s = {type, id, addr, len, XXH3_64bits_digest(&st), o->off, 0};
    s.sum = XXH3_64bits(&s, offsetof(sec_hdr, sum));
    if (type != END_TYPE)
        o->chain = XXH3_64bits_withSeed(&s, sizeof s, o->chain);
    out_write(o, &s, sizeof s);
    for (int i = 0; i < n; i++)
        out_write(o, p[i].data, p[i].len);
    o->nsec++;
    return o->err;
}

int vmpi_ckpt_put(vmpi_ckpt_out *o, uint32_t type, uint32_t id, uint64_t addr, const void *data, size_t len)
{
    vmpi_ckpt_piece p = {data, len};
    return vmpi_ckpt_putv(o, type, id, addr, &p, 1);
}

uint64_t vmpi_ckpt_written(const vmpi_ckpt_out *o) { return o->off; }
uint64_t vmpi_ckpt_out_seq(const vmpi_ckpt_out *o) { return o->seq; }
uint64_t vmpi_ckpt_out_digest(const vmpi_ckpt_out *o) { return o->chain; }
uint64_t vmpi_ckpt_out_total(const vmpi_ckpt_out *o) { return o->off + sizeof(sec_hdr); /* the end record */ }

void vmpi_ckpt_discard(vmpi_ckpt_out *o)
{
    if (o->fd >= 0) {
        close(o->fd);
        unlinkat(o->dfd, o->tmp_name, 0);
    } else {
        o->mb->len = 0;
    }
    out_free(o);
}

int vmpi_ckpt_commit(vmpi_ckpt_out *o, char *err, size_t errlen)
{
    vmpi_ckpt_put(o, END_TYPE, 0, o->nsec, NULL, 0);
    int e = o->err ? o->err : flush_stage(o);
    file_hdr h;
    hdr_fill(&h, o->seq, o->off);
    if (o->fd < 0) {
        if (!e)
            memcpy(o->mb->buf, &h, sizeof h);
        else
            o->mb->len = 0;
        out_free(o);
        return e;
    }
    const char *what = "writing";
    if (!e && pwrite(o->fd, &h, sizeof h, 0) != (ssize_t)sizeof h)
        e = errno ? errno : EIO;
    if (!e && fsync(o->fd) != 0) {
        e = errno;
        what = "flushing";
    }
    if (close(o->fd) != 0 && !e)
        e = errno;
    o->fd = -1;
    if (!e && renameat(o->dfd, o->tmp_name, o->dfd, o->final_name) != 0) {
        e = errno;
        what = "renaming";
    }
    if (e) {
        snprintf(err, errlen, "%s %s: %s (the previous checkpoint is kept)", what, o->tmp, strerror(e));
        unlinkat(o->dfd, o->tmp_name, 0);
        out_free(o);
        return e;
    }
    /* the rename itself must reach the disk before the old checkpoint goes: if it may not have, the new
     * one is complete and visible, but the old one is kept (the caller prunes only on success) */
    /* some filesystems cannot fsync a directory (EINVAL, EBADF): there is nothing more to wait for */
    if (fsync(o->dfd) != 0 && errno != EINVAL && errno != EBADF) {
        e = errno ? errno : EIO;
        snprintf(err, errlen, "flushing the directory %s after renaming %s: %s (the previous checkpoint is kept)",
                 o->dir, o->final, strerror(e));
    }
    out_free(o);
    return e;
}

uint64_t vmpi_ckpt_hash(const void *p, size_t len) { return XXH3_64bits(p, len); }

bool vmpi_ckpt_hash_file(const char *path, uint64_t *hash, uint64_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    char *buf = vmpi_sys_malloc(1 << 20);
    uint64_t n = 0;
    ssize_t r = -1;
    while (buf && (r = read(fd, buf, 1 << 20)) > 0) {
        XXH3_64bits_update(&st, buf, (size_t)r);
        n += (uint64_t)r;
    }
    vmpi_sys_free(buf);
    close(fd);
    *hash = XXH3_64bits_digest(&st);
    *size = n;
    return r == 0;
}

/* ---- reading ---- */

#define FAIL(in, ...) (snprintf((in)->err, sizeof (in)->err, __VA_ARGS__), -1)

static int in_read(vmpi_ckpt_in *in, void *dst, size_t n)
{
    if (in->off + n > in->total)
        return FAIL(in, "checkpoint %s: truncated (a record at byte %" PRIu64 " runs past the end)", in->name,
                    in->off);
    if (in->fd < 0) {
        memcpy(dst, in->mb->buf + in->off, n);
    } else {
        /* small records come from a read-ahead buffer (a restart reads tens of thousands of them); what the
         * buffer holds of a large one is taken from it, the rest read straight into its destination */
        char *c = dst;
        if (in->off >= in->rb_off && in->off < in->rb_off + in->rb_len) {
            size_t have = (size_t)(in->rb_off + in->rb_len - in->off), k = have < n ? have : n;
            memcpy(c, in->rb + (in->off - in->rb_off), k);
            c += k;
            n -= k;
            in->off += k;
        }
        if (n > 0 && n < READ_AHEAD / 4 && in->rb) {
            uint64_t want = in->total - in->off < READ_AHEAD ? in->total - in->off : READ_AHEAD;
            ssize_t r;
            while ((r = pread(in->fd, in->rb, (size_t)want, (off_t)in->off)) < 0 && errno == EINTR)
                ;
            in->rb_off = in->off;
            in->rb_len = r > 0 ? (size_t)r : 0;
            if ((size_t)in->rb_len >= n) {
                memcpy(c, in->rb, n);
                in->off += n;
                return 0;
            }
        }
        for (; n > 0;) {
            ssize_t r = pread(in->fd, c, n, (off_t)in->off);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                return FAIL(in, "checkpoint %s: %s at byte %" PRIu64, in->name,
                            r < 0 ? strerror(errno) : "truncated (unexpected end of file)", in->off);
            c += r;
            n -= (size_t)r;
            in->off += (uint64_t)r;
        }
        return 0;
    }
    in->off += n;
    return 0;
}

static vmpi_ckpt_in *in_open_hdr(vmpi_ckpt_in *in, uint64_t size, char *err, size_t errlen)
{
    file_hdr h;
    in->total = sizeof h;
    const char *problem = NULL;
    char buf[128];
    if (size < sizeof h || in_read(in, &h, sizeof h) != 0 || memcmp(h.magic, MAGIC, 8) != 0) {
        problem = size < sizeof h ? "truncated (shorter than its header)" : "not a vmpi checkpoint (bad magic)";
    } else if (h.version != VMPI_CKPT_VERSION) {
        snprintf(buf, sizeof buf, "written in format version %u; this vmpi reads version %u", h.version,
                 VMPI_CKPT_VERSION);
        problem = buf;
    } else if (h.hdr_size != sizeof h || h.sum != XXH3_64bits(&h, offsetof(file_hdr, sum))) {
        problem = "checksum mismatch in its header (corrupt)";
    } else if (h.total != size) {
        snprintf(buf, sizeof buf, "%s: %" PRIu64 " bytes instead of %" PRIu64,
                 size < h.total ? "truncated" : "has trailing bytes", size, h.total);
        problem = buf;
    }
    if (problem) {
        snprintf(err, errlen, "checkpoint %s: %s", in->name, problem);
        vmpi_ckpt_close(in);
        return NULL;
    }
    in->total = h.total;
    in->seq = h.seq;
    return in;
}

/* Opens `name` in directory `dfd` (`dir`) for reading. */
static vmpi_ckpt_in *open_named(int dfd, const char *dir, const char *name, char *err, size_t errlen)
{
    struct stat st;
    vmpi_ckpt_in *in = vmpi_sys_calloc(1, sizeof *in);
    if (in == NULL) {
        snprintf(err, errlen, "out of memory opening a checkpoint");
        return NULL;
    }
    snprintf(in->name, sizeof in->name, "%s/%s", dir, name);
    in->rb = vmpi_sys_malloc(READ_AHEAD); /* without it, every record is a system call */
    /* a restart loads the checkpoint's bytes as the ranks' memory: never another user's file, nor a link */
    in->fd = open_in(dfd, name, in->name, O_RDONLY, err, errlen);
    if (in->fd < 0 || !ours(in->fd, in->name, false, &st, err, errlen)) {
        vmpi_ckpt_close(in);
        return NULL;
    }
    return in_open_hdr(in, (uint64_t)st.st_size, err, errlen);
}

vmpi_ckpt_in *vmpi_ckpt_open(const char *dir, char *err, size_t errlen)
{
    uint64_t complete, any;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        snprintf(err, errlen, "no checkpoint in %s: %s", dir, errno == ENOTDIR ? "not a directory" : strerror(errno));
        return NULL;
    }
    scan(dfd, &complete, &any);
    if (complete == 0) {
        snprintf(err, errlen, "no checkpoint in %s (no complete vmpi-ckpt-*.ckpt file)", dir);
        close(dfd);
        return NULL;
    }
    char tmp[64], name[64];
    file_names(complete, -1, tmp, name, sizeof name);
    vmpi_ckpt_in *in = open_named(dfd, dir, name, err, errlen);
    close(dfd);
    return in;
}

vmpi_ckpt_in *vmpi_ckpt_open_part(const char *dir, uint64_t seq, long part, char *err, size_t errlen)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        snprintf(err, errlen, "cannot open the checkpoint directory %s: %s", dir, strerror(errno));
        return NULL;
    }
    char tmp[64], name[64];
    file_names(seq, part, tmp, name, sizeof name);
    vmpi_ckpt_in *in = open_named(dfd, dir, name, err, errlen);
    close(dfd);
    return in;
}

vmpi_ckpt_in *vmpi_ckpt_open_mem(const vmpi_ckpt_membuf *mb, char *err, size_t errlen)
{
    vmpi_ckpt_in *in = vmpi_sys_calloc(1, sizeof *in);
    if (in == NULL) {
        snprintf(err, errlen, "out of memory opening a checkpoint");
        return NULL;
    }
    in->fd = -1;
    in->mb = mb;
    snprintf(in->name, sizeof in->name, "(in memory)");
    return in_open_hdr(in, mb->len, err, errlen);
}

const char *vmpi_ckpt_name(const vmpi_ckpt_in *in) { return in->name; }
uint64_t vmpi_ckpt_size(const vmpi_ckpt_in *in) { return in->total; }
const char *vmpi_ckpt_error(const vmpi_ckpt_in *in) { return in->err; }
uint64_t vmpi_ckpt_in_seq(const vmpi_ckpt_in *in) { return in->seq; }
uint64_t vmpi_ckpt_in_digest(const vmpi_ckpt_in *in) { return in->chain; }

int vmpi_ckpt_next(vmpi_ckpt_in *in, vmpi_ckpt_sec *s)
{
    if (in->in_data && vmpi_ckpt_skip(in) != 0)
        return -1;
    sec_hdr h;
    uint64_t at = in->off;
    if (in_read(in, &h, sizeof h) != 0)
        return -1;
    if (h.sum != XXH3_64bits(&h, offsetof(sec_hdr, sum)) || h.offset != at)
        return FAIL(in, "checkpoint %s: checksum mismatch in the record at byte %" PRIu64 " (corrupt)", in->name, at);
    if (h.type == END_TYPE) {
        if (h.addr != in->nsec || in->off != in->total)
            return FAIL(in, "checkpoint %s: its end record does not match its contents (corrupt)", in->name);
        return 0;
    }
    in->chain = XXH3_64bits_withSeed(&h, sizeof h, in->chain);
    in->cur = h;
    in->in_data = true;
    in->nsec++;
    *s = (vmpi_ckpt_sec){h.type, h.id, h.addr, h.len};
    return 1;
}

/* Reads (dst) or skips (dst NULL) the current section's data in pieces, hashing as it goes. */
static int data(vmpi_ckpt_in *in, char *dst)
{
    if (!in->in_data)
        return FAIL(in, "checkpoint %s: internal error: no section to read", in->name);
    in->in_data = false;
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    char tmp[1 << 16];
    uint64_t start = in->off;
    for (uint64_t left = in->cur.len; left > 0;) {
        size_t n = dst ? (left > (64u << 20) ? (64u << 20) : (size_t)left) : (left > sizeof tmp ? sizeof tmp : (size_t)left);
        char *to = dst ? dst : tmp;
        if (in_read(in, to, n) != 0)
            return -1;
        XXH3_64bits_update(&st, to, n);
        if (dst)
            dst += n;
        left -= n;
    }
    if (XXH3_64bits_digest(&st) != in->cur.data_sum)
        return FAIL(in, "checkpoint %s: checksum mismatch in the data at byte %" PRIu64 " (corrupt)", in->name, start);
    return 0;
}

int vmpi_ckpt_read(vmpi_ckpt_in *in, void *dst) { return data(in, dst); }
int vmpi_ckpt_skip(vmpi_ckpt_in *in) { return data(in, NULL); }

void vmpi_ckpt_close(vmpi_ckpt_in *in)
{
    if (in == NULL)
        return;
    if (in->fd >= 0)
        close(in->fd);
    vmpi_sys_free(in->rb);
    vmpi_sys_free(in);
}
