/* SPDX-License-Identifier: BSD-3-Clause */
/* The C library's hidden state is per rank, as it is per process in a process-based MPI: every rank draws
 * from rand/random (unseeded, after srand(seed) and with its own initstate/setstate tables) and the drand48
 * family (srand48, seed48, lcong48, then also erand48/nrand48/jrand48 with its own seeds), tokenizes with
 * strtok and parses its own argument list with getopt_long (grouped options, a permuted non-option), one
 * call at a time, with a barrier, AMPI_Yield or AMPI_Migrate (Rotate in the testlist: every rank moves to
 * another PE) between calls, so that the ranks of a PE and of both PEs interleave.  Every value must be
 * what glibc gives a single process with the same calls, computed here with the reentrant forms (random_r,
 * erand48_r...), which keep their state where the caller says; getopt's results are known.  errno too: the
 * value a rank sets is the one it reads after blocking, after yielding and after migrating.
 *
 * Variants (CMakeLists.txt): -privatize=auto checks everything; tls (MT_PRIVATIZE_TLS) too, but getopt's
 * (its globals are the one copy's, per process); none (MT_PRIVATIZE_NONE) shares the C library's state, so
 * with more than one rank the job must fail (exit 1): that shows the checks see shared state.  It leaves out
 * strtok and getopt, whose shared position points into another rank's buffer: they may crash instead of
 * answering wrongly, and the test must fail the same way every time. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mtest.h"

#ifndef MT_PRIVATIZE_TLS
#define MT_PRIVATIZE_TLS 0
#endif
#ifndef MT_PRIVATIZE_NONE
#define MT_PRIVATIZE_NONE 0
#endif

enum { ROUNDS = 6 };

/* The ranks' points of interleaving, one after every call: a barrier (every other rank runs), a yield, or
 * a migration (collective: the same step on every rank). */
static void interleave(int step)
{
    switch (step % 5) {
    case 0:
    case 2: MPI_Barrier(MPI_COMM_WORLD); break;
    case 1:
    case 3:
#ifdef AMPI
        AMPI_Yield();
#endif
        break;
    default: mt_migrate(); break;
    }
}

/* The reference: a process's random() with its state in `rd`, as glibc's initial one (initstate(1)). */
typedef struct {
    struct random_data rd;
    int32_t tbl[32];
} ref_random;
static void ref_random_init(ref_random *r)
{
    memset(r, 0, sizeof *r);
    initstate_r(1, (char *)r->tbl, sizeof r->tbl, &r->rd);
}
static long ref_random_next(ref_random *r)
{
    int32_t v;
    random_r(&r->rd, &v);
    return v;
}

static void check_random(int rank, int *step, int *errs)
{
    ref_random ref; /* the rank's default table */
    ref_random_init(&ref);
    for (int i = 0; i < 3; i++, interleave((*step)++))
        MT_CHECK_INT(*errs, "random() before any seed", ref_random_next(&ref), random());
    srand((unsigned)rank * 7 + 3);
    srandom_r((unsigned)rank * 7 + 3, &ref.rd);
    for (int i = 0; i < ROUNDS; i++, interleave((*step)++))
        MT_CHECK_INT(*errs, "rand() after srand(rank)", (int)ref_random_next(&ref), rand());
    /* a table of the rank's own (type 2, 64 bytes), then back to the default one with setstate */
    char *mytable = mt_malloc(64);
    ref_random other;
    memset(&other, 0, sizeof other);
    char *otable = mt_malloc(64);
    initstate_r((unsigned)rank + 100, otable, 64, &other.rd);
    char *old = initstate((unsigned)rank + 100, mytable, 64);
    MT_CHECK(*errs, old != NULL, "initstate returned NULL");
    for (int i = 0; i < ROUNDS; i++, interleave((*step)++))
        MT_CHECK_INT(*errs, "random() from the rank's initstate table", ref_random_next(&other), random());
    char *mine = setstate(old);
    MT_CHECK(*errs, mine == mytable, "setstate returned %p, expected the rank's table %p", (void *)mine,
             (void *)mytable);
    for (int i = 0; i < ROUNDS; i++, interleave((*step)++))
        MT_CHECK_INT(*errs, "random() after setstate back", ref_random_next(&ref), random());
    free(mytable);
    free(otable);
}

static void check_drand48(int rank, int *step, int *errs)
{
    struct drand48_data ref;
    memset(&ref, 0, sizeof ref);
    double d, dr;
    long l, lr;
    for (int i = 0; i < 2; i++, interleave((*step)++)) { /* unseeded: glibc's initial state */
        erand48_r(ref.__x, &ref, &dr);
        d = drand48();
        MT_CHECK(*errs, d == dr, "drand48() before any seed: expected %.17g, got %.17g", dr, d);
    }
    srand48(rank + 11);
    srand48_r(rank + 11, &ref);
    for (int i = 0; i < ROUNDS; i++, interleave((*step)++)) {
        erand48_r(ref.__x, &ref, &dr);
        d = drand48();
        MT_CHECK(*errs, d == dr, "drand48() after srand48(rank): expected %.17g, got %.17g", dr, d);
        nrand48_r(ref.__x, &ref, &lr);
        MT_CHECK_INT(*errs, "lrand48()", lr, lrand48());
        jrand48_r(ref.__x, &ref, &lr);
        MT_CHECK_INT(*errs, "mrand48()", lr, mrand48());
    }
    unsigned short seed[3] = {(unsigned short)rank, 0x1234, 0x5678}, before[3];
    memcpy(before, ref.__x, sizeof before);
    unsigned short *old = seed48(seed);
    seed48_r(seed, &ref);
    MT_CHECK(*errs, memcmp(old, before, sizeof before) == 0, "seed48 did not return the rank's previous seed");
    interleave((*step)++);
    MT_CHECK_INT(*errs, "lrand48() after seed48", (nrand48_r(ref.__x, &ref, &lr), lr), lrand48());
    /* lcong48's multiplier and addend are used by erand48 and friends on the caller's seed too */
    unsigned short p[7] = {1, 2, 3, (unsigned short)(5 + rank), 7, 0, (unsigned short)(11 + rank)};
    lcong48(p);
    lcong48_r(p, &ref);
    unsigned short x[3] = {9, 8, (unsigned short)rank}, xr[3] = {9, 8, (unsigned short)rank};
    for (int i = 0; i < ROUNDS; i++, interleave((*step)++)) {
        erand48_r(xr, &ref, &dr);
        d = erand48(x);
        MT_CHECK(*errs, d == dr, "erand48() after lcong48: expected %.17g, got %.17g", dr, d);
        nrand48_r(xr, &ref, &lr);
        l = nrand48(x);
        MT_CHECK_INT(*errs, "nrand48() after lcong48", lr, l);
        jrand48_r(xr, &ref, &lr);
        MT_CHECK_INT(*errs, "jrand48() after lcong48", lr, jrand48(x));
    }
}

static void check_strtok(int rank, int *step, int *errs)
{
    char text[64], want[16];
    snprintf(text, sizeof text, "r%d, alpha;beta, r%d ;", rank, rank);
    const char *tokens[] = {NULL, "alpha", "beta", NULL};
    char *t = strtok(text, " ,;");
    for (int i = 0; i < 4; i++, interleave((*step)++), t = strtok(NULL, " ,;")) {
        const char *w = tokens[i];
        if (i == 0 || i == 3) {
            snprintf(want, sizeof want, "r%d", rank);
            w = want;
        }
        MT_CHECK(*errs, t && strcmp(t, w) == 0, "strtok token %d: expected \"%s\", got \"%s\"", i, w, t ? t : "(null)");
    }
    MT_CHECK(*errs, t == NULL, "strtok after the last token: expected NULL, got \"%s\"", t);
}

static void check_getopt(int rank, int *step, int *errs)
{
    /* prog FILE -a --level N -cd GILE: options a, level (required argument), c and d grouped */
    char file[16], level[16], gile[16];
    snprintf(file, sizeof file, "f%d", rank);
    snprintf(level, sizeof level, "%d", rank * 3);
    snprintf(gile, sizeof gile, "g%d", rank);
    char *argv[] = {"prog", file, "-a", "--level", level, "-cd", gile, NULL};
    int argc = 7, lvl = -1;
    static const struct option longs[] = {{"level", required_argument, NULL, 'l'}, {NULL, 0, NULL, 0}};
    struct {
        int c, optind;
        const char *optarg;
    } want[] = {{'a', 3, NULL}, {'l', 5, level}, {'c', 5, NULL}, {'d', 6, NULL}, {-1, 5, NULL}};
    optind = 0; /* a fresh scan, as a second call of main would */
    for (int i = 0; i < 5; i++, interleave((*step)++)) {
        int c = getopt_long(argc, argv, "acd", longs, NULL);
        MT_CHECK(*errs, c == want[i].c && optind == want[i].optind, "getopt call %d: expected %d with optind %d, got %d "
                 "with optind %d", i, want[i].c, want[i].optind, c, optind);
        if (want[i].optarg)
            MT_CHECK(*errs, optarg == want[i].optarg, "getopt call %d: optarg is not the rank's own argument", i);
        if (c == 'l')
            lvl = atoi(optarg);
    }
    MT_CHECK_INT(*errs, "the level the rank parsed", rank * 3, lvl);
    MT_CHECK(*errs, argv[5] == file && argv[6] == gile, "getopt did not move the non-options after the options");
}

/* errno read afresh, where the compiler cannot keep its address from before */
__attribute__((noinline)) static int errno_now(void) { return errno; }

static void check_errno(int rank, int *step, int *errs)
{
    for (int i = 0; i < 5; i++) {
        errno = 1000 + 10 * rank + i;
        interleave((*step)++);
        MT_CHECK_INT(*errs, "errno after a barrier, a yield or a migration", 1000 + 10 * rank + i, errno_now());
    }
}

int main(int argc, char **argv)
{
    int errs = 0, rank, step = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    check_errno(rank, &step, &errs);
    check_random(rank, &step, &errs);
    check_drand48(rank, &step, &errs);
    if (!MT_PRIVATIZE_NONE)
        check_strtok(rank, &step, &errs);
    if (!MT_PRIVATIZE_TLS && !MT_PRIVATIZE_NONE) /* tls: the one copy's optind is the process's */
        check_getopt(rank, &step, &errs);
    return mt_finish(errs);
}
