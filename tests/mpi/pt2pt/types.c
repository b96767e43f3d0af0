/* SPDX-License-Identifier: BSD-3-Clause */
/* Every predefined datatype (C, C99 fixed-size, complex, C++-named, Fortran-named, and all the pair types
 * MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT, MPI_2INT, MPI_LONG_DOUBLE_INT) is sent around
 * the ring and received intact; MPI_Type_size and MPI_Type_get_extent have the expected values (pair types:
 * size is the sum of the members, extent is sizeof the C struct). */
#include "mtest.h"
#include <complex.h>
#include <stdbool.h>
#include <wchar.h>

enum kind { K_BYTES, K_BOOL, K_FLOAT, K_DOUBLE, K_LDOUBLE };

typedef struct {
    MPI_Datatype dt;
    const char *name;
    int size;       /* MPI_Type_size */
    enum kind kind; /* how to fill/compare */
    int nsub;       /* scalar components per element (complex: 2) */
} tinfo;

#define T(dt, size, kind, nsub) {dt, #dt, size, kind, nsub}

struct float_int { float v; int i; };
struct double_int { double v; int i; };
struct long_int { long v; int i; };
struct short_int { short v; int i; };
struct two_int { int v; int i; };
struct ldouble_int { long double v; int i; };

#define COUNT 37

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    const tinfo types[] = {
        T(MPI_CHAR, 1, K_BYTES, 1),
        T(MPI_SIGNED_CHAR, 1, K_BYTES, 1),
        T(MPI_UNSIGNED_CHAR, 1, K_BYTES, 1),
        T(MPI_BYTE, 1, K_BYTES, 1),
        T(MPI_WCHAR, (int)sizeof(wchar_t), K_BYTES, 1),
        T(MPI_SHORT, (int)sizeof(short), K_BYTES, 1),
        T(MPI_UNSIGNED_SHORT, (int)sizeof(unsigned short), K_BYTES, 1),
        T(MPI_INT, (int)sizeof(int), K_BYTES, 1),
        T(MPI_UNSIGNED, (int)sizeof(unsigned), K_BYTES, 1),
        T(MPI_LONG, (int)sizeof(long), K_BYTES, 1),
        T(MPI_UNSIGNED_LONG, (int)sizeof(unsigned long), K_BYTES, 1),
        T(MPI_LONG_LONG_INT, (int)sizeof(long long), K_BYTES, 1),
        T(MPI_LONG_LONG, (int)sizeof(long long), K_BYTES, 1),
        T(MPI_UNSIGNED_LONG_LONG, (int)sizeof(unsigned long long), K_BYTES, 1),
        T(MPI_FLOAT, (int)sizeof(float), K_FLOAT, 1),
        T(MPI_DOUBLE, (int)sizeof(double), K_DOUBLE, 1),
        T(MPI_LONG_DOUBLE, (int)sizeof(long double), K_LDOUBLE, 1),
        T(MPI_C_BOOL, (int)sizeof(bool), K_BOOL, 1),
        T(MPI_INT8_T, 1, K_BYTES, 1),
        T(MPI_INT16_T, 2, K_BYTES, 1),
        T(MPI_INT32_T, 4, K_BYTES, 1),
        T(MPI_INT64_T, 8, K_BYTES, 1),
        T(MPI_UINT8_T, 1, K_BYTES, 1),
        T(MPI_UINT16_T, 2, K_BYTES, 1),
        T(MPI_UINT32_T, 4, K_BYTES, 1),
        T(MPI_UINT64_T, 8, K_BYTES, 1),
        T(MPI_AINT, (int)sizeof(MPI_Aint), K_BYTES, 1),
        T(MPI_OFFSET, (int)sizeof(MPI_Offset), K_BYTES, 1),
        T(MPI_COUNT, (int)sizeof(MPI_Count), K_BYTES, 1),
        T(MPI_C_FLOAT_COMPLEX, (int)sizeof(float _Complex), K_FLOAT, 2),
        T(MPI_C_COMPLEX, (int)sizeof(float _Complex), K_FLOAT, 2),
        T(MPI_C_DOUBLE_COMPLEX, (int)sizeof(double _Complex), K_DOUBLE, 2),
        T(MPI_C_LONG_DOUBLE_COMPLEX, (int)sizeof(long double _Complex), K_LDOUBLE, 2),
        T(MPI_PACKED, 1, K_BYTES, 1),
        T(MPI_CXX_BOOL, 1, K_BOOL, 1),
        T(MPI_CXX_FLOAT_COMPLEX, (int)sizeof(float _Complex), K_FLOAT, 2),
        T(MPI_CXX_DOUBLE_COMPLEX, (int)sizeof(double _Complex), K_DOUBLE, 2),
        T(MPI_CXX_LONG_DOUBLE_COMPLEX, (int)sizeof(long double _Complex), K_LDOUBLE, 2),
        T(MPI_CHARACTER, 1, K_BYTES, 1),
        T(MPI_LOGICAL, 4, K_BYTES, 1),
        T(MPI_INTEGER, 4, K_BYTES, 1),
        T(MPI_REAL, 4, K_FLOAT, 1),
        T(MPI_DOUBLE_PRECISION, 8, K_DOUBLE, 1),
        T(MPI_COMPLEX, 8, K_FLOAT, 2),
        T(MPI_DOUBLE_COMPLEX, 16, K_DOUBLE, 2),
        T(MPI_INTEGER1, 1, K_BYTES, 1),
        T(MPI_INTEGER2, 2, K_BYTES, 1),
        T(MPI_INTEGER4, 4, K_BYTES, 1),
        T(MPI_INTEGER8, 8, K_BYTES, 1),
        T(MPI_REAL4, 4, K_FLOAT, 1),
        T(MPI_REAL8, 8, K_DOUBLE, 1),
        T(MPI_REAL16, 16, K_BYTES, 1), /* quad precision: all 16 bytes are significant */
        T(MPI_COMPLEX8, 8, K_FLOAT, 2),
        T(MPI_COMPLEX16, 16, K_DOUBLE, 2),
        T(MPI_COMPLEX32, 32, K_BYTES, 1),
        T(MPI_2INTEGER, 8, K_BYTES, 1),
        T(MPI_2REAL, 8, K_FLOAT, 2),
        T(MPI_2DOUBLE_PRECISION, 16, K_DOUBLE, 2),
    };
    const int ntypes = (int)(sizeof types / sizeof types[0]);
    size_t maxbytes = COUNT * 64;
    unsigned char *sb = mt_malloc(maxbytes), *rb = mt_malloc(maxbytes);
    MPI_Status st;

    for (int t = 0; t < ntypes; t++) {
        const tinfo *ti = &types[t];
        int tsize = -1, cnt = -1;
        MPI_Aint lb = -1, ext = -1;
        MPI_Type_size(ti->dt, &tsize);
        MPI_Type_get_extent(ti->dt, &lb, &ext);
        MT_CHECK(errs, tsize == ti->size && lb == 0 && ext == ti->size, "%s: size %d lb %ld extent %ld, expected %d",
                 ti->name, tsize, (long)lb, (long)ext, ti->size);
        if (tsize != ti->size)
            continue;
        size_t nb = (size_t)COUNT * tsize, nsc = (size_t)COUNT * ti->nsub;
        memset(sb, 0, maxbytes);
        switch (ti->kind) {
        case K_BYTES: mt_fill(sb, nb, rank, t); break;
        case K_BOOL: for (size_t i = 0; i < nb; i++) sb[i] = (unsigned char)((i + rank + t) % 3 == 0); break;
        case K_FLOAT: for (size_t i = 0; i < nsc; i++) ((float *)sb)[i] = rank * 1.5f + t + i * 0.25f; break;
        case K_DOUBLE: for (size_t i = 0; i < nsc; i++) ((double *)sb)[i] = rank * 1.5 + t + i * 0.25 + 1e-9; break;
        case K_LDOUBLE:
            for (size_t i = 0; i < nsc; i++) ((long double *)sb)[i] = rank * 1.5L + t + i * 0.25L + 1e-15L;
            break;
        }
        memset(rb, 0xCC, maxbytes);
        MPI_Sendrecv(sb, COUNT, ti->dt, right, t, rb, COUNT, ti->dt, left, t, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, ti->dt, &cnt);
        MT_CHECK(errs, cnt == COUNT && st.MPI_SOURCE == left, "%s: count %d source %d", ti->name, cnt,
                 st.MPI_SOURCE);
        /* what the left neighbour sent */
        int bad = -1;
        for (size_t i = 0; i < nb && bad < 0 && (ti->kind == K_BYTES || ti->kind == K_BOOL); i++)
            if (rb[i] != (ti->kind == K_BYTES ? mt_pat(left, t, i) : (unsigned char)((i + left + t) % 3 == 0)))
                bad = (int)i;
        for (size_t i = 0; i < nsc && bad < 0 && ti->kind == K_FLOAT; i++)
            if (((float *)rb)[i] != left * 1.5f + t + i * 0.25f)
                bad = (int)i;
        for (size_t i = 0; i < nsc && bad < 0 && ti->kind == K_DOUBLE; i++)
            if (((double *)rb)[i] != left * 1.5 + t + i * 0.25 + 1e-9)
                bad = (int)i;
        for (size_t i = 0; i < nsc && bad < 0 && ti->kind == K_LDOUBLE; i++)
            if (((long double *)rb)[i] != left * 1.5L + t + i * 0.25L + 1e-15L)
                bad = (int)i;
        MT_CHECK(errs, bad < 0, "%s: received data differs at component %d", ti->name, bad);
        MT_CHECK(errs, rb[nb] == 0xCC, "%s: receive wrote past %zu bytes", ti->name, nb);
    }

    /* pair types: arrays of the C structs */
#define PAIR_TEST(DT, STRUCT, VEXPR, IEXPR)                                                                   \
    do {                                                                                                      \
        STRUCT *s_ = (STRUCT *)sb, *r_ = (STRUCT *)rb;                                                        \
        int tsize_ = -1, cnt_ = -1;                                                                           \
        MPI_Aint lb_ = -1, ext_ = -1;                                                                         \
        MPI_Type_size(DT, &tsize_);                                                                           \
        MPI_Type_get_extent(DT, &lb_, &ext_);                                                                 \
        STRUCT dummy_;                                                                                        \
        int want_ = (int)(sizeof dummy_.v + sizeof dummy_.i);                                                 \
        MT_CHECK(errs, tsize_ == want_ && lb_ == 0 && ext_ == (MPI_Aint)sizeof(STRUCT),                       \
                 "%s: size %d lb %ld extent %ld, expected size %d extent %zu", #DT, tsize_, (long)lb_,         \
                 (long)ext_, want_, sizeof(STRUCT));                                                          \
        if (COUNT * sizeof(STRUCT) <= maxbytes) {                                                             \
            for (int i = 0, me = rank; i < COUNT; i++) {                                                      \
                s_[i].v = VEXPR(me, i);                                                                       \
                s_[i].i = IEXPR(me, i);                                                                       \
            }                                                                                                 \
            memset(rb, 0, maxbytes);                                                                          \
            MPI_Sendrecv(s_, COUNT, DT, right, 100, r_, COUNT, DT, left, 100, MPI_COMM_WORLD, &st);           \
            MPI_Get_count(&st, DT, &cnt_);                                                                    \
            MT_CHECK_INT(errs, #DT " count", COUNT, cnt_);                                                    \
            for (int i = 0; i < COUNT; i++)                                                                   \
                if (r_[i].v != VEXPR(left, i) || r_[i].i != IEXPR(left, i)) {                                 \
                    MT_ERR(errs, "%s: element %d differs (index %d, expected %d)", #DT, i, r_[i].i,           \
                           IEXPR(left, i));                                                                   \
                    break;                                                                                    \
                }                                                                                             \
        }                                                                                                     \
    } while (0)
#define VF(r, i) ((float)((r) * 2 + (i)) + 0.5f)
#define VD(r, i) ((double)((r) * 2 + (i)) + 0.125)
#define VL(r, i) ((long)(r) * 100000000000L + (i))
#define VS(r, i) ((short)((r) * 3 - (i)))
#define VI(r, i) ((r) * 1000 + (i))
#define VLD(r, i) ((long double)((r) * 2 + (i)) + 0.0625L)
#define IX(r, i) (-(r) * 77 - (i))
    PAIR_TEST(MPI_FLOAT_INT, struct float_int, VF, IX);
    PAIR_TEST(MPI_DOUBLE_INT, struct double_int, VD, IX);
    PAIR_TEST(MPI_LONG_INT, struct long_int, VL, IX);
    PAIR_TEST(MPI_SHORT_INT, struct short_int, VS, IX);
    PAIR_TEST(MPI_2INT, struct two_int, VI, IX);
    PAIR_TEST(MPI_LONG_DOUBLE_INT, struct ldouble_int, VLD, IX);

    free(sb);
    free(rb);
    return mt_finish(errs);
}
