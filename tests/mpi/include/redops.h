/* SPDX-License-Identifier: BSD-3-Clause */
/* redops.h: checks MPI_Reduce / MPI_Allreduce with every predefined operation on every type class where
 * MPI-3.1 (5.9.2) allows it:
 *   MAX, MIN:          C integer, Fortran integer, floating point, multi-language (Aint, Offset, Count)
 *   SUM, PROD:         the same, plus complex
 *   LAND, LOR, LXOR:   C integer, logical (C_BOOL)
 *   BAND, BOR, BXOR:   C integer, Fortran integer, byte, multi-language
 *   MAXLOC, MINLOC:    the pair types (ties broken by the lower index)
 * and where MPICH and Open MPI extend it, as programs rely on: MPI_CHAR as a C integer (every operation of
 * the C integers), the logical operations on the multi-language types.
 * Element i of rank r's contribution depends on (op, r, i mod P) only, with values chosen so that results are
 * exact (no overflow, exactly representable floating-point sums and products); the expected result for the
 * P residues is folded serially in the same C type.  Indices of the pair types DEcrease with the rank, so the
 * tie rule (lower index wins) picks the highest tied rank. */
#ifndef REDOPS_H
#define REDOPS_H

#include "mtest.h"
#include <complex.h>
#include <limits.h>
#include <stdbool.h>

#define RP 13 /* period of the element pattern */

enum { O_MAX, O_MIN, O_SUM, O_PROD, O_LAND, O_LOR, O_LXOR, O_BAND, O_BOR, O_BXOR, O_MAXLOC, O_MINLOC, O_N };
static const char *const red_opname[O_N] = {"MPI_MAX",  "MPI_MIN", "MPI_SUM",  "MPI_PROD", "MPI_LAND",   "MPI_LOR",
                                            "MPI_LXOR", "MPI_BAND", "MPI_BOR", "MPI_BXOR", "MPI_MAXLOC", "MPI_MINLOC"};
static inline MPI_Op red_op(int o)
{
    const MPI_Op ops[O_N] = {MPI_MAX,  MPI_MIN,  MPI_SUM, MPI_PROD, MPI_LAND,   MPI_LOR,
                             MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC};
    return ops[o];
}

#define M_ARITH ((1 << O_MAX) | (1 << O_MIN) | (1 << O_SUM) | (1 << O_PROD))
#define M_LOGIC ((1 << O_LAND) | (1 << O_LOR) | (1 << O_LXOR))
#define M_BITS ((1 << O_BAND) | (1 << O_BOR) | (1 << O_BXOR))
#define M_CINT (M_ARITH | M_LOGIC | M_BITS)
#define M_FINT (M_ARITH | M_BITS)
#define M_MULTI (M_ARITH | M_LOGIC | M_BITS) /* M_LOGIC: MPICH's and Open MPI's extension */
#define M_FLOAT M_ARITH
#define M_COMPLEX ((1 << O_SUM) | (1 << O_PROD))
#define M_BOOL M_LOGIC
#define M_BYTE M_BITS
#define M_PAIR ((1 << O_MAXLOC) | (1 << O_MINLOC))

static inline unsigned red_hash(int r, int j, int o)
{
    unsigned h = (unsigned)r * 7919u + (unsigned)j * 104729u + (unsigned)o * 1299709u + 12345u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    return h;
}

/* integer value for op o, rank r, residue j, for a type of `bits` bits; returned as unsigned long long bits
 * (converted to the type by the caller) */
static inline unsigned long long red_ival(int o, int r, int j, int bits, int is_signed)
{
    unsigned h = red_hash(r, j, o);
    long long scale = bits == 8 ? 1 : bits == 16 ? 100 : bits == 32 ? 100000 : 1000000000000LL;
    /* MAX/MIN values span (-100..100) * mscale (signed) or (0..200) * mscale (unsigned: crossing the sign bit
     * of the same-width signed type, so a signed comparison gives a wrong result) */
    long long mscale = bits == 8 ? 1 : bits == 16 ? 300 : bits == 32 ? 20000000 : 90000000000000000LL;
    unsigned long long mask = bits == 64 ? ~0ULL : ((1ULL << bits) - 1);
    switch (o) {
    case O_SUM: return (unsigned long long)(is_signed ? ((long long)(h % 3) - 1) * scale : (long long)(h % 3) * scale);
    case O_PROD:
        if (r % 16 == j % 16)
            return 2;
        return (unsigned long long)((is_signed && h % 4 == 1) ? -1LL : 1LL);
    case O_MAX:
    case O_MIN:
        if (!is_signed && MT_MPICH_BUGS) /* MPICH 4.0 compares unsigned types as signed: pmodels/mpich#6083 */
            return (unsigned long long)(h % 101) * mscale;
        return is_signed ? (unsigned long long)(((long long)(h % 201) - 100) * mscale)
                         : (unsigned long long)(h % 201) * (unsigned long long)mscale;
    case O_LAND:
    case O_LOR:
    case O_LXOR:
        if (j % 4 == 0)
            return (unsigned long long)(h % 5 + 1);
        if (j % 4 == 1)
            return 0;
        return h % 3 == 0 ? 0 : (unsigned long long)((is_signed && (h & 8)) ? -(long long)(h % 5 + 1) : (long long)(h % 5 + 1));
    case O_BAND: return j % 3 == 0 ? mask : (mask & ~(1ULL << ((r + j) % bits)));
    case O_BOR: return j % 3 == 0 ? 0 : (1ULL << ((r * 3 + j) % bits));
    case O_BXOR: return ((unsigned long long)h * 0x9E3779B97F4A7C15ULL ^ ((unsigned long long)red_hash(j, r, 99) << 32)) & mask;
    }
    return 0;
}

/* floating value (exact in float): small multiples of powers of two */
static inline double red_fval(int o, int r, int j)
{
    unsigned h = red_hash(r, j, o);
    switch (o) {
    case O_SUM: return ((double)(h % 3) - 1.0) * 1024.0 + ((h & 4) ? 0.5 : 0.0);
    case O_PROD: return r % 16 == j % 16 ? 2.0 : (h % 4 == 1 ? -1.0 : ((h % 4 == 2) ? 0.5 : 1.0)) * ((r % 16 == (j + 8) % 16) ? 2.0 : 1.0);
    default: return ((double)(h % 201) - 100.0) * 0.5;
    }
}

/* ---- per-type operations ---- */
typedef struct {
    MPI_Datatype dt;
    const char *name;
    int opmask;
    int big;      /* also test count 100000 */
    size_t esize; /* C size of one element (the extent) */
    void (*gen)(int o, int r, int j, void *e);
    void (*combine)(int o, void *inout, const void *in); /* inout = in (op) inout */
    int (*eq)(const void *a, const void *b);
    void (*show)(const void *e, char *buf, size_t n);
} red_type;

#define RED_INT_TYPE(NAME, T, BITS, SIGNED, FMT, CAST)                                                        \
    static void gen_##NAME(int o, int r, int j, void *e) { *(T *)e = (T)red_ival(o, r, j, BITS, SIGNED); }    \
    static void comb_##NAME(int o, void *io, const void *in)                                                  \
    {                                                                                                         \
        T a = *(const T *)in, b = *(T *)io, c = 0;                                                            \
        switch (o) {                                                                                          \
        case O_MAX: c = a > b ? a : b; break;                                                                 \
        case O_MIN: c = a < b ? a : b; break;                                                                 \
        case O_SUM: c = (T)(a + b); break;                                                                    \
        case O_PROD: c = (T)(a * b); break;                                                                   \
        case O_LAND: c = (T)(a && b); break;                                                                  \
        case O_LOR: c = (T)(a || b); break;                                                                   \
        case O_LXOR: c = (T)(!a != !b); break;                                                                \
        case O_BAND: c = (T)(a & b); break;                                                                   \
        case O_BOR: c = (T)(a | b); break;                                                                    \
        case O_BXOR: c = (T)(a ^ b); break;                                                                   \
        }                                                                                                     \
        *(T *)io = c;                                                                                         \
    }                                                                                                         \
    static int eq_##NAME(const void *a, const void *b) { return *(const T *)a == *(const T *)b; }             \
    static void show_##NAME(const void *e, char *buf, size_t n) { snprintf(buf, n, FMT, (CAST) * (const T *)e); }

#define RED_FLT_TYPE(NAME, T, FMT, CAST)                                                                      \
    static void gen_##NAME(int o, int r, int j, void *e) { *(T *)e = (T)red_fval(o, r, j); }                 \
    static void comb_##NAME(int o, void *io, const void *in)                                                  \
    {                                                                                                         \
        T a = *(const T *)in, b = *(T *)io, c = 0;                                                            \
        switch (o) {                                                                                          \
        case O_MAX: c = a > b ? a : b; break;                                                                 \
        case O_MIN: c = a < b ? a : b; break;                                                                 \
        case O_SUM: c = a + b; break;                                                                         \
        case O_PROD: c = a * b; break;                                                                        \
        }                                                                                                     \
        *(T *)io = c;                                                                                         \
    }                                                                                                         \
    static int eq_##NAME(const void *a, const void *b) { return *(const T *)a == *(const T *)b; }             \
    static void show_##NAME(const void *e, char *buf, size_t n) { snprintf(buf, n, FMT, (CAST) * (const T *)e); }

#define RED_CPLX_TYPE(NAME, T, RT)                                                                            \
    static void gen_##NAME(int o, int r, int j, void *e)                                                      \
    {                                                                                                         \
        RT re = (RT)red_fval(o, r, j), im = (RT)(o == O_PROD ? ((r + j) % 5 == 0 ? 1.0 : 0.0)                 \
                                                           : red_fval(o, r + 1000, j));                       \
        RT *p = (RT *)e;                                                                                      \
        p[0] = re;                                                                                            \
        p[1] = im;                                                                                            \
    }                                                                                                         \
    static void comb_##NAME(int o, void *io, const void *in)                                                  \
    {                                                                                                         \
        const RT *a = (const RT *)in;                                                                         \
        RT *b = (RT *)io, re, im;                                                                             \
        if (o == O_SUM) {                                                                                     \
            re = a[0] + b[0];                                                                                 \
            im = a[1] + b[1];                                                                                 \
        } else {                                                                                              \
            re = a[0] * b[0] - a[1] * b[1];                                                                   \
            im = a[0] * b[1] + a[1] * b[0];                                                                   \
        }                                                                                                     \
        b[0] = re;                                                                                            \
        b[1] = im;                                                                                            \
    }                                                                                                         \
    static int eq_##NAME(const void *a, const void *b)                                                        \
    {                                                                                                         \
        return ((const RT *)a)[0] == ((const RT *)b)[0] && ((const RT *)a)[1] == ((const RT *)b)[1];          \
    }                                                                                                         \
    static void show_##NAME(const void *e, char *buf, size_t n)                                               \
    {                                                                                                         \
        snprintf(buf, n, "(%Lg,%Lg)", (long double)((const RT *)e)[0], (long double)((const RT *)e)[1]);      \
    }

#define RED_PAIR_TYPE(NAME, VT, IT)                                                                           \
    typedef struct {                                                                                          \
        VT v;                                                                                                 \
        IT i;                                                                                                 \
    } NAME##_t;                                                                                               \
    static void gen_##NAME(int o, int r, int j, void *e)                                                      \
    {                                                                                                         \
        NAME##_t *p = (NAME##_t *)e;                                                                          \
        p->v = (VT)(red_hash(r, j, o) % 5);                                                                   \
        p->i = (IT)(30000 - 3 * r - (j % 2));                                                                 \
    }                                                                                                         \
    static void comb_##NAME(int o, void *io, const void *in)                                                  \
    {                                                                                                         \
        const NAME##_t *a = (const NAME##_t *)in;                                                             \
        NAME##_t *b = (NAME##_t *)io;                                                                         \
        int a_wins = o == O_MAXLOC ? a->v > b->v : a->v < b->v;                                               \
        if (a_wins || (a->v == b->v && a->i < b->i))                                                          \
            *b = *a;                                                                                          \
    }                                                                                                         \
    static int eq_##NAME(const void *a, const void *b)                                                        \
    {                                                                                                         \
        return ((const NAME##_t *)a)->v == ((const NAME##_t *)b)->v &&                                        \
               ((const NAME##_t *)a)->i == ((const NAME##_t *)b)->i;                                          \
    }                                                                                                         \
    static void show_##NAME(const void *e, char *buf, size_t n)                                               \
    {                                                                                                         \
        snprintf(buf, n, "(%Lg,%Lg)", (long double)((const NAME##_t *)e)->v,                                  \
                 (long double)((const NAME##_t *)e)->i);                                                      \
    }

/* C_BOOL: logical values */
static void gen_cbool(int o, int r, int j, void *e) { *(bool *)e = red_ival(o, r, j, 8, 0) != 0; }
static void comb_cbool(int o, void *io, const void *in)
{
    bool a = *(const bool *)in, b = *(bool *)io;
    *(bool *)io = o == O_LAND ? (a && b) : o == O_LOR ? (a || b) : (a != b);
}
static int eq_cbool(const void *a, const void *b) { return *(const bool *)a == *(const bool *)b; }
static void show_cbool(const void *e, char *buf, size_t n) { snprintf(buf, n, "%d", (int)*(const bool *)e); }

RED_INT_TYPE(char, char, 8, CHAR_MIN < 0, "%d", int)
RED_INT_TYPE(schar, signed char, 8, 1, "%d", int)
RED_INT_TYPE(uchar, unsigned char, 8, 0, "%u", unsigned)
RED_INT_TYPE(short, short, 16, 1, "%d", int)
RED_INT_TYPE(ushort, unsigned short, 16, 0, "%u", unsigned)
RED_INT_TYPE(int, int, 32, 1, "%d", int)
RED_INT_TYPE(uint, unsigned, 32, 0, "%u", unsigned)
RED_INT_TYPE(long, long, 64, 1, "%ld", long)
RED_INT_TYPE(ulong, unsigned long, 64, 0, "%lu", unsigned long)
RED_INT_TYPE(llong, long long, 64, 1, "%lld", long long)
RED_INT_TYPE(ullong, unsigned long long, 64, 0, "%llu", unsigned long long)
RED_INT_TYPE(i8, int8_t, 8, 1, "%d", int)
RED_INT_TYPE(i16, int16_t, 16, 1, "%d", int)
RED_INT_TYPE(i32, int32_t, 32, 1, "%d", int)
RED_INT_TYPE(i64, int64_t, 64, 1, "%lld", long long)
RED_INT_TYPE(u8, uint8_t, 8, 0, "%u", unsigned)
RED_INT_TYPE(u16, uint16_t, 16, 0, "%u", unsigned)
RED_INT_TYPE(u32, uint32_t, 32, 0, "%u", unsigned)
RED_INT_TYPE(u64, uint64_t, 64, 0, "%llu", unsigned long long)
RED_INT_TYPE(aint, MPI_Aint, 64, 1, "%lld", long long)
RED_INT_TYPE(offset, MPI_Offset, 64, 1, "%lld", long long)
RED_INT_TYPE(count, MPI_Count, 64, 1, "%lld", long long)
RED_FLT_TYPE(float, float, "%g", double)
RED_FLT_TYPE(double, double, "%g", double)
RED_FLT_TYPE(ldouble, long double, "%Lg", long double)
RED_CPLX_TYPE(fcplx, float _Complex, float)
RED_CPLX_TYPE(dcplx, double _Complex, double)
RED_CPLX_TYPE(ldcplx, long double _Complex, long double)
RED_PAIR_TYPE(float_int, float, int)
RED_PAIR_TYPE(double_int, double, int)
RED_PAIR_TYPE(long_int, long, int)
RED_PAIR_TYPE(short_int, short, int)
RED_PAIR_TYPE(two_int, int, int)
RED_PAIR_TYPE(ldouble_int, long double, int)
RED_PAIR_TYPE(two_integer, int, int)
RED_PAIR_TYPE(two_real, float, float)
RED_PAIR_TYPE(two_dprec, double, double)

#define RT_(DT, NAME, MASK, BIG, CT) {DT, #DT, MASK, BIG, sizeof(CT), gen_##NAME, comb_##NAME, eq_##NAME, show_##NAME}

static const red_type red_types[] = {
    RT_(MPI_INT, int, M_CINT, 1, int),
    RT_(MPI_SIGNED_CHAR, schar, M_CINT, 0, signed char),
    RT_(MPI_CHAR, char, M_CINT, 0, char), /* an extension of MPICH and Open MPI: a C integer */
    RT_(MPI_UNSIGNED_CHAR, uchar, M_CINT, 1, unsigned char),
    RT_(MPI_SHORT, short, M_CINT, 0, short),
    RT_(MPI_UNSIGNED_SHORT, ushort, M_CINT, 0, unsigned short),
    RT_(MPI_UNSIGNED, uint, M_CINT, 0, unsigned),
    RT_(MPI_LONG, long, M_CINT, 0, long),
    RT_(MPI_UNSIGNED_LONG, ulong, M_CINT, 0, unsigned long),
    RT_(MPI_LONG_LONG_INT, llong, M_CINT, 0, long long),
    RT_(MPI_LONG_LONG, llong, M_CINT, 0, long long),
    RT_(MPI_UNSIGNED_LONG_LONG, ullong, M_CINT, 0, unsigned long long),
    RT_(MPI_INT8_T, i8, M_CINT, 0, int8_t),
    RT_(MPI_INT16_T, i16, M_CINT, 0, int16_t),
    RT_(MPI_INT32_T, i32, M_CINT, 0, int32_t),
    RT_(MPI_INT64_T, i64, M_CINT, 0, int64_t),
    RT_(MPI_UINT8_T, u8, M_CINT, 0, uint8_t),
    RT_(MPI_UINT16_T, u16, M_CINT, 0, uint16_t),
    RT_(MPI_UINT32_T, u32, M_CINT, 0, uint32_t),
    RT_(MPI_UINT64_T, u64, M_CINT, 0, uint64_t),
    RT_(MPI_INTEGER, i32, M_FINT, 0, int32_t),
    RT_(MPI_INTEGER1, i8, M_FINT, 0, int8_t),
    RT_(MPI_INTEGER2, i16, M_FINT, 0, int16_t),
    RT_(MPI_INTEGER4, i32, M_FINT, 0, int32_t),
    RT_(MPI_INTEGER8, i64, M_FINT, 0, int64_t),
    RT_(MPI_AINT, aint, M_MULTI, 0, MPI_Aint),
    RT_(MPI_OFFSET, offset, M_MULTI, 0, MPI_Offset),
    RT_(MPI_COUNT, count, M_MULTI, 0, MPI_Count),
    RT_(MPI_FLOAT, float, M_FLOAT, 0, float),
    RT_(MPI_DOUBLE, double, M_FLOAT, 1, double),
    RT_(MPI_LONG_DOUBLE, ldouble, M_FLOAT, 0, long double),
    RT_(MPI_REAL, float, M_FLOAT, 0, float),
    RT_(MPI_DOUBLE_PRECISION, double, M_FLOAT, 0, double),
    RT_(MPI_REAL4, float, M_FLOAT, 0, float),
    RT_(MPI_REAL8, double, M_FLOAT, 0, double),
    RT_(MPI_C_FLOAT_COMPLEX, fcplx, M_COMPLEX, 0, float _Complex),
    RT_(MPI_C_DOUBLE_COMPLEX, dcplx, M_COMPLEX, 0, double _Complex),
    RT_(MPI_C_LONG_DOUBLE_COMPLEX, ldcplx, M_COMPLEX, 0, long double _Complex),
    RT_(MPI_C_BOOL, cbool, M_BOOL, 0, bool),
    RT_(MPI_BYTE, uchar, M_BYTE, 0, unsigned char),
    RT_(MPI_FLOAT_INT, float_int, M_PAIR, 0, float_int_t),
    RT_(MPI_DOUBLE_INT, double_int, M_PAIR, 0, double_int_t),
    RT_(MPI_LONG_INT, long_int, M_PAIR, 0, long_int_t),
    RT_(MPI_SHORT_INT, short_int, M_PAIR, 0, short_int_t),
    RT_(MPI_2INT, two_int, M_PAIR, 1, two_int_t),
    RT_(MPI_LONG_DOUBLE_INT, ldouble_int, M_PAIR, 0, ldouble_int_t),
    RT_(MPI_2INTEGER, two_integer, M_PAIR, 0, two_integer_t),
    RT_(MPI_2REAL, two_real, M_PAIR, 0, two_real_t),
    RT_(MPI_2DOUBLE_PRECISION, two_dprec, M_PAIR, 0, two_dprec_t),
};
#define RED_NTYPES ((int)(sizeof red_types / sizeof red_types[0]))

/* Run one reduction (root < 0: MPI_Allreduce) of `count` elements; in_place: MPI_IN_PLACE (Allreduce: on all
 * ranks; Reduce: at the root).  Returns the number of errors seen by this rank. */
static inline int red_check(const red_type *t, int o, int count, int root, int in_place)
{
    int errs = 0, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t es = t->esize, n = (size_t)count;
    unsigned char expected[RP][64], tmp[64];
    for (int j = 0; j < RP; j++) {
        memset(expected[j], 0, sizeof expected[j]);
        t->gen(o, 0, j, expected[j]);
        for (int r = 1; r < size; r++) {
            memset(tmp, 0, sizeof tmp);
            t->gen(o, r, j, tmp);
            t->combine(o, expected[j], tmp);
        }
    }
    unsigned char mine[RP][64]; /* this rank's contribution repeats with period RP */
    for (int j = 0; j < RP; j++) {
        memset(mine[j], 0, sizeof mine[j]);
        t->gen(o, rank, j, mine[j]);
    }
    unsigned char *sbuf = mt_malloc(n * es + 1), *rbuf = mt_malloc(n * es + 64);
    memset(sbuf, 0, n * es + 1);
    memset(rbuf, 0xEE, n * es + 64);
    for (size_t i = 0; i < n; i++)
        memcpy(sbuf + i * es, mine[i % RP], es);
    int am_root = root < 0 || root == rank;
    int rc;
    if (in_place && am_root) {
        memcpy(rbuf, sbuf, n * es);
        rc = root < 0 ? MPI_Allreduce(MPI_IN_PLACE, rbuf, count, t->dt, red_op(o), MPI_COMM_WORLD)
                      : MPI_Reduce(MPI_IN_PLACE, rbuf, count, t->dt, red_op(o), root, MPI_COMM_WORLD);
    } else if (root < 0) {
        rc = MPI_Allreduce(sbuf, rbuf, count, t->dt, red_op(o), MPI_COMM_WORLD);
    } else {
        /* non-roots pass a NULL receive buffer in the plain variant: it is not significant there */
        rc = MPI_Reduce(sbuf, (am_root || in_place) ? rbuf : NULL, count, t->dt, red_op(o), root, MPI_COMM_WORLD);
    }
    const char *what = root < 0 ? "Allreduce" : "Reduce";
    MT_CHECK(errs, rc == MPI_SUCCESS, "%s %s %s count %d: returned %d", what, t->name, red_opname[o], count, rc);
    if (am_root) {
        for (size_t i = 0; i < n; i++)
            if (!t->eq(rbuf + i * es, expected[i % RP])) {
                char g[96], e[96];
                t->show(rbuf + i * es, g, sizeof g);
                t->show(expected[i % RP], e, sizeof e);
                MT_ERR(errs, "%s%s %s %s count %d root %d: element %zu: expected %s, got %s", what,
                       in_place ? "(IN_PLACE)" : "", t->name, red_opname[o], count, root, i, e, g);
                break;
            }
        for (size_t i = n * es; i < n * es + 64; i++)
            if (rbuf[i] != 0xEE) {
                MT_ERR(errs, "%s %s %s count %d: wrote past the receive buffer", what, t->name, red_opname[o], count);
                break;
            }
    }
    if (!(in_place && am_root)) { /* the send buffer must not change */
        for (size_t i = 0; i < n; i++) {
            if (!t->eq(sbuf + i * es, mine[i % RP])) {
                MT_ERR(errs, "%s %s %s count %d: send buffer modified at element %zu", what, t->name, red_opname[o],
                       count, i);
                break;
            }
        }
    }
    free(sbuf);
    free(rbuf);
    return errs;
}

/* all types x allowed ops x counts {0, 1, 1000} x {plain, in place}, plus count 100000 for a few types (one
 * variant per op); allreduce, or reduce with rotating roots */
static inline int red_run_all(int allreduce)
{
    int errs = 0, size, k = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int counts[4] = {0, 1, 1000, 100000};
    for (int t = 0; t < RED_NTYPES; t++)
        for (int o = 0; o < O_N; o++) {
            if (!(red_types[t].opmask & (1 << o)))
                continue;
            for (int c = 0; c < (red_types[t].big ? 4 : 3); c++)
                for (int ip = 0; ip < 2; ip++, k++) {
                    if (counts[c] == 100000 && ip != o % 2) /* the big count: one variant per op, alternating */
                        continue;
                    int root = allreduce ? -1 : (k * 5 + t) % size;
                    if (!allreduce && ip && MT_MPICH_BUGS) /* MPICH 4.0 crashes on IN_PLACE with a nonzero root:
                                                            * pmodels/mpich#6540 */
                        root = 0;
                    errs += red_check(&red_types[t], o, counts[c], root, ip);
                }
        }
    return errs;
}

#endif /* REDOPS_H */
