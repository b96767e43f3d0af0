/* SPDX-License-Identifier: BSD-3-Clause */
/* pack_bw: MPI_Pack or MPI_Unpack bandwidth of a derived datatype, one process (other ranks only join the
 * barriers).  -k MODE picks what is measured:
 *   vector-pack, vector-unpack: a vector of doubles, every other one (MPI_Type_vector(n, 1, 2, MPI_DOUBLE)),
 *       one instance per call: size = 8 n bytes of data;
 *   struct-pack, struct-unpack: an array of struct { int id; double x[3]; float m; } (32 bytes of data in a
 *       40-byte extent, a hole after id and at the end), `count` instances per call: size = 32 count.
 * Prints MB/s (10^6 bytes of data per second) for data sizes 32 B .. 4 MiB (-m), as the other programs.
 *
 * Checks: after the timed loop of each size, the packed buffer holds the typemap's values in order (pack),
 * or the typed buffer holds the packed values at the typemap's places and its holes are untouched (unpack). */
#include <stddef.h>
#include "bench_common.h"

#define PROG "pack_bw"
#define CHK(call) bench_check_mpi(PROG, (call), #call)

typedef struct rec {
    int id;
    double x[3];
    float m;
} rec;

typedef struct ctx {
    int rank, unpack;
    MPI_Datatype dt;
    int count;
    void *typed;
    unsigned char *packed;
    int bytes;
} ctx;

static void body(void *p, long first, long count)
{
    ctx *c = p;
    (void)first;
    if (c->rank != 0)
        return;
    for (long it = 0; it < count; it++) {
        int pos = 0;
        if (c->unpack)
            CHK(MPI_Unpack(c->packed, c->bytes, &pos, c->typed, c->count, c->dt, MPI_COMM_SELF));
        else
            CHK(MPI_Pack(c->typed, c->count, c->dt, c->packed, c->bytes, &pos, MPI_COMM_SELF));
        __asm__ __volatile__("" : : "r"(c->packed), "r"(c->typed) : "memory");
    }
}

static MPI_Datatype struct_type(void)
{
    MPI_Datatype t;
    int bl[3] = {1, 3, 1};
    MPI_Aint dp[3] = {offsetof(rec, id), offsetof(rec, x), offsetof(rec, m)};
    MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_FLOAT};
    CHK(MPI_Type_create_struct(3, bl, dp, ty, &t));
    CHK(MPI_Type_commit(&t));
    return t;
}

/* Value of data element k (in typemap order) for the checks. */
static double value(size_t k) { return (double)(k % 1000003) + 0.25; }

static void fill_typed(ctx *c, int vec, size_t n)
{
    if (vec) {
        double *d = c->typed;
        for (size_t i = 0; i < 2 * n; i++)
            d[i] = i % 2 ? -1.0 : value(i / 2);
    } else {
        rec *r = c->typed;
        memset(r, 0x7f, sizeof(rec) * n); /* holes get a known byte */
        for (size_t i = 0; i < n; i++) {
            r[i].id = (int)i;
            for (int k = 0; k < 3; k++)
                r[i].x[k] = value(3 * i + k);
            r[i].m = (float)i;
        }
    }
}

static void check(ctx *c, int vec, size_t n)
{
    char msg[160];
    if (!c->unpack) {
        /* the packed data must be the typemap's values in order */
        unsigned char *p = c->packed;
        for (size_t i = 0; i < n; i++) {
            int ok;
            if (vec) {
                double d;
                memcpy(&d, p + 8 * i, 8);
                ok = d == value(i);
            } else {
                int id;
                double x[3];
                float m;
                memcpy(&id, p + 32 * i, 4);
                memcpy(x, p + 32 * i + 4, 24);
                memcpy(&m, p + 32 * i + 28, 4);
                ok = id == (int)i && x[0] == value(3 * i) && x[2] == value(3 * i + 2) && m == (float)i;
            }
            if (!ok) {
                snprintf(msg, sizeof msg, "pack check failed: %zu elements, element %zu", n, i);
                bench_die(PROG, msg);
            }
        }
        return;
    }
    /* unpack: fill the packed buffer from a reference type, unpack once more and compare */
    int pos = 0;
    fill_typed(c, vec, n);
    CHK(MPI_Pack(c->typed, c->count, c->dt, c->packed, c->bytes, &pos, MPI_COMM_SELF));
    size_t tbytes = vec ? 16 * n : sizeof(rec) * n;
    unsigned char *want = malloc(tbytes);
    if (!want)
        bench_die(PROG, "out of memory");
    memcpy(want, c->typed, tbytes);
    memset(c->typed, 0x7f, tbytes);
    if (vec)
        for (size_t i = 0; i < n; i++)
            memset(want + 16 * i + 8, 0x7f, 8);
    else
        for (size_t i = 0; i < n; i++) {
            memset(want + sizeof(rec) * i + 4, 0x7f, offsetof(rec, x) - 4);
            memset(want + sizeof(rec) * i + offsetof(rec, m) + 4, 0x7f, sizeof(rec) - offsetof(rec, m) - 4);
        }
    pos = 0;
    CHK(MPI_Unpack(c->packed, c->bytes, &pos, c->typed, c->count, c->dt, MPI_COMM_SELF));
    if (memcmp(want, c->typed, tbytes) != 0) {
        snprintf(msg, sizeof msg, "unpack check failed: %zu elements", n);
        bench_die(PROG, msg);
    }
    free(want);
}

int main(int argc, char **argv)
{
    int rank, nranks;
    bench_opts o;
    MPI_Init(&argc, &argv);
    CHK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHK(MPI_Comm_size(MPI_COMM_WORLD, &nranks));
    /* -k MODE is this program's own option; the rest are the common ones */
    const char *mode = "vector-pack";
    char **rest = malloc(sizeof(char *) * (size_t)(argc + 1));
    if (!rest)
        bench_die(PROG, "out of memory");
    int nrest = 0;
    for (int i = 0; i < argc; i++) {
        if (i > 0 && !strcmp(argv[i], "-k") && i + 1 < argc)
            mode = argv[++i];
        else
            rest[nrest++] = argv[i];
    }
    bench_parse_opts(PROG, nrest, rest, &o, (size_t)4 << 20);
    free(rest);
    int vec = !strncmp(mode, "vector-", 7), unpack = strstr(mode, "-unpack") != NULL;
    if ((!vec && strncmp(mode, "struct-", 7)) || (!unpack && !strstr(mode, "-pack")))
        bench_die(PROG, "-k needs vector-pack, vector-unpack, struct-pack or struct-unpack");

    MPI_Datatype st = vec ? MPI_DATATYPE_NULL : struct_type();
    size_t maxn = o.max_size / (vec ? 8 : 32) + 1;
    void *typed = bench_alloc(PROG, maxn * (vec ? 16 : sizeof(rec)));
    unsigned char *packed = bench_alloc(PROG, o.max_size + 64);
    char name[64];
    snprintf(name, sizeof name, "%s_MBps", mode);
    bench_header(PROG, rank, nranks, "MB/s", name);

    for (size_t size = 32; size <= o.max_size; size = bench_next_size(size, &o)) {
        size_t n = size / (vec ? 8 : 32);
        ctx c = {rank, unpack, st, 1, typed, packed, (int)size};
        if (vec) {
            CHK(MPI_Type_vector((int)n, 1, 2, MPI_DOUBLE, &c.dt));
            CHK(MPI_Type_commit(&c.dt));
        } else {
            c.count = (int)n;
        }
        fill_typed(&c, vec, n);
        if (unpack) {
            int pos = 0;
            CHK(MPI_Pack(typed, c.count, c.dt, packed, c.bytes, &pos, MPI_COMM_SELF));
        }
        int small = size <= 65536;
        long big = (long)(((size_t)1 << 30) / size);
        int nominal = bench_scaled(small ? 20000 : (int)(big < 10 ? 10 : big > 20000 ? 20000 : big), &o, 5);
        double t = bench_time(PROG, rank, &o, body, &c, bench_scaled(small ? 1000 : 3, &o, 2), nominal, 5);
        if (rank == 0) {
            check(&c, vec, n);
            printf("%zu %.6g\n", size, (double)size / t / 1e6);
            fflush(stdout);
        }
        if (vec)
            CHK(MPI_Type_free(&c.dt));
    }
    bench_footer(rank);
    if (!vec)
        CHK(MPI_Type_free(&st));
    free(typed);
    free(packed);
    MPI_Finalize();
    return 0;
}
