/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test of the checkpoint file layer (src/ckpt):
 *   - sections written (whole and in pieces) read back with their types, ids, addresses and bytes, to a
 *     file and to memory; the end record is reached;
 *   - files are created 0600 in a directory created 0700; the temporary is invisible to readers until
 *     commit; after a second commit and a prune only the newest file is left; a discarded checkpoint leaves the
 *     previous one the newest;
 *   - every kind of damage is refused with its own words: a flipped data byte ("checksum mismatch in the
 *     data"), a flipped section-header byte ("checksum mismatch in the record"), truncation ("truncated"),
 *     trailing bytes, a foreign version ("version"), a foreign file ("not a vmpi checkpoint"), an empty
 *     directory ("no checkpoint");
 *   - flipping any single byte of a whole file is always detected (every offset of a small file);
 *   - a job of several processes' files: parts at an agreed number (a name taken is refused), digests equal
 *     written and read, parts without a manifest are no checkpoint, a crash's leftovers push the next number
 *     up, a prune keeps only the newest manifest's parts. */
#include "ckpt/ckpt.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "unit_check.h"

static char dir[256];
static char big[300000];

static void write_some(vmpi_ckpt_out *o)
{
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)(i * 7 + 3);
    CHECK(vmpi_ckpt_put(o, 1, 7, 0x1000, "hello", 5) == 0, "put");
    vmpi_ckpt_piece p[3] = {{"ab", 2}, {big, sizeof big}, {"", 0}};
    CHECK(vmpi_ckpt_putv(o, 2, 8, 0x2000, p, 3) == 0, "putv");
    CHECK(vmpi_ckpt_put(o, 3, 9, 0, NULL, 0) == 0, "empty put");
}

static void read_some(vmpi_ckpt_in *in)
{
    vmpi_ckpt_sec s;
    char buf[5];
    CHECK(vmpi_ckpt_next(in, &s) == 1 && s.type == 1 && s.id == 7 && s.addr == 0x1000 && s.len == 5, "section 1");
    CHECK(vmpi_ckpt_read(in, buf) == 0 && !memcmp(buf, "hello", 5), "section 1 data: %s", vmpi_ckpt_error(in));
    CHECK(vmpi_ckpt_next(in, &s) == 1 && s.type == 2 && s.id == 8 && s.len == 2 + sizeof big, "section 2");
    char *b = malloc(s.len);
    CHECK(vmpi_ckpt_read(in, b) == 0 && !memcmp(b, "ab", 2) && !memcmp(b + 2, big, sizeof big), "section 2 data");
    free(b);
    CHECK(vmpi_ckpt_next(in, &s) == 1 && s.type == 3 && s.len == 0, "section 3");
    CHECK(vmpi_ckpt_next(in, &s) == 0, "end: %s", vmpi_ckpt_error(in));
}

static char *newest(void)
{
    static char path[512];
    char err[4600];
    vmpi_ckpt_in *in = vmpi_ckpt_open(dir, err, sizeof err);
    if (in == NULL)
        return NULL;
    snprintf(path, sizeof path, "%s", vmpi_ckpt_name(in));
    vmpi_ckpt_close(in);
    return path;
}

/* Opens the newest checkpoint and reads it all; the first error's text, or "" when it is whole. */
static const char *damage_report(void)
{
    static char err[4600];
    vmpi_ckpt_in *in = vmpi_ckpt_open(dir, err, sizeof err);
    if (in == NULL)
        return err;
    vmpi_ckpt_sec s;
    int k;
    while ((k = vmpi_ckpt_next(in, &s)) == 1)
        if (vmpi_ckpt_skip(in) != 0)
            break;
    snprintf(err, sizeof err, "%s", k == 0 ? "" : vmpi_ckpt_error(in));
    vmpi_ckpt_close(in);
    return err;
}

static void flip(const char *path, off_t at)
{
    int fd = open(path, O_RDWR);
    unsigned char c;
    if (pread(fd, &c, 1, at) == 1) {
        c ^= 0x5a;
        if (pwrite(fd, &c, 1, at) != 1)
            CHECK(0, "cannot write %s", path);
    }
    close(fd);
}

static off_t size_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_size : -1;
}

/* closes *(int *)fd after 100 ms: a lock holder going away */
static void *close_later(void *fd)
{
    nanosleep(&(struct timespec){0, 100000000L}, NULL);
    close(*(int *)fd);
    return NULL;
}

int main(void)
{
    char err[4600];
    snprintf(dir, sizeof dir, "/tmp/vmpi-test-ckpt-%d/sub", (int)getpid());
    char parent[256];
    snprintf(parent, sizeof parent, "/tmp/vmpi-test-ckpt-%d", (int)getpid());
    mkdir(parent, 0700);
    CHECK(strstr(damage_report(), "no checkpoint") != NULL, "missing dir: %s", damage_report());

    /* a file: written, invisible until committed, read back */
    vmpi_ckpt_out *o = vmpi_ckpt_create(dir, err, sizeof err);
    CHECK(o != NULL, "create: %s", err);
    struct stat st;
    CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700, "dir mode %o", st.st_mode & 0777);
    write_some(o);
    CHECK(newest() == NULL, "a checkpoint is visible before its commit");
    CHECK(strstr(damage_report(), "no checkpoint") != NULL, "empty dir: %s", damage_report());
    CHECK(vmpi_ckpt_commit(o, err, sizeof err) == 0, "commit: %s", err);
    char first[512];
    snprintf(first, sizeof first, "%s", newest() ? newest() : "");
    CHECK(strstr(first, "vmpi-ckpt-1.ckpt") != NULL, "newest: %s", first);
    CHECK(stat(first, &st) == 0 && (st.st_mode & 0777) == 0600, "file mode %o", st.st_mode & 0777);
    vmpi_ckpt_in *in = vmpi_ckpt_open(dir, err, sizeof err);
    CHECK(in != NULL, "open: %s", err);
    if (in) {
        read_some(in);
        vmpi_ckpt_close(in);
    }

    /* a discarded one leaves the first the newest; a second commit removes the first */
    o = vmpi_ckpt_create(dir, err, sizeof err);
    write_some(o);
    vmpi_ckpt_discard(o);
    CHECK(newest() && !strcmp(newest(), first), "after a discard: %s", newest() ? newest() : "none");
    o = vmpi_ckpt_create(dir, err, sizeof err);
    write_some(o);
    CHECK(vmpi_ckpt_commit(o, err, sizeof err) == 0, "commit 2: %s", err);
    CHECK(access(first, F_OK) == 0, "the previous checkpoint went before vmpi_ckpt_prune");
    vmpi_ckpt_prune(dir);
    char *second = newest();
    CHECK(second && strstr(second, "vmpi-ckpt-2.ckpt") && access(first, F_OK) != 0,
          "after a second commit: newest %s, first %s", second ? second : "none",
          access(first, F_OK) == 0 ? "still there" : "gone");
    char path[512];
    snprintf(path, sizeof path, "%s", second ? second : "");

    /* names that only look like checkpoints are neither the newest nor removed (a negative or signed
     * sequence number would wrap the next one) */
    static const char *const odd[] = {"vmpi-ckpt--1.ckpt", "vmpi-ckpt-+9.ckpt", "vmpi-ckpt-05.ckpt",
                                      "vmpi-ckpt-7.ckpt.bak", ".vmpi-ckpt-x.tmp"};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        char p2[600];
        snprintf(p2, sizeof p2, "%s/%s", dir, odd[i]);
        fclose(fopen(p2, "w"));
    }
    o = vmpi_ckpt_create(dir, err, sizeof err);
    write_some(o);
    CHECK(vmpi_ckpt_commit(o, err, sizeof err) == 0, "commit 3: %s", err);
    vmpi_ckpt_prune(dir);
    CHECK(newest() && strstr(newest(), "vmpi-ckpt-3.ckpt"), "with odd names around, the newest is %s",
          newest() ? newest() : "none");
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        char p2[600];
        snprintf(p2, sizeof p2, "%s/%s", dir, odd[i]);
        CHECK(access(p2, F_OK) == 0, "%s was removed", odd[i]);
        unlink(p2);
    }
    snprintf(path, sizeof path, "%s", newest() ? newest() : "");

    /* another job's lock on the directory: its checkpoints are refused, naming the process */
    {
        char other[300], lk[600];
        snprintf(other, sizeof other, "%s/other", parent);
        mkdir(other, 0700);
        snprintf(lk, sizeof lk, "%s/.vmpi-ckpt.lock", other);
        int fd = open(lk, O_RDWR | O_CREAT, 0600);
        CHECK(fd >= 0 && flock(fd, LOCK_EX) == 0 && pwrite(fd, "4242", 4, 0) == 4, "cannot lock %s", lk);
        o = vmpi_ckpt_create(other, err, sizeof err);
        CHECK(o == NULL && strstr(err, "another running job (process 4242)"), "a locked directory: %s",
              o ? "accepted" : err);
        if (o)
            vmpi_ckpt_discard(o);
        close(fd); /* released: it is ours now, for the rest of the process */
        o = vmpi_ckpt_create(other, err, sizeof err);
        CHECK(o != NULL, "an unlocked directory: %s", err);
        if (o)
            vmpi_ckpt_discard(o);
    }

    /* a holder that lets go within the wait (a job killed a moment ago, still being torn down): the checkpoint
     * is taken, not refused */
    {
        char dying[300], lk[600];
        snprintf(dying, sizeof dying, "%s/dying", parent);
        mkdir(dying, 0700);
        snprintf(lk, sizeof lk, "%s/.vmpi-ckpt.lock", dying);
        int fd = open(lk, O_RDWR | O_CREAT, 0600);
        CHECK(fd >= 0 && flock(fd, LOCK_EX) == 0, "cannot lock %s", lk);
        pthread_t t;
        CHECK(pthread_create(&t, NULL, close_later, &fd) == 0, "pthread_create");
        o = vmpi_ckpt_create(dying, err, sizeof err);
        CHECK(o != NULL, "a directory whose holder lets go after 100 ms: %s", o ? "" : err);
        if (o)
            vmpi_ckpt_discard(o);
        pthread_join(t, NULL);
    }

    /* memory */
    vmpi_ckpt_membuf mb = {0};
    o = vmpi_ckpt_create_mem(&mb, 1);
    write_some(o);
    CHECK(vmpi_ckpt_commit(o, err, sizeof err) == 0, "memory commit");
    in = vmpi_ckpt_open_mem(&mb, err, sizeof err);
    CHECK(in != NULL, "open memory: %s", err);
    if (in) {
        read_some(in);
        vmpi_ckpt_close(in);
    }
    free(mb.buf); /* the system allocator's: this program does not interpose malloc */

    /* damage */
    off_t size = size_of(path);
    CHECK(strcmp(damage_report(), "") == 0, "whole file refused: %s", damage_report());
    flip(path, 64 + 48 + 5 + 48 + 1000); /* inside section 2's data */
    CHECK(strstr(damage_report(), "checksum mismatch in the data"), "flipped data: %s", damage_report());
    flip(path, 64 + 48 + 5 + 48 + 1000);
    flip(path, 64 + 48 + 5 + 10); /* section 2's header */
    CHECK(strstr(damage_report(), "checksum mismatch in the record"), "flipped header: %s", damage_report());
    flip(path, 64 + 48 + 5 + 10);
    flip(path, 9); /* the version */
    CHECK(strstr(damage_report(), "version"), "foreign version: %s", damage_report());
    flip(path, 9);
    flip(path, 0);
    CHECK(strstr(damage_report(), "not a vmpi checkpoint"), "bad magic: %s", damage_report());
    flip(path, 0);
    CHECK(truncate(path, size - 100) == 0 && strstr(damage_report(), "truncated"), "truncated: %s", damage_report());
    CHECK(truncate(path, 30) == 0 && strstr(damage_report(), "truncated"), "truncated header: %s", damage_report());

    /* any single flipped byte of a small file */
    o = vmpi_ckpt_create(dir, err, sizeof err);
    vmpi_ckpt_put(o, 1, 1, 0, "abcdefgh", 8);
    vmpi_ckpt_put(o, 2, 2, 0, "ijkl", 4);
    CHECK(vmpi_ckpt_commit(o, err, sizeof err) == 0, "commit small: %s", err);
    snprintf(path, sizeof path, "%s", newest() ? newest() : "");
    size = size_of(path);
    int missed = 0;
    for (off_t at = 0; at < size; at++) {
        flip(path, at);
        missed += strcmp(damage_report(), "") == 0;
        flip(path, at);
    }
    CHECK(missed == 0, "%d of %lld flipped bytes not detected", missed, (long long)size);
    CHECK(strcmp(damage_report(), "") == 0, "restored small file refused: %s", damage_report());

    /* a job of several processes: parts at an agreed number, then the manifest; parts alone are no
     * checkpoint; digests match between writer and reader; a prune keeps only the newest's parts */
    char pdir[300];
    snprintf(pdir, sizeof pdir, "%s/procs", parent);
    for (int round = 0; round < 2; round++) {
        uint64_t seq = 0, digest[2] = {0, 0};
        CHECK(vmpi_ckpt_next_seq(pdir, true, &seq, err, sizeof err) == 0 && seq == (uint64_t)round * 2 + 1,
              "next_seq round %d: %llu (%s)", round, (unsigned long long)seq, err);
        for (long k = 0; k < 2; k++) {
            o = vmpi_ckpt_create_at(pdir, seq, k, err, sizeof err);
            CHECK(o != NULL, "create part %ld: %s", k, err);
            if (o == NULL)
                continue;
            write_some(o);
            digest[k] = vmpi_ckpt_out_digest(o);
            uint64_t total = vmpi_ckpt_out_total(o);
            CHECK(vmpi_ckpt_commit(o, err, sizeof err) == 0, "commit part %ld: %s", k, err);
            in = vmpi_ckpt_open_part(pdir, seq, k, err, sizeof err);
            CHECK(in != NULL && vmpi_ckpt_size(in) == total && vmpi_ckpt_in_seq(in) == seq, "open part %ld: %s", k,
                  in ? "size or number" : err);
            if (in) {
                read_some(in);
                CHECK(vmpi_ckpt_in_digest(in) == digest[k], "part %ld: digest read differs from written", k);
                vmpi_ckpt_close(in);
            }
        }
        CHECK(digest[0] == digest[1], "the same sections give different digests");
        snprintf(path, sizeof path, "%s/.vmpi-ckpt-%llu.p5.tmp", pdir, (unsigned long long)seq);
        fclose(fopen(path, "w")); /* planted at a name a process will create: refused, never opened */
        o = vmpi_ckpt_create_at(pdir, seq, 5, err, sizeof err);
        CHECK(o == NULL && strstr(err, "File exists"), "a part's name taken: %s", o ? "created" : err);
        if (o)
            vmpi_ckpt_discard(o);
        unlink(path);
        in = vmpi_ckpt_open(pdir, err, sizeof err);
        CHECK(round == 0 ? in == NULL && strstr(err, "no checkpoint") : in && vmpi_ckpt_in_seq(in) == 1,
              "round %d, parts without a manifest: %s", round, in ? vmpi_ckpt_name(in) : err);
        vmpi_ckpt_close(in);
        if (round == 1) /* the second round's parts stay without their manifest (a crash): a new number */
            break;
        o = vmpi_ckpt_create_at(pdir, seq, -1, err, sizeof err);
        CHECK(o != NULL, "create manifest: %s", err);
        if (o) {
            vmpi_ckpt_put(o, 1, 0, 0, "manifest", 8);
            CHECK(vmpi_ckpt_commit(o, err, sizeof err) == 0, "commit manifest: %s", err);
        }
        in = vmpi_ckpt_open(pdir, err, sizeof err);
        CHECK(in && vmpi_ckpt_in_seq(in) == seq && strstr(vmpi_ckpt_name(in), "vmpi-ckpt-1.ckpt"), "manifest: %s",
              in ? vmpi_ckpt_name(in) : err);
        vmpi_ckpt_close(in);
        /* a crash's leftover at the next number: the next checkpoint's number goes above it */
        snprintf(path, sizeof path, "%s/.vmpi-ckpt-2.p1.tmp", pdir);
        fclose(fopen(path, "w"));
    }
    vmpi_ckpt_prune(pdir);
    static const char *const kept[] = {"vmpi-ckpt-1.ckpt", "vmpi-ckpt-1.p0.part", "vmpi-ckpt-1.p1.part"};
    static const char *const gone[] = {".vmpi-ckpt-2.p1.tmp", "vmpi-ckpt-3.p0.part", "vmpi-ckpt-3.p1.part"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", pdir, kept[i]);
        CHECK(access(path, F_OK) == 0, "prune removed %s", kept[i]);
        snprintf(path, sizeof path, "%s/%s", pdir, gone[i]);
        CHECK(access(path, F_OK) != 0, "prune left %s", gone[i]);
    }
    vmpi_ckpt_remove(pdir, 1, 1);
    snprintf(path, sizeof path, "%s/vmpi-ckpt-1.p1.part", pdir);
    CHECK(access(path, F_OK) != 0, "vmpi_ckpt_remove left %s", path);

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", parent);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", parent);
    if (errs == 0)
        printf(" No Errors\n");
    return errs != 0;
}
