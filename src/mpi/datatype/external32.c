/* SPDX-License-Identifier: BSD-3-Clause */
/* The "external32" representation (MPI-3.1 13.5.2): big-endian, IEEE formats, the standard's sizes (MPI_LONG
 * is 4 bytes, MPI_LONG_DOUBLE a 16-byte IEEE quad, MPI_WCHAR 2 bytes).  Data is first packed natively in
 * typemap order, then each basic element is converted by its kind. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/datatype/external32.h"

typedef enum { K_SINT, K_UINT, K_FLOAT, K_LDOUBLE } kind;

typedef struct ext {
    int size;   /* external bytes of one part */
    int parts;  /* 2 for complex types */
    kind k;
} ext;

static ext ext_of(int basic)
{
    switch (VMPI_DT(basic)) {
    case MPI_CHAR: case MPI_SIGNED_CHAR: case MPI_INT8_T: case MPI_INTEGER1: case MPI_CHARACTER:
        return (ext){1, 1, K_SINT};
    case MPI_UNSIGNED_CHAR: case MPI_BYTE: case MPI_PACKED: case MPI_UINT8_T: case MPI_C_BOOL: case MPI_CXX_BOOL:
        return (ext){1, 1, K_UINT};
    case MPI_WCHAR: case MPI_UNSIGNED_SHORT: case MPI_UINT16_T:
        return (ext){2, 1, K_UINT};
    case MPI_SHORT: case MPI_INT16_T: case MPI_INTEGER2:
        return (ext){2, 1, K_SINT};
    case MPI_INT: case MPI_LONG: case MPI_INT32_T: case MPI_INTEGER: case MPI_INTEGER4: case MPI_LOGICAL:
        return (ext){4, 1, K_SINT};
    case MPI_UNSIGNED: case MPI_UNSIGNED_LONG: case MPI_UINT32_T:
        return (ext){4, 1, K_UINT};
    case MPI_LONG_LONG_INT: case MPI_INT64_T: case MPI_INTEGER8: case MPI_AINT: case MPI_OFFSET: case MPI_COUNT:
        return (ext){8, 1, K_SINT};
    case MPI_UNSIGNED_LONG_LONG: case MPI_UINT64_T:
        return (ext){8, 1, K_UINT};
    case MPI_INTEGER16: /* as wide in both forms: a byte swap, like a float */
        return (ext){16, 1, K_FLOAT};
    case MPI_FLOAT: case MPI_REAL: case MPI_REAL4:
        return (ext){4, 1, K_FLOAT};
    case MPI_DOUBLE: case MPI_DOUBLE_PRECISION: case MPI_REAL8:
        return (ext){8, 1, K_FLOAT};
    case MPI_LONG_DOUBLE: case MPI_REAL16:
        return (ext){16, 1, K_LDOUBLE};
    case MPI_C_FLOAT_COMPLEX: case MPI_CXX_FLOAT_COMPLEX: case MPI_COMPLEX: case MPI_COMPLEX8:
        return (ext){4, 2, K_FLOAT};
    case MPI_C_DOUBLE_COMPLEX: case MPI_CXX_DOUBLE_COMPLEX: case MPI_DOUBLE_COMPLEX: case MPI_COMPLEX16:
        return (ext){8, 2, K_FLOAT};
    case MPI_C_LONG_DOUBLE_COMPLEX: case MPI_CXX_LONG_DOUBLE_COMPLEX: case MPI_COMPLEX32:
        return (ext){16, 2, K_LDOUBLE};
    default:
        return (ext){0, 0, K_UINT};
    }
}

MPI_Count vmpi_ext32_size(const vmpi_dtype *dt, MPI_Count count)
{
    MPI_Count one = 0;
    for (int i = 0; i < dt->nelems_runs; i++) {
        ext e = ext_of(dt->elems[i].basic);
        one += dt->elems[i].n * e.size * e.parts;
    }
    return one * vmpi_dtype_groups(dt) * count; /* the runs describe one group */
}

/* Native integer of `n` bytes <-> big-endian integer of `m` bytes (sign- or zero-extended, or truncated). */
static void int_out(unsigned char *out, int m, const unsigned char *in, int n, bool sgn)
{
    uint64_t v = 0;
    memcpy(&v, in, (size_t)n); /* little-endian host: the low n bytes */
    if (sgn && n < 8 && (in[n - 1] & 0x80))
        v |= ~(uint64_t)0 << (8 * n);
    for (int i = 0; i < m; i++)
        out[m - 1 - i] = (unsigned char)(v >> (8 * i));
}

static void int_in(unsigned char *out, int n, const unsigned char *in, int m, bool sgn)
{
    uint64_t v = 0;
    for (int i = 0; i < m; i++)
        v = (v << 8) | in[i];
    if (sgn && m < 8 && (in[0] & 0x80))
        v |= ~(uint64_t)0 << (8 * m);
    memcpy(out, &v, (size_t)n);
}

static void swap(unsigned char *out, const unsigned char *in, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = in[n - 1 - i];
}

/* long double (x87 80-bit on x86-64) <-> IEEE binary128, through the compiler's __float128. */
static void ld_out(unsigned char *out, const unsigned char *in)
{
    long double x;
    memcpy(&x, in, sizeof x);
    __float128 q = (__float128)x;
    unsigned char b[16];
    memcpy(b, &q, 16);
    swap(out, b, 16);
}

static void ld_in(unsigned char *out, const unsigned char *in)
{
    unsigned char b[16];
    swap(b, in, 16);
    __float128 q;
    memcpy(&q, b, 16);
    long double x = (long double)q;
    memset(out, 0, sizeof x);
    memcpy(out, &x, sizeof x);
}

/* Converts `count` instances' worth of natively packed data `nat` to / from external32 `x`. */
static void convert(const vmpi_dtype *dt, MPI_Count count, unsigned char *nat, unsigned char *x, bool to_ext)
{
    for (MPI_Count c = 0; c < count * vmpi_dtype_groups(dt); c++)
        for (int i = 0; i < dt->nelems_runs; i++) {
            const vmpi_dtype_elems *r = &dt->elems[i];
            ext e = ext_of(r->basic);
            int nsz = r->esize / e.parts;
            for (MPI_Count j = 0; j < r->n * e.parts; j++, nat += nsz, x += e.size) {
                switch (e.k) {
                case K_SINT:
                case K_UINT:
                    if (to_ext)
                        int_out(x, e.size, nat, nsz, e.k == K_SINT);
                    else
                        int_in(nat, nsz, x, e.size, e.k == K_SINT);
                    break;
                case K_FLOAT:
                    if (to_ext)
                        swap(x, nat, nsz);
                    else
                        swap(nat, x, nsz);
                    break;
                case K_LDOUBLE:
                    if (to_ext)
                        ld_out(x, nat);
                    else
                        ld_in(nat, x);
                    break;
                }
            }
        }
}

int vmpi_ext32_pack(const void *buf, MPI_Count count, const vmpi_dtype *dt, void *out)
{
    MPI_Count nbytes = count * dt->size;
    unsigned char *nat = malloc(nbytes ? (size_t)nbytes : 1);
    if (nat == NULL)
        return MPI_ERR_NO_MEM;
    vmpi_dtype_pack(buf, count, dt, nat, nbytes);
    convert(dt, count, nat, out, true);
    free(nat);
    return MPI_SUCCESS;
}

int vmpi_ext32_unpack(const void *in, void *buf, MPI_Count count, const vmpi_dtype *dt)
{
    MPI_Count nbytes = count * dt->size;
    unsigned char *nat = malloc(nbytes ? (size_t)nbytes : 1);
    if (nat == NULL)
        return MPI_ERR_NO_MEM;
    convert(dt, count, nat, (unsigned char *)in, false);
    vmpi_dtype_unpack(nat, nbytes, buf, count, dt);
    free(nat);
    return MPI_SUCCESS;
}
