/* SPDX-License-Identifier: BSD-3-Clause */
/* The C library's functions with hidden state, per rank (libc.h): rand/srand, random/srandom/initstate/
 * setstate, the drand48 family, strtok, and (with -privatize=auto, whose copies each have their own optind)
 * getopt and its globals.  Each is glibc's reentrant form on the running rank's record; outside every rank
 * (the tls method's constructors, threads a rank starts) the C library's own, per process.  And
 * pthread_create, which must not allocate from the rank's slot. */
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include "base/compiler.h"
#include "img/image.h"
#include "img/libc.h"
#include "iso/heap.h"

#define I vmpi_img_

/* The running rank's record (an active-message handler runs as its target, as for thread_locals). */
static img_libc *mine(void)
{
    vmpi_iso_heap *h = vmpi_iso_tls_from_ ? vmpi_iso_tls_from_ : vmpi_iso_cur_;
    img_rank *r = h ? h->img : NULL;
    return r ? r->libc : NULL;
}

void vmpi_img_libc_init(img_libc *s)
{
    s->optind = 1;
    s->opterr = 1;
    s->optopt = '?';
}

/* ---- random, rand ---- */

static struct random_data *rnd(img_libc *s)
{
    if (!s->random_ready) { /* glibc's static table is the state initstate(1, table, 128) makes */
        initstate_r(1, (char *)s->random_table, sizeof s->random_table, &s->random);
        s->random_ready = true;
    }
    return &s->random;
}

static long hook_random(void)
{
    img_libc *s = mine();
    if (s == NULL)
        return random();
    int32_t v;
    random_r(rnd(s), &v);
    return v;
}

static int hook_rand(void) { return (int)hook_random(); } /* glibc's rand is (int)random() */

static void hook_srandom(unsigned seed)
{
    img_libc *s = mine();
    if (s == NULL)
        srandom(seed);
    else
        srandom_r(seed, rnd(s));
}

/* initstate and setstate return the previous state, as glibc does: the word before its table */
static char *hook_initstate(unsigned seed, char *state, size_t n)
{
    img_libc *s = mine();
    if (s == NULL)
        return initstate(seed, state, n);
    struct random_data *r = rnd(s);
    char *old = (char *)(r->state - 1);
    return initstate_r(seed, state, n, r) == -1 ? NULL : old;
}

static char *hook_setstate(char *state)
{
    img_libc *s = mine();
    if (s == NULL)
        return setstate(state);
    struct random_data *r = rnd(s);
    char *old = (char *)(r->state - 1);
    return setstate_r(state, r) < 0 ? NULL : old;
}

/* ---- drand48 and friends: erand48, nrand48 and jrand48 take the seed from the caller, but the multiplier
 * and addend lcong48 sets (and srand48 and seed48 reset) from the hidden state ---- */

static double hook_erand48(unsigned short x[3])
{
    img_libc *s = mine();
    double v;
    return s ? (erand48_r(x, &s->d48, &v), v) : erand48(x);
}
static long hook_nrand48(unsigned short x[3])
{
    img_libc *s = mine();
    long v;
    return s ? (nrand48_r(x, &s->d48, &v), v) : nrand48(x);
}
static long hook_jrand48(unsigned short x[3])
{
    img_libc *s = mine();
    long v;
    return s ? (jrand48_r(x, &s->d48, &v), v) : jrand48(x);
}
/* drand48, lrand48 and mrand48 are those on the hidden seed, as in glibc */
static double hook_drand48(void)
{
    img_libc *s = mine();
    return s ? hook_erand48(s->d48.__x) : drand48();
}
static long hook_lrand48(void)
{
    img_libc *s = mine();
    return s ? hook_nrand48(s->d48.__x) : lrand48();
}
static long hook_mrand48(void)
{
    img_libc *s = mine();
    return s ? hook_jrand48(s->d48.__x) : mrand48();
}
static void hook_srand48(long seed)
{
    img_libc *s = mine();
    if (s == NULL)
        srand48(seed);
    else
        srand48_r(seed, &s->d48);
}
static unsigned short *hook_seed48(unsigned short seed[3])
{
    img_libc *s = mine();
    if (s == NULL)
        return seed48(seed);
    seed48_r(seed, &s->d48);
    return s->d48.__old_x; /* glibc's seed48 returns its state's previous seed */
}
static void hook_lcong48(unsigned short p[7])
{
    img_libc *s = mine();
    if (s == NULL)
        lcong48(p);
    else
        lcong48_r(p, &s->d48);
}

/* ---- strtok ---- */

static char *hook_strtok(char *str, const char *delim)
{
    img_libc *s = mine();
    return s ? strtok_r(str, delim, &s->strtok_pos) : strtok(str, delim);
}

/* ---- getopt (auto only: the copy's own optind and the others are bound to the record's) ---- */

extern int __posix_getopt(int argc, char *const *argv, const char *opts);

static int hook_getopt(int argc, char *const *argv, const char *opts)
{
    img_libc *s = mine();
    return s ? vmpi_img_getopt(s, argc, (char **)argv, opts, NULL, NULL, false, false) : getopt(argc, argv, opts);
}
static int hook_posix_getopt(int argc, char *const *argv, const char *opts)
{
    img_libc *s = mine();
    return s ? vmpi_img_getopt(s, argc, (char **)argv, opts, NULL, NULL, false, true)
             : __posix_getopt(argc, argv, opts);
}
static int hook_getopt_long(int argc, char *const *argv, const char *opts, const struct option *longs, int *ind)
{
    img_libc *s = mine();
    return s ? vmpi_img_getopt(s, argc, (char **)argv, opts, longs, ind, false, false)
             : getopt_long(argc, argv, opts, longs, ind);
}
static int hook_getopt_long_only(int argc, char *const *argv, const char *opts, const struct option *longs,
                                 int *ind)
{
    img_libc *s = mine();
    return s ? vmpi_img_getopt(s, argc, (char **)argv, opts, longs, ind, true, false)
             : getopt_long_only(argc, argv, opts, longs, ind);
}

/* A thread a rank starts is its process's, not the rank's: glibc's records of it (the thread's vector of
 * thread-local blocks, which the creating thread allocates) come from the system allocator, not from the
 * rank's slot, which leaves the process when the rank moves to another one (glibc frees them when it reuses
 * the thread's stack). */
static int hook_pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    vmpi_iso_heap *h = vmpi_iso_cur_;
    vmpi_iso_cur_ = NULL;
    int r = pthread_create(t, attr, fn, arg);
    vmpi_iso_cur_ = h;
    return r;
}

static const struct {
    const char *name;
    void *fn;
    bool auto_only; /* getopt: with -privatize=tls the one copy's optind is the process's */
} fns[] = {
    {"pthread_create", (void *)hook_pthread_create, false},
    {"rand", (void *)hook_rand, false},
    {"srand", (void *)hook_srandom, false},
    {"random", (void *)hook_random, false},
    {"srandom", (void *)hook_srandom, false},
    {"initstate", (void *)hook_initstate, false},
    {"setstate", (void *)hook_setstate, false},
    {"drand48", (void *)hook_drand48, false},
    {"erand48", (void *)hook_erand48, false},
    {"lrand48", (void *)hook_lrand48, false},
    {"nrand48", (void *)hook_nrand48, false},
    {"mrand48", (void *)hook_mrand48, false},
    {"jrand48", (void *)hook_jrand48, false},
    {"srand48", (void *)hook_srand48, false},
    {"seed48", (void *)hook_seed48, false},
    {"lcong48", (void *)hook_lcong48, false},
    {"strtok", (void *)hook_strtok, false},
    {"getopt", (void *)hook_getopt, true},
    {"__posix_getopt", (void *)hook_posix_getopt, true},
    {"getopt_long", (void *)hook_getopt_long, true},
    {"getopt_long_only", (void *)hook_getopt_long_only, true},
};

static const struct {
    const char *name;
    long off;
} vars[] = {
    {"optind", offsetof(img_libc, optind)},
    {"optarg", offsetof(img_libc, optarg)},
    {"opterr", offsetof(img_libc, opterr)},
    {"optopt", offsetof(img_libc, optopt)},
};

void *vmpi_img_libc_fn(const char *name)
{
    for (size_t i = 0; i < VMPI_ARRAY_LEN(fns); i++)
        if (strcmp(name, fns[i].name) == 0)
            return fns[i].auto_only && I.method != VMPI_PRIV_AUTO ? NULL : fns[i].fn;
    return NULL;
}

long vmpi_img_libc_var(const char *name)
{
    if (I.method != VMPI_PRIV_AUTO)
        return -1;
    for (size_t i = 0; i < VMPI_ARRAY_LEN(vars); i++)
        if (strcmp(name, vars[i].name) == 0)
            return vars[i].off;
    return -1;
}
