/* SPDX-License-Identifier: BSD-3-Clause */
/* memcpy_ref: not an MPI program.  The time of one memcpy (warm source and destination buffers, the same
 * two buffers every time) in µs, for the message sizes of osu_latency (0, 1, 2, 4, ... 4 MiB).  It is the
 * floor for moving a message inside one process, which is what vmpi does between ranks; bench/run shows it
 * beside the latency table and, as size / time, beside the bandwidth table.  The timed copies run in 5
 * batches and the median batch is reported.
 *
 * Options as the MPI programs: -m BYTES, -f N (size step factor), -i X (iteration scale), -t SEC (time cap
 * per size).  Output: the same "# ..." header, "<size> <µs>" lines and a final "# done". */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *msg)
{
    fprintf(stderr, "memcpy_ref: ERROR: %s\n", msg);
    exit(2);
}

/* The copy goes through a volatile function pointer and a compiler barrier so that it is neither inlined
 * into something cheaper nor dropped. */
static void copy_n(void *(*volatile cpy)(void *, const void *, size_t), unsigned char *d, const unsigned char *s,
                   size_t n, long count)
{
    for (long i = 0; i < count; i++) {
        cpy(d, s, n);
        __asm__ __volatile__("" : : "r"(d) : "memory");
    }
}

int main(int argc, char **argv)
{
    size_t max_size = (size_t)4 << 20;
    unsigned long factor = 2;
    double scale = 1.0, cap = 0.05;
    for (int i = 1; i < argc; i += 2) {
        char *end = NULL;
        if (i + 1 >= argc)
            die("option without value");
        if (!strcmp(argv[i], "-m"))
            max_size = (size_t)strtoull(argv[i + 1], &end, 10);
        else if (!strcmp(argv[i], "-f"))
            factor = strtoul(argv[i + 1], &end, 10);
        else if (!strcmp(argv[i], "-i"))
            scale = strtod(argv[i + 1], &end);
        else if (!strcmp(argv[i], "-t"))
            cap = strtod(argv[i + 1], &end);
        else
            die("unknown option (options: -m BYTES -f N -i X -t SEC)");
        if (!end || *end || factor < 2 || !(scale > 0) || !(cap > 0))
            die("malformed option value");
    }
    size_t alloc = (max_size + 4095) / 4096 * 4096 + 4096;
    unsigned char *src = aligned_alloc(4096, alloc), *dst = aligned_alloc(4096, alloc);
    if (!src || !dst)
        die("out of memory");
    for (size_t i = 0; i < alloc; i++)
        src[i] = (unsigned char)(i * 131u + (i >> 8));
    memset(dst, 0, alloc);
    void *(*volatile cpy)(void *, const void *, size_t) = memcpy;

    printf("# vmpi-bench memcpy_ref\n# library: libc memcpy\n# ranks: 1\n# unit: us\n# size memcpy_us\n");
    for (size_t n = 0; n <= max_size; n = n == 0 ? 1 : n * factor) {
        long nominal = n <= 8192 ? 100000 : (long)(((size_t)1 << 30) / n);
        if (nominal > 100000)
            nominal = 100000;
        nominal = (long)(nominal * scale);
        if (nominal < 10)
            nominal = 10;
        long skip = nominal / 10 < 10 ? 10 : nominal / 10;
        double t0 = now();
        copy_n(cpy, dst, src, n, skip);
        double warm = (now() - t0) / (double)skip;
        long iters = nominal;
        if (warm > 0 && cap / warm < (double)iters)
            iters = (long)(cap / warm);
        if (iters < 10)
            iters = 10;
        memset(dst, 0, n);
        /* 5 batches, each timed; the median batch is reported (as in the MPI programs) */
        double t[5];
        long per = (iters + 4) / 5;
        for (int b = 0; b < 5; b++) {
            t0 = now();
            copy_n(cpy, dst, src, n, per);
            t[b] = (now() - t0) / (double)per;
        }
        for (int i = 1; i < 5; i++)
            for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
                double x = t[j];
                t[j] = t[j - 1];
                t[j - 1] = x;
            }
        if (memcmp(dst, src, n) != 0)
            die("copy check failed");
        printf("%zu %.6g\n", n, t[2] * 1e6);
        fflush(stdout);
    }
    printf("# done\n");
    free(src);
    free(dst);
    return 0;
}
