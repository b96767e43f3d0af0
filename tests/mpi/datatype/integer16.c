/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_INTEGER16 (gfortran's INTEGER(16), a 16-byte two's-complement integer: MPI-3.1 3.2.2's optional
 * Fortran types) and the predefined names MPICH's datatype/typename checks: its size, extent and name;
 * Type_match_size and Type_create_f90_integer reach it; values beyond 64 bits survive a send, MPI_SUM,
 * MPI_MAX and MPI_BXOR over every rank, and external32 (big-endian, 16 bytes).  MPI_C_COMPLEX and
 * MPI_C_FLOAT_COMPLEX are one type (synonyms), named "MPI_C_COMPLEX" as in MPICH. */
#include "mtest.h"

__extension__ typedef __int128 i128;

int main(int argc, char **argv)
{
    int errs = 0, rank, size, sz = -1, len;
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    MPI_Type_size(MPI_INTEGER16, &sz);
    MT_CHECK_INT(errs, "size of MPI_INTEGER16", 16, sz);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(MPI_INTEGER16, &lb, &ext);
    MT_CHECK_INT(errs, "extent of MPI_INTEGER16", 16, ext);
    MPI_Type_get_name(MPI_INTEGER16, name, &len);
    MT_CHECK(errs, strcmp(name, "MPI_INTEGER16") == 0, "name of MPI_INTEGER16: %s", name);
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 16, &t);
    MT_CHECK(errs, t == MPI_INTEGER16, "Type_match_size(INTEGER, 16) is not MPI_INTEGER16");
    t = MPI_DATATYPE_NULL;
    MPI_Type_create_f90_integer(38, &t);
    MPI_Type_size(t, &sz);
    MT_CHECK(errs, sz == 16, "Type_create_f90_integer(38) has %d bytes, not MPI_INTEGER16's 16", sz);
    MPI_Type_get_name(MPI_C_COMPLEX, name, &len);
    MT_CHECK(errs, strcmp(name, "MPI_C_COMPLEX") == 0, "name of MPI_C_COMPLEX: %s", name);
    MT_CHECK(errs, MPI_C_COMPLEX == MPI_C_FLOAT_COMPLEX, "MPI_C_COMPLEX and MPI_C_FLOAT_COMPLEX differ");

    /* values beyond 64 bits: rank r gives (r + 1) << 70, and -(r + 1) */
    i128 v[2] = {(i128)(rank + 1) << 70, -(i128)(rank + 1)}, sum[2], mx[2], x[2];
    MPI_Allreduce(v, sum, 2, MPI_INTEGER16, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(v, mx, 2, MPI_INTEGER16, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(v, x, 2, MPI_INTEGER16, MPI_BXOR, MPI_COMM_WORLD);
    i128 n = size, wsum = (n * (n + 1) / 2) << 70, wx0 = 0, wx1 = 0;
    for (int r = 0; r < size; r++) {
        wx0 ^= (i128)(r + 1) << 70;
        wx1 ^= -(i128)(r + 1);
    }
    MT_CHECK(errs, sum[0] == wsum && sum[1] == -(n * (n + 1) / 2), "MPI_SUM on MPI_INTEGER16 is wrong");
    MT_CHECK(errs, mx[0] == n << 70 && mx[1] == -1, "MPI_MAX on MPI_INTEGER16 is wrong");
    MT_CHECK(errs, x[0] == wx0 && x[1] == wx1, "MPI_BXOR on MPI_INTEGER16 is wrong");

    /* point to point: each rank sends its values to the next */
    i128 got[2] = {0, 0};
    MPI_Sendrecv(v, 2, MPI_INTEGER16, (rank + 1) % size, 0, got, 2, MPI_INTEGER16, (rank + size - 1) % size, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int from = (rank + size - 1) % size;
    MT_CHECK(errs, got[0] == (i128)(from + 1) << 70 && got[1] == -(i128)(from + 1),
             "MPI_INTEGER16 values from rank %d are wrong", from);

    /* external32: 16 big-endian bytes, and back */
    unsigned char buf[32];
    MPI_Aint pos = 0, xsz = 0;
    MPI_Pack_external_size("external32", 2, MPI_INTEGER16, &xsz);
    MT_CHECK_INT(errs, "external32 size of 2 MPI_INTEGER16", 32, xsz);
    i128 e[2] = {(i128)0x0102030405060708 << 64 | 0x090a0b0c0d0e0f10, -2};
    MPI_Pack_external("external32", e, 2, MPI_INTEGER16, buf, sizeof buf, &pos);
    MT_CHECK_INT(errs, "external32 bytes packed", 32, pos);
    for (int i = 0; i < 16; i++) {
        MT_CHECK(errs, buf[i] == i + 1, "external32 byte %d of the first value: 0x%02x", i, buf[i]);
        MT_CHECK(errs, buf[16 + i] == (i < 15 ? 0xff : 0xfe), "external32 byte %d of -2: 0x%02x", i, buf[16 + i]);
    }
    i128 back[2] = {0, 0};
    pos = 0;
    MPI_Unpack_external("external32", buf, sizeof buf, &pos, back, 2, MPI_INTEGER16);
    MT_CHECK(errs, back[0] == e[0] && back[1] == e[1], "external32 round trip of MPI_INTEGER16 is wrong");
    return mt_finish(errs);
}
