/* SPDX-License-Identifier: BSD-3-Clause */
/* The predefined datatypes, indexed as in mpi.h. */
#include <complex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>
#include "dtype/dtype.h"

#define PAIR(A, B)                                                                                             \
    struct {                                                                                                   \
        A a;                                                                                                   \
        B b;                                                                                                   \
    }

typedef PAIR(float, int) float_int;
typedef PAIR(double, int) double_int;
typedef PAIR(long, int) long_int;
typedef PAIR(short, int) short_int;
typedef PAIR(int, int) int_int;
typedef PAIR(long double, int) ldouble_int;
typedef PAIR(float, float) float_float;
typedef PAIR(double, double) double_double;
__extension__ typedef __int128 vmpi_int128; /* MPI_INTEGER16: gfortran's INTEGER(16) */

/* Storage for block and element lists: one or two entries per type. */
static vmpi_dtype_block blocks[VMPI_DT_BUILTIN_COUNT][2];
static vmpi_dtype_elems elems[VMPI_DT_BUILTIN_COUNT][2];
static vmpi_dtype table[VMPI_DT_BUILTIN_COUNT];

static void simple(int i, const char *name, size_t size, size_t align)
{
    vmpi_dtype *t = &table[i];
    blocks[i][0] = (vmpi_dtype_block){0, (MPI_Count)size, 1, 0};
    elems[i][0] = (vmpi_dtype_elems){1, (int)size, i};
    *t = (vmpi_dtype){.size = (MPI_Count)size, .extent = (MPI_Aint)size, .true_extent = (MPI_Aint)size,
                      .contig = true, .builtin = true, .committed = true, .align = (int)align, .nblocks = 1,
                      .blocks = blocks[i], .groups = 1, .nelems_runs = 1, .elems = elems[i], .nelems = 1,
                      .basic = i};
    strcpy(t->name, name);
}

/* A (value, index) pair type for MINLOC/MAXLOC, laid out as the C struct. */
static void pair(int i, const char *name, size_t asz, size_t boff, size_t bsz, size_t extent, size_t align,
                 int abasic, int bbasic)
{
    vmpi_dtype *t = &table[i];
    int nb = 1;
    if (boff == asz) {
        blocks[i][0] = (vmpi_dtype_block){0, (MPI_Count)(asz + bsz), 1, 0};
    } else {
        blocks[i][0] = (vmpi_dtype_block){0, (MPI_Count)asz, 1, 0};
        blocks[i][1] = (vmpi_dtype_block){(MPI_Aint)boff, (MPI_Count)bsz, 1, 0};
        nb = 2;
    }
    int nr = 1;
    if (abasic == bbasic) {
        elems[i][0] = (vmpi_dtype_elems){2, (int)asz, abasic};
    } else {
        elems[i][0] = (vmpi_dtype_elems){1, (int)asz, abasic};
        elems[i][1] = (vmpi_dtype_elems){1, (int)bsz, bbasic};
        nr = 2;
    }
    MPI_Count size = (MPI_Count)(asz + bsz);
    *t = (vmpi_dtype){.size = size, .extent = (MPI_Aint)extent, .true_extent = (MPI_Aint)(boff + bsz),
                      .contig = nb == 1 && size == (MPI_Count)extent, .builtin = true, .committed = true,
                      .align = (int)align, .nblocks = nb, .blocks = blocks[i], .groups = 1, .nelems_runs = nr,
                      .elems = elems[i], .nelems = 2, .basic = i};
    strcpy(t->name, name);
}

#define SIMPLE(h, T) simple((h)&0x03ffffff, #h, sizeof(T), _Alignof(T))
#define PAIRT(h, S, A, B, HA, HB)                                                                              \
    pair((h)&0x03ffffff, #h, sizeof(A), offsetof(S, b), sizeof(B), sizeof(S), _Alignof(S), (HA)&0x03ffffff,    \
         (HB)&0x03ffffff)

__attribute__((constructor)) static void init_builtins(void)
{
    SIMPLE(MPI_CHAR, char);
    SIMPLE(MPI_SIGNED_CHAR, signed char);
    SIMPLE(MPI_UNSIGNED_CHAR, unsigned char);
    SIMPLE(MPI_BYTE, unsigned char);
    SIMPLE(MPI_WCHAR, wchar_t);
    SIMPLE(MPI_SHORT, short);
    SIMPLE(MPI_UNSIGNED_SHORT, unsigned short);
    SIMPLE(MPI_INT, int);
    SIMPLE(MPI_UNSIGNED, unsigned);
    SIMPLE(MPI_LONG, long);
    SIMPLE(MPI_UNSIGNED_LONG, unsigned long);
    SIMPLE(MPI_LONG_LONG_INT, long long);
    SIMPLE(MPI_UNSIGNED_LONG_LONG, unsigned long long);
    SIMPLE(MPI_FLOAT, float);
    SIMPLE(MPI_DOUBLE, double);
    SIMPLE(MPI_LONG_DOUBLE, long double);
    SIMPLE(MPI_C_BOOL, _Bool);
    SIMPLE(MPI_INT8_T, int8_t);
    SIMPLE(MPI_INT16_T, int16_t);
    SIMPLE(MPI_INT32_T, int32_t);
    SIMPLE(MPI_INT64_T, int64_t);
    SIMPLE(MPI_UINT8_T, uint8_t);
    SIMPLE(MPI_UINT16_T, uint16_t);
    SIMPLE(MPI_UINT32_T, uint32_t);
    SIMPLE(MPI_UINT64_T, uint64_t);
    SIMPLE(MPI_AINT, MPI_Aint);
    SIMPLE(MPI_OFFSET, MPI_Offset);
    SIMPLE(MPI_COUNT, MPI_Count);
    SIMPLE(MPI_C_COMPLEX, float _Complex); /* MPI_C_FLOAT_COMPLEX's other name, the one MPICH reports */
    SIMPLE(MPI_C_DOUBLE_COMPLEX, double _Complex);
    SIMPLE(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex);
    SIMPLE(MPI_PACKED, unsigned char);
    PAIRT(MPI_FLOAT_INT, float_int, float, int, MPI_FLOAT, MPI_INT);
    PAIRT(MPI_DOUBLE_INT, double_int, double, int, MPI_DOUBLE, MPI_INT);
    PAIRT(MPI_LONG_INT, long_int, long, int, MPI_LONG, MPI_INT);
    PAIRT(MPI_SHORT_INT, short_int, short, int, MPI_SHORT, MPI_INT);
    PAIRT(MPI_2INT, int_int, int, int, MPI_INT, MPI_INT);
    PAIRT(MPI_LONG_DOUBLE_INT, ldouble_int, long double, int, MPI_LONG_DOUBLE, MPI_INT);
    SIMPLE(MPI_CXX_BOOL, _Bool);
    SIMPLE(MPI_CXX_FLOAT_COMPLEX, float _Complex);
    SIMPLE(MPI_CXX_DOUBLE_COMPLEX, double _Complex);
    SIMPLE(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex);
    /* Fortran types, as gfortran lays them out by default */
    SIMPLE(MPI_CHARACTER, char);
    SIMPLE(MPI_LOGICAL, int);
    SIMPLE(MPI_INTEGER, int);
    SIMPLE(MPI_REAL, float);
    SIMPLE(MPI_DOUBLE_PRECISION, double);
    SIMPLE(MPI_COMPLEX, float _Complex);
    SIMPLE(MPI_DOUBLE_COMPLEX, double _Complex);
    SIMPLE(MPI_INTEGER1, int8_t);
    SIMPLE(MPI_INTEGER2, int16_t);
    SIMPLE(MPI_INTEGER4, int32_t);
    SIMPLE(MPI_INTEGER8, int64_t);
    SIMPLE(MPI_INTEGER16, vmpi_int128);
    SIMPLE(MPI_REAL4, float);
    SIMPLE(MPI_REAL8, double);
    SIMPLE(MPI_REAL16, long double);
    SIMPLE(MPI_COMPLEX8, float _Complex);
    SIMPLE(MPI_COMPLEX16, double _Complex);
    SIMPLE(MPI_COMPLEX32, long double _Complex);
    PAIRT(MPI_2INTEGER, int_int, int, int, MPI_INTEGER, MPI_INTEGER);
    PAIRT(MPI_2REAL, float_float, float, float, MPI_REAL, MPI_REAL);
    PAIRT(MPI_2DOUBLE_PRECISION, double_double, double, double, MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION);
    /* deprecated bound markers: no data, an explicit lower / upper bound where they are put */
    table[MPI_LB & 0x03ffffff] = (vmpi_dtype){.contig = true, .builtin = true, .committed = true, .has_lb = true,
                                              .align = 1, .blocks = blocks[0], .groups = 1, .elems = elems[0],
                                              .basic = MPI_LB & 0x03ffffff};
    strcpy(table[MPI_LB & 0x03ffffff].name, "MPI_LB");
    table[MPI_UB & 0x03ffffff] = (vmpi_dtype){.contig = true, .builtin = true, .committed = true, .has_ub = true,
                                              .align = 1, .blocks = blocks[0], .groups = 1, .elems = elems[0],
                                              .basic = MPI_UB & 0x03ffffff};
    strcpy(table[MPI_UB & 0x03ffffff].name, "MPI_UB");
}

const vmpi_dtype *vmpi_dtype_builtin(int i)
{
    if (i <= 0 || i >= VMPI_DT_BUILTIN_COUNT || !table[i].builtin)
        return NULL;
    return &table[i];
}
