/* SPDX-License-Identifier: BSD-3-Clause */
/* ckpt_cost: what a checkpoint costs (vmpi's AMPI_Migrate with "ampi_checkpoint", issue 6), against a plain
 * migration point and against the disk's own write bandwidth.
 *
 *   ckpt_cost -b BYTES_PER_JOB -r REPS -d DIR
 *
 * Every rank mallocs BYTES_PER_JOB / ranks bytes of state and fills every byte with a pattern of its rank
 * and the byte's offset (so every page is touched and every rank's state differs).  Then, REPS times, each
 * call between two barriers and timed on rank 0:
 *   migrate  AMPI_Migrate with ampi_load_balance=false: a migration point that checkpoints nothing;
 *   inmem    AMPI_Migrate with ampi_checkpoint=in_memory (a copy of every rank in the runtime's buffer);
 *   file     AMPI_Migrate with ampi_checkpoint=to_file=DIR (DIR/vmpi-ckpt-SEQ.ckpt, fsync'ed, renamed);
 *   raw      rank 0 alone: open a new file in DIR, write() as many bytes as the newest checkpoint file holds
 *            (from a buffer of that size, mapped and filled beforehand), fsync(), close(); then it is
 *            removed.  The disk's bandwidth for the same bytes, in the same run; the fsync part and the
 *            removal are reported on their own (raw_fsync, raw_unlink: a checkpoint removes the previous one).
 * Rank 0 prints the minimum and the median of each (ms), the newest checkpoint file's size and sequence
 * number, and the raw write's bytes.  Every rank then checks its state (a checkpoint must not change it).
 *
 * The newest checkpoint is the last repetition's "file" one.  `vmpirun --restart DIR -p P ckpt_cost ...`
 * resumes the job in that AMPI_Migrate; VMPIX_Restarted then says so, and every rank only checks its state,
 * byte for byte, and its rank and the job's size; rank 0 prints "restarted ok" and the job finalizes.  A rank
 * whose state is wrong prints what it found on stderr and the job ends with MPI_Abort (exit status 3).
 *
 * Output (rank 0): "# key: value" header lines, "name value" lines, "# done" (bench/run's format for its
 * vmpi-only programs).  Sizes take k, M, G suffixes (powers of 2).  The program has no mutable globals (it
 * is built with -privatize=auto like the other bench programs, but needs nothing from it). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include "bench_common.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROG "ckpt_cost"
#define MAX_REPS 1000

static void die(const char *msg)
{
    fprintf(stderr, PROG ": ERROR: %s\n", msg);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

static void check_mpi(int rc, const char *what)
{
    if (rc != MPI_SUCCESS) {
        char s[MPI_MAX_ERROR_STRING], msg[MPI_MAX_ERROR_STRING + 128];
        int len = 0;
        s[0] = '\0';
        MPI_Error_string(rc, s, &len);
        snprintf(msg, sizeof msg, "%s failed: %s (error %d)", what, s, rc);
        die(msg);
    }
}

/* "100M" -> 104857600; 0 if malformed */
/* The state's 8-byte word i of rank r: differs between ranks and between offsets. */
static uint64_t word_at(int r, size_t i)
{
    uint64_t z = ((uint64_t)(unsigned)r << 40) ^ (uint64_t)i;
    z *= 0x9e3779b97f4a7c15ull;
    return z ^ (z >> 29);
}

static unsigned char byte_at(int r, size_t off) { return (unsigned char)(word_at(r, off / 8) >> (8 * (off % 8))); }

static void fill(unsigned char *p, size_t n, int r)
{
    size_t words = n / 8;
    for (size_t i = 0; i < words; i++) {
        uint64_t w = word_at(r, i);
        memcpy(p + 8 * i, &w, 8);
    }
    for (size_t off = 8 * words; off < n; off++)
        p[off] = byte_at(r, off);
}

/* The offset of the first byte that is not the pattern's, or n. */
static size_t first_wrong(const unsigned char *p, size_t n, int r)
{
    size_t words = n / 8;
    for (size_t i = 0; i < words; i++) {
        uint64_t w;
        memcpy(&w, p + 8 * i, 8);
        if (w != word_at(r, i))
            for (size_t off = 8 * i;; off++)
                if (p[off] != byte_at(r, off))
                    return off;
    }
    for (size_t off = 8 * words; off < n; off++)
        if (p[off] != byte_at(r, off))
            return off;
    return n;
}

/* Every rank checks its state; rank 0 learns how many ranks found it wrong.  A wrong rank says where. */
static int count_wrong(const unsigned char *p, size_t n, int rank, const char *when)
{
    size_t at = first_wrong(p, n, rank);
    int bad = at != n, nbad = 0;
    if (bad)
        fprintf(stderr, PROG ": ERROR: rank %d: state wrong %s: byte %zu of %zu is 0x%02x, expected 0x%02x\n", rank,
                when, at, n, p[at], byte_at(rank, at));
    check_mpi(MPI_Reduce(&bad, &nbad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD), "MPI_Reduce");
    return nbad;
}

/* The newest DIR/vmpi-ckpt-SEQ.ckpt: its sequence number and size in bytes (seq 0 if there is none). */
static void newest_ckpt(const char *dir, unsigned long long *seq, long long *bytes)
{
    *seq = 0;
    *bytes = -1;
    DIR *d = opendir(dir);
    if (!d)
        return;
    char name[64] = "";
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        unsigned long long s;
        char tail[8];
        if (sscanf(e->d_name, "vmpi-ckpt-%llu.%7s", &s, tail) == 2 && !strcmp(tail, "ckpt") && s > *seq) {
            *seq = s;
            snprintf(name, sizeof name, "%s", e->d_name);
        }
    }
    struct stat st;
    if (*seq && fstatat(dirfd(d), name, &st, 0) == 0)
        *bytes = (long long)st.st_size;
    closedir(d);
}

/* Seconds of open + write + fsync + close of a new file of n bytes from buf in dir; *fsync_s the part of
 * it in fsync, *unlink_s the file's removal after (not in the result). */
static double raw_write(const char *dir, const unsigned char *buf, size_t n, double *fsync_s, double *unlink_s)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/ckpt_cost-raw-write.tmp", dir);
    unlink(path);
    double t0 = MPI_Wtime();
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        die("cannot create the raw-write file in the checkpoint directory");
    for (size_t done = 0; done < n;) {
        ssize_t w = write(fd, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            die("raw write: write() failed");
        done += (size_t)w;
    }
    double t1 = MPI_Wtime();
    if (fsync(fd) != 0)
        die("raw write: fsync() failed");
    *fsync_s = MPI_Wtime() - t1;
    if (close(fd) != 0)
        die("raw write: close() failed");
    double t = MPI_Wtime() - t0;
    t1 = MPI_Wtime();
    unlink(path);
    *unlink_s = MPI_Wtime() - t1;
    return t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* "NAME_min_ms" and "NAME_med_ms" of n times in seconds (sorted in place) */
static void report(const char *name, double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    double med = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    printf("%s_min_ms %.4f\n%s_med_ms %.4f\n", name, 1e3 * t[0], name, 1e3 * med);
}

/* One AMPI_Migrate with a single info key, between barriers; its seconds. */
static double timed_migrate(MPI_Info info, const char *what)
{
    check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    double t0 = MPI_Wtime();
    check_mpi(AMPI_Migrate(info), what);
    check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    return MPI_Wtime() - t0;
}

/* A job restarted from the last checkpoint: check, say so, finalize. */
static int restarted(const unsigned char *state, size_t n, int rank0, int size0)
{
    int rank, size, *pes, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &pes, &flag);
    if (rank != rank0 || size != size0) {
        fprintf(stderr, PROG ": ERROR: after the restart rank %d of %d believes it is rank %d of %d\n", rank, size,
                rank0, size0);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    int nbad = count_wrong(state, n, rank, "after the restart");
    if (rank == 0) {
        printf("# vmpi-bench " PROG " (restarted)\n# ranks: %d\n# pes: %d\n# bytes_per_rank: %zu\n", size,
               flag ? *pes : -1, n);
        if (nbad) {
            fprintf(stderr, PROG ": ERROR: %d of %d ranks have a wrong state after the restart\n", nbad, size);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        printf("restarted ok\n# done\n");
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); /* our checks say what failed */
    int rank, size, *pes, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &pes, &flag);
    unsigned long long job_bytes = 0;
    int reps = 0;
    const char *dir = NULL;
    for (int a = 1; a < argc; a++) { /* no getopt: its state is a global of libc, shared by the ranks */
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (!strcmp(argv[a], "-b") && v)
            job_bytes = bench_parse_size(argv[++a]);
        else if (!strcmp(argv[a], "-r") && v)
            reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-d") && v)
            dir = argv[++a];
        else
            reps = -1;
    }
    if (job_bytes == 0 || reps < 1 || reps > MAX_REPS || !dir || !*dir ||
        strlen(dir) + sizeof "to_file=" > MPI_MAX_INFO_VAL) {
        if (rank == 0)
            fprintf(stderr, "usage: " PROG " -b BYTES_PER_JOB (k/M/G) -r REPS (1-%d) -d DIR\n", MAX_REPS);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    size_t n = (size_t)(job_bytes / (unsigned long long)size);
    unsigned char *state = malloc(n ? n : 1);
    if (!state)
        die("out of memory for the state");
    fill(state, n, rank);

    char where[MPI_MAX_INFO_VAL];
    snprintf(where, sizeof where, "to_file=%s", dir);
    MPI_Info point, in_mem, to_file;
    MPI_Info_create(&point);
    MPI_Info_set(point, "ampi_load_balance", "false");
    MPI_Info_create(&in_mem);
    MPI_Info_set(in_mem, "ampi_checkpoint", "in_memory");
    MPI_Info_create(&to_file);
    MPI_Info_set(to_file, "ampi_checkpoint", where);

    /* times on rank 0 (heap: a rank's stack may be small) */
    double *t = calloc(6 * (size_t)reps, sizeof *t), *t_point = t, *t_mem = t + reps, *t_file = t + 2 * reps,
           *t_raw = t + 3 * reps, *t_fsync = t + 4 * reps, *t_unlink = t + 5 * reps;
    if (!t)
        die("out of memory");
    unsigned long long seq = 0;
    long long file_bytes = -1;
    unsigned char *raw = NULL;
    size_t raw_len = 0;
    AMPI_Migrate(point); /* warm-up: the first migration point sets things up */
    for (int r = 0; r < reps; r++) {
        t_point[r] = timed_migrate(point, "AMPI_Migrate (ampi_load_balance=false)");
        t_mem[r] = timed_migrate(in_mem, "AMPI_Migrate (ampi_checkpoint=in_memory)");

        check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
        double t0 = MPI_Wtime();
        check_mpi(AMPI_Migrate(to_file), "AMPI_Migrate (ampi_checkpoint=to_file)");
        int again = 0;
        VMPIX_Restarted(&again);
        if (again) /* a new job, restarted from this checkpoint (every rank alike) */
            return restarted(state, n, rank, size);
        check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
        t_file[r] = MPI_Wtime() - t0;

        if (rank == 0) { /* the disk alone, for as many bytes as the checkpoint */
            newest_ckpt(dir, &seq, &file_bytes);
            if (file_bytes <= 0)
                die("no checkpoint file in the directory after a checkpoint to it");
            if ((size_t)file_bytes != raw_len) {
                if (raw)
                    munmap(raw, raw_len);
                raw_len = (size_t)file_bytes;
                raw = mmap(NULL, raw_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (raw == MAP_FAILED)
                    die("out of memory for the raw-write buffer");
                fill(raw, raw_len, size);
            }
            t_raw[r] = raw_write(dir, raw, raw_len, &t_fsync[r], &t_unlink[r]);
        }
        check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    }
    int nbad = count_wrong(state, n, rank, "after the checkpoints");
    if (rank == 0) {
        if (nbad) {
            fprintf(stderr, PROG ": ERROR: %d of %d ranks have a wrong state after the checkpoints\n", nbad, size);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        munmap(raw, raw_len);
        printf("# vmpi-bench " PROG "\n# ranks: %d\n# pes: %d\n# reps: %d\n# dir: %s\n", size, flag ? *pes : -1,
               reps, dir);
        for (int r = 0; r < reps; r++)
            printf("# rep %d ms: migrate %.4f inmem %.4f file %.4f raw %.4f (fsync %.4f; unlink after %.4f)\n", r + 1,
                   1e3 * t_point[r], 1e3 * t_mem[r], 1e3 * t_file[r], 1e3 * t_raw[r], 1e3 * t_fsync[r],
                   1e3 * t_unlink[r]);
        printf("bytes_per_job %llu\nbytes_per_rank %zu\n", job_bytes, n);
        printf("inmem_first_ms %.4f\nfile_first_ms %.4f\n", 1e3 * t_mem[0], 1e3 * t_file[0]);
        report("migrate", t_point, reps);
        report("inmem", t_mem, reps);
        report("file", t_file, reps);
        report("raw", t_raw, reps);
        report("raw_fsync", t_fsync, reps);
        report("raw_unlink", t_unlink, reps);
        printf("ckpt_file_bytes %lld\nckpt_seq %llu\nraw_bytes %zu\n# done\n", file_bytes, seq, raw_len);
        fflush(stdout);
    }
    free(t);
    MPI_Info_free(&point);
    MPI_Info_free(&in_mem);
    MPI_Info_free(&to_file);
    free(state);
    MPI_Finalize();
    return 0;
}
