/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test of the predefined reduction kernels: the accepted (op, type) pairs must be exactly those of
 * MPI-3.1 5.9.2 plus the extensions of MPICH and Open MPI vmpi takes over (MPI_CHAR as a C integer, logical
 * operations on the multi-language types), spelled out again here, independently of the implementation, every accepted pair must
 * compute what a separate scalar reference computes on all combinations of a value list, and a few
 * hand-computed cases pin down the semantics the reference could get wrong in the same way. */
#include <mpi.h>

#include "mpi/op/op_builtin.h"

#include <complex.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "unit_check.h"

/* ---- the specification ---- */

enum {
    G_CINT = 1 << 0,
    G_FINT = 1 << 1,
    G_FLOAT = 1 << 2,
    G_LOGICAL = 1 << 3,
    G_COMPLEX = 1 << 4,
    G_BYTE = 1 << 5,
    G_MULTI = 1 << 6,
    G_PAIR = 1 << 7,
    G_TEXT = 1 << 8, /* character types: only REPLACE and NO_OP */
    G_CHAR = 1 << 9, /* MPI_CHAR: text for MPI-3.1, a C integer for MPICH and Open MPI */
    G_ANY = (1 << 10) - 1,
};

static const MPI_Op ops[] = {MPI_MAX, MPI_MIN,  MPI_SUM,  MPI_PROD,   MPI_LAND,   MPI_BAND,    MPI_LOR,
                             MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

static unsigned op_groups(MPI_Op op)
{
    if (op == MPI_MAX || op == MPI_MIN)
        return G_CINT | G_FINT | G_FLOAT | G_MULTI | G_CHAR;
    if (op == MPI_SUM || op == MPI_PROD)
        return G_CINT | G_FINT | G_FLOAT | G_COMPLEX | G_MULTI | G_CHAR;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        return G_CINT | G_LOGICAL | G_MULTI | G_CHAR;
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        return G_CINT | G_FINT | G_BYTE | G_MULTI | G_CHAR;
    if (op == MPI_MINLOC || op == MPI_MAXLOC)
        return G_PAIR;
    if (op == MPI_REPLACE || op == MPI_NO_OP)
        return G_ANY;
    return 0;
}

static const char *op_name(MPI_Op op)
{
    static const char *const names[] = {"OP_NULL", "MAX", "MIN", "SUM", "PROD", "LAND", "BAND", "LOR",
                                        "BOR", "LXOR", "BXOR", "MINLOC", "MAXLOC", "REPLACE", "NO_OP"};
    unsigned i = (unsigned)op - (unsigned)MPI_OP_NULL;
    return i < sizeof names / sizeof names[0] ? names[i] : "?";
}

/* Element kinds the reference knows how to compute on. */
enum kind { K_NONE, K_SINT, K_UINT, K_FLT, K_DBL, K_LDBL, K_CFLT, K_CDBL, K_CLDBL, K_PAIR, K_RAW };

typedef struct { float v; int i; } float_int;
typedef struct { double v; int i; } double_int;
typedef struct { long v; int i; } long_int;
typedef struct { short v; int i; } short_int;
typedef struct { int v; int i; } int_int;
typedef struct { long double v; int i; } ldouble_int;
typedef struct { float v; float i; } float_float;
typedef struct { double v; double i; } double_double;

typedef struct {
    MPI_Datatype dt;
    const char *name;
    unsigned group;
    enum kind kind;
    size_t size;
    /* pairs: kinds and sizes of the value and index members, index offset */
    enum kind vkind, ikind;
    size_t vsize, isize, ioff;
} tinfo;

#define T(dt, g, k, sz) {dt, #dt, g, k, sz, K_NONE, K_NONE, 0, 0, 0}
#define P(dt, S, vk, ik)                                                                                     \
    {dt, #dt, G_PAIR, K_PAIR, sizeof(S), vk, ik, sizeof(((S *)0)->v), sizeof(((S *)0)->i), offsetof(S, i)}

static const tinfo types[] = {
    T(MPI_CHAR, G_CHAR, CHAR_MIN < 0 ? K_SINT : K_UINT, 1),
    T(MPI_SIGNED_CHAR, G_CINT, K_SINT, 1),
    T(MPI_UNSIGNED_CHAR, G_CINT, K_UINT, 1),
    T(MPI_BYTE, G_BYTE, K_UINT, 1),
    T(MPI_WCHAR, G_TEXT, K_RAW, sizeof(wchar_t)),
    T(MPI_SHORT, G_CINT, K_SINT, sizeof(short)),
    T(MPI_UNSIGNED_SHORT, G_CINT, K_UINT, sizeof(short)),
    T(MPI_INT, G_CINT, K_SINT, sizeof(int)),
    T(MPI_UNSIGNED, G_CINT, K_UINT, sizeof(int)),
    T(MPI_LONG, G_CINT, K_SINT, sizeof(long)),
    T(MPI_UNSIGNED_LONG, G_CINT, K_UINT, sizeof(long)),
    T(MPI_LONG_LONG_INT, G_CINT, K_SINT, sizeof(long long)),
    T(MPI_UNSIGNED_LONG_LONG, G_CINT, K_UINT, sizeof(long long)),
    T(MPI_FLOAT, G_FLOAT, K_FLT, sizeof(float)),
    T(MPI_DOUBLE, G_FLOAT, K_DBL, sizeof(double)),
    T(MPI_LONG_DOUBLE, G_FLOAT, K_LDBL, sizeof(long double)),
    T(MPI_C_BOOL, G_LOGICAL, K_UINT, sizeof(_Bool)),
    T(MPI_INT8_T, G_CINT, K_SINT, 1),
    T(MPI_INT16_T, G_CINT, K_SINT, 2),
    T(MPI_INT32_T, G_CINT, K_SINT, 4),
    T(MPI_INT64_T, G_CINT, K_SINT, 8),
    T(MPI_UINT8_T, G_CINT, K_UINT, 1),
    T(MPI_UINT16_T, G_CINT, K_UINT, 2),
    T(MPI_UINT32_T, G_CINT, K_UINT, 4),
    T(MPI_UINT64_T, G_CINT, K_UINT, 8),
    T(MPI_AINT, G_MULTI, K_SINT, sizeof(MPI_Aint)),
    T(MPI_OFFSET, G_MULTI, K_SINT, sizeof(MPI_Offset)),
    T(MPI_COUNT, G_MULTI, K_SINT, sizeof(MPI_Count)),
    T(MPI_C_COMPLEX, G_COMPLEX, K_CFLT, 2 * sizeof(float)),
    T(MPI_C_DOUBLE_COMPLEX, G_COMPLEX, K_CDBL, 2 * sizeof(double)),
    T(MPI_C_LONG_DOUBLE_COMPLEX, G_COMPLEX, K_CLDBL, 2 * sizeof(long double)),
    T(MPI_PACKED, 0, K_NONE, 1),
    P(MPI_FLOAT_INT, float_int, K_FLT, K_SINT),
    P(MPI_DOUBLE_INT, double_int, K_DBL, K_SINT),
    P(MPI_LONG_INT, long_int, K_SINT, K_SINT),
    P(MPI_SHORT_INT, short_int, K_SINT, K_SINT),
    P(MPI_2INT, int_int, K_SINT, K_SINT),
    P(MPI_LONG_DOUBLE_INT, ldouble_int, K_LDBL, K_SINT),
    T(MPI_CXX_BOOL, G_LOGICAL, K_UINT, 1),
    T(MPI_CXX_FLOAT_COMPLEX, G_COMPLEX, K_CFLT, 2 * sizeof(float)),
    T(MPI_CXX_DOUBLE_COMPLEX, G_COMPLEX, K_CDBL, 2 * sizeof(double)),
    T(MPI_CXX_LONG_DOUBLE_COMPLEX, G_COMPLEX, K_CLDBL, 2 * sizeof(long double)),
    T(MPI_CHARACTER, G_TEXT, K_RAW, 1),
    T(MPI_LOGICAL, G_LOGICAL, K_SINT, sizeof(int)),
    T(MPI_INTEGER, G_FINT, K_SINT, sizeof(int)),
    T(MPI_REAL, G_FLOAT, K_FLT, sizeof(float)),
    T(MPI_DOUBLE_PRECISION, G_FLOAT, K_DBL, sizeof(double)),
    T(MPI_COMPLEX, G_COMPLEX, K_CFLT, 2 * sizeof(float)),
    T(MPI_DOUBLE_COMPLEX, G_COMPLEX, K_CDBL, 2 * sizeof(double)),
    T(MPI_INTEGER1, G_FINT, K_SINT, 1),
    T(MPI_INTEGER2, G_FINT, K_SINT, 2),
    T(MPI_INTEGER4, G_FINT, K_SINT, 4),
    T(MPI_INTEGER8, G_FINT, K_SINT, 8),
    T(MPI_REAL4, G_FLOAT, K_FLT, 4),
    T(MPI_REAL8, G_FLOAT, K_DBL, 8),
    T(MPI_REAL16, G_FLOAT, K_LDBL, sizeof(long double)),
    T(MPI_COMPLEX8, G_COMPLEX, K_CFLT, 8),
    T(MPI_COMPLEX16, G_COMPLEX, K_CDBL, 16),
    T(MPI_COMPLEX32, G_COMPLEX, K_CLDBL, 2 * sizeof(long double)),
    P(MPI_2INTEGER, int_int, K_SINT, K_SINT),
    P(MPI_2REAL, float_float, K_FLT, K_FLT),
    P(MPI_2DOUBLE_PRECISION, double_double, K_DBL, K_DBL),
    T(MPI_LB, 0, K_NONE, 0),
    T(MPI_UB, 0, K_NONE, 0),
    T(MPI_INTEGER16, G_FINT, K_SINT, 16),
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

static const tinfo *find_type(MPI_Datatype dt)
{
    for (int t = 0; t < NTYPES; t++)
        if (types[t].dt == dt)
            return &types[t];
    return NULL;
}

/* ---- scalar load/store by kind and size ---- */

/* Integers are computed on 128 bits, the widest predefined type (MPI_INTEGER16). */
__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 s128;

static u128 load_u(const unsigned char *p, size_t size)
{
    uint8_t a;
    uint16_t b;
    uint32_t c;
    uint64_t d;
    u128 e;
    switch (size) {
    case 1: memcpy(&a, p, 1); return a;
    case 2: memcpy(&b, p, 2); return b;
    case 4: memcpy(&c, p, 4); return c;
    case 16: memcpy(&e, p, 16); return e;
    default: memcpy(&d, p, 8); return d;
    }
}

static s128 load_s(const unsigned char *p, size_t size)
{
    int8_t a;
    int16_t b;
    int32_t c;
    int64_t d;
    s128 e;
    switch (size) {
    case 1: memcpy(&a, p, 1); return a;
    case 2: memcpy(&b, p, 2); return b;
    case 4: memcpy(&c, p, 4); return c;
    case 16: memcpy(&e, p, 16); return e;
    default: memcpy(&d, p, 8); return d;
    }
}

/* Keeps the low size bytes of v: the modular result of a wrapping operation. */
static void store_u(unsigned char *p, size_t size, u128 v)
{
    uint8_t a = (uint8_t)v;
    uint16_t b = (uint16_t)v;
    uint32_t c = (uint32_t)v;
    uint64_t d = (uint64_t)v;
    switch (size) {
    case 1: memcpy(p, &a, 1); break;
    case 2: memcpy(p, &b, 2); break;
    case 4: memcpy(p, &c, 4); break;
    case 16: memcpy(p, &v, 16); break;
    default: memcpy(p, &d, 8); break;
    }
}

static long double load_f(const unsigned char *p, enum kind k)
{
    float f;
    double d;
    long double l;
    switch (k) {
    case K_FLT: memcpy(&f, p, sizeof f); return f;
    case K_DBL: memcpy(&d, p, sizeof d); return d;
    default: memcpy(&l, p, sizeof l); return l;
    }
}

static void store_f(unsigned char *p, enum kind k, long double v)
{
    float f = (float)v;
    double d = (double)v;
    switch (k) {
    case K_FLT: memcpy(p, &f, sizeof f); break;
    case K_DBL: memcpy(p, &d, sizeof d); break;
    default: memcpy(p, &v, sizeof v); break;
    }
}

static enum kind real_kind(enum kind k)
{
    return k == K_CFLT ? K_FLT : k == K_CDBL ? K_DBL : K_LDBL;
}

static size_t real_size(enum kind k)
{
    return k == K_FLT ? sizeof(float) : k == K_DBL ? sizeof(double) : sizeof(long double);
}

/* ---- reference: b = a op b on one element ---- */

static void ref_int(MPI_Op op, int is_signed, size_t size, const unsigned char *pa, unsigned char *pb)
{
    u128 ua = load_u(pa, size), ub = load_u(pb, size), r = 0;
    s128 sa = load_s(pa, size), sb = load_s(pb, size);
    int lt = is_signed ? sa < sb : ua < ub;
    int gt = is_signed ? sa > sb : ua > ub;
    if (op == MPI_MAX)
        r = gt ? ua : ub;
    else if (op == MPI_MIN)
        r = lt ? ua : ub;
    else if (op == MPI_SUM)
        r = ua + ub; /* the low bits of a wider wrapping sum are the narrow wrapping sum */
    else if (op == MPI_PROD)
        r = ua * ub;
    else if (op == MPI_LAND)
        r = ua && ub;
    else if (op == MPI_LOR)
        r = ua || ub;
    else if (op == MPI_LXOR)
        r = (ua != 0) != (ub != 0);
    else if (op == MPI_BAND)
        r = ua & ub;
    else if (op == MPI_BOR)
        r = ua | ub;
    else if (op == MPI_BXOR)
        r = ua ^ ub;
    store_u(pb, size, r);
}

static void ref_flt(MPI_Op op, enum kind k, const unsigned char *pa, unsigned char *pb)
{
    long double a = load_f(pa, k), b = load_f(pb, k), r = 0;
    if (op == MPI_MAX)
        r = a > b ? a : b;
    else if (op == MPI_MIN)
        r = a < b ? a : b;
    else if (op == MPI_SUM)
        r = a + b; /* exact for the test values, so rounding to the type matches */
    else if (op == MPI_PROD)
        r = a * b;
    store_f(pb, k, r);
}

static void ref_cplx(MPI_Op op, enum kind k, const unsigned char *pa, unsigned char *pb)
{
    enum kind rk = real_kind(k);
    size_t rs = real_size(rk);
    long double _Complex a = load_f(pa, rk) + load_f(pa + rs, rk) * I;
    long double _Complex b = load_f(pb, rk) + load_f(pb + rs, rk) * I;
    long double _Complex r = op == MPI_SUM ? a + b : a * b;
    store_f(pb, rk, creall(r));
    store_f(pb + rs, rk, cimagl(r));
}

static int pair_cmp(enum kind k, size_t size, const unsigned char *a, const unsigned char *b)
{
    if (k == K_SINT) {
        s128 x = load_s(a, size), y = load_s(b, size);
        return (x > y) - (x < y);
    }
    long double x = load_f(a, k), y = load_f(b, k);
    return (x > y) - (x < y);
}

static void ref_pair(MPI_Op op, const tinfo *ti, const unsigned char *pa, unsigned char *pb)
{
    int c = pair_cmp(ti->vkind, ti->vsize, pa, pb);
    int ic = pair_cmp(ti->ikind, ti->isize, pa + ti->ioff, pb + ti->ioff);
    int take_a = op == MPI_MINLOC ? c < 0 : c > 0;
    if (c == 0 && ic < 0)
        take_a = 1;
    if (take_a) {
        memcpy(pb, pa, ti->vsize);
        memcpy(pb + ti->ioff, pa + ti->ioff, ti->isize);
    }
}

static void ref_apply(MPI_Op op, const tinfo *ti, const unsigned char *in, unsigned char *io, size_t n)
{
    for (size_t k = 0; k < n; k++, in += ti->size, io += ti->size) {
        if (op == MPI_NO_OP)
            continue;
        if (op == MPI_REPLACE)
            memcpy(io, in, ti->size);
        else if (ti->kind == K_SINT || ti->kind == K_UINT)
            ref_int(op, ti->kind == K_SINT, ti->size, in, io);
        else if (ti->kind == K_FLT || ti->kind == K_DBL || ti->kind == K_LDBL)
            ref_flt(op, ti->kind, in, io);
        else if (ti->kind == K_CFLT || ti->kind == K_CDBL || ti->kind == K_CLDBL)
            ref_cplx(op, ti->kind, in, io);
        else if (ti->kind == K_PAIR)
            ref_pair(op, ti, in, io);
    }
}

/* Value comparison, so padding (long double, pair structs) does not matter. */
static int elem_equal(const tinfo *ti, const unsigned char *x, const unsigned char *y)
{
    switch (ti->kind) {
    case K_SINT:
    case K_UINT: return load_u(x, ti->size) == load_u(y, ti->size);
    case K_FLT:
    case K_DBL:
    case K_LDBL: return load_f(x, ti->kind) == load_f(y, ti->kind);
    case K_CFLT:
    case K_CDBL:
    case K_CLDBL: {
        enum kind rk = real_kind(ti->kind);
        size_t rs = real_size(rk);
        return load_f(x, rk) == load_f(y, rk) && load_f(x + rs, rk) == load_f(y + rs, rk);
    }
    case K_PAIR:
        return pair_cmp(ti->vkind, ti->vsize, x, y) == 0 &&
               pair_cmp(ti->ikind, ti->isize, x + ti->ioff, y + ti->ioff) == 0;
    default: return memcmp(x, y, ti->size) == 0;
    }
}

/* ---- test values ---- */

static const int64_t ivals[] = {0,    1,     -1,     2,     -2,        3,         -5,        7,
                                100,  -100,  127,    -128,  255,       1000,      -30000,    65535,
                                0x7fffffff, INT64_MIN, INT64_MAX, 0x123456789};
/* Few significant bits, so sums and products (complex ones too) are exact in float. */
static const long double fvals[] = {0, 1, -1, 2.5, -3.25, 7, -0.5, 100, 1024, -2048, 0.125};
/* Repeated values make MINLOC/MAXLOC ties; indices include equal and negative ones. */
static const int pvals[] = {3, -2, 3, 0, -2, 7};
static const int pidx[] = {0, 1, 4, -2, 1, -1};
#define NI (sizeof ivals / sizeof ivals[0])
#define NF (sizeof fvals / sizeof fvals[0])
#define NP (sizeof pvals / sizeof pvals[0])

static size_t nelems(const tinfo *ti)
{
    if (ti->kind == K_PAIR)
        return NP * NP;
    if (ti->kind == K_FLT || ti->kind == K_DBL || ti->kind == K_LDBL || ti->kind == K_CFLT ||
        ti->kind == K_CDBL || ti->kind == K_CLDBL)
        return NF;
    return NI;
}

static void gen(const tinfo *ti, size_t e, unsigned char *p)
{
    memset(p, 0, ti->size);
    switch (ti->kind) {
    case K_SINT:
    case K_UINT:
        /* C bool may only hold 0 or 1; every other integer type gets the raw (truncated) value. */
        if (ti->dt == MPI_C_BOOL || ti->dt == MPI_CXX_BOOL)
            store_u(p, 1, ivals[e] != 0);
        else
            store_u(p, ti->size, (u128)(s128)ivals[e]);
        break;
    case K_FLT:
    case K_DBL:
    case K_LDBL: store_f(p, ti->kind, fvals[e]); break;
    case K_CFLT:
    case K_CDBL:
    case K_CLDBL: {
        enum kind rk = real_kind(ti->kind);
        store_f(p, rk, fvals[e]);
        store_f(p + real_size(rk), rk, fvals[(e * 3 + 1) % NF]);
        break;
    }
    case K_PAIR: {
        unsigned char tmp[16]; /* an index member is at most 8 bytes; store_u may write 16 */
        if (ti->vkind == K_SINT) {
            store_u(p, ti->vsize, (u128)(s128)(int64_t)pvals[e % NP]);
        } else {
            store_f(p, ti->vkind, pvals[e % NP]);
        }
        if (ti->ikind == K_SINT) {
            store_u(tmp, ti->isize, (u128)(s128)(int64_t)pidx[e / NP]);
            memcpy(p + ti->ioff, tmp, ti->isize);
        } else {
            store_f(p + ti->ioff, ti->ikind, pidx[e / NP]);
        }
        break;
    }
    default:
        for (size_t b = 0; b < ti->size; b++)
            p[b] = (unsigned char)(e * 31 + b * 7 + 1);
        break;
    }
}

/* Every element combination: in[k] = E[k % m], inout[k] = E[k / m]. */
static void test_pair_values(MPI_Op op, const tinfo *ti)
{
    size_t m = nelems(ti), n = m * m, sz = ti->size;
    if (vmpi_op_builtin_check(op, ti->dt) != MPI_SUCCESS)
        return; /* already reported by test_check_matrix; applying would crash */
    unsigned char *elems = calloc(m, sz), *in = calloc(n, sz), *io = calloc(n, sz), *ref = calloc(n, sz);
    if (!elems || !in || !io || !ref) {
        CHECK(0, "out of memory");
        goto out;
    }
    for (size_t e = 0; e < m; e++)
        gen(ti, e, elems + e * sz);
    for (size_t k = 0; k < n; k++) {
        memcpy(in + k * sz, elems + (k % m) * sz, sz);
        memcpy(io + k * sz, elems + (k / m) * sz, sz);
    }
    memcpy(ref, io, n * sz);
    ref_apply(op, ti, in, ref, n);
    vmpi_op_builtin_apply(op, ti->dt, in, io, (MPI_Count)n);
    for (size_t k = 0; k < n; k++) {
        if (!elem_equal(ti, io + k * sz, ref + k * sz)) {
            CHECK(0, "%s on %s: element %zu (in #%zu, inout #%zu) differs from the reference", op_name(op),
                  ti->name, k, k % m, k / m);
            break;
        }
    }
    if (op == MPI_REPLACE)
        CHECK(memcmp(io, in, n * sz) == 0, "REPLACE on %s did not copy every byte", ti->name);
    /* count 0 must not touch the buffer */
    memcpy(ref, io, n * sz);
    vmpi_op_builtin_apply(op, ti->dt, in, io, 0);
    CHECK(memcmp(io, ref, n * sz) == 0, "%s on %s with count 0 wrote", op_name(op), ti->name);
out:
    free(elems);
    free(in);
    free(io);
    free(ref);
}

/* ---- the acceptance matrix ---- */

static void test_check_matrix(void)
{
    for (int o = 0; o <= NOPS + 1; o++) { /* MPI_OP_NULL .. one past MPI_NO_OP */
        MPI_Op op = (MPI_Op)((unsigned)MPI_OP_NULL + (unsigned)o);
        for (int d = 0; d <= VMPI_DT_BUILTIN_COUNT; d++) {
            MPI_Datatype dt = VMPI_DT(d);
            const tinfo *ti = find_type(dt);
            int want = ti && (op_groups(op) & ti->group) ? MPI_SUCCESS : MPI_ERR_OP;
            int got = vmpi_op_builtin_check(op, dt);
            CHECK(got == want, "check(%s, %s) = %d, want %d", op_name(op), ti ? ti->name : "?", got, want);
            CHECK((vmpi_op_builtin_kernel(op, dt) != NULL) == (want == MPI_SUCCESS),
                  "kernel(%s, %s) disagrees with check", op_name(op), ti ? ti->name : "?");
        }
    }
    /* every predefined datatype index is listed above */
    for (int d = 1; d < VMPI_DT_BUILTIN_COUNT; d++)
        CHECK(find_type(VMPI_DT(d)) != NULL, "datatype index %d missing from the test table", d);
    /* handles of other kinds */
    CHECK(vmpi_op_builtin_check(MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_OP, "SUM on a communicator handle");
    CHECK(vmpi_op_builtin_check(MPI_COMM_WORLD, MPI_INT) == MPI_ERR_OP, "communicator handle as op");
    CHECK(vmpi_op_builtin_check((MPI_Op)0x14000100, MPI_INT) == MPI_ERR_OP, "user op index");
    CHECK(vmpi_op_builtin_check(MPI_SUM, VMPI_DT(0x100)) == MPI_ERR_OP, "derived datatype index");
    CHECK(vmpi_op_builtin_check(MPI_SUM, MPI_DATATYPE_NULL) == MPI_ERR_OP, "SUM on MPI_DATATYPE_NULL");
    CHECK(vmpi_op_builtin_check(-1, -1) == MPI_ERR_OP, "handle -1");
    /* the named examples */
    CHECK(vmpi_op_builtin_check(MPI_MAX, MPI_C_DOUBLE_COMPLEX) == MPI_ERR_OP, "MAX on complex");
    CHECK(vmpi_op_builtin_check(MPI_BAND, MPI_FLOAT) == MPI_ERR_OP, "BAND on float");
    CHECK(vmpi_op_builtin_check(MPI_SUM, MPI_CHARACTER) == MPI_ERR_OP, "SUM on MPI_CHARACTER");
    CHECK(vmpi_op_builtin_check(MPI_MINLOC, MPI_INT) == MPI_ERR_OP, "MINLOC on MPI_INT");
    CHECK(vmpi_op_builtin_check(MPI_SUM, MPI_CHAR) == MPI_SUCCESS, "SUM on MPI_CHAR (MPICH, Open MPI)");
    CHECK(vmpi_op_builtin_check(MPI_LXOR, MPI_COUNT) == MPI_SUCCESS, "LXOR on MPI_COUNT (MPICH, Open MPI)");
    CHECK(vmpi_op_builtin_check(MPI_LAND, MPI_FLOAT) == MPI_ERR_OP, "LAND on float (an MPICH extension only)");
    CHECK(vmpi_op_builtin_check(MPI_MINLOC, MPI_CHAR) == MPI_ERR_OP, "MINLOC on MPI_CHAR");
    CHECK(vmpi_op_builtin_check(MPI_LAND, MPI_INTEGER) == MPI_ERR_OP, "LAND on Fortran INTEGER");
    CHECK(vmpi_op_builtin_check(MPI_BAND, MPI_LOGICAL) == MPI_ERR_OP, "BAND on MPI_LOGICAL");
    CHECK(vmpi_op_builtin_check(MPI_SUM, MPI_C_BOOL) == MPI_ERR_OP, "SUM on MPI_C_BOOL");
    CHECK(vmpi_op_builtin_check(MPI_REPLACE, MPI_PACKED) == MPI_ERR_OP, "REPLACE on MPI_PACKED");
    CHECK(vmpi_op_builtin_check(MPI_BXOR, MPI_BYTE) == MPI_SUCCESS, "BXOR on MPI_BYTE");
    CHECK(vmpi_op_builtin_check(MPI_MAX, MPI_COUNT) == MPI_SUCCESS, "MAX on MPI_COUNT");
    CHECK(vmpi_op_builtin_check(MPI_REPLACE, MPI_WCHAR) == MPI_SUCCESS, "REPLACE on MPI_WCHAR");
}

/* ---- hand-computed cases ---- */

/* Applies only accepted pairs, so a wrongly refused one is reported instead of crashing the test. */
static void apply1(MPI_Op op, MPI_Datatype dt, const void *in, void *io)
{
    if (vmpi_op_builtin_check(op, dt) == MPI_SUCCESS)
        vmpi_op_builtin_apply(op, dt, in, io, 1);
    else
        CHECK(0, "%s refused on datatype index %d", op_name(op), dt & 0x03ffffff);
}

#define ONE(op, dt, T, a, b, want)                                                                           \
    do {                                                                                                     \
        T in_ = (a), io_ = (b);                                                                              \
        apply1(op, dt, &in_, &io_);                                                                          \
        CHECK(io_ == (T)(want), "%s(%s, %s) on %s", op_name(op), #a, #b, #dt);                               \
    } while (0)

static void test_spot(void)
{
    ONE(MPI_MAX, MPI_INT, int, -3, -7, -3);
    ONE(MPI_MIN, MPI_INT, int, -3, -7, -7);
    ONE(MPI_SUM, MPI_UNSIGNED, unsigned, UINT_MAX, 2u, 1u);
    ONE(MPI_SUM, MPI_UINT8_T, uint8_t, 200, 100, 44);
    ONE(MPI_PROD, MPI_UNSIGNED_SHORT, unsigned short, 65535, 65535, 1);
    ONE(MPI_SUM, MPI_SIGNED_CHAR, signed char, 127, 1, -128);
    ONE(MPI_PROD, MPI_INT, int, INT_MAX, 2, -2);
    ONE(MPI_MAX, MPI_UNSIGNED_LONG, unsigned long, ULONG_MAX, 1, ULONG_MAX);
    ONE(MPI_MIN, MPI_INT64_T, int64_t, INT64_MIN, INT64_MAX, INT64_MIN);
    ONE(MPI_LAND, MPI_INT, int, 2, -5, 1);
    ONE(MPI_LAND, MPI_INT, int, 0, -5, 0);
    ONE(MPI_LOR, MPI_SHORT, short, 0, 0, 0);
    ONE(MPI_LOR, MPI_SHORT, short, 0, 256, 1);
    ONE(MPI_LXOR, MPI_INT, int, 2, -5, 0);
    ONE(MPI_LXOR, MPI_INT, int, 0, 3, 1);
    ONE(MPI_LAND, MPI_LOGICAL, int, 2, -1, 1);
    ONE(MPI_LXOR, MPI_LOGICAL, int, 4, 0, 1);
    ONE(MPI_LOR, MPI_C_BOOL, _Bool, 1, 0, 1);
    ONE(MPI_LAND, MPI_C_BOOL, _Bool, 1, 0, 0);
    ONE(MPI_BXOR, MPI_BYTE, unsigned char, 0xF0, 0xFF, 0x0F);
    ONE(MPI_SUM, MPI_CHAR, char, 'a', 1, 'b');
    ONE(MPI_MAX, MPI_CHAR, char, 'a', 'z', 'z');
    ONE(MPI_BOR, MPI_CHAR, char, 0x40, 0x01, 0x41);
    ONE(MPI_LXOR, MPI_COUNT, MPI_Count, 1LL << 40, 0, 1);
    ONE(MPI_LAND, MPI_AINT, MPI_Aint, 2, -1, 1);
    ONE(MPI_BAND, MPI_INTEGER8, int64_t, -1, 0x5555, 0x5555);
    ONE(MPI_BOR, MPI_AINT, MPI_Aint, 0x10, 0x01, 0x11);
    ONE(MPI_MAX, MPI_DOUBLE, double, -0.5, -2.0, -0.5);
    ONE(MPI_PROD, MPI_REAL, float, -3.0f, 2.5f, -7.5f);
    ONE(MPI_REPLACE, MPI_LONG_DOUBLE, long double, 1.5L, 9.0L, 1.5L);
    ONE(MPI_NO_OP, MPI_LONG_DOUBLE, long double, 1.5L, 9.0L, 9.0L);

    float fc[2][2] = {{1, 2}, {3, 4}}; /* (1+2i)(3+4i) = -5+10i */
    apply1(MPI_PROD, MPI_COMPLEX, fc[0], fc[1]);
    CHECK(fc[1][0] == -5 && fc[1][1] == 10, "PROD on MPI_COMPLEX: %g%+gi", fc[1][0], fc[1][1]);
    double _Complex dc[2] = {1 + 2 * I, 3 + 4 * I};
    apply1(MPI_PROD, MPI_C_DOUBLE_COMPLEX, &dc[0], &dc[1]);
    CHECK(creal(dc[1]) == -5 && cimag(dc[1]) == 10, "PROD on MPI_C_DOUBLE_COMPLEX");
    long double _Complex lc[2] = {-1 + 1 * I, 0.5 - 2 * I};
    apply1(MPI_SUM, MPI_COMPLEX32, &lc[0], &lc[1]);
    CHECK(creall(lc[1]) == -0.5L && cimagl(lc[1]) == -1.0L, "SUM on MPI_COMPLEX32");

    int_int ii[2];
    ii[0] = (int_int){5, 3}, ii[1] = (int_int){5, 1};
    apply1(MPI_MINLOC, MPI_2INT, &ii[0], &ii[1]);
    CHECK(ii[1].v == 5 && ii[1].i == 1, "MINLOC tie keeps the smaller index (inout)");
    ii[0] = (int_int){5, 1}, ii[1] = (int_int){5, 3};
    apply1(MPI_MAXLOC, MPI_2INT, &ii[0], &ii[1]);
    CHECK(ii[1].v == 5 && ii[1].i == 1, "MAXLOC tie takes the smaller index (in)");
    double_int di[2] = {{-1.5, 7}, {2.0, 0}}, dj[2] = {{-1.5, 7}, {2.0, 0}};
    apply1(MPI_MINLOC, MPI_DOUBLE_INT, &di[0], &di[1]);
    CHECK(di[1].v == -1.5 && di[1].i == 7, "MINLOC on MPI_DOUBLE_INT");
    apply1(MPI_MAXLOC, MPI_DOUBLE_INT, &dj[0], &dj[1]);
    CHECK(dj[1].v == 2.0 && dj[1].i == 0, "MAXLOC on MPI_DOUBLE_INT");
    float_float ff[2] = {{-4.0f, 2.0f}, {-4.0f, 9.0f}};
    apply1(MPI_MINLOC, MPI_2REAL, &ff[0], &ff[1]);
    CHECK(ff[1].v == -4.0f && ff[1].i == 2.0f, "MINLOC tie on MPI_2REAL");
    ff[0] = (float_float){1.0f, -1.0f}, ff[1] = (float_float){1.0f, -2.0f};
    apply1(MPI_MINLOC, MPI_2REAL, &ff[0], &ff[1]);
    CHECK(ff[1].v == 1.0f && ff[1].i == -2.0f, "MPI_2REAL compares its index as a float");
    short_int si[2] = {{-3, 4}, {-3, -2}};
    apply1(MPI_MAXLOC, MPI_SHORT_INT, &si[0], &si[1]);
    CHECK(si[1].v == -3 && si[1].i == -2, "MAXLOC tie on MPI_SHORT_INT with a negative index");
    ldouble_int li[2] = {{1e300L, 1}, {-1e300L, 0}};
    apply1(MPI_MAXLOC, MPI_LONG_DOUBLE_INT, &li[0], &li[1]);
    CHECK(li[1].v == 1e300L && li[1].i == 1, "MAXLOC on MPI_LONG_DOUBLE_INT");

    /* in place (in == inout) is x op x */
    int x[3] = {3, -4, 0};
    vmpi_op_builtin_apply(MPI_SUM, MPI_INT, x, x, 3);
    CHECK(x[0] == 6 && x[1] == -8 && x[2] == 0, "in-place SUM");
    vmpi_op_builtin_apply(MPI_REPLACE, MPI_INT, x, x, 3);
    CHECK(x[0] == 6 && x[1] == -8 && x[2] == 0, "in-place REPLACE");
}

int main(void)
{
    test_check_matrix();
    test_spot();
    for (int t = 0; t < NTYPES; t++)
        for (int o = 0; o < NOPS; o++)
            if (op_groups(ops[o]) & types[t].group)
                test_pair_values(ops[o], &types[t]);
    if (errs) {
        printf(" Found %d errors\n", errs);
        return 1;
    }
    printf(" No Errors\n");
    return 0;
}
