/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Get_elements(_x) and MPI_Get_count on partial receives of derived types: the partner sends N bytes,
 * received as up to 3 instances of struct {int; double[2]} (20 bytes of data, elements int, double, double):
 * elements count every whole basic element received, the count is whole instances or MPI_UNDEFINED, and a
 * byte count ending inside a basic element gives MPI_UNDEFINED.  Also a vector of shorts and a typed send
 * received as a partial typed receive of another type. */
#include <stddef.h>
#include "mtest.h"

typedef struct rec {
    int i;
    double d[2];
} rec;

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = (rank ^ 1) < size ? rank ^ 1 : rank;

    MPI_Datatype rt, vs;
    int bl[2] = {1, 2};
    MPI_Aint dp[2] = {offsetof(rec, i), offsetof(rec, d)};
    MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Type_create_struct(2, bl, dp, ty, &rt);
    MPI_Type_commit(&rt);
    MPI_Type_vector(4, 2, 3, MPI_SHORT, &vs); /* 8 shorts, 16 bytes */
    MPI_Type_commit(&vs);

    unsigned char *bytes = mt_malloc(256);
    memset(bytes, 0x5a, 256);
    rec r[3];
    static const struct {
        int n, elements, count;
    } cases[] = {{0, 0, 0},  {4, 1, MPI_UNDEFINED},  {12, 2, MPI_UNDEFINED}, {20, 3, 1},
                 {24, 4, MPI_UNDEFINED}, {40, 6, 2}, {60, 9, 3}, {6, MPI_UNDEFINED, MPI_UNDEFINED},
                 {30, MPI_UNDEFINED, MPI_UNDEFINED}};
    /* the last two end inside a basic element, which breaks type matching: vmpi delivers the bytes and says
     * MPI_UNDEFINED, MPICH reports truncation; so they run on vmpi only */
    size_t ncases = sizeof cases / sizeof cases[0] - (MT_MPICH_BUGS ? 2 : 0);
    for (size_t k = 0; k < ncases; k++) {
        MPI_Status st;
        MPI_Sendrecv(bytes, cases[k].n, MPI_BYTE, partner, (int)k, r, 3, rt, partner, (int)k, MPI_COMM_WORLD, &st);
        int el, cnt;
        MPI_Count elx;
        MPI_Get_elements(&st, rt, &el);
        MPI_Get_elements_x(&st, rt, &elx);
        MPI_Get_count(&st, rt, &cnt);
        MT_CHECK(errs, el == cases[k].elements && elx == cases[k].elements,
                 "%d bytes into struct{int,double[2]}: Get_elements %d / %lld, expected %d", cases[k].n, el,
                 (long long)elx, cases[k].elements);
        MT_CHECK(errs, cnt == cases[k].count, "%d bytes into struct{int,double[2]}: Get_count %d, expected %d",
                 cases[k].n, cnt, cases[k].count);
    }

    /* 2.5 vectors of shorts: 20 elements of the 8-short vector type, count undefined */
    short *sh = mt_malloc(sizeof(short) * 64), *rs = mt_malloc(sizeof(short) * 64);
    for (int i = 0; i < 64; i++)
        sh[i] = (short)(rank * 64 + i);
    MPI_Status st;
    MPI_Sendrecv(sh, 20, MPI_SHORT, partner, 50, rs, 3, vs, partner, 50, MPI_COMM_WORLD, &st);
    int el, cnt;
    MPI_Get_elements(&st, vs, &el);
    MPI_Get_count(&st, vs, &cnt);
    MT_CHECK_INT(errs, "Get_elements of 20 shorts into vectors", 20, el);
    MT_CHECK_INT(errs, "Get_count of 20 shorts into vectors", MPI_UNDEFINED, cnt);
    MPI_Get_elements(&st, MPI_SHORT, &el);
    MT_CHECK_INT(errs, "Get_elements with MPI_SHORT", 20, el);

    /* typed send of 2 vectors received as 3 records: 32 bytes = 1 record + int + double */
    MPI_Sendrecv(sh, 2, vs, partner, 51, r, 3, rt, partner, 51, MPI_COMM_WORLD, &st);
    MPI_Get_elements(&st, rt, &el);
    MT_CHECK_INT(errs, "Get_elements of 32 bytes as records", 5, el);
    /* a contiguous type of records (its blocks repeat inside an instance): 3 records + an int of 2 pairs */
    {
        MPI_Datatype pair;
        MPI_Type_contiguous(2, rt, &pair);
        MPI_Type_commit(&pair);
        rec r4[4];
        MPI_Sendrecv(bytes, 64, MPI_BYTE, partner, 52, r4, 2, pair, partner, 52, MPI_COMM_WORLD, &st);
        MPI_Get_elements(&st, pair, &el);
        MPI_Get_count(&st, pair, &cnt);
        MT_CHECK_INT(errs, "Get_elements of 64 bytes as pairs of records", 10, el);
        MT_CHECK_INT(errs, "Get_count of 64 bytes as pairs of records", MPI_UNDEFINED, cnt);
        MPI_Aint xs = 120;
        if (!MT_MPICH_BUGS) /* MPICH 4.0 crashes in Pack_external_size of struct types */
            MPI_Pack_external_size("external32", 3, pair, &xs);
        MT_CHECK_INT(errs, "external32 size of 3 pairs of records", 120, xs);
        MPI_Type_free(&pair);
    }

    /* Status_set_elements with a derived type: Get_elements and Get_count read it back (MPICH 4.0 takes the
     * count as instances, not basic elements) */
    if (MT_MPICH_BUGS) {
        free(bytes), free(sh), free(rs);
        MPI_Type_free(&rt);
        MPI_Type_free(&vs);
        return mt_finish(errs);
    }
    MPI_Status_set_elements(&st, rt, 4);
    MPI_Get_elements(&st, rt, &el);
    MPI_Get_count(&st, rt, &cnt);
    MT_CHECK_INT(errs, "Get_elements after Status_set_elements(4 records' elements)", 4, el);
    MT_CHECK_INT(errs, "Get_count after Status_set_elements(4)", MPI_UNDEFINED, cnt);
    MPI_Status_set_elements(&st, rt, 6);
    MPI_Get_count(&st, rt, &cnt);
    MT_CHECK_INT(errs, "Get_count after Status_set_elements(6)", 2, cnt);
    MPI_Get_elements(&st, MPI_BYTE, &el);
    MT_CHECK_INT(errs, "bytes after Status_set_elements(6 elements of the record)", 40, el);
    free(bytes), free(sh), free(rs);
    MPI_Type_free(&rt);
    MPI_Type_free(&vs);
    return mt_finish(errs);
}
