/* SPDX-License-Identifier: BSD-3-Clause */
/* privatize_startup: what privatizing a program's globals costs at start-up and in memory.  The program has
 * a large data segment (10 MiB of initialized globals in .data, 1 MiB in .bss) and is built three times,
 * one per method (-privatize=auto, tls, none: PRIV_METHOD).  Rank 0 reports, after MPI_Init and a barrier
 * (all ranks are then in main, past MPI_Init):
 *
 *   startup_launch_ms  CLOCK_MONOTONIC now minus $VMPI_BENCH_T0 (the launcher's CLOCK_MONOTONIC, in ns,
 *                      taken just before it started vmpirun; the clock is system-wide): exec of vmpirun and
 *                      of the program, libvmpi's start, every rank's copy of the program and constructors,
 *                      MPI_Init.  Absent when the variable is not set.
 *   startup_proc_ms    the same from the process's start time in /proc/self/stat (clock ticks of
 *                      CLOCK_BOOTTIME, so 10 ms resolution; no launcher needed).
 * then, in three phases separated by barriers, the process's memory (/proc/self/status: VmRSS, RssAnon,
 * RssFile, VmPTE, in KiB) and its number of mappings (lines of /proc/self/maps):
 *   idle   nothing touched the big globals;
 *   read   every rank read one word of every page of its data segment (.data and .bss);
 *   write  every rank wrote one word of every page of it (its rank number): with auto, every page is then a
 *          private copy (copy-on-write of .data, zero-fill of .bss), the worst case of memory per rank.
 * write_ms is the wall time of the write phase (all ranks, barrier to barrier).  private_ranks counts the
 * ranks that read back only their own values after every rank wrote: all of them with auto, few or none
 * with tls and none (the ranks share one data segment), so the program also checks the method it measures.
 *
 * Options: -s  start-up only (MPI_Init, barrier, report, MPI_Finalize; for timing the whole run from
 *              outside); -W  no write phase; -R  no read phase (then the writes find no page mapped: with
 *              several PEs, a write to a page the read phase mapped must also flush the other PEs' TLBs,
 *              an interrupt to each, slow in a virtual machine).  The write phase is skipped with a note when the private
 *              copies it would make (ranks x 11 MiB) exceed half of MemAvailable.
 * Output (rank 0): "# key: value" header lines, then "name value" lines, then "# done". */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef PRIV_METHOD
#define PRIV_METHOD "unknown"
#endif

#define PAGE 4096
#define DATA_BYTES (10u << 20)
#define BSS_BYTES (1u << 20)

/* Initialized, not all zero: the whole array lands in .data (10 MiB in the file) */
unsigned char big_data[DATA_BYTES] __attribute__((aligned(PAGE))) = {1, 2, 3, 4, 5, 6, 7, 8};
unsigned char big_bss[BSS_BYTES] __attribute__((aligned(PAGE)));

static double mono(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ms since the launcher's time stamp, or -1 */
static double since_launch_ms(void)
{
    const char *t0 = getenv("VMPI_BENCH_T0");
    if (!t0 || !*t0)
        return -1;
    return (mono(CLOCK_MONOTONIC) - 1e-9 * strtod(t0, NULL)) * 1e3;
}

/* Reads a /proc file into `buf` (NUL-terminated); false if it cannot be opened. */
static bool read_text(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = '\0';
    return true;
}

/* ms since the process started (fork of the launcher's child, which exec'd vmpirun and then the program) */
static double since_proc_start_ms(void)
{
    char buf[1024];
    if (!read_text("/proc/self/stat", buf, sizeof buf))
        return -1;
    char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    if (!p)
        return -1;
    unsigned long long start = 0;
    /* after ")": field 3 (state) ... field 22 (starttime) */
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
               &start) != 1)
        return -1;
    return (mono(CLOCK_BOOTTIME) - (double)start / (double)sysconf(_SC_CLK_TCK)) * 1e3;
}

typedef struct mem {
    long rss, anon, file, pte, maps;
} mem;

static long status_kb(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    return p ? atol(p + strlen(key)) : -1;
}

static mem read_mem(void)
{
    mem m = {-1, -1, -1, -1, 0};
    static char text[8192]; /* rank 0 only */
    if (read_text("/proc/self/status", text, sizeof text)) {
        m.rss = status_kb(text, "VmRSS:");
        m.anon = status_kb(text, "RssAnon:");
        m.file = status_kb(text, "RssFile:");
        m.pte = status_kb(text, "VmPTE:");
    }
    FILE *f = fopen("/proc/self/maps", "r");
    if (f) {
        int c;
        while ((c = getc(f)) != EOF)
            m.maps += c == '\n';
        fclose(f);
    }
    return m;
}

static void report_mem(const char *phase, mem m)
{
    printf("%s_rss_kb %ld\n%s_anon_kb %ld\n%s_file_kb %ld\n%s_pte_kb %ld\n%s_maps %ld\n", phase, m.rss, phase,
           m.anon, phase, m.file, phase, m.pte, phase, m.maps);
}

static long mem_available_kb(void)
{
    char text[4096];
    if (!read_text("/proc/meminfo", text, sizeof text))
        return -1;
    return status_kb(text, "MemAvailable:");
}

/* one word per page: enough to map (read) or copy (write) every page */
static unsigned long read_pages(volatile unsigned char *p, size_t n)
{
    unsigned long sum = 0;
    for (size_t i = 0; i < n; i += PAGE)
        sum += p[i];
    return sum;
}

static void write_pages(unsigned char *p, size_t n, unsigned v)
{
    for (size_t i = 0; i < n; i += PAGE)
        *(volatile unsigned *)(p + i) = v;
}

static int own_pages(unsigned char *p, size_t n, unsigned v)
{
    for (size_t i = 0; i < n; i += PAGE)
        if (*(volatile unsigned *)(p + i) != v)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Barrier(MPI_COMM_WORLD);
    double launch_ms = since_launch_ms(), proc_ms = since_proc_start_ms();
    int rank, size, *pes, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &pes, &flag);
    int startup_only = 0, no_write = 0, no_read = 0;
    for (int a = 1; a < argc; a++) { /* no getopt: its state is a global of libc, shared by the ranks */
        if (!strcmp(argv[a], "-s"))
            startup_only = 1;
        else if (!strcmp(argv[a], "-W"))
            no_write = 1;
        else if (!strcmp(argv[a], "-R"))
            no_read = 1;
        else {
            if (rank == 0)
                fprintf(stderr, "privatize_startup: usage: privatize_startup [-s] [-W] [-R]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (rank == 0) {
        printf("# vmpi-bench privatize_startup\n# method: %s\n# ranks: %d\n# pes: %d\n", PRIV_METHOD, size,
               flag ? *pes : -1);
        printf("# data: %u KiB .data + %u KiB .bss\n", DATA_BYTES >> 10, BSS_BYTES >> 10);
        if (launch_ms >= 0)
            printf("startup_launch_ms %.2f\n", launch_ms);
        printf("startup_proc_ms %.0f\n", proc_ms);
        fflush(stdout);
    }
    if (startup_only)
        goto done;

    if (rank == 0)
        report_mem("idle", read_mem());
    if (!no_read) {
        MPI_Barrier(MPI_COMM_WORLD);
        unsigned long sum = read_pages(big_data, DATA_BYTES) + read_pages(big_bss, BSS_BYTES);
        if (sum == (unsigned long)-1) /* keeps the reads */
            printf("?\n");
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0)
            report_mem("read", read_mem());
    }

    /* the write phase: refuse it if the private copies could exhaust the machine */
    int skip = no_write;
    if (rank == 0 && !skip && !strcmp(PRIV_METHOD, "auto")) {
        long avail = mem_available_kb();
        long need = (long)size * ((DATA_BYTES + BSS_BYTES) >> 10);
        if (avail >= 0 && need > avail / 2) {
            printf("# write phase skipped: %d private copies need %ld MiB, MemAvailable is %ld MiB\n", size,
                   need >> 10, avail >> 10);
            skip = 1;
        }
    }
    MPI_Bcast(&skip, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!skip) {
        unsigned v = (unsigned)rank + 1;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        write_pages(big_data, DATA_BYTES, v);
        write_pages(big_bss, BSS_BYTES, v);
        MPI_Barrier(MPI_COMM_WORLD);
        double t1 = MPI_Wtime();
        int own = own_pages(big_data, DATA_BYTES, v) && own_pages(big_bss, BSS_BYTES, v), owners = 0;
        MPI_Reduce(&own, &owners, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            report_mem("write", read_mem());
            printf("write_ms %.2f\nprivate_ranks %d\n", (t1 - t0) * 1e3, owners);
        }
    }
done:
    if (rank == 0) {
        printf("# done\n");
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
